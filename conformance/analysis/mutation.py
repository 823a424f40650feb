"""How strong is the suite? The alternatives of the spec it kills, stage by stage.

Every alternative of :mod:`conformance.generation.alternatives` is a *mutant*: the
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
(:mod:`conformance.generation.equivalence` gives each reason).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from reference_impl.rules import Rules

from conformance.protocol import messages as protocol
from conformance.generation.alternatives import Alternative, alternatives
from conformance.generation.decisions import answer
from conformance.generation.equivalence import equivalence_reason, proven_ladder_equivalent

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


def _prepare(cases: list[dict]) -> tuple[dict, dict, dict]:
    by_op: dict[str, list[dict]] = {}
    for case in sorted(cases, key=lambda c: c["op"] == "hand"):  # whole hands are slowest: last
        by_op.setdefault(case["op"], []).append(case)
    expected = {c["id"]: protocol.normalize(c["op"], c["expected"]) for c in cases}
    deciding: dict[str, list[dict]] = {}
    for case in cases:
        for what in case.get("decides", ()):
            deciding.setdefault(what, []).append(case)
    return by_op, expected, deciding


def _default_outcome(mutant: Alternative, base: Rules, prepared) -> Outcome:
    by_op, expected, deciding = prepared
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
    return outcome


# From this many mutants on, the generated stage draws its positions once and asks every mutant them
# (drawing them costs about as much as a Hypothesis run against a mutant that survives; most are killed at once)
REPLAY_FROM = 16


def _generated_outcome(mutant: Alternative, base: Rules, profile: str, seed: int, replay: bool = False) -> Outcome:
    """The generated stage against one mutant: the positions it draws for each operation the mutant can
    change, the first the mutant answers otherwise killing it. With ``replay`` the positions and the
    reference's answers are drawn once per operation (:func:`conformance.generation.suite.drawn_positions`,
    kept with the base ruleset) and every mutant is asked them in order: the outcome a Hypothesis run of its
    own gives (without shrinking, as otherwise), at a fraction of the cost for many mutants."""
    from conformance.generation.suite import InProcessEngine, check_operation, first_disagreement
    outcome = Outcome(mutant)
    reason = _equivalence(mutant, base)
    if reason is not None:
        outcome.equivalent = reason
        return outcome
    engine = InProcessEngine(mutant.rules, mutant.id)
    for op in mutant.observers:
        found = (first_disagreement(engine, base.name, op, _drawn(base, op, profile, seed)) if replay else
                 check_operation(engine, base.name, op, profile, seed, shrink=False).disagreement)
        if found is not None:
            outcome.killed_by = f"generated {op}"
            outcome.detail = "; ".join(found.differences)
            break
    return outcome


def _drawn(base: Rules, op: str, profile: str, seed: int) -> list[tuple]:
    """The generated stage's positions of ``op`` with the base's answers, drawn once per ruleset object."""
    from conformance.generation.suite import drawn_positions
    key = ("generated positions", op, profile, seed)
    found = base.memo.get(key)
    if found is None:
        found = base.memo[key] = drawn_positions(base.name, op, profile, seed)
    return found


def _chunk(indices: list[int], ruleset: str, stage: str, seed: int, cases: list[dict] | None,
           replay: bool = False) -> list[tuple]:
    """One chunk of mutants on a worker: the ruleset and its alternatives rebuilt there (both are
    deterministic), each outcome sent back as plain values."""
    from reference_impl.rules import rules_for
    base = rules_for(ruleset)
    mutants = alternatives(base)
    prepared = _prepare(cases) if stage == "default" else None
    out = []
    for i in indices:
        o = (_default_outcome(mutants[i], base, prepared) if stage == "default"
             else _generated_outcome(mutants[i], base, stage, seed, replay))
        out.append((mutants[i].id, o.killed_by, o.equivalent, o.detail))
    return out


def _run(stage: str, base: Rules, cases: list[dict] | None, seed: int, mutants: list[Alternative],
         progress, jobs: int | None, scheduler: str | None, ruleset: str | None) -> list[Outcome]:
    """Every mutant's outcome, in mutant order: here (one job) or in chunks on an executor."""
    replay = len(mutants) >= REPLAY_FROM
    if (jobs == 1 and not scheduler) or ruleset is None:
        prepared = _prepare(cases) if stage == "default" else None
        outcomes = []
        for i, mutant in enumerate(mutants):
            outcomes.append(_default_outcome(mutant, base, prepared) if stage == "default"
                            else _generated_outcome(mutant, base, stage, seed, replay))
            if progress:
                progress(i + 1, len(mutants))
        return outcomes
    from conformance.running.parallel import cut, map_chunks
    spec_alts = alternatives(base)
    index = {a.id: i for i, a in enumerate(spec_alts)}
    missing = [m.id for m in mutants if m.id not in index or spec_alts[index[m.id]].description != m.description]
    if missing:
        raise ValueError(f"mutants {', '.join(missing[:5])} are not alternatives of {base.name}: "
                         "only the spec's own alternatives can be rebuilt on a worker")
    size = 4 if stage == "default" else 1      # a generated stage spends seconds per mutant
    chunks = cut([index[m.id] for m in mutants], size)

    def tick(k, n):
        if progress:
            progress(min(len(mutants), k * size), len(mutants))
    results = map_chunks(_chunk, chunks, jobs=jobs, scheduler=scheduler, extra=(ruleset, stage, seed, cases, replay),
                         progress=tick)
    by_id = {m.id: m for m in mutants}
    return [Outcome(by_id[mid], killed, equivalent, detail) for chunk in results
            for mid, killed, equivalent, detail in chunk]


def run_default(base: Rules, cases: list[dict], mutants: Iterable[Alternative] | None = None,
                progress: Callable[[int, int], None] | None = None, *, jobs: int | None = 1,
                scheduler: str | None = None, ruleset: str | None = None) -> StageResult:
    """The seeded suite against every mutant: the cases built to decide a mutant first.

    ``jobs``/``scheduler`` spread the mutants over processes or a Dask cluster
    (:mod:`parallel`); a worker rebuilds the rules from ``ruleset`` (a name or
    a file), so the outcome is the same however many workers run it.
    """
    mutants = list(mutants if mutants is not None else alternatives(base))
    result = StageResult("default", cases=len(cases))
    result.outcomes = _run("default", base, cases, 0, mutants, progress, jobs, scheduler, ruleset)
    return result


def run_generated(base: Rules, profile: str, seed: int = 0, mutants: Iterable[Alternative] | None = None,
                  progress: Callable[[int, int], None] | None = None, *, jobs: int | None = 1,
                  scheduler: str | None = None, ruleset: str | None = None) -> StageResult:
    """The generated suite (profile ``quick`` or ``thorough``) alone against every mutant."""
    from conformance.generation.suite import PROFILES
    mutants = list(mutants if mutants is not None else alternatives(base))
    result = StageResult(profile, cases=PROFILES[profile]["max_examples"])
    result.outcomes = _run(profile, base, None, seed, mutants, progress, jobs, scheduler, ruleset)
    return result


def by_clause(result: StageResult) -> dict[str, list[int]]:
    """Per clause: [killed, equivalent, survived]."""
    out: dict[str, list[int]] = {}
    for o in result.outcomes:
        row = out.setdefault(o.mutant.clause, [0, 0, 0])
        row[0 if o.killed_by else 1 if o.equivalent else 2] += 1
    return out
