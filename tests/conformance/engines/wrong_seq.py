"""Answers with the wrong sequence number (seq + 1) for every request whose seq is a multiple of N (default 10)."""
import sys

from _faux import every, serve
from conformance.protocol import messages as protocol

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10
hit = every(N)


def tamper(msg, ans):
    if hit(msg):
        ans = dict(ans, seq=msg["seq"] + 1)
        return protocol.encode(ans)


sys.exit(serve(tamper))
