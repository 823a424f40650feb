"""A failing analysis loses no failure (issue 30, item 8): the failing cases are listed as unexplained, and the
report, the summary and the terminal say the analysis failed — not only an event."""
from __future__ import annotations

from conformance.running.runner import Runner

from .conftest import faux


class NoSignal:
    status = None


def test_a_failing_analysis_lists_every_failure_as_unexplained_and_says_so(small_cases, monkeypatch):
    from conformance import conform
    from conformance.analysis import attribution
    from conformance.reporting.report import findings_lines, markdown

    result = Runner(faux("wrong_answers")).run(small_cases)
    failing = sorted(c["id"] for c, o in zip(result.cases, result.outcomes) if o.status == "fail")
    assert failing   # the engine fails some cases

    def broken(*args, **kwargs):
        raise RuntimeError("the analysis broke")
    monkeypatch.setattr(attribution, "attribute", broken)
    conform.analyse_results([result], NoSignal(), jobs=1)
    assert result.findings == [] and result.unexplained == failing
    (event,) = [e for e in result.events if e["kind"] == "attribution_failed"]
    assert "the analysis broke" in event["message"] and f"{len(failing)} failing case(s)" in event["message"]
    lines = findings_lines(result)
    assert lines[0].startswith(f"findings (0: 0 failing case(s) explained, {len(failing)} unexplained)")
    assert lines[1].startswith("analysis failed: ")
    assert "**analysis failed**" in markdown(result)


def test_the_summary_prints_the_failed_analysis(small_cases, monkeypatch, capsys):
    from conformance import conform
    from conformance.analysis import attribution
    from tractor_cli.summary import print_summary

    result = Runner(faux("wrong_answers")).run(small_cases)
    monkeypatch.setattr(attribution, "attribute", lambda *a, **k: 1 / 0)
    conform.analyse_results([result], NoSignal(), jobs=1)
    print_summary(result, show=0)
    out = capsys.readouterr().out
    assert "note: attribution_failed: the analysis of the failures failed (ZeroDivisionError" in out
