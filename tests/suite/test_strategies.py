"""The conformance strategies: valid inputs, clause coverage, and the mutants they kill.

Run the kill measurement for any ruleset by hand::

    .venv/bin/python -m tests.suite.test_strategies r003 [max_examples]
"""
from __future__ import annotations

import json
import sys
import time
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, Verbosity, given, settings

from conformance import protocol
from conformance.engine import judge
from conformance.mutants import _answer, equivalence_reason, mutants
from conformance.strategies import (OPERATIONS, POSITIVE, cases, clause_coverage, declare_inputs,
                                    executable_clauses, follow_inputs)
from reference_impl.rules import Rules, rules_for, ruleset_names

SEARCH = dict(database=None, derandomize=True, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet)

# How many cases the kill search may draw per mutant. Every non-equivalent mutant
# of r000, r001 and r003 is killed within 1000 (about 80% within 200); the margin
# costs nothing while they are all killed: a search stops at its first
# counterexample, and mutants stated equivalent get EQUIVALENT_EXAMPLES.
KILL_EXAMPLES = 6000
EQUIVALENT_EXAMPLES = 100


# --------------------------------------------------------------------------- 1. valid inputs

@pytest.mark.parametrize("op", OPERATIONS)
@pytest.mark.parametrize("ruleset", ruleset_names())
def test_every_drawn_case_is_a_valid_request_the_reference_judges(ruleset, op):
    seen = []

    @settings(max_examples=60, **SEARCH)
    @given(cases(ruleset, [op]))
    def check(case):
        assert set(case) == {"op", "input"} and case["op"] == op
        inp = case["input"]
        request = protocol.request(0, op, ruleset, inp)
        assert not protocol.schema_errors(f"{op}.request", request), (protocol.schema_errors(f"{op}.request", request), inp)
        result, clauses = judge(op, ruleset, inp)  # raises InputError on an input the engine cannot read
        assert not protocol.schema_errors(f"{op}.result", {**result, "clauses": list(clauses)})
        seen.append(inp)

    check()
    assert len(seen) >= 10


def test_arguments_are_checked_up_front():
    with pytest.raises(ValueError, match="'r999'"):
        cases("r999")
    with pytest.raises(TypeError, match="3"):
        follow_inputs(3)
    with pytest.raises(ValueError, match="'hand'"):
        cases("r003", ["hand"])
    with pytest.raises(ValueError, match=r"\[\]"):
        cases("r003", [])
    with pytest.raises(TypeError, match="'follow'"):
        cases("r003", "follow")
    with pytest.raises(ValueError, match="0"):
        clause_coverage("r003", 0)
    assert set(POSITIVE) == set(OPERATIONS)


def test_a_failure_shrinks_to_few_low_cards():
    """A property that fails on every illegal follow shrinks to a pair led and a three-card hand of low ranks."""
    found = []

    @settings(max_examples=300, database=None, derandomize=True, deadline=None,
              suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet)
    @given(follow_inputs("r003"))
    def prop(inp):
        result, _ = judge("follow", "r003", inp)
        if not result["legal"]:
            found.append(inp)
            raise AssertionError
    with pytest.raises(AssertionError):
        prop()
    smallest = found[-1]
    assert len(smallest["lead"]) <= 2 and len(smallest["hand"]) <= 3, smallest
    assert all(c[:-1] in ("2", "3", "4") for c in smallest["lead"] + smallest["hand"]), smallest


def test_declarations_never_show_more_copies_than_the_pack():
    for ruleset in ("r000", "r001", "r003"):
        decks = rules_for(ruleset).decks

        @settings(max_examples=150, **SEARCH)
        @given(declare_inputs(ruleset))
        def check(inp):
            held: list[Counter] = [Counter() for _ in range(4)]
            for d in inp["declarations"]:
                for c, n in Counter(d["cards"]).items():
                    held[d["seat"]][c] = max(held[d["seat"]][c], n)
            total = sum(held, Counter())
            assert all(n <= decks for n in total.values()), inp
        check()


# --------------------------------------------------------------------------- 2. clause coverage

def _untraced(ruleset: str) -> set[str]:
    """Clauses holding only settings the reference reads but never reports among a judgment's clauses.

    ``tractor.mixed`` is read by combos.classify without being traced; r001
    states it in a clause of its own, which no judgment can therefore name.
    """
    checked = rules_for(ruleset).checked
    by_clause: dict[str, set] = {}
    for name, origin in checked.origins.items():
        by_clause.setdefault(origin.clause.id, set()).add(name)
    return {c for c, names in by_clause.items() if names <= {"tractor.mixed"}}


@pytest.mark.parametrize("ruleset", ["r000", "r001", "r003"])
def test_every_executable_clause_decides_some_case(ruleset):
    coverage = clause_coverage(ruleset, examples=200)
    executable = executable_clauses(ruleset)
    missing = executable - set(coverage) - _untraced(ruleset)
    assert not missing, f"{ruleset}: no case decided by {sorted(missing)}"
    # both polarities for the clauses the legality operations report
    for clause in ("follow.suit",):
        if clause in coverage:
            assert coverage[clause]["positive"] and coverage[clause]["negative"], coverage[clause]


# --------------------------------------------------------------------------- 3. mutants

class _Killed(Exception):
    pass


def _observed(rules: Rules, case: dict):
    got = _answer(rules, case)
    return got if "error" in got else protocol.normalize(case["op"], got)


def kill_report(ruleset: str, max_examples: int = KILL_EXAMPLES,
                equivalent_examples: int = EQUIVALENT_EXAMPLES) -> dict:
    """Search ``cases(ruleset)`` for a case each mutant answers differently from the ruleset.

    Mutants with a stated equivalence (conformance.mutants.equivalence_reason)
    get a shorter search: a kill there would show the equivalence is wrong.
    """
    rules = rules_for(ruleset)
    strategy = cases(ruleset)
    expected: dict[str, object] = {}
    outcomes = []
    start = time.time()
    for mu in mutants(rules.checked):
        reason = equivalence_reason(mu, rules)

        @settings(max_examples=equivalent_examples if reason else max_examples, **SEARCH)
        @given(strategy)
        def search(case):
            key = json.dumps(case, sort_keys=True)
            if key not in expected:
                expected[key] = _observed(rules, case)
            if _observed(mu.rules, case) != expected[key]:
                raise _Killed(case)

        try:
            search()
            killer = None
        except _Killed as e:
            killer = e.args[0]
        outcomes.append({"mutant": mu, "killer": killer, "reason": reason})
    seconds = time.time() - start
    survivors = [o for o in outcomes if o["killer"] is None]
    equivalent = [o for o in outcomes if o["reason"]]
    killed = [o for o in outcomes if o["killer"] is not None]
    non_equivalent = [o for o in outcomes if not o["reason"]]
    return {"ruleset": ruleset, "outcomes": outcomes, "survivors": survivors, "killed": killed,
            "equivalent": equivalent, "non_equivalent": non_equivalent, "seconds": seconds,
            "wrongly_equivalent": [o for o in killed if o["reason"]]}


def render(report: dict) -> str:
    ne = report["non_equivalent"]
    killed_ne = [o for o in ne if o["killer"] is not None]
    lines = [f"{report['ruleset']}: {len(report['outcomes'])} mutants, {len(report['equivalent'])} equivalent, "
             f"killed {len(killed_ne)}/{len(ne)} non-equivalent ({report['seconds']:.0f}s)"]
    for o in report["survivors"]:
        mu = o["mutant"]
        why = f"equivalent: {o['reason']}" if o["reason"] else "NOT KILLED (no equivalence reason)"
        lines.append(f"  survivor {mu.id} [{mu.clause}] {mu.description} -- {why}")
    for o in report["wrongly_equivalent"]:
        mu = o["mutant"]
        lines.append(f"  KILLED though stated equivalent: {mu.id} {mu.description}: {o['killer']}")
    return "\n".join(lines)


@pytest.mark.parametrize("ruleset", ["r003", pytest.param("r000", marks=pytest.mark.slow),
                                     pytest.param("r001", marks=pytest.mark.slow)])
def test_the_strategies_kill_every_non_equivalent_mutant(ruleset):
    report = kill_report(ruleset)
    print(render(report))
    assert not report["wrongly_equivalent"], render(report)
    unexplained = [o["mutant"].description for o in report["survivors"] if not o["reason"]]
    assert not unexplained, render(report)


if __name__ == "__main__":
    names = sys.argv[1:2] or ["r000", "r001", "r003"]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else KILL_EXAMPLES
    for name in names:
        print(render(kill_report(name, n)), flush=True)
