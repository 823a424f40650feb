"""A narrow bug: an overcall is judged against the declaration as first shown, before its reinforcement
(declare): the reinforcement is forgotten when another seat declares."""
import sys

from _faux import serve
from conformance.protocol import engine, engine_io
from conformance.protocol import messages as protocol


def tamper(msg, ans):
    if msg.get("op") != "declare" or "result" not in ans:
        return None
    steps = msg["input"]["declarations"]
    if len(steps) < 3 or steps[-1]["seat"] == steps[-2]["seat"]:
        return None
    kept = [s for i, s in enumerate(steps) if not (0 < i < len(steps) - 1 and s["seat"] == steps[i - 1]["seat"])]
    if len(kept) == len(steps):
        return None
    again = engine_io.answer({**msg, "input": {**msg["input"], "declarations": kept}},
                             frozenset(engine.supported_operations()))
    return protocol.encode(again) if "result" in again else None


sys.exit(serve(tamper))
