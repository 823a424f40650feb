"""A narrow bug: a tie between equal plays goes to the last of them, not the first (winner)."""
import sys
from collections import Counter

from _faux import serve
from conformance.protocol import messages as protocol


def tamper(msg, ans):
    if msg.get("op") != "winner" or "result" not in ans:
        return None
    inp = msg["input"]
    plays, leader, won = inp["plays"], inp["leader"], ans["result"]["winner"]
    order = [(leader + k) % 4 for k in range(4)]
    later = [s for s in order[order.index(won) + 1:] if Counter(plays[s]) == Counter(plays[won])]
    if not later:
        return None
    return protocol.encode({"seq": msg["seq"], "result": {**ans["result"], "winner": later[-1]}})


if __name__ == "__main__":
    sys.exit(serve(tamper))
