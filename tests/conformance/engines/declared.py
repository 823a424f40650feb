"""The reference engine with partial answers, declared: argv[1] is the handshake's ``fields`` (JSON).

For each operation it declares, its results carry only the declared fields, except
that with argv[2] == "lie" the undeclared ones are sent too, wrong (a reason code
the reference never gives, an extra blocked card): they must not be compared. With
argv[2] == "wrong" it gets ``legal`` wrong when it declares it: that must be compared.
"""
import json
import sys

from _faux import serve
from conformance.protocol import messages as protocol

FIELDS = json.loads(sys.argv[1])
LIE = sys.argv[2:] == ["lie"]
WRONG = sys.argv[2:] == ["wrong"]


def declare(msg, ans):
    ans["result"]["fields"] = FIELDS
    return protocol.encode(ans)


def tamper(msg, ans):
    op, result = msg.get("op"), ans.get("result")
    if op not in FIELDS or result is None or not isinstance(FIELDS[op], list):
        return None
    keep = set(FIELDS[op])
    flat = {**{k: v for k, v in result.items() if k != "failure"}, **result.get("failure", {})}
    out = {k: v for k, v in flat.items() if k in keep and k in protocol.COMPARED[op]}
    if LIE:
        for k in protocol.COMPARED[op]:
            if k not in keep:
                out[k] = {"reason": "empty_play", "legal": not flat.get("legal"), "blocked": ["J+"],
                          "penalty": 999, "forced": ["J+"]}.get(k, flat.get(k))
    if WRONG and "legal" in out:
        out["legal"] = not out["legal"]
    failure = {k: out.pop(k) for k in protocol.FAILURE_FIELDS if op == "lead" and k in out}
    if failure:
        out["failure"] = failure
    return protocol.encode(dict(ans, result=out))


serve(tamper, on_handshake=declare)
