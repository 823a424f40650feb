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


# --- levels that must be defended (level.must_defend, issue 32) -----------------------------------------------

# H21 (http://u.360.cn/dlsj/article/122981): "A必打：级牌A不能跳过，只有庄家级牌为A且获胜，才能通过A" — r000's
# reading defend_ace. A team at A passes it only by a hand won as banker; a climb from below stops at A.
@pytest.mark.parametrize("level,gain,as_banker,expected", [
    ("A", 1, False, Advance("A", False)),   # attackers at A take the bank: A not passed
    ("A", 3, False, Advance("A", False)),
    ("A", 1, True, Advance("A", True)),     # 庄家级牌为A且获胜: A passed, game won
    ("K", 3, False, Advance("A", False)),   # 级牌A不能跳过
    ("Q", 2, True, Advance("A", False)),
    ("5", 2, False, Advance("7", False)),   # other levels climb as in 000
], ids=lambda v: str(v))
def test_h21_ace_must_be_defended(level, gain, as_banker, expected):
    j = advance(rules_for("h21_ace_must_be_defended"), level, gain, as_banker)
    assert j.value == expected
    assert "level.progression" in j.clauses


def test_h21_is_r000s_own_alternative_reading():
    # 000:g8, reading defend_ace: the same as the catalogue file; play_to_ace (chosen) wins past A as attackers
    assert advance(variant("r000", "level.progression", "defend_ace"), "A", 1, False).value == Advance("A", False)
    assert advance(rules_for("r000"), "A", 1, False).value == Advance("A", True)


# H20 (rbtying/shengji pull 108, "forced-defend on 5/10/K", with A): 5, 10, K and A must be defended.
@pytest.mark.parametrize("level,gain,as_banker,expected", [
    ("4", 3, True, Advance("5", False)),    # a climb stops at 5
    ("5", 2, False, Advance("5", False)),   # attackers at 5 take the bank and stay at 5
    ("5", 2, True, Advance("7", False)),    # the banker wins at 5: 5 defended, climbs on
    ("7", 3, True, Advance("10", False)),   # stops at 10 (8 + 2 would pass it)
    ("9", 3, False, Advance("10", False)),
    ("K", 1, False, Advance("K", False)),
    ("K", 2, True, Advance("A", False)),    # K defended, stops at A
    ("A", 1, False, Advance("A", False)),
    ("A", 1, True, Advance("A", True)),
], ids=lambda v: str(v))
def test_h20_five_ten_king_ace_must_be_defended(level, gain, as_banker, expected):
    assert advance(rules_for("h20_defend_five_ten_king_ace"), level, gain, as_banker).value == expected



# H26 (ChannonTian/80fen docs/RULES.md §S5, 必打关卡 2/5/10/K): clampAtGate(3, 6) stops at 5, clampAtGate(3, 5) reaches 5,
# clampAtGate(5, 8) goes on to 8, clampAtGate(4, 12) stops at 5; "队 1 坐庄打 2，队 0 抢 150 分 … 队 0 停在 2，只换庄不升级";
# the same at a level that is no gate (3) climbs to 4; 打过 A 就赢整场 (从 A 再升一级).
@pytest.mark.parametrize("level,gain,as_banker,expected", [
    ("3", 3, True, Advance("5", False)),
    ("3", 2, True, Advance("5", False)),
    ("5", 3, True, Advance("8", False)),
    ("4", 8, True, Advance("5", False)),
    ("2", 1, False, Advance("2", False)),
    ("3", 1, False, Advance("4", False)),
    ("2", 1, True, Advance("3", False)),     # 2 defended as banker: passed
    ("A", 1, False, Advance("A", True)),     # A is no gate: any gain past it wins
], ids=lambda v: str(v))
def test_h26_two_five_ten_king_must_be_defended(level, gain, as_banker, expected):
    assert advance(rules_for("h26_defend_two_five_ten_king"), level, gain, as_banker).value == expected

def _wrapping_with_ace_defended():
    from tractor_dsl.checker import check_text
    from reference_impl.rules import Rules
    source = ('ruleset t_wrap_defend extends r000 {\n  title "test"\n'
              '  override level.progression {\n    cites 000:2.9\n    status stated\n'
              '    says "Wrap, A defended."\n    zh "测试。"\n'
              '    set level.ranks = [2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]\n    set level.start = 2\n'
              '    set level.end = none\n    set level.must_play = [2]\n    set level.wrap = true\n'
              '    set level.must_defend = [A]\n  } because "test"\n}\n')
    from tests.interp.rule_variants import SPEC
    lib = check_text(source, "<test>", {str(SPEC / "000.tractor"): (SPEC / "000.tractor").read_text(encoding="utf-8")})
    assert not lib.errors, lib.errors
    return Rules(lib.get("t_wrap_defend"))


def test_with_wrap_only_a_bankers_win_at_ace_wraps_past_it():
    # issue 32: "only a banker's win at A wraps past it"; 逢2必打 still stops a climb past A at 2 (000:2.9)
    rules = _wrapping_with_ace_defended()
    assert advance(rules, "A", 1, False).value == Advance("A", False)
    assert advance(rules, "A", 2, False).value == Advance("A", False)
    assert advance(rules, "A", 1, True).value == Advance("2", False)
    assert advance(rules, "A", 3, True).value == Advance("2", False)
    assert advance(rules, "Q", 3, False).value == Advance("A", False)
    # level.wrap without must_defend: the attackers' gain wraps past A as well
    assert advance(variant("r000", "level.progression", "wrap"), "A", 1, False).value == Advance("2", False)


def test_a_whole_game_passes_a_level_to_defend_only_as_banker():
    """H21 on whole games (reference_impl/game.py): a team at A that gains as attackers stays at A; the game is
    won by a hand the winner played as banker at A."""
    from reference_impl.game import play_game
    from reference_impl.hand import team_of
    rules = rules_for("h21_ace_must_be_defended")
    stayed = 0
    for seed in (1, 2, 3):
        game = play_game(rules, seed, max_hands=400)
        assert game.ended_by == "end level"
        for i, hand in enumerate(game.hands[:-1]):
            banker_team = team_of(hand.banker)
            gaining = banker_team if hand.next_banker_side == "banker" else 1 - banker_team
            if game.levels[i][gaining] == "A" and gaining != banker_team and hand.levels_gained > 0:
                assert game.levels[i + 1][gaining] == "A"
                stayed += 1
        last = game.hands[-1]
        assert game.levels[-1][game.winner] == "A"
        assert team_of(last.banker) == game.winner and last.next_banker_side == "banker"
    assert stayed > 0   # the seeds hold attackers at A taking the bank


# --- who banks next (bank.succession), issue 32 -------------------------------------------------------------------

# H22, sunbin1998can/tractor-card-game-codex docs/RULES.md §9.4: "Banker team levels up -> Banker stays (same seat);
# Swap / Defender team levels up -> Last trick winner becomes banker" (a swap whose last trick the banker's side won:
# the player after the banker, as under rotate - the interpretation h22_bank_to_last_trick states)
@pytest.mark.parametrize("side,last_winner,rotate,h22", [
    ("banker", 0, 2, 0),      # the banker side keeps the bank: the banker stays, whoever won the last trick
    ("banker", 2, 2, 0),
    ("banker", 1, 2, 0),
    ("attackers", 3, 1, 3),   # the attackers take the bank and seat 3 won the last trick: seat 3
    ("attackers", 1, 1, 1),
    ("attackers", 0, 1, 1),   # the banker won it but loses the bank: the player after him (rotate)
    ("attackers", 2, 1, 1),   # the banker's partner won it: the player after the banker
    ("attackers", None, 1, 1),  # a hand a fault ended before its last trick: as rotate
])
def test_the_bank_passes_to_the_winner_of_the_last_trick(side, last_winner, rotate, h22):
    # 000:2.4 reading rotate: "继续坐庄时由对家坐庄，上台时由下家坐庄"
    from reference_impl.game import next_banker
    assert next_banker(rules_for("r000"), 0, side, last_winner) == rotate
    assert next_banker(rules_for("h22_bank_to_last_trick"), 0, side, last_winner) == h22
    # 000:2.4 reading same_player: "本方继续坐庄时由庄家本人坐庄"
    assert next_banker(variant("r000", "bank.succession", "same_player"), 0, side, last_winner) == \
        (0 if side == "banker" else 1)


def test_a_whole_game_under_h22_gives_the_bank_to_the_last_tricks_winner():
    """H22 (§9.4 of the source): a kept bank stays with the banker; a bank the attackers take goes to the attacker who
    won the last trick."""
    from reference_impl.game import play_game
    from reference_impl.hand import team_of
    game = play_game(rules_for("h22_bank_to_last_trick"), 5, max_hands=60)
    moved = kept = 0
    for hand, following in zip(game.hands, game.hands[1:]):
        last = hand.tricks[-1].winner
        if hand.next_banker_side == "banker":
            assert following.banker == hand.banker
            kept += 1
        elif team_of(last) != team_of(hand.banker):
            assert following.banker == last
            moved += 1
    assert moved > 0 and kept > 0
