"""The two readings a second referee found the spec did not offer (issue 19): each is now a reading of its
clause, and choosing it changes the interpreter's answer on the position the source sentence is about.
Hearts are a side suit (trump spades, level J)."""
from reference_impl.following import judge_follow
from reference_impl.levels import advance
from reference_impl.rules import rules_for
from reference_impl.trump import context

from .helpers import cards
from .rule_variants import variant

# A bulldozer (推土机) led; the follower holds a three-pair tractor and a loose pair of hearts, no triple.
LEAD = "9H 9H 9H 8H 8H 8H"
HAND = "AH AH KH KH QH QH 5H 5H 7C"


def follow(rules, play):
    j = judge_follow(context(rules, "J", "S"), cards(LEAD), cards(HAND), cards(play))
    return bool(j.value), j.reason


def test_001_9d_step_1_read_as_the_leads_own_shape_lets_three_loose_pairs_answer():
    # 001:9d as chosen: no tractor of triples held, no triple: step 4 '三对' (three pairs) decides, any three pairs
    assert follow(rules_for("r001"), "AH AH KH KH 5H 5H") == (True, "ok")


def test_001_9d_step_1_read_with_10_2_and_12_1_asks_for_the_pair_tractor():
    # 001:9d step 1 '拖拉机' read with 10.2 (AAKKQQ against 999888) and 12.1 (有拖不出拖): the six-card pair
    # tractor held must be played, so three loose pairs are a revoke
    rules = variant("r001", "follow.triple_tractor", "any_tractor")
    assert follow(rules, "AH AH KH KH 5H 5H") == (False, "must_play_tractor")
    assert follow(rules, "AH AH KH KH QH QH") == (True, "ok")


def test_000_2_9_as_chosen_a_team_passing_a_wins():
    # 000:2.9 read with an end at A (reading play_to_ace): K + 2 passes A
    assert advance(rules_for("r000"), "K", 2, True).value.won


def test_000_2_9_wrap_reading_stops_a_climb_past_a_at_2():
    # 000:2.9 逢2必打 read as levels wrapping past A: a climb past A stops at the must-play 2
    rules = variant("r000", "level.progression", "wrap")
    for level, gain in (("K", 2), ("A", 1), ("A", 3), ("Q", 4)):
        got = advance(rules, level, gain, True).value
        assert (got.level, got.won) == ("2", False), (level, gain)
    assert advance(rules, "5", 3, False).value.level == "8"   # no wrap: an ordinary climb
