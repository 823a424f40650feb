"""Not-a-number: every request whose seq is a multiple of N (default 7) is answered with a result
holding NaN, -Infinity and 1e999 (which Python reads as infinity): JSON forbids all three."""
import sys

from _faux import every, serve

N = int(sys.argv[1]) if len(sys.argv) > 1 else 7
hit = every(N)


def tamper(msg, ans):
    if hit(msg):
        return (b'{"seq":%d,"result":{"legal":true,"reason":"ok","winner":NaN,"points":-Infinity,'
                b'"kind":"single","levels":1e999}}\n' % msg["seq"])


sys.exit(serve(tamper))
