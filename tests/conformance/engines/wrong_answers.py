"""A wrong engine: says every follow is legal ("ok"), and answers everything else correctly."""
import sys

from _faux import serve
from conformance.protocol import messages as protocol


def tamper(msg, ans):
    if msg.get("op") == "follow" and "result" in ans:
        return protocol.encode({"seq": msg["seq"], "result": {"legal": True, "reason": "ok"}})


sys.exit(serve(tamper))
