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
"""
from __future__ import annotations

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


def can_form(units: Sequence[Unit], runs: "Runs", counts: dict) -> bool:
    """Whether disjoint copies of ``units`` can be taken from a holding.

    ``runs`` lists chains of positions, each position the ids of the distinct
    cards sitting there; ``counts`` maps each id to the copies held. An id may
    appear in several runs (a card that chains two ways); its copies are
    counted once.
    """
    if unit_cards(units) > sum(counts.values()):
        return False
    flat = [u for u in units if u[1] == 1]
    if len(flat) == len(units):
        return _place_flat(flat, counts)  # no tractor: nothing is taken from ``counts``
    tractors = sorted((u for u in units if u[1] > 1), key=lambda u: (-u[1], -u[0]))
    work = dict(counts)
    return _place_tractors(tractors, 0, runs, work, flat, (0, 0, ()))


def _place_tractors(tractors: list[Unit], i: int, runs: "Runs", counts: dict, flat: list[Unit], floor: tuple) -> bool:
    if i == len(tractors):
        return _place_flat(flat, counts)
    size, length = tractors[i]
    same_as_previous = i > 0 and tractors[i - 1] == tractors[i]
    for r, run in enumerate(runs):
        for start in range(0, len(run) - length + 1):
            window = run[start:start + length]
            choices = [[k for k in pos if counts.get(k, 0) >= size] for pos in window]
            if any(not c for c in choices):
                continue
            for pick in product(*choices):
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
        if pairs and sum(n // 2 for n in counts.values() if n > 1) < pairs:
            return False
        return sum(n for n in counts.values() if n > 0) - 2 * pairs >= singles
    # Triples first from the fullest cards, then pairs from what is left:
    # a card with 3+ copies can serve a triple or a pair, one with 2 only a pair.
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
