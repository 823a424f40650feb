"""Whole hands, digested: the speed work on the interpreter and the players changes no hand.

Forty hands of every bundled ruleset, with the heuristic, the random and the default sampling players
(first hands and later ones, equal and unequal levels, some with a journal), are reduced to a digest of their
records (deal, declarations, kitty, every trick, points, result, the clauses consulted) and of the
declaration phase's journal. The digests were taken on the interpreter before the fast paths they guard; a
change of any answer or of any player's choice changes them. A deliberate change of the rules or of a
player's play must give new digests (run this file's ``_digest`` and say why in the commit).
"""
import hashlib
import json
import random

import pytest

from reference_impl.hand import play_hand
from reference_impl.rules import ruleset_names, rules_for
from tractor_play.players import make_players

HANDS = 40

DIGESTS = {
    "r000/heuristic": "4b21e3bb4c0c3864",
    "r000/random": "6d6b8de96fae4dcc",
    "r000/sampling": "97fa099ccb40648b",
    "r000_no_bridge/heuristic": "add565492b588c31",
    "r000_no_bridge/random": "103dba72c10bff2f",
    "r000_no_bridge/sampling": "076d8ebb7bd3fa34",
    "r001/heuristic": "5859890641a71bdb",
    "r001/random": "d5aad7cf60fa433c",
    "r001/sampling": "3de8e92774d5dffd",
    "r001_aa22_top/heuristic": "4b2272379a08c86a",
    "r001_aa22_top/random": "0139d34c433f3852",
    "r001_aa22_top/sampling": "1c200ec2ec827c18",
    "r001_literal/heuristic": "042e560fc37ea91c",
    "r001_literal/random": "4c2fcccd61103bc3",
    "r001_literal/sampling": "08bb5bcc24ff6c9b",
    "r001_powers/heuristic": "694c12b293deacbe",
    "r001_powers/random": "d8cffbf45eedb2fa",
    "r001_powers/sampling": "c24a31da835339ef",
    "r003/heuristic": "8acfe9c3c258b0ec",
    "r003/random": "f0886bec953e06df",
    "r003/sampling": "39d60af279f309ef",
    "r003_capped/heuristic": "dbf23e6fbafb2330",
    "r003_capped/random": "8d54ea563bba8e78",
    "r003_capped/sampling": "8cfa3d327c65a399",
}


def _digest(name: str, kind: str, hands: int = HANDS) -> str:
    rules = rules_for(name)
    start = rules["level.start"]
    h = hashlib.sha256()
    for i in range(hands):
        banker = None if i % 5 == 0 else i % 4
        levels = {0: start, 1: start} if i % 3 else {0: start, 1: "5"}
        players = None if kind == "sampling" else make_players(kind, i)
        journal = [] if i % 4 == 0 else None
        rec = play_hand(rules, random.Random(i), i, levels, banker=banker, players=players, journal=journal)
        h.update(json.dumps([rec.to_json(), rec.clauses, rec.redeals, rec.knocked_back], sort_keys=True).encode())
        if journal is not None:
            h.update(repr([e for e in journal if e[0] in ("declare_options", "declare", "undeclared")]).encode())
    return h.hexdigest()[:16]


@pytest.mark.parametrize("kind", ["heuristic", "random", "sampling"])
@pytest.mark.parametrize("name", ruleset_names())
def test_whole_hands_are_those_of_the_interpreter_before_its_fast_paths(name, kind):
    assert _digest(name, kind) == DIGESTS[f"{name}/{kind}"]
