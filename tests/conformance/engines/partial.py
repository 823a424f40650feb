"""A partial engine: supports only r001 and the operations classify and follow; answers follow
`skipped` (with an issue link) when the lead is a throw of more than four cards."""
import sys

from _faux import serve
from conformance.protocol import messages as protocol


def handshake(msg, ans):
    ans["result"].update(name="partial", rulesets=["r001"], operations=["classify", "follow"])
    return protocol.encode(ans)


def tamper(msg, ans):
    if msg.get("op") == "follow" and len(msg["input"]["lead"]) > 4:
        return protocol.encode(protocol.skipped_answer(msg["seq"], "long leads are not implemented",
                                                       "https://example.org/issues/1"))


sys.exit(serve(tamper, on_handshake=handshake))
