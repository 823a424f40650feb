"""What `tractor conform` does before its first case (issue 30, items 16 and 17): a broken rule file or an engine
that cannot start is bad usage — one line (or one line per problem, positioned), exit status 2, nothing run and
no report written; a healthy engine is started once, and the run asks that same process."""
from __future__ import annotations

from tests.conformance.conftest import REFERENCE, cli, faux


def test_a_rule_file_with_errors_is_bad_usage_at_its_line_and_column(tmp_path):
    bad = tmp_path / "hx.tractor"
    bad.write_text('ruleset hx extends r000 {\n  title "x"\n  override foo.bar choose x because "y"\n}\n',
                   encoding="utf-8")
    r = cli("conform", "--engine", REFERENCE, "--ruleset", str(bad), "--report", str(tmp_path / "rep"))
    assert r.returncode == 2, r.stderr
    assert f"{bad}:3:12: error[E507]" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "rep" / "report.json").exists()


def test_a_rule_file_that_does_not_exist_is_bad_usage(tmp_path):
    missing = tmp_path / "nothere.tractor"
    r = cli("conform", "--engine", REFERENCE, "--ruleset", str(missing), "--report", "")
    assert r.returncode == 2 and str(missing) in r.stderr and "E006" in r.stderr


def test_a_mistyped_engine_is_one_line_and_nothing_runs(tmp_path):
    rep = tmp_path / "rep"
    r = cli("conform", "--engine", "tractr engine", "--ruleset", "r000", "--report", str(rep), "--no-progress")
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "did not start" in r.stderr and "tractr" in r.stderr
    assert r.stdout == ""
    assert not any(rep.glob("*")) if rep.exists() else True   # no report of errored cases


def test_an_engine_that_exits_during_the_handshake_is_bad_usage(tmp_path):
    r = cli("conform", "--engine", faux("exit_handshake"), "--ruleset", "r000", "--report", str(tmp_path / "r"))
    assert r.returncode == 2 and "did not start" in r.stderr and "exit" in r.stderr
    assert not (tmp_path / "r" / "report.json").exists()


def test_among_several_engines_the_one_that_cannot_start_is_named(tmp_path):
    r = cli("conform", "--engine", REFERENCE, "--engine", "nope-engine", "--ruleset", "r000", "--ops", "classify",
            "--report", str(tmp_path / "r"))
    assert r.returncode == 2 and "engine 2 (nope-engine) did not start" in r.stderr


def test_a_healthy_engine_is_started_once_for_the_check_and_the_run(tmp_path):
    """The engine checked before the cases are prepared is the one the run asks: one start, not two."""
    logs = [tmp_path / "a", tmp_path / "b"]
    for engines in ([logs[0]], logs):
        argv = sum((["--engine", faux("counted", log)] for log in engines), [])
        r = cli("conform", *argv, "--ruleset", "r000", "--ops", "classify", "--report", "", "--no-progress")
        assert r.returncode == 0, r.stderr
    assert len(logs[0].read_text().split()) == 2   # one start per run
    assert len(logs[1].read_text().split()) == 1


def test_rule_files_too_large_for_the_handshake_are_refused_before_any_engine_starts(tmp_path):
    """A rule file that checks clean but whose text makes the handshake line longer than the protocol's limit:
    every case used to be handshake_failed; now it is refused up front, with the reason (issue 30, item 13)."""
    from tractor_dsl.limits import LINE_BYTES
    big = tmp_path / "big.tractor"
    big.write_text('ruleset big extends r000 {\n  title "big" "大"\n}\n' + "# " + "x" * (LINE_BYTES + 200_000) + "\n",
                   encoding="utf-8")
    assert cli("check", str(big)).returncode == 0
    log = tmp_path / "starts"
    r = cli("conform", "--engine", faux("counted", log), "--ruleset", str(big), "--report", str(tmp_path / "r"))
    assert r.returncode == 2, r.stderr
    assert "handshake" in r.stderr and f"{LINE_BYTES:,} bytes" in r.stderr and str(big) in r.stderr
    assert not log.exists()   # no engine started


def test_a_rule_file_just_under_the_limit_still_runs(tmp_path):
    from conformance.conform import handshake_size_problem
    from tractor_dsl.limits import LINE_BYTES
    files = [{"name": "h", "extends": "r000", "path": "/h.tractor", "source": "x" * (LINE_BYTES - 1000)}]
    assert handshake_size_problem(files) is None
    files[0]["source"] += "x" * 2000
    assert "line limit" in handshake_size_problem(files)
