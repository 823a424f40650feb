"""A narrow bug: jokers are followed as a suit of their own: a follower without jokers may play anything
to a lead of jokers only, though he holds other trumps (follow)."""
import sys

from _faux import serve
from conformance.protocol import messages as protocol

JOKERS = ("J+", "J-")


def tamper(msg, ans):
    if msg.get("op") != "follow" or "result" not in ans:
        return None
    inp = msg["input"]
    if not all(c in JOKERS for c in inp["lead"]) or any(c in JOKERS for c in inp["hand"]):
        return None
    if len(inp["play"]) != len(inp["lead"]) or ans["result"]["legal"]:
        return None
    if ans["result"]["reason"] in ("cards_not_held", "wrong_card_count"):
        return None
    return protocol.encode({"seq": msg["seq"], "result": {"legal": True, "reason": "ok"}})


sys.exit(serve(tamper))
