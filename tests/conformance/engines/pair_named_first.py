"""A narrow bug in reasons only, as tonyyunyang/80-fen-shengji's ``followError`` (src/rules.js) checks pairs before
tractors: a follower who must play a tractor is told he must play a pair (follow). Legality is the spec's."""
import sys

from _faux import serve
from conformance.protocol import messages as protocol


def tamper(msg, ans):
    if msg.get("op") == "follow" and ans.get("result", {}).get("reason") == "must_play_tractor":
        return protocol.encode({"seq": msg["seq"], "result": {**ans["result"], "reason": "must_play_pair"}})
    return None


sys.exit(serve(tamper))
