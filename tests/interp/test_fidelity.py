"""Where the executable rulebook had contradicted its sources (issue 11): each expected value is read from
the source text, with the clause id beside it. Hearts are a side suit unless a test says otherwise.
"""
import random

import pytest

from reference_impl.combos import classify
from reference_impl.following import judge_follow
from reference_impl.game import play_game
from reference_impl.hand import play_hand, team_of
from reference_impl.leading import judge_lead
from reference_impl.rules import rules_for
from reference_impl.trick import judge_trick
from reference_impl.trump import context
from tractor_cli.main import main

from .helpers import cards, ctx
from .rule_variants import variant


def follow(rules, lead, hand, play, level="J", trump="S"):
    rules = rules_for(rules) if isinstance(rules, str) else rules
    j = judge_follow(context(rules, level, trump), cards(lead), cards(hand), cards(play))
    return bool(j.value), j.reason


def shape(rules, text, level, trump):
    rules = rules_for(rules) if isinstance(rules, str) else rules
    return classify(context(rules, level, trump), cards(text)).shape()


def winner(rules, level, trump, *plays):
    rules = rules_for(rules) if isinstance(rules, str) else rules
    return judge_trick(context(rules, level, trump), [cards(p) for p in plays]).value


# --- 001:12.1 against the literal 9b/9c ladders ----------------------------------------------------

def test_001_12_1_holding_a_pair_and_playing_four_singles_is_a_revoke():
    # the position: 001:12.1 有对不出对 → must_play_pair; the literal 9b list (r001_literal) allows it
    args = ("8H 8H 9H 9H", "6H 6H 3H 4H 7H 3D", "3H 4H 7H 6H")
    assert follow("r001", *args, level="5", trump="C") == (False, "must_play_pair")          # 001:12.1
    assert follow("r001_literal", *args, level="5", trump="C") == (True, "ok")               # 001:9b as printed
    assert follow("r001", "8H 8H 9H 9H", "6H 6H 3H 4H 7H 3D", "6H 6H 3H 4H", "5", "C") == (True, "ok")


@pytest.mark.parametrize("hand, play, r001, literal", [
    # 001:12.1 有拖不出拖: a two-pair tractor and a pair are held → 二对拖拉机+一对 before 三对
    ("3H 3H 4H 4H 10H 10H QH QH 2D", "3H 3H 10H 10H QH QH", (False, "must_play_tractor"), (True, "ok")),
    ("3H 3H 4H 4H 10H 10H QH QH 2D", "3H 3H 4H 4H QH QH", (True, "ok"), (True, "ok")),
    # 9d's 三条+一对+一张 completes 9c: holding a triple, a pair and singles, two pairs + two singles is short
    ("3H 3H 3H 5H 5H 7H 10H 2D", "3H 3H 5H 5H 7H 10H", (False, "must_play_triple"), (True, "ok")),
    # 9c 两个三条 comes before any pairs-and-singles entry in both
    ("3H 3H 3H 5H 5H 5H 10H 2D", "3H 3H 5H 5H 10H 3H", (False, "must_play_triple"), (False, "must_play_triple")),
])
def test_001_9c_three_pair_tractor_completed(hand, play, r001, literal):
    lead = "7H 7H 8H 8H 9H 9H"
    assert follow("r001", lead, hand, play) == r001
    assert follow("r001_literal", lead, hand, play) == literal


# --- 000:2.16c a held tractor before plain pairs -----------------------------------------------------

@pytest.mark.parametrize("play, expected", [
    ("3H 3H 7H 7H QH QH", (False, "must_play_tractor")),   # the position: 3H3H4H4H is held
    ("3H 3H 4H 4H QH QH", (True, "ok")),                    # 000:2.16c 必须出拖拉机, then a pair
    ("3H 3H 4H 4H 7H 7H", (True, "ok")),
    ("3H 3H 4H 4H 7H QH", (False, "must_play_pair")),      # 000:2.16c 有对必须出对 for the rest
])
def test_000_2_16c_a_shorter_tractor_is_required(play, expected):
    lead, hand = "9H 9H 10H 10H JH JH", "3H 3H 4H 4H 7H 7H QH QH 5D"
    assert follow("r000", lead, hand, play, level="2", trump="S") == expected


@pytest.mark.parametrize("hand, play, expected", [
    # four-pair tractor led (a derived ladder): the longest shorter tractor that fits, then pairs (000:2.16c)
    ("3H 3H 4H 4H 5H 5H QH QH 6H KH 2D", "3H 3H 4H 4H QH QH 6H KH", (False, "must_play_tractor")),
    ("3H 3H 4H 4H 5H 5H QH QH 6H KH 2D", "3H 3H 4H 4H 5H 5H QH QH", (True, "ok")),
    # two two-pair tractors held: both are required before plain pairs
    ("3H 3H 4H 4H 9H 9H 10H 10H KH KH 6S", "3H 3H 4H 4H 9H 9H KH KH", (False, "must_play_tractor")),
    ("3H 3H 4H 4H 9H 9H 10H 10H KH KH 6S", "3H 3H 4H 4H 9H 9H 10H 10H", (True, "ok")),
])
@pytest.mark.parametrize("ruleset", ["r000", "r001", "r003"])
def test_longer_tractor_leads_ask_for_shorter_tractors(ruleset, hand, play, expected):
    level = "J" if ruleset == "r001" else "2"   # 2 is fixed trump in 001
    assert follow(ruleset, "5H 5H 6H 6H 7H 7H 8H 8H", hand, play, level=level, trump="S") == expected


# --- 003:7.3 2拖3: a throw keeps its triples --------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["r001", "r003"])
def test_88999_is_a_pair_and_a_triple(ruleset):
    # 003:7.3 拖拉机不能2拖3 (如"88999"不是拖拉机): a pair and a triple (lead.throw_split, triples_first)
    assert shape(ruleset, "8H 8H 9H 9H 9H", "5", "S") == "throw(triple + pair)"
    assert shape(variant(ruleset, "lead.throw_split", "largest_first"), "8H 8H 9H 9H 9H", "5", "S") == \
        "throw(tractor(pair, 2) + single)"
    # a triple is kept whole even when the pairs around it could chain through it
    assert shape(ruleset, "8H 8H 9H 9H 9H 10H 10H", "5", "S") == "throw(triple + pair + pair)"
    assert shape(ruleset, "7H 7H 7H 8H 8H 8H 9H 9H", "5", "S") == "throw(tractor(triple, 2) + pair)"


def test_a_held_triple_must_be_played_to_88999():
    # 003:7.1 出三张牌，其它方必须跟三张牌 — the triple of 2拖3 asks for a triple, its pair for a pair
    lead, hand = "8H 8H 9H 9H 9H", "4H 4H 4H 6H 6H 10H QH 2D"
    assert follow("r003", lead, hand, "4H 4H 6H 6H 10H") == (False, "must_play_triple")
    assert follow("r003", lead, hand, "4H 4H 4H 6H 6H") == (True, "ok")
    # read as a pair tractor and a single, two pairs would do (the alternative reading)
    assert follow(variant("r003", "lead.throw_split", "largest_first"), lead, hand, "4H 4H 6H 6H 10H") == (True, "ok")


def test_a_trump_triple_and_pair_ruff_88999():
    # 003:7.5 枪毙时必须也要出相应数量的"拖拉机"或"对牌": a triple and a pair answer a triple and a pair
    plays = ("8H 8H 9H 9H 9H", "3S 3S 3S 5S 5S", "2D 3D 4D 5D 6D", "2C 3C 4C 5C 6C")
    assert winner("r003", "J", "S", *plays) == 1
    assert winner(variant("r003", "lead.throw_split", "largest_first"), "J", "S", *plays) == 0


# --- no-trump junctions ----------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["r000", "r001", "r003"])
@pytest.mark.parametrize("text, expected", [
    ("J- J- 5H 5H", "tractor(pair, 2)"),           # the small joker and a level pair of any suit
    ("J- J- 5C 5C", "tractor(pair, 2)"),
    ("J+ J+ J- J- 5S 5S", "tractor(pair, 3)"),     # with the big joker above (000:2.10 大王与小王)
    ("J- J- 4H 4H", "mixed"),                      # 4s are side cards: not even one suit
])
def test_no_trump_level_pairs_chain_with_the_small_joker(ruleset, text, expected):
    assert shape(ruleset, text, "5", None) == expected
    if expected.startswith("tractor"):   # the other reading: no junction without a trump suit
        assert shape(variant(ruleset, "tractor.no_trump", "no_chain"), text, "5", None).startswith("throw")


def test_no_trump_junction_of_triples_and_with_a_trump_suit():
    assert shape("r003", "J- J- J- 5D 5D 5D", "5", None) == "tractor(triple, 2)"
    # with hearts trump only the trump-suit level card chains with the small joker (000:2.10 小王与主牌花色)
    assert shape("r000", "J- J- 5H 5H", "5", "H") == "tractor(pair, 2)"
    assert shape("r000", "J- J- 5S 5S", "5", "H") == "throw(pair + pair)"


# --- 001:10.1 tractor ranking with level cards and 2s -------------------------------------------------

def test_001_10_1_334455_at_level_4():
    # 001:10.1 不能隔拖 forbids only skipping the level; by face rank (001:g8) the trump-suit 334455 chains
    assert shape("r001", "3C 3C 4C 4C 5C 5C", "4", "C") == "tractor(pair, 3)"
    assert classify(ctx("r001", "4", "S"), cards("3C 3C 4C 4C 5C 5C")).kind == "mixed"   # 4♣ trump, 3♣ 5♣ not
    assert shape("r001", "3H 3H 5H 5H", "4", "C") == "throw(pair + pair)"                 # 001:10.1 3355
    # its highest card is the trump-suit 4 (tractor.compare): it beats AAKKQQ and 667788 of trump
    others = ("2D 3D 5D 6D 7D 8D", "3H 5H 6H 7H 8H 9H")
    assert winner("r001", "4", "C", "AC AC KC KC QC QC", "3C 3C 4C 4C 5C 5C", *others) == 1
    assert winner("r001", "4", "C", "6C 6C 7C 7C 8C 8C", "3C 3C 4C 4C 5C 5C", *others) == 1
    # and a tractor of it loses to the jokers (大小王＞AAKK)
    assert winner("r001", "4", "C", "3C 3C 4C 4C", "J+ J+ J- J-", "2D 3D 5D 6D", "3H 5H 6H 7H") == 1


def test_001_10_1_2233_at_level_3():
    # 001:10.1 红桃2233先出比后出的黑桃2233大，但黑桃、红桃、方块2233不比正主梅花2233大
    rest = ("4D 5D 6D 7D",)
    assert winner("r001", "3", "C", "2H 2H 3H 3H", "2S 2S 3S 3S", "2C 2C 3C 3C", *rest) == 2
    assert winner("r001", "3", "C", "2H 2H 3H 3H", "2S 2S 3S 3S", "4D 5D 6D 7D", "8D 9D 10D JD") == 0


# --- 003's forced play and blockers --------------------------------------------------------------

def test_003_failed_throw_plays_the_smallest_card():
    # 003:7.2 prices the blocked cards (被拦阻的牌每张扣10分); the play after it: the smallest card, as 000:2.17e
    # and 001:9f say (lead.throw); the smallest blocked component is the other reading
    others = [cards("KH 2D"), cards("3S"), cards("4S")]
    j = judge_lead(ctx("r003", "J", "S"), cards("AH AH 9H 9H"), others)
    failure = j.extra["failure"]
    assert (j.reason, failure.penalty, failure.forced) == ("throw_beaten", 20, tuple(cards("9H")))
    j = judge_lead(context(variant("r003", "lead.throw", "forced_blocked"), "J", "S"), cards("AH AH 9H 9H"), others)
    assert j.extra["failure"].forced == tuple(cards("9H 9H"))


def test_003_7_2_the_partners_cards_block_a_throw():
    # 003:7.2 被对家拦阻: 对家 is the partner in 003 (6.2 对家和其他队员都可以反主)
    others = [cards("2D"), cards("KH"), cards("3D")]          # next player, partner, previous player
    assert judge_lead(ctx("r003", "J", "S"), cards("AH 9H"), others).reason == "throw_beaten"
    assert judge_lead(context(variant("r003", "lead.throw_blockers", "opponents"), "J", "S"), cards("AH 9H"),
                      others).value


# --- 001:6 the redeal after a smothered banker, in whole hands ----------------------------------------

@pytest.mark.parametrize("reading, banking_team", [("attackers", "attackers"), ("same_banker", "banker")])
def test_001_6_the_redeal_is_played_at_the_attackers_level(reading, banking_team):
    # 001:6 庄家打9，攻庄方打6，当庄家被憋死后，重新起牌打6: whole hands play the level the judgment names
    rules = rules_for("r001") if reading == "attackers" else variant("r001", "declare.none", reading)
    seen = 0
    for seed in range(1, 80):
        if seen >= 2:
            break
        game = play_game(rules, seed)
        for hand, levels in zip(game.hands, game.levels):
            if not hand.redeals or hand.number == 1:
                continue
            seen += 1
            team = team_of(hand.banker)
            attackers_team = team if banking_team == "attackers" else 1 - team
            assert hand.level == levels[attackers_team], (seed, hand.number)
    assert seen >= 2


def test_001_6_play_hand_at_the_attackers_level_directly():
    # banker team 1 at 9, attackers team 0 at 6; find a deal where nobody declares
    rules = variant("r001", "declare.none", "same_banker")
    for seed in range(200):
        hand = play_hand(rules, random.Random(seed), 2, {0: "6", 1: "9"}, banker=1)
        if hand.redeals:
            assert hand.banker == 1 and hand.level == "6"     # the same banker, at the attackers' 6
            break
    else:
        pytest.fail("no smothered banker in 200 deals")
    hand = play_hand(rules_for("r001"), random.Random(seed), 2, {0: "6", 1: "9"}, banker=1)
    assert team_of(hand.banker) == 0 and hand.level == "6"   # the former attackers bank, at their 6


def test_001_6_tractor_play_shows_the_redeal_level(capsys):
    """In a game of r001, a hand redealt after a smothered banker is played by the former attackers at their
    own level (「重起局按原攻庄方所打到的点数开打」), as the brief line shows."""
    import re
    for seed in range(1, 40):
        assert main(["play", "r001", "--seed", str(seed), "--brief"]) == 0
        lines = [x for x in capsys.readouterr().out.splitlines() if "redeal(s)" in x and x.startswith("hand ")]
        for line in lines:
            m = re.search(r"levels team0 (\w+) / team1 (\w+); banker seat \d \(team (\d)\), level (\w+)", line)
            assert m, line
            team_levels, team, level = (m.group(1), m.group(2)), int(m.group(3)), m.group(4)
            assert level == team_levels[team], line
        if lines:
            return
    pytest.fail("no redeal in 39 games of r001")


# --- tractor explain checks card copies ------------------------------------------------------------

def test_explain_winner_refuses_three_copies_with_two_decks(capsys):
    assert main(["explain", "r000", "winner", "--level", "5", "--trump", "S", "--plays", "3S", "3S", "3S", "4S"]) == 2
    assert "3 × 3S" in capsys.readouterr().err
    assert main(["explain", "r001", "winner", "--level", "5", "--trump", "S", "--plays", "3S", "3S", "3S", "4S"]) == 0
