"""Findings (issue 10, point 4 of the issue; point 2 of this work): an engine that differs from a ruleset
in k features gets exactly those k findings. The mutant engine is `tractor engine` serving a user's
ruleset (tests/conformance/rulesets/mutant_r003.tractor, three overrides of r003) under the name r003."""
import json
import shlex
import sys
from pathlib import Path

import pytest

from .conftest import REFERENCE, cli

MUTANT = Path(__file__).parent / "rulesets" / "mutant_r003.tractor"
MUTANT_ENGINE = shlex.join([sys.executable, "-m", "tractor_cli.main", "engine", "--rules", str(MUTANT),
                            "--as", "r003"])
# The three features the mutant changes (its file says how): 003:9.3 the trump pair's kitty row, 003:7.1 the
# order of the triple's follow ladder, 003:4 the edge of the lowest score band.
CHANGED = {"kitty.multiplier": "kitty.capture", "follow triple": "follow.suit", "score.bands": "score.table"}


@pytest.fixture(scope="module")
def mutant_run(tmp_path_factory):
    where = tmp_path_factory.mktemp("mutant")
    r = cli("conform", "--engine", MUTANT_ENGINE, "--ruleset", "r003", "--report", str(where), "--show", "0")
    assert r.returncode == 1, r.stderr     # it fails: it is a mutant
    return r, where, json.loads((where / "report.json").read_text(encoding="utf-8"))


def test_the_report_names_exactly_the_three_features(mutant_run):
    _, _, report = mutant_run
    assert {f["feature"]: f["clause"] for f in report["findings"]} == CHANGED
    assert report["unexplained"] == []
    failing = {c["id"] for c in report["cases"] if c["status"] == "fail"}
    assert {cid for f in report["findings"] for cid in f["case_ids"]} == failing   # every failure, once
    kitty = next(f for f in report["findings"] if f["feature"] == "kitty.multiplier")
    assert kitty["engine"] == ["kitty.multiplier: trump pair 3 * cards -> 2 * cards"]
    # every failing case is charged to its finding's clause alone
    charged = {c["id"]: c["charged"] for c in report["cases"] if c["status"] == "fail"}
    for f in report["findings"]:
        assert all(charged[cid] == [f["clause"]] for cid in f["case_ids"])


def test_findings_come_first_with_a_position_drawn_as_cards(mutant_run):
    r, where, report = mutant_run
    out = r.stdout
    assert out.index("findings (3:") < out.index("ruleset.operation")
    md = (where / "summary.md").read_text(encoding="utf-8")
    assert md.index("## Findings (3:") < md.index("## Ruleset and operation")
    for f in report["findings"]:
        block = md[md.index(f"**{f['feature']}**"):]
        assert f"FAIL {f['case_ids'][0]}" in block.split("**", 3)[2]   # its first case drawn beneath it
        assert f"{len(f['case_ids'])} case(s)" in block.splitlines()[0]
    kitty_block = md[md.index("**kitty.multiplier**"):].split("\n\n", 3)[1]
    assert "♥" in kitty_block or "♠" in kitty_block or "♦" in kitty_block or "♣" in kitty_block
    keys = list(report)
    assert keys.index("findings") < keys.index("by_op") < keys.index("cases")


def test_the_verdict_says_which_decision_points_it_covers(mutant_run, tmp_path):
    """A run counts the spec's decision points its cases decide: the honest engine passes them all; the
    mutant (three features changed) fails exactly the points whose deciding cases it fails."""
    from conformance.generation.cases import vector_cases
    r, where, report = mutant_run
    points = {p for c in vector_cases(None, ["r003"]) for p in c.get("decides", [])}
    mutant = report["decision_points"]["r003"]
    assert mutant["total"] == len(points) > 300
    failing = {c["id"] for c in report["cases"] if c["status"] == "fail"}
    failed_points = {p for c in vector_cases(None, ["r003"]) if c["id"] in failing for p in c.get("decides", [])}
    assert mutant["fail"] == len(failed_points) > 0 and mutant["pass"] == mutant["total"] - mutant["fail"]
    assert f"decision points of r003: {len(points)}" in r.stdout and f"{mutant['fail']} fail" in r.stdout
    honest = cli("conform", "--engine", REFERENCE, "--ruleset", "r003", "--report", str(tmp_path))
    doc = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert honest.returncode == 0 and doc["decision_points"]["r003"] == {"total": len(points), "pass": len(points),
                                                                       "fail": 0, "skipped": 0}
    assert "decision points of r003" in (tmp_path / "summary.md").read_text(encoding="utf-8")
