#!/usr/bin/env python3
"""A minimal engine for `tractor conform`: the handshake, the dispatch, and `skipped` for every operation.

Start here: it speaks the whole protocol (docs/protocol.md) and judges nothing. Run it,

    tractor conform --engine "python3 examples/skeleton/engine.py" --ruleset r000

and every case is reported skipped, none errored. Then replace the handlers one operation at a time
(docs/guide.rst, "From the skeleton to green"): a handler returns the result object of its operation, or
raises NotImplementedError to answer `skipped`. Only the standard library is used.
"""
import json
import sys

NAME, VERSION = "my-engine", "0.1"
RULESETS = ["r000"]          # the rulesets you answer (["*"] for any)


def not_yet(inp):
    raise NotImplementedError


# operation -> handler(input) -> result; each of these answers `skipped` until you write it
HANDLERS = {
    "classify": not_yet,     # {kind, suit, components}
    "lead": not_yet,         # {legal, reason[, failure]}
    "follow": not_yet,       # {legal, reason}
    "winner": not_yet,       # {winner, points}
    "kitty": not_yet,        # {points}
    "result": not_yet,       # {next_banker, levels}
    "advance": not_yet,      # {level, won}
    "declare": not_yet,      # {legal, reason, trump, declarer, banker}
    "undeclared": not_yet,   # {redeal, trump, banker_side, level}
    "hand": not_yet,         # {attackers_points, next_banker, levels[, knocked_back], next_banker_seat}
    "penalty": not_yet,      # {points, ends_hand, consequence, next_banker, levels}
    "deal": not_yet,         # {proper, redeal, buries}
}


def answer(req):
    seq, op = req.get("seq"), req.get("op")
    if op == "handshake":
        return {"seq": seq, "result": {"protocol": 1, "name": NAME, "version": VERSION, "language": "Python",
                                       "rulesets": RULESETS, "operations": list(HANDLERS)}}
    if op == "shutdown":
        return {"seq": seq, "result": {}}
    handler = HANDLERS.get(op)
    if handler is None:
        return {"seq": seq, "errored": {"message": f"unknown operation {op!r}"}}
    try:
        return {"seq": seq, "result": handler(req["input"])}
    except NotImplementedError:
        return {"seq": seq, "skipped": {"reason": f"{op} is not implemented yet"}}
    except Exception as e:   # a bug of the engine: say so, and keep serving
        return {"seq": seq, "errored": {"message": f"{type(e).__name__}: {e}"}}


def main():
    for line in sys.stdin:          # one request per line, one answer per line, in order
        if not line.strip():
            continue
        req = json.loads(line)
        print(json.dumps(answer(req)), flush=True)   # stdout carries answers only: log to stderr
        if req.get("op") == "shutdown":
            return


if __name__ == "__main__":
    main()
