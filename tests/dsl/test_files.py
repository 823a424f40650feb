"""The one writer of files (tractor_dsl/files.py, issue 30 items 1 and 2): a file is written whole or not at all,
through a temporary beside it; a target that is not a regular file (a link, a pipe, a device, a folder) is refused,
never written through nor replaced; and no module of the tool writes a file any other way."""
from __future__ import annotations

import ast
import os
import resource
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.not_regular import not_regular_files
from tractor_dsl import files
from tractor_dsl.files import WriteError, write_file

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("tractor_dsl", "reference_impl", "conformance", "tractor_play", "tractor_cli")
BIG = "# " + "x" * 8000 + "\n"
UNFORMATTED = BIG + 'ruleset rx {   # trailing\n  clause a { zh "中" says "S"\n    status stated cites 003:1 }\n' \
                    '  title "T"\n}\n'


def _limited(limit: int):
    """A preexec function that caps the size of any file the child writes (``ulimit -f``)."""
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def _tractor(*argv, limit: int | None = None, cwd=None):
    return subprocess.run([sys.executable, "-m", "tractor_cli.main", *argv], capture_output=True, text=True,
                          preexec_fn=_limited(limit) if limit else None, cwd=cwd)


def test_a_file_is_replaced_whole_and_keeps_its_mode(tmp_path):
    target = tmp_path / "a.txt"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_file(target, "new 中")
    assert target.read_text(encoding="utf-8") == "new 中"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640          # as install -p / sed -i keep it
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]     # no temporary left


def test_a_new_file_takes_the_umask_and_a_private_one_is_0600(tmp_path):
    old = os.umask(0o027)
    try:
        write_file(tmp_path / "n.txt", b"x")
        write_file(tmp_path / "p.bin", b"x", private=True)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "n.txt").stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "p.bin").stat().st_mode) == 0o600


def test_a_lone_surrogate_is_written_as_the_replacement_character(tmp_path):
    write_file(tmp_path / "s.txt", "a\ud800b")
    assert (tmp_path / "s.txt").read_text(encoding="utf-8") == "a\ufffdb"


def test_a_write_over_the_size_limit_leaves_the_target_as_it_was(tmp_path):
    """``ulimit -f``: Python ignores SIGXFSZ, so the write fails with EFBIG; the target is untouched and the
    temporary removed."""
    target = tmp_path / "t.txt"
    target.write_text("the user's file\n")
    code = ("import sys; from tractor_dsl.files import write_file, WriteError\n"
            "try:\n    write_file(sys.argv[1], 'y' * 100000)\n"
            "except WriteError as e:\n    print(e); sys.exit(3)\n")
    done = subprocess.run([sys.executable, "-c", code, str(target)], capture_output=True, text=True,
                          preexec_fn=_limited(4096))
    assert done.returncode == 3, done.stderr
    assert "ulimit -f" in done.stdout and str(target) in done.stdout
    assert target.read_text() == "the user's file\n"
    assert [p.name for p in tmp_path.iterdir()] == ["t.txt"]


def test_fmt_over_the_size_limit_leaves_the_rule_file_whole(tmp_path):
    ugly = tmp_path / "ugly.tractor"
    ugly.write_text(UNFORMATTED, encoding="utf-8")
    done = _tractor("fmt", str(ugly), limit=4096)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and f"{ugly}: cannot write" in done.stderr
    assert ugly.read_text(encoding="utf-8") == UNFORMATTED          # not truncated
    assert [p.name for p in tmp_path.iterdir()] == ["ugly.tractor"]
    assert _tractor("fmt", str(ugly)).returncode == 0                # and it formats when it can be written


def test_export_over_the_size_limit_leaves_the_old_export(tmp_path):
    out = tmp_path / "r003.json"
    out.write_text("{}\n")
    done = _tractor("export", "r003", "-o", str(out), limit=4096)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"cannot write {out}" in done.stderr
    assert out.read_text() == "{}\n" and [p.name for p in tmp_path.iterdir()] == ["r003.json"]


def test_a_target_that_is_not_a_regular_file_is_refused_and_left_as_it_is(tmp_path):
    for target, what in not_regular_files(tmp_path)[1]:
        before = os.lstat(target)
        with pytest.raises(WriteError) as e:
            write_file(target, "x")
        assert what in str(e.value) and str(target) in str(e.value)
        after = os.lstat(target)
        assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)   # not replaced
    assert (tmp_path / "outside.txt").read_text() == "not yours\n"                 # nor written through
    assert not list(tmp_path.glob(".*.tmp"))


def test_export_refuses_a_target_that_is_not_a_regular_file(tmp_path):
    for target, what in not_regular_files(tmp_path)[1]:
        done = _tractor("export", "r003", "-o", str(target))
        assert done.returncode == 2, (target, done.returncode, done.stderr)
        assert what in done.stderr and str(target) in done.stderr and "Traceback" not in done.stderr
    assert (tmp_path / "outside.txt").read_text() == "not yours\n"
    assert stat.S_ISFIFO(os.lstat(tmp_path / "pipe").st_mode)


def test_fmt_does_not_replace_a_link_to_a_rule_file(tmp_path):
    real = tmp_path / "real.tractor"
    real.write_text(UNFORMATTED, encoding="utf-8")
    link = tmp_path / "link.tractor"
    link.symlink_to(real)
    done = _tractor("fmt", str(link))
    assert done.returncode == 2 and "symbolic link" in done.stderr and str(link) in done.stderr
    assert link.is_symlink() and real.read_text(encoding="utf-8") == UNFORMATTED


def test_a_set_that_fails_part_way_leaves_no_temporary_and_no_target_touched(tmp_path, monkeypatch):
    (tmp_path / "a").write_text("old a")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(WriteError):
        files.write_files({tmp_path / "a": "new a", tmp_path / "b": "new b"})
    assert (tmp_path / "a").read_text() == "old a"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


def test_a_set_is_written_whole_then_flushed_then_renamed(tmp_path, monkeypatch):
    """write_files flushes the set in one pass after writing it (benchmarks/bench_write_files.py): every
    temporary is flushed before the first rename, and a flush that fails (a full disk, an I/O error) leaves no
    temporary and no target touched."""
    (tmp_path / "a").write_text("old a")
    events = []
    real_write, real_fsync, real_replace = os.write, os.fsync, os.replace
    monkeypatch.setattr(files.os, "write", lambda fd, b: (events.append("write"), real_write(fd, b))[1])
    monkeypatch.setattr(files.os, "fsync", lambda fd: (events.append("flush"), real_fsync(fd))[1])
    monkeypatch.setattr(files.os, "replace", lambda a, b: (events.append("rename"), real_replace(a, b))[1])
    files.write_files({tmp_path / "a": "new a", tmp_path / "b": "new b", tmp_path / "c": "new c"})
    assert events == ["write"] * 3 + ["flush"] * 3 + ["rename"] * 3
    assert [(tmp_path / n).read_text() for n in "abc"] == ["new a", "new b", "new c"]

    flushed = []

    def failing(fd):
        flushed.append(fd)
        if len(flushed) == 2:
            raise OSError(5, "Input/output error")
    monkeypatch.setattr(files.os, "fsync", failing)
    with pytest.raises(WriteError, match="Input/output error"):
        files.write_files({tmp_path / "a": "newer a", tmp_path / "b": "newer b", tmp_path / "d": "new d"})
    assert [(tmp_path / n).read_text() for n in "abc"] == ["new a", "new b", "new c"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b", "c"]   # no temporary, no d


# --- no module writes a file any other way ----------------------------------------------------------------------

# Calls that write a file, by the name called; and ``open`` with a mode that writes.
WRITING_CALLS = {"write_text", "write_bytes", "savefig", "dump", "mkstemp", "mkdtemp", "NamedTemporaryFile", "rename",
                 "copyfile", "copy2", "copytree", "to_csv", "symlink_to", "link_to", "hardlink_to"}
ON_OS = {"replace", "rename", "link", "symlink", "truncate"}   # os.NAME(...); an os.write needs an fd opened to write
WRITING_MODES = set("wax+")
# (module, called name): writes that are not files of the user's, each with its reason
ALLOWED = {
    ("tractor_dsl/files.py", "os.replace"): "the writer itself: the rename onto the target",
    ("tractor_dsl/files.py", "os.open"): "the writer itself: its temporary, O_EXCL",
    ("tractor_cli/cmd_diff.py", "dump"): "json.dump to sys.stdout, not a file",
    ("tractor_play/impact/report.py", "savefig"): "drawn into memory (io.BytesIO), then written by write_file",
    ("conformance/plan.py", "mkstemp"): "a probe that a folder takes a new file, removed at once (no user's file)",
    # the benchmarks' scratch, never a file they hand to the user (their --json, --out, --save, request files and
    # inputs go through write_file)
    ("benchmarks/bench_hostile.py", "NamedTemporaryFile"): "the measured process's output, read back and removed",
    ("benchmarks/bench_hostile.py", "mkdtemp"): "the scratch folder of the hostile inputs (write_file writes them)",
    ("benchmarks/bench_write_files.py", "mkdtemp"): "the scratch folder the writer is timed in, removed at the end",
    ("benchmarks/bench_write_files.py", "os.open"): "the unflushed reference way the writer is measured against",
    ("benchmarks/bench_write_files.py", "os.replace"): "the unflushed reference way the writer is measured against",
    ("benchmarks/fuzz_specs.py", "mkstemp"): "one fuzzed input as raw bytes for parse_file, removed at once",
    ("benchmarks/fuzz_specs.py", "open(..., 'wb')"): "os.fdopen of that mkstemp descriptor",
}


def _mode(node: ast.Call, index: int):
    mode = node.args[index] if len(node.args) > index else next(
        (k.value for k in node.keywords if k.arg == "mode"), None)
    return mode.value if isinstance(mode, ast.Constant) and isinstance(mode.value, str) else None


def _writes(path: Path) -> list[tuple[str, int]]:
    """Every call of ``path`` that writes a file: a writing call by name, ``open``/``Path.open``/``os.fdopen``
    with a writing mode, ``os.open`` with a writing flag."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
        on_os = isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "os"
        if name == "open" and on_os:
            flags = ast.unparse(node.args[1]) if len(node.args) > 1 else ""
            if any(w in flags for w in ("O_WRONLY", "O_RDWR", "O_CREAT")):
                out.append(("os.open", node.lineno))
        elif name in ("open", "fdopen"):
            mode = _mode(node, 1 if isinstance(f, ast.Name) or name == "fdopen" else 0)   # Path.open(mode)
            if mode and WRITING_MODES & set(mode):
                out.append((f"open(..., {mode!r})", node.lineno))
        elif on_os and name in ON_OS:
            out.append((f"os.{name}", node.lineno))
        elif name in WRITING_CALLS:
            out.append((name, node.lineno))
    return out


def test_every_file_the_tool_writes_goes_through_the_one_writer():
    found = []
    for top in SOURCES + ("docs/_ext", "benchmarks"):   # the site's extensions (pages, records), the benchmarks' figures
        for f in sorted((ROOT / top).rglob("*.py")):
            rel = str(f.relative_to(ROOT))
            for what, line in _writes(f):
                if (rel, what) not in ALLOWED:
                    found.append(f"{rel}:{line}: {what}")
    assert found == [], "write files with tractor_dsl.files.write_file (or add a reason to ALLOWED)"


def test_the_scan_finds_a_direct_write(tmp_path):
    planted = tmp_path / "m.py"
    planted.write_text("from pathlib import Path\nPath('x').write_text('y')\nopen('z', 'w')\n"
                       "import json\njson.dump({}, open('q', 'a'))\nPath('p').open('wb')\n"
                       "import os\nos.open('o', os.O_WRONLY)\n"
                       "open('r').read()\nPath('r').open()\n'a'.replace('b', 'c')\nos.replace('t', 'u')\n")
    assert sorted(w for w, _ in _writes(planted)) == ["dump", "open(..., 'a')", "open(..., 'w')", "open(..., 'wb')",
                                                        "os.open", "os.replace", "write_text"]
