"""Unsolicited lines: before the answer to every request whose seq is a multiple of N (default 7)
the engine writes a line nobody asked for -- in turn an answer with a seq never sent, an answer
repeating an earlier seq, and a line of log text."""
import sys

from _faux import every, serve
from conformance.protocol import messages as protocol

N = int(sys.argv[1]) if len(sys.argv) > 1 else 7
hit = every(N)
count = 0


def tamper(msg, ans):
    global count
    if hit(msg):
        count += 1
        extra = [protocol.encode(protocol.result_answer(10 ** 9 + msg["seq"], {"legal": True, "reason": "ok"})),
                 protocol.encode(protocol.result_answer(msg["seq"] - 1, {"legal": True, "reason": "ok"})),
                 b"debug: thinking about seq %d\n" % msg["seq"]][count % 3]
        return extra + protocol.encode(ans)


sys.exit(serve(tamper))
