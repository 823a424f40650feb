#!/usr/bin/env python3
"""A toy Tractor engine behind the engine protocol (docs/protocol.md), in plain Python.

It hard-codes no rule: it reads a ruleset's export (``tractor export R``,
the format of conformance/protocol/schemas/export.json) and configures itself from it --
the level list, the must-play levels and the end level, the score bands and
cap, the ranks that are always trump. It answers three operations:

* ``result``   -- attackers' points -> who banks next and how many levels (score bands, cap);
* ``advance``  -- a team's level + a gain -> the level reached, game won? (level ranks, must-play, end);
* ``classify`` -- singles and pairs only (trump: jokers, level cards, fixed ranks, the trump suit);
  anything bigger is ``skipped``.

Every other operation is left out of the handshake, so the runner does not send it:

    tractor export r003 -o r003.json
    tractor conform --engine "python examples/python/toy_engine.py r003.json" --ruleset r003 --ops result,advance

Without an argument it reads the export named by $TOY_ENGINE_EXPORT. Set
TOY_ENGINE_BUG=1 to plant a bug (the threshold band starts 5 points late).
"""
import json
import os
import sys


class Rules:
    """What the engine needs of a ruleset, read from its export."""

    def __init__(self, export):
        setting = {name: s["value"] for name, s in export["settings"].items()}
        self.name = export["ruleset"]["name"]
        self.levels = setting["level.ranks"]              # e.g. 2..A, or 3..K
        self.must_play = setting["level.must_play"]       # 必打: a climb stops there
        self.end = setting["level.end"]                   # passing it wins the game (None: no end)
        self.fixed = setting["trump.fixed_ranks"]         # ranks that are always trump (e.g. 2s)
        self.cap = setting["score.cap"]                   # most levels either side gains in a hand
        self.bands = export["bands"]["rows"]              # the score table
        if os.environ.get("TOY_ENGINE_BUG"):
            threshold = setting["score.threshold"]
            for b in self.bands:                          # planted bug: the threshold moves up 5 points
                if b["low"] == threshold:
                    b["low"] += 5
                elif b["high"] == threshold - 5:
                    b["high"] += 5


def result(rules, inp):
    """The score band the attackers' points fall in, its step, then the cap."""
    points = inp["attackers_points"]
    if type(points) is not int:
        raise ValueError("attackers_points: expected an integer")
    for b in rules.bands:
        if (b["low"] is None or b["low"] <= points) and (b["high"] is None or points <= b["high"]):
            levels = b["levels"]
            if b["step"] and b["low"] is not None and points > b["low"]:
                levels += (points - b["low"]) // b["step"]
            if rules.cap is not None:
                levels = min(levels, rules.cap)
            return {"next_banker": b["side"], "levels": levels}
    raise ValueError(f"no score band holds {points} points")


def advance(rules, inp):
    level, gain, as_banker = inp["level"], inp["gain"], inp["as_banker"]
    levels = rules.levels
    if level not in levels or type(gain) is not int or gain < 0:
        raise ValueError(f"expected a level of {rules.name} and a gain >= 0")
    here = levels.index(level)
    if gain == 0:
        return {"level": level, "won": False}
    target = here + gain
    for must in sorted(levels.index(m) for m in rules.must_play):
        if here < must < target:                     # a must-play level stops the climb
            return {"level": levels[must], "won": False}
    if rules.end is None:
        return {"level": levels[min(target, len(levels) - 1)], "won": False}
    end = levels.index(rules.end)
    if target > end:
        if rules.end in rules.must_play and here == end and not as_banker:
            return {"level": rules.end, "won": False}  # a must-play end is passed only as banker
        return {"level": rules.end, "won": True}
    return {"level": levels[target], "won": False}


def effective_suit(rules, card, level, trump):
    if card in ("J+", "J-"):
        return "trump"                               # jokers
    rank, suit = card[:-1], card[-1]
    if rank == level or rank in rules.fixed or suit == trump:
        return "trump"                               # level cards, fixed ranks, the trump suit
    return suit


def classify(rules, inp):
    cards, level, trump = inp["cards"], inp["level"], inp["trump"]
    if len(cards) == 1:
        kind = "single"
    elif len(cards) == 2 and cards[0] == cards[1]:
        kind = "pair"
    else:
        return None                                  # tractors, throws, ...: not implemented
    return {"kind": kind, "suit": effective_suit(rules, cards[0], level, trump),
            "components": [{"kind": kind, "size": len(cards), "length": 1, "cards": cards}]}


OPERATIONS = {"result": result, "advance": advance, "classify": classify}


def answer(rules, req):
    seq, op = req.get("seq", 0), req.get("op")
    if op == "handshake":
        return {"seq": seq, "result": {"protocol": 1, "name": "toy-python", "version": "0.2",
                                       "language": "Python", "rulesets": [rules.name],
                                       "operations": sorted(OPERATIONS)}}
    if op == "shutdown":
        return {"seq": seq, "result": {}}
    if op not in OPERATIONS or req.get("ruleset") != rules.name:
        return {"seq": seq, "skipped": {"reason": f"the toy engine does not do {op} under {req.get('ruleset')}"}}
    try:
        out = OPERATIONS[op](rules, req["input"])
    except (KeyError, TypeError, ValueError) as e:
        return {"seq": seq, "errored": {"message": f"{e.__class__.__name__}: {e}"}}
    if out is None:
        return {"seq": seq, "skipped": {"reason": "the toy engine only classifies singles and pairs"}}
    return {"seq": seq, "result": out}


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TOY_ENGINE_EXPORT")
    if not path:
        sys.exit("usage: toy_engine.py EXPORT.json (from: tractor export R -o EXPORT.json)")
    with open(path, encoding="utf-8") as f:
        rules = Rules(json.load(f))
    for line in sys.stdin:                           # one request per line, answered at once
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except ValueError as e:
            print(json.dumps({"seq": 0, "errored": {"message": f"invalid JSON: {e}"}}), flush=True)
            continue
        print(json.dumps(answer(rules, req)), flush=True)
        if req.get("op") == "shutdown":
            break


if __name__ == "__main__":
    main()
