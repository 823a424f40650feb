import os

import pytest
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


# The longest tests of each tier, each with its duration in seconds (measured with --durations on two workers,
# issue 33): each worker of pytest-xdist starts with its share of them, longest first, so that none of them
# starts last and holds the run's end while the other worker is idle (:func:`_longest_first`). Every other
# test keeps its order.
LONGEST = {
    # the README tier
    "tests/conformance/test_vectors.py::test_vectors_do_not_drift_from_the_spec": 90,
    "tests/examples/test_stateful.py::test_run_hands_shrinks_a_disagreement_to_a_short_program": 78,
    "tests/parallel/test_parallel.py::test_shrinking_gives_the_same_minimal_positions_on_any_number_of_workers": 54,
    "tests/suite/test_decisions.py::test_equivalent_alternatives_are_equivalent": 49,
    "tests/conformance/test_rule_files.py::test_conform_runs_a_users_file_on_both_sides": 47,
    "tests/conformance/test_cases.py::test_the_default_run_reads_the_vectors_and_other_seeds_generate": 45,
    "tests/conformance/test_cases.py::test_a_bundled_suite_at_other_counts_takes_its_decision_positions_from_the_vectors":
        39,
    "tests/conformance/test_runner.py::test_cli_reference_engine_passes_every_ruleset": 37,
    "tests/suite/test_strategies.py::test_every_executable_clause_decides_some_case": 35,
    "tests/examples/test_plugin_ini.py::test_the_plugin_under_xdist": 33,
    "tests/parallel/test_parallel.py::test_a_generated_suite_is_the_same_on_any_number_of_workers": 31,
    "tests/dsl/test_roundtrip.py::test_comments_are_kept_and_formatting_is_idempotent": 30,
    # the slow tier
    "tests/conformance/test_fingerprint_emit.py::test_four_differences_at_once_emit_a_fixpoint_whose_reasons_and_evidence_differ":
        47,
    "tests/conformance/test_fingerprint_emit.py::test_emit_then_conform_against_the_emitted_file_passes": 45,
    "tests/suite/test_strategies.py::test_the_generated_quick_stage_alone_kills_nearly_every_alternative": 40,
    "tests/conformance/test_vectors.py::test_export_and_check_round_trip": 33,
    "tests/conformance/test_fingerprint_emit.py::"
    "test_fingerprint_emit_then_conform_on_the_same_positions_leaves_at_most_half_the_failures": 32,
    "tests/conformance/test_asked_as.py::test_the_command_asks_a_house_file_under_the_name_the_engine_knows": 31,
    "tests/conformance/test_vectors.py::test_every_vector_line_is_valid": 27,
    "tests/suite/test_generated.py::test_the_generated_suite_passes_against_tractor_engine": 24,
    "tests/parallel/test_parallel.py::test_attribution_and_clustering_give_the_same_analysis_on_any_number_of_workers":
        21,
}


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config, items):
    """Mark the slow tier before pytest's ``-m`` selection (the marks decide it), then lay out what is
    selected for the workers (after it: the shares are those of the tests that run)."""
    root = config.rootpath
    longest = {}
    for item in items:
        try:
            where = item.path.relative_to(root).as_posix()
        except ValueError:
            continue
        if (where in SLOW_MODULES or f"{where}::{item.originalname}" in SLOW_TESTS
                or "site" in getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
        longest[item.nodeid] = LONGEST.get(f"{where}::{item.originalname}", 0)
    result = yield
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    items[:] = _longest_first(items, longest, workers)
    return result


def _longest_first(items: list, longest: dict, workers: int) -> list:
    """``items`` laid out for ``workers`` workers: pytest-xdist (work stealing) gives the first worker the first
    ``len // workers`` tests, the next worker the next share, and so on (every worker collects the same list and
    lays it out the same way). The long tests are dealt out longest first, one to each share in turn, at the
    head of the share; the other tests fill the shares in their order."""
    long = sorted((i for i in items if longest.get(i.nodeid, 0)), key=lambda i: -longest[i.nodeid])
    rest = [i for i in items if not longest.get(i.nodeid, 0)]
    sizes, left = [], len(items)
    for k in range(workers):
        sizes.append(left // (workers - k))
        left -= sizes[-1]
    shares: list[list] = [[] for _ in sizes]
    k = 0
    for item in long:
        while len(shares[k % workers]) >= sizes[k % workers]:
            k += 1
        shares[k % workers].append(item)
        k += 1
    others = iter(rest)
    for share, size in zip(shares, sizes):
        share.extend(next(others) for _ in range(size - len(share)))
    return [i for share in shares for i in share]
