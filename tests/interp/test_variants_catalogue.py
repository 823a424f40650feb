"""The house-rule catalogue (spec/variants/, issue 19): each file states one reading of VARIANTS.md, and on a
position that reading is about the interpreter answers differently from the ruleset the file extends. Every
expected value is read from the reading's own wording in VARIANTS.md (its id beside it). Unless a test says
otherwise the level is 2 or 5 and spades are trump, so hearts, diamonds and clubs are side suits."""
import re
from collections import Counter

import pytest

from conformance.generation.features import changed
from reference_impl.cards import parse_cards as cards
from reference_impl.declaring import judge_declarations, judge_undeclared
from reference_impl.kitty import judge_kitty
from reference_impl.leading import judge_lead
from reference_impl.levels import advance
from reference_impl.combos import classify
from reference_impl.following import judge_follow
from reference_impl.rules import catalogue_names, rules_for, ruleset_names
from reference_impl.scoring import judge_result
from reference_impl.trick import judge_trick
from reference_impl.trump import context
from tractor_dsl.checker import default_spec_dir
from tractor_dsl.variants import by_id


def both(name):
    """The catalogue ruleset and the ruleset it extends."""
    rules = rules_for(name)
    return rules, rules_for(rules.checked.lineage[1])


def kind(rules, text, level="J", trump="S"):
    return classify(context(rules, level, trump), cards(text)).kind


def winner(rules, level, trump, *plays):
    return judge_trick(context(rules, level, trump), [cards(p) for p in plays]).value


def forced(rules, throw, others, level="2", trump="S"):
    j = judge_lead(context(rules, level, trump), cards(throw), [cards(h) for h in others])
    assert j.reason == "throw_beaten", j.detail
    return j.extra["failure"]


def kitty(rules, play, kitty_cards, level="2", trump="S"):
    return judge_kitty(context(rules, level, trump), cards(play), "attackers", cards(kitty_cards)).value


# --- the catalogue itself ---------------------------------------------------------------------------------

def test_every_catalogue_file_names_its_reading_in_its_header_and_extends_a_bundled_ruleset():
    files = sorted((default_spec_dir() / "variants").glob("*.tractor"))
    assert len(files) == len(catalogue_names()) >= 20
    for f in files:
        vid = re.match(r"([vh])(\d\d)_", f.name)   # V: VARIANTS.md; H: spec/house_rules.tsv (issue 32)
        assert vid, f.name
        where = "VARIANTS.md" if vid.group(1) == "v" else "spec/house_rules.tsv"
        vid = f"{vid.group(1).upper()}{vid.group(2)}"
        assert f.read_text(encoding="utf-8").startswith(f"# {vid} ({where})"), f.name
        rules = rules_for(f.stem)
        assert vid in rules.checked.own_variants and vid in by_id()
        assert rules.checked.lineage[1] in ruleset_names() and rules.checked.title_zh


def test_the_catalogue_is_not_among_the_bundled_rulesets_the_suite_and_vectors_are_made_for():
    assert not set(catalogue_names()) & set(ruleset_names())
    assert "r000" in ruleset_names() and "v13_mixed_tractor" in catalogue_names()


# --- equipment, card order ----------------------------------------------------------------------------------

def test_v01_one_deck_kitty_6_and_its_100_point_table():
    v, parent = both("v01_one_deck")
    assert (v.decks, v.hand_size, v.kitty_size) == (1, 12, 6) != (parent.decks, parent.hand_size, parent.kitty_size)
    # V56 with one deck: steps of 20, the attackers take the stage at 40 (two decks: 40 is banker +1)
    assert (judge_result(v, 40).value.next_banker, judge_result(v, 40).value.levels) == ("attackers", 0)
    assert (judge_result(parent, 40).value.next_banker, judge_result(parent, 40).value.levels) == ("banker", 1)


def test_v09_2s_and_10s_are_fixed_trumps_in_the_order_stated():
    v, parent = both("v09_twos_and_tens")
    # the 10s are trump: a heart 10 led is not ruffed by a trump-suit 9 (in 001 it is a side card, and 9S wins)
    assert winner(v, "5", "S", "10H", "9S") == 0
    assert winner(parent, "5", "S", "10H", "9S") == 1
    # 2s above 10s, as the file lists them; the reverse order of the list reverses it
    assert winner(v, "5", "S", "10H", "2D") == 1
    reverse = changed(v, {"trump.fixed_ranks": ("10", "2")})
    assert winner(reverse, "5", "S", "10H", "2D") == 0


# --- tractors -----------------------------------------------------------------------------------------------

def test_v13_a_pair_chains_to_an_adjacent_triple():
    v, parent = both("v13_mixed_tractor")
    assert kind(v, "8H 8H 9H 9H 9H") == "tractor"
    assert kind(parent, "8H 8H 9H 9H 9H") == "throw"


def test_v14_with_three_decks_only_triples_chain():
    v, parent = both("v14_units_as_wide_as_decks")
    assert kind(v, "3H 3H 4H 4H") == "throw" and kind(parent, "3H 3H 4H 4H") == "tractor"   # 3344 is no tractor
    assert kind(v, "3H 3H 3H 4H 4H 4H") == kind(parent, "3H 3H 3H 4H 4H 4H") == "tractor"   # 333444 is


def test_v15_a_tractor_is_at_least_three_pairs():
    v, parent = both("v15_three_unit_tractors")
    assert kind(v, "5H 5H 6H 6H") == "throw" and kind(parent, "5H 5H 6H 6H") == "tractor"
    assert kind(v, "5H 5H 6H 6H 7H 7H") == "tractor"


def test_v23_no_trump_level_pairs_do_not_chain_with_jokers():
    v, parent = both("v23_no_trump_no_chain")
    # no trump suit, level 5: a small-joker pair and a pair of level cards
    assert kind(v, "J- J- 5H 5H", "5", None) == "throw"
    assert kind(parent, "J- J- 5H 5H", "5", None) == "tractor"


# --- following ----------------------------------------------------------------------------------------------

def test_v27_a_triple_need_not_be_broken_to_follow_a_pair():
    v, parent = both("v27_protect_triples")
    ctx = context(v, "5", "S"), context(parent, "5", "S")
    lead, hand, play = cards("7H 7H"), cards("9H 9H 9H 3H 4C"), cards("9H 3H")
    assert judge_follow(ctx[0], lead, hand, play).value is True
    assert judge_follow(ctx[1], lead, hand, play).reason == "must_play_pair"


# --- ruffs and their comparison -----------------------------------------------------------------------------

def test_v31_a_ruff_needs_the_leads_exact_shape():
    v, parent = both("v31_ruff_same_shape")
    # two pairs and a single led; the ruff holds a tractor and a single: as many pairs, not the same shape
    plays = ("AH AH QH QH 9H", "3S 3S 4S 4S 6S")
    assert winner(v, "2", "S", *plays) == 0
    assert winner(parent, "2", "S", *plays) == 1


def test_v32_any_two_trumps_ruff_a_pair():
    v, parent = both("v32_ruff_any_trumps")
    assert winner(v, "2", "S", "AH AH", "3S 4S") == 1
    assert winner(parent, "2", "S", "AH AH", "3S 4S") == 0


def test_v34_ruffs_compared_by_their_highest_card():
    v, parent = both("v34_ruffs_by_highest_card")
    plays = ("AC AC KC", "KS KS 3S", "4S 4S AS")   # the second ruff holds the highest card, the first the higher pair
    assert winner(v, "2", "S", *plays) == 2
    assert winner(parent, "2", "S", *plays) == 1


def test_v35_ruffs_compared_component_by_component():
    v, parent = both("v35_ruffs_by_component")
    # level 5: the two ruffs' pairs of off-suit level cards are equal, the singles decide (3S < AS)
    plays = ("AC AC KC", "5H 5H 3S", "5D 5D AS")
    assert winner(v, "5", "S", *plays) == 2
    assert winner(parent, "5", "S", *plays) == 1   # the largest component only: equal, the first played wins


# H30 (spec/house_rules.tsv): a throw, or a ruff of one, beats the winning play only when every one of its components
# beats the winning play's component of the same shape, highest with highest. Each expected winner (plays counted from
# 0, the lead first) is the engine's answer read from its code:
#   shengji = rbtying/shengji mechanics/src/trick.rs, Trick::_defeats under ThrowEvaluationPolicy::All (the default):
#             every unit of the later play's matching must compare Greater (cmp_effective) than the winner's unit
#   tuolaji = the tuolaji engine (code index file 41857568324), Trick._play_beats: "Challenger must beat incumbent on
#             EVERY component", each play cut by Trick._match_components into the lead's sizes, highest cards first
#             (used only where that cut keeps the shapes: of two pairs it takes the higher pair first)
# (level, trump, plays, H30's winner, 000's winner (largest component), source)
H30_VECTORS = [
    # A♠A♠ beats 3♠3♠ but 4♠ does not beat K♠ (shengji: the leader wins)
    ("2", "H", ("3S 3S KS", "AS AS 4S", "4D 8D 9D", "4C 8C 9C"), 0, 1, "shengji"),
    # 6♠6♠ > 3♠3♠ and 7♠ > 5♠: every component beats
    ("2", "H", ("3S 3S 5S", "6S 6S 7S", "4D 8D 9D", "4C 8C 9C"), 1, 1, "shengji"),
    # two singles: A♠ beats K♠, 3♠ does not beat Q♠, and no other pairing makes both beat
    ("2", "H", ("KS QS", "AS 3S", "4D 8D", "4C 8C"), 0, 1, "shengji"),
    # two pairs, highest with highest: 9♠9♠ > 7♠7♠ and 6♠6♠ > 4♠4♠ (tuolaji; shengji zips its pairs in another
    # order here and keeps the lead, which this reading does not follow)
    ("2", "H", ("4S 4S 7S 7S", "6S 6S 9S 9S", "4D 8D 9D 10D", "4C 8C 9C 10C"), 1, 1, "tuolaji"),
]

# ruffs of a side-suit throw: the first ruff takes the trick; a later ruff takes it from the first only by beating it on
# every component (shengji)
H30_RUFFS = [
    # level 7, clubs trump: 7♥7♥7♣7♣ (the level cards' tractor) beats 6♣6♣8♣8♣, but K♣ equals K♣: the first ruff stands
    ("7", "C", ("5S JS JS QS QS", "6C 6C 8C 8C KC", "7H 7H 7C 7C KC", "3D 4D 5D 6D 8D"), 1, 2, "shengji"),
    # ... with A♣ instead, every component beats: the second ruff takes it
    ("7", "C", ("5S JS JS QS QS", "6C 6C 8C 8C KC", "7H 7H 7C 7C AC", "3D 4D 5D 6D 8D"), 2, 2, "shengji"),
    # level 2, hearts trump: 8♥8♥ beats 4♥4♥ but 5♥ is lower than 6♥: the first ruff stands
    ("2", "H", ("3S 3S 5S", "4H 4H 6H", "8H 8H 5H", "4C 8C 9C"), 1, 2, "shengji"),
    ("2", "H", ("3S 3S 5S", "4H 4H 6H", "8H 8H 9H", "4C 8C 9C"), 2, 2, "shengji"),
]


@pytest.mark.parametrize("level,trump,plays,expected,parent_expected,source", H30_VECTORS + H30_RUFFS)
def test_h30_a_play_of_several_components_beats_only_on_every_component(level, trump, plays, expected,
                                                                         parent_expected, source):
    v, parent = both("h30_every_component")
    assert winner(v, level, trump, *plays) == expected, source
    assert winner(parent, level, trump, *plays) == parent_expected   # 000: the largest component decides


def test_h30_ruffs_of_any_shape_are_matched_to_the_winning_ruffs_components():
    """With ruff.structure = any_trumps (V32) a ruff need not have the lead's shape: a later ruff is matched to the
    components of the ruff it must beat (the schema's words for every_component), highest with highest."""
    rules = changed(rules_for("v32_ruff_any_trumps"), {"compare.multi": "every_component"})
    # level 2, spades trump, A♥A♥ led: 3♠ 4♠ ruffs it (the first ruff takes a side suit's trick)
    assert winner(rules, "2", "S", "AH AH", "3S 4S") == 1
    assert winner(rules, "2", "S", "AH AH", "3S 4S", "5S 6S") == 2      # 6 > 4 and 5 > 3
    assert winner(rules, "2", "S", "AH AH", "3S 4S", "KS KS") == 2      # the pair as two singles: K > 4, K > 3
    assert winner(rules, "2", "S", "AH AH", "3S 4S", "5S 3S") == 1      # 3♠ equals 3♠: the earlier ruff stands
    assert winner(rules, "2", "S", "AH AH", "KS KS", "AS 3S") == 1      # two singles cannot make a pair


# --- failed throws ------------------------------------------------------------------------------------------

def test_v40_the_smallest_failing_component_is_played():
    v, parent = both("v40_forced_failing_component")
    others = ("AH 3C", "3D", "4D")   # an ace of hearts beats every card of the throw
    assert Counter(forced(v, "4H 4H KH", others).forced) == Counter(cards("4H 4H"))
    assert forced(parent, "4H 4H KH", others).forced == tuple(cards("4H"))


def test_v41_the_component_the_first_opponent_beats_is_played():
    v, parent = both("v41_forced_first_opponent")
    # the next player (first opponent) beats the single K, the previous player the pair of 5s
    others = ("AH 3C", "3D", "6H 6H")
    assert forced(v, "KH 5H 5H", others).forced == tuple(cards("KH"))
    assert forced(parent, "KH 5H 5H", others).forced == tuple(cards("5H"))


@pytest.mark.parametrize("name, points", [("v42_no_throw_penalty", 0), ("v43_penalty_per_attempt", 10)])
def test_v42_v43_the_price_of_a_failed_throw(name, points):
    v, parent = both(name)
    others = ("AH 3C", "3D", "4D")
    assert forced(v, "KH QH", others, "5").penalty == points   # V42 none; V43 10 points per attempt
    assert forced(parent, "KH QH", others, "5").penalty == 20   # 001:9f: 10 per card thrown


# --- the kitty ----------------------------------------------------------------------------------------------

KITTY_8 = "5H 10H KD 3C 4C 6C 7C 8C"   # 25 points


def test_v47_kitty_twice_the_cards_of_the_winning_unit():
    v, parent = both("v47_kitty_twice_unit")
    assert kitty(v, "AH AH", KITTY_8) == 100       # a side pair: 2 x 2 cards
    assert kitty(parent, "AH AH", KITTY_8) == 50   # 000:2.14: a side pair x2


def test_v48_kitty_two_to_the_power_of_the_units_cards():
    v, parent = both("v48_kitty_powers_of_two")
    assert kitty(v, "AH", KITTY_8) == 50           # 2^1
    assert kitty(parent, "AH", KITTY_8) == 25      # 000:2.14: a side single x1
    assert kitty(v, "AH AH KH KH", KITTY_8) == 25 * 16   # a two-pair tractor: 2^4


def test_h25_kitty_doubled_for_every_pair_of_the_winning_unit():
    """H25 (spec/house_rules.tsv): x2 x 2^pairs, pairs inside a tractor counted; 000:2.14 for the parent."""
    v, parent = both("h25_kitty_pairs")
    assert kitty(v, "AH", KITTY_8) == 25 * 2                     # no pair: x2
    assert kitty(v, "AH AH", KITTY_8) == 25 * 4                  # one pair: x4
    assert kitty(parent, "AH AH", KITTY_8) == 25 * 2             # 000:2.14: a side pair x2
    assert kitty(v, "AH AH KH KH", KITTY_8) == 25 * 8            # a two-pair tractor: x2 x 2^2
    assert kitty(parent, "AH AH KH KH", KITTY_8) == 25 * 4       # 000:2.14: a side tractor x its cards
    assert kitty(v, "AS AS KS KS QS QS", KITTY_8) == 25 * 16     # a three-pair trump tractor: x2 x 2^3
    assert kitty(parent, "AS AS KS KS QS QS", KITTY_8) == 25 * 12   # 000:2.14: a trump tractor x2 x its cards
    assert kitty(v, "AH AH 9H", KITTY_8) == 25 * 4               # a throw: its largest component, one pair


def test_v52_kitty_times_the_cards_of_the_whole_play():
    v, parent = both("v52_kitty_whole_play")
    kitty_6 = "5H 10H KD 3C 4C 6C"
    assert kitty(v, "AH AH KH", kitty_6, "5") == 75        # three cards
    assert kitty(parent, "AH AH KH", kitty_6, "5") == 50   # its largest component, the pair


# --- levels -------------------------------------------------------------------------------------------------

def test_v62_levels_wrap_past_a_and_stop_at_2():
    v, parent = both("v62_two_must_be_played")
    assert advance(v, "K", 2, True).value.level == "2" and not advance(v, "K", 2, True).value.won
    assert advance(parent, "K", 2, True).value.won


def test_v63_5_10_and_k_must_be_played():
    v, parent = both("v63_five_ten_king")
    assert advance(v, "3", 3, False).value.level == "5"
    assert advance(v, "8", 4, True).value.level == "10"
    assert advance(parent, "3", 3, False).value.level == "6"


def test_v66_a_no_trump_level_above_a():
    from random import Random
    from reference_impl.hand import play_hand
    v, parent = both("v66_no_trump_level")
    # a level above A: A +1 reaches it, and only passing it wins the game (000: passing A wins)
    assert advance(v, "A", 1, True).value == advance(v, "K", 2, True).value
    assert advance(v, "A", 1, True).value.level == "NT" and not advance(v, "A", 1, True).value.won
    assert advance(v, "NT", 1, True).value.won and advance(parent, "A", 1, True).value.won
    # no-trump: no trump suit and no level card - the As (and 2s) are side cards, only the jokers trump
    assert winner(v, "NT", None, "KH", "AH") == 1 and winner(v, "NT", None, "AH", "2H") == 0
    assert winner(v, "NT", None, "AH", "AS") == 0 and winner(v, "NT", None, "AH", "J-") == 1
    assert winner(parent, "A", None, "KH", "AS") == 1   # at level A without a trump suit the As are trump
    # nothing is declared at NT, and no kitty card names a suit
    assert judge_declarations(v, "NT", [(1, cards("J- J-"))], first_hand=False, banker=0).reason == "not_level_card"
    turned = cards("3H 4C 6C 7C 8C 9C JC QC")
    got = judge_undeclared(v, turned, False, "NT", "7").value
    assert got.trump == "no_trump" and not got.redeal
    assert judge_undeclared(v, turned, False, "A", "7").value.trump == 1   # below NT: 000:2.6, the first card
    hand = play_hand(v, Random(3), 3, {0: "NT", 1: "5"}, 0)
    assert (hand.level, hand.trump, hand.declarations) == ("NT", "no_trump", [])


# --- declaring ----------------------------------------------------------------------------------------------

def test_v73_a_declarer_may_overcall_himself():
    v, parent = both("v73_self_overcall")
    sequence = [(1, cards("5H")), (1, cards("5S 5S"))]   # seat 1 declares hearts, then spades with more copies
    assert judge_declarations(v, "5", sequence, first_hand=False, banker=0).value.legal
    assert not judge_declarations(parent, "5", sequence, first_hand=False, banker=0).value.legal


def test_v77_a_redeal_in_every_hand_nobody_declares():
    v, parent = both("v77_redeal_every_hand")
    turned = cards("3H 4C 6C 7C 8C 9C JC QC")
    assert judge_undeclared(v, turned, False, "5", "7").value.redeal
    later = judge_undeclared(parent, turned, False, "5", "7").value
    assert not later.redeal and later.trump == 1   # 000:2.6: the kitty's first card (a heart) names trump


def test_v74_an_overturned_declarer_takes_trump_back_with_an_equal_count():
    v, parent = both("v74_retake_after_overcall")
    sequence = [(0, cards("5H")), (1, cards("5S 5S")), (0, cards("5H"))]   # seat 0's second 5H: two hearts
    got = judge_declarations(v, "5", sequence, first_hand=False, banker=0).value
    assert got.legal and (got.trump, got.declarer) == (1, 0)
    assert judge_declarations(parent, "5", sequence, first_hand=False, banker=0).reason == "too_weak"


def test_v75_suit_precedence_at_an_equal_count():
    v, parent = both("v75_suit_precedence")
    up = [(0, cards("5D")), (1, cards("5S"))]     # spades rank above diamonds
    got = judge_declarations(v, "5", up, first_hand=False, banker=0).value
    assert got.legal and got.trump == 0
    assert judge_declarations(parent, "5", up, first_hand=False, banker=0).reason == "too_weak"
    down = [(0, cards("5S")), (1, cards("5D"))]
    assert judge_declarations(v, "5", down, first_hand=False, banker=0).reason == "too_weak"


def test_v81_the_first_level_card_turned_names_trump_else_the_highest_card():
    v, parent = both("v81_first_level_card")
    turned = cards("3H 4C 5D 7C 8C 9C JC QC")   # level 5: the 5 of diamonds is the first level card
    assert judge_undeclared(v, turned, False, "5", "7").value.trump == 2
    assert judge_undeclared(parent, turned, False, "5", "7").value.trump == 1   # 000:2.6: the first card
    no_level = cards("3H 4C KD 7C AC 9C JC QC")   # no 5: the highest card, the ace of clubs
    assert judge_undeclared(v, no_level, False, "5", "7").value.trump == 3


def test_v06_the_level_cards_stay_in_their_suits():
    v, parent = both("v06_jokers_only")
    # level 5, spades trump: the heart 5 is a heart, ruffed by a small trump (in 000 it is a trump above 4S)
    assert winner(v, "5", "S", "5H", "4S") == 1
    assert winner(parent, "5", "S", "5H", "4S") == 0
    assert winner(v, "5", "S", "4H", "5H") == 1   # and it ranks as a 5 of hearts above the 4


def test_v10_the_heart_5_is_above_the_big_joker():
    v, parent = both("v10_heart_five")
    assert winner(v, "2", "S", "J+", "5H") == 1
    assert winner(parent, "2", "S", "J+", "5H") == 0   # 000:2.10: the big joker is the highest card
    assert winner(v, "2", "S", "AH", "5H") == 1        # a trump: it ruffs the hearts it has left


def test_v28_a_tractor_need_not_be_broken_to_follow_a_pair():
    v, parent = both("v28_protect_tractors")
    lead, hand, play = cards("7H 7H"), cards("9H 9H 10H 10H 3H 4C"), cards("9H 3H")
    assert judge_follow(context(v, "5", "S"), lead, hand, play).value is True
    assert judge_follow(context(parent, "5", "S"), lead, hand, play).reason == "must_play_pair"
    outside = cards("9H 9H 10H 10H 3H 3H")   # a pair outside the tractor must still be played
    assert judge_follow(context(v, "5", "S"), lead, outside, cards("9H 3H")).reason == "must_play_pair"


def test_v68_the_banker_side_rises_only_with_the_last_trick():
    from random import Random
    from reference_impl.hand import play_hand, team_of
    v, parent = both("v68_banker_needs_last_trick")
    seen = 0
    for seed in range(60):
        a = play_hand(v, Random(seed), 2, {0: "2", 1: "2"}, 0)
        b = play_hand(parent, Random(seed), 2, {0: "2", 1: "2"}, 0)
        assert a.tricks[-1].winner == b.tricks[-1].winner and a.attackers_points == b.attackers_points
        banker_won_last = team_of(a.tricks[-1].winner) == team_of(a.banker)
        if b.next_banker_side == "banker" and b.levels_gained > 0 and not banker_won_last:
            assert (a.next_banker_side, a.levels_gained) == ("banker", 0)
            seen += 1
        else:
            assert (a.next_banker_side, a.levels_gained) == (b.next_banker_side, b.levels_gained)
    assert seen, "no hand in which the banker side kept the bank without the last trick"


def test_v82_a_hand_without_points_or_trumps_is_redealt():
    from reference_impl.hand import redeal_for_contents
    v, parent = both("v82_redeal_poor_hands")
    rich = cards("5H KD 2S 3C")             # points, and a level card at level 2
    no_points = cards("3H 4D 2S 6C")
    no_trumps = cards("5H KD 3S 4C")
    assert not redeal_for_contents(v, "2", [rich] * 4)
    assert redeal_for_contents(v, "2", [rich, no_points, rich, rich])
    assert redeal_for_contents(v, "2", [rich, rich, no_trumps, rich])
    assert not redeal_for_contents(parent, "2", [rich, no_points, no_trumps, rich])


def test_v69_a_team_at_a_must_defend_it_as_banker():
    r003, r000 = rules_for("r003"), rules_for("r000")   # 003:3.2 A必打 (V61, V69); 000 has no must-play A
    assert not advance(r003, "A", 1, False).value.won and advance(r003, "A", 1, True).value.won
    assert advance(r000, "A", 1, False).value.won


def test_v29_held_pairs_come_before_broken_triples_when_a_tractor_is_led():
    v, parent = both("v29_pairs_before_triples")
    lead, hand = cards("5H 5H 6H 6H"), cards("3H 3H 3H 7H 7H 9H 9H 4C")
    broken = cards("3H 3H 7H 7H")   # two pairs, one of them from the triple, while 99 stays in hand
    assert judge_follow(context(v, "J", "S"), lead, hand, broken).reason == "must_play_pair"
    assert judge_follow(context(parent, "J", "S"), lead, hand, broken).value is True
    assert judge_follow(context(v, "J", "S"), lead, hand, cards("7H 7H 9H 9H")).value is True
    # a pair led is no tractor: the house rule does not apply
    assert judge_follow(context(v, "J", "S"), cards("5H 5H"), hand, cards("3H 3H")).value is True


def test_v67_the_jack_rule_sends_the_bankers_team_back_to_2():
    from reference_impl.scoring import knock_back
    v, parent = both("v67_jack_rule")
    assert knock_back(v, "J", cards("JH"), "attackers") == "2"        # a single J wins the last trick at J
    assert knock_back(parent, "J", cards("JH"), "attackers") is None
    assert knock_back(v, "J", cards("JH"), "banker") is None          # the banker side's own J: no hook
    assert knock_back(v, "J", cards("JH JH"), "attackers") is None    # a pair of Js: not a single
    assert knock_back(v, "Q", cards("QH"), "attackers") is None       # another level



def test_v05_a_kitty_of_6_with_two_cards_removed():
    from random import Random
    from reference_impl.hand import deal_cards
    v, parent = both("v05_kitty_with_cards_removed")
    hands, kitty_cards = deal_cards(v, Random(5), 0)
    dealt = [c for h in hands.values() for c in h] + kitty_cards
    assert [len(h) for h in hands.values()] == [25] * 4 and len(kitty_cards) == 6 and len(dealt) == 106
    assert cards("3C")[0] not in dealt                       # both 3s of clubs are out
    hands, kitty_cards = deal_cards(parent, Random(5), 0)
    assert len(kitty_cards) == 8 and sum(len(h) for h in hands.values()) == 100


def test_v21_off_suit_level_pairs_of_different_suits_chain():
    v, parent = both("v21_off_level_pairs_chain")
    for text in ("5H 5H 5D 5D", "5H 5H 5C 5C", "5H 5H 5D 5D 5C 5C"):
        assert kind(v, text, "5", "S") == "tractor", text
        assert kind(parent, text, "5", "S") == "throw", text
    assert kind(v, "5H 5H 5D 5D", "5", None) == "tractor"    # no trump suit: all four suits are off-suit


def test_v04_four_decks_make_four_identical_cards_a_quad():
    v, parent = both("v04_four_decks")
    assert (v.decks, v.hand_size, v.kitty_size) == (4, 52, 8)
    assert kind(v, "7H 7H 7H 7H") == "quad"
    assert kind(parent, "7H 7H 7H 7H") == "throw"   # with three decks: a triple and a single
    # a quad led is followed by a quad first (V04: units of up to four identical cards)
    lead, hand = cards("7H 7H 7H 7H"), cards("9H 9H 9H 9H 3H 4H 5H 6H 2C")
    assert judge_follow(context(v, "J", "S"), lead, hand, cards("9H 3H 4H 5H")).reason == "must_play_pair"
    assert judge_follow(context(v, "J", "S"), lead, hand, cards("9H 9H 9H 9H")).value is True
    assert judge_result(v, 160).value.next_banker == "attackers" and judge_result(parent, 160).value.levels == 1


# --- the house rules players use beyond VARIANTS.md (spec/house_rules.tsv) ----------------------------------

def test_h01_nobody_declaring_the_hand_has_no_trump_suit():
    v, parent = both("h01_no_declaration_no_trump")
    turned = cards("3H 4C 6C 7C 8C 9C JC QC")
    later = judge_undeclared(v, turned, False, "5", "7").value
    # H01: no trump suit, the same banker at his own level, no kitty card turned
    assert (later.trump, later.redeal, later.banker_side, later.level, later.kitty_index) == \
        ("no_trump", False, "banker", "5", None)
    assert judge_undeclared(parent, turned, False, "5", "7").value.trump == 1   # 000:2.6: the first card, a heart
    first = judge_undeclared(v, turned, True, "2", "2").value
    assert first.trump == "no_trump" and first.first_hand_banker == "first_drawer"   # 000: the first drawer banks
    # played without a trump suit: a heart led is not ruffed by a spade, and a level card (5S) is still trump
    assert winner(v, "5", None, "3H", "AS") == 0
    assert winner(v, "5", None, "3H", "5S") == 1


def test_h01_whole_games_play_the_undeclared_hands_without_a_trump_suit():
    from reference_impl.cards import is_joker
    from reference_impl.game import play_game
    hands = [h for seed in (3, 4) for h in play_game(rules_for("h01_no_declaration_no_trump"), seed).hands]
    undeclared = [h for h in hands if not h.declarations]
    assert undeclared, "no hand went undeclared in these games"
    assert all(h.trump == "no_trump" for h in undeclared)     # H01: no trump suit
    assert all(h.trump is not None for h in hands if h.declarations and not is_joker(h.declarations[-1][1][0]))


# H31 (spec/house_rules.tsv): the bank bid for in every hand. The tuolaji engine (code index file 41857568324):
# GameState._finalize_declaration makes the player of the standing declaration declaring_player, the banker who buries
# the kitty (GameState.bury_kitty), in every hand; TuoLaJiApp._start_game fixes the hand's trump rank, the defending
# team's level, before the deal, and GameState.trump_rank never changes with the bank.

def test_h31_whole_games_give_the_bank_to_each_later_hands_last_declarer():
    from reference_impl.cards import is_joker, rank_of
    from reference_impl.game import next_banker, play_game
    moved = across = 0
    for seed in (3, 4, 5):
        game = play_game(rules_for("h31_bank_every_hand"), seed)
        for before, hand, levels in zip(game.hands, game.hands[1:], game.levels[1:]):
            standing = next_banker(rules_for("h31_bank_every_hand"), before.banker, before.next_banker_side,
                                   before.tricks[-1].winner if before.tricks else None)
            if not hand.declarations:   # nobody declared: the standing banker stays (declare.fallback_later)
                assert hand.banker == standing
                continue
            # _finalize_declaration: the standing declaration's player banks, whatever the last hand's result said
            assert hand.banker == hand.declarations[-1][0]
            moved += hand.banker != standing
            if hand.banker % 2 != standing % 2:   # the bank changed sides by declaring
                across += 1
                # the level set before declaring (TuoLaJiApp._start_game: team_levels[defending_team])
                assert hand.level == levels[standing % 2]
                assert all(is_joker(c) or rank_of(c) == hand.level for c in hand.declarations[-1][1])
    assert moved and across, "no later hand moved the bank by declaring in these games"
    # r000, which H31 extends (000:2.4): a later hand's banker is the one the last hand's result names
    game = play_game(rules_for("r000"), 3)
    for before, hand in zip(game.hands, game.hands[1:]):
        assert hand.banker == next_banker(rules_for("r000"), before.banker, before.next_banker_side,
                                          before.tricks[-1].winner if before.tricks else None)


def test_h02_an_accepted_throw_wins_its_trick():
    v, parent = both("h02_throw_wins_trick")
    # 000:2.16b: a follower void in hearts ruffs a throw of a pair and a single with a trump pair and a single
    assert winner(parent, "6", "S", "AH KH KH", "4S 4S 3S") == 1
    # H02: the throw, accepted, wins its trick: no ruff takes it, nor a later higher ruff
    assert winner(v, "6", "S", "AH KH KH", "4S 4S 3S") == 0
    assert winner(v, "6", "S", "AH KH KH", "4S 4S 3S", "J+ J+ J-") == 0
    # a lead that is no throw is unchanged: a single heart is ruffed as in 000
    assert winner(v, "6", "S", "AH", "3S") == winner(parent, "6", "S", "AH", "3S") == 1
    from reference_impl.trick import standing
    from reference_impl.trump import context
    ctx = context(v, "6", "S")
    assert not standing(ctx, [cards("AH KH KH")]).taken_by(cards("4S 4S 3S"))   # what a player weighing it is told
    assert standing(context(parent, "6", "S"), [cards("AH KH KH")]).taken_by(cards("4S 4S 3S"))


def test_h03_after_a_failed_throw_its_singles_first():
    v, parent = both("h03_singles_first")
    # a pair of 8s and a single 3 of hearts thrown; the next player holds the 9s: the pair is blocked
    others = ["9H 9H", "", ""]
    # 001:9f: the smallest card of the throw, as a single (the 3); H03: the single, here also the 3
    assert forced(parent, "8H 8H 3H", others, level="5").forced == forced(v, "8H 8H 3H", others, level="5").forced == tuple(cards("3H"))
    # a single above the pair: 001 plays the smallest card (an 8 out of the pair), H03 the single, the ace
    assert forced(parent, "8H 8H AH", others, level="5").forced == tuple(cards("8H"))
    assert forced(v, "8H 8H AH", others, level="5").forced == tuple(cards("AH"))
    # no single in the throw: the smallest pair, kept whole
    assert forced(v, "8H 8H KH KH AH AH", ["9H 9H", "", ""], level="5").forced == tuple(cards("8H 8H"))
    assert forced(v, "8H 8H AH", others, level="5").penalty == forced(parent, "8H 8H AH", others, level="5").penalty == 30   # 10 x 3



# H27, ChannonTian/80fen docs/RULES.md §S5 (甩牌), level 2 with clubs trump so that hearts and spades are side suits:
# (throw, the one other hand's cards of the suit, the component forced), no points
H27_VECTORS = [
    ("QH QH JH", "KH", "JH"),                 # ♥K 压得住单张，压不住 ♥Q♥Q: only ♥J
    ("3H 3H AH", "KH KH", "3H 3H"),           # ♥A 没人压得住，不进候选: ♥3♥3
    ("4S 4S 9S", "5S 5S KS", "9S"),           # 两组都被压: 单张 < 对子
    ("4S 4S 9S", "KS", "9S"),                 # 一张 ♠K 只压得住单张
    ("4S 4S 9S 9S", "KS KS", "4S 4S"),        # 都被压、张数一样: 比 top
    ("4S 4S 5S 5S KS", "AS 6S 6S 7S 7S", "KS"),   # 拖拉机 + 单张都被压: 单张张数最少
]


@pytest.mark.parametrize("throw,held,expected", H27_VECTORS)
def test_h27_the_blocked_component_with_the_fewest_cards_and_no_points(throw, held, expected):
    v, parent = both("h27_blocked_fewest_no_penalty")
    failure = forced(v, throw, [held, "", ""], level="2", trump="C")
    assert failure.forced == tuple(cards(expected)) and failure.penalty == 0
    assert forced(parent, throw, [held, "", ""], level="2", trump="C").penalty > 0   # 000: 10 a card taken back

# H28 and H29: the single-file engine of the code index titled "拖拉机 Tuo La Ji (Sheng Ji / Tractor) - Complete Game
# Engine + GUI" (read_file id 41857568324; measured under /work/real_engines/tuolaji). Level 2, spades trump.

def test_h28_a_throw_is_never_judged_at_its_lead():
    v, parent = both("h28_unchecked_throws")
    others = [cards("KH"), [], []]                 # the next player holds the king above the thrown 3
    # 000:2.16b: the 3 can be beaten by the king: the throw fails, 10 a card taken back
    j = judge_lead(context(parent, "2", "S"), cards("AH 3H"), others)
    assert (j.value, j.reason, j.extra["failure"].penalty) == (False, "throw_beaten", 10)
    # tuolaji CardCombo.is_valid_lead: (True, "") for any cards of one effective suit - no hand is looked at
    j = judge_lead(context(v, "2", "S"), cards("AH 3H"), others)
    assert (j.value, j.reason) == (True, "ok") and "failure" not in j.extra
    assert judge_lead(context(v, "2", "S"), cards("3H 4H 4H 9H"), [cards("AH AH KH"), [], []]).value
    # is_valid_lead: "A lead must be all one suit" - cards of two suits are still refused, as by 000
    j = judge_lead(context(v, "2", "S"), cards("AH 3C"), [[], [], []])
    assert (j.value, j.reason) == (False, "mixed_suits")


def test_h28_the_unchecked_throw_is_still_played_out_as_its_trick():
    v, parent = both("h28_unchecked_throws")
    # tuolaji Trick.winner / _play_beats: a play of trumps matching every component beats the throw (no H02)
    assert winner(v, "2", "S", "AH 3H", "4S 5S") == winner(parent, "2", "S", "AH 3H", "4S 5S") == 1
    assert winner(v, "2", "S", "AH 3H", "4C 5C") == 0   # a discard of another side suit never wins (_play_beats)


def test_h29_the_kitty_counts_its_face_value():
    v, parent = both("h29_kitty_face_value")
    # tuolaji GameState.play_cards: kitty_pts = sum(c.point_value() for c in self.kitty), added x1
    for play in ("AH", "AH AH", "AH AH KH KH", "AS AS KS KS QS QS", "AH AH 9H", "2S"):
        assert kitty(v, play, KITTY_8) == 25, play
    assert kitty(parent, "AS AS", KITTY_8) == 25 * 4           # 000:2.14: a trump pair x4
    assert kitty(parent, "AH", KITTY_8) == 25                  # 000:2.14: a side single x1, as H29


# H32: off-suit level cards ranked by suit, spades, hearts, diamonds, clubs (the trump suit left out). Expected values
# from the tuolaji engine's code (code index file 41857568324, measured under /work/real_engines/tuolaji):
#   TrumpSystem.trump_order: an off-suit level card is 500 + its index in [clubs, diamonds, hearts, spades] without
#     the trump suit; TrumpSystem.beats: of two trumps the higher order wins (equal orders: the incumbent stays);
#   CardCombo._try_tractor / _decompose: pairs whose orders are consecutive chain.
# (level, trump, plays, H32's winner, 000's winner)
H32_WINNERS = [
    ("5", "H", ("5C", "5S", "3D", "4D"), 1, 0),          # trump_order: 5S 502 > 5C 500; 000: equal, the first stands
    ("5", "H", ("5D", "5C", "5S", "3H"), 2, 0),          # 5S 502 > 5D 501 > 5C 500 > 3H (3)
    ("5", "H", ("5S", "5D", "5C", "AH"), 0, 0),          # the highest led: it stands either way
    ("5", "S", ("5D", "5H", "4C", "6C"), 1, 0),          # spades trump: 5H 502 > 5D 501
    ("5", "H", ("5D", "5H", "5S", "BJ"), 3, 3),          # the trump-suit level card 998 above every off-suit one
]


@pytest.mark.parametrize("level,trump,plays,expected,parent_expected", H32_WINNERS)
def test_h32_off_suit_level_cards_ranked_by_suit(level, trump, plays, expected, parent_expected):
    v, parent = both("h32_off_level_suits")
    plays = tuple(p.replace("BJ", "J+") for p in plays)
    assert winner(v, level, trump, *plays) == expected
    assert winner(parent, level, trump, *plays) == parent_expected   # 000:2.10: equal, the first played wins


def test_h32_level_pairs_of_neighbouring_suits_chain():
    v, parent = both("h32_off_level_suits")
    # hearts trump: orders clubs 500, diamonds 501, spades 502 (trump_order); _try_tractor: consecutive orders chain
    assert kind(v, "5S 5S 5D 5D", "5", "H") == "tractor"              # 502, 501
    assert kind(v, "5D 5D 5C 5C", "5", "H") == "tractor"              # 501, 500
    assert kind(v, "5S 5S 5D 5D 5C 5C", "5", "H") == "tractor"        # 502, 501, 500
    assert kind(v, "5S 5S 5C 5C", "5", "H") == "throw"                # 502, 500: not consecutive
    assert kind(v, "5H 5H 5D 5D", "5", "S") == "tractor"              # spades trump: hearts 502, diamonds 501
    # 000: equal cards hold one place and never chain (only the trump-suit level pair joins them)
    assert kind(parent, "5S 5S 5D 5D", "5", "H") == "throw"


def test_h32_the_trump_level_pair_chains_with_the_highest_off_suit_level_pair():
    """Interpretation (the engine has no such junction: trump_order 998 and 502 are not consecutive): 000's junction
    [trump_level, off_level] chains the trump-suit level pair with the off-suit level pair next below it in the
    card order, as positions adjacent in the order chain; 000 chains it with any of them."""
    v, parent = both("h32_off_level_suits")
    assert kind(v, "5H 5H 5S 5S", "5", "H") == "tractor"
    assert kind(v, "5H 5H 5S 5S 5D 5D", "5", "H") == "tractor"
    assert kind(v, "5H 5H 5D 5D", "5", "H") == "throw"
    assert kind(parent, "5H 5H 5D 5D", "5", "H") == "tractor"
    # a no-trump hand (000: tractor.no_trump_junction): the small joker chains with the highest level pair, spades;
    # the four suits rank spades, hearts, diamonds, clubs and neighbours chain
    assert kind(v, "J- J- 5S 5S", "5", None) == "tractor"
    assert kind(v, "J- J- 5H 5H", "5", None) == "throw"
    assert kind(parent, "J- J- 5H 5H", "5", None) == "tractor"
    assert kind(v, "5D 5D 5C 5C 5H 5H", "5", None) == "tractor"


def test_h32_off_suit_fixed_trumps_of_one_rank_ranked_by_suit_too():
    """The setting ranks every off-suit trump of one rank (the tier off_fixed as well: no engine with fixed ranks was
    found ranking them; the schema's reading): 001's fixed 2s at level 5, hearts trump."""
    rules = changed(rules_for("r001"), {"trump.off_suit_order": ("spades", "hearts", "diamonds", "clubs")})
    assert winner(rules, "5", "H", "2C", "2S", "3D", "4D") == 1
    assert winner(rules_for("r001"), "5", "H", "2C", "2S", "3D", "4D") == 0
    # 001 chains by face rank within one suit (tractor.adjacency = face_rank): the ranking does not chain suits
    assert kind(rules, "2S 2S 2D 2D", "5", "H") == "throw"
    by_order = changed(rules, {"tractor.adjacency": "trump_order"})
    assert kind(by_order, "2S 2S 2D 2D", "5", "H") == "tractor"
    assert kind(by_order, "2S 2S 2C 2C", "5", "H") == "throw"      # clubs is not next to spades
    assert kind(by_order, "5C 5C 2S 2S", "5", "H") == "throw"      # two tiers with no junction: they do not chain


def test_h04_no_throw_of_trumps():
    v, parent = both("h04_no_trump_throws")
    ctx = context(v, "2", "S")
    # nobody can beat AS AS KS (the others hold no spade): 000:2.16b lets it be thrown, H04 does not
    assert judge_lead(context(parent, "2", "S"), cards("AS AS KS"), [[], [], []]).value
    j = judge_lead(ctx, cards("AS AS KS"), [[], [], []])
    assert not j.value and j.reason == "throw_not_allowed"
    # a side suit may still be thrown, and one trump combination still led
    assert judge_lead(ctx, cards("AH AH KH"), [[], [], []]).value
    assert judge_lead(ctx, cards("AS AS"), [[], [], []]).value


def test_h05_a_failed_throw_is_priced_by_what_blocks_it():
    from reference_impl.penalties import judge_fault
    v, parent = both("h05_penalty_by_blocker")
    # level 2, spades trump; 000:2.17e: 10 points per card taken back, the smallest card played
    single = forced(v, "AH KH", ["", "", "AH"])            # the K, a single, is blocked by the other ace
    assert single.penalty == forced(parent, "AH KH", ["", "", "AH"]).penalty == 10   # one card back, a single: 10
    pair = forced(v, "AH 8H 8H", ["9H 9H", "", ""])          # the pair of 8s is blocked by the 9s
    assert pair.penalty == 2 * 20 and forced(parent, "AH 8H 8H", ["9H 9H", "", ""]).penalty == 2 * 10
    tractor = forced(v, "AH 7H 7H 8H 8H", ["9H 9H 10H 10H", "", ""])   # the tractor 7788 is blocked by 9 9 10 10
    assert tractor.penalty == 4 * 40
    # the penalty operation is told what blocked the throw
    assert judge_fault(v, "failed_throw", "attackers", 2, blocked="pair").value.points_delta == -40   # the attackers lose it
    with pytest.raises(ValueError, match="say which"):
        judge_fault(v, "failed_throw", "attackers", 2)
    assert judge_fault(parent, "failed_throw", "attackers", 2).value.points_delta == -20


def test_h06_no_overcall_of_ones_partner():
    v, parent = both("h06_no_partner_overcall")
    sequence = [(1, cards("5H")), (3, cards("J+ J+"))]   # seat 3 overcalls his partner, seat 1
    j = judge_declarations(v, "5", sequence, first_hand=False, banker=0)
    assert (j.value.legal, j.reason) == (False, "partner_overcall")     # H06
    assert judge_declarations(parent, "5", sequence, first_hand=False, banker=0).value.trump == "no_trump"   # 000:2.6
    # an opponent still overcalls
    assert judge_declarations(v, "5", [(1, cards("5H")), (2, cards("J+ J+"))], first_hand=False,
                              banker=0).value.trump == "no_trump"


def test_h07_a_joker_declaration_shows_every_copy_the_three_decks_hold():
    v, parent = both("h07_jokers_as_many_as_decks")
    assert judge_declarations(v, "5", [(0, cards("J- J-"))], first_hand=False, banker=0).reason == "wrong_count"
    got = judge_declarations(v, "5", [(0, cards("J- J- J-"))], first_hand=False, banker=0).value
    assert got.legal and got.trump == "no_trump"                           # H07: three small jokers, no trump
    # 003 (declare.jokers): jokers never declare
    assert judge_declarations(parent, "5", [(0, cards("J- J- J-"))], first_hand=False,
                              banker=0).reason == "jokers_not_allowed"


def test_h08_jokers_declare_only_after_the_burial():
    v, parent = both("h08_jokers_after_burial")
    sequence = [(0, cards("5H")), (1, cards("J- J-"))]
    # before the kitty is taken: 000:2.6 lets the joker pair overcall, H08 does not
    assert judge_declarations(parent, "5", sequence, first_hand=False, banker=0).value.trump == "no_trump"
    assert judge_declarations(v, "5", sequence, first_hand=False, banker=0).reason == "jokers_not_allowed"
    # after it: 000 has closed declaring (kitty_taken), H08 lets the jokers in, and only them
    assert judge_declarations(parent, "5", sequence, first_hand=False, banker=0, kitty_taken=True).reason == \
        "kitty_taken"
    assert judge_declarations(v, "5", sequence, first_hand=False, banker=0, kitty_taken=True).value.trump == \
        "no_trump"
    assert judge_declarations(v, "5", [(0, cards("5H")), (1, cards("5S 5S"))], first_hand=False, banker=0,
                              kitty_taken=True).reason == "kitty_taken"


def test_h23_the_jack_rule_by_shape_and_score():
    """H23 (issue 32's list: "a single J sends the level back to 7, a pair to 3, only when the attackers have 80 or
    more"): the shape of the winning play picks the target; below 80 points nobody goes back."""
    from reference_impl.scoring import knock_back
    v, parent = both("h23_jack_rule_by_shape")
    assert knock_back(v, "J", cards("JH"), "attackers", None, 80) == "7"          # a single J, 80 points
    assert knock_back(v, "J", cards("JH JH"), "attackers", None, 120) == "3"      # a pair of one J
    assert knock_back(v, "J", cards("JH"), "attackers", None, 75) is None         # below 80: no hook
    assert knock_back(v, "J", cards("JH JS"), "attackers", None, 120) is None     # two different Js: no pair
    assert knock_back(v, "J", cards("JH JH"), "banker", None, 120) is None        # the banker side's own pair
    assert knock_back(parent, "J", cards("JH JH"), "attackers", None, 120) is None
    # V67 keeps its reading: a single J only, whatever the score
    v67, _ = both("v67_jack_rule")
    assert knock_back(v67, "J", cards("JH"), "attackers", None, 0) == "2"
    assert knock_back(v67, "J", cards("JH JH"), "attackers", None, 120) is None


# H33: sunbin1998can/tractor-card-game-codex, packages/engine/src/GameEngine.ts at c00308dc: finishRound multiplies the
# kitty by 2 * 2 ** lastTrickLeadPairCount when the attackers win the last trick; finishTrick sets that count to 1 for
# a PAIR lead, to the tractor's length for a TRACTOR lead and to 0 for any other (a single, a throw). Level 2, spades
# trump; the kitty holds 25 points.
H33_KITTIES = [
    ("AH", 2),                      # a single: 2 * 2 ** 0
    ("AH AH", 4),                   # a pair: 2 * 2 ** 1
    ("KH KH AH AH", 8),             # a two-pair tractor: 2 * 2 ** 2
    ("QS QS KS KS AS AS", 16),      # a three-pair tractor of trumps: 2 * 2 ** 3
    ("AH AH 9H", 2),                # a throw holding a pair: 0 pairs counted, x2
    ("KH KH AH AH 9H", 2),          # a throw holding a tractor: x2
]


@pytest.mark.parametrize("play,multiplier", H33_KITTIES)
def test_h33_the_kitty_doubles_per_pair_of_a_pair_or_tractor_and_a_throw_counts_x2(play, multiplier):
    v, parent = both("h33_kitty_lead_pairs")
    assert kitty(v, play, KITTY_8) == 25 * multiplier
    h25 = rules_for("h25_kitty_pairs")   # the same repository's docs/RULES.md §9.2 counts the throw's pairs
    if " " in play and len(set(play.split())) != len(play.split()) and classify(
            context(v, "2", "S"), cards(play)).kind == "throw":
        assert kitty(h25, play, KITTY_8) > kitty(v, play, KITTY_8)
    else:
        assert kitty(h25, play, KITTY_8) == kitty(v, play, KITTY_8)


# H34 (spec/house_rules.tsv): a joker pair keeps the trump suit. The tuolaji engine (code index file 41857568324):
# GameState.declare_trump accepts a stronger joker-only bid, its bidder becoming the declaring player, and sets
# trump_suit only from a card that is not a joker ("Joker-only bids don't reveal a suit - keep last suit").
def test_h34_a_joker_pair_overcalls_and_the_overcalled_suit_stays_trump():
    v, parent = both("h34_joker_keeps_suit")
    sequence = [(0, cards("9S")), (2, cards("J+ J+"))]
    got = judge_declarations(v, "9", sequence, first_hand=True).value
    # declare_trump: strength of a big-joker pair beats a single level card; trump_suit stays spades
    assert got.legal and got.trump == _suit_index("S") and got.declarer == 2
    # 000:2.6 as r000 reads it (declare.joker_pair): the joker pair makes the hand no-trump
    assert judge_declarations(parent, "9", sequence, first_hand=True).value.trump == "no_trump"
    # a joker pair overcalling a joker pair keeps what the first one kept
    again = judge_declarations(v, "9", [(1, cards("9H")), (3, cards("J- J-")), (0, cards("J+ J+"))],
                               first_hand=False, banker=1).value
    assert again.legal and again.trump == _suit_index("H") and again.declarer == 0


def test_h34_a_joker_pair_declared_first_has_no_suit_to_keep():
    # the engine plays its default spades here (not followed, an alternative of the file); the file reads the
    # hand as 000 reads a joker declaration (000:2.6, declare.joker_pair): no-trump
    v, _ = both("h34_joker_keeps_suit")
    got = judge_declarations(v, "9", [(3, cards("J- J-"))], first_hand=True).value
    assert got.legal and got.trump == "no_trump" and got.declarer == 3


def _suit_index(letter: str) -> int:
    """The interpreter's suit index (0 spades, 1 hearts, 2 diamonds, 3 clubs; reference_impl.declaring)."""
    return "SHDC".index(letter)


# H35 (spec/house_rules.tsv): a throw an opponent could ruff fails. sunbin1998can/tractor-card-game-codex,
# packages/engine/src/Throw.ts canBeatPart (c00308dc): a hand void in the part's suit group beats it with any trump
# unit of its shape (canBeatPartWithGroup, trumping); docs/RULES.md 8.4 says the same.
def test_h35_a_void_hand_holding_a_trump_single_blocks_the_throws_single():
    v, parent = both("h35_ruff_blocks_throw")
    ctx, pctx = context(v, "10", "S"), context(parent, "10", "S")
    throw, void_with_trump = cards("3H 3H 4H 4H 7H"), [cards("JS 4D"), cards("5D"), cards("6C")]
    got = judge_lead(ctx, throw, void_with_trump)
    # canBeatPart: the next hand holds no heart and a trump single (J of spades): the single 7H is beaten
    assert got.reason == "throw_beaten" and sorted(got.extra["failure"].blocked) == sorted(cards("7H"))
    # 000:2.16b: only a higher single, pair or tractor of the suit blocks a throw; no heart is held
    assert judge_lead(pctx, throw, void_with_trump).value


def test_h35_a_trump_unit_blocks_only_a_component_of_its_shape():
    v, _ = both("h35_ruff_blocks_throw")
    ctx = context(v, "10", "S")
    # canBeatPartWithGroup: a pair part needs a trump pair, a tractor part a trump tractor of its length
    pair_only = [cards("JS JS 4D"), cards("5D"), cards("6C")]
    assert sorted(judge_lead(ctx, cards("4H 4H 5H 5H 7H 7H"), pair_only).extra["failure"].blocked) == \
        sorted(cards("7H 7H"))
    # a hand still holding a heart is not void: its trumps do not count (it must follow in the suit)
    assert judge_lead(ctx, cards("3H 3H 4H 4H 7H"), [cards("JS 2H"), cards("5D"), cards("6C")]).value
    # a throw of trumps is judged as before: nothing ruffs trumps
    assert judge_lead(ctx, cards("3S 3S 4S 4S 7S"), [cards("JD 4D"), cards("5D"), cards("6C")]).value


# H36 (spec/house_rules.tsv): reaching A wins the game. sunbin1998can/tractor-card-game-codex, GameEngine.ts
# finishRound (c00308dc): GAME_OVER as soon as the advancing team's levelTo is A, nextLevel capping at A.
def test_h36_a_team_reaching_a_wins_without_playing_it():
    v, parent = both("h36_reach_ace_wins")
    # finishRound: Q + 2 (attackers taking 160-195) reaches A: GAME_OVER, level A
    got = advance(v, "Q", 2, as_banker=False).value
    assert (got.level, got.won) == ("A", True)
    # nextLevel caps the climb at A: K + 3 stops at A, and the game is won
    assert (advance(v, "K", 3, as_banker=True).value.level, advance(v, "K", 3, as_banker=True).value.won) == ("A", True)
    # below A nothing changes: Q + 1 is K
    assert (advance(v, "Q", 1, as_banker=True).value.level, advance(v, "Q", 1, as_banker=True).value.won) == \
        ("K", False)
    # 000 read with an end at A (level.progression, play_to_ace): a team wins by passing A, so reaching it is not yet
    assert advance(parent, "Q", 2, as_banker=False).value.won is False


# H37 (spec/house_rules.tsv): a tractor not matched is followed by the lowest fill. sunbin1998can/tractor-card-game-
# codex, packages/engine/src/Follow.ts (c00308dc): buildExpectedInsufficient (the longest run of pairs, then pairs by
# ascending cardKey, then singles by ascending cardKey) and validateFollowPlay (any other play:
# INSUFFICIENT_TRACTOR_TEMPLATE_MISMATCH).
def test_h37_the_lowest_pairs_fill_a_tractor_the_follower_cannot_match():
    from reference_impl.legal import follow_options
    v, parent = both("h37_lowest_fill")
    ctx, pctx = context(v, "5", "S"), context(parent, "5", "S")
    lead, hand = cards("7H 7H 8H 8H"), cards("3H 3H 9H 9H QH QH AH 4D")
    # buildExpectedInsufficient: no run of pairs, so the two lowest pairs, 3H 3H and 9H 9H
    assert judge_follow(ctx, lead, hand, cards("3H 3H 9H 9H")).value
    got = judge_follow(ctx, lead, hand, cards("9H 9H QH QH"))
    assert (got.value, got.reason) == (False, "must_play_tractor")
    # 000:2.16a (follow.pairs): a tractor not matched is followed by pairs, any of them
    assert judge_follow(pctx, lead, hand, cards("9H 9H QH QH")).value
    # the legal plays are that one fill
    assert [sorted(p) for p in follow_options(ctx, classify(ctx, lead), hand)] == [sorted(cards("3H 3H 9H 9H"))]


def test_h37_the_longest_run_comes_first_then_the_lowest_pair():
    v, _ = both("h37_lowest_fill")
    ctx = context(v, "5", "S")
    lead, hand = cards("7H 7H 8H 8H 9H 9H"), cards("9H 9H 10H 10H KH KH 3H 3H 2H 4D")
    # the run 9H 9H 10H 10H (two pairs, the lead has three), then the lowest other pair, 3H 3H, not KH KH
    assert judge_follow(ctx, lead, hand, cards("9H 9H 10H 10H 3H 3H")).value
    assert judge_follow(ctx, lead, hand, cards("9H 9H 10H 10H KH KH")).reason == "must_play_tractor"
    # a follower holding a tractor as long plays one, as 000:2.16a says (the fill is not dictated)
    assert judge_follow(ctx, lead, cards("9H 9H 10H 10H JH JH 3H 3H"), cards("9H 9H 10H 10H JH JH")).value


# H38 (spec/house_rules.tsv): a refused follow is told to play its pairs first. tonyyunyang/80-fen-shengji,
# src/rules.js (b832176c): followError returns '有对子时必须跟足对子' when pairCount(followed) < min(pairCount(lead),
# pairCount(held)), before '必须跟出手中可用的拖拉机'; abadcafe/tractor-game, server/game/rules/follow.py (b717526e):
# illegal_follow_rejection checks the pairs played (MustFollowPairsRejected) before the sub-play priority.
def test_h38_a_follow_short_of_pairs_and_of_the_tractor_is_told_to_play_its_pairs():
    v, parent = both("h38_pairs_named_first")
    ctx, pctx = context(v, "5", "S"), context(parent, "5", "S")
    lead, hand = cards("7H 7H 8H 8H"), cards("3H 3H 9H 9H 10H 10H QH 4D")
    # one pair played where two are asked (the lead's two, the hand's three): the pairs are named first
    got, was = judge_follow(ctx, lead, hand, cards("3H 3H QH 9H")), judge_follow(pctx, lead, hand, cards("3H 3H QH 9H"))
    assert (got.value, got.reason) == (False, "must_play_pair")
    # 000:2.16c (follow.pairs): the hand holds the tractor 9H 9H 10H 10H, the largest obligation broken
    assert (was.value, was.reason) == (False, "must_play_tractor")
    # pairs enough but not the tractor: the tractor is named under both; the tractor itself is legal under both
    assert judge_follow(ctx, lead, hand, cards("3H 3H 9H 9H")).reason == "must_play_tractor"
    assert judge_follow(ctx, lead, hand, cards("9H 9H 10H 10H")).value and \
        judge_follow(pctx, lead, hand, cards("9H 9H 10H 10H")).value
