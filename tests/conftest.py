import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


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
