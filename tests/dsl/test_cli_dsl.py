"""The rule-language commands: ``tractor check``, ``tractor fmt``, ``tractor show``.

Commands that read the bundled spec/ run here on a private copy of
spec/003.tractor (``default_spec_dir`` is pointed at a temporary folder), so
that these tests do not depend on rule files being edited elsewhere.
"""
from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from .dsl_support import clause, minimal
from tractor_cli.main import main
from tractor_dsl import checker
from tests import processes

ROOT = Path(__file__).resolve().parents[2]
SPEC_003 = ROOT / "spec" / "003.tractor"

UNFORMATTED = '''# the header stays
ruleset rx {   # trailing
  clause a { zh "中" says "S"
    # before status
    status stated cites 003:1 }
  title "T"
}
'''


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def private_spec(tmp_path, monkeypatch):
    """spec/ as the commands see it: a copy of 003.tractor only."""
    spec = tmp_path / "spec"
    spec.mkdir()
    shutil.copy(SPEC_003, spec / "003.tractor")
    monkeypatch.setattr(checker, "default_spec_dir", lambda: spec)
    return spec


# --- tractor check ---------------------------------------------------------------------

def test_check_broken_file_exits_1_with_positions(tmp_path):
    bad = tmp_path / "bad.tractor"
    bad.write_text(minimal(clause("c", "", status="stater")), encoding="utf-8")
    proc = processes.run([sys.executable, "-m", "tractor_cli.main", "check", str(bad)], cwd=ROOT,
                          capture_output=True, text=True, timeout=processes.PATIENCE)
    assert proc.returncode == 1
    assert f"{bad}:" in proc.stderr
    assert "error[E102]: unknown status 'stater'; did you mean 'stated'?" in proc.stderr
    line = next(x for x in proc.stderr.splitlines() if "E102" in x)
    file_, lineno, col, rest = line.split(":", 3)
    assert (file_, rest.strip().split(" ")[0]) == (str(bad), "error[E102]:")
    assert int(lineno) > 1 and int(col) == 12
    assert "^^^^^^" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_check_syntax_error(tmp_path, capsys):
    bad = tmp_path / "syntax.tractor"
    bad.write_text("ruleset r {\n  title 5\n}\n", encoding="utf-8")
    code, out, err = run(["check", str(bad)], capsys)
    assert code == 1
    assert f"{bad}:2:9: error[E003]: unexpected '5'; expected a quoted string" in err
    assert "0 ruleset(s) checked, 1 error(s)" in out


def test_check_private_spec_is_clean(private_spec, capsys):
    code, out, err = run(["check"], capsys)
    assert code == 0, err
    assert "r003: document 003:" in out


# --- tractor fmt -----------------------------------------------------------------------

def test_fmt_check_lists_files_that_would_change_and_writes_nothing(tmp_path, capsys):
    ugly = tmp_path / "ugly.tractor"
    ugly.write_text(UNFORMATTED, encoding="utf-8")
    code, out, err = run(["fmt", "--check", str(ugly)], capsys)
    assert code == 1
    assert f"would reformat {ugly}" in out
    assert ugly.read_text(encoding="utf-8") == UNFORMATTED


def test_fmt_check_diff(tmp_path, capsys):
    ugly = tmp_path / "ugly.tractor"
    ugly.write_text(UNFORMATTED, encoding="utf-8")
    code, out, _ = run(["fmt", "--check", "--diff", str(ugly)], capsys)
    assert code == 1
    assert "+  title \"T\"" in out and "-  title \"T\"" in out


def test_fmt_rewrites_in_place_keeping_comments(tmp_path, capsys):
    ugly = tmp_path / "ugly.tractor"
    ugly.write_text(UNFORMATTED, encoding="utf-8")
    code, out, _ = run(["fmt", str(ugly)], capsys)
    assert code == 0
    assert f"reformatted {ugly}" in out
    assert ugly.read_text(encoding="utf-8") == (
        '# the header stays\n'
        '\n'
        'ruleset rx {  # trailing\n'
        '  title "T"\n'
        '\n'
        '  clause a {\n'
        '    cites 003:1\n'
        '    # before status\n'
        '    status stated\n'
        '    says "S"\n'
        '    zh "中"\n'
        '  }\n'
        '}\n')
    mtime = ugly.stat().st_mtime_ns
    code, out, _ = run(["fmt", str(ugly)], capsys)
    assert code == 0
    assert "0 file(s) reformatted, 1 already formatted" in out
    assert ugly.stat().st_mtime_ns == mtime  # unchanged files are not rewritten
    code, out, _ = run(["fmt", "--check", str(ugly)], capsys)
    assert code == 0


def test_fmt_never_overwrites_a_file_that_does_not_parse(tmp_path, capsys):
    broken = tmp_path / "broken.tractor"
    text = "ruleset r {\n  clause a {\n    status\n"
    broken.write_text(text, encoding="utf-8")
    good = tmp_path / "good.tractor"
    good.write_text(UNFORMATTED, encoding="utf-8")
    code, out, err = run(["fmt", str(tmp_path)], capsys)
    assert code == 1
    assert f"{broken}:3:11: error[E002]: unexpected end of file" in err
    assert "does not parse" in err
    assert broken.read_text(encoding="utf-8") == text
    assert good.read_text(encoding="utf-8") != UNFORMATTED  # the good one is still formatted
    assert "1 file(s) reformatted, 0 already formatted, 1 not formatted" in out


def test_fmt_reports_unreadable_files(tmp_path, capsys):
    latin = tmp_path / "latin.tractor"
    latin.write_bytes(b"ruleset r { title \"\xe9\" }\n")
    code, _, err = run(["fmt", "--check", str(latin), str(tmp_path / "missing.tractor")], capsys)
    assert code == 1
    assert "error[E005]: file is not valid UTF-8" in err
    assert "error[E006]: cannot read file" in err


def test_fmt_default_is_the_spec_folder(private_spec, capsys):
    code, out, err = run(["fmt", "--check"], capsys)
    assert code == 0, out + err
    assert "0 file(s) would be reformatted, 1 already formatted" in out
    (private_spec / "003.tractor").write_text(UNFORMATTED, encoding="utf-8")
    code, out, _ = run(["fmt", "--check"], capsys)
    assert code == 1
    assert "003.tractor" in out


# --- tractor show ----------------------------------------------------------------------

def test_show_prints_clause_ids_and_statuses(private_spec, capsys):
    code, out, err = run(["show", "r003"], capsys)
    assert code == 0, err
    assert out.startswith("r003: Knock-out tournament")
    assert "tournament.format  [stated]  (003:1)" in out
    assert "[interpreted]" in out
    assert "conduct.discipline  [conduct: not machine-checkable]" in out
    assert "* reading thirty_open" in out   # 003:4 no cap stated (003:g1)


def test_show_unknown_ruleset_suggests_without_traceback(private_spec, capsys):
    code, out, err = run(["show", "r03"], capsys)
    assert code == 2
    assert "error[E501]: unknown ruleset 'r03'; did you mean 'r003'?" in err
    assert "Traceback" not in err + out


def test_show_unknown_ruleset_as_a_process(private_spec):
    # the real command line on the real spec/: whatever it holds, no traceback
    proc = processes.run([sys.executable, "-m", "tractor_cli.main", "show", "no_such_ruleset"], cwd=ROOT,
                          capture_output=True, text=True, timeout=processes.PATIENCE)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "error[E" in proc.stderr
