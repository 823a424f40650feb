"""The pytest plugin's settings from an ini file, and the plugin under pytest-xdist (``pytest -n``)."""
import shlex
import sys
from pathlib import Path

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[2]
TOY = shlex.join([sys.executable, str(REPO / "examples" / "python" / "toy_engine.py")])


def _ini(pytester, **options):
    lines = "\n".join(f"{k} = {v}" for k, v in options.items())
    pytester.makeini(f"[pytest]\naddopts = -p no:cacheprovider\n{lines}\n")


def test_list_options_in_an_ini_file_are_names_not_letters(pytester):
    _ini(pytester, tractor_engine=TOY, tractor_ruleset="r003", tractor_ops="result advance")
    out = pytester.runpytest_subprocess("--collect-only", "-q")
    assert out.ret == 0, out.stdout.str() + out.stderr.str()
    assert out.stdout.str().count("tractor::r003.") == 2
    out.stdout.fnmatch_lines(["tractor::r003.result", "tractor::r003.advance"])
    assert "unknown ruleset" not in out.stderr.str()


def test_ini_lists_take_commas_and_several_lines(pytester):
    _ini(pytester, tractor_engine=TOY, tractor_ruleset="r003,r000", tractor_ops="\n    result,\n    advance")
    out = pytester.runpytest_subprocess("--collect-only", "-q")
    assert out.ret == 0, out.stdout.str() + out.stderr.str()
    for ruleset in ("r003", "r000"):
        for op in ("result", "advance"):
            assert f"tractor::{ruleset}.{op}" in out.stdout.str()


def test_a_bad_ini_ruleset_is_named_whole(pytester):
    _ini(pytester, tractor_engine=TOY, tractor_ruleset="r999")
    out = pytester.runpytest_subprocess()
    assert out.ret == 4
    assert "unknown ruleset(s) r999 " in out.stderr.str(), out.stderr.str()


def test_the_plugin_under_xdist(pytester):
    """pytest -n 2: every worker collects the same tests, each runs against its own engine process."""
    _ini(pytester, tractor_engine=TOY, tractor_ruleset="r003", tractor_ops="result advance classify follow")
    out = pytester.runpytest_subprocess("-n", "2", "-rs")
    assert out.ret == 0, out.stdout.str() + out.stderr.str()
    out.assert_outcomes(passed=3, skipped=1)        # the Python toy does not list follow
    assert "does not list this operation" in out.stdout.str()


def test_a_bad_ini_seed_without_an_engine_breaks_nothing(pytester):
    """tractor_seed = abc in a project's ini was an INTERNALERROR of every pytest run, engine or not."""
    _ini(pytester, tractor_seed="abc")
    pytester.makepyfile(test_one="def test_one():\n    assert 1 + 1 == 2\n")
    out = pytester.runpytest_subprocess()
    assert out.ret == 0, out.stdout.str() + out.stderr.str()
    out.assert_outcomes(passed=1)
    assert "INTERNALERROR" not in out.stdout.str() + out.stderr.str()


def test_a_bad_ini_seed_with_an_engine_is_a_usage_error(pytester):
    _ini(pytester, tractor_engine=TOY, tractor_ruleset="r003", tractor_seed="abc")
    out = pytester.runpytest_subprocess()
    assert out.ret == 4, out.stdout.str() + out.stderr.str()
    assert "tractor_seed: 'abc' is not a whole number" in out.stderr.str()
    assert "INTERNALERROR" not in out.stdout.str() + out.stderr.str()
    _ini(pytester, tractor_engine=TOY, tractor_ruleset="r003", tractor_ops="result", tractor_seed="7")
    assert "seed 7" in pytester.runpytest_subprocess("--collect-only", "-q").stdout.str() + \
        pytester.runpytest_subprocess("--collect-only").stdout.str()


def test_a_timeout_that_is_no_number_of_seconds_is_a_usage_error(pytester):
    _ini(pytester, tractor_engine=TOY, tractor_ruleset="r003")
    for value in ("nan", "-1", "0"):
        out = pytester.runpytest_subprocess(f"--tractor-timeout={value}")
        assert out.ret == 4 and "--tractor-timeout" in out.stderr.str(), (value, out.stderr.str())
