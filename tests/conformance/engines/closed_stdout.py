"""Closes its stdout and stays alive: answers correctly until the request whose seq is N (default
10), then closes stdout and sleeps for an hour."""
import os
import sys
import time

from _faux import serve

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10


def tamper(msg, ans):
    if msg.get("seq") == N:
        sys.stdout.flush()
        os.close(1)
        time.sleep(3600)


sys.exit(serve(tamper))
