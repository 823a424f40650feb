"""Prints a huge line (default 3 MiB: a valid answer padded with a giant detail string) for every
request whose seq is a multiple of N (default 10)."""
import json
import sys

from _faux import every, serve

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10
SIZE = int(sys.argv[2]) if len(sys.argv) > 2 else 3 << 20
hit = every(N)


def tamper(msg, ans):
    if hit(msg) and "result" in ans:
        ans = dict(ans, result=dict(ans["result"], detail="z" * SIZE))
        return json.dumps(ans).encode() + b"\n"


sys.exit(serve(tamper))
