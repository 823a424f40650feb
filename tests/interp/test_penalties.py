"""Penalties: points settled on the attackers' score, and the hand results faults lead to."""
import pytest

from reference_impl.penalties import FaultOutcome, apply_consequence, by_points_step, judge_fault
from reference_impl.rules import rules_for
from reference_impl.scoring import HandResult

ATT, BNK = "attackers", "banker"


def result_after(name, fault, offender, points, cards=0):
    rules = rules_for(name)
    f = judge_fault(rules, fault, offender, cards=cards)
    return f.value, apply_consequence(rules, f.value.consequence, offender, points + f.value.points_delta,
                                      setting=f.extra["setting"])


# --- points ------------------------------------------------------------------

@pytest.mark.parametrize("offender,delta", [(ATT, -30), (BNK, 30)])
def test_001_9f_failed_throw_ten_per_card_thrown(offender, delta):
    # 001:9f 甩4.5.6三张牌失败，则处罚10*3=30分; settled on the attackers' score (001:g6)
    j = judge_fault(rules_for("r001"), "failed_throw", offender, cards=3)
    assert j.value == FaultOutcome(delta, False, "none")
    assert "lead.throw_fail" in j.clauses and "penalty.who_scores" in j.clauses


def test_000_2_17b_one_pair_short_costs_twenty():
    # 000:2.17b 少跟1对，扣20分
    assert judge_fault(rules_for("r000"), "revoke", ATT, cards=2).value == FaultOutcome(-20, False, "none")


def test_001_13_exposed_cards_compensate_the_other_side():
    r = rules_for("r001")
    assert judge_fault(r, "exposed_card", ATT, cards=2).value.points_delta == -20
    assert judge_fault(r, "exposed_card", BNK, cards=1).value.points_delta == 10


@pytest.mark.parametrize("name,delta", [("r003", -10), ("r000", 0), ("r001", 0)])
def test_wrong_declaration_points(name, delta):
    # 003:6.3 亮错牌扣10分; 000 and 001 name no penalty (spec declare.wrong / declare.overcall)
    assert judge_fault(rules_for(name), "wrong_declaration", ATT).value.points_delta == delta


def test_extra_points_are_settled_the_same_way():
    assert judge_fault(rules_for("r003"), "exposed_card", ATT, cards=0, points=20).value.points_delta == -20


# --- revoke -----------------------------------------------------------------

@pytest.mark.parametrize("offender,result", [(ATT, HandResult(BNK, 1)), (BNK, HandResult(ATT, 0))])
def test_001_12_2_revoke_ends_the_hand(offender, result):
    # 001:12.2 该盘马上比赛结束，所得分数不算:
    # attackers at fault → banker +1; banker side at fault → attackers take the bank
    outcome, j = result_after("r001", "revoke", offender, points=150 if offender == ATT else 0)
    assert outcome.ends_hand
    assert j.value == result
    assert "penalty.revoke" in j.clauses


@pytest.mark.parametrize("name,delta,ends,consequence", [
    ("r000", 20, False, "none"),                      # 000:2.17b/c 10 per card, replay
    ("r001", 0, True, "attackers_take_stage"),        # 001:12.2
    ("r003", 20, False, "none"),                      # 003:8.1 10 per wrong card
])
def test_banker_side_revoke_of_two_cards_across_rulesets(name, delta, ends, consequence):
    assert judge_fault(rules_for(name), "revoke", BNK, cards=2).value == FaultOutcome(delta, ends, consequence)


# --- wrong card count ---------------------------------------------------------

@pytest.mark.parametrize("points,result", [
    (60, HandResult(ATT, 0)),     # below 120 counts as 120: attackers take the stage
    (115, HandResult(ATT, 0)),
    (120, HandResult(ATT, 1)),    # at 120: one more level than +0
    (150, HandResult(ATT, 2)),    # 150 is +1 (30 a level), one more
    (210, HandResult(ATT, 4)),    # 210 is +3 (003:4 no cap), one more
], ids=lambda v: str(v))
def test_003_8_2_banker_side_wrong_count(points, result):
    outcome, j = result_after("r003", "wrong_count", BNK, points)
    assert outcome == FaultOutcome(0, False, "count_as_threshold")
    assert j.value == result
    assert j.extra["counted_points"] == max(points, 120)


@pytest.mark.parametrize("points,result", [
    (120, HandResult(BNK, 1)),    # at 120 counts as short of 120 (115: banker +1)
    (200, HandResult(BNK, 1)),
    (115, HandResult(BNK, 2)),    # below 120: one level less for the attackers = banker +1 more
    (90, HandResult(BNK, 2)),
    (60, HandResult(BNK, 3)),
    (30, HandResult(BNK, 4)),     # 30 is banker +3 (003:4 no cap), one more
], ids=lambda v: str(v))
def test_003_8_2_attackers_wrong_count(points, result):
    outcome, j = result_after("r003", "wrong_count", ATT, points)
    assert outcome.consequence == "count_below_threshold"
    assert j.value == result


@pytest.mark.parametrize("offender,result", [(BNK, HandResult(ATT, 2)), (ATT, HandResult(BNK, 2))])
def test_001_14_1_wrong_count_opponents_up_two(offender, result):
    outcome, j = result_after("r001", "wrong_count", offender, 100)
    assert outcome.ends_hand and j.value == result


@pytest.mark.parametrize("offender,result", [(BNK, HandResult(ATT, 0)), (ATT, HandResult(BNK, 1))])
def test_000_2_16f_wrong_count(offender, result):
    # 000:2.16f 手中多牌、少牌: 庄家方下台，抓分方上台 / 庄家方自动升一级 — and no points
    outcome, j = result_after("r000", "wrong_count", offender, 100, cards=1)
    assert outcome.points_delta == 0
    assert j.value == result
    assert j.clauses[0] == "penalty.wrong_count"


@pytest.mark.parametrize("offender,delta,result", [
    (BNK, 20, HandResult(ATT, 0)),   # 90 + 20 = 110: 000:2.15 80–115, the attackers take the stage
    (ATT, -20, HandResult(BNK, 1)),  # 90 − 20 = 70: 000:2.15 40–75, banker +1
])
def test_000_2_17d_played_count(offender, delta, result):
    # 000:2.17d 出多牌、出少牌者，每张都扣10分 — and no change of stage of its own
    outcome, j = result_after("r000", "played_count", offender, 90, cards=2)
    assert outcome == FaultOutcome(delta, False, "none")
    assert j.value == result


# --- wrong kitty ---------------------------------------------------------------

@pytest.mark.parametrize("points,levels", [
    (0, 0), (35, 0), (40, 1), (75, 1), (80, 2), (115, 2), (120, 3), (200, 3), (300, 3),
], ids=lambda v: str(v))
def test_000_2_17f_wrong_kitty_by_points(points, levels):
    # 000:2.17f 抓分方直接上庄，并按得分每满40分升1级，最多只能连升3级
    outcome, j = result_after("r000", "wrong_kitty", BNK, points)
    assert outcome.consequence == "attackers_take_stage_by_points"
    assert j.value == HandResult(ATT, levels)
    assert "penalty.wrong_kitty" in j.clauses


def test_000_by_points_step_is_the_tables():
    assert by_points_step(rules_for("r000")) == 40   # 000:2.15 120 − 80


@pytest.mark.parametrize("name,points", [("r003", 0), ("r003", 200)])
def test_003_9_2_wrong_kitty_changes_the_bank_plus_one(name, points):
    # 003:9.2 留错底牌判"转庄"，再加一级
    _, j = result_after(name, "wrong_kitty", BNK, points)
    assert j.value == HandResult(ATT, 1)


@pytest.mark.parametrize("points", [0, 50, 200])
def test_001_wrong_kitty_is_a_wrong_card_count(points):
    # 001 has no wrong-kitty rule: the banker then holds the wrong number of cards, 14.1 单方劳改: 对家升二级
    _, j = result_after("r001", "wrong_kitty", BNK, points)
    assert j.value == HandResult(ATT, 2)


def test_only_the_banker_buries():
    with pytest.raises(ValueError):
        judge_fault(rules_for("r003"), "wrong_kitty", ATT)


# --- other consequences ----------------------------------------------------------

def test_none_keeps_the_score_table():
    assert apply_consequence(rules_for("r001"), "none", ATT, 180).value == HandResult(ATT, 1)   # 001:8a


def test_hand_void_rebid():
    # 001:14.2 双方劳改: the hand is void and both sides bid again
    assert apply_consequence(rules_for("r001"), "hand_void_rebid", ATT, 200).value == HandResult(None, 0, True)


def test_unknown_names_are_refused():
    with pytest.raises(ValueError):
        judge_fault(rules_for("r001"), "cheating", ATT)
    with pytest.raises(ValueError):
        apply_consequence(rules_for("r001"), "forfeit", ATT, 0)
    with pytest.raises(ValueError):   # 000 names no consequence for both sides' wrong counts
        judge_fault(rules_for("r000"), "wrong_count", "both")
