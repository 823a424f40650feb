"""A narrow bug: a player who declared a suit wrongly may not declare that suit again himself (declare)."""
import sys

from _faux import serve
from conformance.protocol import messages as protocol


def tamper(msg, ans):
    if msg.get("op") != "declare" or "result" not in ans:
        return None
    inp = msg["input"]
    last = inp["declarations"][-1]
    shown = {(w["seat"], c[-1]) for w in inp.get("wrong", []) for c in w["cards"]}
    if not any((last["seat"], c[-1]) in shown for c in last["cards"] if c not in ("J+", "J-")):
        return None
    if not ans["result"]["legal"]:
        return None
    before = len(inp["declarations"]) == 1
    result = {**ans["result"], "legal": False, "reason": "partner_barred"}
    if before:
        result.update({"trump": None, "declarer": None, "banker": inp.get("banker")})
    return protocol.encode({"seq": msg["seq"], "result": result})


sys.exit(serve(tamper))
