"""Verdicts that name the right rule (issue 31): engines with one planted deviation each, inside the rule
language or beyond it, are sent to the rule that differs; alternatives are judged field by field and ranked by
the failures they explain minus the passes they break."""
import json

from conformance.analysis.attribution import contradicts
from conformance.protocol import messages as protocol

from .conftest import cli, faux


def conform(tmp_path, engine: str, ops: str, ruleset: str = "r001", *args: str):
    rep = tmp_path / "rep"
    r = cli("conform", "--engine", faux(engine, *args), "--ruleset", ruleset, "--ops", ops, "--report", str(rep),
            "--show", "0")
    assert r.returncode == 1, r.stderr
    report = json.loads((rep / "report.json").read_text(encoding="utf-8"))
    assert protocol.schema_errors("report", report) == []
    return r, report


def failing(report) -> set[str]:
    return {c["id"] for c in report["cases"] if c["status"] == "fail"}


def test_a_field_left_as_the_spec_has_it_is_no_contradiction():
    # item 3: a flat penalty gives the engine's penalty; the forced play differs for another reason
    spec = {"legal": False, "reason": "throw_blocked", "blocked": ["AS"], "penalty": 20, "forced": ["3S"]}
    engine = {**spec, "penalty": 10, "forced": ["4S"]}
    flat = {**spec, "penalty": 10}
    assert not contradicts("lead", flat, spec, engine)
    assert contradicts("lead", {**spec, "penalty": 30}, spec, engine)        # a value neither gives
    assert not contradicts("lead", {**spec, "penalty": 30}, spec, engine, ("legal", "forced"))   # not compared


def test_passes_a_kitty_row_breaks_do_not_veto_it_and_are_reported_beside_it(tmp_path):
    # item 3: a pair led and won captures the kitty x4; the pair rows of the multiplier tables explain every
    # failure, and change the kitty of a throw whose largest unit is a pair (passing cases): ranked by the
    # failures explained minus the passes broken, they are the finding, with the passes they break beside it
    r, report = conform(tmp_path, "kitty_pair", "kitty")
    [f] = report["findings"]
    assert f["clause"] == "kitty.capture" and report["clusters"] == [] and report["unexplained"] == []
    assert set(f["case_ids"]) == failing(report)
    passing = {c["id"] for c in report["cases"] if c["status"] == "pass"}
    assert 0 < f["broken"] == len(f["broken_ids"]) < f["cases"] and set(f["broken_ids"]) <= passing
    assert all("pair" in e for e in f["engine"])
    assert f"breaks: {f['broken']} passing case(s)" in r.stdout
