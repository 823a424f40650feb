"""The conformance strategies: valid inputs, clause coverage, shrinking, and what the generated stage kills.

Measure every stage for any ruleset with ``tractor mutate R --stages default,quick,thorough``.
"""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, Verbosity, given, settings

from conformance.protocol import messages as protocol
from conformance.protocol.engine import judge
from conformance.generation.strategies import (OPERATIONS, POSITIVE, cases, clause_coverage, declare_inputs,
                                    executable_clauses, follow_inputs)
from reference_impl.rules import rules_for, ruleset_names

SEARCH = dict(database=None, derandomize=True, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet)

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
    with pytest.raises(ValueError, match="'shuffle'"):
        cases("r003", ["shuffle"])
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


# --------------------------------------------------------------------------- 3. the same builders as the seeded suite

def test_strategies_and_the_seeded_suite_share_their_builders():
    """A scenario drawn through Hypothesis and through a seeded Random gives positions of the same shape."""
    from hypothesis import strategies as st
    from conformance.generation.positions import HypothesisDraw, RandomDraw, Rejected, Scenario, build
    rules = rules_for("r003")
    sc = Scenario("follow", "rung", ((3, 2), 2, "meet"))  # a two-triple tractor led, rung 3 first

    @st.composite
    def drawn(draw):
        return build(HypothesisDraw(draw), rules, sc)

    seen = []

    @settings(max_examples=20, **SEARCH)
    @given(drawn())
    def check(inp):
        seen.append(inp)

    check()
    seeded = None
    d = RandomDraw(1)
    for _ in range(50):
        try:
            seeded = build(d, rules, sc)
            break
        except Rejected:
            continue
    assert seen and seeded is not None
    for inp in seen + [seeded]:
        result, _ = judge("follow", "r003", inp)
        assert len(inp["lead"]) == 6 and result["legal"], inp   # the play meets the rung it was built for


@pytest.mark.slow
def test_the_generated_quick_stage_alone_kills_nearly_every_alternative():
    """`tractor conform --generated quick` on its own: at least 95 % of the alternatives of r000.

    The stage draws its positions once and asks every mutant them in order
    (conformance.generation.suite.drawn_positions): for some of the mutants, those that survive it and those
    it kills, a Hypothesis run of each mutant's own (as ``tractor conform --generated quick`` runs an engine,
    without shrinking) ends the same way, on the same differences."""
    from conformance.analysis.mutation import run_generated
    from conformance.generation.suite import InProcessEngine, check_operation
    base = rules_for("r000")
    result = run_generated(base, "quick")
    assert result.rate >= 95.0, [o.mutant.description for o in result.survived]
    killed = [o for o in result.outcomes if o.killed_by]
    sample = result.survived[:2] + killed[::60]
    assert len(sample) >= 6
    for o in sample:
        own = None
        for op in o.mutant.observers:
            found = check_operation(InProcessEngine(o.mutant.rules), "r000", op, "quick", 0, shrink=False)
            if found.disagreement is not None:
                own = (f"generated {op}", "; ".join(found.disagreement.differences))
                break
        assert own == ((o.killed_by, o.detail) if o.killed_by else None), o.mutant.description
