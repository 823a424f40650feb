"""How strong is the suite? The alternatives of the spec it kills, stage by stage.

Every alternative of :mod:`conformance.alternatives` is a *mutant*: the
reference interpreter driven by a ruleset that reads one rule differently,
as an engine might. A stage of the suite *kills* a mutant when some case of
it is answered differently under the mutant. Stages are measured apart,
each exactly as an engine author runs it:

* ``default`` — the seeded suite ``tractor conform --ruleset R`` runs with no
  options (the test vectors of a bundled ruleset);
* ``quick`` and ``thorough`` — the generated Hypothesis suite,
  ``tractor conform --generated quick|thorough``, on its own.

A mutant no stage kills is either a gap in the suite or equivalent: no
position can tell it apart, which is never assumed silently
(:mod:`conformance.equivalence` gives each reason).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from reference_impl.rules import Rules

from . import protocol
from .alternatives import Alternative, alternatives
from .decisions import answer
from .equivalence import equivalence_reason, proven_ladder_equivalent

STAGES = ("default", "quick", "thorough")


@dataclass
class Outcome:
    """What one stage did to one mutant."""

    mutant: Alternative
    killed_by: str | None = None      # the case that tells it apart (an id, or "generated OP")
    equivalent: str | None = None     # the reason no position can tell it apart
    detail: str = ""


@dataclass
class StageResult:
    stage: str
    outcomes: list[Outcome] = field(default_factory=list)
    cases: int = 0

    @property
    def killed(self) -> int:
        return sum(1 for o in self.outcomes if o.killed_by)

    @property
    def equivalent(self) -> int:
        return sum(1 for o in self.outcomes if not o.killed_by and o.equivalent)

    @property
    def survived(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.killed_by and not o.equivalent]

    @property
    def rate(self) -> float:
        total = self.killed + len(self.survived)
        return 100.0 * self.killed / total if total else 100.0


def _equivalence(mutant: Alternative, base: Rules) -> str | None:
    return equivalence_reason(mutant, base) or proven_ladder_equivalent(mutant, base)


def run_default(base: Rules, cases: list[dict], mutants: Iterable[Alternative] | None = None,
                progress: Callable[[int, int], None] | None = None) -> StageResult:
    """The seeded suite against every mutant, in process: the cases built to decide a mutant first."""
    mutants = list(mutants if mutants is not None else alternatives(base))
    result = StageResult("default", cases=len(cases))
    by_op: dict[str, list[dict]] = {}
    for case in sorted(cases, key=lambda c: c["op"] == "hand"):  # whole hands are slowest: last
        by_op.setdefault(case["op"], []).append(case)
    expected = {c["id"]: protocol.normalize(c["op"], c["expected"]) for c in cases}
    deciding: dict[str, list[dict]] = {}
    for case in cases:
        for what in case.get("decides", ()):
            deciding.setdefault(what, []).append(case)
    for i, mutant in enumerate(mutants):
        outcome = Outcome(mutant)
        first = deciding.get(mutant.description, [])
        rest = [c for op in mutant.observers for c in by_op.get(op, ())]
        for case in first + rest:
            got = answer(mutant.rules, case["op"], case["input"])
            if got != expected[case["id"]]:
                outcome.killed_by = case["id"]
                outcome.detail = f"expected {case['expected']}, the mutant answers {got}"
                break
        if outcome.killed_by is None:
            outcome.equivalent = _equivalence(mutant, base)
        result.outcomes.append(outcome)
        if progress:
            progress(i + 1, len(mutants))
    return result


def run_generated(base: Rules, profile: str, seed: int = 0, mutants: Iterable[Alternative] | None = None,
                  progress: Callable[[int, int], None] | None = None) -> StageResult:
    """The generated suite (profile ``quick`` or ``thorough``) alone against every mutant."""
    from .suite import PROFILES, InProcessEngine, check_operation
    mutants = list(mutants if mutants is not None else alternatives(base))
    result = StageResult(profile, cases=PROFILES[profile]["max_examples"])
    for i, mutant in enumerate(mutants):
        outcome = Outcome(mutant)
        reason = _equivalence(mutant, base)
        if reason is None:
            engine = InProcessEngine(mutant.rules, mutant.id)
            for op in mutant.observers:
                found = check_operation(engine, base.name, op, profile, seed, shrink=False)
                if found.disagreement is not None:
                    outcome.killed_by = f"generated {op}"
                    outcome.detail = "; ".join(found.disagreement.differences)
                    break
        else:
            outcome.equivalent = reason
        result.outcomes.append(outcome)
        if progress:
            progress(i + 1, len(mutants))
    return result


def by_clause(result: StageResult) -> dict[str, list[int]]:
    """Per clause: [killed, equivalent, survived]."""
    out: dict[str, list[int]] = {}
    for o in result.outcomes:
        row = out.setdefault(o.mutant.clause, [0, 0, 0])
        row[0 if o.killed_by else 1 if o.equivalent else 2] += 1
    return out
