"""Levels (级): climbing the ladder, must-play levels, the end of the game, time-outs.

A team climbs ``level.ranks`` by the levels a hand gives it. The climb:

* stops at any must-play level (``level.must_play``, 必打) strictly above the
  team's current level, however many levels the hand gave;
* passing ``level.end`` (going beyond it) wins the game, except that a team
  below an end level that is also a must-play level stops at it, and a team
  standing on such an end level passes it (wins) only by a gain as banker —
  i.e. only once it has played the end level as banker;
* with ``level.end = none`` the climb stops at the last rank and never wins;
* with ``level.wrap`` (and no end level) it goes on past the last rank from
  the first, so a must-play first rank (逢2必打) stops a climb past A;
* a level that must be defended (``level.must_defend``, 必须坐庄打过) stops a
  climb as a must-play level does, and a team standing on it leaves it only by
  a gain as banker: attackers at it who take the bank stay there (an end level
  is passed, and under ``level.wrap`` the last level wrapped past, only by a
  banker's win at it).

A won game reports the end level as the level reached.
"""
from __future__ import annotations

from dataclasses import dataclass

from .rules import Judgment, Rules, Trace


@dataclass(frozen=True)
class Advance:
    level: str     # the level the team reaches (the end level when it wins)
    won: bool      # the team has passed the end level: it wins the game


def advance(rules: Rules, level: str, gain: int, as_banker: bool) -> Judgment:
    """Where a team at ``level`` gaining ``gain`` levels ends up (as banker or as attackers)."""
    ranks = list(rules["level.ranks"])
    if level not in ranks:
        raise ValueError(f"{level} is not a level of {rules.name}: {' '.join(ranks)}")
    if gain < 0:
        raise ValueError("a gain of levels cannot be negative")
    trace = Trace()
    trace.add(rules.clause("level.ranks"))
    here = ranks.index(level)
    if gain == 0:
        return Judgment(Advance(level, False), trace.tuple(), "ok", f"stays at {level}")
    must = [ranks.index(m) for m in rules["level.must_play"]]
    end = rules["level.end"]
    end_i = ranks.index(end) if end is not None else None
    trace.add(rules.clause("level.must_play"), rules.clause("level.end"))
    defend = [ranks.index(m) for m in rules.checked.values.get("level.must_defend") or ()]
    if defend:
        trace.add(*rules.clauses_of("level.must_defend"))
        if here in defend and not as_banker:
            return Judgment(Advance(level, False), trace.tuple(), "ok",
                            f"{level} must be defended: it is left only by a win as banker")
        must = sorted(set(must) | set(defend))   # a level to defend also stops a climb
    target = here + gain
    if rules.checked.values.get("level.wrap"):
        trace.add(*rules.clauses_of("level.wrap"))
        return _wrapped(ranks, here, gain, must, trace)
    # a must-play level strictly above the current one stops the climb
    stops = [m for m in must if here < m < target]
    if stops:
        stop = min(stops)
        return Judgment(Advance(ranks[stop], False), trace.tuple(), "ok",
                        f"{level} +{gain} stops at the must-play level {ranks[stop]}")
    if end_i is not None and target >= end_i and rules.checked.values.get("level.end_on") == "reach":
        trace.add(*rules.clauses_of("level.end_on"))   # H36: reaching the last level wins, the level capped
        return Judgment(Advance(end, True), trace.tuple(), "ok", f"{level} +{gain} reaches {end}: game won")
    if end_i is None:
        reached = min(target, len(ranks) - 1)
        return Judgment(Advance(ranks[reached], False), trace.tuple(), "ok",
                        f"{level} +{gain} -> {ranks[reached]} (no end level)")
    if target > end_i:
        if end_i in must and here == end_i and not as_banker:
            return Judgment(Advance(end, False), trace.tuple(), "ok",
                            f"{end} must be played as banker before it is passed")
        return Judgment(Advance(end, True), trace.tuple(), "ok", f"{level} +{gain} passes {end}: game won")
    return Judgment(Advance(ranks[target], False), trace.tuple(), "ok", f"{level} +{gain} -> {ranks[target]}")


def _wrapped(ranks: list[str], here: int, gain: int, must: list[int], trace: Trace) -> Judgment:
    """The climb under ``level.wrap``: past the last level it goes on from the first, and the first
    must-play level on the way (not the current one) stops it; the game has no end level."""
    for k in range(1, gain):
        at = (here + k) % len(ranks)
        if at in must:
            return Judgment(Advance(ranks[at], False), trace.tuple(), "ok",
                            f"{ranks[here]} +{gain} stops at the must-play level {ranks[at]}")
    reached = (here + gain) % len(ranks)
    wrapped = " (past " + ranks[-1] + ")" if here + gain >= len(ranks) else ""
    return Judgment(Advance(ranks[reached], False), trace.tuple(), "ok",
                    f"{ranks[here]} +{gain} -> {ranks[reached]}{wrapped}")


def timeout_winner(rules: Rules, levels: dict[str, str], banker_team: str,
                   last_hand_banker: str | None = None) -> Judgment:
    """The team that wins when time runs out (``match.timeout_winner``, ``match.tie``).

    ``levels`` maps each team to its level; ``banker_team`` is the team that
    holds the bank after the last hand (上台者); ``last_hand_banker`` the team
    that was banker in the last hand played, needed only under
    ``match.tie = banker_of_last_hand``.
    """
    ranks = list(rules["level.ranks"])
    trace = Trace()
    trace.add(rules.clause("match.timeout_winner"), rules.clause("level.ranks"))
    if rules["match.timeout_winner"] != "higher_level":
        raise ValueError(f"unknown match.timeout_winner {rules['match.timeout_winner']!r}")
    for team, lv in levels.items():
        if lv not in ranks:
            raise ValueError(f"{team} is at {lv}, not a level of {rules.name}")
    best = max(ranks.index(lv) for lv in levels.values())
    leaders = [t for t, lv in levels.items() if ranks.index(lv) == best]
    if len(leaders) == 1:
        return Judgment(leaders[0], trace.tuple(), "ok", f"{leaders[0]} is ahead at {ranks[best]}")
    trace.add(rules.clause("match.tie"))
    tie = rules["match.tie"]
    if tie == "banker_after_last_hand":
        winner = banker_team
    elif tie == "banker_of_last_hand":
        if last_hand_banker is None:
            raise ValueError("match.tie = banker_of_last_hand needs the last hand's banker")
        winner = last_hand_banker
    else:
        raise ValueError(f"unknown match.tie {tie!r}")
    return Judgment(winner, trace.tuple(), "ok", f"levels equal at {ranks[best]}: {winner} wins by the bank")
