"""Positions for ``winner`` (who wins a trick) and ``kitty`` (what the kitty is worth).

``winner`` scenarios (``kind``, ``plan``): ``boundary`` — one unit against
the same unit across a boundary of the card order (or an equal card: the
first played wins); ``window`` — pairs around a boundary or on a run window
of cards that are not neighbours, answered mostly by the same shape;
``wrap`` — the AA22 tractor where 2s are fixed trump; ``upgrade`` — a
tractor of pairs against a tractor of triples of as many cards; ``plan`` —
a lead of every unit and throw shape answered by the same shape, a ruff of
the same or another shape, or a discard; ``ruffs`` — a side-suit throw
ruffed by two followers (``compare.multi``); ``counts_ruff`` — a throw
ruffed by one play of another shape that contains its units
(``ruff.structure``).

``kitty`` scenarios (``plan``, ``class``, ``side``): the last trick is won
by ``plan`` (a single, pair, triple, tractor or throw) in trump or a side
suit, by the lead while the others discard, by a ruff or by a follower of
the same shape; the banker sits so that ``side`` (attackers or banker) wins
it; the kitty is rich in point cards.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

from reference_impl.cards import RANKS, card
from reference_impl.combos import classify
from reference_impl.trick import judge_trick
from reference_impl.trump import TRUMP
from tractor_dsl.patterns import can_form, units_as_holding

from conformance.generation.positions.draw import Draw
from conformance.generation.positions.scenario import Scenario
from conformance.generation.positions.suits import (SUIT_LETTERS, Unit, draw_context, draw_suit, fits, fmt, place, shapes_of, side_suits, singles,
                    suits, throw_plans, tractor_sizes, unit_plans, view)
from conformance.generation.positions.shapes import boundary_cards

ANSWERS = ("same", "same", "ruff", "ruff_other", "same_other", "equal", "neighbour", "discard")


def answer_play(d: Draw, rules, ctx, kind: str, suit: int, plan, lead: list[int], avail: Counter) -> list[int]:
    """A follower's play of ``len(lead)`` cards answering ``lead`` the way ``kind`` says."""
    n = len(lead)
    target = TRUMP if kind in ("ruff", "ruff_other") else suit
    v = view(ctx, target)
    placed = None
    if kind in ("same", "ruff"):
        placed = place(d, v, plan, avail)
    elif kind in ("ruff_other", "same_other"):
        placed = place(d, v, d.pick(shapes_of(rules, n)), avail)
    elif kind in ("equal", "neighbour"):
        shift = 0 if kind == "equal" else d.pick((1, -1))
        placed = Counter()
        for c, m in sorted(Counter(lead).items()):
            g = v.group_of[c] + shift
            options = [x for x in v.groups[g] if avail[x] - placed[x] >= m] if 0 <= g < len(v.groups) else []
            if not options:
                placed = None
                break
            placed[d.pick(options)] += m
    if placed is not None:
        return list(placed.elements())
    pool = Counter({c: k for c, k in avail.items() if ctx.suit[c] != suit and k > 0})
    return singles(d, pool, n) or []


@lru_cache(maxsize=None)
def winner_scenarios(rules) -> tuple[Scenario, ...]:
    out: list[tuple] = [("boundary", None), ("window", None)]
    if rules["tractor.ace_two"] != "none" and "2" in rules["trump.fixed_ranks"]:
        out.append(("wrap", None))
    if 2 in tractor_sizes(rules) and 3 in tractor_sizes(rules):
        out.append(("upgrade", None))
    out += [("plan", p) for p in unit_plans(rules)]
    out += [("plan", p) for p in throw_plans(rules)]
    out += [("ruffs", p) for p in throw_plans(rules)]
    out += [("counts_ruff", p) for p in throw_plans(rules)]
    return tuple(Scenario("winner", k, (p,)) for k, p in out)


@lru_cache(maxsize=None)
def containing(rules, plan: tuple[Unit, ...]) -> tuple[tuple[Unit, ...], ...]:
    """Other shapes of as many cards that contain ``plan``'s units (a triple holds a pair and a single)."""
    n = sum(s * k for s, k in plan)
    out = []
    for alt in shapes_of(rules, n):
        runs, counts = units_as_holding(alt)
        if sorted(alt) != sorted(plan) and can_form(list(plan), runs, counts):
            out.append(alt)
    return tuple(out)


def ranks_meet(high: str, low: str) -> Scenario:
    """Aimed only at the alternatives that make both ranks fixed trumps in one order or the other (V09): a
    single ``high`` of a side suit led, a single ``low`` of another side suit after it (the rest low cards of
    the led suit), so that which rank ranks above the other decides the trick."""
    return Scenario("winner", "ranks_meet", (high, low))


def _ranks_meet(d: Draw, rules, level, trump, sc: Scenario) -> dict:
    high, low = sc.args
    d.require(trump is not None and level not in (high, low))
    side = [s for s in SUIT_LETTERS if s != trump]
    led, other = d.sample(side, 2)
    leader = d.int(0, 3)
    fixed = set(rules["trump.fixed_ranks"])
    filler = [r for r in RANKS[1:8] if r not in (level, high, low) and r not in fixed and r not in rules.points]
    d.require(len(filler) >= 2)
    plays = [[], [], [], []]
    plays[leader] = [card(high, led)]
    plays[(leader + 1) % 4] = [card(low, other)]
    for k, r in zip((2, 3), d.sample(filler, 2)):
        plays[(leader + k) % 4] = [card(r, led)]
    return {"level": level, "trump": trump, "leader": leader, "plays": [fmt(p) for p in plays]}


def build_winner(d: Draw, rules, sc: Scenario) -> dict:
    level, trump, ctx = draw_context(d, rules)
    if sc.kind == "ranks_meet":
        return _ranks_meet(d, rules, level, trump, sc)
    decks = rules.decks
    leader = d.int(0, 3)
    kind, plan = sc.kind, sc.args[0]
    suit = TRUMP if kind == "wrap" else draw_suit(d, ctx, "half" if kind in ("boundary", "window") else "some")
    if kind in ("ruffs", "counts_ruff"):
        d.require(suit != TRUMP)
    v = view(ctx, suit)
    avail = Counter({c: decks for c in range(54)})
    plays: list[list[int]] = [[], [], [], []]
    answers: list[list[int] | None] = [None, None, None]
    if kind == "boundary":  # one unit against the same unit on the other side of a boundary
        cards = boundary_cards(d, rules, v, special=False)
        d.require(cards is not None and len(set(cards)) >= 2)
        groups = sorted(set(cards), key=lambda c: ctx.key[c])
        size = cards.count(groups[0])
        a, b = d.permutation(groups[:2])
        lead = [a] * size
        answers[d.int(0, 2)] = [b] * size
        plan = ((size, 1),)
    elif kind == "wrap":  # the AA22 tractor against another tractor of trump
        d.require(ctx.wrap_cards)
        size = d.pick(tractor_sizes(rules))
        lead = [c for c in sorted(ctx.wrap_cards) for _ in range(size)]
        plan = ((size, 2),)
        kind = "window"
    elif kind == "window":  # pairs (a tractor or not) around a boundary, answered by any play
        lead = boundary_cards(d, rules, v)
        d.require(lead is not None)
        plan = tuple(classify(ctx, lead).units)
    elif kind == "upgrade":  # a tractor of pairs against a tractor of triples of as many cards
        lead_units, answer_units = ((2, 3),), ((3, 2),)
        placed = place(d, v, lead_units, avail)
        d.require(placed is not None)
        lead = list(placed.elements())
        target = TRUMP if d.bool() else suit
        other = place(d, view(ctx, target), answer_units, avail - placed)
        d.require(other is not None)
        answers[d.int(0, 2)] = list(other.elements())
        plan = lead_units
    elif kind == "counts_ruff":  # a throw ruffed by another shape that contains its units
        d.require(fits(v, plan) and containing(rules, plan))
        placed = place(d, v, plan, avail)
        d.require(placed is not None)
        lead = list(placed.elements())
        other = place(d, view(ctx, TRUMP), d.pick(containing(rules, plan)), avail - placed)
        d.require(other is not None)
        answers[d.int(0, 2)] = list(other.elements())
    else:
        d.require(fits(v, plan))
        placed = place(d, v, plan, avail)
        d.require(placed is not None)
        lead = list(placed.elements())
    d.require(classify(ctx, lead).suit == suit)
    avail -= Counter(lead)
    for a in answers:
        if a:
            avail -= Counter(a)
    plays[leader] = lead
    answer_kinds = {"ruffs": ("ruff", "ruff_other"), "window": ("same", "same", "neighbour", "ruff", "discard")}
    for k in (1, 2, 3):
        play = answers[k - 1]
        if play is None:
            play = answer_play(d, rules, ctx, d.pick(answer_kinds.get(kind, ANSWERS)), suit, plan, lead, avail)
            avail -= Counter(play)
        d.require(len(play) == len(lead))
        plays[(leader + k) % 4] = play
    return {"level": level, "trump": trump, "leader": leader, "plays": [fmt(p) for p in plays]}


# --------------------------------------------------------------------------- kitty

def point_cards(rules) -> list[int]:
    return [card(r, s) for r in RANKS if rules.points.get(r, 0) for s in SUIT_LETTERS]


def kitty_cards(d: Draw, rules, avail: Counter, size: int) -> list[int]:
    """``size`` cards from ``avail``, most of them point cards."""
    points = point_cards(rules)
    out: list[int] = []
    left = Counter(avail)
    for _ in range(size):
        rich = d.chance(2, 3)
        options = [c for c in (points if rich else range(54)) if left[c] > 0] or [c for c in range(54) if left[c] > 0]
        c = d.pick(options)
        left[c] -= 1
        out.append(c)
    return out


@lru_cache(maxsize=None)
def kitty_plans(rules) -> tuple[tuple[Unit, ...], ...]:
    t = max(2, rules["tractor.min_length"])
    plans: list[tuple[Unit, ...]] = [((1, 1),), ((2, 1),)]
    if rules.decks >= 3:
        plans.append(((3, 1),))
    plans += [((s, t),) for s in tractor_sizes(rules)] + [((s, t + 1),) for s in tractor_sizes(rules)]
    plans += [((2, 1), (1, 1)), ((2, t), (1, 1))]
    if rules.decks >= 3:
        plans += [((3, 1), (2, 1))]
    return tuple(dict.fromkeys(plans))


@lru_cache(maxsize=None)
def kitty_scenarios(rules) -> tuple[Scenario, ...]:
    """Every winning shape, in trump and in a side suit, won by the attackers and by the banker side."""
    return tuple(Scenario("kitty", "last_trick", (plan, cls, side)) for plan in kitty_plans(rules)
                 for cls in ("trump", "side") for side in ("attackers", "banker"))


def build_kitty(d: Draw, rules, sc: Scenario) -> dict:
    level, trump, ctx = draw_context(d, rules)
    decks = rules.decks
    leader = d.int(0, 3)
    plan, cls, side = sc.args
    if cls == "trump":  # trump wins: led, or ruffing a side suit
        mode = d.pick(("lead", "lead", "ruff", "over"))
        suit = TRUMP if mode != "ruff" else d.pick(side_suits(ctx))
    else:
        mode = d.pick(("lead", "lead", "over"))
        suit = d.pick(side_suits(ctx))
    v = view(ctx, suit)
    d.require(fits(v, plan))
    avail = Counter({c: decks for c in range(54)})
    placed = place(d, v, plan, avail)
    d.require(placed is not None)
    lead = list(placed.elements())
    avail -= placed
    beater = d.int(1, 3)
    others = [s for s in suits(ctx) if s not in (suit, TRUMP)]
    plays: list[list[int]] = [[], [], [], []]
    plays[leader] = lead
    for k in (1, 2, 3):
        play = None
        if k == beater and mode == "ruff" and suit != TRUMP:
            play = answer_play(d, rules, ctx, d.pick(("ruff", "ruff_other")), suit, plan, lead, avail)
        elif k == beater and mode == "over":
            play = answer_play(d, rules, ctx, "same", suit, plan, lead, avail)
        if not play or len(play) != len(lead):  # a discard that cannot win
            pool = Counter({c: avail[c] for s in others for c in view(ctx, s).cards})
            play = singles(d, pool, len(lead))
            d.require(play is not None)
        avail -= Counter(play)
        plays[(leader + k) % 4] = play
    kitty = kitty_cards(d, rules, avail, rules.kitty_size)
    order = [plays[(leader + k) % 4] for k in range(4)]
    won = (leader + judge_trick(ctx, order).value) % 4
    banker = (won + (0 if side == "banker" else 1) + 2 * d.int(0, 1)) % 4
    return {"level": level, "trump": trump, "banker": banker,
            "last_trick": {"leader": leader, "plays": [fmt(p) for p in plays]}, "kitty": fmt(kitty)}
