"""Writes terminal control sequences: its handshake name, and the ``errored`` message it gives every
request whose seq is a multiple of N (default 7), hold ESC sequences (clear the screen, set the
window title, colour) and a carriage return that would overwrite the line shown."""
import sys

from _faux import every, serve
from conformance.protocol import messages as protocol

N = int(sys.argv[1]) if len(sys.argv) > 1 else 7
hit = every(N)
EVIL = "\x1b[2J\x1b]0;pwned\x07\x1b[31mred\rALL PASS\x9b"


def handshake(msg, ans):
    ans["result"]["name"] = "term" + EVIL
    return protocol.encode(ans)


def tamper(msg, ans):
    if hit(msg):
        return protocol.encode(protocol.errored_answer(msg["seq"], "oops" + EVIL))


sys.exit(serve(tamper, on_handshake=handshake))
