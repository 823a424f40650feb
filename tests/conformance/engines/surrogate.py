"""Lone surrogates: every request whose seq is a multiple of N (default 7) is answered ``errored``
with a message holding the escape \\ud800 (valid JSON, but no Unicode text); its handshake name
holds one too."""
import sys

from _faux import every, serve

N = int(sys.argv[1]) if len(sys.argv) > 1 else 7
hit = every(N)


def handshake(msg, ans):
    import json
    ans["result"]["name"] = "surrogate-\ud800"
    return json.dumps(ans).encode() + b"\n"   # ensure_ascii: \ud800 is written as an escape


def tamper(msg, ans):
    if hit(msg):
        return b'{"seq":%d,"errored":{"message":"cannot \\ud800 read \\udfff this"}}\n' % msg["seq"]


sys.exit(serve(tamper, on_handshake=handshake))
