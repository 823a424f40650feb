"""Every follow ladder of a ruleset: the ones it lists, and the ones ``follow.unlisted`` derives.

A ruleset lists ladders for a few lead shapes (``follow pair: ...``); every
other lead unit — a tractor of four pairs, a triple where none is listed — is
followed by a ladder derived from the reading of ``follow.unlisted``. The
derivation is here, beside the shapes, so that the interpreter follows it and
``tractor show``, ``tractor export`` and the rulebook pages print it: an engine
is judged by the derived ladders too.

A unit is ``(size, length)``: size 1, 2, 3 for single, pair, triple; length
the adjacent positions (2 or more for a tractor).
"""
from __future__ import annotations

from functools import lru_cache

from . import model as m
from .checked import CheckedRuleset
from .patterns import shape_unit

Unit = tuple[int, int]

# The longest tractor whose derived ladder is shown: the conformance suite asks about tractors of up to
# four pairs or triples; longer ones follow the same derivation (see derived_ladder).
SHOWN_UP_TO_LENGTH = 4
NAMES = {1: "single", 2: "pair", 3: "triple", 4: "quad"}


@lru_cache(maxsize=None)
def derived_ladder(unit: Unit, with_tractor: bool) -> tuple[tuple[Unit, ...], ...]:
    """The ladder for a lead component the ruleset lists no ladder for.

    For a tractor (with ``with_tractor``: reading ``component_ladders``): the
    whole tractor, then shorter tractors of the same element with the rest as
    loose elements — the longest tractor first, then more of the rest in
    tractors (for a tractor of four pairs: a three-pair tractor + a pair, two
    two-pair tractors, a two-pair tractor + two pairs) — as 000:2.16c asks
    ("其它方如果有同花色的拖拉机，必须出拖拉机") and 001:12.1 names a revoke
    ("有拖不出拖"). Then, for every lead, every mix of triples, pairs and
    singles of the same card count, most cards in pairs and triples first,
    then more triples first. Triples are asked for only when the lead has
    triples.
    """
    size, length = unit
    n = size * length
    entries: list[tuple[Unit, ...]] = []
    if size == 4 and length == 1:  # a quad (four decks) is followed by a quad first
        entries.append((unit,))
    if length > 1 and with_tractor:
        entries.append((unit,))
        for parts in _tractor_partitions(length):
            entries.append(tuple((size, k) for k in parts if k > 1) + ((size, 1),) * parts.count(1))
    mixes = []
    max_triples = n // 3 if size >= 3 else 0
    for t in range(max_triples, -1, -1):
        for p in range((n - 3 * t) // 2, -1, -1):
            s = n - 3 * t - 2 * p
            mixes.append((-(3 * t + 2 * p), -t, t, p, s))
    mixes.sort()
    for _, _, t, p, s in mixes:
        entry = ((3, 1),) * t + ((2, 1),) * p + ((1, 1),) * s
        if entry not in entries:
            entries.append(entry)
    return tuple(entries)


def _tractor_partitions(length: int) -> list[tuple[int, ...]]:
    """Ways to split ``length`` positions into parts, at least one a shorter tractor (2 or more), the whole
    excluded: longest first part first, then lexicographically (more of the rest in tractors first)."""
    out: list[tuple[int, ...]] = []

    def split(rest: int, most: int, parts: tuple[int, ...]) -> None:
        if rest == 0:
            out.append(parts)
            return
        for k in range(min(rest, most), 0, -1):
            split(rest - k, k, parts + (k,))

    split(length, length - 1, ())
    return [p for p in out if p[0] > 1]


def unit_shape(unit: Unit) -> m.Shape:
    size, length = unit
    return m.Shape("tractor", NAMES[size], length) if length > 1 else m.Shape(NAMES[size])


def units_pattern(units: tuple[Unit, ...]) -> m.Pattern:
    """A ladder entry as the rule language writes it: equal units counted, in order of first appearance."""
    counts: dict[Unit, int] = {}
    for u in units:
        counts[u] = counts.get(u, 0) + 1
    return m.Pattern(tuple(m.Term(n, unit_shape(u)) for u, n in counts.items()))


def _sizes(rs: CheckedRuleset) -> tuple[list[int], list[int]]:
    decks = rs.values["equipment.decks"]
    units = [s for s in (2, 3) if s <= decks]
    tractors = sorted(s for e, s in (("pair", 2), ("triple", 3)) if e in rs.values["tractor.elements"] and s <= decks)
    return units, tractors


def derived_follows(rs: CheckedRuleset) -> tuple[m.Follow, ...]:
    """The derived ladders of ``rs`` as ``follow`` rules: every pair or triple lead it lists no ladder for,
    and every tractor of up to :data:`SHOWN_UP_TO_LENGTH` elements, shortest first."""
    listed = {shape_unit(shape) for shape, _, _ in rs.ladders.values()}
    units, tractors = _sizes(rs)
    wanted: list[Unit] = [(s, 1) for s in units]
    shortest = max(2, rs.values["tractor.min_length"])
    for size in tractors:
        wanted += [(size, k) for k in range(shortest, SHOWN_UP_TO_LENGTH + 1)]
    with_tractor = rs.values["follow.unlisted"] == "component_ladders"
    out = []
    for unit in sorted(dict.fromkeys(wanted), key=lambda u: (u[1], u[0])):
        if unit in listed:
            continue
        ladder = tuple(units_pattern(e) for e in derived_ladder(unit, with_tractor))
        out.append(m.Follow(unit_shape(unit), ladder))
    return tuple(out)


def _names_zh(document: str | None) -> dict[str, str]:
    """The shapes in the words of source ``document`` (spec/glossary.tsv): 003 says 单张 对牌 三张."""
    from .glossary import words
    w = words(document)
    return {"single": w["single"], "pair": w["pair"], "triple": w["triple"]}


def shape_zh(shape: m.Shape, document: str | None = None) -> str:
    """A lead shape in Chinese: 单张, 对子, 三条, 3连对 (a tractor of three pairs), 2连三条 (in the words of
    ``document``: 003's 2连三张)."""
    names = _names_zh(document)
    if shape.unit == "tractor":
        return f"{shape.length}连对" if shape.element == "pair" else f"{shape.length}连{names[shape.element]}"
    return names[shape.unit]


def pattern_zh(p: m.Pattern, document: str | None = None) -> str:
    """A ladder entry in Chinese: ``2 pair + single`` -> 2个对子 + 单张."""
    single = _names_zh(document)["single"]
    return " + ".join(shape_zh(t.shape, document) if t.count == 1 else f"{t.count}张{single}"
                      if t.shape.unit == "single" else f"{t.count}个{shape_zh(t.shape, document)}" for t in p.terms)


def follow_zh(f: m.Follow, document: str | None = None) -> str:
    """A ``follow`` rule in Chinese: 跟{lead}：entry / entry ... (in the words of source ``document``)."""
    return f"跟{shape_zh(f.lead, document)}：" + " / ".join(pattern_zh(p, document) for p in f.ladder)
