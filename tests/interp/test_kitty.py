"""Capturing the kitty (扣底/抠底): multipliers by suit and shape, who may capture, throws."""
import pytest

from reference_impl.kitty import _formula, judge_kitty
from reference_impl.rules import rules_for
from reference_impl.trump import context
from tractor_dsl.types import Formula
from tests.interp.helpers import cards
from tests.interp.rule_variants import variant

KITTY6 = cards("5C 10C KC 3D 4D 6D")        # 25 points (5 + 10 + 10), three decks: 6 cards
KITTY8 = cards("5C 10C KC 3D 4D 6D 7D 8D")  # 25 points, two decks: 8 cards
ATT, BNK = "attackers", "banker"


def kitty_value(rules, level, trump, play, side, kitty=KITTY6):
    j = judge_kitty(context(rules, level, trump), cards(play), side, kitty)
    assert j.extra["kitty_points"] == 25
    return j


# 003:9.3 — trump single ×3, pair ×6, triple (555) ×9, pair tractor ×12, three-pair tractor ×18.
@pytest.mark.parametrize("play,multiplier", [
    ("AS", 3), ("AS AS", 6), ("5S 5S 5S", 9), ("6S 6S 7S 7S", 12), ("6S 6S 7S 7S 8S 8S", 18),
], ids=["003:9.3-single", "003:9.3-pair", "003:9.3-triple-555", "003:9.3-pair-tractor",
        "003:9.3-three-pair-tractor"])
def test_003_trump_multipliers(play, multiplier):
    j = kitty_value(rules_for("r003"), "2", "S", play, ATT)
    assert j.value == 25 * multiplier
    assert j.extra["multiplier"] == multiplier
    assert "kitty.capture" in j.clauses


def test_003_side_suit_winner_captures_nothing():
    # 003:9.3 "副牌不扣底": only a trump winner of the last trick captures
    j = kitty_value(rules_for("r003"), "2", "S", "AH AH", ATT)
    assert j.value == 0 and j.extra["multiplier"] == 0


def test_003_banker_side_captures_nothing():
    # 003:9.3 only the attackers (非庄家方) capture
    assert kitty_value(rules_for("r003"), "2", "S", "AS AS", BNK).value == 0


def test_003_triple_tractor_extends_three_per_card():
    # 003:g3 (interpretation, kitty.capture): 3 × cards for shapes 9.3 does not list — 555666 ×18
    assert kitty_value(rules_for("r003"), "2", "S", "5S 5S 5S 6S 6S 6S", ATT).value == 25 * 18


@pytest.mark.parametrize("rules,multiplier", [
    (rules_for("r003"), 9),                                            # three_per_card: 3 × 3 cards
    (variant("r003", "kitty.capture", "largest_unit"), 6),             # the pair: 3 × 2 cards
], ids=["003-whole_play", "003-largest_unit"])
def test_003_throw_in_last_trick(rules, multiplier):
    # 003:g3: a throw (pair AA + single K) winning the last trick
    j = kitty_value(rules, "2", "S", "AS AS KS", ATT)
    assert j.value == 25 * multiplier
    assert rules.clause("kitty.multi_unit") in j.clauses


# 000:2.14 — trump: single ×2, pair ×4, tractor ×(cards × 2); side: single ×1, pair ×2, tractor ×cards.
@pytest.mark.parametrize("play,multiplier", [
    ("AH", 2), ("AH AH", 4), ("KH KH AH AH", 8), ("QH QH KH KH AH AH", 12),
    ("J- J- 2H 2H", 8),   # small jokers + trump-suit level pair: a junction tractor (000:2.10)
    ("AS", 1), ("AS AS", 2), ("KS KS AS AS", 4), ("QS QS KS KS AS AS", 6),
], ids=["trump-single", "trump-pair", "trump-tractor4", "trump-tractor6", "trump-junction-tractor",
        "side-single", "side-pair", "side-tractor4", "side-tractor6"])
def test_000_table(play, multiplier):
    j = kitty_value(rules_for("r000"), "2", "H", play, ATT, KITTY8)
    assert j.value == 25 * multiplier


def test_000_banker_side_does_not_capture():
    # 000:2.14 扣底 is the attackers' (抓分方) winning the last trick
    j = kitty_value(rules_for("r000"), "2", "H", "AH AH", BNK, KITTY8)
    assert j.value == 0


@pytest.mark.parametrize("rules,multiplier", [
    (rules_for("r000"), 4),                                     # largest component: the trump pair ×4
    (variant("r000", "kitty.throw", "whole_play"), 6),          # the throw as 3 cards: 2 × 3
], ids=["000:g6-largest_component", "000:g6-whole_play"])
def test_000_throw_in_last_trick(rules, multiplier):
    j = kitty_value(rules, "2", "H", "AH AH 3H", ATT, KITTY8)
    assert j.value == 25 * multiplier
    assert "kitty.throw" in j.clauses


# 001:8b — banker single keeps the kitty (0); banker pair deducts ×2; attackers single ×1, pair ×2;
# "其余类推" read as cards (linear, r001) or powers of two (r001_powers).
@pytest.mark.parametrize("name,play,side,value", [
    ("r001", "AS", BNK, 0),
    ("r001", "AS AS", BNK, -50),
    ("r001", "AS", ATT, 25),
    ("r001", "AS AS", ATT, 50),
    ("r001", "AH", ATT, 25),                 # 8b names no suit: side cards capture too
    ("r001", "AH AH", BNK, -50),
    ("r001", "AS AS AS", ATT, 75),           # linear: triple ×3
    ("r001", "AS AS AS", BNK, -75),
    ("r001_powers", "AS AS AS", ATT, 100),   # powers: triple ×4
    ("r001_powers", "AS AS AS", BNK, -100),
    ("r001", "KS KS AS AS", ATT, 100),       # linear: tractor ×cards
    ("r001_powers", "KS KS AS AS", ATT, 200),  # powers: 2^(4-1)
], ids=lambda v: str(v))
def test_001_both_sides_capture(name, play, side, value):
    j = kitty_value(rules_for(name), "3", "S", play, side)
    assert j.value == value


# The same last trick judged by each ruleset (level 3, spades trump, a 25-point kitty).
@pytest.mark.parametrize("name,play,side,value", [
    ("r000", "AH", ATT, 25),       # 000:2.14 side single ×1
    ("r001", "AH", ATT, 25),       # 001:8b single ×1
    ("r003", "AH", ATT, 0),        # 003:9.3 side cards never capture
    ("r000", "AS AS", ATT, 100),   # 000:2.14 trump pair ×4
    ("r001", "AS AS", ATT, 50),    # 001:8b pair ×2
    ("r003", "AS AS", ATT, 150),   # 003:9.3 trump pair ×6
    ("r000", "AS AS", BNK, 0),     # 000: only attackers capture
    ("r001", "AS AS", BNK, -50),   # 001:8b banker pair deducts ×2
    ("r003", "AS AS", BNK, 0),     # 003:9.3 only attackers capture
])
def test_same_last_trick_across_rulesets(name, play, side, value):
    kitty = KITTY8 if name == "r000" else KITTY6
    assert kitty_value(rules_for(name), "3", "S", play, side, kitty).value == value


def test_missing_triple_and_throw_fall_back_to_the_tractor_formula():
    table = {"single": Formula("const", 1), "pair": Formula("const", 2), "tractor": Formula("cards")}
    f, used = _formula(table, "triple")
    assert (f(3), used) == (3, "tractor")
    f, used = _formula(table, "throw")
    assert (f(5), used) == (5, "tractor")


def test_mixed_play_is_refused():
    with pytest.raises(ValueError):
        judge_kitty(context(rules_for("r000"), "2", "H"), cards("AS AH"), ATT, KITTY8)


# H25 (spec/house_rules.tsv): x2 x 2^pairs, the pairs of what is valued - the largest component, or with
# kitty.multi_unit = whole_play every component of the throw - pairs inside a tractor counted.
@pytest.mark.parametrize("multi_unit, play, pairs", [
    ("largest_component", "AH AH KH KH 9H 9H 3H", 2),   # the two-pair tractor AAKK, largest; the 99 not valued
    ("whole_play", "AH AH KH KH 9H 9H 3H", 3),          # AAKK and 99: three pairs, the single none
    ("whole_play", "AH KH 3H", 0),                      # singles only
])
def test_h25_pairs_counts_the_pairs_of_what_is_valued(multi_unit, play, pairs):
    from conformance.generation.features import changed
    rules = changed(rules_for("h25_kitty_pairs"), {"kitty.multi_unit": multi_unit})
    j = judge_kitty(context(rules, "2", "S"), cards(play), ATT, KITTY8)
    assert j.extra["pairs"] == pairs and j.extra["multiplier"] == 2 * 2 ** pairs
    assert j.value == 25 * 2 * 2 ** pairs


def test_a_formula_without_pairs_reports_no_pair_count():
    j = judge_kitty(context(rules_for("r000"), "2", "S"), cards("AH AH"), ATT, KITTY8)
    assert "pairs" not in j.extra and j.extra["multiplier"] == 2   # 000:2.14: a side pair x2
