"""`tractor fingerprint --emit` states the rules of the clusters whose rule fixes them (issue 31, item 6), not only
the findings': sunbin1998can/tractor-card-game-codex's kitty (H33) reached its run as a cluster of 57 failing
cases the rule fixes on every one, and the emitted file left it out (443 failures against r000, 233 against the
file; with it, 165)."""
from types import SimpleNamespace

from conformance.analysis.emit import emit_text, with_fixing_clusters
from conformance.generation.alternatives import alternatives
from reference_impl.rules import load_file, rules_for


def _cluster(alt, fixes=True, ruleset="r000"):
    return SimpleNamespace(rule=SimpleNamespace(alt=alt.id, fixes=fixes), ruleset=ruleset,
                           cases=["r000:kitty:1", "r000:kitty:2"])


def test_a_cluster_whose_rule_fixes_it_is_stated_by_the_emitted_file(tmp_path):
    r000 = rules_for("r000")
    [h33] = [a for a in alternatives(r000) if "(H33)" in a.description]
    stated = with_fixing_clusters(r000, [], [_cluster(h33)])
    assert [f.feature for f in stated] == ["kitty.multiplier"] and stated[0].cases == ["r000:kitty:1", "r000:kitty:2"]
    text = emit_text(r000, "seen", stated, [], "an engine")
    assert "set kitty.multi_unit = whole_play" in text and "throw: 2 }" in text
    assert "kitty.multiplier: 2 failing case(s) of the seeded suite, e.g. r000:kitty:1" in text
    (tmp_path / "seen.tractor").write_text(text, encoding="utf-8")
    seen = load_file(tmp_path / "seen.tractor")   # the file checks, and reads the engine's kitty: a throw x2
    assert seen["kitty.multi_unit"] == "whole_play" and seen["kitty.multiplier"] == rules_for("h33_kitty_lead_pairs")[
        "kitty.multiplier"]


def test_a_cluster_nearest_a_rule_or_of_another_ruleset_or_of_a_feature_a_finding_changes_is_not_stated():
    r000 = rules_for("r000")
    alts = alternatives(r000)
    [h33] = [a for a in alts if "(H33)" in a.description]
    [h29] = [a for a in alts if "(H29)" in a.description]   # another value of the same feature
    assert with_fixing_clusters(r000, [], [_cluster(h33, fixes=False)]) == []
    assert with_fixing_clusters(r000, [], [_cluster(h33, ruleset="r001")]) == []
    [finding] = with_fixing_clusters(r000, [], [_cluster(h29)])
    assert with_fixing_clusters(r000, [finding], [_cluster(h33)]) == [finding]   # the finding's value stands
