"""Reasons named in another order, as tonyyunyang/80-fen-shengji's ``followError`` (src/rules.js) names them: a follow
playing fewer pairs of the led suit than min(the lead's pairs, the pairs held in it) is told '有对子时必须跟足对子'
(must_play_pair) before the tractor it lacks is named. Legality is the spec's; the ruleset is r000 (the reference's
answers are taken for it)."""
import sys
from collections import Counter

from _faux import serve
from conformance.protocol import messages as protocol


def pairs(cards) -> int:
    return sum(k // 2 for k in Counter(cards).values())


def tamper(msg, ans):
    if msg.get("op") != "follow" or ans.get("result", {}).get("reason") != "must_play_tractor":
        return None
    from reference_impl.cards import parse_cards
    from reference_impl.rules import rules_for
    from reference_impl.trump import context
    inp = msg["input"]
    ctx = context(rules_for("r000"), inp["level"], inp.get("trump"))
    lead, hand, play = (parse_cards(inp[k]) for k in ("lead", "hand", "play"))
    suit = ctx.suit[lead[0]]
    held = pairs(c for c in hand if ctx.suit[c] == suit)
    if pairs(c for c in play if ctx.suit[c] == suit) < min(pairs(lead), held):
        return protocol.encode({"seq": msg["seq"], "result": {**ans["result"], "reason": "must_play_pair"}})
    return None


sys.exit(serve(tamper))
