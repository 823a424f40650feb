"""Positions for ``classify`` (what a set of cards is) and ``lead`` (may it be led?).

``classify`` scenarios: ``boundary`` — pairs, triples or singles on the
groups around one boundary of the card order (tier junctions, the removed
level rank, off-suit level cards, fixed ranks) or on a run window linking
cards that are not neighbours in the card order (AA22, face rank);
``tractor`` — along a run window, exact or with mixed sizes, a gap, a short
position or an extra card; ``unit``; ``throw``; ``random`` cards of a suit;
``mixed`` suits.

``lead`` scenarios: ``throw`` — a throw against blockers placed at, one or
two positions above, or one below a thrown card, as singles, pairs, triples
or tractors, in any of the three other hands (seat order after the leader:
opponent, partner, opponent), so each throw check, ``throw.judged_against``
and the failure's blocked cards, penalty and forced play decide some cases;
``equal`` — pairs across a boundary next to a group of equal cards with one
more of them thrown and another held elsewhere (the blocked and smallest
components differ); ``boundary``, ``unit`` and ``mixed``.
"""
from __future__ import annotations

from collections import Counter

from reference_impl.trump import TRUMP

from conformance.generation.positions.draw import Draw
from conformance.generation.positions.scenario import Scenario
from conformance.generation.positions.suits import (View, draw_context, draw_suit, fits, fmt, place, singles, suits, throw_plans, tractor_sizes,
                    unit_plans, unit_sizes, view)

CLASSIFY_KINDS = ("boundary", "tractor", "unit", "throw", "random", "mixed")
LEAD_KINDS = ("throw", "equal", "boundary", "unit", "mixed")


def classify_scenarios(rules) -> tuple[Scenario, ...]:
    return tuple(Scenario("classify", k) for k in CLASSIFY_KINDS)


def lead_scenarios(rules) -> tuple[Scenario, ...]:
    return tuple(Scenario("lead", k) for k in LEAD_KINDS)


def boundary_cards(d: Draw, rules, v: View, avail: Counter | None = None, special: bool = True,
                   size: int | None = None) -> list[int] | None:
    """Pairs (or triples, or singles) on the two (or three) groups around one boundary of ``v``,
    or (with ``special``) on a window of a run linking cards that are not neighbours in the card order."""
    decks = rules.decks
    spots = [("b", i) for i in v.boundaries] + ([("w", w) for w in v.special] if special else [])
    if not spots:
        return None
    how, where = d.pick(spots)
    if how == "w":
        positions = list(where)
    else:
        span = [where, where + 1]
        extend = d.pick((0, 0, 1, -1))
        if extend == 1 and where + 2 < len(v.groups):
            span.append(where + 2)
        elif extend == -1 and where > 0:
            span.insert(0, where - 1)
        positions = [v.groups[g] for g in span]
    if size is None:
        size = d.pick(tractor_sizes(rules) + [1] + [s for s in unit_sizes(rules) if s not in tractor_sizes(rules)])
    avail = avail if avail is not None else Counter({c: decks for c in v.cards})
    cards: list[int] = []
    for pos in positions:
        options = [c for c in pos if avail[c] - cards.count(c) >= size]
        if not options:
            return None
        cards += [d.pick(options)] * size
    return cards


def combination(d: Draw, rules, ctx, kind: str, suit: int | None = None) -> list[int]:
    """Cards of one (for ``mixed``, two) suits, shaped by ``kind`` (see the module docstring)."""
    decks = rules.decks
    if kind == "mixed":
        a, b = d.permutation(suits(ctx))[:2]
        return [d.pick(view(ctx, a).cards)] * d.int(1, decks) + [d.pick(view(ctx, b).cards)]
    suit = suit if suit is not None else draw_suit(d, ctx, "half")
    v = view(ctx, suit)
    whole = Counter({c: decks for c in v.cards})
    if kind == "boundary":
        cards = boundary_cards(d, rules, v)
        if cards is not None:
            if d.chance(1, 3):  # and a single equal to one of the cards
                equal = [c for x in sorted(set(cards)) for c in v.groups[v.group_of[x]] if c not in cards]
                if equal:
                    cards.append(d.pick(equal))
            return cards
        kind = "tractor"
    if kind == "unit":
        return [d.pick(v.cards)] * d.int(1, decks)
    if kind == "tractor":
        lengths = sorted(v.windows)
        if not lengths:
            return [d.pick(v.cards)] * decks
        length = d.pick([x for x in lengths if x <= 4] or lengths[:1])
        positions = list(d.pick(v.windows[length]))
        sizes = tractor_sizes(rules)
        size = d.pick(sizes + [s for s in (1, 2, 3) if s <= decks and s not in sizes])
        counts = [size] * len(positions)
        variant = d.pick(("exact", "mixed_sizes", "gap", "short", "extra"))
        if variant == "mixed_sizes" and decks >= 3 and size in (2, 3):
            counts[d.int(0, len(counts) - 1)] = 5 - size
        elif variant == "gap" and len(positions) > 2:
            del positions[d.int(1, len(positions) - 2)]
            counts.pop()
        elif variant == "short" and size > 1:
            counts[d.int(0, len(counts) - 1)] -= 1
        cards = []
        for pos, n in zip(positions, counts):
            cards += [d.pick(pos)] * n
        if variant == "extra":
            cards += singles(d, whole - Counter(cards), 1) or []
        return cards
    if kind == "throw":
        plan = d.pick([p for p in throw_plans(rules) if fits(v, p)] or [((1, 1), (1, 1))])
        placed = place(d, v, plan, whole, spread=d.bool())
        d.require(placed is not None)
        return list(placed.elements())
    return singles(d, whole, d.int(1, min(8, len(v.cards)))) or [v.cards[0]]


# Aimed only at the alternative it tells (tractor.off_level_chain, V21), not among :func:`classify_scenarios`:
# pairs (or triples) of off-suit level cards of two or three different suits.
OFF_LEVEL = Scenario("classify", "off_level")


def _off_level(d: Draw, rules, ctx, level: str, trump) -> list[int]:
    from reference_impl.cards import SUIT_LETTERS, card
    off = [card(level, s) for s in SUIT_LETTERS if s != trump]
    d.require(len(off) >= 2 and rules.decks >= 2)
    suits_taken = d.sample(off, d.int(2, min(3, len(off))))
    size = d.pick([n for n in (2, 3) if n <= rules.decks])
    return [c for c in suits_taken for _ in range(size)]


def build_classify(d: Draw, rules, sc: Scenario) -> dict:
    level, trump, ctx = draw_context(d, rules)
    if sc.kind == "off_level":
        return {"level": level, "trump": trump, "cards": fmt(_off_level(d, rules, ctx, level, trump))}
    cards = combination(d, rules, ctx, sc.kind)
    return {"level": level, "trump": trump, "cards": fmt(cards)}


def build_lead(d: Draw, rules, sc: Scenario) -> dict:
    level, trump, ctx = draw_context(d, rules)
    decks = rules.decks
    kind = sc.kind
    suit = TRUMP if kind == "equal" else draw_suit(d, ctx, "half")
    v = view(ctx, suit)
    others: list[Counter] = [Counter(), Counter(), Counter()]
    whole = Counter({c: decks for c in v.cards})
    if kind == "equal":
        cards = _equal_throw(d, rules, v, others)
    elif kind == "mixed":
        cards = combination(d, rules, ctx, "mixed")
    elif kind == "boundary":
        cards = combination(d, rules, ctx, "boundary", suit)
    else:
        plans = unit_plans(rules) if kind == "unit" else throw_plans(rules)
        placed = place(d, v, d.pick([p for p in plans if fits(v, p)] or [((1, 1),)]), whole)
        d.require(placed is not None)
        cards = list(placed.elements())
    if kind in ("throw", "boundary") or (kind == "equal" and d.bool()):
        _blockers(d, rules, ctx, v, cards, others)
    pool = Counter({c: decks for s in suits(ctx) if s != suit for c in view(ctx, s).cards}) - Counter(cards)
    for h in others:  # a little of the other suits in each hand
        extra = singles(d, pool, d.int(0, 2)) or []
        pool -= Counter(extra)
        h.update(extra)
    inp = {"level": level, "trump": trump, "cards": fmt(cards), "others": [fmt(h.elements()) for h in others]}
    return {**inp, "hand": fmt(cards + _more_of_hand(inp, pool))}


def _more_of_hand(inp: dict, pool: Counter) -> list[int]:
    """Up to three cards of ``pool`` the leader holds besides the lead, chosen by the position itself
    (a hash of it), not by the draw: what the draw gives the other operations stays as it was."""
    import random
    import zlib
    rng = random.Random(zlib.crc32(repr(sorted(inp.items())).encode()))
    cards = sorted(pool.elements())
    return sorted(rng.sample(cards, min(len(cards), rng.randint(0, 3))))


def _equal_throw(d: Draw, rules, v: View, others: list[Counter]) -> list[int]:
    """Pairs on both sides of a boundary next to a group of equal cards, another card of that group,
    and one more of that group in another hand: where the throw's blocked and smallest components differ."""
    decks = rules.decks
    spots = [i for i in v.boundaries if len(v.groups[i]) > 1 or len(v.groups[i + 1]) > 1]
    d.require(spots)
    i = d.pick(spots)
    size = d.pick(tractor_sizes(rules))
    used: Counter = Counter()
    cards: list[int] = []
    for g in (i, i + 1):
        c = d.pick(v.groups[g])
        cards += [c] * size
        used[c] += size
    g = i if len(v.groups[i]) > 1 else i + 1
    for holder in (None, d.int(0, 2)):
        options = [c for c in v.groups[g] if used[c] < decks and (holder is not None or c not in cards)]
        if not options:
            break
        c = d.pick(options)
        used[c] += 1
        if holder is None:
            cards.append(c)
        else:
            others[holder][c] += 1
    return cards


def _blockers(d: Draw, rules, ctx, v: View, cards: list[int], others: list[Counter]) -> None:
    """Put led-suit cards near the thrown cards into the other hands (seat 0 next, 1 partner, 2 previous)."""
    decks = rules.decks
    used = Counter(cards) + sum(others, Counter())
    distinct = sorted(set(cards), key=lambda c: (ctx.key[c], c))
    for _ in range(d.pick((1, 1, 2, 0, 3))):
        seat = d.int(0, 2)
        anchor = d.pick(distinct)
        delta = d.pick((1, 0, 2, -1))
        size = d.pick([s for s in (1, 2, 3) if s <= decks])
        length = d.pick((1, 1, 2)) if size > 1 else 1
        for step in range(length):
            g = v.group_of[anchor] + delta + step
            if not 0 <= g < len(v.groups):
                break
            options = [c for c in v.groups[g] if decks - used[c] >= size]
            if not options:
                break
            c = d.pick(options)
            used[c] += size
            others[seat][c] += size
