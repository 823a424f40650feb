"""Throws (甩牌): the check method, the penalty and the forced play of each document."""
import pytest

from reference_impl.leading import judge_lead

from .helpers import cards, ctx


def lead(ruleset, throw, *others, level="9", trump="S"):
    return judge_lead(ctx(ruleset, level, trump), cards(throw), [cards(o) for o in others])


@pytest.mark.parametrize("ruleset, blocked, penalty", [
    ("r000", "QH", 20),            # 000:2.17e components: only the single Q can be beaten; 10 × 2 cards taken back
    ("r001", "KH KH QH", 30),      # 001:9e smallest card QH < another hand's AH; 001:9f 10 × 3 cards thrown
    ("r003", "KH KH QH", 30),      # 003:7.2 judged as singles: every card below the AH is blocked, 10 each
])
def test_throw_kk_q_against_a_single_ace(ruleset, blocked, penalty):
    j = lead(ruleset, "KH KH QH", "AH 3D", "4D 5D", "6D 7D")
    assert not j.value and j.reason == "throw_beaten"
    failure = j.extra["failure"]
    assert sorted(failure.blocked) == sorted(cards(blocked))
    assert failure.penalty == penalty


@pytest.mark.parametrize("ruleset, forced", [
    ("r000", "QH"),  # 000:2.17e 只能打出甩牌中最小牌 (reading smallest_card)
    ("r001", "QH"),  # 001:9f 甩牌中最小牌 ... 必须以单张形式出牌
    ("r003", "QH"),  # 003 forced play: smallest blocked component (reading forced_blocked)
])
def test_forced_play_after_a_failed_throw(ruleset, forced):
    j = lead(ruleset, "KH KH QH", "AH 3D", "4D 5D", "6D 7D")
    assert list(j.extra["failure"].forced) == cards(forced)


def test_001_failed_throw_of_4_5_6_costs_30():  # 001:9f "甩4.5.6三张牌失败，则处罚10*3=30分"
    j = lead("r001", "4H 5H 6H", "7H", "3D", "3C")
    assert j.extra["failure"].penalty == 30
    assert list(j.extra["failure"].forced) == cards("4H")


def test_001_an_equal_card_does_not_block():  # 001:9e "大于等于"
    j = lead("r001", "AH AH KH", "KH 3D", "4D", "5D", level="5")
    assert j.value


def test_000_pair_in_a_throw_is_beaten_only_by_a_higher_pair():  # 000:2.16b every component unbeatable
    assert lead("r000", "KH KH QH", "AH QH", "3D", "4D").value is False   # the AH beats the single QH
    assert lead("r000", "KH KH AH", "AH QH", "3D", "4D").value            # nothing beats KK or A
    assert not lead("r000", "KH KH AH", "AH AH", "3D", "4D").value        # AA beats KK


def test_003_pair_in_a_throw_is_judged_as_singles():  # 003:7.2 以单张牌计算，不比较对牌大小 (003:g5)
    assert not lead("r003", "KH KH AH", "AH QH", "3D", "4D").value


def test_a_single_unit_is_always_a_legal_lead():
    assert lead("r003", "3H 3H", "AH AH AH", "KH", "QH").value


def test_mixed_lead_is_refused():
    j = lead("r003", "3H 3D")
    assert not j.value and j.reason == "mixed_suits"
