"""What ``tractor conform`` writes, and where (issue 30, items 2 to 5): no output written through a link or over
something that is not a regular file; badge names different by construction; a reused report folder never left
holding two runs; two outputs named onto one file refused before any case runs."""
from __future__ import annotations

import json
import os
import shlex
import stat

import pytest

from tests.not_regular import not_regular_files

from .conftest import REFERENCE, cli, faux

SMALL = ("--ops", "classify", "--count", "2", "--no-progress")


def _marker_engine(tmp_path) -> tuple[str, object]:
    """The reference engine behind a shell that first leaves a file: whether any engine was started."""
    marker = tmp_path / "engine-started"
    return f"sh -c {shlex.quote(f'touch {shlex.quote(str(marker))}; exec {REFERENCE}')}", marker


# --- item 5: two outputs onto one file ---------------------------------------------------------------------------

@pytest.mark.parametrize("options, both", [
    (["--report", "{d}/rep", "--html", "{d}/rep/report.json"], ("--report", "--html")),
    (["--report", "", "--html", "{d}/x", "--write-expect", "{d}/x"], ("--html", "--write-expect")),
    (["--report", "{d}/rep", "--write-expect", "{d}/rep/junit.xml"], ("--report", "--write-expect")),
    (["--report", "{d}/rep", "--badges", "{d}/rep/summary.md"], ("--report", "--badges")),
    (["--report", "{d}/rep", "--html", "{d}/rep/./../rep/summary.md"], ("--report", "--html")),
    (["--report", "", "--badges", "{d}/b", "--html", "{d}/b/mine.svg"], ("--html", "--badges")),
    (["--report", "", "--badges", "{d}/b", "--html", "{d}/b"], ("--html", "--badges")),
], ids=["html-report.json", "html-write-expect", "write-expect-junit", "badges-summary", "dotted", "html-badge",
        "html-badges-folder"])
def test_two_outputs_onto_one_file_are_refused_before_any_case_runs(tmp_path, options, both):
    engine, marker = _marker_engine(tmp_path)
    argv = [o.format(d=tmp_path) for o in options]
    proc = cli("conform", "--engine", engine, "--ruleset", "r000", *SMALL, *argv)
    assert proc.returncode == 2, proc.stderr
    assert all(option in proc.stderr for option in both), proc.stderr
    assert "Traceback" not in proc.stderr and not marker.exists()
    assert not (tmp_path / "rep").exists() and not (tmp_path / "b").exists()   # not even a folder made


def test_with_several_engines_a_file_in_an_engines_report_place_is_refused(tmp_path):
    """With two engines the report folder holds a folder of reports per engine, named after the handshakes:
    a file named like one of those reports, one folder down, may be one of them."""
    engine, marker = _marker_engine(tmp_path)
    proc = cli("conform", "--engine", engine, "--engine", engine, "--ruleset", "r000", *SMALL,
               "--report", str(tmp_path / "rep"), "--html", str(tmp_path / "rep" / "engine" / "summary.md"))
    assert proc.returncode == 2 and "--html" in proc.stderr and "--report" in proc.stderr, proc.stderr
    assert not marker.exists()


def test_outputs_apart_in_one_folder_are_taken(tmp_path):
    proc = cli("conform", "--engine", REFERENCE, "--ruleset", "r000", *SMALL, "--report", str(tmp_path),
               "--html", str(tmp_path / "run.html"), "--write-expect", str(tmp_path / "expect.toml"),
               "--badges", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert {"report.json", "run.html", "expect.toml", "tractor-reference-0.1.0.svg"} <= {
        p.name for p in tmp_path.iterdir()}


# --- item 2: no link written through, nothing but a regular file replaced ---------------------------------------

@pytest.mark.parametrize("option", ["--html", "--write-expect"])
def test_a_target_that_is_not_a_regular_file_is_refused_before_the_run(tmp_path, option):
    outside, specials = not_regular_files(tmp_path, ".html")
    engine, marker = _marker_engine(tmp_path)
    for target, what in specials:
        proc = cli("conform", "--engine", engine, "--ruleset", "r000", *SMALL, "--report", "", option, str(target))
        assert proc.returncode == 2 and what in proc.stderr and str(target) in proc.stderr, proc.stderr
        assert option in proc.stderr and not marker.exists()
    assert outside.read_text() == "not yours\n" and stat.S_ISFIFO(os.lstat(tmp_path / "pipe.html").st_mode)
    assert os.path.islink(tmp_path / "stdout.html") and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_link_in_the_report_folder_is_refused_before_the_run(tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_text("{}\n")
    (tmp_path / "rep").mkdir()
    (tmp_path / "rep" / "report.json").symlink_to(outside)
    engine, marker = _marker_engine(tmp_path)
    proc = cli("conform", "--engine", engine, "--ruleset", "r000", *SMALL, "--report", str(tmp_path / "rep"))
    assert proc.returncode == 2 and "--report" in proc.stderr and "symbolic link" in proc.stderr
    assert not marker.exists() and outside.read_text() == "{}\n"


def test_a_link_planted_in_the_badges_folder_is_not_written_through(tmp_path):
    outside = tmp_path / "outside.svg"
    outside.write_text("<svg/>\n")
    badges = tmp_path / "b"
    badges.mkdir()
    planted = badges / "tractor-reference-0.1.0.svg"
    planted.symlink_to(outside)
    proc = cli("conform", "--engine", REFERENCE, "--ruleset", "r000", *SMALL, "--report", "", "--badges", str(badges))
    assert proc.returncode == 2, proc.stderr
    assert str(planted) in proc.stderr and "symbolic link" in proc.stderr and "Traceback" not in proc.stderr
    assert outside.read_text() == "<svg/>\n" and planted.is_symlink()
    assert [p.name for p in badges.iterdir()] == [planted.name]   # no badge of the set written beside it


# --- item 3: badge names different by construction ----------------------------------------------------------------

def test_two_engines_whose_names_make_one_badge_name_get_a_badge_each(tmp_path):
    """Engine "x 1" has an r000 badge; engine "x 1-r000" has a total badge: one file name in the old scheme."""
    badges = tmp_path / "b"
    proc = cli("conform", "--engine", faux("named", "x", "1"), "--engine", faux("named", "x", "1-r000"),
               "--ruleset", "r000", *SMALL, "--report", "", "--badges", str(badges))
    assert proc.returncode == 0, proc.stderr
    said = int(proc.stdout.split(" badge(s) in ")[0].rsplit(" ", 1)[-1])
    files = sorted(p.name for p in badges.iterdir())
    assert said == len(files) == 4, (said, files)
    labels = {(badges / f).read_text().split("<title>")[1].split("</title>")[0] for f in files}
    assert labels == {"r000 · x 1: 100 %", "tractor · x 1: 100 %", "r000 · x 1-r000: 100 %",
                      "tractor · x 1-r000: 100 %"}


# --- item 4: a reused report folder ---------------------------------------------------------------------------------

def test_a_reused_report_folder_holds_only_the_last_run(tmp_path):
    rep = tmp_path / "rep"
    rep.mkdir()
    (rep / "notes.txt").write_text("mine\n")          # the user's: never the run's to remove
    one = ["--engine", REFERENCE, "--ruleset", "r000"]
    two = ["--engine", REFERENCE, "--engine", faux("named", "y", "2"), "--ruleset", "r001"]
    assert cli("conform", *one, *SMALL, "--report", str(rep)).returncode == 0
    assert {"report.json", "junit.xml", "summary.md"} <= {p.name for p in rep.iterdir()}
    assert cli("conform", *two, *SMALL, "--report", str(rep)).returncode == 0
    top = {p.name for p in rep.iterdir() if not p.name.startswith(".")}
    assert top == {"matrix.json", "matrix.md", "notes.txt", "tractor-reference-0.1.0", "y-2"}, top
    (rep / "y-2" / "mine.txt").write_text("mine too\n")
    assert list(json.loads((rep / "matrix.json").read_text())["rulesets"]) == ["r001"]
    assert cli("conform", *one, *SMALL, "--report", str(rep)).returncode == 0   # and back
    top = {p.name for p in rep.iterdir() if not p.name.startswith(".")}
    assert top == {"report.json", "junit.xml", "summary.md", "notes.txt", "y-2"}, top
    assert [p.name for p in (rep / "y-2").iterdir()] == ["mine.txt"]       # the engine's reports gone, not the user's
    assert json.loads((rep / "report.json").read_text())["rulesets"] == ["r000"]


def test_files_of_a_report_name_the_user_wrote_are_never_removed(tmp_path):
    """Only a file whose head says a run wrote it is the run's: the user's own summary.md stays."""
    rep = tmp_path / "rep"
    rep.mkdir()
    (rep / "summary.md").write_text("# my notes\n")
    (rep / "matrix.json").write_text("[]\n")
    two = ["--engine", REFERENCE, "--engine", faux("named", "y", "2"), "--ruleset", "r000"]
    assert cli("conform", *two, *SMALL, "--report", str(rep)).returncode == 0
    assert (rep / "summary.md").read_text() == "# my notes\n"
    assert '"engines": ' in (rep / "matrix.json").read_text()   # its own name: written over, as it always was
