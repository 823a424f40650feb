"""Penalties (罚分, 藏牌, 劳改, 留错底牌, 罚张 ...): what faults cost, and the hand result that follows.

:func:`judge_fault` gives one fault's points and consequence; points are
settled by ``penalty.points_to`` (``attackers_score``: an attacker's penalty
is deducted from the attackers' points, a banker-side penalty added to them).
:func:`judge_penalties` combines the faults of one hand (``penalty.several``)
and :func:`apply_consequence` turns a consequence into the :class:`HandResult`
that replaces the score table's (``none`` keeps the score table's).

Faults and the settings that price them (``count`` is the number of cards, or
of times, the fault counts):

* ``failed_throw`` — ``throw.penalty_points`` × ``count`` (the caller counts
  the cards ``throw.penalty_per`` names, as :mod:`leading` does); found late
  (after the next trick, concealed by the thrower's partner), the consequence
  ``throw.late`` names for the thrower's side, if the ruleset sets it;
* ``revoke``, ``wrong_count``, ``played_count``, ``signals`` — the fault
  records ``penalty.revoke``, ``penalty.wrong_count``, ``penalty.played_count``
  and ``penalty.signals``: ``points_per_card`` × ``count``, ``ends_hand``,
  the consequence for the offender's side, the consequence when the fault is
  found late (``late_banker_side`` / ``late_attackers``; absent: as when
  found at once), and ``both_sides`` when players of both sides are at fault
  at once (offender ``"both"``; absent: refused, the ruleset names no such
  case). With offender ``"both"`` each side's points cancel: no points move;
* ``wrong_kitty`` — ``penalty.wrong_kitty`` (only the banker side buries);
  it never ends the hand on its own: its consequence replaces the hand's result;
* ``exposed_card`` — ``penalty.exposed_card_points`` × ``count``;
* ``wrong_declaration`` — ``declare.wrong_points`` per wrong declaration
  (``count`` of them, at least one);
* ``looking_back`` — ``penalty.looking_back_points`` per time;
* ``lateness`` — ``penalty.lateness``: the last step whose ``over`` the
  ``minutes`` late exceed gives points (in the first hand) and a consequence.

A fault whose optional setting a ruleset does not set (``signals``,
``looking_back``, ``lateness`` where the document names no such penalty)
costs nothing and is decided by no clause.

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
* ``banker_keeps`` — banker side keeps the bank, +0;
* ``opponents_up_one`` / ``opponents_up_two`` — the offender's opponents +1 /
  +2, and they bank next;
* ``count_as_threshold`` — points below ``score.threshold`` count as the
  threshold; at or above it the score table's result gains one more level;
* ``count_below_threshold`` — points at or above the threshold count as the
  highest score of the band just below it (003: 115); below it the banker
  side's result gains one more level;
* ``hand_void_rebid`` — the hand is void; both sides bid afresh
  (``HandResult(None, 0, rebid=True)``);
* ``forfeit_game`` — the offender's team loses the game
  (``HandResult(None, 0, forfeit=offender)``).

The extra level of the two ``count_*`` consequences is capped by ``score.cap``
like any gain of a hand.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .rules import Judgment, Rules, Trace
from .scoring import HandResult, cap_levels, judge_result

SIDES = ("banker", "attackers")
OFFENDERS = SIDES + ("both",)
# the consequences that make sense when both sides are at fault at once (no side to rise or fall by points)
BOTH_SIDES_CONSEQUENCES = ("none", "hand_void_rebid", "attackers_take_stage", "stage_change_plus_one",
                           "banker_up_one", "banker_keeps")
FOUND = ("at_once", "late")
FAULTS = ("failed_throw", "revoke", "wrong_count", "played_count", "wrong_kitty", "exposed_card",
          "wrong_declaration", "looking_back", "signals", "lateness")
# faults priced by a fault record, and the setting that holds it
RECORDS = {"revoke": "penalty.revoke", "wrong_count": "penalty.wrong_count",
           "played_count": "penalty.played_count", "signals": "penalty.signals"}


@dataclass(frozen=True)
class FaultOutcome:
    points_delta: int   # signed change to the attackers' points
    ends_hand: bool     # the hand ends at once (its points void)
    consequence: str    # a consequence for apply_consequence ('none' for points only)


@dataclass(frozen=True)
class Fault:
    """One fault of a hand: its kind, the offender's side, how many cards or times, when it was found."""

    kind: str
    offender: str
    count: int = 0
    found: str = "at_once"
    minutes: int | None = None   # lateness only
    blocked: str | None = None   # failed_throw under throw.penalty_by_blocked: what blocked it (H05)


@dataclass(frozen=True)
class PenaltyOutcome:
    """The faults of one hand together: the points that count, whether the hand ended, and its result."""

    points: int          # signed change to the attackers' points from the penalties that count
    ends_hand: bool
    consequence: str     # the consequence that decided the result ('none': the score table)
    result: HandResult
    counted_points: int  # the attackers' points the result was judged from


def _other(side: str) -> str:
    return "attackers" if side == "banker" else "banker"


def judge_fault(rules: Rules, fault: str, offender_side: str, cards: int = 0, points: int = 0,
                found: str = "at_once", minutes: int | None = None, blocked: str | None = None) -> Judgment:
    """The points and consequence of ``fault`` committed by ``offender_side`` (value :class:`FaultOutcome`).

    ``cards`` is the count the fault is priced by (cards, or times for
    ``wrong_declaration`` and ``looking_back``); ``found`` is ``at_once`` or
    ``late``; ``minutes`` is how late a team was (``lateness``).
    """
    if fault not in FAULTS:
        raise ValueError(f"unknown fault {fault!r}; one of {', '.join(FAULTS)}")
    if offender_side not in OFFENDERS:
        raise ValueError(f"offender_side must be one of {', '.join(OFFENDERS)}")
    if offender_side == "both" and fault not in RECORDS:
        raise ValueError(f"only {', '.join(RECORDS)} can be committed by both sides at once")
    if found not in FOUND:
        raise ValueError(f"found must be one of {', '.join(FOUND)}")
    if type(cards) is not int or cards < 0:
        raise ValueError("the count of cards or times must be a whole number, 0 or more")
    late = found == "late"
    trace = Trace()
    ends, consequence, setting = False, "none", None
    if fault == "failed_throw":
        trace.add(rules.clause("throw.penalty_points"), rules.clause("throw.penalty_per"))
        from .leading import points_per_card
        if "throw.penalty_by_blocked" in rules.checked.values:
            trace.add(rules.clause("throw.penalty_by_blocked"))
        amount = points_per_card(rules, blocked) * cards
        late_rule = rules.checked.values.get("throw.late")
        if late and late_rule is not None:
            setting = "throw.late"
            trace.add(rules.clause(setting))
            consequence = late_rule["banker_side" if offender_side == "banker" else "attackers"]
    elif fault in RECORDS:
        setting = RECORDS[fault]
        record = rules.checked.values.get(setting)
        if record is None:
            return _unpriced(rules, fault, offender_side)
        trace.add(rules.clause(setting))
        amount = record["points_per_card"] * cards
        ends = record["ends_hand"]
        if offender_side == "both":
            if "both_sides" not in record:
                raise ValueError(f"{rules.name} names no consequence for {fault} by both sides at once")
            consequence, amount = record["both_sides"], 0
        else:
            key = "banker_side" if offender_side == "banker" else "attackers"
            consequence = record[key]
            if late:
                consequence = record.get("late_" + key, consequence)
    elif fault == "wrong_kitty":
        if offender_side != "banker":
            raise ValueError("only the banker side buries the kitty")
        setting = "penalty.wrong_kitty"
        trace.add(rules.clause(setting))
        amount, consequence = 0, rules[setting]
    elif fault == "exposed_card":
        trace.add(rules.clause("penalty.exposed_card_points"))
        amount = rules["penalty.exposed_card_points"] * cards
    elif fault == "wrong_declaration":
        trace.add(rules.clause("declare.wrong_points"))
        amount = rules["declare.wrong_points"] * max(cards, 1)
    elif fault == "looking_back":
        per = rules.checked.values.get("penalty.looking_back_points")
        if per is None:
            return _unpriced(rules, fault, offender_side)
        trace.add(rules.clause("penalty.looking_back_points"))
        amount = per * max(cards, 1)
    else:  # lateness
        steps = rules.checked.values.get("penalty.lateness")
        if type(minutes) is not int or minutes < 0:
            raise ValueError("lateness needs the minutes late (a whole number, 0 or more)")
        if steps is None:
            return _unpriced(rules, fault, offender_side)
        setting = "penalty.lateness"
        trace.add(rules.clause(setting))
        passed = [s for s in steps if minutes > s["over"]]
        step = max(passed, key=lambda s: s["over"]) if passed else None
        amount = step["points"] if step else 0
        consequence = step["consequence"] if step else "none"
    amount += points
    trace.add(rules.clause("penalty.points_to"))
    if rules["penalty.points_to"] != "attackers_score":
        raise ValueError(f"unknown penalty.points_to {rules['penalty.points_to']!r}")
    delta = 0 if offender_side == "both" else (-amount if offender_side == "attackers" else amount)
    detail = f"{fault} by the {offender_side}" + (" (found late)" if late else "") + f": attackers' points {delta:+d}"
    if ends:
        detail += ", the hand ends"
    if consequence != "none":
        detail += f", then {consequence}"
    return Judgment(FaultOutcome(delta, ends, consequence), trace.tuple(), "ok", detail,
                    {"amount": amount, "setting": setting})


def _unpriced(rules: Rules, fault: str, offender_side: str) -> Judgment:
    return Judgment(FaultOutcome(0, False, "none"), (), "ok",
                    f"{rules.name} names no penalty for {fault}", {"amount": 0, "setting": None})


def judge_penalties(rules: Rules, faults: Sequence[Fault], attackers_points: int) -> Judgment:
    """The faults of one hand, in the order they were committed, and the hand's result (value :class:`PenaltyOutcome`).

    ``attackers_points`` are the attackers' points from the tricks and the
    kitty at the end of the hand (or when it ended), before any penalty.
    Their points add up; the first fault with a consequence decides the
    result; a fault that ends the hand voids the trick points, and under
    ``penalty.several = first_decides`` the penalty points too.
    """
    if not faults:
        raise ValueError("at least one fault is needed")
    trace = Trace()
    judged = []
    for f in faults:
        j = judge_fault(rules, f.kind, f.offender, f.count, found=f.found, minutes=f.minutes, blocked=f.blocked)
        trace.add(*j.clauses)
        judged.append((f, j))
    points = sum(j.value.points_delta for _, j in judged)
    ends = any(j.value.ends_hand for _, j in judged)
    if len(faults) > 1 or ends:
        trace.add(rules.clause("penalty.several"))
    if ends:
        if rules["penalty.several"] == "first_decides":
            points = 0
        counted = points
    else:
        counted = attackers_points + points
    decisive = next(((f, j) for f, j in judged if j.value.consequence != "none"), None)
    if decisive is None:
        consequence, offender, setting = "none", faults[0].offender, None
    else:
        consequence, offender, setting = decisive[1].value.consequence, decisive[0].offender, \
            decisive[1].extra.get("setting")
    r = apply_consequence(rules, consequence, offender, counted, setting)
    trace.add(*r.clauses)
    detail = "; ".join(j.detail for _, j in judged) + f"; result: {r.detail}"
    return Judgment(PenaltyOutcome(points, ends, consequence, r.value, counted), trace.tuple(), "ok", detail)


def by_points_step(rules: Rules) -> int:
    """Points per level above the stage: the attackers' +1 band's low end minus ``score.threshold``; a table
    with no +1 band of its own reaches +1 inside a stepping band (``band 40.. -> attackers +0 step 20``, V01:
    +1 from 60)."""
    lows = [b.low for b in rules.bands if b.side == "attackers" and b.levels == 1 and b.low is not None]
    if not lows:
        lows = [b.low + (1 - b.levels) * b.step for b in rules.bands
                if b.side == "attackers" and b.step and b.low is not None and b.levels <= 1]
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
    if offender_side not in OFFENDERS:
        raise ValueError(f"offender_side must be one of {', '.join(OFFENDERS)}")
    if offender_side == "both" and consequence not in BOTH_SIDES_CONSEQUENCES:
        raise ValueError(f"{consequence} needs one offending side, not both")
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
    elif consequence == "banker_keeps":
        result = HandResult("banker", 0)
    elif consequence == "opponents_up_one":
        result = HandResult(_other(offender_side), 1)
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
    elif consequence == "forfeit_game":
        result = HandResult(None, 0, forfeit=offender_side)
    else:
        raise ValueError(f"unknown consequence {consequence!r}")
    return Judgment(result, trace.tuple(), "ok", f"{consequence}: {result}", extra)
