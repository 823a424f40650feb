"""Positions for the questions of the score table and the climb: ``result`` and ``advance``.

``result``: the attackers' points at every edge of the score table — each
band's low end and the point below it, its high end and the point above it,
the multiples of a band's step (and five below), a pack's worth, points
beyond the open ends — or random points (multiples of 5) some band covers.

``advance``: a team at a level gains some levels, as the banker side or not:
every level (the end level, must-play levels and the levels below them
first), gains 0–6 and beyond.
"""
from __future__ import annotations

from functools import lru_cache

from conformance.generation.positions.draw import Draw
from conformance.generation.positions.scenario import Scenario


def covered(rules, points: int) -> bool:
    return any((b.low is None or points >= b.low) and (b.high is None or points <= b.high) for b in rules.bands)


@lru_cache(maxsize=None)
def edge_points(rules) -> tuple[int, ...]:
    top = 100 * rules.decks
    edges: list[int] = []
    for band in sorted(rules.bands, key=lambda b: (b.low is not None, b.low or 0)):
        for end in (band.low, band.high):
            if end is not None:
                edges += [end, end - 5 if end == band.low else end + 5]
        if band.step and band.low is not None:
            for m in range(1, 5):
                edges += [band.low + m * band.step - 5, band.low + m * band.step]
    edges += [-5, -100, 0, top, top + 5, 20 * top]
    from reference_impl.domains import point_step, points_bound
    bound, step = points_bound(rules), point_step(rules)   # points a hand of the ruleset can give (v42: no throw
    return tuple(v for v in dict.fromkeys(edges)            # penalty leaves 20 packs' worth out of reach)
                 if covered(rules, v) and abs(v) <= bound and v % step == 0)


def result_scenarios(rules) -> tuple[Scenario, ...]:
    return tuple(Scenario("result", "points", (v,)) for v in edge_points(rules)) + (Scenario("result", "random"),)


def build_result(d: Draw, rules, sc: Scenario) -> dict:
    if sc.kind == "points":
        return {"attackers_points": sc.args[0]}
    top = 100 * rules.decks
    v = 5 * d.int(-4, (top * 3) // 10)
    d.require(covered(rules, v))
    return {"attackers_points": v}


@lru_cache(maxsize=None)
def marked_levels(rules) -> tuple[str, ...]:
    """The end level, the must-play levels and the two levels below each."""
    ranks = list(rules["level.ranks"])
    defended = list(rules.checked.values.get("level.must_defend") or ())
    marks = [r for r in list(rules["level.must_play"]) + defended + [rules["level.end"], ranks[-1]] if r in ranks]
    near = [ranks[j] for r in marks for j in (ranks.index(r), ranks.index(r) - 1, ranks.index(r) - 2)
            if 0 <= j < len(ranks)]
    return tuple(dict.fromkeys(near))


def advance_scenarios(rules) -> tuple[Scenario, ...]:
    out = [Scenario("advance", "climb", (level, gain, banker)) for level in marked_levels(rules)
           for gain in range(0, 5) for banker in (True, False)]
    return tuple(out) + (Scenario("advance", "random"),)


def build_advance(d: Draw, rules, sc: Scenario) -> dict:
    if sc.kind == "climb":
        level, gain, banker = sc.args
        return {"level": level, "gain": gain, "as_banker": banker}
    return {"level": d.pick(rules["level.ranks"]), "gain": d.pick((0, 1, 2, 3, 4, 5, 6, 9, 14)),
            "as_banker": d.bool()}
