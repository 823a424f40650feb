"""Not UTF-8: every request whose seq is a multiple of N (default 7) is answered with a result whose
detail holds the bytes 0xff 0xfe, which no UTF-8 text contains."""
import sys

from _faux import every, serve

N = int(sys.argv[1]) if len(sys.argv) > 1 else 7
hit = every(N)


def tamper(msg, ans):
    if hit(msg):
        return b'{"seq":%d,"result":{"legal":true,"reason":"ok","detail":"\xff\xfe"}}\n' % msg["seq"]


sys.exit(serve(tamper))
