"""Leaves requests unanswered: every request whose seq is a multiple of N (default 7) gets no
answer at all; the others are answered correctly, in order."""
import sys

from _faux import every, serve

N = int(sys.argv[1]) if len(sys.argv) > 1 else 7
hit = every(N)


def tamper(msg, ans):
    if hit(msg):
        return b""


sys.exit(serve(tamper))
