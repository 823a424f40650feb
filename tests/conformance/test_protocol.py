"""The protocol's schemas, the fast answer check, and how answers are compared."""
import copy
import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from conformance.protocol import engine
from conformance.protocol import engine_io
from conformance.protocol import messages as protocol
from conformance.protocol.messages import ProtocolError, check_answer, compare, schema_errors
from conformance.generation.cases import vector_cases

DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


@pytest.fixture(scope="module")
def vectors():
    cases = vector_cases(rulesets=["r000", "r001", "r003"])
    by_op = {}
    for c in cases:
        by_op.setdefault(c["op"], []).append(c)
    return [c for op_cases in by_op.values() for c in op_cases[:15]]


def test_every_schema_is_valid_draft_2020_12():
    names = protocol.schema_names()
    for op in protocol.OPERATIONS:
        assert f"{op}.request" in names and f"{op}.result" in names
    for name in names:
        doc = protocol.schema(name)
        assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert doc["$id"] == protocol.SCHEMA_BASE + name + ".json"
        Draft202012Validator.check_schema(doc)


def test_reference_requests_and_answers_match_their_schemas(vectors):
    assert {c["op"] for c in vectors} == set(engine.supported_operations())
    hs = {"seq": 0, "op": "handshake", "protocol": 1, "runner": {"name": "t", "version": "0"}}
    assert not schema_errors("request", hs)
    assert not schema_errors("answer", engine_io.answer(hs))
    assert not schema_errors("handshake.result", engine_io.answer(hs)["result"])
    for i, c in enumerate(vectors, 1):
        req = protocol.request(i, c["op"], c["ruleset"], c["input"])
        assert not schema_errors("request", req), c["id"]
        assert not schema_errors(f"{c['op']}.request", req), c["id"]
        ans = engine_io.answer(req)
        assert not schema_errors("answer", ans), c["id"]
        assert "result" in ans, ans
        assert not schema_errors(f"{c['op']}.result", ans["result"]), c["id"]
        assert not schema_errors(f"{c['op']}.result", c["expected"]), c["id"]  # an expected answer is a result


def test_the_request_schema_rejects_what_it_should():
    good = protocol.request(1, "follow", "r001", {"level": "7", "trump": "H", "lead": ["5H"], "hand": ["6H"],
                                                  "play": ["6H"]})
    assert not schema_errors("request", good)
    for bad in (dict(good, op="fly"), dict(good, seq=-1), {k: v for k, v in good.items() if k != "input"},
                dict(good, input=dict(good["input"], trump="X")),
                dict(good, input=dict(good["input"], lead=["BJ"])),
                dict(good, input=dict(good["input"], level="1")),
                dict(good, extra=True)):
        assert schema_errors("request", bad), bad


def _mutations(op, ans):
    """Answers derived from a valid one: some still valid, most not."""
    out = [ans, dict(ans, seq=-1), dict(ans, seq="1"), {"result": ans["result"]}, dict(ans, extra=1),
           dict(ans, skipped={"reason": "x"}), {"seq": 1, "skipped": {"reason": 3}},
           {"seq": 1, "skipped": {"reason": "x", "issue": "u"}}, {"seq": 1, "errored": {"message": "m"}},
           {"seq": 1, "errored": {"message": "m", "context": [1]}}, {"seq": 1, "errored": {}}, [ans], None,
           {"seq": 1, "result": []}]
    r = ans["result"]
    for k, v in r.items():
        out.append(dict(ans, result={kk: vv for kk, vv in r.items() if kk != k}))
        for bad in (None, "x", 5, -1, True, ["ZZ"], {}, ["5H"]):
            if bad != v:
                out.append(dict(ans, result=dict(r, **{k: bad})))
        if isinstance(v, list) and v and isinstance(v[0], dict):
            for kk in v[0]:
                for bad in (0, 4, "x", ["1H"], None):
                    m = copy.deepcopy(r)
                    m[k][0][kk] = bad
                    out.append(dict(ans, result=m))
        if isinstance(v, dict):
            for kk in v:
                for bad in (-5, "x", ["J*"], None):
                    m = copy.deepcopy(r)
                    m[k][kk] = bad
                    out.append(dict(ans, result=m))
    out.append(dict(ans, result=dict(r, clauses="x")))
    out.append(dict(ans, result=dict(r, detail=1)))
    return out


def test_fast_check_agrees_with_the_schemas(vectors):
    """The hand-written check used on every answer accepts exactly what the JSON Schemas accept."""
    hs = engine_io.answer({"seq": 0, "op": "handshake", "protocol": 1})
    partial = dict(hs, result=dict(hs["result"], fields={"follow": ["legal"], "lead": ["legal", "forced"]}))
    samples = [("handshake", hs), ("handshake", partial)]
    seen = set()
    for i, c in enumerate(vectors, 1):
        if (c["op"], c["expected"].get("reason")) in seen:
            continue
        seen.add((c["op"], c["expected"].get("reason")))
        samples.append((c["op"], engine_io.answer(protocol.request(i, c["op"], c["ruleset"], c["input"]))))
    checked = 0
    for op, ans in samples:
        for m in _mutations(op, ans):
            schema_ok = not schema_errors("answer", m) and (
                not isinstance(m, dict) or "result" not in m or not schema_errors(f"{op}.result", m["result"]))
            try:
                check_answer(op, m, fields=())   # the structure only: which fields must be there is the handshake's
                fast_ok = True
            except ProtocolError as e:
                fast_ok = False
                assert e.kind == "invalid_answer" and str(e)
            assert fast_ok == schema_ok, (op, json.dumps(m)[:300])
            checked += 1
    assert checked > 500


def test_compare_ignores_card_order_and_informative_fields():
    exp = {"legal": False, "reason": "throw_beaten", "failure": {"blocked": ["5H", "AH"], "penalty": 10,
                                                                 "forced": ["5H"]}}
    got = {"legal": False, "reason": "throw_beaten", "failure": {"blocked": ["AH", "5H"], "penalty": 10,
                                                                 "forced": ["5H"]},
           "clauses": ["x"], "detail": "whatever", "extension": 1}
    assert compare("lead", exp, got) == []
    got["failure"]["penalty"] = 20
    diffs = compare("lead", exp, got)
    assert diffs == ["penalty: expected 10, got 20"]
    c1 = {"kind": "throw", "suit": "H", "components": [{"size": 2, "length": 1, "cards": ["5H", "5H"]},
                                                        {"size": 1, "length": 1, "cards": ["AH"]}]}
    c2 = {"kind": "throw", "suit": "H", "components": [{"kind": "single", "size": 1, "length": 1, "cards": ["AH"]},
                                                        {"kind": "pair", "size": 2, "length": 1, "cards": ["5H", "5H"]}]}
    assert compare("classify", c1, c2) == []
    assert compare("follow", {"legal": True, "reason": "ok"}, {"legal": True}) == ["reason: expected \"ok\", got (absent)"]


def test_reason_vocabularies_match_the_interpreter_and_the_schemas():
    from reference_impl.declaring import REASONS as DECLARE
    from reference_impl.hand import DEAL_REASONS
    from reference_impl.rules import REASONS
    assert protocol.REASON_CODES == tuple(REASONS)
    assert protocol.DECLARE_REASON_CODES == tuple(DECLARE)
    assert protocol.DEAL_REASON_CODES == tuple(DEAL_REASONS)
    assert protocol.schema("common")["$defs"]["reason"]["enum"] == list(REASONS)
    assert protocol.schema("declare.result")["properties"]["reason"]["enum"] == list(DECLARE)
    assert protocol.schema("deal.result")["properties"]["reason"]["enum"] == list(DEAL_REASONS)


def test_docs_cover_every_operation_reason_and_schema():
    text = DOCS.read_text(encoding="utf-8")
    for op in protocol.OPERATIONS:
        assert re.search(rf"^### `{op}`", text, re.M), op
    for code in protocol.REASON_CODES + protocol.DECLARE_REASON_CODES + protocol.DEAL_REASON_CODES:
        assert f"`{code}`" in text, code
    for name in protocol.schema_names():
        assert f"{name}.json" in text, name
    for kind in ("timeout", "crash", "invalid_json", "wrong_seq", "invalid_answer", "line_too_long",
                 "handshake_failed", "engine_unavailable", "engine_errored", "engine_skipped", "not_run",
                 "ruleset_not_supported", "op_not_supported"):
        assert f"`{kind}`" in text, kind


def test_a_result_must_carry_the_fields_the_engine_answers():
    bare = {"seq": 1, "result": {"legal": False}}
    with pytest.raises(ProtocolError, match="reason: missing"):
        check_answer("follow", bare)                              # no declaration: every compared field
    assert check_answer("follow", bare, fields=("legal",)) == "result"
    with pytest.raises(ProtocolError, match="legal: missing"):
        check_answer("follow", {"seq": 1, "result": {"reason": "ok"}}, fields=("legal",))
    # a lead with no failure object carries no blocked/penalty/forced: absent is the answer "no failed throw"
    assert check_answer("lead", {"seq": 1, "result": {"legal": True}}, fields=("legal", "forced")) == "result"


def test_partial_comparison_compares_only_the_declared_fields():
    exp = {"legal": False, "reason": "must_follow_suit"}
    assert compare("follow", exp, {"legal": False}, ("legal",)) == []
    assert compare("follow", exp, {"legal": True}, ("legal",)) == ["legal: expected false, got true"]
    assert compare("follow", exp, {"legal": False, "reason": "must_play_pair"}, ("legal",)) == []
    # lead.failure is three fields: an engine that reports only the first blocked unit omits blocked
    exp = {"legal": False, "reason": "throw_beaten", "failure": {"blocked": ["KH", "QH", "QH"], "penalty": 30,
                                                                 "forced": ["QH", "QH"]}}
    first_unit = {"legal": False, "reason": "throw_beaten", "failure": {"blocked": ["KH"], "penalty": 30,
                                                                        "forced": ["QH", "QH"]}}
    assert compare("lead", exp, first_unit) == ['blocked: expected ["QH", "QH", "KH"], got ["KH"]']
    assert compare("lead", exp, first_unit, ("legal", "reason", "penalty", "forced")) == []
    assert compare("lead", exp, {"legal": False, "failure": {"forced": ["QH", "QH"]}}, ("legal", "forced")) == []
    assert compare("lead", exp, {"legal": False}, ("legal", "forced")) == ['forced: expected ["QH", "QH"], got (absent)']


def test_declared_fields_are_checked_against_the_operations():
    hs = {"protocol": 1, "name": "e", "version": "1", "rulesets": ["*"], "operations": ["follow", "lead"]}
    assert protocol.declared_fields(hs)["lead"] == ("legal", "reason", "blocked", "penalty", "forced")
    assert protocol.declared_fields(dict(hs, fields={"follow": ["legal"]}))["follow"] == ("legal",)
    with pytest.raises(ProtocolError, match="fields declares the compared fields of kitty, which operations does not"):
        protocol.declared_fields(dict(hs, fields={"kitty": ["points"]}))
    bad = {"seq": 0, "result": dict(hs, fields={"follow": ["legal", "why"]})}
    with pytest.raises(ProtocolError, match="why"):
        check_answer("handshake", bad)
    assert protocol._check_result("handshake", bad["result"]) == (
        "fields/follow: 'why' is not a compared field of follow (its compared fields: legal, reason)")
    assert protocol.coverage_note("lead", ("legal", "forced")) == (
        "lead compared on legal, forced only (not reason, blocked, penalty)")


def test_agrees_is_compare_finding_no_difference():
    """The analysis's quick test of an answer (protocol.agrees) and the runner's comparison never part: over
    every r001 vector, its expected answer, the same with cards reordered, and each compared field changed."""
    from conformance.generation.cases import vector_cases
    from conformance.protocol import messages
    for case in vector_cases(None, ["r001"], None):
        op, exp = case["op"], case["expected"]
        variants = [dict(exp)]
        for k in messages.COMPARED[op]:
            if k in exp:
                v = exp[k]
                if v != []:
                    variants.append({**exp, k: v[1:] if isinstance(v, list) else (not v) if isinstance(v, bool)
                                     else v + 1 if isinstance(v, int) else "changed"})
                variants.append({x: v for x, v in exp.items() if x != k})
            elif k not in ("components", "blocked", "forced"):   # a field the answer lacks, sent
                variants.append({**exp, k: 0})
        if op == "lead" and isinstance(exp.get("failure"), dict):
            variants.append({**exp, "failure": {**exp["failure"], "forced": list(reversed(exp["failure"]["forced"]))}})
        for got in variants:
            for fields in (None, messages.COMPARED[op][:1]):
                assert messages.agrees(op, exp, got, fields) == (messages.compare(op, exp, got, fields) == []), \
                    (case["id"], got, fields)
