"""Failures become findings, and each failure is charged to the clause that decided it (issue 9 point 5).

The "engines" here are the reference itself with one or two features of the spec
read another way (an alternative of :mod:`conformance.generation.alternatives`), asked
the default suite's own cases. Which clause is to blame is therefore known: the
clause of the feature that was changed.
"""
from __future__ import annotations

from collections import Counter

import pytest

from conformance.protocol import messages as protocol
from conformance.generation.alternatives import alternatives
from conformance.analysis.attribution import analyse
from conformance.generation.cases import suite
from conformance.generation.decisions import answer
from reference_impl.rules import rules_for


@pytest.fixture(scope="module")
def r001():
    rules = rules_for("r001")
    return rules, alternatives(rules), suite("r001", ops=["classify", "follow", "winner", "kitty", "lead"])


def pick(alts, feature: str, description: str):
    found = [a for a in alts if a.feature == feature and a.description == description]
    assert len(found) == 1, [a.description for a in alts if a.feature == feature]
    return found[0]


def asked(engine_rules, cases):
    """The engine's answers, split as the runner splits them: an answer that is an error is not a failure."""
    fails, passes = [], []
    for case in cases:
        got = answer(engine_rules, case["op"], case["input"])
        if "error" in got:
            continue
        if got == protocol.normalize(case["op"], case["expected"]):
            passes.append(case)
        else:
            fails.append((case, got))
    return fails, passes


def test_a_kitty_answered_with_another_multiplier_is_charged_to_the_kitty_clause_alone(r001):
    # 001:8b: "if the attackers' single wins, they get the kitty points" (x1); this engine doubles them
    rules, alts, cases = r001
    engine = pick(alts, "kitty.multiplier", "kitty.multiplier: trump single 1 -> 1 + 1").on(rules)
    fails, passes = asked(engine, cases)
    assert fails and {c["op"] for c, _ in fails} == {"kitty"}
    a = analyse(rules, fails, passes)
    assert [f.feature for f in a.findings] == ["kitty.multiplier"]
    assert a.unexplained == []
    assert {a.charges[c["id"]].clauses for c, _ in fails} == {("kitty.capture",)}
    # the trick's winner and the card order were consulted too, and are not charged
    assert all(len(c.get("clauses", ())) > 1 for c, _ in fails)


def test_a_failure_caused_by_fixed_trump_twos_is_charged_to_the_trump_order_not_to_follow_suit(r001):
    # 001:5.1 "2是固定主": 2s are always trump; this engine has no fixed trump ranks
    rules, alts, cases = r001
    engine = pick(alts, "trump.fixed_ranks", "trump.fixed_ranks: no fixed trump ranks").on(rules)
    fails, passes = asked(engine, cases)
    ops = Counter(c["op"] for c, _ in fails)
    assert ops["follow"] > 0 and len(ops) >= 3, ops
    a = analyse(rules, fails, passes)
    assert [(f.feature, f.clause) for f in a.findings] == [("trump.fixed_ranks", "trump.order")]
    assert a.unexplained == []
    charged = {a.charges[c["id"]].clauses for c, _ in fails}
    assert charged == {("trump.order",)}
    follow_fails = [c for c, _ in fails if c["op"] == "follow"]
    assert any("follow.suit" in c.get("clauses", ()) for c in follow_fails)   # consulted, yet not charged


def test_an_engine_differing_in_two_features_gets_exactly_two_findings(r001):
    rules, alts, cases = r001
    kitty = pick(alts, "kitty.multiplier", "kitty.multiplier: trump single 1 -> 1 + 1")
    twos = pick(alts, "trump.fixed_ranks", "trump.fixed_ranks: no fixed trump ranks")
    engine = kitty.on(twos.on(rules))
    fails, passes = asked(engine, cases)
    a = analyse(rules, fails, passes)
    assert sorted(f.feature for f in a.findings) == ["kitty.multiplier", "trump.fixed_ranks"]
    assert a.unexplained == []
    assert sum(len(f.cases) for f in a.findings) == len(fails)


def test_a_failure_no_feature_explains_is_unexplained_and_charged_to_what_decides_it(r001):
    rules, _, cases = r001
    kitty_case = next(c for c in cases if c["op"] == "kitty" and c["expected"]["points"] > 0)
    lie = dict(protocol.normalize("kitty", kitty_case["expected"]))
    lie["points"] = lie["points"] + 7          # no multiplier of any row gives points that are not a multiple of 5
    passes = [c for c in cases if c["op"] == "kitty" and c is not kitty_case]
    a = analyse(rules, [(kitty_case, lie)], passes)
    assert a.findings == [] and a.unexplained == [kitty_case["id"]]
    charge = a.charges[kitty_case["id"]]
    assert charge.how in ("decides", "consulted") and "kitty.capture" in charge.clauses


def test_an_engine_giving_one_answer_to_every_case_of_an_operation_is_not_explained_by_alternatives():
    # "every follow is legal" is no rule of any ruleset, though ladder alternatives each explain a slice of it:
    # its failures go to clustering, one finding; an engine whose answers vary (a real ladder) is not constant
    from conformance.analysis.attribution import CONSTANT_MIN, constant_ops
    ok, no = {"legal": True, "reason": "ok"}, {"legal": False, "reason": "must_follow_suit"}
    follows = [{"id": f"f{i}", "op": "follow", "expected": ok if i % 2 else no} for i in range(CONSTANT_MIN)]
    fails = [(c, ok) for c in follows if c["expected"] == no]
    passes = [c for c in follows if c["expected"] == ok]
    assert constant_ops(fails, passes) == {"follow"}
    assert constant_ops(fails, passes + [{"id": "x", "op": "follow", "expected": no}]) == set()   # it said no once
    assert constant_ops(fails[:3], passes[:3]) == set()                                          # too few cases
    assert constant_ops(fails, []) == set()      # the spec's answers alike too: nothing telling
