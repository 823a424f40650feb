"""A kitty multiplier bug: a pair led to the last trick and won captures the kitty x4, not x2 (kitty; the kitty
multiplier's pair rows, kitty.capture on r001)."""
import sys

from _faux import serve
from conformance.protocol import messages as protocol


def tamper(msg, ans):
    if msg.get("op") != "kitty" or "result" not in ans or not ans["result"].get("points"):
        return None
    trick = msg["input"]["last_trick"]
    play = trick["plays"][trick["leader"]]
    if len(play) != 2 or play[0] != play[1]:
        return None
    return protocol.encode({"seq": msg["seq"], "result": {**ans["result"], "points": 2 * ans["result"]["points"]}})


if __name__ == "__main__":
    sys.exit(serve(tamper))
