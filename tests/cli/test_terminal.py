"""Terminal output: colours only on a terminal, NO_COLOR honoured, cards as glyphs everywhere, the conform
progress display (a bar at once on a terminal, plain lines elsewhere) and report files with the umask's mode."""
from __future__ import annotations

import io
import os
import re
import stat

import pytest
from rich.console import Console

from tractor_cli.main import main
from tractor_cli.progress import ConformProgress

ESC = "\x1b"
COLOUR = re.compile(r"\x1b\[[0-9;]*(3[0-9]|9[0-7]|38;[0-9;]+)m")   # an SGR code that sets a foreground colour
ILLEGAL_FOLLOW = ["explain", "r003", "follow", "--lead", "5H 5H", "--hand", "6H 7H 8S", "--play", "6H 8S"]


@pytest.fixture
def plain_env(monkeypatch):
    for k in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    return monkeypatch


def test_no_escape_code_off_a_terminal(plain_env, capsys):
    assert main(ILLEGAL_FOLLOW) == 0   # 003:7.1: must follow suit -> not legal (a judgment: exit 0)
    out = capsys.readouterr().out
    assert "not legal" in out and ESC not in out


def test_colour_on_a_terminal_and_none_with_no_color(plain_env, capsys):
    plain_env.setenv("FORCE_COLOR", "1")      # what rich treats as a terminal
    assert main(ILLEGAL_FOLLOW) == 0
    coloured = capsys.readouterr().out
    assert COLOUR.search(coloured), "an illegal play is shown in colour on a terminal"
    plain_env.setenv("NO_COLOR", "1")
    assert main(ILLEGAL_FOLLOW) == 0
    plain = capsys.readouterr().out
    assert "not legal" in plain and not COLOUR.search(plain)


def test_diff_prints_glyphs_and_each_clause_once(plain_env, capsys):
    assert main(["diff", "r001", "r003", "--topic", "trump"]) == 0
    out = capsys.readouterr().out
    assert "大王" in out and "J+" not in out and "5H" not in out
    for clauses in re.findall(r"\[([a-z_.]+(?:, [a-z_.]+)+)\]", out):
        names = clauses.split(", ")
        assert len(names) == len(set(names)), clauses


def _tally(n):
    return {"pass": n, "fail": 0, "xpass": 0, "skipped": 0, "xfail": 0, "errored": 0}


def test_progress_on_a_terminal_appears_at_once_then_names_ruleset_and_operation(monkeypatch):
    monkeypatch.setattr("tractor_cli.progress.BAR_EVERY", 0.0)   # every case redraws (the bar throttles)
    buf = io.StringIO()
    progress = ConformProgress(None, console=Console(file=buf, force_terminal=True, width=140))
    assert progress.mode == "bar"
    with progress:
        progress.preparing("preparing r003 (1/1)")
        progress.progress.refresh()
        assert "preparing" in buf.getvalue()     # before any case exists
    cases = [{"ruleset": "r003", "op": "follow"}] * 3 + [{"ruleset": "r003", "op": "winner"}] * 3
    with progress:
        progress.start(cases)
        for i in range(1, 5):
            progress(i, len(cases), _tally(i))
        progress.progress.refresh()
        shown = buf.getvalue()
    assert "r003 winner" in shown and "4/6" in shown and "eta" in shown


def test_progress_off_a_terminal_is_plain_lines_or_nothing():
    buf = io.StringIO()
    progress = ConformProgress(True, console=Console(file=buf, width=140))   # --progress, stderr a pipe
    assert progress.mode == "lines"
    cases = [{"ruleset": "r001", "op": "classify"}] * 2
    with progress:
        progress.preparing("preparing r001 (1/1)")
        progress.start(cases)
        progress(1, 2, _tally(1))
        progress(2, 2, _tally(2))
    text = buf.getvalue()
    assert ESC not in text and "\r" not in text
    assert "preparing r001" in text and "2/2 pass 2 fail 0" in text
    quiet = io.StringIO()
    with ConformProgress(None, console=Console(file=quiet)) as p:   # the default, stderr a pipe: nothing
        p.start(cases)
        p(2, 2, _tally(2))
    assert quiet.getvalue() == ""


@pytest.mark.parametrize("mask", [0o022, 0o027])
def test_report_files_take_the_umask(tmp_path, mask):
    from conformance.running.runner import RunResult
    from conformance.reporting import report
    result = RunResult([], [], None, ["x"], "2026-01-01T00:00:00+00:00", 0.0, False, 0, 0, "", [], [],
                       rulesets=["r001"], ops=["classify"], source="generated", seed=0)
    old = os.umask(mask)
    try:
        written = report.write_reports(result, tmp_path / "rep")
    finally:
        os.umask(old)
    assert written
    for path in written:
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask, path.name
