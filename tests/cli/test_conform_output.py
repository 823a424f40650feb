"""What `tractor conform` prints for an engine author: protocol events counted on the terminal, and explain
commands that reproduce (issue 22); commands that refuse to guess (issue 18)."""
from __future__ import annotations

import re
import shlex
import sys

from tests import processes
from tests.conformance.conftest import cli, faux


def test_stray_lines_of_an_engine_are_counted_on_the_terminal(tmp_path):
    r = cli("conform", "--engine", faux("unsolicited"), "--ruleset", "r000", "--ops", "classify",
            "--report", str(tmp_path / "rep"), "--no-progress")
    line = next((ln for ln in r.stdout.splitlines() if ln.startswith("protocol: ")), None)
    assert line is not None, r.stdout
    counts = dict((k.strip(), int(n)) for k, n in re.findall(r"([a-z ]+) (\d+)", line.split(";")[0][len("protocol: "):]))
    assert counts.get("unexpected line", 0) > 0
    assert "; first: " in line


def test_the_printed_explain_command_reproduces_the_case(tmp_path):
    """A failure drawn in the summary ends with an explain command naming the run's report folder: run as
    printed, from the same folder, it finds the case (of seed 5, which the default suite does not hold)."""
    rep = tmp_path / "rep"
    r = cli("conform", "--engine", faux("wrong_answers"), "--ruleset", "r001", "--ops", "follow", "--seed", "5",
            "--report", str(rep), "--no-progress", "--show", "1")
    assert r.returncode == 1, r.stderr
    command = next(ln.split("explain:", 1)[1].strip() for ln in r.stdout.splitlines() if "explain:" in ln)
    assert f"--report {shlex.quote(str(rep))}" in command
    argv = shlex.split(command)
    assert argv[0] == "tractor"
    again = processes.run([sys.executable, "-m", "tractor_cli.main", *argv[1:]], cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "follow" in again.stdout
    assert "summary.md" in {p.name for p in rep.iterdir()}
    assert f"--report {shlex.quote(str(rep))}" in (rep / "summary.md").read_text(encoding="utf-8")


def test_vectors_needs_an_action():
    """`tractor vectors` alone silently exported (it rewrote 88 files): an action is now required."""
    r = cli("vectors")
    assert r.returncode == 2 and "required: action" in r.stderr


def test_the_version_is_the_installed_distribution():
    from importlib.metadata import version
    r = cli("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"tractor {version('tractor-rulebook')}"


def test_the_analysis_after_the_run_says_what_it_does(tmp_path):
    """Issue 23: the analysis of the failures is a step of the run with its own progress (plain lines off a
    terminal with --progress), on two workers here, and its findings reach the report."""
    import json
    r = cli("conform", "--engine", faux("wrong_answers"), "--ruleset", "r001", "--ops", "follow",
            "--report", str(tmp_path / "rep"), "--progress", "--jobs", "2")
    assert r.returncode == 1, r.stderr[-2000:]
    # an engine saying every follow is legal consults no rule: its failures are one cluster, shrunk
    assert "analysing r001: clustering " in r.stderr and "shrinking cluster 1 of 1" in r.stderr, r.stderr[-2000:]
    assert "Traceback" not in r.stderr
    report = json.loads((tmp_path / "rep" / "report.json").read_text(encoding="utf-8"))
    assert report["totals"]["fail"] > 0 and (report["findings"] or report["clusters"])
