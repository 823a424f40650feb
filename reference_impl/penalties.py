"""Penalties (罚分, 藏牌, 劳改, 留错底牌, 罚张): what a fault costs, and the hand result that follows.

:func:`judge_fault` gives a fault's points and consequence; points are settled
by ``penalty.points_to`` (``attackers_score``: an attacker's penalty is
deducted from the attackers' points, a banker-side penalty added to them).
:func:`apply_consequence` turns a consequence into the :class:`HandResult`
that replaces the score table's (``none`` keeps the score table's).

Faults and the settings that price them:

* ``failed_throw`` — ``throw.penalty_points`` × ``cards`` (the caller counts
  the cards ``throw.penalty_per`` names, as :mod:`leading` does);
* ``revoke`` — ``penalty.revoke``: ``points_per_card`` × ``cards``, ``ends_hand``,
  and the consequence for the offender's side;
* ``wrong_count`` — ``penalty.wrong_count``, likewise;
* ``wrong_kitty`` — ``penalty.wrong_kitty`` (only the banker side buries);
  the hand is not ended by it: its consequence replaces the hand's result;
* ``exposed_card`` — ``penalty.exposed_card_points`` × ``cards``;
* ``wrong_declaration`` — ``declare.wrong_points`` per wrong declaration
  (``cards`` ignored).

``points`` adds a penalty fixed outside the rules (a referee's deduction),
settled the same way.

Consequences (schema ``_consequence``), with the interpretations they need:

* ``attackers_take_stage`` — attackers bank next, +0;
* ``attackers_take_stage_by_points`` — attackers bank next, one level per full
  *step* of their points, where the step is the score table's: the low end of
  the attackers' +1 band minus ``score.threshold`` (000: 120 − 80 = 40).
  The levels are capped by ``penalty.wrong_kitty_cap`` (000:2.17f: 3);
* ``stage_change_plus_one`` — the bank changes hands: attackers bank next, +1;
* ``banker_up_one`` — banker side keeps the bank, +1;
* ``opponents_up_two`` — the offender's opponents +2, and they bank next;
* ``count_as_threshold`` — points below ``score.threshold`` count as the
  threshold; at or above it the score table's result gains one more level;
* ``count_below_threshold`` — points at or above the threshold count as the
  highest score of the band just below it (003: 115); below it the banker
  side's result gains one more level;
* ``hand_void_rebid`` — the hand is void; both sides bid afresh
  (``HandResult(None, 0, rebid=True)``).

The extra level of the two ``count_*`` consequences is capped by ``score.cap``
like any gain of a hand.
"""
from __future__ import annotations

from dataclasses import dataclass

from .rules import Judgment, Rules, Trace
from .scoring import HandResult, cap_levels, judge_result

SIDES = ("banker", "attackers")
FAULTS = ("failed_throw", "revoke", "wrong_count", "wrong_kitty", "exposed_card", "wrong_declaration")


@dataclass(frozen=True)
class FaultOutcome:
    points_delta: int   # signed change to the attackers' points
    ends_hand: bool     # the hand ends at once (its points void)
    consequence: str    # a consequence for apply_consequence ('none' for points only)


def _other(side: str) -> str:
    return "attackers" if side == "banker" else "banker"


def judge_fault(rules: Rules, fault: str, offender_side: str, cards: int = 0, points: int = 0) -> Judgment:
    """The points and consequence of ``fault`` committed by ``offender_side`` (value :class:`FaultOutcome`)."""
    if fault not in FAULTS:
        raise ValueError(f"unknown fault {fault!r}; one of {FAULTS}")
    if offender_side not in SIDES:
        raise ValueError(f"offender_side must be one of {SIDES}")
    trace = Trace()
    ends, consequence, setting = False, "none", None
    if fault == "failed_throw":
        trace.add(rules.clause("throw.penalty_points"), rules.clause("throw.penalty_per"))
        amount = rules["throw.penalty_points"] * cards
    elif fault in ("revoke", "wrong_count"):
        setting = f"penalty.{fault}"
        trace.add(rules.clause(setting))
        record = rules[setting]
        amount = record["points_per_card"] * cards
        ends = record["ends_hand"]
        consequence = record["banker_side"] if offender_side == "banker" else record["attackers"]
    elif fault == "wrong_kitty":
        if offender_side != "banker":
            raise ValueError("only the banker side buries the kitty")
        setting = "penalty.wrong_kitty"
        trace.add(rules.clause(setting))
        amount, consequence = 0, rules[setting]
    elif fault == "exposed_card":
        trace.add(rules.clause("penalty.exposed_card_points"))
        amount = rules["penalty.exposed_card_points"] * cards
    else:  # wrong_declaration
        trace.add(rules.clause("declare.wrong_points"))
        amount = rules["declare.wrong_points"]
    amount += points
    trace.add(rules.clause("penalty.points_to"))
    if rules["penalty.points_to"] != "attackers_score":
        raise ValueError(f"unknown penalty.points_to {rules['penalty.points_to']!r}")
    delta = -amount if offender_side == "attackers" else amount
    detail = f"{fault} by the {offender_side}: attackers' points {delta:+d}"
    if ends:
        detail += ", the hand ends"
    if consequence != "none":
        detail += f", then {consequence}"
    return Judgment(FaultOutcome(delta, ends, consequence), trace.tuple(), "ok", detail,
                    {"amount": amount, "setting": setting})


def by_points_step(rules: Rules) -> int:
    """Points per level above the stage: the attackers' +1 band's low end minus ``score.threshold``."""
    lows = [b.low for b in rules.bands if b.side == "attackers" and b.levels == 1 and b.low is not None]
    if not lows:
        raise ValueError(f"{rules.name} has no attackers' +1 band to take the step from")
    return min(lows) - rules["score.threshold"]


def _below_threshold_points(rules: Rules) -> int:
    """The highest score of the band just below the threshold (counted 'short of the threshold')."""
    t = rules["score.threshold"]
    highs = [b.high for b in rules.bands if b.high is not None and b.high < t]
    if not highs:
        raise ValueError(f"{rules.name} has no band below the threshold {t}")
    return max(highs)


def apply_consequence(rules: Rules, consequence: str, offender_side: str, attackers_points: int,
                      setting: str | None = None) -> Judgment:
    """The :class:`HandResult` a consequence gives, from the attackers' points at the hand's end.

    ``setting`` names the setting the consequence came from (e.g.
    ``penalty.wrong_kitty``), to cite its clause.
    """
    if offender_side not in SIDES:
        raise ValueError(f"offender_side must be one of {SIDES}")
    trace = Trace()
    if setting is not None:
        trace.add(rules.clause(setting))
    extra: dict = {}
    if consequence == "none":
        j = judge_result(rules, attackers_points)
        trace.add(*j.clauses)
        return Judgment(j.value, trace.tuple(), "ok", j.detail, j.extra)
    if consequence == "attackers_take_stage":
        result = HandResult("attackers", 0)
    elif consequence == "attackers_take_stage_by_points":
        step = by_points_step(rules)
        trace.add(rules.band_clause, rules.clause("score.threshold"), rules.clause("penalty.wrong_kitty_cap"))
        raw = max(attackers_points, 0) // step
        cap = rules["penalty.wrong_kitty_cap"]
        levels = raw if cap is None else min(raw, cap)
        result = HandResult("attackers", levels)
        extra = {"step": step, "uncapped": raw}
    elif consequence == "stage_change_plus_one":
        result = HandResult("attackers", 1)
    elif consequence == "banker_up_one":
        result = HandResult("banker", 1)
    elif consequence == "opponents_up_two":
        result = HandResult(_other(offender_side), 2)
    elif consequence in ("count_as_threshold", "count_below_threshold"):
        t = rules["score.threshold"]
        trace.add(rules.clause("score.threshold"))
        at_or_above = attackers_points >= t
        if consequence == "count_as_threshold":
            counted = attackers_points if at_or_above else t
            bonus_side = "attackers" if at_or_above else None
        else:
            counted = _below_threshold_points(rules) if at_or_above else attackers_points
            bonus_side = None if at_or_above else "banker"
        j = judge_result(rules, counted)
        trace.add(*j.clauses)
        base = j.value
        levels = base.levels
        if bonus_side is not None and base.next_banker == bonus_side:
            levels = cap_levels(rules, levels + 1)
        result = HandResult(base.next_banker, levels)
        extra = {"counted_points": counted, "base": base}
    elif consequence == "hand_void_rebid":
        result = HandResult(None, 0, rebid=True)
    else:
        raise ValueError(f"unknown consequence {consequence!r}")
    return Judgment(result, trace.tuple(), "ok", f"{consequence}: {result}", extra)
