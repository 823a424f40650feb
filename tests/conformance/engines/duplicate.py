"""Answers twice: every request whose seq is a multiple of N (default 7) gets its (correct) answer
written two times."""
import sys

from _faux import every, serve
from conformance.protocol import messages as protocol

N = int(sys.argv[1]) if len(sys.argv) > 1 else 7
hit = every(N)


def tamper(msg, ans):
    if hit(msg):
        return protocol.encode(ans) * 2


sys.exit(serve(tamper))
