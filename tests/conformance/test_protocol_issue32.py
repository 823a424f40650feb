"""Issue 32, the protocol gaps: hand reports the next banker's seat, deal takes the banker and says who buries the
kitty, and a transcript has a place for a hand a fault ends early. Expected values from the clauses beside each."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from conformance.generation.cases import vector_cases
from conformance.protocol import messages as protocol
from conformance.protocol.engine import InputError, judge
from conformance.running.runner import Runner
from reference_impl.cards import full_pack, text

from .conftest import faux


def _deal(banker=None) -> dict:
    cards = list(full_pack(2))                       # 000:2.1: two decks; 000:2.3: 25 cards each, a kitty of 8
    random.Random(3).shuffle(cards)
    inp = {"level": "2", "hands": [[text(c) for c in cards[i * 25:(i + 1) * 25]] for i in range(4)],
           "kitty": [text(c) for c in cards[100:]]}
    if banker is not None:
        inp["banker"] = banker
    return inp


def test_deal_says_the_banker_buries_the_kitty_in_a_later_hand():
    # 000:2.3 the banker takes up the kitty and buries as many cards (kitty.exchange)
    result, clauses = judge("deal", "r000", _deal(banker=3))
    assert result["buries"] == 3 and "kitty.exchange" in clauses
    assert not protocol.schema_errors("deal.result", result)
    assert not protocol.schema_errors("deal.request", protocol.request(1, "deal", "r000", _deal(banker=3)))


def test_deal_of_a_first_hand_names_nobody_who_buries():
    # the first hand's banker is found by declaring (000:2.6), after the deal
    result, _ = judge("deal", "r000", _deal())
    assert result["buries"] is None


def test_deal_with_a_bad_banker_is_a_clear_error():
    with pytest.raises(InputError, match="banker"):
        judge("deal", "r000", _deal(banker=4))


def _hand_case(ruleset: str, kind: str):
    for case in vector_cases(rulesets=[ruleset], ops=["hand"]):
        early = "ended_early" in case["input"]["transcript"]
        if early == (kind == "ended"):
            return case
    raise AssertionError(f"no {kind} hand among {ruleset}'s vectors")


@pytest.mark.parametrize("ruleset", ["r000", "r003"])
def test_hand_reports_the_seat_that_banks_next(ruleset):
    # 000:2.4 / 003:5, reading rotate: the banker's partner when the banker side keeps the bank, the player after
    # the banker when the attackers take it
    case = _hand_case(ruleset, "played")
    t = case["input"]["transcript"]
    result, clauses = judge("hand", ruleset, case["input"])
    offset = 2 if result["next_banker"] == "banker" else 1
    assert result["next_banker_seat"] == (t["banker"] + offset) % 4
    assert "bank.succession" in clauses
    assert case["expected"]["next_banker_seat"] == result["next_banker_seat"]   # the vectors carry the new field


def test_the_seat_tells_r000s_own_alternative_the_banker_keeping_the_bank_himself():
    # 000:2.4, reading same_player: "本方继续坐庄时由庄家本人坐庄" - the side alone cannot tell it from rotate
    from conformance.protocol.engine import HANDLERS
    from tests.interp.rule_variants import variant
    same = variant("r000", "bank.succession", "same_player")
    for case in vector_cases(rulesets=["r000"], ops=["hand"]):
        if case["expected"]["next_banker"] == "banker":
            break
    else:
        raise AssertionError("no hand the banker side keeps among r000's vectors")
    t = case["input"]["transcript"]
    rotate, _ = judge("hand", "r000", case["input"])
    kept, _ = HANDLERS["hand"](same, case["input"])
    assert (rotate["next_banker"], kept["next_banker"]) == ("banker", "banker")
    assert (rotate["next_banker_seat"], kept["next_banker_seat"]) == ((t["banker"] + 2) % 4, t["banker"])


def test_a_hand_ended_early_on_a_revoke_is_the_faults_consequence_in_r001():
    # 001:12.1 藏牌: failing to follow ends the hand (penalty.revoke ends_hand): a banker-side offender's side steps
    # down and the attackers take the stage; an attacker at fault gives the banker side one level
    case = _hand_case("r001", "ended")
    t = case["input"]["transcript"]
    early = t["ended_early"]
    result, clauses = judge("hand", "r001", case["input"])
    banker_side = early["seat"] % 2 == t["banker"] % 2
    assert (result["next_banker"], result["levels"]) == (("attackers", 0) if banker_side else ("banker", 1))
    assert result["ended"]["fault"] == early["fault"] and result["ended"]["trick"] == len(t["tricks"])
    assert f"penalty.{early['fault']}" in clauses
    assert not protocol.schema_errors("hand.request", protocol.request(1, "hand", "r001", case["input"]))
    assert not protocol.schema_errors("hand.result", result)


def test_r000_refuses_a_hand_ended_early_on_a_revoke():
    # 000:2.17b/c: a wrong play is taken back and played again, the hand goes on (penalty.revoke ends_hand false)
    case = _hand_case("r000", "played")
    t = {**case["input"]["transcript"], "tricks": case["input"]["transcript"]["tricks"][:3],
         "ended_early": {"fault": "revoke", "seat": 1, "count": 1}}
    with pytest.raises(InputError, match="does not end the hand"):
        judge("hand", "r000", {"transcript": t})


def test_a_transcript_that_stops_short_without_an_early_end_is_still_refused():
    case = _hand_case("r001", "played")
    t = {**case["input"]["transcript"], "tricks": case["input"]["transcript"]["tricks"][:3]}
    with pytest.raises(InputError, match="still holds"):
        judge("hand", "r001", {"transcript": t})


@pytest.fixture(scope="module")
def new_field_cases():
    return vector_cases(rulesets=["r001"], ops=["hand", "deal"])


def test_an_engine_written_before_the_new_fields_stays_green(new_field_cases):
    """Backward compatibility: an engine that declares no fields and leaves the added ones out is compared on the
    rest; one that sends them wrong fails on them."""
    result = Runner(faux("before_issue_32"), timeout=30.0).run(new_field_cases, rulesets=["r001"])
    assert Counter(o.status for o in result.outcomes) == {"pass": len(new_field_cases)}
    result = Runner(faux("before_issue_32", "wrong"), timeout=30.0).run(new_field_cases, rulesets=["r001"])
    fails = [o for o in result.outcomes if o.status == "fail"]
    assert fails and all("next_banker_seat" in o.message or "buries" in o.message for o in fails)


def test_an_engine_declaring_the_new_field_must_send_it():
    answer = {"seq": 1, "result": {"proper": True, "redeal": False}}
    assert protocol.check_answer("deal", answer) == "result"        # no fields declared: may be left out
    with pytest.raises(protocol.ProtocolError, match="buries"):
        protocol.check_answer("deal", answer, ("proper", "redeal", "buries"))
