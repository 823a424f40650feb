"""Crashes mid-run: dies (exit status 1) on every request whose seq is a multiple of N (default 40)."""
import os
import sys

from _faux import every, serve

N = int(sys.argv[1]) if len(sys.argv) > 1 else 40
hit = every(N)


def tamper(msg, ans):
    if hit(msg):
        sys.stderr.write(f"crash: dying on seq {msg['seq']}\n")
        sys.stderr.flush()
        os._exit(1)


sys.exit(serve(tamper))
