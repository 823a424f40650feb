"""The example engines of examples/: each passes what it implements and skips the rest."""
import json
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from conformance.generation.cases import generate, suite
from conformance.running.runner import Runner

REPO = Path(__file__).resolve().parents[2]
PYTHON_TOY = REPO / "examples" / "python" / "toy_engine.py"
NODE_TOY = REPO / "examples" / "node" / "toy_engine.js"
NODE = shutil.which("node")

ENGINES = [
    pytest.param(shlex.join([sys.executable, str(PYTHON_TOY)]), id="python"),
    pytest.param(shlex.join([NODE or "node", str(NODE_TOY)]), id="node",
                 marks=pytest.mark.skipif(NODE is None, reason="node is not on PATH")),
]


def _suite(ruleset: str) -> list[dict]:
    """What ``tractor conform --ruleset RULESET --ops result,advance`` runs: a bundled ruleset's vectors, which
    are exactly the suite generate() gives at seed 0 (tests/conformance/test_vectors.py checks they do not
    drift), read instead of searching the decision positions again for each test."""
    return suite(ruleset, ["result", "advance"], seed=0)


def _run(cmd, cases, rulesets=("r003",)):
    return Runner(cmd, timeout=10.0).run(cases, rulesets=list(rulesets), source="generated", seed=0)


@pytest.mark.parametrize("cmd", ENGINES)
def test_the_toy_engine_passes_result_and_advance(cmd):
    """tractor conform --engine CMD --ruleset r003 --ops result,advance: every case passes."""
    cases = _suite("r003")
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
    # not in the handshake: never sent (the node toy follows single cards, on legal only: see below)
    if "toy_engine.py" in cmd:
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
    cases = _suite("r003")
    result = _run(cmd, cases)
    assert result.failed
    assert {o.kind for o in result.outcomes if o.status != "pass"} == {"disagrees"}


def test_the_cli_exports_a_ruleset_and_runs_the_python_toy_engine_on_it(tmp_path):
    """The README's two steps: tractor export r001 -o FILE, then conform the toy configured by FILE."""
    cli = [sys.executable, "-m", "tractor_cli.main"]
    out = subprocess.run(cli + ["export", "r001", "-o", str(tmp_path / "r001.json")],
                         capture_output=True, text=True, cwd=REPO, timeout=120)
    assert out.returncode == 0, out.stderr
    cmd = shlex.join([sys.executable, str(PYTHON_TOY), str(tmp_path / "r001.json")])
    out = subprocess.run(cli + ["conform", "--engine", cmd, "--ruleset", "r001", "--ops", "result,advance",
                                "--report", str(tmp_path / "report")],
                         capture_output=True, text=True, cwd=REPO, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "toy-python" in out.stdout and " 0 fail" in out.stdout
    assert (tmp_path / "report" / "junit.xml").exists()


def _toy_rules(ruleset, tmp_path):
    """The Python toy's configuration, read from ``ruleset``'s export (the module loaded as a file)."""
    import importlib.util
    from tests.examples.conftest import write_export
    spec = importlib.util.spec_from_file_location("toy_engine", PYTHON_TOY)
    toy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(toy)
    return toy, toy.Rules(json.loads(write_export(tmp_path, ruleset).read_text(encoding="utf-8")))


@pytest.mark.parametrize("ruleset", ["r000", "r001", "r003_capped"])
def test_the_python_toy_configured_by_another_export_passes_that_ruleset(ruleset, tmp_path):
    """Nothing of r003 is hard-coded: configured by another ruleset's export, the toy passes that ruleset."""
    cases = _suite(ruleset)
    cases += [c for c in generate(ruleset, ["classify"], seed=0, counts=60, decisions=False)
              if len(c["input"]["cards"]) == 1 or (len(c["input"]["cards"]) == 2 and len(set(c["input"]["cards"])) == 1)]
    cmd = shlex.join([sys.executable, str(PYTHON_TOY), str(tmp_path / f"{ruleset}.json")])
    from tests.examples.conftest import write_export
    write_export(tmp_path, ruleset)
    result = _run(cmd, cases, rulesets=(ruleset,))
    bad = [(c["id"], o.status, o.kind, o.message) for c, o in zip(cases, result.outcomes) if o.status != "pass"]
    assert not bad, bad[:5]
    assert result.handshake["rulesets"] == [ruleset] and {c["op"] for c in cases} == {"result", "advance", "classify"}


def test_the_python_toys_answers_follow_its_export(tmp_path):
    """The same questions, two exports: the answers change as the rulebooks do."""
    toy, r003 = _toy_rules("r003", tmp_path)
    _, r001 = _toy_rules("r001", tmp_path)
    _, capped = _toy_rules("r003_capped", tmp_path)
    # 003:score: no cap, +1 level per 30 points over 120; 001: 120 to take the stage, capped at 3 levels
    assert toy.result(r003, {"attackers_points": 300}) == {"next_banker": "attackers", "levels": 6}
    assert toy.result(r001, {"attackers_points": 300}) == {"next_banker": "attackers", "levels": 3}
    assert toy.result(capped, {"attackers_points": 300}) == {"next_banker": "attackers", "levels": 3}
    # 003 plays levels 2..A with A a must-play level; 001 plays 3..K and passing K wins
    assert toy.advance(r003, {"level": "K", "gain": 2, "as_banker": True}) == {"level": "A", "won": False}
    assert toy.advance(r001, {"level": "K", "gain": 2, "as_banker": True}) == {"level": "K", "won": True}
    # 001: 2s are always trump
    assert toy.classify(r001, {"cards": ["2S"], "level": "5", "trump": "H"})["suit"] == "trump"
    assert toy.classify(r003, {"cards": ["2S"], "level": "5", "trump": "H"})["suit"] == "S"


def test_the_node_toy_declares_follow_on_legal_only_and_the_reports_say_so(tmp_path):
    if NODE is None:
        pytest.skip("node is not on PATH")
    from conformance.reporting import report
    cases = list(generate("r003", ["follow"], seed=0, counts=150, decisions=False))
    result = _run(shlex.join([NODE, str(NODE_TOY)]), cases)
    kinds = Counter((o.status, o.kind) for o in result.outcomes)
    assert set(kinds) == {("pass", ""), ("skipped", "engine_skipped")}, kinds
    # the node toy sends no reason: an illegal single-card follow passes on legal alone
    passed = [c for c, o in zip(cases, result.outcomes) if o.status == "pass"]
    assert any(not c["expected"]["legal"] for c in passed)
    note = "follow compared on legal only (not reason)"
    assert result.handshake["fields"] == {"follow": ["legal"]}
    assert note in report.summary_text(result) and note in report.markdown(result)
    assert report.report_dict(result)["narrowed"] == [note]
    assert report.report_dict(result)["compared"] == {"follow": ["legal"]}
    assert f'name="compared" value="{note}"' in report.junit_xml(result)


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
