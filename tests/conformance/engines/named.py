"""The reference engine under another name: argv[1] is its handshake's ``name``, argv[2] its ``version``."""
import sys

from _faux import serve
from conformance.protocol import messages as protocol


def name(msg, ans):
    ans["result"]["name"], ans["result"]["version"] = sys.argv[1], sys.argv[2]
    return protocol.encode(ans)


if __name__ == "__main__":
    sys.exit(serve(on_handshake=name))
