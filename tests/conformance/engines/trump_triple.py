"""A follow bug on a trump triple led: the engine asks the follower for trumps only, never for the pair or
triple the ladder asks (follow; the triple's follow ladder, follow.triple on r001)."""
import sys

from _faux import serve
from conformance.protocol import messages as protocol

TIERS = ("J+", "J-")


def _trump(card, level, trump):
    return card in TIERS or card[:-1] == level or card[-1] == trump or card[:-1] == "2"


def tamper(msg, ans):
    if msg.get("op") != "follow" or "result" not in ans or ans["result"].get("legal"):
        return None
    inp = msg["input"]
    lead, level, trump = inp["lead"], inp["level"], inp["trump"]
    if len(lead) != 3 or len(set(lead)) != 1 or not _trump(lead[0], level, trump):
        return None
    if ans["result"].get("reason") == "must_follow_suit":
        return None
    return protocol.encode({"seq": msg["seq"], "result": {**ans["result"], "legal": True, "reason": "ok"}})


if __name__ == "__main__":
    sys.exit(serve(tamper))
