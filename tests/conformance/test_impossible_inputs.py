"""The reference engine refuses what cannot happen (issue 20): points out of the ruleset's range or off
its point step, a kitty of another size than the ruleset's, a fault counting more cards than the deck;
and strict JSON refuses an object that gives a key twice (an engine's answer: ``invalid_answer``)."""
from __future__ import annotations

import pytest

from conformance.protocol import engine_io, jsonlines
from conformance.protocol import messages as protocol
from conformance.running.runner import Runner
from reference_impl.domains import deck_cards, point_step, points_bound
from reference_impl.rules import rules_for

LAST_TRICK = {"leader": 0, "plays": [["AS"], ["3S"], ["4S"], ["6S"]]}
KITTY = ["5S", "10S", "KS", "5D", "7C", "8C"]          # r001 buries six


def errored(op, ruleset, inp) -> str:
    ans = engine_io.answer(protocol.request(7, op, ruleset, inp))
    assert "errored" in ans, ans
    assert protocol.check_answer(op, ans) == "errored"
    return ans["errored"]["message"]


def test_the_domains_of_the_bundled_rulesets():
    r001 = rules_for("r001")
    assert point_step(r001) == 5 and deck_cards(r001) == 162
    # the largest points the suite's own score-table probes send (20 decks' worth) are inside
    assert points_bound(r001) >= 2000 * r001.decks and points_bound(rules_for("r000")) >= 4000
    assert points_bound(rules_for("r001_powers")) > 60 * 2 ** 38 > points_bound(r001)


@pytest.mark.parametrize("points, words", [
    (10 ** 26, "more than any hand of r001 can give"),
    (-10 ** 26, "more than any hand of r001 can give"),
    (10 ** 40, "a number of 41 digits"),
    (123, "not a multiple of 5"),
    (-3, "not a multiple of 5"),
])
def test_impossible_points_are_errored(points, words):
    assert words in errored("result", "r001", {"attackers_points": points})
    faults = [{"fault": "revoke", "offender": "banker", "count": 1}]
    assert words in errored("penalty", "r001", {"faults": faults, "attackers_points": points})


def test_possible_points_are_answered_up_to_the_bound():
    bound = points_bound(rules_for("r001"))
    top = bound - bound % 5
    for points in (0, -5, 6000, top, -top):
        ans = engine_io.answer(protocol.request(1, "result", "r001", {"attackers_points": points}))
        assert "result" in ans, (points, ans)
    assert "more than any hand" in errored("result", "r001", {"attackers_points": top + 5})


@pytest.mark.parametrize("size", [0, 2, 5, 7, 8])
def test_a_kitty_of_another_size_is_errored(size):
    kitty = (KITTY + ["9C", "9D"])[:size]
    base = {"level": "7", "trump": "H"}
    said = f"{size} card(s), but a kitty of r001 holds 6"
    assert said in errored("kitty", "r001", {**base, "banker": 0, "last_trick": LAST_TRICK, "kitty": kitty})
    assert said in errored("undeclared", "r001", {"level": "2", "attackers_level": "2", "first_hand": True,
                                                   "kitty": kitty})


def test_a_kitty_of_the_rulesets_size_is_answered():
    ans = engine_io.answer(protocol.request(1, "kitty", "r001", {"level": "7", "trump": "H", "banker": 1,
                                                                  "last_trick": LAST_TRICK, "kitty": KITTY}))
    assert ans["result"]["points"] == 30 * ans["result"]["multiplier"] and ans["result"]["kitty_points"] == 30


def test_a_fault_counting_more_than_the_deck_is_errored():
    faults = [{"fault": "revoke", "offender": "banker", "count": 10 ** 11}]
    assert "is more than the 162 cards of r001's deck" in errored(
        "penalty", "r001", {"faults": faults, "attackers_points": 100})
    faults[0]["count"] = 162
    ans = engine_io.answer(protocol.request(1, "penalty", "r001", {"faults": faults, "attackers_points": 100}))
    assert "result" in ans


def test_the_schemas_state_the_domains():
    points = {"seq": 1, "op": "result", "ruleset": "r001", "input": {"attackers_points": 2 ** 60}}
    assert protocol.schema_errors("result.request", points)
    count = {"seq": 1, "op": "penalty", "ruleset": "r001",
             "input": {"faults": [{"fault": "revoke", "offender": "banker", "count": 217}], "attackers_points": 0}}
    assert protocol.schema_errors("penalty.request", count)
    kitty = {"seq": 1, "op": "kitty", "ruleset": "r001",
             "input": {"level": "7", "trump": "H", "banker": 0, "last_trick": LAST_TRICK, "kitty": ["5S"] * 21}}
    assert protocol.schema_errors("kitty.request", kitty)
    kitty["input"]["kitty"] = KITTY
    assert not protocol.schema_errors("kitty.request", kitty)


def test_a_key_given_twice_is_not_strict_json():
    with pytest.raises(jsonlines.BadMessage) as e:
        jsonlines.decode(b'{"seq": 1, "result": {"legal": true, "legal": false}}')
    assert e.value.kind == "invalid_json" and '"legal" is given twice' in str(e.value)
    with pytest.raises(jsonlines.BadMessage) as e:
        jsonlines.decode(b'{"seq": 1, "seq": 2}', duplicate="invalid_answer")
    assert e.value.kind == "invalid_answer"
    assert jsonlines.decode(b'{"a": {"b": 1}, "b": [{"a": 2}]}') == {"a": {"b": 1}, "b": [{"a": 2}]}
    # the engine refuses such a request, naming the key
    raw = b'{"seq": 4, "op": "result", "ruleset": "r001", "input": {"attackers_points": 5}, "op": "result"}'
    line, _ = engine_io.respond(("line", raw))
    ans = jsonlines.decode(line)
    assert ans["seq"] == 4 and '"op" is given twice' in ans["errored"]["message"]


def test_the_runner_judges_a_duplicate_key_answer_invalid_answer():
    case = {"id": "c1", "op": "result", "ruleset": "r001", "input": {"attackers_points": 0},
            "expected": {"next_banker": "banker", "levels": 3}, "clauses": []}
    runner = Runner.__new__(Runner)   # only the judging of one line: no engine is started
    runner.fields, runner.strict_schema = {}, False
    outcome = runner._judge_line(case, 3, b'{"seq": 3, "result": {"next_banker": "attackers", '
                                          b'"next_banker": "banker", "levels": 3}}')
    assert (outcome.status, outcome.kind) == ("errored", "invalid_answer")
    assert "given twice" in outcome.message
