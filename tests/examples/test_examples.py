"""The example engines of examples/: each passes what it implements and skips the rest."""
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conformance.cases import generate
from conformance.runner import Runner

REPO = Path(__file__).resolve().parents[2]
PYTHON_TOY = REPO / "examples" / "python" / "toy_engine.py"
NODE_TOY = REPO / "examples" / "node" / "toy_engine.js"
NODE = shutil.which("node")

ENGINES = [
    pytest.param(shlex.join([sys.executable, str(PYTHON_TOY)]), id="python"),
    pytest.param(shlex.join([NODE or "node", str(NODE_TOY)]), id="node",
                 marks=pytest.mark.skipif(NODE is None, reason="node is not on PATH")),
]


def _run(cmd, cases, rulesets=("r003",)):
    return Runner(cmd, timeout=10.0).run(cases, rulesets=list(rulesets), source="generated", seed=0)


@pytest.mark.parametrize("cmd", ENGINES)
def test_the_toy_engine_passes_result_and_advance(cmd):
    """tractor conform --engine CMD --ruleset r003 --ops result,advance: every case passes."""
    cases = list(generate("r003", ["result", "advance"], seed=0))
    assert {c["op"] for c in cases} == {"result", "advance"} and len(cases) > 100
    result = _run(cmd, cases)
    bad = [(c["id"], o.status, o.kind, o.message) for c, o in zip(cases, result.outcomes) if o.status != "pass"]
    assert not bad, bad[:5]
    assert not result.failed and result.restarts == 0
    assert result.handshake["rulesets"] == ["r003"]


@pytest.mark.parametrize("cmd", ENGINES)
def test_the_toy_engine_skips_what_it_does_not_implement(cmd):
    cases = list(generate("r003", ["classify", "follow", "winner", "declare"], seed=0, counts=40, decisions=False))
    cases += list(generate("r001", ["result"], seed=0, counts=10, decisions=False))
    result = _run(cmd, cases, rulesets=("r003", "r001"))
    by_op = {}
    for c, o in zip(cases, result.outcomes):
        by_op.setdefault((c["ruleset"], c["op"]), Counter())[(o.status, o.kind)] += 1
    # not in the handshake: never sent
    assert by_op[("r003", "follow")] == {("skipped", "op_not_supported"): 40}
    assert by_op[("r003", "winner")] == {("skipped", "op_not_supported"): 40}
    assert by_op[("r003", "declare")] == {("skipped", "op_not_supported"): 40}
    assert by_op[("r001", "result")] == {("skipped", "ruleset_not_supported"): 10}
    # classify: singles and pairs pass, everything bigger is answered "skipped"
    classify = by_op[("r003", "classify")]
    assert set(classify) == {("pass", ""), ("skipped", "engine_skipped")}, classify
    assert not result.failed


@pytest.mark.parametrize("cmd", ENGINES)
def test_the_bug_switch_makes_the_toy_engine_fail(cmd, monkeypatch):
    monkeypatch.setenv("TOY_ENGINE_BUG", "1")
    cases = list(generate("r003", ["result", "advance"], seed=0))
    result = _run(cmd, cases)
    assert result.failed
    assert {o.kind for o in result.outcomes if o.status != "pass"} == {"disagrees"}


def test_the_cli_runs_the_python_toy_engine(tmp_path):
    cmd = shlex.join([sys.executable, str(PYTHON_TOY)])
    out = subprocess.run([sys.executable, "-m", "tractor_cli.main", "conform", "--engine", cmd, "--ruleset", "r003",
                          "--ops", "result,advance", "--report", str(tmp_path / "report")],
                         capture_output=True, text=True, cwd=REPO, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "toy-python" in out.stdout and " 0 fail" in out.stdout
    assert (tmp_path / "report" / "junit.xml").exists()


@pytest.mark.parametrize("path", [PYTHON_TOY, NODE_TOY], ids=["python", "node"])
def test_the_toy_engines_are_small(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 150, f"{path.name} has {len(lines)} lines"


def test_the_toy_engines_do_not_import_the_project():
    text = PYTHON_TOY.read_text(encoding="utf-8")
    for module in ("conformance", "reference_impl", "tractor_dsl", "tractor_cli"):
        assert f"import {module}" not in text and f"from {module}" not in text
    assert "require(" in NODE_TOY.read_text(encoding="utf-8")  # node's own modules only
    assert "readline" in NODE_TOY.read_text(encoding="utf-8")


def test_the_readme_names_what_it_documents():
    text = (REPO / "examples" / "README.md").read_text(encoding="utf-8")
    for needle in ("handshake", "skipped", "tractor conform --engine", "--tractor-engine", "--expect",
                   "examples/python/toy_engine.py", "examples/node/toy_engine.js", "hand_machine"):
        assert needle in text, needle
