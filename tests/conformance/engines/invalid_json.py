"""Prints invalid JSON for every request whose seq is a multiple of N (default 10)."""
import sys

from _faux import every, serve

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10
hit = every(N)


def tamper(msg, ans):
    if hit(msg):
        return b'{"seq": ' + str(msg["seq"]).encode() + b', "result": {legal: true\n'


sys.exit(serve(tamper))
