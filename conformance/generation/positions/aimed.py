"""Aimed positions where the other builders are blind: deviations no alternative of the spec describes.

The alternatives (:mod:`conformance.generation.alternatives`) tell the seeded suite
what to decide; a bug outside them is met only by chance in the random
complement. These positions go where real engines were seen to go wrong:

* ties between equal plays in ``winner`` — two copies of one card, and equal
  cards of one tier (off-suit level cards, off-suit fixed ranks), singles and
  pairs, with the earlier of the two plays winning or the leader tied;
* equal cards in ``follow`` — a trump pair led to a hand holding two equal
  cards of one tier that are no pair, with or without a real pair;
* holdings of jokers only and of level cards only, classified, led and
  followed (a follower without jokers facing a joker lead, holding trumps);
* a declaration after a reinforcement that equals only the reinforced count
  (it beats the original one), and an offender declaring again after his
  wrong declaration;
* whole hands whose banker buries point cards.

Each position records what it is aimed at in ``decides`` (``aimed: ...``).
"""
from __future__ import annotations

from reference_impl.cards import BIG_JOKER, SMALL_JOKER, card, rank_of
from reference_impl.trump import TRUMP

from conformance.generation.positions.draw import Draw, Rejected
from conformance.generation.positions.scenario import Scenario
from conformance.generation.positions.suits import SUIT_LETTERS, draw_context, fmt, levels, side_suits, view

TRIES = 40


def _tie(d: Draw, rules, size: int, equal: str, tied_leader: bool) -> dict:
    """A trick where two plays of ``size`` equal cards (``equal`` "same": copies of one card; "tier": equal
    cards of one trump tier) are the best, the earlier of them first or the leader's."""
    level, trump, ctx = draw_context(d, rules)
    suit = TRUMP if equal == "tier" else d.pick([TRUMP] + side_suits(ctx))
    v = view(ctx, suit)
    if equal == "tier":
        tiers = [g for g in v.groups[1:] if len(g) >= 2]
        d.require(bool(tiers) and size <= rules.decks)
        g = d.pick(tiers)
        x, y = d.sample(list(g), 2)
    else:
        d.require(len(v.groups) >= 2 and 2 * size <= rules.decks)
        g = d.pick(v.groups[1:])
        x = y = d.pick(list(g))
    low_groups = [h for h in v.groups if v.groups.index(h) < v.groups.index(g)]
    d.require(bool(low_groups))
    low = d.pick(list(d.pick(low_groups)))
    others = [s for s in side_suits(ctx) if s != suit]
    d.require(bool(others))
    discard = view(ctx, d.pick(others)).cards
    d.require(len(discard) >= size)
    leader = d.int(0, 3)
    plays: list[list[int]] = [[], [], [], []]
    if tied_leader:
        first, second = leader, (leader + d.int(1, 3)) % 4
    else:
        k = d.int(1, 2)
        first, second = (leader + k) % 4, (leader + d.int(k + 1, 3)) % 4
        plays[leader] = [low] * size
    plays[first] = [x] * size
    plays[second] = [y] * size
    for seat in range(4):
        if not plays[seat]:
            plays[seat] = list(discard[:size])
    return {"level": level, "trump": trump, "leader": leader, "plays": [fmt(p) for p in plays]}


def _follow_tie(d: Draw, rules, with_pair: bool) -> dict:
    """A lead of a trump pair, followed by a hand holding two equal cards of one trump tier that are no pair
    (off-suit level cards, off-suit fixed ranks): without a real pair, two other trumps are played; with one,
    the two equal cards are played instead of it."""
    level, trump, ctx = draw_context(d, rules)
    v = view(ctx, TRUMP)
    d.require(rules.decks >= 2)
    tiers = [g for g in v.groups if len(g) >= 2]
    d.require(bool(tiers))
    g = d.pick(tiers)
    a, b = d.sample(list(g), 2)
    rest = [c for c in v.cards if c not in g]
    d.require(len(rest) >= 4)
    lead = d.pick(rest)
    singles = d.sample([c for c in rest if c != lead], 3)
    sides = [c for s in side_suits(ctx) for c in view(ctx, s).cards]
    d.require(len(sides) >= 3)
    hand = [a, b] + singles + d.sample(sides, 3)
    if with_pair:
        hand.append(singles[0])   # a real pair: the two equal cards are no substitute for it
        play = [a, b]
    else:
        play = singles[:2]
    return {"level": level, "trump": trump, "lead": fmt([lead, lead]), "hand": fmt(hand), "play": fmt(play)}


def _only(d: Draw, rules, level: str, holding: str, n: int) -> list[int]:
    """``n`` (2 or 4) cards of jokers only, or of level cards only of two suits: a pair or two singles, a pair
    of each."""
    if holding == "jokers":
        a, b = SMALL_JOKER, BIG_JOKER
    else:
        x, y = d.sample(list(SUIT_LETTERS), 2)
        a, b = card(level, x), card(level, y)
    if n == 2:
        return [a, b] if d.bool() else [a, a] if d.bool() else [b, b]
    return [a, a, b, b]


def _holdings(d: Draw, rules, op: str, holding: str, n: int) -> dict:
    level, trump = d.pick(levels(rules)), d.pick(SUIT_LETTERS + (None,))
    cards = _only(d, rules, level, holding, n)
    if op == "classify":
        return {"level": level, "trump": trump, "cards": fmt(cards)}
    return {"level": level, "trump": trump, "cards": fmt(cards), "others": [[], [], []], "hand": fmt(cards)}


def _follow_only(d: Draw, rules, holding: str, n: int, play_trump: bool) -> dict:
    """A lead of jokers only or level cards only, followed by a hand without jokers or level cards but with
    other trumps: the follower plays trumps or side cards."""
    level, trump, ctx = draw_context(d, rules)
    lead = _only(d, rules, level, holding, n)
    d.require(ctx.is_trump(lead[0]))
    trumps = [c for c in view(ctx, TRUMP).cards if c not in (SMALL_JOKER, BIG_JOKER) and rank_of(c) != level]
    sides = [c for s in side_suits(ctx) for c in view(ctx, s).cards]
    d.require(len(trumps) >= n and len(sides) >= n + 1)
    hand_trumps = d.sample(trumps, n)
    hand_sides = d.sample(sides, n + 1)
    play = hand_trumps if play_trump else hand_sides[:n]
    return {"level": level, "trump": trump, "lead": fmt(lead), "hand": fmt(hand_trumps + hand_sides),
            "play": fmt(play)}


def _attempt(d: Draw, make) -> dict | None:
    for _ in range(TRIES):
        try:
            return make()
        except Rejected:
            continue
    return None


def aimed(d: Draw, rules) -> list[tuple[str, dict, str]]:
    """(operation, position, what it is aimed at) for every aimed position of ``rules``."""
    from conformance.generation.positions import build
    out: list[tuple[str, dict, str]] = []

    def add(op, what, make, times=2):
        for _ in range(times):
            inp = _attempt(d, make)
            if inp is not None:
                out.append((op, inp, f"aimed: {what}"))

    for equal in ("same", "tier"):
        for size in (1, 2):
            for tied_leader in (False, True):
                who = "the leader tied" if tied_leader else "two later plays tied"
                add("winner", f"tie of {'copies of one card' if equal == 'same' else 'equal cards of a tier'}, "
                    f"{'singles' if size == 1 else 'pairs'}, {who}",
                    lambda e=equal, s=size, t=tied_leader: _tie(d, rules, s, e, t))
    for holding in ("jokers", "level"):
        for n in (2, 4):
            for op in ("classify", "lead"):
                add(op, f"{holding} only, {n} cards", lambda o=op, h=holding, k=n: _holdings(d, rules, o, h, k))
            for play_trump in (False, True):
                add("follow", f"a lead of {holding} only followed {'with trumps' if play_trump else 'off suit'} "
                    f"by a hand without them", lambda h=holding, k=n, p=play_trump: _follow_only(d, rules, h, k, p))
    def declaring(sc: Scenario) -> dict:
        inp = build(d, rules, sc)
        inp.pop("kitty_taken", None)   # the kitty not yet taken: the declaration itself decides
        return inp

    for first in (True, False):
        add("declare", "a declaration equal to the reinforced count, beating the original",
            lambda f=first: declaring(Scenario("declare", "moves", (("declare", "reinforce"), "equal", f))), 3)
        add("declare", "the offender declaring again after his wrong declaration",
            lambda f=first: declaring(Scenario("declare", "after_wrong", ("offender", f))), 2)
        add("hand", "a whole hand whose banker buries point cards",
            lambda f=first: build(d, rules, Scenario("hand", "play", (f, "points"))), 1)
    for with_pair in (False, True):   # last: the draws of the positions above are as they were before these
        add("follow", "a trump pair led, the follower holding equal cards of a tier that are no pair, "
            + ("and a pair: the equal cards played" if with_pair else "and no pair: two other trumps played"),
            lambda p=with_pair: _follow_tie(d, rules, p))
    return out
