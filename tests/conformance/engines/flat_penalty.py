"""A failed throw costs a flat 10 points, however many cards it holds (lead; the spec counts per card):
``throw.penalty_per`` read as ``attempt``."""
import sys

from _faux import serve
from conformance.protocol import messages as protocol


def tamper(msg, ans):
    if msg.get("op") != "lead" or "result" not in ans:
        return None
    failure = ans["result"].get("failure")
    if not isinstance(failure, dict) or failure.get("penalty") in (None, 10):
        return None
    return protocol.encode({"seq": msg["seq"], "result": {**ans["result"], "failure": {**failure, "penalty": 10}}})


if __name__ == "__main__":
    sys.exit(serve(tamper))
