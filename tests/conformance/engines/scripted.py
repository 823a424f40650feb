"""Answers as a script says, request by request: each argument is SEQ:WHAT, WHAT one of
``dup`` (the answer twice), ``skip`` (no answer), ``zero`` (the answer with seq 0, never sent),
``next`` (the answer with seq + 1), ``stray3`` (three lines nobody asked for before the answer),
``swap`` (this request's answer after the next one's), ``text`` (a line of log text first).
Every other request is answered correctly."""
import sys

from _faux import serve
from conformance.protocol import messages as protocol

SCRIPT = {int(k): v for k, v in (a.split(":", 1) for a in sys.argv[1:])}
delayed = []


def tamper(msg, ans):
    what = SCRIPT.get(msg.get("seq"))
    seq = msg.get("seq")
    line = protocol.encode(ans)
    out = b""
    if what == "swap":
        delayed.append(line)
        return b""
    if what == "dup":
        out = line + line
    elif what == "skip":
        out = b""
    elif what == "zero":
        out = protocol.encode(dict(ans, seq=0))
    elif what == "next":
        out = protocol.encode(dict(ans, seq=seq + 1))
    elif what == "stray3":
        out = b"".join(protocol.encode(protocol.result_answer(10 ** 6 + k, {"x": k})) for k in range(3)) + line
    elif what == "text":
        out = b"starting to think\n" + line
    else:
        out = line
    out += b"".join(delayed)
    delayed.clear()
    return out


sys.exit(serve(tamper))
