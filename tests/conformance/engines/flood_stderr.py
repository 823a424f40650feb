"""Floods stderr: writes MiB (default 8) of noise to stderr before the handshake and 16 KiB more
with every answer, yet answers every request correctly."""
import sys

from _faux import serve

MIB = int(sys.argv[1]) if len(sys.argv) > 1 else 8
NOISE = b"debug: " + b"x" * 1017 + b"\n"  # 1 KiB


def start():
    err = sys.stderr.buffer
    for _ in range(MIB * 1024):
        err.write(NOISE)
    err.flush()


def tamper(msg, ans):
    sys.stderr.buffer.write(NOISE * 16)
    sys.stderr.buffer.flush()


sys.exit(serve(tamper, on_start=start))
