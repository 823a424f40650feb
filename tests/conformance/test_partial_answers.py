"""Partial answers, declared: the handshake's ``fields``, what the runner compares, and what reports say."""
import json
from collections import Counter

import pytest

from conformance.reporting import report
from conformance.running.runner import Runner
from conformance.generation.cases import vector_cases

from .conftest import faux


@pytest.fixture(scope="module")
def cases():
    """r003 follow and lead vectors, failed throws (throw_beaten) among them."""
    follow = vector_cases(rulesets=["r003"], ops=["follow"])[:40]
    lead = vector_cases(rulesets=["r003"], ops=["lead"])
    failed = [c for c in lead if "failure" in c["expected"]][:25]
    return follow + failed + [c for c in lead if c["expected"]["legal"]][:10]


def _run(fields, cases, *extra):
    return Runner(faux("declared", json.dumps(fields), *extra), timeout=10.0).run(cases, rulesets=["r003"])


def test_undeclared_fields_are_not_compared_even_when_wrong(cases):
    fields = {"follow": ["legal"], "lead": ["legal", "forced"]}
    result = _run(fields, cases, "lie")   # reason, blocked and penalty sent, and wrong
    assert Counter(o.status for o in result.outcomes) == {"pass": len(cases)}
    assert any(c["op"] == "lead" and c["expected"]["failure"]["blocked"] != ["J+"]
               for c in cases if "failure" in c["expected"])
    notes = report.coverage_notes(result)
    assert notes == ["lead compared on legal, forced only (not reason, blocked, penalty)",
                     "follow compared on legal only (not reason)"]
    summary = report.summary_text(result)
    for note in notes:
        assert note in summary and note in report.markdown(result) and note in report.junit_xml(result)
    data = json.loads(report.report_json(result))
    assert data["narrowed"] == notes and data["compared"] == {"lead": ["legal", "forced"], "follow": ["legal"]}


def test_the_declared_fields_are_still_compared(cases):
    """Leaving blocked out passes a wrong blocked; declaring legal keeps a wrong legal a failure."""
    result = _run({"lead": ["legal", "reason", "penalty", "forced"]}, cases, "lie")  # blocked: ["J+"]
    by_op = Counter((c["op"], o.status) for c, o in zip(cases, result.outcomes))
    assert by_op[("lead", "pass")] == sum(c["op"] == "lead" for c in cases)
    result = _run({"follow": ["legal"]}, cases, "wrong")     # legal negated
    fails = [o for c, o in zip(cases, result.outcomes) if c["op"] == "follow"]
    assert fails and all(o.status == "fail" and o.message.startswith("legal: expected") for o in fails)


@pytest.mark.parametrize("fields,needle", [
    ({"follow": ["legal", "why"]}, "why"),
    ({"fly": ["legal"]}, "fly"),
    ({"follow": []}, "follow"),
])
def test_a_field_the_operation_does_not_have_is_a_handshake_error(cases, fields, needle):
    result = _run(fields, cases[:3])
    assert {(o.status, o.kind) for o in result.outcomes} == {("errored", "handshake_failed")}
    message = result.outcomes[0].message
    assert "invalid handshake answer" in message and needle in message, message
