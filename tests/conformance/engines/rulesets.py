"""Lists only the rulesets given as its first argument (comma-separated) in its handshake, and answers
like the reference engine: how a run given no --ruleset learns what to check."""
import sys

from _faux import protocol, serve

LISTED = [r for r in sys.argv[1].split(",") if r]


def on_handshake(msg, ans):
    ans["result"]["rulesets"] = LISTED
    return protocol.encode(ans)


sys.exit(serve(None, on_handshake))
