"""The pytest plugin (conformance.pytest_plugin), run as an engine author would: pytest in another directory."""
import os
import shlex
import sys
from pathlib import Path
from tests import processes

REPO = Path(__file__).resolve().parents[2]
PYTHON_TOY = REPO / "examples" / "python" / "toy_engine.py"
REFERENCE = shlex.join([sys.executable, "-m", "tractor_cli.main", "engine"])
TOY = shlex.join([sys.executable, str(PYTHON_TOY)])


def pytest_in(directory: Path, *args, env=None, timeout=processes.PATIENCE):
    """``python -m pytest ARGS`` in ``directory`` (a directory of its own: no project ini, no conftest)."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "HYPOTHESIS_"))}
    environ.update(env or {})
    return processes.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rfEs", *args],
                          capture_output=True, text=True, cwd=directory, env=environ, timeout=timeout)


def test_the_reference_engine_passes_one_operation(tmp_path):
    out = pytest_in(tmp_path, "--tractor-engine", REFERENCE, "--tractor-ruleset", "r003", "--tractor-ops", "result",
                    "--tractor-profile", "quick", "-p", "conformance.pytest_plugin", "-v")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "tractor::r003.result PASSED" in out.stdout
    assert "1 passed" in out.stdout and "collected 1 item" in out.stdout
    assert "tractor conformance: engine" in out.stdout          # the report header


def test_a_wrong_engine_fails_with_the_rendered_disagreement(tmp_path):
    out = pytest_in(tmp_path, "--tractor-engine", TOY, "--tractor-ruleset", "r003",
                    "--tractor-ops", "result,advance", "-p", "conformance.pytest_plugin",
                    env={"TOY_ENGINE_BUG": "1"})
    assert out.returncode == 1, out.stdout + out.stderr
    text = out.stdout
    assert "1 failed, 1 passed" in text
    assert "r003 result: fail — decided by score.table" in text      # the clause id
    assert "attackers points" in text                                # the position drawn
    assert "reference: {" in text and "engine:    {" in text         # both answers
    assert 'vector: {"clauses": ["score.table"]' in text             # a vector line
    assert "replay: pytest --tractor-engine" in text
    assert "FAILED tractor::r003.result" in text


def test_operations_the_engine_does_not_support_are_skipped(tmp_path):
    out = pytest_in(tmp_path, "--tractor-engine", TOY, "--tractor-ruleset", "r003,r001",
                    "--tractor-ops", "follow", "advance")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "1 passed, 3 skipped" in out.stdout
    assert "does not list this operation" in out.stdout and "does not list this ruleset" in out.stdout


def test_keyword_selection_and_collect_only(tmp_path):
    out = pytest_in(tmp_path, "--tractor-engine", TOY, "--tractor-ruleset", "r003", "--collect-only", "-q")
    assert out.returncode == 0, out.stdout + out.stderr
    for op in ("classify", "lead", "follow", "winner", "kitty", "result", "advance", "declare", "undeclared",
               "penalty", "deal"):
        assert f"tractor::r003.{op}" in out.stdout
    out = pytest_in(tmp_path, "--tractor-engine", TOY, "--tractor-ruleset", "r003", "-k", "advance")
    assert "1 passed, 10 deselected" in out.stdout, out.stdout


def test_the_engine_s_own_tests_still_run_beside_the_suite(tmp_path):
    (tmp_path / "test_mine.py").write_text("def test_mine():\n    assert True\n")
    out = pytest_in(tmp_path, "--tractor-engine", TOY, "--tractor-ruleset", "r003", "--tractor-ops", "result")
    assert out.returncode == 0 and "2 passed" in out.stdout, out.stdout + out.stderr


def test_without_the_option_the_plugin_adds_nothing(tmp_path):
    (tmp_path / "test_mine.py").write_text("def test_mine():\n    assert True\n")
    out = pytest_in(tmp_path, "-p", "conformance.pytest_plugin", "-v")
    assert out.returncode == 0 and "1 passed" in out.stdout, out.stdout + out.stderr
    assert "tractor::" not in out.stdout and "tractor conformance" not in out.stdout
    help_text = pytest_in(tmp_path, "--help").stdout                   # the entry point registers the options
    assert "--tractor-engine=CMD" in help_text and "--tractor-profile" in help_text


def test_the_plugin_loads_without_entry_point_autoloading(tmp_path):
    out = pytest_in(tmp_path, "--tractor-engine", TOY, "--tractor-ruleset", "r003", "--tractor-ops", "advance",
                    "-p", "conformance.pytest_plugin", env={"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert out.returncode == 0 and "1 passed" in out.stdout, out.stdout + out.stderr


def test_bad_options_are_usage_errors(tmp_path):
    out = pytest_in(tmp_path, "--tractor-engine", TOY, "--tractor-ruleset", "r999")
    assert out.returncode == 4 and "unknown ruleset" in out.stderr, out.stdout + out.stderr
    out = pytest_in(tmp_path, "--tractor-engine", TOY, "--tractor-ruleset", "r003", "--tractor-ops", "dance")
    assert out.returncode == 4 and "unknown operation" in out.stderr, out.stdout + out.stderr


def test_an_engine_that_cannot_start_fails_every_test(tmp_path):
    out = pytest_in(tmp_path, "--tractor-engine", str(tmp_path / "no-such-engine"), "--tractor-ruleset", "r003",
                    "--tractor-ops", "result,advance")
    assert out.returncode == 1 and "2 failed" in out.stdout, out.stdout + out.stderr
    assert "the engine could not be started" in out.stdout


def test_the_project_run_is_untouched(request):
    """In this very session the plugin is loaded (the entry point) but inert: no settings, no engine, no items."""
    from conformance import pytest_plugin
    config = request.config
    assert config.pluginmanager.has_plugin(pytest_plugin.ENTRY_POINT)
    assert config.getoption("tractor_engine") is None
    assert pytest_plugin._settings(config) is None
    assert not any(item.nodeid.startswith("tractor::") for item in request.session.items)


def test_whole_hands_through_the_plugin(tmp_path):
    out = pytest_in(tmp_path, "--tractor-engine", REFERENCE, "--tractor-ruleset", "r003", "--tractor-ops", "advance",
                    "--tractor-hands", "-v")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "tractor::r003.advance PASSED" in out.stdout and "tractor::r003.hands PASSED" in out.stdout


HOUSE = '''ruleset house extends r003 {
  title "r003 capped at 3 levels" "003号规则，每盘至多升三级"
  override score.table choose thirty_capped because "our club caps a hand at three levels"
    "本俱乐部每盘至多升三级"
}
'''


def test_a_users_rule_file_is_a_ruleset_of_the_plugin_too(tmp_path):
    # the file extends r003 and chooses its capped reading of the score table; `tractor engine
    # --rules` serves it under its own name, and the plugin judges by the same file
    (tmp_path / "house.tractor").write_text(HOUSE, encoding="utf-8")
    served = f"{REFERENCE} --rules house.tractor"
    (tmp_path / "pytest.ini").write_text(f"[pytest]\ntractor_engine = {served}\ntractor_ruleset = house.tractor\n"
                                         "tractor_ops = result\n", encoding="utf-8")
    out = pytest_in(tmp_path, "-p", "conformance.pytest_plugin", "-v")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "tractor::house.result PASSED" in out.stdout
    bad = tmp_path / "bad.tractor"
    bad.write_text(HOUSE.replace("thirty_capped", "nonsense").replace("house", "bad"), encoding="utf-8")
    out = pytest_in(tmp_path, "-p", "conformance.pytest_plugin", "--tractor-ruleset", "bad.tractor")
    assert out.returncode == 4 and "error[E508]" in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_the_default_suite_runs_through_the_library_function(tmp_path):
    """--tractor-default-suite: the cases of `tractor conform --ruleset r003 --ops result` (the band edges of
    003:4's table among them), judged by conformance.conform, one test that fails with the run's findings."""
    good = pytest_in(tmp_path, "--tractor-engine", REFERENCE, "--tractor-ruleset", "r003", "--tractor-ops", "result",
                     "--tractor-default-suite", "-p", "conformance.pytest_plugin", "-v")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "tractor::r003.default PASSED" in good.stdout
    bad = pytest_in(tmp_path, "--tractor-engine", TOY, "--tractor-ruleset", "r003", "--tractor-ops", "result",
                    "--tractor-default-suite", "-p", "conformance.pytest_plugin", "-k", "default",
                    env={"TOY_ENGINE_BUG": "1"})
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "r003: " in bad.stdout and "the default suite of tractor conform, seed 0" in bad.stdout
    assert "replay: tractor conform --engine" in bad.stdout
