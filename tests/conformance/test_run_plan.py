"""A conform run as plain data (conformance.plan.RunPlan), run by the library (conformance.conform.conform), and
every value of it checked before the first case (issue 20: nan and negative timeouts, a thousand jobs, report
paths found bad only after the run)."""
from __future__ import annotations

import sys

import pytest

from conformance.conform import conform
from conformance.plan import RunPlan
from conformance.reporting import matrix
from conformance.running.parallel import max_jobs

from .conftest import REFERENCE, cli, faux


def test_the_library_runs_a_plan_as_the_command_does(tmp_path):
    """003:4's table decides every `result` case: the reference engine agrees on all of them."""
    done = conform(RunPlan(engines=[REFERENCE], rulesets=["r003"], ops=["result"], report=str(tmp_path / "rep")),
                   echo=lambda line: None)
    assert done.status == 0 and done.problem is None
    [result] = done.results
    counts = result.counts()
    assert counts["pass"] == len(result.cases) > 0 and counts["fail"] == counts["errored"] == 0
    assert sorted(p.name for p in done.written) == ["junit.xml", "report.json", "summary.md"]


def test_a_failing_engine_is_status_1_with_its_findings(tmp_path):
    done = conform(RunPlan(engines=[faux("wrong_answers")], rulesets=["r001"], ops=["follow"], report=None),
                   echo=lambda line: None)
    assert done.status == 1 and done.results[0].failed


@pytest.mark.parametrize("change, says", [
    ({"timeout": float("nan")}, "--timeout must be a finite number"),
    ({"timeout": float("inf")}, "--timeout must be a finite number"),
    ({"timeout": -1.0}, "--timeout must be between"),
    ({"handshake_timeout": 0.0}, "--handshake-timeout must be between"),
    ({"window": 0}, "--window must be between"),
    ({"max_restarts": -3}, "--max-restarts must be between"),
    ({"jobs": 1000}, "--jobs must be between"),
    ({"jobs": 0}, "--jobs must be between"),
    ({"count": -5}, "--count must be between"),
    ({"engines": ["  "]}, "--engine: an empty command"),
])
def test_every_value_is_checked_before_the_run(change, says):
    plan = RunPlan(engines=[REFERENCE], rulesets=["r003"], report=None)
    for k, v in change.items():
        setattr(plan, k, v)
    problems = plan.problems()
    assert any(says in p for p in problems), problems
    done = conform(plan, echo=lambda line: None)
    assert done.status == 2 and done.results == [] and says in done.problem


def test_nan_timeout_against_a_hanging_engine_is_refused_at_once(tmp_path):
    """It hung forever: a NaN deadline is never reached. Now it is one line and exit 2, no case sent."""
    r = cli("conform", "--engine", faux("hang", 30), "--ruleset", "r003", "--timeout", "nan",
            "--report", str(tmp_path / "rep"))
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip().count("\n") == 0 and "--timeout must be a finite number of seconds" in r.stderr
    assert not (tmp_path / "rep" / "report.json").exists()


@pytest.mark.parametrize("jobs", ["0", "-1", str(max_jobs() + 1), "1000"])
def test_jobs_outside_what_helps_is_a_usage_error_with_the_range(jobs):
    r = cli("conform", "--engine", REFERENCE, "--jobs", jobs)
    assert r.returncode == 2 and f"must be from 1 to {max_jobs()}" in r.stderr


def test_help_gives_the_ranges():
    text = cli("conform", "--help").stdout
    for fragment in ("0.01 to 86400", f"1 to {max_jobs()}", "1 to 10000"):
        assert fragment in " ".join(text.split()), fragment


@pytest.mark.parametrize("option", ["--html", "--badges", "--write-expect"])
def test_a_path_the_run_cannot_write_is_refused_before_the_first_case(tmp_path, option):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    bad = {"--html": blocker / "report.html", "--badges": blocker, "--write-expect": blocker / "x.toml"}[option]
    r = cli("conform", "--engine", REFERENCE, "--ruleset", "r003", "--ops", "result", option, str(bad),
            "--report", str(tmp_path / "rep"))
    assert r.returncode == 2 and option in r.stderr, r.stderr
    assert not (tmp_path / "rep" / "report.json").exists()   # found before the run, not after it


def test_expect_must_be_a_regular_file():
    if not sys.platform.startswith("linux"):
        pytest.skip("needs /dev/zero, a device file")
    plan = RunPlan(engines=[REFERENCE], rulesets=["r003"], expect="/dev/zero", report=None)
    assert any("not a regular file" in p for p in plan.problems())


def test_an_engine_named_like_a_file_of_the_run_gets_a_folder_of_its_own():
    folders = matrix.slugs(["matrix.json", "matrix.md", "tractor-reference 0.1.0", "matrix.json"])
    assert not set(folders) & matrix.RUN_FILES
    assert len(set(folders)) == 4


def test_the_analysis_runs_on_the_plans_workers_with_progress_and_counts_in_the_runs_time(monkeypatch):
    """Issue 23: attribution, clustering and shrinking get the run's --jobs and its progress display, and the
    duration the summary prints is the whole run's. (The analysis is replaced by one that moves a clock on
    by an hour: no wall-clock limit.)"""
    import time

    from conformance.analysis import attribution
    real = time.monotonic
    later = [0.0]
    seen = {}

    def analysis(result, shrink=True, *, jobs=1, scheduler=None, progress=None, stop=None):
        seen.update(jobs=jobs, scheduler=scheduler, stopped=stop())   # no signal came: nothing to stop
        progress("analysing r001: finding 1")
        later[0] = 3600.0

    class Bar:
        mode = None
        said: list = []

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def preparing(self, what):
            self.said.append(what)

        def start(self, cases):
            pass

        def __call__(self, done, total, tally):
            pass

    monkeypatch.setattr(time, "monotonic", lambda: real() + later[0])
    monkeypatch.setattr(attribution, "attribute", analysis)
    done = conform(RunPlan(engines=[faux("wrong_answers")], rulesets=["r001"], ops=["follow"], report=None, jobs=2),
                   progress=Bar(), echo=lambda line: None)
    assert done.results[0].failed and seen == {"jobs": 2, "scheduler": None, "stopped": False}
    assert "analysing r001: finding 1" in Bar.said
    assert done.results[0].duration >= 3600
