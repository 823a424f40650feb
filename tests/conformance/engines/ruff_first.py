"""A ruff-comparison bug in the trick winner: of two ruffs of a side-suit lead, the first keeps the trick,
however high the second (winner; the rule of ruffing, trick.ruff)."""
import sys

from _faux import serve
from conformance.protocol import messages as protocol

TIERS = ("J+", "J-")


def _trump(card, level, trump):
    return card in TIERS or card[:-1] == level or card[-1] == trump or card[:-1] == "2"


def tamper(msg, ans):
    if msg.get("op") != "winner" or "result" not in ans:
        return None
    inp = msg["input"]
    plays, leader, won = inp["plays"], inp["leader"], ans["result"]["winner"]
    level, trump = inp["level"], inp["trump"]
    if any(_trump(c, level, trump) for c in plays[leader]) or won == leader:
        return None
    order = [(leader + k) % 4 for k in range(1, 4)]
    ruffs = [s for s in order if all(_trump(c, level, trump) for c in plays[s])]
    if len(ruffs) < 2 or won not in ruffs or ruffs[0] == won:
        return None
    return protocol.encode({"seq": msg["seq"], "result": {**ans["result"], "winner": ruffs[0]}})


if __name__ == "__main__":
    sys.exit(serve(tamper))
