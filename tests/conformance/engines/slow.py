"""A slow but correct engine: waits SECONDS (default 0.02) before every answer."""
import sys
import time

from _faux import serve
from conformance.protocol import messages as protocol

DELAY = float(sys.argv[1]) if len(sys.argv) > 1 else 0.02


def tamper(msg, ans):
    time.sleep(DELAY)
    return protocol.encode(ans)


sys.exit(serve(tamper))
