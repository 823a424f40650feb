"""A departure another departure explains is no verdict (issue 23): an engine differing in several clauses may
answer one clause's position as another reading only because of the other clause, and the emitted file would
then override a clause the engine plays as the spec does (no fixpoint). Quick: in-process engines, one position."""
from pathlib import Path

import pytest

from conformance.analysis.emit import emit_text, explained
from conformance.analysis.fingerprint import Verdict, _judge, departs, in_context, reading_rulesets
from conformance.generation.features import changed
from conformance.generation.suite import InProcessEngine
from reference_impl.rules import load_file, rules_for

MUTANT4 = Path(__file__).parent / "rulesets" / "mutant4_r001.tractor"

# A throw of three triples led at level 7 (diamonds trump): the position the fingerprint's search once found for
# compare.multi. Whether 2D2D2D-ADADAD chains is tractor.ace_two's; the mutant (AA22 never chains) then answers
# as r001's highest_card reading would, though it ranks by the largest component as r001 does.
THROW = {"level": "7", "trump": "D", "leader": 0, "plays": [
    ["2H", "2H", "2H", "2D", "2D", "2D", "AD", "AD", "AD"], ["3S", "10S", "AS", "3H", "8H", "10H", "QH", "9C", "AC"],
    ["4D", "4D", "4D", "7D", "7D", "7D", "8D", "8D", "8D"], ["9D", "9D", "9D", "10D", "10D", "10D", "J+", "J+", "J+"]]}


@pytest.fixture(scope="module")
def setting():
    r001 = rules_for("r001")
    table = reading_rulesets(r001.checked)
    engine = InProcessEngine(load_file(MUTANT4))
    answers = {}
    for reading, rules in table["compare.multi"].items():
        _, got = InProcessEngine(rules).ask("winner", "r001", THROW)
        answers[reading] = {"winner": got["winner"], "points": got["points"]}
    case = {"op": "winner", "input": THROW, "answers": answers}
    alone = _judge(engine, "r001", "compare.multi", table["compare.multi"], "largest_component", [case])
    return r001, table, engine, alone


def test_alone_the_position_makes_the_engine_look_like_another_reading(setting):
    # the confound the rest relies on: the position separates the readings, and the engine sides with the other
    _, _, _, alone = setting
    assert alone.evidence[0]["answers"]["largest_component"] != alone.evidence[0]["answers"]["highest_card"]
    assert departs(alone) and alone.followed == ["highest_card"]


def test_judged_among_the_other_departures_the_spec_reading_stands(setting):
    r001, table, engine, alone = setting
    ace = Verdict("tractor.ace_two", tuple(table["tractor.ace_two"]), "lowest", ["none"], 2)
    out = {v.clause: v for v in in_context(engine, r001.checked, [ace, alone], wanted=1)}
    multi = out["compare.multi"]
    assert not departs(multi) and "largest_component" in multi.followed, multi
    assert multi.context == {"tractor.ace_two": "none"} and multi.positions >= 1
    assert out["tractor.ace_two"].followed == ["none"]   # the real departure stands (judged with nothing else)


def test_a_lone_departure_is_not_judged_again(setting):
    r001, _, engine, alone = setting
    [v] = in_context(engine, r001.checked, [alone], wanted=1)
    assert v is alone


def test_emit_writes_no_override_the_findings_explain(setting):
    r001, _, _, alone = setting
    final = changed(r001, {"tractor.ace_two": "none"})   # what a finding on tractor.ace_two gives
    assert explained(final, alone) and not explained(r001, alone)

    class Found:   # a finding of attribution, as emit_text reads it
        feature, clause, keys, cases, engine, after = ("tractor.ace_two", "tractor.ace_two", ("tractor.ace_two",),
                                                       ["r001:winner:x"], ["tractor.ace_two: none"], final)
    text = emit_text(r001, "seen", [Found()], [alone], "mutant")
    assert "override tractor.ace_two" in text and "compare.multi" not in text
    assert "override compare.multi choose highest_card" in emit_text(r001, "seen", [], [alone], "mutant")


def test_a_users_rule_file_is_fingerprinted_by_its_own_readings():
    # its readings are checked with the file itself among the sources (it extends a bundled ruleset)
    from conformance.analysis.fingerprint import fingerprint
    rules = load_file(MUTANT4)
    verdicts = fingerprint(InProcessEngine(rules), rules.checked, wanted=1)
    assert len(verdicts) >= 10 and "kitty.capture" in {v.clause for v in verdicts}
    decided = [v for v in verdicts if v.positions]
    assert len(decided) >= len(verdicts) // 2 and all(v.followed == [v.chosen] for v in decided)
    assert {v.clause: v.chosen for v in verdicts}["kitty.capture"] == "powers"   # the file's choice, not r001's
