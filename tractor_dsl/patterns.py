"""Follow patterns as card structure, and whether a holding can supply one.

A pattern such as ``tractor(pair, 2) + pair + 2 single`` is a multiset of
units. A unit is ``(size, length)``: a single is (1, 1), a pair (2, 1), a
triple (3, 1), a tractor of k pairs (2, k), of k triples (3, k).

A holding is described by *runs*: each run is a list of positions, adjacent
in tractor order, and each position lists the copy counts of the distinct
cards there (a position holds several cards only where equal cards of
different suits sit side by side, such as the off-suit level cards). A
tractor takes ``size`` copies of one card at each of ``length`` consecutive
positions of one run. Singles take any card.

This module is shared by the checker (is a ladder entry shadowed by an
earlier one?) and the interpreter (what must a follower play?). Its cost
depends on the number of distinct cards of one suit, never on subsets.
The checker's question, one pattern formed from the cards of another, has
its own search (:func:`fits_within`) whose cost is bounded by the cards of
the two patterns, whatever the lengths and counts written in them.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Iterable, Sequence

from .model import Pattern, Shape

Unit = tuple[int, int]  # (size, length)
Runs = list[list[list[int]]]  # runs -> positions -> copy counts

SIZES = {"single": 1, "pair": 2, "triple": 3}


def shape_unit(shape: Shape) -> Unit:
    if shape.unit == "tractor":
        return (SIZES[shape.element], shape.length)
    return (SIZES[shape.unit], 1)


def pattern_units(pattern: Pattern) -> list[Unit]:
    units: list[Unit] = []
    for term in pattern.terms:
        units.extend([shape_unit(term.shape)] * term.count)
    return units


def unit_cards(units: Iterable[Unit]) -> int:
    return sum(size * length for size, length in units)


def units_as_holding(units: Iterable[Unit]) -> tuple["Runs", dict]:
    """The cards of a pattern as a holding: what any holding that formed it holds at least."""
    runs: Runs = []
    counts: dict = {}
    for i, (size, length) in enumerate(units):
        run = []
        for j in range(length):
            counts[(i, j)] = size
            run.append([(i, j)])
        runs.append(run)
    return runs, counts


def can_form(units: Sequence[Unit], runs: "Runs", counts: dict, where=None) -> bool:
    """Whether disjoint copies of ``units`` can be taken from a holding.

    ``runs`` lists chains of positions, each position the ids of the distinct
    cards sitting there; ``counts`` maps each id to the copies held. An id may
    appear in several runs (a card that chains two ways), at one position of
    each at most; its copies are counted once. ``where``, when given, maps
    each id of ``counts`` to its ``(run, position)`` pairs in ``runs`` (the
    interpreter's index of a trump context): the search then visits only the
    positions of the cards held.
    """
    need = 0
    flat: list[Unit] = []
    tractors: list[Unit] = []
    for u in units:
        need += u[0] * u[1]
        if u[1] == 1:
            flat.append(u)
        else:
            tractors.append(u)
    if need > sum(counts.values()):
        return False
    if not tractors:  # no tractor: nothing is taken from ``counts``
        if len(flat) == 1 and flat[0][0] <= 3:  # one single, pair or triple: a card held that often
            size = flat[0][0]
            if size == 1:
                return True
            for n in counts.values():
                if n >= size:
                    return True
            return False
        return _place_flat(flat, counts)
    if len(tractors) > 1:
        tractors.sort(key=_tractor_order)
    if where is not None:
        return _place_held(tractors, 0, where, dict(counts), flat, (0, 0, ()))
    return _place_tractors(tractors, 0, runs, dict(counts), flat, (0, 0, ()))


def _tractor_order(u: Unit) -> tuple[int, int]:
    return (-u[1], -u[0])


def _place_tractors(tractors: list[Unit], i: int, runs: "Runs", counts: dict, flat: list[Unit], floor: tuple) -> bool:
    if i == len(tractors):
        return _place_flat(flat, counts)
    size, length = tractors[i]
    # a card sits at one position of a run at most: a tractor of ``length`` positions takes as many cards
    held = 0
    for n in counts.values():
        if n >= size:
            held += 1
    if held < length:
        return False
    same_as_previous = i > 0 and tractors[i - 1] == tractors[i]
    get = counts.get
    for r, run in enumerate(runs):
        if len(run) < length:
            continue
        # the cards of each position that can give ``size`` copies (``counts`` is as found whenever the loop
        # below looks: every placement tried is taken back before the next); windows of ``length``
        # positions, each with such a card, in the order of their first position
        choices = [[k for k in pos if get(k, 0) >= size] for pos in run]
        streak = 0
        for end, here in enumerate(choices):
            if not here:
                streak = 0
                continue
            streak += 1
            if streak < length:
                continue
            start = end - length + 1
            for pick in product(*choices[start:end + 1]):
                key = (r, start, pick)
                if same_as_previous and key < floor:
                    continue  # identical units: only one order of placement
                for k in pick:
                    counts[k] -= size
                ok = _place_tractors(tractors, i + 1, runs, counts, flat, key)
                for k in pick:
                    counts[k] += size
                if ok:
                    return True
    return False


def _place_held(tractors: list[Unit], i: int, where, counts: dict, flat: list[Unit], floor: tuple) -> bool:
    """:func:`_place_tractors` over the positions of the cards held (``where``): the same placements, each
    under the same key, found in another order (which changes no answer: every placement at or above
    ``floor`` is still tried)."""
    if i == len(tractors):
        return _place_flat(flat, counts)
    size, length = tractors[i]
    marked: dict[int, dict[int, list]] = {}  # run -> position -> the cards there that can give ``size``
    for k, n in counts.items():
        if n >= size:
            for r, p in where[k]:
                at = marked.get(r)
                if at is None:
                    marked[r] = {p: [k]}
                elif p in at:
                    at[p].append(k)
                else:
                    at[p] = [k]
    same_as_previous = i > 0 and tractors[i - 1] == tractors[i]
    for r, at in marked.items():
        if len(at) < length:
            continue
        for start in at:
            window = [at.get(start + j) for j in range(length)]
            if None in window:
                continue
            for pick in product(*window):
                key = (r, start, pick)
                if same_as_previous and key < floor:
                    continue  # identical units: only one order of placement
                for k in pick:
                    counts[k] -= size
                ok = _place_held(tractors, i + 1, where, counts, flat, key)
                for k in pick:
                    counts[k] += size
                if ok:
                    return True
    return False


def _place_flat(flat: list[Unit], counts: dict) -> bool:
    triples = pairs = singles = 0
    for size, _ in flat:
        if size == 1:
            singles += 1
        elif size == 2:
            pairs += 1
        else:
            triples += 1
    if not triples:
        # taking pairs from the fullest card first leaves sum(n // 2) pairs to take: the same answer, faster
        held = 0
        if pairs:
            available = 0
            for n in counts.values():
                if n > 0:
                    held += n
                    available += n >> 1
            if available < pairs:
                return False
        else:
            for n in counts.values():
                if n > 0:
                    held += n
        return held - 2 * pairs >= singles
    # Triples first from the fullest cards, then pairs from what is left:
    # a card with 3+ copies can serve a triple or a pair, one with 2 only a pair.
    threes = twos = held = top = 0
    for n in counts.values():
        if n > 0:
            held += n
            if n > top:
                top = n
            if n == 3:
                threes += 1
            elif n == 2:
                twos += 1
    if top <= 3:
        # what the loop below finds, counted: a triple takes a card held three times whole, and every card
        # left with two or more copies gives one pair
        return threes >= triples and threes - triples + twos >= pairs and held - 3 * triples - 2 * pairs >= singles
    remaining = sorted((c for c in counts.values() if c > 0), reverse=True)
    for _ in range(triples):
        if not remaining or remaining[0] < 3:
            return False
        remaining[0] -= 3
        remaining.sort(reverse=True)
    for _ in range(pairs):
        if not remaining or remaining[0] < 2:
            return False
        remaining[0] -= 2
        remaining.sort(reverse=True)
    return sum(remaining) >= singles


def fits_within(units: Sequence[Unit], holding: Sequence[Unit]) -> bool:
    """Whether ``units`` can be formed from the cards of the pattern ``holding``.

    The same answer as ``can_form(units, *units_as_holding(holding))``, found by
    a search over what is left of the holding rather than over placements: each
    unit of ``holding`` is a run of equal counts (its size), a tractor of size
    ``s`` takes ``length`` adjacent positions holding ``s`` or more, and a
    position it takes can hold no other tractor (sizes are 2 or 3, counts at
    most 3). What is left is therefore the multiset of the untouched stretches
    of runs of 3 and of runs of 2, which the search memoizes.
    """
    return _fits(tuple(sorted(units)), tuple(sorted(holding)))


@lru_cache(maxsize=4096)
def _fits(units: tuple[Unit, ...], holding: tuple[Unit, ...]) -> bool:
    if unit_cards(units) > unit_cards(holding):
        return False
    if any(size > 3 for size, _ in units + holding):  # not patterns of the language: the general search
        return can_form(units, *units_as_holding(holding))
    tractors = sorted((u for u in units if u[1] > 1), key=lambda u: (-u[0], -u[1]))
    triples = sum(1 for u in units if u == (3, 1))
    pairs = sum(1 for u in units if u == (2, 1))
    singles = sum(1 for u in units if u == (1, 1))
    left_over = unit_cards(holding) - unit_cards(tractors)  # cards once the tractors are placed

    @lru_cache(maxsize=None)
    def place(i: int, threes: tuple[int, ...], twos: tuple[int, ...]) -> bool:
        if i == len(tractors):  # the flat units: triples, then pairs, then singles from what is left
            n3, n2 = sum(threes), sum(twos)
            return (triples <= n3 and pairs <= n3 - triples + n2
                    and singles <= left_over - 3 * triples - 2 * pairs)
        size, length = tractors[i]
        for kind, stretches in ((3, threes), (2, twos)) if size == 2 else ((3, threes),):
            for j, stretch in enumerate(stretches):
                if stretch < length or (j and stretches[j - 1] == stretch):
                    continue
                rest = stretches[:j] + stretches[j + 1:]
                for before in range((stretch - length) // 2 + 1):
                    after = stretch - length - before
                    cut = tuple(sorted(rest + tuple(x for x in (before, after) if x)))
                    if place(i + 1, cut, twos) if kind == 3 else place(i + 1, threes, cut):
                        return True
        return False

    return place(0, tuple(sorted(n for s, n in holding if s == 3)), tuple(sorted(n for s, n in holding if s == 2)))
