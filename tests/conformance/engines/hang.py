"""Hangs: stops answering (sleeps) on every request whose seq is a multiple of N (default 40)."""
import sys
import time

from _faux import every, serve

N = int(sys.argv[1]) if len(sys.argv) > 1 else 40
hit = every(N)


def tamper(msg, ans):
    if hit(msg):
        time.sleep(3600)


sys.exit(serve(tamper))
