"""Positions for ``penalty``: the faults of one hand and the attackers' points.

Scenarios: ``fault`` — one fault of each kind (:data:`reference_impl.penalties.FAULTS`)
by the banker side, the attackers or (for a fault record naming
``both_sides``) both, found at once or late, counting 0–6 cards or times,
lateness at and just past every step of ``penalty.lateness``; ``several`` —
two or three faults of one hand, so that a hand-ending fault follows one that
carries points (``penalty.several``). The attackers' points are at the edges
of the score table or anywhere between −20 and 345.
"""
from __future__ import annotations

from functools import lru_cache

from reference_impl.penalties import FAULTS, RECORDS

from conformance.generation.positions.draw import Draw
from conformance.generation.positions.scenario import Scenario
from conformance.generation.positions.table import edge_points


@lru_cache(maxsize=None)
def penalty_scenarios(rules) -> tuple[Scenario, ...]:
    values = rules.checked.values
    out = []
    for kind in FAULTS:
        offenders = ["banker"] if kind == "wrong_kitty" else ["banker", "attackers"]
        if kind in RECORDS and "both_sides" in (values.get(RECORDS[kind]) or {}):
            offenders.append("both")
        out += [Scenario("penalty", "fault", (kind, o, found)) for o in offenders for found in ("at_once", "late")]
    return tuple(out) + (Scenario("penalty", "several"),)


def _minutes(rules) -> tuple[int, ...]:
    steps = rules.checked.values.get("penalty.lateness") or ()
    return tuple(sorted({0, 1, 3, 20} | {m for s in steps for m in (s["over"], s["over"] + 1)}))


def _fault(d: Draw, rules, kind: str, offender: str, found: str) -> dict:
    f = {"fault": kind, "offender": offender, "count": d.int(0, 6), "found": found}
    if kind == "lateness":
        f["minutes"] = d.pick(_minutes(rules))
    priced = rules.checked.values.get("throw.penalty_by_blocked")
    if kind == "failed_throw" and priced:   # H05: the penalty of a failed throw depends on what blocked it
        f["blocked"] = d.pick(tuple(priced))
    return f


def build_penalty(d: Draw, rules, sc: Scenario) -> dict:
    if sc.kind == "fault":
        faults = [_fault(d, rules, *sc.args)]
    else:
        pool = [s for s in penalty_scenarios(rules) if s.kind == "fault"]
        faults = [_fault(d, rules, *d.pick(pool).args) for _ in range(d.int(2, 3))]
    points = d.pick(edge_points(rules)) if d.chance(3, 5) else 5 * d.int(-4, 69)
    return {"faults": faults, "attackers_points": points}
