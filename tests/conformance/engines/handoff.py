"""Hands serving to a child and exits at once, as a daemon does: the child (in a session of its own
with ``setsid``) holds the pipes and answers every request correctly, then lingers an hour after
the runner shuts it down."""
import os
import sys
import time

from _faux import serve

SETSID = "setsid" in sys.argv[1:]

if os.fork() != 0:
    os._exit(0)
if SETSID:
    os.setsid()
serve()
time.sleep(3600)
