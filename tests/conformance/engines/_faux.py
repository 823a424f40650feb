"""Shared loop of the broken test engines ("fauxmplementations").

Each engine answers like the reference engine except where its ``tamper``
hook says otherwise. ``every(n)`` picks the requests to break by sequence
number, which the runner keeps counting across restarts, so a broken engine
breaks on the same requests however often it is restarted.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))

from conformance.protocol import engine
from conformance.protocol import engine_io
from conformance.protocol import messages as protocol# noqa: E402


def every(n: int, offset: int = 0):
    return lambda msg: isinstance(msg.get("seq"), int) and msg["seq"] % n == offset


def serve(tamper=None, on_handshake=None, on_start=None):
    """Answer requests line by line; ``tamper(msg, answer)`` may return the bytes to write instead."""
    if on_start:
        on_start()
    supported = frozenset(engine.supported_operations())
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if not line.strip():
            continue
        msg = json.loads(line)
        ans = engine_io.answer(msg, supported)
        op = msg.get("op")
        data = None
        if op == "handshake":
            if on_handshake:
                data = on_handshake(msg, ans)
        elif op != "shutdown" and tamper:
            data = tamper(msg, ans)
        out.write(data if data is not None else protocol.encode(ans))
        out.flush()
        if op == "shutdown":
            break
    return 0
