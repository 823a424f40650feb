"""Choosing plays: all legal follows (small cases), a random legal follow, a random lead.

These serve the whole-hand simulation and the property tests. The sampler
builds a follow that meets the obligation directly (a random realisation of
the required units, then random filler), so it costs about as much as the
legality check; it is "uniform-ish", not uniform.
"""
from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any, Callable, Iterable

from .combos import Combo, classify, tractor_candidates, unit_sizes
from .following import judge_follow_combo, obligation
from .rules import Trace
from .trump import Context


def legal_follows(ctx: Context, lead: Combo, hand: Iterable[int]) -> list[tuple[int, ...]]:
    """Every legal follow as a sorted tuple (brute force: for small hands only)."""
    hand = sorted(hand)
    hand_counts = Counter(hand)
    seen = set()
    out = []
    for combo in combinations(hand, lead.n):
        if combo in seen:
            continue
        seen.add(combo)
        if judge_follow_combo(ctx, lead, hand_counts, list(combo)).value:
            out.append(combo)
    return out


def _take(counts: Counter, cards: Iterable[int]) -> None:
    for c in cards:
        counts[c] -= 1
        if counts[c] == 0:
            del counts[c]


def realize(ctx: Context, units: list[tuple[int, int]], suit: int, holding: Counter,
            pick: Callable[[list], Any], prefer_exact: Callable[[], bool],
            order: Callable[[Iterable[int]], list[int]] = sorted) -> list[int] | None:
    """A choice of cards from ``holding`` forming ``units`` (tractors first), or None when they cannot be taken.

    ``pick`` chooses one of a list of options: the tractors in the order of
    :func:`combos.tractor_candidates`, or the cards held often enough for a
    pair or a triple, listed by ``order`` (lowest first by default, as a
    ``Draw`` of the suite's positions reads its lists; the random sampler
    :func:`random_follow` lists them as the holding does). ``prefer_exact()``
    says whether to choose among the cards held exactly that often, when
    there are some, so that triples are not broken needlessly.
    """
    counts = Counter(holding)
    chosen: list[int] = []
    for size, length in sorted(units, key=lambda u: (-u[1], -u[0])):
        if length > 1:
            options = list(tractor_candidates(ctx, counts, suit, size, length))
            if not options:
                return None
            cards = [c for c in pick(options) for _ in range(size)]
        else:
            options = order(c for c, k in counts.items() if k >= size)
            if not options:
                return None
            exact = [c for c in options if counts[c] == size]
            cards = [pick(exact if exact and prefer_exact() else options)] * size
        _take(counts, cards)
        chosen.extend(cards)
    return chosen


def random_follow(ctx: Context, lead: Combo, hand: Iterable[int], rng: random.Random) -> list[int]:
    """A random legal follow (every play it returns is judged legal)."""
    hand_counts = Counter(hand)
    n = lead.n
    in_suit = Counter({c: k for c, k in hand_counts.items() if ctx.suit[c] == lead.suit})
    held = sum(in_suit.values())
    if held <= n:
        play = list(in_suit.elements())
        rest = Counter(hand_counts)
        _take(rest, play)
        play.extend(rng.sample(list(rest.elements()), n - len(play)))
        return play
    for _ in range(20):
        required, _ = obligation(ctx, lead, in_suit, Trace())
        play = realize(ctx, required, lead.suit, in_suit, rng.choice, lambda: rng.random() < 0.7, list)
        if play is None:
            continue
        rest = Counter(in_suit)
        _take(rest, play)
        play.extend(rng.sample(list(rest.elements()), n - len(play)))
        if judge_follow_combo(ctx, lead, hand_counts, play).value:
            return play
    # fall back to the first legal play found among random candidates from the suit
    suit_cards = list(in_suit.elements())
    for _ in range(500):
        play = rng.sample(suit_cards, n)
        if judge_follow_combo(ctx, lead, hand_counts, play).value:
            return play
    raise RuntimeError("no legal follow found")  # cannot happen: some play always meets the obligation


def random_lead(ctx: Context, hand: Iterable[int], rng: random.Random, throw_chance: float = 0.1) -> list[int]:
    """A random lead: one unit (single, pair, triple or tractor) of a random suit, sometimes a throw."""
    hand = list(hand)
    suits = sorted({ctx.suit[c] for c in hand})
    suit = rng.choice(suits)
    counts = Counter(c for c in hand if ctx.suit[c] == suit)
    options: list[list[int]] = [[c] for c in counts]
    for size in unit_sizes(ctx):
        options += [[c] * size for c, n in counts.items() if n >= size]
    for size in (3, 2):
        for cards in tractor_candidates(ctx, counts, suit, size):
            options.append([c for c in cards for _ in range(size)])
    weights = [1 + 2 * (len(o) > 1) for o in options]
    lead = list(rng.choices(options, weights)[0])
    if rng.random() < throw_chance and len(counts) > 1:
        rest = Counter(counts)
        _take(rest, lead)
        extra = [c for c in rest if ctx.key[c] > 0]
        if extra:
            lead.append(rng.choice(extra))
    combo = classify(ctx, lead)
    return lead if combo.kind != "mixed" else [lead[0]]
