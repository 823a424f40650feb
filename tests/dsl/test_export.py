"""``tractor export R``: every setting, ladder, band, kitty row and reading, each with its clause."""
import json
import sys

import pytest

from conformance.protocol.messages import schema_errors
from tractor_dsl.checker import load
from tractor_dsl.export import export, export_json
from tests import processes

LIB = load()
RULESETS = sorted(LIB.rulesets)


@pytest.mark.parametrize("name", RULESETS)
def test_the_export_of_every_bundled_ruleset_is_valid_and_complete(name):
    rs = LIB.get(name)
    data = json.loads(export_json(rs))
    assert schema_errors("export", data, limit=5) == []
    clause_ids = {c.id for c in rs.clauses}
    assert set(data["settings"]) == set(rs.values)                     # every setting
    assert all(s["clause"] in clause_ids for s in data["settings"].values())
    listed = [f for f in data["follow"] if not f["derived"]]
    assert len(listed) == len(rs.ladders) and len(data["bands"]["rows"]) == len(rs.bands)
    interpreted = [c for c in rs.clauses if c.readings]
    assert [r["clause"] for r in data["readings"]] == [c.id for c in interpreted]
    for r in data["readings"]:                                         # the chosen reading and the others
        assert [x["name"] for x in r["readings"] if x["chosen"]] == [rs.choices[r["clause"]]] == [r["chosen"]]
    assert data["ruleset"]["name"] == name and data["ruleset"]["lineage"][0] == name
    assert data["ruleset"]["extends"] == (rs.lineage[1] if len(rs.lineage) > 1 else None)


def test_the_export_says_what_the_rulebooks_say():
    r001, r003, capped = (export(LIB.get(n)) for n in ("r001", "r003", "r003_capped"))
    # 001:4 (level.progression): levels 3 to K, nothing must be played
    assert r001["settings"]["level.ranks"]["value"][0] == "3" and r001["settings"]["level.end"]["value"] == "K"
    assert r001["settings"]["level.must_play"] == {**r001["settings"]["level.must_play"], "value": []}
    # 001:8a (score.table): 120 takes the stage, +1 level per 60 points, never more than three levels
    assert r001["settings"]["score.threshold"]["value"] == 120 and r001["settings"]["score.cap"]["value"] == 3
    assert r001["bands"]["clause"] == "score.table"
    assert {"low": 180, "high": 235, "side": "attackers", "levels": 1, "step": None} in r001["bands"]["rows"]
    # 003:4 (score.table, interpreted): every 30 points one level, no cap; the derived r003_capped caps it at 3
    assert r003["settings"]["score.cap"]["value"] is None and capped["settings"]["score.cap"]["value"] == 3
    assert capped["ruleset"]["extends"] == "r003" and capped["settings"]["score.cap"]["reading"] == "thirty_capped"
    assert r003["readings"][[r["clause"] for r in r003["readings"]].index("score.table")]["chosen"] == "thirty_open"


def test_kitty_rows_are_formulas_with_their_text_and_tree():
    rows = export(LIB.get("r003"))["kitty"]
    trump_single = next(r for r in rows if r["won_by"] == "trump" and r["unit"] == "single")
    assert trump_single["formula"] == "3 * cards" and trump_single["clause"] == "kitty.capture"
    assert trump_single["expr"] == {"op": "*", "left": {"op": "const", "value": 3}, "right": {"op": "cards"}}
    r001 = export(LIB.get("r001"))["kitty"]
    assert {r["setting"] for r in r001} == {"kitty.multiplier", "kitty.banker_multiplier"}


def test_the_command_is_deterministic_and_reports_an_unknown_ruleset(tmp_path):
    cmd = [sys.executable, "-m", "tractor_cli.main", "export"]
    first = processes.run(cmd + ["r001"], capture_output=True, text=True, timeout=processes.PATIENCE)
    assert first.returncode == 0 and first.stdout == export_json(LIB.get("r001")) and first.stderr == ""
    # --json, which used to select the only format, still works but says it is not needed
    old = processes.run(cmd + ["r001", "--json"], capture_output=True, text=True, timeout=processes.PATIENCE)
    assert old.returncode == 0 and old.stdout == first.stdout and "--json is not needed" in old.stderr
    out = processes.run(cmd + ["r001", "-o", str(tmp_path / "r001.json")], capture_output=True,
                         text=True, timeout=processes.PATIENCE)
    assert out.returncode == 0 and (tmp_path / "r001.json").read_text(encoding="utf-8") == first.stdout
    bad = processes.run(cmd + ["r999"], capture_output=True, text=True, timeout=processes.PATIENCE)
    assert bad.returncode == 2 and "unknown ruleset 'r999'" in bad.stderr and "Traceback" not in bad.stderr


def test_a_users_rule_file_is_exported_with_what_it_overrides(tmp_path):
    # a house rule file extending r003 (tests/conformance/rulesets/mutant_r003.tractor): its export is
    # valid, names its base, and carries its own kitty row (the trump pair x2 per card, not 003:9.3's x3)
    from pathlib import Path
    mutant = Path(__file__).parents[1] / "conformance" / "rulesets" / "mutant_r003.tractor"
    cmd = [sys.executable, "-m", "tractor_cli.main", "export", str(mutant)]
    out = processes.run(cmd, capture_output=True, text=True, timeout=processes.PATIENCE)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert schema_errors("export", data, limit=5) == []
    assert data["ruleset"]["name"] == "mutant_r003" and data["ruleset"]["extends"] == "r003"

    def trump_pair(doc):
        return [r["formula"] for r in doc["kitty"] if r["setting"] == "kitty.multiplier"
                and r["won_by"] == "trump" and r["unit"] == "pair"]
    assert trump_pair(data) == ["2 * cards"] and trump_pair(export(LIB.get("r003"))) == ["3 * cards"]
