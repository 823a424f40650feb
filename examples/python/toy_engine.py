#!/usr/bin/env python3
"""A toy Tractor engine behind the engine protocol (docs/protocol.md), in plain Python.

It knows a little of ruleset r003 by heart -- its own score table and level
list, not the project's code -- and answers three operations:

* ``result``   -- attackers' points -> who banks next and how many levels;
* ``advance``  -- a team's level + a gain -> the level reached, game won?;
* ``classify`` -- singles and pairs only; anything bigger is ``skipped``.

Every other operation is answered ``skipped`` (and left out of the handshake,
so the runner does not even send it). Run it through the conformance suite:

    tractor conform --engine "python examples/python/toy_engine.py" --ruleset r003 --ops result,advance

Set TOY_ENGINE_BUG=1 to plant a bug (120 points no longer take the stage),
to see what a disagreement looks like.
"""
import json
import os
import sys

LEVELS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
MUST_PLAY = {"A"}          # 必打: a climb stops here; passing it needs a gain as banker
END = "A"                  # passing A wins the game
THRESHOLD = 125 if os.environ.get("TOY_ENGINE_BUG") else 120   # 上台: attackers take the bank
BOTTOM = 4                 # the lowest band (25 points or fewer) gives the banker side +4


def result(inp):
    """r003 score table: 30-point steps either side of 120, no cap (the lowest band, 25 or fewer, +4)."""
    points = inp["attackers_points"]
    if type(points) is not int:
        raise ValueError("attackers_points: expected an integer")
    if points < THRESHOLD:                       # the banker side keeps the bank
        levels = min(BOTTOM, (THRESHOLD - 1 - points) // 30 + 1)
        return {"next_banker": "banker", "levels": levels}
    levels = (points - THRESHOLD) // 30          # 120..145: +0, 150..175: +1, ...
    return {"next_banker": "attackers", "levels": levels}


def advance(inp):
    level, gain, as_banker = inp["level"], inp["gain"], inp["as_banker"]
    if level not in LEVELS or type(gain) is not int or gain < 0:
        raise ValueError("expected a level 2..A and a gain >= 0")
    here = LEVELS.index(level)
    if gain == 0:
        return {"level": level, "won": False}
    target = here + gain
    for must in sorted(LEVELS.index(m) for m in MUST_PLAY):
        if here < must < target:                 # a must-play level stops the climb
            return {"level": LEVELS[must], "won": False}
    end = LEVELS.index(END)
    if target > end:
        if END in MUST_PLAY and here == end and not as_banker:
            return {"level": END, "won": False}  # A is passed only as banker
        return {"level": END, "won": True}
    return {"level": LEVELS[target], "won": False}


def effective_suit(card, level, trump):
    if card.startswith("J") and card[1] in "+-":
        return "trump"                           # jokers
    rank, suit = card[:-1], card[-1]
    if rank == level or suit == trump:
        return "trump"                           # level cards and the trump suit
    return suit


def classify(inp):
    cards, level, trump = inp["cards"], inp["level"], inp["trump"]
    if len(cards) == 1:
        kind = "single"
    elif len(cards) == 2 and cards[0] == cards[1]:
        kind = "pair"
    else:
        return None                              # tractors, throws, ...: not implemented
    return {"kind": kind, "suit": effective_suit(cards[0], level, trump),
            "components": [{"kind": kind, "size": len(cards), "length": 1, "cards": cards}]}


OPERATIONS = {"result": result, "advance": advance, "classify": classify}


def answer(req):
    seq, op = req.get("seq", 0), req.get("op")
    if op == "handshake":
        return {"seq": seq, "result": {"protocol": 1, "name": "toy-python", "version": "0.1",
                                       "language": "Python", "rulesets": ["r003"],
                                       "operations": sorted(OPERATIONS)}}
    if op == "shutdown":
        return {"seq": seq, "result": {}}
    if op not in OPERATIONS or req.get("ruleset") != "r003":
        return {"seq": seq, "skipped": {"reason": f"the toy engine does not do {op} under {req.get('ruleset')}"}}
    try:
        out = OPERATIONS[op](req["input"])
    except (KeyError, TypeError, ValueError) as e:
        return {"seq": seq, "errored": {"message": f"{e.__class__.__name__}: {e}"}}
    if out is None:
        return {"seq": seq, "skipped": {"reason": "the toy engine only classifies singles and pairs"}}
    return {"seq": seq, "result": out}


def main():
    for line in sys.stdin:                       # one request per line, answered at once
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except ValueError as e:
            print(json.dumps({"seq": 0, "errored": {"message": f"invalid JSON: {e}"}}), flush=True)
            continue
        print(json.dumps(answer(req)), flush=True)
        if req.get("op") == "shutdown":
            break


if __name__ == "__main__":
    main()
