"""A correct engine that will not answer its handshake until N engines have started (a file each in DIR):
run one after another, the first would wait in vain and exit; run together, they all go on."""
import os
import sys
import time

from _faux import serve

folder, wanted = sys.argv[1], int(sys.argv[2])


def meet():
    open(os.path.join(folder, f"{os.getpid()}.started"), "w").close()
    deadline = time.monotonic() + 300   # a margin for a loaded machine: the engines start together
    while sum(n.endswith(".started") for n in os.listdir(folder)) < wanted:
        if time.monotonic() > deadline:
            sys.exit(3)
        time.sleep(0.05)


sys.exit(serve(on_start=meet))
