"""The HTML report's first screen says the verdict (issue 33): a red FAIL when any case failed, errored or a
known deviation now passes; green PASS only when every judged case agreed; never a failing rate in green."""
import re

from conformance.reporting import badges, matrix
from conformance.reporting.html_report import render
from conformance.running.runner import Outcome, RunResult


def _run(cases, statuses, interrupted=False, events=()):
    outcomes = [Outcome(s, "disagrees" if s == "fail" else "", "m") for s in statuses]
    return RunResult(cases, outcomes, {"name": "e", "version": "1"}, ["e"], "now", 0.1, interrupted, 0, 0, "",
                     events=list(events), rulesets=["r001"])


def _top(html):
    """What comes before the matrix: the first screen."""
    return html[:html.index("<h2>Compliance")]


def test_one_failing_case_in_a_hundred_makes_the_report_red_at_the_top(small_cases):
    statuses = ["pass"] * len(small_cases)
    statuses[3] = "fail"
    r = _run(small_cases, statuses)
    html = render(matrix.build([r]), [r])
    top = _top(html)
    assert '<div class="verdict fail"' in top and "<strong>FAIL</strong>" in top
    assert "1 failing case(s)" in top and "PASS" not in top
    assert re.search(r"<title>FAIL\b", html)
    assert '.verdict.fail { background: #b60205; }' in html            # red
    # the rate (above 97 %) is not drawn in green anywhere
    cells = re.findall(r'class="rate" style="background:(#[0-9a-f]+)"', html)
    assert cells and cells[-1] != "#4c1"   # the "all" row
    assert badges.colour(matrix.rate(r.counts())) not in ("#4c1", "#97ca00", "#a4a61d")


def test_errored_cases_and_passing_known_deviations_are_failures_too(small_cases):
    for bad in ("errored", "xpass"):
        statuses = ["pass"] * len(small_cases)
        statuses[0] = bad
        r = _run(small_cases, statuses)
        assert '<div class="verdict fail"' in _top(render(matrix.build([r]), [r])), bad


def test_a_clean_run_is_green_and_says_pass(small_cases):
    r = _run(small_cases, ["pass"] * (len(small_cases) - 1) + ["xfail"])
    html = render(matrix.build([r]), [r])
    top = _top(html)
    assert '<div class="verdict pass"' in top and "<strong>PASS</strong>" in top and "FAIL" not in top
    assert "1 known deviation(s)" in top


def test_a_stopped_or_empty_run_is_no_pass(small_cases):
    r = _run(small_cases, ["pass"] * len(small_cases), interrupted=True)
    top = _top(render(matrix.build([r]), [r]))
    assert '<div class="verdict incomplete"' in top and "PASS</strong>" not in top
    r = _run(small_cases, ["skipped"] * len(small_cases))
    top = _top(render(matrix.build([r]), [r]))
    assert '<div class="verdict none"' in top and "NOTHING JUDGED" in top


def test_several_engines_the_worst_verdict_leads_and_each_engine_has_its_own(small_cases):
    good = _run(small_cases, ["pass"] * len(small_cases))
    bad = _run(small_cases, ["fail"] + ["pass"] * (len(small_cases) - 1))
    html = render(matrix.build([good, bad], ["good", "bad"]), [good, bad])
    top = _top(html)
    assert '<div class="verdict fail"' in top and "in 1 of 2 engine(s)" in top
    assert re.search(r"good</a>: <b>PASS</b>", top) and re.search(r"bad</a>: <b>FAIL</b>", top)
    assert '<h2>good <span class="tag pass">PASS</span></h2>' in html
    assert '<h2>bad <span class="tag fail">FAIL</span></h2>' in html
