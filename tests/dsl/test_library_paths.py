"""A file of the bundled library checked by its path, or a folder of it, finds the rulesets it extends; a
user's file extending another file of the same run finds it (issue 30, item 15)."""
from __future__ import annotations

import pytest

from tractor_dsl.checker import default_spec_dir, load

SPEC = default_spec_dir()


@pytest.mark.parametrize("part", ["variants/v67_jack_rule.tractor", "derived/r000_no_bridge.tractor", "variants",
                                  "derived"])
def test_a_library_file_or_folder_checked_by_path_finds_what_it_extends(part):
    lib = load([SPEC / part])
    assert [d.headline() for d in lib.errors] == []
    assert not any(d.code == "E504" for d in lib.diagnostics)
    own = {n for n in lib.rulesets if n not in lib.context}
    assert own and all(lib.rulesets[n].lineage[-1] in ("r000", "r001", "r003") for n in own)


def test_the_context_added_is_not_reported_or_counted_as_checked():
    lib = load([SPEC / "variants" / "v67_jack_rule.tractor"])
    assert "r001" in lib.context or "r000" in lib.context
    assert {n for n in lib.rulesets if n not in lib.context} == {"v67_jack_rule"}


HA = 'ruleset ha extends r003 {\n  title "a" "甲"\n  override score.table choose thirty_capped because "club" "俱乐部"\n}\n'
HB = 'ruleset hb extends ha {\n  title "b" "乙"\n}\n'


@pytest.fixture
def pair(tmp_path):
    (tmp_path / "ha.tractor").write_text(HA, encoding="utf-8")
    (tmp_path / "hb.tractor").write_text(HB, encoding="utf-8")
    return str(tmp_path / "ha.tractor"), str(tmp_path / "hb.tractor")


@pytest.mark.parametrize("order", [0, 1])
def test_a_run_follows_extends_through_its_other_files(pair, order):
    from conformance.conform import resolve_rulesets
    files = list(pair) if order == 0 else list(reversed(pair))
    names, announced = resolve_rulesets(files)
    assert sorted(names) == ["ha", "hb"]
    assert {f["name"]: f["extends"] for f in announced} == {"ha": "r003", "hb": "ha"}
    from reference_impl.rules import rules_for
    assert list(rules_for("hb").checked.lineage) == ["hb", "ha", "r003"]
    assert rules_for("hb")["score.cap"] == rules_for("ha")["score.cap"] != rules_for("r003")["score.cap"]


def test_the_reference_engine_serves_a_file_extending_another_it_serves(pair):
    from conformance.protocol import engine
    assert sorted(engine.serve_files(list(reversed(pair)))) == ["ha", "hb"]
