"""Lists only the operations given as its first argument (comma-separated) in its handshake, answers
those like the reference engine, and errors on every other one. Every operation it is sent is logged
to the file given as its second argument, one per line, so a test can see what it was asked."""
import sys

from _faux import protocol, serve

LISTED = sys.argv[1].split(",")
LOG = sys.argv[2]


def on_handshake(msg, ans):
    ans["result"]["operations"] = LISTED
    return protocol.encode(ans)


def tamper(msg, ans):
    with open(LOG, "a", encoding="utf-8") as f:
        f.write(f"{msg.get('op')}\n")
    if msg.get("op") not in LISTED:
        return protocol.encode(protocol.errored_answer(msg["seq"], "not an operation this engine lists"))


sys.exit(serve(tamper, on_handshake))
