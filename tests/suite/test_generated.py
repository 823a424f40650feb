"""The generated suite with an engine in the loop: passes the reference, shrinks a lie, reproduces from a seed."""
import json
import sys
from pathlib import Path

import pytest

from conformance.protocol import messages as protocol
from conformance.generation.suite import InProcessEngine, ProcessEngine, check_engine, check_operation
from reference_impl.cards import parse_cards
from reference_impl.rules import rules_for

ENGINES = Path(__file__).resolve().parent.parent / "conformance" / "engines"


@pytest.fixture(scope="module")
def reference_engine():
    engine = ProcessEngine([sys.executable, "-m", "tractor_cli.main", "engine"])
    yield engine
    engine.close()


@pytest.mark.parametrize("ruleset", ["r000", "r001", "r003"])
def test_the_generated_suite_passes_against_tractor_engine(reference_engine, ruleset):
    outcomes = check_engine(reference_engine, ruleset, profile="quick", seed=1)
    assert {o.op for o in outcomes} >= {"classify", "lead", "follow", "winner", "kitty", "result", "advance",
                                        "declare", "undeclared"}
    for o in outcomes:
        assert o.status == "pass", o.disagreement.render() if o.disagreement else o.skipped_reason
        assert o.examples > 0


def test_a_lying_engine_is_shrunk_to_a_minimal_position():
    engine = ProcessEngine([sys.executable, str(ENGINES / "wrong_answers.py")])
    try:
        outcome = check_operation(engine, "r003", "follow", "quick", seed=3)
    finally:
        engine.close()
    d = outcome.disagreement
    assert outcome.status == "fail" and d is not None
    # the engine says every follow is legal: shrinking leaves a pair led, a three-card hand, the lowest ranks
    assert len(d.input["lead"]) <= 2
    assert len(d.input["hand"]) <= 3
    assert all(card[:-1] in ("2", "3", "4") for card in d.input["hand"] + d.input["lead"])
    assert d.expected["legal"] is False and d.got["legal"] is True
    assert "follow.suit" in d.clauses
    text = d.render()
    assert "follow.suit" in text and "vector:" in text
    vector = json.loads(d.vector_line())
    assert vector["op"] == "follow" and vector["expected"]["legal"] is False
    assert protocol.schema_errors("vector", vector) == []


def test_runs_are_reproducible_from_the_seed():
    engine = ProcessEngine([sys.executable, str(ENGINES / "wrong_answers.py")])
    try:
        a = check_operation(engine, "r001", "follow", "quick", seed=11).disagreement
        b = check_operation(engine, "r001", "follow", "quick", seed=11).disagreement
    finally:
        engine.close()
    assert a.input == b.input


def test_a_mutant_interpreter_is_caught_in_process():
    # r001 with the follow lists as printed answers differently from r001 (001:g3)
    outcome = check_operation(InProcessEngine(rules_for("r001_literal")), "r001", "follow", "thorough", seed=0)
    assert outcome.status == "fail"
    assert "follow.pair_tractors" in outcome.disagreement.clauses
