"""Expectations that fit how authors work (issue 10, point 6): a case entry is strict, broad entries
(op, ruleset, clause, finding) leave passes as passes unless strict, and --write-expect writes the file."""
import json
from types import SimpleNamespace

from conformance.running.expectations import (Deviation, apply_expectations, apply_finding_expectations,
                                      load_expectations, written_expectations)
from conformance.running.runner import Outcome

from .conftest import cli
from .test_findings import CHANGED, MUTANT_ENGINE, mutant_run  # noqa: F401 (the fixture)

CASES = [{"id": f"r003:{op}:{i}", "op": op, "ruleset": "r003", "clauses": [clause]}
         for i, (op, clause) in enumerate([("kitty", "kitty.capture"), ("kitty", "kitty.capture"),
                                           ("follow", "follow.suit"), ("follow", "follow.suit")])]


def outcomes():
    return [Outcome("fail"), Outcome("pass"), Outcome("fail"), Outcome("pass")]


def statuses(selector: dict, **kw) -> list[str]:
    out = outcomes()
    apply_expectations(CASES, out, [Deviation(reason="known", **selector)], **kw)
    return [o.status for o in out]


def test_a_case_entry_is_strict():
    assert statuses({"case": "r003:kitty:*"}) == ["xfail", "xpass", "fail", "pass"]
    assert statuses({"case": "r003:kitty:1", "strict": False}) == ["fail", "pass", "fail", "pass"]


def test_broad_entries_leave_passes_as_passes_unless_strict():
    assert statuses({"op": "kitty"}) == ["xfail", "pass", "fail", "pass"]
    assert statuses({"ruleset": "r003"}) == ["xfail", "pass", "xfail", "pass"]
    assert statuses({"clause": "follow.suit"}) == ["fail", "pass", "xfail", "pass"]
    assert statuses({"op": "kitty", "strict": True}) == ["xfail", "xpass", "fail", "pass"]


def test_finding_entries_apply_once_the_findings_are_known():
    devs = [Deviation(reason="x2 per card", ruleset="r003", finding="kitty.multiplier"),
            Deviation(reason="gone", finding="score.bands")]
    out = outcomes()
    apply_expectations(CASES, out, devs)                     # as the run ends: not yet
    assert [o.status for o in out] == ["fail", "pass", "fail", "pass"]
    result = SimpleNamespace(cases=CASES, outcomes=out, deviations=devs, events=[],
                             findings=[SimpleNamespace(feature="kitty.multiplier", cases=["r003:kitty:0"])])
    apply_finding_expectations(result)
    assert [o.status for o in out] == ["xfail", "pass", "fail", "pass"]
    assert [e["message"] for e in result.events] == ["no case matched the expected deviation (finding=score.bands)"]


def test_write_expect_groups_by_finding_and_makes_the_run_pass(mutant_run, tmp_path):
    _, where, report = mutant_run
    for name in ("e.json", "e.toml"):
        path = tmp_path / name
        r = cli("conform", "--engine", MUTANT_ENGINE, "--ruleset", "r003", "--report", "", "--write-expect", str(path))
        assert r.returncode == 1
        devs = load_expectations(path)                        # valid against the schema, JSON and TOML alike
        assert {(d.ruleset, d.finding) for d in devs} == {("r003", f) for f in CHANGED}
        assert all(d.case is None and d.reason.startswith(d.finding) for d in devs)
    r = cli("conform", "--engine", MUTANT_ENGINE, "--ruleset", "r003", "--expect", str(tmp_path / "e.json"),
            "--report", str(tmp_path / "rep"))
    assert r.returncode == 0, r.stdout[-2000:]
    totals = json.loads((tmp_path / "rep" / "report.json").read_text())["totals"]
    assert totals["xfail"] == report["totals"]["fail"] and totals["fail"] == totals["xpass"] == 0


def test_unexplained_failures_are_written_by_case():
    case = {"id": "r003:lead:1", "op": "lead", "ruleset": "r003"}
    result = SimpleNamespace(handshake={"name": "e"}, cases=[case], outcomes=[Outcome("fail", "disagrees", "m")],
                             findings=[], unexplained=["r003:lead:1"])
    data = written_expectations(result)
    assert data["deviations"] == [{"case": "r003:lead:1", "reason": "unexplained: no single feature gives the "
                                                                     "engine's answer (m)"}]


def test_finding_entries_apply_to_each_engine_of_a_matrix_run(tmp_path):
    """With several engines, an entry selecting by finding still turns that finding's failures into xfail
    (the analysis ran per engine, but the finding entries were left unapplied)."""
    from .conftest import REFERENCE
    known = tmp_path / "known.toml"
    known.write_text('[[deviations]]\nfinding = "kitty.multiplier"\nreason = "our kitty pays x2 per card"\n',
                     encoding="utf-8")
    r = cli("conform", "--engine", REFERENCE, "--engine", MUTANT_ENGINE, "--ruleset", "r003", "--ops", "kitty",
            "--expect", str(known), "--report", str(tmp_path / "rep"))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr
    reports = [json.loads(p.read_text()) for p in sorted((tmp_path / "rep").glob("*/report.json"))]
    assert len(reports) == 2
    assert sorted(rep["totals"]["xfail"] > 0 for rep in reports) == [False, True]   # the mutant's kitty row
    assert all(rep["totals"]["fail"] == 0 for rep in reports)
    two = cli("conform", "--engine", REFERENCE, "--engine", MUTANT_ENGINE, "--ruleset", "r003",
              "--write-expect", str(tmp_path / "w.toml"))
    assert two.returncode == 2 and "give one --engine" in two.stderr and not (tmp_path / "w.toml").exists()
