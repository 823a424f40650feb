"""Hand results from the attackers' points: every band of the score tables at its edges."""
import pytest

from reference_impl.rules import rules_for
from reference_impl.scoring import HandResult, judge_result

B, A = "banker", "attackers"

# 000:2.15 — 0: banker +3; under 40: +2; 40–75: +1; 80–115: attackers take the bank;
# 120–155: +1; 160–195: +2; 200: +3; every further 40 points one more level (no cap, score.table open_steps).
R000 = [
    (0, B, 3), (5, B, 2), (35, B, 2), (40, B, 1), (75, B, 1),
    (80, A, 0), (115, A, 0), (120, A, 1), (155, A, 1), (160, A, 2), (195, A, 2),
    (200, A, 3), (235, A, 3), (240, A, 4), (280, A, 5),
]

# 001:8a — 0 or negative: banker +3 (大光); 5–55: +2 (小光); 60–115: +1; 120: take the stage;
# every 60 more one level (180 +1, 240 +2, 300 +3); at most 3 levels for either side.
R001 = [
    (-20, B, 3), (0, B, 3), (5, B, 2), (55, B, 2), (60, B, 1), (115, B, 1),
    (120, A, 0), (175, A, 0), (180, A, 1), (235, A, 1), (240, A, 2), (295, A, 2),
    (300, A, 3), (360, A, 3), (480, A, 3),
]

# 003:4 — 120 takes the stage, 30 points a level, "其他依此类推" and no cap stated; the table itself is
# missing (003:g1): the bands are the spec's reading thirty_open (interpretation), the 120 / +30 steps stated.
R003 = [
    (120, A, 0), (145, A, 0), (150, A, 1), (180, A, 2), (210, A, 3), (240, A, 4), (300, A, 6),  # stated pattern
    (115, B, 1), (90, B, 1), (85, B, 2), (60, B, 2), (55, B, 3), (30, B, 3), (25, B, 4), (0, B, 4),
]
# The derived ruleset r003_capped: at most 3 levels, as document 001 caps (001:8a 攻守双方最多升三级).
R003_CAPPED = [(210, A, 3), (240, A, 3), (300, A, 3), (55, B, 3), (25, B, 3), (0, B, 3), (60, B, 2), (150, A, 1)]


@pytest.mark.parametrize("points,side,levels", R003_CAPPED, ids=[f"r003_capped@{p}" for p, _, _ in R003_CAPPED])
def test_003_capped_bands(points, side, levels):
    assert judge_result(rules_for("r003_capped"), points).value == HandResult(side, levels)


@pytest.mark.parametrize("points,side,levels", R000, ids=[f"000:2.15@{p}" for p, _, _ in R000])
def test_000_bands(points, side, levels):
    j = judge_result(rules_for("r000"), points)
    assert j.value == HandResult(side, levels)
    assert "score.table" in j.clauses


@pytest.mark.parametrize("points,side,levels", R001, ids=[f"001:8a@{p}" for p, _, _ in R001])
def test_001_bands(points, side, levels):
    j = judge_result(rules_for("r001"), points)
    assert j.value == HandResult(side, levels)
    assert "score.table" in j.clauses


@pytest.mark.parametrize("points,side,levels", R003, ids=[f"003:4@{p}" for p, _, _ in R003])
def test_003_bands(points, side, levels):
    assert judge_result(rules_for("r003"), points).value == HandResult(side, levels)


# The same score judged by each ruleset: 100 points take the stage only in 000 (80 threshold);
# 240 points are +4 in 000 (open steps of 40), +2 in 001 (steps of 60), +4 in 003 (steps of 30, no cap).
@pytest.mark.parametrize("name,points,expected", [
    ("r000", 100, HandResult(A, 0)),   # 000:2.15 80–115
    ("r001", 100, HandResult(B, 1)),   # 001:8a 60–115
    ("r003", 100, HandResult(B, 1)),   # 003:4 below 120
    ("r000", 240, HandResult(A, 4)),   # 000:2.15 every further 40
    ("r001", 240, HandResult(A, 2)),   # 001:8a 240 +2
    ("r003", 240, HandResult(A, 4)),   # 003:4 30 a level, 其他依此类推 (no cap stated)
])
def test_same_points_across_rulesets(name, points, expected):
    assert judge_result(rules_for(name), points).value == expected


def test_cap_reported_in_detail():
    # 001:8a "攻守双方最多升三级": 420 points would be +5 uncapped
    j = judge_result(rules_for("r001"), 420)
    assert j.value.levels == 3 and j.extra["uncapped"] == 5


def test_points_in_no_band_are_refused():
    # 000's table jumps from 0 to 5: 3 points cannot arise and the table does not say what they give
    with pytest.raises(ValueError):
        judge_result(rules_for("r000"), 3)
