"""Trick winners: source examples, parametrised over rulesets where they differ."""
import pytest

from reference_impl.trick import judge_trick

from .helpers import cards, ctx


def winner(ruleset, level, trump, *plays):
    return judge_trick(ctx(ruleset, level, trump), [cards(p) for p in plays])


@pytest.mark.parametrize("ruleset", ["r001", "r003"])
def test_tractor_of_triples_beats_tractor_of_pairs_of_equal_size(ruleset):
    # 001:10.2 "AAKKQQ对999888，则999888拖拉机为大"; 003:7.3 "222333可以打QQKKAA"
    j = winner(ruleset, "5", "S", "QH QH KH KH AH AH", "9H 9H 9H 8H 8H 8H", "3H 4H 6H 7H 8H 10H", "2D 3D 4D 6D 7D 8D")
    assert j.value == 1
    assert "tractor.shape" in j.clauses or any("compare" in c or "tractor" in c for c in j.clauses)


def test_001_first_played_of_equal_tractors_wins():
    # 001:10.1 "打3点，主牌为梅花，红桃2233先出比后出的黑桃2233大"
    j = winner("r001", "3", "C", "2H 2H 3H 3H", "2S 2S 3S 3S", "2D 2D 3D 3D", "4D 4D 5D 5D")
    assert j.value == 0


def test_001_no_off_suit_2233_beats_the_trump_suit_2233():
    # 001:10.1 "但黑桃、红桃、方块2233不比正主梅花2233大"
    j = winner("r001", "3", "C", "2H 2H 3H 3H", "2S 2S 3S 3S", "2C 2C 3C 3C", "4D 4D 5D 5D")
    assert j.value == 2


@pytest.mark.parametrize("ruleset", ["r000", "r003"])
def test_a_ruff_without_pairs_does_not_beat_a_led_pair(ruleset):
    # 000:2.12 "包含对的副牌，其它方即使全出了主牌，但没有对也不算大"; 003:7.1
    j = winner(ruleset, "2", "S", "9H 9H", "3S 4S", "10H JH", "5H 6H")
    assert j.value == 0
    j = winner(ruleset, "2", "S", "9H 9H", "3S 3S", "10H JH", "5H 6H")
    assert j.value == 1


@pytest.mark.parametrize("ruleset", ["r000", "r001", "r003"])
def test_higher_ruff_beats_lower_ruff(ruleset):
    j = winner(ruleset, "7", "S", "9H", "3S", "AS", "5H")
    assert j.value == 2


def test_001_any_trump_pair_beats_any_side_pair():  # 001:5.3
    j = winner("r001", "5", "S", "AH AH", "3S 3S", "KH KH", "QH QH")
    assert j.value == 1


def test_equal_off_suit_level_cards_first_played_wins():  # 001:5.1 "其他三个花色的X先出为大"
    j = winner("r001", "9", "S", "9H", "9D", "9C", "8H")
    assert j.value == 0


def test_trick_points_count_5_10_K():  # 000:2.2, 001:7
    j = winner("r003", "2", "S", "5H", "10H", "KH", "AH")
    assert j.extra["points"] == 25
    assert j.value == 3


@pytest.mark.parametrize("ruleset", ["r000", "r003"])
def test_ruff_of_a_throw_needs_the_same_structure(ruleset):
    # 000:2.16e / 003:7.5: to win by trumping a lead containing pairs, the ruff needs as many pairs
    lead = "AH AH KH"            # an unbeatable throw: pair + single
    j = winner(ruleset, "2", "S", lead, "3S 4S 5S", "QH JH 10H", "9H 8H 7H")
    assert j.value == 0
    j = winner(ruleset, "2", "S", lead, "3S 3S 5S", "QH JH 10H", "9H 8H 7H")
    assert j.value == 1


def test_003_among_ruffs_the_higher_pair_wins():  # 003:7.5 "在“枪毙”时以“对牌”大的为最大"
    j = winner("r003", "2", "S", "AH AH KH", "3S 3S AS", "4S 4S 5S", "9H 8H 7H")
    assert j.value == 2
