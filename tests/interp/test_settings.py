"""Every setting of the rule language is read by some judgment of the interpreter, or marked informative.

A setting nothing reads would be a rule the spec states and no answer obeys.
``Param.informative`` marks the few that record what a source says for the
reader only (a tournament's format, the direction of the deal): no position
can depend on them, and the interpreter must not read them.
"""
from pathlib import Path

import pytest

from reference_impl.game import play_game
from reference_impl.rules import rules_for
from tractor_dsl.schema import COLLECTED, PARAMS

INTERPRETER = Path(__file__).resolve().parents[2] / "reference_impl"
# the comparison of rulesets (variants.py) names every setting; it is not a judgment
SOURCES = "".join(p.read_text(encoding="utf-8") for p in sorted(INTERPRETER.glob("*.py")) if p.name != "variants.py")
# settings collected from statements are read through the checked ruleset's tables
READ_THROUGH = {"follow.ladders": "checked.ladders", "score.bands": "rules.bands"}


def _read(name: str) -> bool:
    if name in COLLECTED:
        return READ_THROUGH[name] in SOURCES
    return f'"{name}"' in SOURCES or f"'{name}'" in SOURCES


@pytest.mark.parametrize("param", PARAMS, ids=lambda p: p.name)
def test_every_setting_is_read_or_informative(param):
    if param.informative:
        assert not _read(param.name), f"{param.name} is marked informative but the interpreter reads it"
    else:
        assert _read(param.name), f"no judgment reads {param.name}: execute it or mark it informative"


def test_informative_settings_say_why():
    informative = [p for p in PARAMS if p.informative]
    assert {p.name for p in informative} >= {"tournament.format", "deal.direction", "deal.first_drawer"}
    assert {p.name for p in informative} & {"match.minutes", "match.no_new_deal_minutes", "match.at_time"} == set()


# --- the match settings, executed by a timed game --------------------------------------------------

@pytest.mark.parametrize("name,limit", [("r000", 90), ("r000", 40), ("r001", 60), ("r003", 45), ("r003", 120)])
def test_a_timed_game_stops_by_the_match_rules(name, limit):
    from reference_impl.game import DRAW_MINUTES, KITTY_MINUTES, TRICK_SECONDS
    rules = rules_for(name)
    for seed in (1, 2, 3):
        game = play_game(rules, seed, minutes=limit)
        durations = [DRAW_MINUTES + KITTY_MINUTES + len(h.tricks) * TRICK_SECONDS / 60 for h in game.hands]
        assert game.clock == pytest.approx(sum(durations))
        if game.ended_by == "end level":
            continue
        assert game.ended_by == "time"
        last_start = sum(durations[:-1])
        # 000:1 临近1.5小时的最后5分钟不能摸新牌 (match.no_new_deal_minutes; 0 in 001 and 003)
        assert last_start < limit - rules["match.no_new_deal_minutes"]
        if game.clock < limit:   # time ran out before a new hand could finish its deal (or first card)
            point = DRAW_MINUTES if rules["match.at_time"] == "finish_hand_in_play" else DRAW_MINUTES + KITTY_MINUTES
            assert limit - game.clock <= rules["match.no_new_deal_minutes"] or game.clock + point > limit
        # 000:1, 001:4, 003:3.3 the team ahead in level wins; equal levels: the side banking after the last hand
        ranks = list(rules["level.ranks"])
        final = game.levels[-1]
        if final[0] != final[1]:
            assert game.winner == max((0, 1), key=lambda t: ranks.index(final[t]))
        assert "match.timeout" in game.clauses


def test_003_3_3_a_hand_before_its_first_card_is_abandoned():
    # 003:3.3 如正在进行新一轮的摸牌或留底牌，尚未打出第一张牌，则不再进行下去
    rules = rules_for("r003")
    from reference_impl.game import DRAW_MINUTES, KITTY_MINUTES
    first = play_game(rules, 5, minutes=200).hands[0]
    hand_minutes = DRAW_MINUTES + KITTY_MINUTES + len(first.tricks) / 3
    game = play_game(rules, 5, minutes=int(hand_minutes) + 1)   # ends during the second hand's deal or kitty
    assert game.ended_by == "time" and len(game.hands) == 1 and game.abandoned == 2
