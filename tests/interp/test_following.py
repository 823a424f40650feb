"""Following: the follow orders of 001:9a–9d and 003:7.1/7.4, suit obligations, reason codes.

Hearts are a side suit throughout (level 2 or 9, spades trump); each holding
is built so that one entry of the ladder is the first the follower can play.
"""
import pytest

from reference_impl.following import judge_follow

from .helpers import cards, ctx

TRIPLE_TRACTOR = "8H 8H 8H 9H 9H 9H"


def follow(ruleset, lead, hand, play, level="J", trump="S"):
    return judge_follow(ctx(ruleset, level, trump), cards(lead), cards(hand), cards(play))


# (holding, a play meeting the deciding entry, a play that does not, the reason it fails)
LADDER_003_7_4 = [
    ("3H 3H 3H 4H 4H 4H 6H", "3H 3H 3H 4H 4H 4H", "3H 3H 3H 4H 4H 6H", "must_play_tractor"),   # 1) 3拖3
    ("3H 3H 3H 5H 5H 5H 7H", "3H 3H 3H 5H 5H 5H", "3H 3H 3H 5H 5H 7H", "must_play_triple"),    # 2) 两幅三张
    ("3H 3H 4H 4H 6H 6H 7H", "3H 3H 4H 4H 6H 6H", "3H 3H 4H 4H 6H 7H", "must_play_pair"),      # 3) 拖拉机+一对
    ("3H 3H 5H 5H 7H 7H 10H", "3H 3H 5H 5H 7H 7H", "3H 3H 5H 5H 7H 10H", "must_play_pair"),    # 4) 三对
    ("3H 3H 3H 5H 5H 7H 10H", "3H 3H 3H 5H 5H 7H", "3H 3H 5H 5H 7H 10H", "must_play_triple"),  # 5) 三张+一对+一单
    ("3H 3H 5H 5H 7H 10H QH", "3H 3H 5H 5H 7H 10H", "3H 3H 5H 7H 10H QH", "must_play_pair"),   # 6) 两对+两单
    ("3H 3H 3H 5H 7H 10H QH", "3H 3H 3H 5H 7H 10H", "3H 3H 5H 7H 10H QH", "must_play_triple"), # 7) 三张+三单
    ("3H 3H 5H 7H 10H QH KH", "3H 3H 5H 7H 10H QH", "3H 5H 7H 10H QH KH", "must_play_pair"),   # 8) 一对+四单
]


@pytest.mark.parametrize("holding, good, bad, reason", LADDER_003_7_4)
def test_003_7_4_two_triple_tractor_follow_order(holding, good, bad, reason):
    hand = holding + " 2D 3D"
    assert follow("r003", TRIPLE_TRACTOR, hand, good).value
    j = follow("r003", TRIPLE_TRACTOR, hand, bad)
    assert not j.value and j.reason == reason
    assert "follow.triple_tractor" in j.clauses


def test_003_and_001_differ_on_three_pairs_versus_triple_pair_single():
    # 001:9d puts 三条+一对+一张 before 三对; 003:7.4 puts 三对 (4) before 三张+一对+一单张 (5)
    hand = "3H 3H 3H 5H 5H 7H 7H 2D"
    triple_pair_single = "3H 3H 3H 5H 5H 7H"
    three_pairs = "3H 3H 5H 5H 7H 7H"
    assert follow("r001", TRIPLE_TRACTOR, hand, triple_pair_single).value
    assert follow("r001", TRIPLE_TRACTOR, hand, three_pairs).reason == "must_play_triple"
    assert follow("r003", TRIPLE_TRACTOR, hand, three_pairs).value
    assert follow("r003", TRIPLE_TRACTOR, hand, triple_pair_single).reason == "must_play_pair"


@pytest.mark.parametrize("ruleset", ["r001", "r003"])
@pytest.mark.parametrize("holding, good, bad, reason", [
    ("4H 4H 4H 6H", "4H 4H 4H", "4H 4H 6H", "must_play_triple"),   # 三条
    ("4H 4H 6H 7H", "4H 4H 6H", "4H 6H 7H", "must_play_pair"),      # 一对+一张
])
def test_triple_led_001_9a_003_7_1(ruleset, holding, good, bad, reason):
    j = follow(ruleset, "9H 9H 9H", holding + " 2D", bad)
    assert not j.value and j.reason == reason
    assert follow(ruleset, "9H 9H 9H", holding + " 2D", good).value


@pytest.mark.parametrize("ruleset", ["r001", "r003"])
def test_a_triple_must_be_broken_to_follow_a_pair(ruleset):
    # 003:7.1 "如果有同花色的三张牌时必须拆开跟对牌"; 001 reading 'break'
    assert follow(ruleset, "9H 9H", "4H 4H 4H 6H 2D", "4H 4H").value
    j = follow(ruleset, "9H 9H", "4H 4H 4H 6H 2D", "4H 6H")
    assert not j.value and j.reason == "must_play_pair"


@pytest.mark.parametrize("ruleset, legal", [
    ("r001_literal", True),   # 001:9b literal: 拖拉机/二对/三条+一张/四张散牌 — one pair may be withheld
    ("r001", False),          # 001:12.1 有对不出对 is a revoke: 一对+两张散牌 comes before four singles (001:g3)
])
def test_001_9b_literal_and_completed(ruleset, legal):
    j = follow(ruleset, "8H 8H 9H 9H", "3H 3H 5H 7H 10H 2D", "3H 5H 7H 10H")
    assert bool(j.value) is legal
    if not legal:
        assert j.reason == "must_play_pair"


def test_001_9b_triple_and_single_before_singles():
    # 001:9b 三条+一张散牌: holding a triple and no two pairs
    j = follow("r001", "8H 8H 9H 9H", "3H 3H 3H 5H 7H 2D", "3H 3H 5H 7H")
    assert not j.value and j.reason == "must_play_triple"
    assert follow("r001", "8H 8H 9H 9H", "3H 3H 3H 5H 7H 2D", "3H 3H 3H 5H").value


@pytest.mark.parametrize("ruleset, reason", [
    ("r001_literal", "must_play_triple"),       # 001:9c literal: 两个三条 before 二对+二张散牌
    ("r001", "must_play_triple"),
])
def test_001_9c_three_pair_tractor(ruleset, reason):
    hand = "3H 3H 3H 5H 5H 5H 10H 2D"
    assert follow(ruleset, "7H 7H 8H 8H 9H 9H", hand, "3H 3H 3H 5H 5H 5H").value
    assert follow(ruleset, "7H 7H 8H 8H 9H 9H", hand, "5H 3H 3H 5H 3H 5H").value  # order does not matter
    j = follow(ruleset, "7H 7H 8H 8H 9H 9H", hand, "3H 3H 5H 5H 10H 5H")
    assert not j.value and j.reason == reason


def test_001_9c_completed_adds_triple_pair_single():
    hand = "3H 3H 3H 5H 5H 7H 10H 2D"
    play = "3H 3H 5H 5H 7H 10H"  # two pairs and two singles: withholds the triple
    # literal 9c: 三对 / 两个三条 / 二对+二张散牌 — two pairs and two singles is the first entry held
    assert follow("r001_literal", "7H 7H 8H 8H 9H 9H", hand, play).value
    # completed (001:g3, as 9d): 三条+一对+一张 comes before 二对+二张散牌
    assert follow("r001", "7H 7H 8H 8H 9H 9H", hand, play).reason == "must_play_triple"


@pytest.mark.parametrize("ruleset", ["r000", "r001", "r003"])
def test_must_follow_suit(ruleset):
    # 000:2.16b, 003:7.1 "出牌方出什么花色的牌，其他必须跟什么牌"
    j = follow(ruleset, "9H", "3H 4D", "4D")
    assert not j.value and j.reason == "must_follow_suit"
    assert follow(ruleset, "9H", "3H 4D", "3H").value


@pytest.mark.parametrize("ruleset", ["r000", "r001", "r003"])
def test_short_in_suit_plays_all_of_it_then_anything(ruleset):
    j = follow(ruleset, "9H 9H 10H 10H", "3H 4D 5D 6D 7C", "3H 4D 5D 7C")
    assert j.value
    j = follow(ruleset, "9H 9H 10H 10H", "3H 4D 5D 6D 7C", "4D 5D 6D 7C")
    assert not j.value and j.reason == "must_follow_suit"


@pytest.mark.parametrize("ruleset", ["r000", "r003"])
def test_000_tractor_led_then_pairs(ruleset):
    # 000:2.16c 有同花色的拖拉机，必须出拖拉机；无拖拉机牌时，有对必须出对
    lead = "8H 8H 9H 9H"
    assert follow(ruleset, lead, "3H 3H 4H 4H 7H 2D", "3H 3H 4H 4H").value
    assert follow(ruleset, lead, "3H 3H 4H 4H 7H 2D", "3H 3H 4H 7H").reason == "must_play_tractor"
    assert follow(ruleset, lead, "3H 3H 5H 5H 7H 2D", "3H 3H 5H 5H").value
    assert follow(ruleset, lead, "3H 3H 5H 5H 7H 2D", "3H 3H 5H 7H").reason == "must_play_pair"


def test_wrong_count_and_cards_not_held():
    assert follow("r003", "9H 9H", "3H 4H 5H", "3H").reason == "wrong_card_count"
    assert follow("r003", "9H 9H", "3H 4H 5H", "3H 3H").reason == "cards_not_held"
