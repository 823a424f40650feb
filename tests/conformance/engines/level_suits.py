"""A narrow bug: equal off-suit level cards are ordered by suit (spades, hearts, diamonds, clubs), not won by
the first played (winner)."""
import sys

from _faux import serve
from conformance.protocol import messages as protocol

ORDER = "SHDC"


def _off_level(play, level, trump):
    suits = {c[-1] for c in play}
    return bool(play) and len(suits) == 1 and all(c[:-1] == level and c[-1] in ORDER and c[-1] != trump
                                                  for c in play)


def tamper(msg, ans):
    if msg.get("op") != "winner" or "result" not in ans:
        return None
    inp = msg["input"]
    plays, won = inp["plays"], ans["result"]["winner"]
    if not _off_level(plays[won], inp["level"], inp["trump"]):
        return None
    rivals = [s for s in range(4) if len(plays[s]) == len(plays[won]) and _off_level(plays[s], inp["level"],
                                                                                         inp["trump"])]
    best = min(rivals, key=lambda s: ORDER.index(plays[s][0][-1]))
    if best == won:
        return None
    return protocol.encode({"seq": msg["seq"], "result": {**ans["result"], "winner": best}})


sys.exit(serve(tamper))
