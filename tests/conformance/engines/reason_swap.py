"""A narrow bug in reasons only: a follower who must play a pair is told he must follow suit (follow)."""
import sys

from _faux import serve
from conformance.protocol import messages as protocol


def tamper(msg, ans):
    if msg.get("op") == "follow" and ans.get("result", {}).get("reason") == "must_play_pair":
        return protocol.encode({"seq": msg["seq"], "result": {**ans["result"], "reason": "must_follow_suit"}})
    return None


sys.exit(serve(tamper))
