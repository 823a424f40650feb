"""An engine written before issue 32: it answers hand and deal without next_banker_seat and buries (the fields
the protocol gained later); with the argument 'wrong', it sends them, each one seat off."""
import sys

from _faux import serve
from conformance.protocol import messages as protocol

WRONG = "wrong" in sys.argv[1:]


def tamper(msg, ans):
    result = ans.get("result")
    if msg.get("op") not in ("hand", "deal") or not isinstance(result, dict):
        return None
    out = dict(result)
    for key in ("next_banker_seat", "buries"):
        if key in out:
            if not WRONG:
                del out[key]
            elif out[key] is not None:
                out[key] = (out[key] + 1) % 4
    return protocol.encode({"seq": msg["seq"], "result": out})


sys.exit(serve(tamper))
