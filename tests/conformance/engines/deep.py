"""Nests deeply: every request whose seq is a multiple of N (default 7) is answered with its result
plus an extra field nested DEPTH deep (default 5000); with ``wrong``, a follow so answered also
says the opposite of the right answer (a disagreement whose answer a report must show)."""
import json
import sys

from _faux import every, serve

N = int(sys.argv[1]) if len(sys.argv) > 1 else 7
DEPTH = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
WRONG = "wrong" in sys.argv[3:]
hit = every(N)


def tamper(msg, ans):
    if hit(msg) and "result" in ans:
        result = dict(ans["result"])
        if WRONG and msg.get("op") == "follow":
            result = {"legal": not result["legal"], "reason": "ok" if not result["legal"] else "must_follow_suit"}
        fields = json.dumps(result)[1:-1].encode()
        return b'{"seq":%d,"result":{%s,"extra":%s%s}}\n' % (msg["seq"], fields, b"[" * DEPTH, b"]" * DEPTH)


sys.exit(serve(tamper))
