"""Positions from dealt hands: the complement of the aimed scenarios.

The scenarios of the other builders put a few units on one suit; these deal
the whole pack and cut the hands to a random size (as if the rest had been
played), so leads, follows and tricks come out of hands of every size and
mix — the positions a real game produces.

* ``follow`` — a lead drawn from one hand (sometimes a throw) and the next
  hand, sometimes short or void in the led suit; the play is a legal follow,
  a legal follow with one card swapped, random cards, the wrong count, or a
  card not held;
* ``lead`` — a lead drawn from one hand (often grown into a throw) against
  the other three hands, or random cards;
* ``winner`` — a trick: a lead (a failed throw replaced by its forced play)
  and legal follows, with voids made so that ruffs happen.
"""
from __future__ import annotations

from collections import Counter

from reference_impl.cards import full_pack
from reference_impl.combos import classify
from reference_impl.leading import judge_lead
from reference_impl.sampling import realize
from reference_impl.trump import TRUMP

from conformance.generation.positions.draw import Draw
from conformance.generation.positions.hands import draw_follow, draw_lead
from conformance.generation.positions.suits import draw_context, fmt


def deal(d: Draw, rules, size: int | None = None) -> list[list[int]]:
    """Four hands of ``size`` cards from a shuffled pack (default: a random size)."""
    pack = d.permutation(full_pack(rules.decks))
    n = rules.hand_size
    if size is None:
        size = n if d.chance(1, 3) else d.int(4, n)
    return [pack[i * n:i * n + size] for i in range(4)]


def build_follow(d: Draw, rules) -> dict:
    level, trump, ctx = draw_context(d, rules)
    hands = deal(d, rules)
    lead = draw_lead(d, ctx, hands[0], (1, 4))
    hand = list(hands[1])
    lead_suit = ctx.suit[lead[0]]
    if d.chance(3, 10):  # short or void in the led suit
        in_suit = [c for c in hand if ctx.suit[c] == lead_suit]
        keep = d.int(0, min(len(in_suit), len(lead) + 1))
        drop = Counter(in_suit[keep:])
        kept = []
        for c in hand:
            if drop[c]:
                drop[c] -= 1
            else:
                kept.append(c)
        hand = kept
    n = len(lead)
    d.require(len(hand) >= n)
    how = d.int(0, 99)
    if how < 45:
        play = draw_follow(d, ctx, lead, hand)
    elif how < 80:  # a legal follow with one card swapped: often breaks a pair, a tractor or the suit
        play = draw_follow(d, ctx, lead, hand)
        rest = Counter(hand) - Counter(play)
        same = sorted(c for c in rest if ctx.suit[c] == lead_suit)
        pool = same if same and d.chance(3, 4) else sorted(rest)
        if pool:
            play[d.int(0, n - 1)] = d.pick(pool)
    elif how < 94:
        in_suit = [c for c in hand if ctx.suit[c] == lead_suit]
        play = d.sample(in_suit if len(in_suit) >= n and d.chance(3, 5) else hand, n)
    elif how < 97:
        play = d.sample(hand, max(1, min(len(hand), n + d.pick((-1, 1)))))
        d.require(len(play) != n)
    else:
        play = draw_follow(d, ctx, lead, hand)
        missing = [c for c in range(54) if c not in hand]
        d.require(missing)
        play[d.int(0, n - 1)] = d.pick(missing)
    return {"level": level, "trump": trump, "lead": fmt(lead), "hand": fmt(hand), "play": fmt(play)}


def build_lead(d: Draw, rules) -> dict:
    level, trump, ctx = draw_context(d, rules)
    hands = deal(d, rules)
    if d.chance(1, 12):
        cards = d.sample(hands[0], min(len(hands[0]), d.int(2, 4)))
    else:
        cards = draw_lead(d, ctx, hands[0], (11, 20))
    return {"level": level, "trump": trump, "cards": fmt(cards), "hand": fmt(hands[0]),
            "others": [fmt(h) for h in hands[1:]]}


def build_winner(d: Draw, rules) -> dict:
    level, trump, ctx = draw_context(d, rules)
    hands = deal(d, rules)
    leader = d.int(0, 3)
    suit = d.pick(sorted({ctx.suit[c] for c in hands[leader]}))
    for k in (1, 2, 3):  # voids, so that ruffs happen
        seat = (leader + k) % 4
        if d.chance(1, 3):
            hands[seat] = [c for c in hands[seat] if ctx.suit[c] != suit] or hands[seat]
    size = min(len(h) for h in hands)
    hands = [h[:size] for h in hands]
    lead = draw_lead(d, ctx, hands[leader], (3, 10))
    j = judge_lead(ctx, lead, [hands[(leader + k) % 4] for k in (1, 2, 3)])
    if not j.value and "failure" in j.extra:
        lead = list(j.extra["failure"].forced)
    plays: list[list[int]] = [[] for _ in range(4)]
    plays[leader] = lead
    lead_suit = ctx.suit[lead[0]]
    for k in (1, 2, 3):
        seat = (leader + k) % 4
        hand = hands[seat]
        trumps = [c for c in hand if ctx.suit[c] == TRUMP]
        if not any(ctx.suit[c] == lead_suit for c in hand) and len(trumps) >= len(lead) and d.chance(7, 10):
            shaped = (realize(ctx, classify(ctx, lead).units, TRUMP, Counter(trumps), d.pick, lambda: d.chance(2, 3))
                      if d.chance(7, 10) else None)
            plays[seat] = shaped if shaped is not None else d.sample(trumps, len(lead))
        else:
            plays[seat] = draw_follow(d, ctx, lead, hand)
    d.require(all(len(p) == len(lead) for p in plays))
    return {"level": level, "trump": trump, "leader": leader, "plays": [fmt(p) for p in plays]}
