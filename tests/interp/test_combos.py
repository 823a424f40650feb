"""Combinations: what a play is, with the source example beside each case."""
import pytest

from reference_impl.combos import classify

from .helpers import cards, ctx


def shape(ruleset, level, trump, text):
    return classify(ctx(ruleset, level, trump), cards(text)).shape()


@pytest.mark.parametrize("ruleset, expected", [
    ("r003", "tractor(pair, 2)"),          # 003:7.3 "6是级牌时，同花色的5577 ... 可以组成拖拉机"
    ("r000", "tractor(pair, 2)"),          # 000:g3 resolved by reading 'bridge'
    ("r000_no_bridge", "throw(pair + pair)"),
    ("r001", "throw(pair + pair)"),        # 001:10.1 "不能隔拖"
])
def test_5577_at_level_6_bridges_the_level_rank(ruleset, expected):
    assert shape(ruleset, "6", "S", "5H 5H 7H 7H") == expected


@pytest.mark.parametrize("ruleset, expected", [
    ("r001", "throw(pair + pair)"),        # 001:10.1 "如果打4，则3355不算拖拉机"
    ("r003", "tractor(pair, 2)"),          # 003:7.3 bridging
])
def test_3355_at_level_4(ruleset, expected):
    assert shape(ruleset, "4", "C", "3H 3H 5H 5H") == expected


def test_88999_is_not_a_tractor_in_003():  # 003:7.3 "如“88999”不是拖拉机"
    combo = classify(ctx("r003", "2", "S"), cards("8H 8H 9H 9H 9H"))
    assert combo.kind == "throw"
    # 003:7.3 calls it 2拖3: a triple and a pair (lead.throw_split keeps the triple whole)
    assert [c.describe() for c in combo.components] == ["triple", "pair"]


def test_222333_is_a_tractor_of_triples_in_003():  # 003:7.3 "222333"
    assert shape("r003", "5", "S", "2H 2H 2H 3H 3H 3H") == "tractor(triple, 2)"


@pytest.mark.parametrize("text", [
    "J- J- 6S 6S",   # 003:7.3 小王主6
    "6S 6S 6H 6H",   # 003:7.3 主6副6
    "6H 6H AS AS",   # 003:7.3 副6主A
])
def test_003_trump_junctions_at_level_6(text):
    assert shape("r003", "6", "S", text) == "tractor(pair, 2)"


@pytest.mark.parametrize("text, expected", [
    ("J+ J+ J- J-", "tractor(pair, 2)"),   # 000:2.10 大王与小王
    ("J- J- 6S 6S", "tractor(pair, 2)"),   # 000:2.10 小王与主牌花色(级牌)
    ("6S 6S 6H 6H", "tractor(pair, 2)"),   # 000:2.10 同级主牌花色与副牌花色
    ("6H 6H AS AS", "throw(pair + pair)"), # 000:g4 resolved 'as_listed': off-suit level + trump A does not chain
])
def test_000_trump_junctions_at_level_6(text, expected):
    assert shape("r000", "6", "S", text) == expected


def test_two_off_suit_level_pairs_never_chain():  # off-suit level cards are equal, not adjacent (000:2.10, 003:7.3)
    assert shape("r003", "6", "S", "6H 6H 6D 6D") == "throw(pair + pair)"


@pytest.mark.parametrize("ruleset", ["r000", "r003"])
def test_level_cards_do_not_chain_with_side_cards_of_their_suit(ruleset):
    # 000:2.13 / 003:7.3 "级牌不能与相同花色的副牌构成拖拉机": level 5, spades trump: 5H is trump, 4H is a side card
    combo = classify(ctx(ruleset, "5", "S"), cards("4H 4H 5H 5H"))
    assert combo.kind == "mixed"


def test_001_heart_2233_at_level_3_is_a_tractor():
    # 001:10.1 "打3点，主牌为梅花，红桃2233" — by face rank within a suit (001:g8)
    assert shape("r001", "3", "C", "2H 2H 3H 3H") == "tractor(pair, 2)"
    assert shape("r001", "3", "C", "2C 2C 3C 3C") == "tractor(pair, 2)"


def test_001_aa22_is_a_tractor_of_the_trump_suit():  # 001:10.1 "AA22为最小" (001:g7)
    c = ctx("r001", "5", "C")
    combo = classify(c, cards("AC AC 2C 2C"))
    assert combo.kind == "tractor"
    kk = classify(c, cards("3C 3C 4C 4C"))
    assert combo.largest.key < kk.largest.key  # reading 'lowest': below every other tractor


def test_001_aa22_by_top_card_variant_ranks_by_the_2():
    c = ctx("r001_aa22_top", "5", "C")
    assert classify(c, cards("AC AC 2C 2C")).largest.key > classify(c, cards("KC KC AC AC")).largest.key


def test_single_pair_triple():
    c = ctx("r003", "2", "S")
    assert classify(c, cards("9H")).kind == "single"
    assert classify(c, cards("9H 9H")).kind == "pair"
    assert classify(c, cards("9H 9H 9H")).kind == "triple"
    assert classify(c, cards("9H 10H")).kind == "throw"


def test_throw_split_prefers_the_tractor_of_triples():
    # the throw-split interpretation (lead.throw_split): 777888 99 is a triple tractor and a pair
    combo = classify(ctx("r003", "2", "S"), cards("7H 7H 7H 8H 8H 8H 9H 9H"))
    assert [c.describe() for c in combo.components] == ["tractor(triple, 2)", "pair"]


def test_mixed_suits_are_not_a_combination():
    assert classify(ctx("r003", "2", "S"), cards("9H 9D")).kind == "mixed"
