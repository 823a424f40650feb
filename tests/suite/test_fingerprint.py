"""Fingerprinting finds each ruleset's readings, and a variant's, from answers alone."""
import pytest

from conformance.analysis.fingerprint import fingerprint
from conformance.generation.suite import InProcessEngine
from reference_impl.rules import rules_for


@pytest.mark.parametrize("ruleset", ["r000", "r001", "r003"])
def test_the_reference_follows_its_own_readings(ruleset):
    rules = rules_for(ruleset)
    verdicts = fingerprint(InProcessEngine(rules), rules.checked, wanted=2)
    assert verdicts, "every seed ruleset has clauses with several readings"
    decided = [v for v in verdicts if v.positions]
    assert len(decided) >= len(verdicts) // 2
    for v in decided:
        assert v.followed == [v.chosen], (v.clause, v.followed)


@pytest.mark.parametrize("variant, clause, reading", [
    ("r001_literal", "follow.pair_tractors", "literal"),       # 001:g3
    ("r001_powers", "kitty.capture", "powers"),                # 001:g2
    ("r001_aa22_top", "tractor.ace_two", "by_top_card"),       # 001:g7
    ("r000_no_bridge", "tractor.bridge", "no_bridge"),         # 000:g3
])
def test_a_variant_engine_is_recognised(variant, clause, reading):
    base = rules_for(variant).checked.lineage[1]
    verdicts = {v.clause: v for v in fingerprint(InProcessEngine(rules_for(variant)), rules_for(base).checked, 3)}
    assert verdicts[clause].followed == [reading]
    assert verdicts[clause].chosen != reading
