"""Penalties the sources state in prose, executed (issue 11): each expected value from the source text.

Points are the signed change to the attackers' points (penalty.who_scores); results are the side that
holds the bank next and its levels.
"""
import pytest

from conformance.protocol.engine import InputError, judge
from reference_impl.cards import parse_cards
from reference_impl.declaring import judge_declarations
from reference_impl.penalties import Fault, judge_fault, judge_penalties
from reference_impl.rules import rules_for
from reference_impl.scoring import HandResult

from .rule_variants import variant

ATT, BNK = "attackers", "banker"


def hand_result(name, faults, points):
    rules = rules_for(name) if isinstance(name, str) else name
    return judge_penalties(rules, [Fault(*f) for f in faults], points).value


# --- 000:2.16f and 2.17d are two faults ---------------------------------------------------------------

@pytest.mark.parametrize("fault, offender, count, points, result", [
    # 2.16f 手中多牌、少牌: the stage changes, no points
    ("wrong_count", BNK, 3, 0, HandResult(ATT, 0)),    # 庄家方下台，抓分方上台
    ("wrong_count", ATT, 3, 0, HandResult(BNK, 1)),    # 庄家方自动升一级
    # 2.17d 出多牌、出少牌者，每张都扣10分: points, no stage change (100 − 30 = 70: 2.15 banker +1)
    ("played_count", ATT, 3, -30, HandResult(BNK, 1)),
    ("played_count", BNK, 3, 30, HandResult(ATT, 1)),  # 100 + 30 = 130: 2.15 120–155, attackers +1
])
def test_000_holding_and_playing_the_wrong_number_of_cards(fault, offender, count, points, result):
    out = hand_result("r000", [(fault, offender, count)], 100)
    assert (out.points, out.result) == (points, result)


# --- 000:2.17b/c/e discovered later ------------------------------------------------------------------

@pytest.mark.parametrize("offender, points, result", [
    (BNK, 20, HandResult(ATT, 0)),   # 2.17b 少跟1对，扣20分: 90 + 20 = 110, 2.15 80–115
    (ATT, -20, HandResult(BNK, 1)),  # 90 − 20 = 70, 2.15 40–75 banker +1
])
def test_000_2_17b_revoke_found_at_once_costs_points(offender, points, result):
    out = hand_result("r000", [("revoke", offender, 2)], 90)
    assert (out.points, out.consequence, out.result) == (points, "none", result)


@pytest.mark.parametrize("offender, result", [
    (BNK, HandResult(ATT, 0)),   # 2.17b/c 如在过后被发现，因已无法回复，则对手直接上庄 (2.16f: 庄家方下台)
    (ATT, HandResult(BNK, 1)),   # the attackers' opponents hold the bank already: 2.16f 庄家方自动升一级
])
def test_000_2_17bc_revoke_found_later(offender, result):
    out = hand_result("r000", [("revoke", offender, 2, "late")], 150)
    assert out.result == result
    out_now = hand_result("r000", [("revoke", offender, 2, "at_once")], 150)
    assert out_now.consequence == "none"                 # found at once: points and replay only


@pytest.mark.parametrize("offender, result", [
    (BNK, HandResult(ATT, 0)),   # 2.17e 下轮后发现，如果为自己对家隐瞒的，对手上庄
    (ATT, HandResult(BNK, 0)),   # against an attacking thrower the banker side keeps the bank, no level
])
def test_000_2_17e_failed_throw_concealed(offender, result):
    out = hand_result("r000", [("failed_throw", offender, 2, "late")], 150)
    assert out.result == result
    assert out.points == (-20 if offender == ATT else 20)   # 甩错牌一方以拿回的张数×10计扣分
    assert hand_result("r000", [("failed_throw", ATT, 2)], 150).result == HandResult(ATT, 1)  # at once: 130


# --- 001:14.2 both sides' counts wrong --------------------------------------------------------------

def test_001_14_2_both_sides_wrong_count_voids_the_hand():
    # 双方劳改处罚：该盘比赛不算，双方在原所打级点基数上进行抢庄
    out = hand_result("r001", [("wrong_count", "both")], 200)
    assert (out.ends_hand, out.consequence, out.result) == (True, "hand_void_rebid", HandResult(None, 0, True))
    # 14.1 单方劳改: 该盘比赛结束，不算台上分，对家升二级
    assert hand_result("r001", [("wrong_count", BNK)], 200).result == HandResult(ATT, 2)
    with pytest.raises(ValueError):   # 003 names no such case: each side's count is its own fault (8.2)
        hand_result("r003", [("wrong_count", "both")], 100)


# --- 001:16 signals ---------------------------------------------------------------------------------

@pytest.mark.parametrize("offender, result", [
    (BNK, HandResult(ATT, 0)),   # 处以庄家失去坐庄资格
    (ATT, HandResult(BNK, 1)),   # 攻庄方让对手升一级
])
def test_001_16_signals(offender, result):
    assert hand_result("r001", [("signals", offender)], 200).result == result
    # 000 names no penalty for signalling (000:4.2 is a rule of conduct only): the score decides
    assert hand_result("r000", [("signals", offender)], 100).consequence == "none"


# --- 003:10.3 looking back, 003:11.1 and 001:15.1 lateness -------------------------------------------

@pytest.mark.parametrize("offender, times, points", [(ATT, 1, -10), (ATT, 3, -30), (BNK, 2, 20)])
def test_003_10_3_each_look_at_played_cards_costs_ten(offender, times, points):
    # 凡是动手查阅他人已经出过的牌或询问同伴出过什么牌，每次扣10分
    j = judge_fault(rules_for("r003"), "looking_back", offender, times)
    assert j.value.points_delta == points and "penalty.looking_back" in j.clauses
    assert judge_fault(rules_for("r001"), "looking_back", offender, times).value.points_delta == 0


@pytest.mark.parametrize("minutes, points, consequence, result", [
    (0, 0, "none", HandResult(BNK, 1)),
    (5, 0, "none", HandResult(BNK, 1)),                      # 迟到5分钟之内警告
    (6, -30, "none", HandResult(BNK, 2)),                    # 6-10分钟，首轮扣30分 (100 − 30 = 70: 003:4 +2)
    (10, -30, "none", HandResult(BNK, 2)),
    (11, 0, "opponents_up_one", HandResult(BNK, 1)),        # 11-15分钟，首轮自动放弃，对手自动升一级
    (15, 0, "opponents_up_one", HandResult(BNK, 1)),
    (16, 0, "forfeit_game", HandResult(None, 0, forfeit=ATT)),  # 15分钟以上判该局弃权
])
def test_003_11_1_lateness(minutes, points, consequence, result):
    out = hand_result("r003", [("lateness", ATT, 0, "at_once", minutes)], 100)
    assert (out.points, out.consequence, out.result) == (points, consequence, result)


@pytest.mark.parametrize("minutes, consequence", [(9, "none"), (10, "forfeit_game"), (25, "forfeit_game")])
def test_001_15_1_ten_minutes_late_forfeits(minutes, consequence):
    # 001:15.1 迟到10分钟按弃权处理
    assert hand_result("r001", [("lateness", BNK, 0, "at_once", minutes)], 100).consequence == consequence


# --- 003:8.1 a wrong card found late is a wrong card count (8.2) ---------------------------------------

@pytest.mark.parametrize("offender, points, result", [
    (BNK, 60, HandResult(ATT, 0)),    # 60 + 20 = 80: 8.2 庄家一方…非庄家得分未到120分的话，按120分计算
    (ATT, 150, HandResult(BNK, 1)),   # 150 − 20 = 130: 8.2 非庄家一方…已经达到120分的话，按不足120分计算
    (ATT, 130, HandResult(BNK, 2)),   # 130 − 20 = 110: 8.2 如果得分不足120分的话，再减一级分数
])
def test_003_8_1_wrong_card_found_near_the_end(offender, points, result):
    # revoke of 2 cards: 10 each (8.1), found only near the end → 8.2's card-count rule
    out = hand_result("r003", [("revoke", offender, 2, "late")], points)
    assert out.result == result
    assert out.consequence == ("count_as_threshold" if offender == BNK else "count_below_threshold")


# --- 001: several penalties in one hand (001:g10) -------------------------------------------------------

def test_001_several_penalties_a_revoke_voids_the_earlier_points():
    # 9f 甩牌失败10×3 = 30, then 12.2 藏牌 by the banker side: 该盘马上比赛结束，所得分数不算
    faults = [("failed_throw", ATT, 3), ("exposed_card", BNK, 1), ("revoke", BNK, 2)]
    out = hand_result("r001", faults, 150)
    assert (out.points, out.ends_hand, out.result) == (0, True, HandResult(ATT, 0))
    # the other reading keeps the penalty points already incurred (−30 + 10)
    out = hand_result(variant("r001", "penalty.several", "penalties_stand"), faults, 150)
    assert (out.points, out.ends_hand, out.result) == (-20, True, HandResult(ATT, 0))


def test_001_several_penalties_the_first_hand_ending_fault_decides():
    # an attackers' revoke (banker +1) found with a banker's wrong count (attackers +2): the first decides
    assert hand_result("r001", [("revoke", ATT, 1), ("wrong_count", BNK)], 100).result == HandResult(BNK, 1)
    assert hand_result("r001", [("wrong_count", BNK), ("revoke", ATT, 1)], 100).result == HandResult(ATT, 2)


def test_points_of_several_faults_add_up_without_a_hand_ending_one():
    # 000: 2.17d −20 and 2.17b +20 cancel; the score table decides
    out = hand_result("r000", [("played_count", ATT, 2), ("revoke", BNK, 2)], 100)
    assert (out.points, out.ends_hand, out.result) == (0, False, HandResult(ATT, 0))


# --- 003:6.3 a wrong declaration bars the partner from its suit ----------------------------------------

def _declare(name, wrong, sequence, level="2", first_hand=True):
    seq = [(s, parse_cards(c)) for s, c in sequence]
    return judge_declarations(rules_for(name), level, seq, first_hand,
                              wrong=[(s, parse_cards(c)) for s, c in wrong])


def test_003_6_3_the_wrong_declarers_partner_may_not_declare_that_suit():
    # 亮错牌（例如打"2"时亮出了"3"）…扣10分，而且他的同伴不能亮这门花色
    j = _declare("r003", [(0, "3H")], [(2, "2H")])
    assert (j.value.legal, j.reason) == (False, "partner_barred")
    assert "declare.wrong" in j.clauses
    assert _declare("r003", [(0, "3H")], [(2, "2S")]).value.legal      # another suit
    assert _declare("r003", [(0, "3H")], [(1, "2H")]).value.legal      # an opponent
    assert _declare("r000", [(0, "3H")], [(2, "2H")]).value.legal      # 000 names no such bar
    assert judge_fault(rules_for("r003"), "wrong_declaration", ATT, 1).value.points_delta == -10


def test_003_6_3_through_the_protocol():
    inp = {"level": "2", "first_hand": True, "declarations": [{"seat": 1, "cards": ["2S"]},
                                                              {"seat": 2, "cards": ["2H", "2H"]}],
           "wrong": [{"seat": 0, "cards": ["2H"]}]}
    result, clauses = judge("declare", "r003", inp)
    assert (result["legal"], result["reason"], result["trump"]) == (False, "partner_barred", "S")
    with pytest.raises(InputError):
        judge("declare", "r003", dict(inp, wrong=[{"seat": 7, "cards": ["2H"]}]))


# --- the penalty operation ---------------------------------------------------------------------------

def test_the_penalty_operation_answers_as_the_interpreter():
    inp = {"faults": [{"fault": "failed_throw", "offender": "attackers", "count": 3},
                      {"fault": "revoke", "offender": "banker", "count": 2}], "attackers_points": 150}
    result, clauses = judge("penalty", "r001", inp)
    assert result == {"points": 0, "ends_hand": True, "consequence": "attackers_take_stage",
                      "next_banker": "attackers", "levels": 0}
    assert {"lead.throw_fail", "penalty.revoke", "penalty.several"} <= set(clauses)
    result, _ = judge("penalty", "r003", {"faults": [{"fault": "lateness", "offender": "banker", "minutes": 20}],
                                         "attackers_points": 0})
    assert (result["consequence"], result["next_banker"]) == ("forfeit_game", None)


@pytest.mark.parametrize("inp, message", [
    ({"faults": [], "attackers_points": 0}, "non-empty"),
    ({"faults": [{"fault": "cheating", "offender": "banker"}], "attackers_points": 0}, "cheating"),
    ({"faults": [{"fault": "revoke", "offender": "nobody"}], "attackers_points": 0}, "offender"),
    ({"faults": [{"fault": "revoke", "offender": "banker", "count": -1}], "attackers_points": 0}, "count"),
    ({"faults": [{"fault": "revoke", "offender": "banker", "found": "never"}], "attackers_points": 0}, "found"),
    ({"faults": [{"fault": "lateness", "offender": "banker"}], "attackers_points": 0}, "minutes"),
    ({"faults": [{"fault": "wrong_kitty", "offender": "attackers"}], "attackers_points": 0}, "buries"),
    ({"faults": [{"fault": "revoke", "offender": "banker"}], "attackers_points": "x"}, "attackers_points"),
    ({"faults": [{"fault": "revoke", "offender": "banker"}], "attackers_points": 3}, "not a multiple of 5"),  # no hand gives 3 points
])
def test_the_penalty_operation_refuses_bad_input_clearly(inp, message):
    with pytest.raises(InputError, match=message):
        judge("penalty", "r000", inp)
