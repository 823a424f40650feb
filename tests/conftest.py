import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config):
    """``-n N`` with no ``--dist``: pytest-xdist's work stealing instead of its default ``load``. With ``load``
    the tests queued on a worker stay there however long its slow ones take; stealing lets an idle worker
    take them, which shortens the tail of a run on two workers (issue 33)."""
    if (not hasattr(config, "workerinput") and getattr(config.option, "dist", "no") == "load"
            and not any(a == "--dist" or a.startswith("--dist=") or a == "-d" for a in config.invocation_params.args)):
        config.option.dist = "worksteal"


def pytest_sessionstart(session):
    session.config._tractor_started = __import__("time").time()


def pytest_terminal_summary(terminalreporter, config):
    """Say where the browser tests (tests/docs/test_browser.py) wrote this run's screenshots."""
    from pathlib import Path
    shots = Path(__file__).resolve().parents[1] / "docs" / "_build" / "screenshots"
    started = getattr(config, "_tractor_started", 0)
    new = sorted(p.name for p in shots.glob("*") if p.stat().st_mtime >= started) if shots.is_dir() else []
    if new:
        terminalreporter.write_line(f"screenshots and print previews written to {shots}: {', '.join(new)}")


# The slow tier: left out of the everyday run (pyproject's addopts: -m "not slow"), run by .ci/run after it
# (pytest -n auto -m slow). A module here is slow as a whole; a test that builds the whole site (the `site`
# fixture of tests/docs) is slow wherever it is.
SLOW_MODULES = {
    "tests/docs/test_browser.py": "a real Chromium against the built site",
    "tests/docs/test_report_browser.py": "a real Chromium against the HTML report",
    "tests/docs/test_user_rulebook.py": "Sphinx builds of small projects",
    "tests/suite/test_fingerprint.py": "fingerprints probe every clause through an engine",
    "tests/conformance/test_fingerprint_emit.py": "fingerprint, emit, then a whole conform run",
    "tests/conformance/test_hostile_engines.py": "whole runs against crashing, hanging and flooding engines",
    "tests/cli/test_signals.py": "parallel commands signalled while they work",
    "tests/suite/test_generated.py": "the generated (Hypothesis) stage of every ruleset through an engine",
}
# single slow tests of modules that are otherwise quick
SLOW_TESTS = {
    "tests/conformance/test_vectors.py::test_every_vector_line_is_valid": "every vector line against the schemas",
    "tests/conformance/test_vectors.py::test_export_and_check_round_trip": "every ruleset's vectors written and read",
    "tests/conformance/test_catalogue_by_name.py::test_every_catalogue_file_has_a_default_suite":
        "the default suite of every house-rule file, generated",
    # whole conform runs whose cases are generated (a house file's, another seed's) and then analysed: the
    # README's test command stays within its five minutes on two cores
    "tests/conformance/test_asked_as.py::test_the_command_asks_a_house_file_under_the_name_the_engine_knows":
        "three conform runs of a house file",
    "tests/cli/test_conform_output.py::test_the_printed_explain_command_reproduces_the_case":
        "a run of another seed, then explain",
    "tests/cli/test_conform_output.py::test_the_analysis_after_the_run_says_what_it_does":
        "a failing run on two workers with its analysis",
    "tests/conformance/test_rule_files.py::test_play_and_vectors_take_a_file": "games and vectors of a house file",
    "tests/parallel/test_parallel.py::test_attribution_and_clustering_give_the_same_analysis_on_any_number_of_workers":
        "the analysis run twice",
    "tests/conformance/test_run_plan.py::test_a_failing_engine_is_status_1_with_its_findings":
        "a failing run with its findings",
}


def pytest_collection_modifyitems(config, items):
    import pytest
    root = config.rootpath
    for item in items:
        try:
            where = item.path.relative_to(root).as_posix()
        except ValueError:
            continue
        if (where in SLOW_MODULES or f"{where}::{item.originalname}" in SLOW_TESTS
                or "site" in getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
