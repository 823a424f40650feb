"""Answers something the schema rejects for every request whose seq is a multiple of N (default 10):
a result without its required fields, with a boolean written as a string."""
import sys

from _faux import every, serve
from conformance.protocol import messages as protocol

N = int(sys.argv[1]) if len(sys.argv) > 1 else 10
hit = every(N)


def tamper(msg, ans):
    if hit(msg):
        return protocol.encode({"seq": msg["seq"], "result": {"legal": "maybe", "winner": "north"}})


sys.exit(serve(tamper))
