"""`tractor conform --generated` writes the same reports as the seeded run and honours --expect (issue 10,
point 7)."""
import json
import xml.etree.ElementTree as ET

from .conftest import cli
from .test_findings import MUTANT_ENGINE


def test_generated_writes_the_reports_and_honours_expect(tmp_path):
    expect = tmp_path / "expect.json"
    expect.write_text(json.dumps({"deviations": [{"op": "result", "reason": "our bands differ"}]}))
    rep = tmp_path / "rep"
    # the mutant's lowest band ends at 30 (003:4 says 25) and its trump pair takes the kitty x2 (003:9.3: x3)
    r = cli("conform", "--engine", MUTANT_ENGINE, "--ruleset", "r003", "--generated", "--ops", "result,kitty,classify",
            "--expect", str(expect), "--report", str(rep))
    assert r.returncode == 1, r.stderr               # kitty still fails
    report = json.loads((rep / "report.json").read_text())
    status = {c["op"]: c["status"] for c in report["cases"]}
    assert status == {"result": "xfail", "kitty": "fail", "classify": "pass"}
    assert report["source"] == "generated (quick)" and report["deviations"][0]["matched"] == 1
    kitty = next(c for c in report["cases"] if c["op"] == "kitty")
    assert kitty["input"]["kitty"] and kitty["expected"]["points"] != kitty["answer"]["points"]   # the shrunk case
    suites = {s.get("name"): s for s in ET.parse(rep / "junit.xml").getroot()}
    assert suites["r003.kitty"].get("failures") == "1" and suites["r003.result"].get("skipped") == "1"
    assert "r003.kitty" in (rep / "summary.md").read_text()
