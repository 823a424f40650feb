"""Explanations that compose (issue 23, point 1): the alternatives that together explain an engine's failures are
found together, each finding states one value of one feature, simplified and never self-contradictory, with a
spec value that is never blank; a difference no alternative expresses gets no alternative's name.

The engines are the reference with features changed, or with one class of answers rewritten, asked the
default suite's own cases (as in test_attribution)."""
import pytest

from conformance.analysis.attribution import analyse
from conformance.generation.alternatives import alternatives
from conformance.generation.cases import vector_cases
from conformance.generation.decisions import answer
from conformance.protocol import messages as protocol
from reference_impl.rules import rules_for


@pytest.fixture(scope="module")
def r001():
    rules = rules_for("r001")
    alts = {a.description: a for a in alternatives(rules)}
    return rules, alts, [c for c in vector_cases(None, ["r001"]) if c["op"] != "hand"]


def asked(rules, cases, engine=None, rewrite=None):
    fails, passes = [], []
    for case in cases:
        got = answer(engine or rules, case["op"], case["input"])
        if rewrite:
            got = rewrite(case, got)
        if "error" in got:
            continue
        (passes.append(case) if got == protocol.normalize(case["op"], case["expected"])
         else fails.append((case, got)))
    return fails, passes


def mutant(rules, alts, *descriptions):
    out = rules
    for d in descriptions:
        out = alts[d].on(out)
    return out


def test_two_differences_right_only_together_are_found_together(r001):
    # tractors of 7 pairs alone break passing cases that the swapped joker/level order gives back
    rules, alts, cases = r001
    engine = mutant(rules, alts, "tractor.min_length: 7", "trump.order: swap small_joker and trump_level")
    fails, passes = asked(rules, cases, engine)
    a = analyse(rules, fails, passes)
    assert [(f.feature, f.engine) for f in a.findings] == [
        ("tractor.min_length", ["tractor.min_length: 7"]),
        ("trump.order", ["trump.order: swap small_joker and trump_level"])]
    assert a.unexplained == [] and sum(len(f.cases) for f in a.findings) == len(fails)


def test_three_features_at_once_give_three_findings(r001):
    rules, alts, cases = r001
    engine = mutant(rules, alts, "trump.fixed_ranks: no fixed trump ranks",
                    "tractor.junctions: drop junction [big_joker, small_joker]",
                    "kitty.multiplier: trump pair 2 -> 3 * cards")
    fails, passes = asked(rules, cases, engine)
    a = analyse(rules, fails, passes)
    assert sorted(f.feature for f in a.findings) == ["kitty.multiplier", "tractor.junctions", "trump.fixed_ranks"]
    assert a.unexplained == []


def test_a_multiplier_is_simplified_and_each_row_stated_once(r001):
    rules, alts, cases = r001
    engine = mutant(rules, alts, "kitty.multiplier: side pair 2 -> 3 * cards",
                    "kitty.multiplier: trump single 1 -> 1 + 1")
    fails, passes = asked(rules, cases, engine)
    [f] = analyse(rules, fails, passes).findings
    assert sorted(f.engine) == ["kitty.multiplier: side pair 2 -> 3 * cards", "kitty.multiplier: trump single 1 -> 2"]
    assert sorted(f.spec.split("; ")) == ["side pair 2", "trump single 1"]
    rows = [e.split(" -> ")[0] for e in f.engine]
    assert len(rows) == len(set(rows))            # never "side pair 2 -> 2 * cards; side pair 2 -> 3 * cards"
    assert not any("+" in e for e in f.engine)


@pytest.mark.parametrize("description, spec", [
    ("kitty.capture: reading linear -> powers", "reading linear"),
    ("follow tractor(pair, 4) (derived): rungs 1 and 2 swapped", "tractor(pair, 4) / tractor(pair, 3) + pair"),
])
def test_the_spec_value_of_a_reading_or_a_derived_ladder_is_never_blank(r001, description, spec):
    rules, alts, cases = r001
    fails, passes = asked(rules, cases, mutant(rules, alts, description))
    [f] = analyse(rules, fails, passes).findings
    assert f.engine == [description] and f.spec.startswith(spec)


def test_a_flat_throw_penalty_is_named_by_the_per_attempt_reading(r001):
    # the engine charges the penalty points once per failed throw, however many cards: the house rule V43
    # (throw.penalty_per = attempt) says exactly that, and it is never described as a per-card reading with a
    # spurious change of throw.penalty_points (issue 23)
    rules, _, cases = r001
    flat = rules["throw.penalty_points"]

    def rewrite(case, got):
        return {**got, "penalty": flat} if case["op"] == "lead" and "penalty" in got else got
    fails, passes = asked(rules, cases, rewrite=rewrite)
    assert len(fails) > 40
    a = analyse(rules, fails, passes)
    throw = [f for f in a.findings if f.feature.startswith("throw.")]
    assert [f.feature for f in throw] == ["throw.penalty_per"], [f.engine for f in a.findings]
    assert throw[0].engine == ["throw.penalty_per: attempt"]
    assert not [f for f in a.findings if f.feature == "throw.penalty_points"]
    assert a.unexplained == []


def test_a_cluster_its_findings_own_rule_answers_joins_that_finding():
    """One deviation, one finding (issue 31, item 2): run on tonyyunyang/80-fen-shengji (src/rules.js reads V47's
    kitty table), the finding "V47" took 15 failures on top of the findings before it, and a cluster named by the
    same rule held 29 more; the cases the rule answers as the engine join the finding, the others stay outside."""
    from conformance.analysis.attribution import Finding, engine_value, folded
    from conformance.analysis.charges import Charge
    from conformance.analysis.clusters import Cluster
    from conformance.analysis.naming import Rule
    rules = rules_for("r000")
    v47 = next(a for a in alternatives(rules) if "(V47)" in a.description)
    kitty = [c for c in vector_cases(rulesets=["r000"], ops=["kitty"])
             if answer(v47.rules, "kitty", c["input"]) != protocol.normalize("kitty", c["expected"])][:6]
    assert len(kitty) == 6
    engine_of = {c["id"]: answer(v47.rules, "kitty", c["input"]) for c in kitty}
    odd = kitty[-1]["id"]
    engine_of[odd] = {**engine_of[odd], "points": engine_of[odd]["points"] + 5}   # a case V47 does not answer
    case_of = {c["id"]: c for c in kitty}
    finding = Finding(v47.feature, v47.clause, "", [engine_value(rules, v47)], [kitty[0]["id"]])
    rule = Rule(v47.clause, v47.feature, v47.description, 4, 4, (), v47.id)
    assert rule.fixes

    def cluster(ids):
        return Cluster("cluster", "r000", "kitty", ("points",), "kitty.capture", "", list(ids), rule=rule)

    charges = {}
    whole = cluster([c["id"] for c in kitty[1:]])            # 4 of 5 answered: they join, the odd one stays out
    assert folded(rules, [whole], [finding], case_of, engine_of, {}, charges) == []
    assert finding.cases == sorted(c["id"] for c in kitty[:5])
    assert charges == {c["id"]: Charge((v47.clause,), "finding", v47.feature) for c in kitty[1:5]}
    few = cluster([kitty[1]["id"], odd])                    # 1 of 2 answered: the cluster stays whole
    assert folded(rules, [few], [finding], case_of, engine_of, {}, {}) == [few]
