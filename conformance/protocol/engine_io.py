"""``tractor engine``'s input and output: request lines in, answer lines out.

:func:`answer` turns one decoded request into one answer; :func:`respond` one
request line into one answer line, whatever the line holds; :func:`serve`
runs the loop over stdin/stdout and never exits on a request: a line that is
too long, not UTF-8, not JSON, nested too deep or holding too many cards is
answered ``errored`` (with its ``seq`` when one can be read, and
``context.code`` naming the limit), and every answer is valid UTF-8 JSON.
The judging itself is :func:`conformance.protocol.engine.judge`.
"""
from __future__ import annotations

import gc
import json
import os
import sys
from typing import Any

from tractor_dsl import limits

from conformance.protocol import jsonlines
from conformance.protocol import messages as protocol
from conformance.protocol.engine import HANDLERS, InputError, handshake_result, judge, supported_operations

def answer(msg: Any, supported: frozenset | None = None) -> dict:
    """The answer to one decoded request (never raises)."""
    seq = msg.get("seq") if isinstance(msg, dict) else None
    if type(seq) is not int or seq < 0:
        return protocol.errored_answer(0, "the request has no valid seq", {"request": _short(msg)})
    op = msg.get("op")
    if op == "handshake":
        return protocol.result_answer(seq, handshake_result())
    if op == "shutdown":
        return protocol.result_answer(seq, {})
    if not isinstance(op, str) or op not in HANDLERS:
        return protocol.errored_answer(seq, f"unknown operation {_repr(op)}")
    if supported is None:
        supported = frozenset(supported_operations())
    if op not in supported:
        return protocol.skipped_answer(seq, f"the reference interpreter does not implement {op} yet")
    try:
        result, clauses = judge(op, msg.get("ruleset"), msg.get("input"))
    except InputError as e:
        return protocol.errored_answer(seq, str(e), {"op": op, "input": _short(msg.get("input"))})
    except Exception as e:  # an interpreter bug: report it, keep serving
        return protocol.errored_answer(seq, f"internal error: {e.__class__.__name__}: {e}",
                                       {"op": op, "input": _short(msg.get("input"))})
    result["clauses"] = list(clauses)
    return protocol.result_answer(seq, result)


def _short(v: Any, limit: int = 2000) -> Any:
    s = json.dumps(v, ensure_ascii=False, default=str)
    return v if len(s) <= limit else s[:limit] + "…"


def _repr(v: Any, limit: int = 100) -> str:
    s = repr(v)
    return s if len(s) <= limit else s[:limit] + "…"


def count_cards(msg: Any) -> int:
    """The strings inside lists of a request (its card tokens, and a bound on them), without recursion."""
    total = 0
    stack = [msg]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            for x in v:
                if isinstance(x, str):
                    total += 1
                elif isinstance(x, (list, dict)):
                    stack.append(x)
        elif isinstance(v, dict):
            stack.extend(x for x in v.values() if isinstance(x, (list, dict)))
    return total


def _refused(seq: int | None, message: str, code: str) -> dict:
    return protocol.errored_answer(seq if seq is not None else 0, message, {"code": code})


def respond(item: tuple, supported: frozenset | None = None) -> tuple[bytes, bool]:
    """One request line (a :class:`~conformance.protocol.jsonlines.LineSplitter` item) to one answer line,
    and whether it was a shutdown. Never raises: whatever goes wrong is an ``errored`` answer."""
    seq = None
    try:
        if item[0] == "oversized":
            seq = jsonlines.read_seq(item[2])
            return jsonlines.encode(_refused(
                seq, f"the request is a line of {item[1]} bytes; the limit is {limits.LINE_BYTES}",
                "line_too_long")), False
        raw = item[1]
        try:
            msg = jsonlines.decode(raw)
        except jsonlines.BadMessage as e:
            seq = jsonlines.read_seq(raw)
            what = "invalid JSON" if e.kind != "too_deep" else "too deep"
            return jsonlines.encode(_refused(seq, f"{what}: {e}", e.kind)), False
        if isinstance(msg, dict) and type(msg.get("seq")) is int and msg["seq"] >= 0:
            seq = msg["seq"]
        if raw.count(b'"') > 2 * limits.CARDS_PER_REQUEST:
            cards = count_cards(msg)
            if cards > limits.CARDS_PER_REQUEST:
                return jsonlines.encode(_refused(
                    seq, f"the request holds {cards} card tokens; the limit is {limits.CARDS_PER_REQUEST}",
                    "too_many_cards")), False
        shutdown = isinstance(msg, dict) and msg.get("op") == "shutdown"
        reply = answer(msg, supported)
        # a result is the engine's own (no float); an errored answer may echo the input, floats and all
        return (jsonlines.encode_result(reply) if "result" in reply else jsonlines.encode(reply)), shutdown
    except Exception as e:  # an engine bug: an answer all the same, and the loop goes on
        return jsonlines.encode(_refused(seq, f"internal error: {e.__class__.__name__}: {_repr(str(e), 300)}",
                                         "internal_error")), False


def serve(fd_in: int | None = None, out=None) -> int:
    """Answer requests from ``fd_in`` (default stdin) on ``out`` (default stdout) until EOF or shutdown.

    Input is read in chunks and split into lines in linear time, never more
    than :data:`~tractor_dsl.limits.LINE_BYTES` of one line held; every
    complete line in a chunk is answered and the answers are written
    together, so a pipelining runner is served with one write per chunk
    rather than one per answer. A last line without its newline is answered too.
    """
    fd_in = sys.stdin.fileno() if fd_in is None else fd_in
    out = sys.stdout.buffer if out is None else out
    supported = frozenset(supported_operations())
    # The collector's young generation is collected every 10,000 allocations rather than 700, and what
    # the first answers loaded (the checked library, the modules) is set aside from collections: each
    # request makes many short-lived objects and almost no cycles (about 6 % of an engine's time).
    # Both are undone on return, for a process that serves in-process.
    threshold, frozen_before = gc.get_threshold(), gc.get_freeze_count()
    gc.set_threshold(10000, *threshold[1:])
    try:
        return _serve(fd_in, out, supported)
    finally:
        if not frozen_before:  # a caller's own frozen objects stay frozen
            gc.unfreeze()
        gc.set_threshold(*threshold)


def _serve(fd_in: int, out, supported: frozenset) -> int:
    splitter = jsonlines.LineSplitter(limits.LINE_BYTES, keep_head=True)
    frozen = False
    while True:
        try:
            chunk = os.read(fd_in, 1 << 16)
        except InterruptedError:
            continue
        if chunk:
            splitter.feed(chunk)
        else:
            splitter.close()
        answers = []
        stop = False
        while splitter.lines:
            data, stop = respond(splitter.lines.popleft(), supported)
            answers.append(data)
            if stop:
                break
        if answers:
            out.write(b"".join(answers))
            out.flush()
            if not frozen:
                gc.freeze()
                frozen = True
        if stop or not chunk:
            break
    return 0
