"""The result of a hand (胜负判定 / 计分及升级): attackers' points to the next banker and levels.

The score table is the ruleset's ``band`` statements (``score.bands``): each
band covers attackers' points LOW..HIGH (either end may be open) and gives one
side a number of levels; a band with ``step`` adds one more level for every
full ``step`` points above its LOW. The side the band names is the side that
holds the bank next: ``banker`` keeps the stage and rises, ``attackers``
take the stage (上台) and rise (``+0``: they take it without a level).
``score.cap`` limits the levels either side gains in one hand.

Points that fall in no band (between two bands, which no legal hand reaches
because every point card, multiplier and penalty moves points in fives) are
refused with ``ValueError``: the table does not say what they give.
"""
from __future__ import annotations

from dataclasses import dataclass

from .rules import Judgment, Rules, Trace


@dataclass(frozen=True)
class HandResult:
    """Who holds the bank next, and how many levels that side rises.

    ``next_banker`` is ``"banker"`` when the banker side keeps the stage and
    ``"attackers"`` when the attackers take it; ``levels`` are gained by that
    side. ``rebid`` marks a void hand after which both sides bid for the bank
    afresh, and ``forfeit`` names the side whose team loses the game by a
    penalty (``next_banker`` is then None).
    """

    next_banker: str | None
    levels: int
    rebid: bool = False
    forfeit: str | None = None


def band_for(rules: Rules, attackers_points: int):
    """The band holding ``attackers_points`` (ValueError if none does)."""
    for band in rules.bands:
        if (band.low is None or attackers_points >= band.low) and \
                (band.high is None or attackers_points <= band.high):
            return band
    raise ValueError(f"no score band of {rules.name} covers {attackers_points} points")


def band_levels(band, attackers_points: int) -> int:
    """The band's levels, with one more per full ``step`` above its low end."""
    levels = band.levels
    if band.step and band.low is not None and attackers_points > band.low:
        levels += (attackers_points - band.low) // band.step
    return levels


def cap_levels(rules: Rules, levels: int) -> int:
    cap = rules["score.cap"]
    return levels if cap is None else min(levels, cap)


def judge_result(rules: Rules, attackers_points: int) -> Judgment:
    """The :class:`HandResult` the attackers' final points give (score table and cap)."""
    band = band_for(rules, attackers_points)
    raw = band_levels(band, attackers_points)
    levels = cap_levels(rules, raw)
    trace = Trace()
    trace.add(rules.band_clause, rules.clause("score.cap"))
    lo = "" if band.low is None else str(band.low)
    hi = "" if band.high is None else str(band.high)
    detail = f"{attackers_points} points: band {lo}..{hi} -> {band.side} +{levels}"
    if raw != levels:
        detail += f" (capped from {raw})"
    return Judgment(HandResult(band.side, levels), trace.tuple(), "ok", detail,
                    {"band": band, "uncapped": raw})


def last_trick_rule(rules: Rules, result: HandResult, banker_won_last: bool, trace: Trace | None = None) -> HandResult:
    """``score.banker_needs_last_trick``: a banker side keeping the bank without the last trick rises no level."""
    if not rules.checked.values.get("score.banker_needs_last_trick") or result.next_banker != "banker":
        return result
    if trace is not None:
        trace.add(*rules.clauses_of("score.banker_needs_last_trick"))
    if banker_won_last:
        return result
    return HandResult("banker", 0, result.rebid, result.forfeit)


SHAPE_FIELDS = {1: "to", 2: "pair", 3: "triple"}   # level.knock_back: the target of a single, a pair, a triple


def knock_back(rules: Rules, level: str, winning_play, winner_side: str, trace: Trace | None = None,
               attackers_points: int | None = None) -> str | None:
    """``level.knock_back`` (the jack rule, 钩J): the level the banker's team goes back to when the attackers win
    the last trick of a hand played at its level with a single card of that rank (``to``), or a pair or triple
    of one such card (``pair``, ``triple``), where the attackers end with at least ``min_points`` (when set);
    None when the rule is not set or does not apply."""
    rule = rules.checked.values.get("level.knock_back")
    if not rule or level != rule["level"]:
        return None
    if trace is not None:
        trace.add(*rules.clauses_of("level.knock_back"))
    from .cards import rank_of
    cards = list(winning_play)
    if winner_side != "attackers" or not cards or len(set(cards)) != 1 or rank_of(cards[0]) != rule["level"]:
        return None
    target = rule.get(SHAPE_FIELDS.get(len(cards), ""))
    if target is None:
        return None
    if "min_points" in rule and (attackers_points is None or attackers_points < rule["min_points"]):
        return None
    return target
