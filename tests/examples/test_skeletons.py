"""The starter kit: the Python and JavaScript skeletons (examples/skeleton/) speak the whole protocol and
answer every operation `skipped` — a conform run finds every case skipped, none errored — and the guide walks
from them to green with the commands of a real run."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.protocol.messages import OPERATIONS

ROOT = Path(__file__).parents[2]
SKELETONS = ROOT / "examples" / "skeleton"


def _conform(engine: str, report: Path) -> dict:
    proc = subprocess.run([sys.executable, "-m", "tractor_cli.main", "conform", "--engine", engine,
                           "--ruleset", "r000", "--report", str(report), "--no-progress"],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert "Traceback" not in proc.stderr, proc.stderr
    return json.loads((report / "report.json").read_text(encoding="utf-8"))


def _check(data: dict) -> None:
    totals = data["totals"]
    assert totals["skipped"] > 2000, totals          # every case of the default suite was asked ...
    assert {k: v for k, v in totals.items() if k != "skipped"} == dict.fromkeys(
        ("pass", "fail", "errored", "xfail", "xpass"), 0)       # ... and answered skipped, none errored
    assert set(data["ops"]) == set(OPERATIONS)                   # the handshake lists every operation
    assert not [e for e in data["events"] if e.get("kind") in ("unexpected_line", "restart")]


def test_the_python_skeleton_skips_every_case(tmp_path):
    _check(_conform(f"{sys.executable} {SKELETONS / 'engine.py'}", tmp_path))


def test_the_javascript_skeleton_skips_every_case(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed, so the JavaScript skeleton cannot be run")
    _check(_conform(f"{node} {SKELETONS / 'engine.js'}", tmp_path))


@pytest.mark.parametrize("name", ["engine.py", "engine.js"])
def test_the_skeletons_dispatch_every_operation_and_stay_small(name):
    text = (SKELETONS / name).read_text(encoding="utf-8")
    for op in OPERATIONS:
        assert f"{op}" in text
    assert "handshake" in text and "shutdown" in text and "skipped" in text and "errored" in text
    assert len(text.splitlines()) < 90 and "tractor_dsl" not in text and "reference_impl" not in text


@pytest.mark.parametrize("name", ["engine.py", "engine.js"])
def test_the_skeletons_name_every_compared_field_of_each_operation(name):
    """Issue 32: the comment beside each operation names every field its answer is compared on (hand's
    next_banker_seat and knocked_back, deal's buries, ...; lead's blocked, penalty and forced inside its failure),
    so an engine author starting from the skeleton writes them all."""
    import re
    from conformance.protocol.messages import COMPARED, FAILURE_FIELDS
    text = (SKELETONS / name).read_text(encoding="utf-8")
    for op, fields in COMPARED.items():
        line = re.search(rf"^\s*\"?{op}\"?: \w+,\s*(#|//) {{(.*)}}$", text, re.M)
        assert line, f"{name}: no comment for {op}"
        named = set(re.findall(r"\w+", line.group(2)))
        wanted = set(fields) - set(FAILURE_FIELDS) | ({"failure"} if op == "lead" else set())
        assert wanted <= named, f"{name}: {op} leaves out {sorted(wanted - named)}"


def test_the_guide_walks_from_the_skeleton_to_green():
    guide = (ROOT / "docs" / "guide.rst").read_text(encoding="utf-8")
    part = guide[guide.index("From the skeleton to green"):]
    assert "examples/skeleton/engine.py" in part and "examples/skeleton/engine.js" in part
    assert "--ops result" in part and "tractor explain --case" in part and "--report" in part
    for op in OPERATIONS:            # every operation has its step
        assert f"``{op}``" in part, op
