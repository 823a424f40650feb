"""An engine that writes its process id to the file named by its argument at each start, and answers a trick
led by seat 0 with one card as won by the seat after the winner: a run with failures to analyse, and a record of how many engine
processes the run and its analysis started."""
import os
import sys

from _faux import serve
from conformance.protocol import messages as protocol

LOG = sys.argv[1]


def start():
    with open(LOG, "a", encoding="utf-8") as f:
        f.write(f"{os.getpid()}\n")


def tamper(msg, ans):
    if msg.get("op") != "winner" or "result" not in ans:
        return None
    inp = msg["input"]
    if inp.get("leader") != 0 or len(inp["plays"][0]) != 1:
        return None
    return protocol.encode({"seq": msg["seq"], "result": {**ans["result"], "winner": (ans["result"]["winner"] + 1) % 4}})


sys.exit(serve(tamper, on_start=start))
