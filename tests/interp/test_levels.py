"""Climbing levels: must-play levels, passing the end level, time-outs."""
import pytest

from reference_impl.levels import Advance, advance, timeout_winner
from reference_impl.rules import rules_for
from tests.interp.rule_variants import variant


# 003:3.2 — from 2 to A; A must be played and cannot be skipped.
@pytest.mark.parametrize("level,gain,as_banker,expected", [
    ("K", 3, False, Advance("A", False)),   # a gain of 3 from K stops at A
    ("K", 3, True, Advance("A", False)),
    ("Q", 3, True, Advance("A", False)),    # lands on A exactly
    ("10", 2, True, Advance("Q", False)),   # an ordinary climb
    ("A", 1, True, Advance("A", True)),     # A played as banker and won: passes A, game won
    ("A", 3, True, Advance("A", True)),
    ("A", 2, False, Advance("A", False)),   # attackers at A take the stage: A not yet played as banker
    ("2", 3, True, Advance("5", False)),
], ids=lambda v: str(v))
def test_003_ace_must_be_played(level, gain, as_banker, expected):
    j = advance(rules_for("r003"), level, gain, as_banker)
    assert j.value == expected
    assert "level.progression" in j.clauses


# 001:4 — from 3 to K, the first team past K wins; no level must be played.
@pytest.mark.parametrize("level,gain,as_banker,expected", [
    ("3", 3, True, Advance("6", False)),
    ("J", 2, True, Advance("K", False)),    # reaching K is not passing it
    ("Q", 3, True, Advance("K", True)),     # passes K
    ("K", 1, True, Advance("K", True)),
    ("K", 1, False, Advance("K", True)),    # K is no must-play level: any gain past K wins
], ids=lambda v: str(v))
def test_001_three_to_king(level, gain, as_banker, expected):
    assert advance(rules_for("r001"), level, gain, as_banker).value == expected


def test_000_must_play_two_is_the_start():
    # 000:2.9 逢2必打: 2 is the start level, never strictly above a team, so it stops no climb
    assert advance(rules_for("r000"), "2", 3, True).value == Advance("5", False)
    assert advance(rules_for("r000"), "2", 1, False).value == Advance("3", False)


# The same climb judged differently: A is must-play in 003 but not in 000 (000:g8 play_to_ace).
@pytest.mark.parametrize("name,expected", [
    ("r000", Advance("A", True)),    # passes A: game won
    ("r003", Advance("A", False)),   # 003:3.2 stops at A
])
def test_king_plus_two(name, expected):
    assert advance(rules_for(name), "K", 2, True).value == expected


def test_no_end_level_stops_at_the_last_rank():
    # 000:g8 reading time_only: level.end = none, only the clock ends the game
    rules = variant("r000", "level.progression", "time_only")
    assert rules["level.end"] is None
    assert advance(rules, "Q", 3, True).value == Advance("A", False)
    assert advance(rules, "A", 1, True).value == Advance("A", False)


def test_zero_gain_stays():
    assert advance(rules_for("r003"), "7", 0, True).value == Advance("7", False)


def test_bad_levels_are_refused():
    with pytest.raises(ValueError):
        advance(rules_for("r001"), "2", 1, True)   # 2 is fixed trump, not a level of 001
    with pytest.raises(ValueError):
        advance(rules_for("r003"), "5", -1, True)


# 000:1, 001:4, 003:3.3 — at time the team ahead in level wins; on equal levels the banker's team.
@pytest.mark.parametrize("name", ["r000", "r001", "r003"])
def test_timeout_higher_level_wins(name):
    j = timeout_winner(rules_for(name), {"NS": "9", "EW": "7"}, banker_team="EW")
    assert j.value == "NS"


@pytest.mark.parametrize("name", ["r000", "r001", "r003"])
def test_timeout_tie_goes_to_the_banker(name):
    j = timeout_winner(rules_for(name), {"NS": "8", "EW": "8"}, banker_team="EW")
    assert j.value == "EW"
    assert rules_for(name).clause("match.tie") in j.clauses


def test_timeout_compares_by_ladder_not_by_text():
    # 10 is above 9 on the ladder (a string comparison would say otherwise)
    assert timeout_winner(rules_for("r003"), {"NS": "10", "EW": "9"}, banker_team="EW").value == "NS"
