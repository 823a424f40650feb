"""Forks a child that outlives it: at start, a child that sleeps for an hour, then serves correctly
but dies on every request whose seq is a multiple of N (default 15), so that every restart leaves
one more child behind unless the runner ends them. With ``setsid`` the child leaves the engine's
session (and process group); with ``exec:PIDFILE`` it also clears its environment and becomes
``sleep 3600`` (writing its pid to PIDFILE), so that only a subreaper can still find it."""
import os
import sys
import time

from _faux import every, serve

N = int(sys.argv[1]) if len(sys.argv) > 1 else 15
MODES = sys.argv[2:]
hit = every(N)


def start():
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):  # let the parent's exit be seen: the child holds no pipe
            os.dup2(null, fd)
        if "setsid" in MODES or any(m.startswith("exec:") for m in MODES):
            os.setsid()
        for m in MODES:
            if m.startswith("exec:"):
                with open(m[5:], "a") as f:
                    f.write(f"{os.getpid()}\n")
                os.execve("/bin/sleep", ["sleep", "3600"], {})
        time.sleep(3600)
        os._exit(0)


def tamper(msg, ans):
    if hit(msg):
        os._exit(1)


sys.exit(serve(tamper, on_start=start))
