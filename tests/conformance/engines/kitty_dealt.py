"""A narrow bug: a whole hand scores the kitty as dealt, not as the banker buried it (hand)."""
import sys

from _faux import serve
from conformance.protocol import engine, engine_io
from conformance.protocol import messages as protocol

SUPPORTED = frozenset(engine.supported_operations())


def ask(msg, op, inp):
    return engine_io.answer({"seq": msg["seq"], "op": op, "ruleset": msg["ruleset"], "input": inp}, SUPPORTED)


def tamper(msg, ans):
    if msg.get("op") != "hand" or "result" not in ans:
        return None
    t = msg["input"]["transcript"]
    if sorted(t.get("discard", t["deal"]["kitty"])) == sorted(t["deal"]["kitty"]) or not t["tricks"]:
        return None
    last = t["tricks"][-1]
    trick = {"leader": last["leader"], "plays": last["plays"]}
    base = {"level": t["level"], "trump": t["trump"], "banker": t["banker"], "last_trick": trick}
    buried = ask(msg, "kitty", {**base, "kitty": t["discard"]})
    dealt = ask(msg, "kitty", {**base, "kitty": t["deal"]["kitty"]})
    if "result" not in buried or "result" not in dealt:
        return None
    points = ans["result"]["attackers_points"] - buried["result"]["points"] + dealt["result"]["points"]
    if points == ans["result"]["attackers_points"]:
        return None
    score = ask(msg, "result", {"attackers_points": points})
    if "result" not in score:
        return None
    return protocol.encode({"seq": msg["seq"], "result": {**ans["result"], "attackers_points": points,
                                                          "next_banker": score["result"]["next_banker"],
                                                          "levels": score["result"]["levels"]}})


sys.exit(serve(tamper))
