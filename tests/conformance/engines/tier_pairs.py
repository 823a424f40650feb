"""A narrow bug: two equal off-suit level cards (7S and 7H at level 7, diamonds trump) are taken for a pair
when a trump pair is led: a follower holding them must play them, and may play them instead of a real pair
(follow)."""
import sys

from _faux import serve
from conformance.protocol import messages as protocol


def _trump(card, level, trump):
    return card in ("J+", "J-") or card[:-1] == level or card[-1] == trump


def _level_pairs(cards, level, trump):
    """The off-suit level cards of ``cards``, when there are two of different suits (the bug's 'pair')."""
    off = sorted({c for c in cards if c[:-1] == level and c[-1] != trump})
    return off if len(off) >= 2 else []


def tamper(msg, ans):
    if msg.get("op") != "follow" or "result" not in ans:
        return None
    inp = msg["input"]
    level, trump, lead, hand, play = inp["level"], inp["trump"], inp["lead"], inp["hand"], inp["play"]
    if len(lead) != 2 or lead[0] != lead[1] or not _trump(lead[0], level, trump) or len(play) != 2:
        return None
    fake = _level_pairs(hand, level, trump)
    if not fake or not all(_trump(c, level, trump) for c in play):
        return None
    real_pair = play[0] == play[1]
    if sorted(set(play)) == sorted(play) and set(play) <= set(fake):   # the 'pair' played: legal to it
        result = {"legal": True, "reason": "ok"}
    elif not real_pair and ans["result"]["legal"]:                     # two other trumps: 'must play the pair'
        result = {"legal": False, "reason": "must_play_pair"}
    else:
        return None
    if result == ans["result"]:
        return None
    return protocol.encode({"seq": msg["seq"], "result": result})


sys.exit(serve(tamper))
