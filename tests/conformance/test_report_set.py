"""The files of a report are one set (issue 20): on a full disk a failing run left its new report.json
beside the previous run's junit.xml and summary.md, and a CI step reading the JUnit file saw the old
green run. Now every file is written to a temporary and renamed only when all were written; when one
fails, nothing of either run is left to be mistaken for this one."""
from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from conformance.reporting import report
from conformance.running.runner import Outcome, RunResult

SET = ("report.json", "junit.xml", "summary.md")


def result_with(status: str) -> RunResult:
    case = {"id": "r001:result:abc", "op": "result", "ruleset": "r001", "input": {"attackers_points": 5},
            "expected": {"next_banker": "banker", "levels": 2}, "clauses": ["score.bands"]}
    return RunResult([case], [Outcome(status, "" if status == "pass" else "disagrees", "")], None, ["engine"],
                     "now", 0.1, False, 0, 0, "", rulesets=["r001"])


def failing_on(name: str, monkeypatch):
    from tractor_dsl import files
    real = files.Staged.__init__

    def write(self, path, data, **kw):
        if Path(path).name == name:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, path, data, **kw)

    monkeypatch.setattr(files.Staged, "__init__", write)


@pytest.mark.parametrize("failing", SET)
def test_a_failed_write_leaves_no_file_of_either_run(tmp_path, monkeypatch, failing):
    out = tmp_path / "rep"
    report.write_reports(result_with("pass"), out)                 # the previous, green run
    assert sorted(p.name for p in out.iterdir()) == sorted(SET)
    failing_on(failing, monkeypatch)
    with pytest.raises(OSError, match="No space left"):
        report.write_reports(result_with("fail"), out)
    assert list(out.iterdir()) == []   # no stale junit.xml, no half set, no temporary


def test_a_set_written_whole_replaces_the_old_one(tmp_path):
    out = tmp_path / "rep"
    report.write_reports(result_with("pass"), out)
    paths = report.write_reports(result_with("fail"), out)
    assert [p.name for p in paths] == list(SET)
    assert sorted(p.name for p in out.iterdir()) == sorted(SET)     # no temporary left
    assert json.loads((out / "report.json").read_text())["totals"]["fail"] == 1
    assert 'failures="1"' in (out / "junit.xml").read_text()


def test_a_report_that_cannot_be_rendered_touches_nothing(tmp_path, monkeypatch):
    out = tmp_path / "rep"
    report.write_reports(result_with("pass"), out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def broken(*a, **k):
        raise RuntimeError("cannot render")

    monkeypatch.setattr(report, "markdown", broken)
    with pytest.raises(RuntimeError):
        report.write_reports(result_with("fail"), out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before   # the old set, whole
