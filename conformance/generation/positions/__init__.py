"""One generator of positions for every consumer.

A *position* is the input of one protocol operation (``classify``, ``lead``,
``follow``, ``winner``, ``kitty``, ``result``, ``advance``, ``declare``,
``undeclared``, ``hand``, ``penalty``, ``deal``), exactly as ``conformance/protocol/schemas/<op>.request.json``
describes it. Builders make positions of a :class:`Scenario` — what kind of
position, aimed at which decision of the ruleset — drawing every choice
through a :class:`Draw`:

* the seeded suite and the test vectors (:mod:`conformance.generation.cases`) draw from
  a seeded :class:`random.Random` (:class:`RandomDraw`), aiming at the
  ruleset's decision points (:mod:`conformance.generation.decisions`);
* the Hypothesis strategies (:mod:`conformance.generation.strategies`) draw through
  ``st.composite`` (:class:`HypothesisDraw`), so failures shrink;
* the comparison of rulesets and the rulebook's examples
  (:mod:`conformance.analysis.variants`) search the same builders.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

from conformance.generation.positions import dealt
from conformance.generation.positions.dealing import build_deal, deal_scenarios, later_scenarios
from conformance.generation.positions.declaring import build_declare, build_undeclared, declare_scenarios, undeclared_scenarios
from conformance.generation.positions.draw import Draw, HypothesisDraw, RandomDraw, Rejected
from conformance.generation.positions.follow import build as build_follow, scenarios as follow_scenarios
from conformance.generation.positions.hands import build_hand, ended_scenarios, hand_scenarios
from conformance.generation.positions.penalty import build_penalty, penalty_scenarios
from conformance.generation.positions.scenario import Scenario
from conformance.generation.positions.shapes import build_classify, build_lead, classify_scenarios, lead_scenarios
from conformance.generation.positions.table import advance_scenarios, build_advance, build_result, result_scenarios
from conformance.generation.positions.tricks import build_kitty, build_winner, kitty_scenarios, winner_scenarios

__all__ = ["Draw", "RandomDraw", "HypothesisDraw", "Rejected", "Scenario", "OPERATIONS", "build", "scenarios",
           "groups", "draw_scenario", "attempt", "probes"]

BUILDERS: dict[str, Callable] = {
    "classify": build_classify, "lead": build_lead, "follow": build_follow, "winner": build_winner,
    "kitty": build_kitty, "result": build_result, "advance": build_advance, "declare": build_declare,
    "undeclared": build_undeclared, "hand": build_hand, "penalty": build_penalty,
    "deal": build_deal,
}
_SCENARIOS: dict[str, Callable] = {
    "classify": classify_scenarios, "lead": lead_scenarios, "follow": follow_scenarios,
    "winner": winner_scenarios, "kitty": kitty_scenarios, "result": result_scenarios,
    "advance": advance_scenarios, "declare": declare_scenarios, "undeclared": undeclared_scenarios,
    "hand": hand_scenarios, "penalty": penalty_scenarios, "deal": deal_scenarios,
}
OPERATIONS = tuple(BUILDERS)
# Positions of inputs the protocol gained later (issue 32): a deal whose banker is given (who buries), a hand a
# fault ends early. Kept out of the random draw's groups, so that the positions drawn before stay the same.
_PROBES: dict[str, Callable] = {"deal": later_scenarios, "hand": ended_scenarios}


@lru_cache(maxsize=None)
def probes(rules, op: str) -> tuple[Scenario, ...]:
    """The scenarios of ``op`` for inputs the protocol gained later (:data:`_PROBES`)."""
    return _PROBES[op](rules) if op in _PROBES else ()
# Positions from dealt hands, the complement of the aimed scenarios (kind "dealt").
DEALT: dict[str, Callable] = {"follow": dealt.build_follow, "lead": dealt.build_lead, "winner": dealt.build_winner}


@lru_cache(maxsize=None)
def scenarios(rules, op: str) -> tuple[Scenario, ...]:
    """The scenarios of ``op`` for ``rules``: every kind of position its builder makes."""
    dealt_kind = (Scenario(op, "dealt"),) if op in DEALT else ()
    return tuple(_SCENARIOS[op](rules)) + dealt_kind


@lru_cache(maxsize=None)
def groups(rules, op: str) -> tuple[tuple[Scenario, ...], ...]:
    """The scenarios of ``op`` in groups to draw evenly: a follow ladder's rungs per lead unit, a deal's
    poor hands per condition (``deal.redeal_if``) and its improper ones by sizes or cards, else per kind.

    Drawing a group first, then a scenario of it, gives every lead unit (and
    every kind of position) its share, however many rungs a long ladder has.
    """
    out: dict[tuple, list[Scenario]] = {}
    for sc in scenarios(rules, op):
        if op == "follow" and sc.kind in ("rung", "rungs"):
            key = ("ladder", sc.args[0])
        elif op == "deal" and sc.kind != "proper":
            # a share each: a hand without points, one without trumps, the wrong sizes, the wrong cards
            key = (sc.kind, sc.args[0] if sc.kind == "poor" else sc.args[0] in ("missing", "removed"))
        else:
            key = (sc.kind,)
        out.setdefault(key, []).append(sc)
    return tuple(tuple(g) for g in out.values())


def draw_scenario(d: Draw, rules, op: str) -> Scenario:
    """A scenario of ``op``: a group, then one of its scenarios (see :func:`groups`)."""
    return d.pick(d.pick(groups(rules, op)))


def build(d: Draw, rules, sc: Scenario) -> dict:
    """A position of scenario ``sc`` (may raise :class:`Rejected` or, under Hypothesis, reject)."""
    if sc.kind == "dealt":
        return DEALT[sc.op](d, rules)
    return BUILDERS[sc.op](d, rules, sc)


def attempt(d: RandomDraw, rules, sc: Scenario, tries: int = 20) -> dict | None:
    """A position of ``sc`` from a seeded draw, retrying rejected draws; None when none comes."""
    for _ in range(tries):
        try:
            return build(d, rules, sc)
        except Rejected:
            continue
    return None
