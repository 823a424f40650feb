"""Whole hands through an engine (conformance.generation.stateful): the reference passes, a mutant is caught."""
import shlex
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from conformance.generation.alternatives import alternatives
from conformance.generation.stateful import HandDisagreement, hand_machine, run_hands
from conformance.generation.suite import InProcessEngine, ProcessEngine
from reference_impl.rules import rules_for

REPO = Path(__file__).resolve().parents[2]
FAST = settings(max_examples=6, stateful_step_count=50, deadline=None, database=None, derandomize=True,
                suppress_health_check=list(HealthCheck), report_multiple_bugs=False)


def _totals(machine) -> tuple[int, dict]:
    hands, asked = 0, {}
    for run in machine.history:
        hands += run["hands"]
        for op, n in run["asked"].items():
            asked[op] = asked.get(op, 0) + n
    return hands, asked


@pytest.mark.parametrize("ruleset", ["r003", "r001"])
def test_the_reference_plays_whole_hands_without_a_disagreement(ruleset):
    machine = hand_machine(InProcessEngine(rules_for(ruleset)), ruleset)
    run_state_machine_as_test(machine, settings=FAST)
    hands, asked = _totals(machine)
    assert hands >= 2, machine.history
    # every judgment of a hand was asked and compared
    for op in ("declare", "lead", "follow", "winner", "kitty", "result", "hand"):
        assert asked.get(op, 0) > 0, (op, asked)
    assert asked["follow"] >= 2 * asked["winner"]   # the play made and an alternative, per follower


def _mutant(ruleset: str, setting: str, description: str):
    for m in alternatives(rules_for(ruleset)):
        if m.feature == setting and description in m.description:
            return m
    raise LookupError(f"no mutant {setting}: {description}")


def _falsifying_program(error: BaseException) -> str:
    return "\n".join(getattr(error, "__notes__", ()))


def test_a_mutated_point_table_is_caught_with_a_replayable_program():
    mutant = _mutant("r003", "equipment.points", "5 counts 10")
    machine = hand_machine(InProcessEngine(mutant.rules, name=mutant.id), "r003")
    # no shrinking: replaying a 162-card deal thousands of times takes a minute or more
    with pytest.raises(HandDisagreement) as info:
        run_state_machine_as_test(machine, settings=settings(FAST, max_examples=20,
                                                             phases=[Phase.explicit, Phase.generate]))
    d = info.value.disagreement
    assert d.op in ("winner", "kitty", "hand") and "equipment.points" in d.clauses
    message = str(info.value)
    assert "the engine's" in message and "disagrees with the reference" in message
    assert "reference: {" in message and "engine:    {" in message and "vector: {" in message
    program = _falsifying_program(info.value)
    assert "state = HandMachine()" in program and "state.deal(pack=[" in program
    assert "state.play_" in program and "state.teardown()" in program


def test_a_mutated_score_table_is_caught():
    mutant = _mutant("r003", "score.bands", "band 120..145 gains 1")   # taking the stage gains a level
    machine = hand_machine(InProcessEngine(mutant.rules, name=mutant.id), "r003")
    with pytest.raises(HandDisagreement) as info:
        run_state_machine_as_test(machine, settings=settings(FAST, max_examples=40,
                                                             phases=[Phase.explicit, Phase.generate]))
    assert info.value.disagreement.op in ("result", "hand")
    assert "score.table" in info.value.disagreement.clauses


def test_run_hands_shrinks_a_disagreement_to_a_short_program():
    """With shrinking (the default of run_hands), a disagreement in the first trick shrinks to a few steps."""
    mutant = _mutant("r003", "equipment.points", "5 counts 10")
    with pytest.raises(HandDisagreement) as info:
        run_hands(InProcessEngine(mutant.rules), "r003", max_examples=20, steps=50, seed=3)
    program = _falsifying_program(info.value)
    steps = [line for line in program.splitlines() if line.startswith("state.") and "cards_are" not in line]
    assert steps[0].startswith("state.deal(") and steps[-1] == "state.teardown()"
    assert len(steps) <= 6, steps


def test_whole_hands_through_the_protocol():
    """The reference engine as a subprocess, and a toy engine that skips most operations."""
    engine = ProcessEngine(shlex.join([sys.executable, "-m", "tractor_cli.main", "engine"]))
    try:
        machine = run_hands(engine, "r003", max_examples=3, steps=40, seed=1)
    finally:
        engine.close()
    hands, asked = _totals(machine)
    assert hands >= 1 and asked["winner"] > 0 and not any(r["skipped"] for r in machine.history)
    toy = ProcessEngine(shlex.join([sys.executable, str(REPO / "examples" / "python" / "toy_engine.py")]))
    try:
        machine = run_hands(toy, "r003", max_examples=3, steps=40, seed=1)
    finally:
        toy.close()
    skipped = {op for run in machine.history for op in run["skipped"]}
    assert {"lead", "follow", "winner"} <= skipped and "result" not in skipped
