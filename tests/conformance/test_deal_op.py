"""Issue 19: the `deal` operation, the referee's question on a deal before any declaration — is it a proper
deal of the ruleset, and must the cards be dealt again? Expected values from the rule wording, the clause or
house rule beside each."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from conformance.protocol import messages as protocol
from conformance.protocol.engine import HANDLERS, InputError, judge
from reference_impl.cards import card, full_pack, text
from reference_impl.rules import load_file, rules_for
from tractor_dsl.bundled import default_spec_dir

V05 = default_spec_dir() / "variants" / "v05_kitty_with_cards_removed.tractor"
V82 = default_spec_dir() / "variants" / "v82_redeal_poor_hands.tractor"
POINT_RANKS = ("5", "10", "K")


def _deal(pack: list[int], hand: int, seed: int = 7) -> dict:
    """The cards of ``pack`` shuffled, four hands of ``hand`` cards and the rest the kitty."""
    cards = list(pack)
    random.Random(seed).shuffle(cards)
    return {"level": "2", "hands": [[text(c) for c in cards[i * hand:(i + 1) * hand]] for i in range(4)],
            "kitty": [text(c) for c in cards[4 * hand:]]}


def _whole() -> list[int]:
    return full_pack(2)   # 000:2.1: two 54-card decks, 108 cards


def _without_clubs_3s() -> list[int]:
    pack = full_pack(2)
    pack.remove(card("3", "clubs"))
    pack.remove(card("3", "clubs"))
    return pack          # V05: two decks less the two 3s of clubs, 106 cards


def _poor(inp: dict, seat: int, bad) -> dict:
    """``inp`` with every card of ``seat`` for which ``bad`` holds swapped for one of the kitty's or another
    seat's that it does not hold (the deal stays the same cards)."""
    hands = [list(h) for h in inp["hands"]]
    kitty = list(inp["kitty"])
    places = hands + [kitty]
    spare = [(s, i) for s in range(5) if s != seat for i, c in enumerate(places[s]) if not bad(c)]
    for i, c in enumerate(hands[seat]):
        if bad(c):
            s, j = spare.pop()
            hands[seat][i], places[s][j] = places[s][j], c
    return {**inp, "hands": hands, "kitty": kitty}


def _ask(rules, inp):
    result, clauses = HANDLERS["deal"](rules, inp)
    return protocol.normalize("deal", result), result, clauses


def test_r000_a_proper_deal_of_two_decks_is_proper_and_played():
    # 000:2.1 / 000:2.3: 108 cards, 25 to each of four players, the remaining 8 the kitty; r000 never redeals
    result, clauses = judge("deal", "r000", _deal(_whole(), 25))
    assert protocol.normalize("deal", result) == {"proper": True, "redeal": False, "buries": None}
    assert result["reason"] == "ok" and "equipment.decks" in clauses
    assert protocol.check_answer("deal", protocol.result_answer(1, result)) == "result"
    assert not protocol.schema_errors("deal.result", result)


def test_v05_the_deal_of_the_whole_pack_is_not_proper_but_one_without_the_clubs_3s_is():
    v05 = load_file(V05)
    # V05: two decks without the two 3s of clubs (106 cards), 25 each, a kitty of 6
    got, result, clauses = _ask(v05, _deal(_whole(), 25))
    assert got == {"proper": False, "redeal": False, "buries": None} and result["reason"] == "wrong_kitty_size"
    got, result, _ = _ask(v05, _deal(_without_clubs_3s(), 25))
    assert got == {"proper": True, "redeal": False, "buries": None} and result["reason"] == "ok"
    # and r000, which deals all 108 with a kitty of 8, finds V05's deal improper (a kitty of 6)
    assert _ask(rules_for("r000"), _deal(_without_clubs_3s(), 25))[0] == {"proper": False, "redeal": False, "buries": None}


def test_v05_a_removed_card_dealt_is_not_the_pack():
    v05 = load_file(V05)
    inp = _deal(_without_clubs_3s(), 25)
    inp["hands"][2][0] = "3C"   # a 3 of clubs, which V05 takes out of the pack, in place of another card
    got, result, _ = _ask(v05, inp)
    assert got == {"proper": False, "redeal": False, "buries": None} and result["reason"] == "not_the_pack"
    assert "3C" in result["detail"]


def test_improper_deals_of_r000_are_answered_not_errored():
    r000 = rules_for("r000")
    inp = _deal(_whole(), 25)
    short = {**inp, "kitty": inp["kitty"][:-1]}                       # a kitty card missing: a kitty of 7
    assert _ask(r000, short)[1]["reason"] == "wrong_kitty_size"
    moved = {**inp, "hands": [inp["hands"][0] + inp["kitty"][:1], *inp["hands"][1:]], "kitty": inp["kitty"][1:]}
    assert _ask(r000, moved)[1]["reason"] == "wrong_hand_size"       # 26 cards in seat 0
    missing = json.loads(json.dumps(inp))
    other = next(c for c in missing["hands"][2] if c != missing["hands"][1][0])
    missing["hands"][1][0] = other                                     # a card gone, a third copy of another
    got, result, _ = _ask(r000, missing)
    assert got == {"proper": False, "redeal": False, "buries": None} and result["reason"] == "not_the_pack"
    for bad in (short, moved, missing):
        assert _ask(r000, bad)[0]["proper"] is False


def test_v82_a_hand_without_point_cards_is_dealt_again_and_r000_plays_it():
    v82 = load_file(V82)
    # V82 (deal.redeal_if = [no_points, no_trumps]): a player with no 5, 10 or K -> the cards are dealt again
    inp = _poor(_deal(_whole(), 25), 1, lambda c: c[:-1] in POINT_RANKS)
    assert not any(c[:-1] in POINT_RANKS for c in inp["hands"][1])
    got, result, clauses = _ask(v82, inp)
    assert got == {"proper": True, "redeal": True, "buries": None} and result["reason"] == "no_points"
    assert "deal.redeal" in clauses
    assert _ask(rules_for("r000"), inp)[0] == {"proper": True, "redeal": False, "buries": None}   # 000: every deal is played


def test_v82_a_hand_without_a_card_trump_in_every_suit_is_dealt_again():
    v82 = load_file(V82)
    # at level 2 the cards trump in every suit are the jokers and the 2s (r000 fixes no other rank)
    inp = _poor(_deal(_whole(), 25), 3, lambda c: c in ("J+", "J-") or c[:-1] == "2")
    got, result, _ = _ask(v82, inp)
    assert got == {"proper": True, "redeal": True, "buries": None} and result["reason"] == "no_trumps"
    assert _ask(rules_for("r000"), inp)[0] == {"proper": True, "redeal": False, "buries": None}


def test_v82_an_improper_deal_is_never_dealt_again():
    v82 = load_file(V82)
    inp = _poor(_deal(_whole(), 25), 1, lambda c: c[:-1] in POINT_RANKS)
    inp = {**inp, "kitty": inp["kitty"][:-1]}
    assert _ask(v82, inp)[0] == {"proper": False, "redeal": False, "buries": None}


@pytest.mark.parametrize("inp, words", [
    ({"level": "2", "hands": [[], [], []], "kitty": []}, "four hands"),
    ({"level": "2", "hands": [["5S"], ["1X"], [], []], "kitty": []}, r"hands\[1\]: .1X. is not a card"),
    ({"level": "2", "hands": [[], [], [], []], "kitty": "5S"}, "kitty"),
    ({"level": "2", "hands": [[], [], [], []]}, "kitty"),
    ({"level": "NT", "hands": [[], [], [], []], "kitty": []}, "level"),
    ({"hands": [[], [], [], []], "kitty": []}, "level"),
])
def test_bad_input_is_a_clear_error(inp, words):
    with pytest.raises(InputError, match=words):
        judge("deal", "r000", inp)


def test_tractor_engine_answers_deal_and_lists_it_in_its_handshake():
    inp = _deal(_whole(), 25)
    lines = [{"seq": 0, "op": "handshake", "protocol": 1, "runner": {"name": "test", "version": "0"}},
             {"seq": 1, "op": "deal", "ruleset": "r000", "input": inp},
             {"seq": 2, "op": "deal", "ruleset": "r000", "input": {"level": "2", "hands": [], "kitty": []}},
             {"seq": 3, "op": "shutdown"}]
    proc = subprocess.run([sys.executable, "-m", "tractor_cli.main", "engine"], input="".join(
        json.dumps(x) + "\n" for x in lines), capture_output=True, text=True, timeout=120)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert "deal" in answers[0]["result"]["operations"]
    assert protocol.normalize("deal", answers[1]["result"]) == {"proper": True, "redeal": False, "buries": None}
    assert "four hands" in answers[2]["errored"]["message"] and "Traceback" not in proc.stderr



H24 = default_spec_dir() / "variants" / "h24_redeal_weak_hands.tractor"


@pytest.mark.parametrize("points,trumps,redeal", [
    (["KS", "5S"], ["J+", "J-", "2S", "2H"], "no_points"),      # 15 points: at most 15 (H24)
    (["KS", "5S", "5H"], ["J+", "J-", "2S", "2H"], None),         # 20 points and 4 trumps: it stands
    (["KS", "KH", "10S"], ["J+", "2S", "2H"], "no_trumps"),       # 3 cards trump in every suit: at most 3 (H24)
])
def test_h24_a_weak_hand_is_dealt_again(points, trumps, redeal):
    """H24 (issue 32's list: "a hand of at most 15 points or at most 3 trumps may ask for a new deal"); at level 2
    the 2s and the jokers are the cards trump in every suit. V82 deals again only for none at all."""
    from reference_impl.cards import parse_cards
    from reference_impl.hand import poor_hand
    filler = [f"{r}{s}" for r in ("3", "4", "6", "7", "8", "9") for s in "SHDC"]
    hand = parse_cards(points + trumps + filler[:25 - len(points) - len(trumps)])
    assert poor_hand(load_file(H24), "2", [hand]) == (None if redeal is None else (0, redeal))
    assert poor_hand(load_file(V82), "2", [hand]) is None

