"""Capturing the kitty (扣底 / 抠底): what the kitty is worth to the side that wins the last trick.

The value is the signed change to the attackers' points (the last trick's own
points are trick points, counted elsewhere):

* a side that may not capture (``kitty.capturers``), or a side-suit winner
  where ``kitty.trump_only`` holds, changes nothing (0);
* the attackers capturing add kitty points × the multiplier of
  ``kitty.multiplier[trump|side][unit]``, trump or side by the suit of the
  winning play;
* the banker side capturing (``kitty.capturers = both``) deducts kitty points ×
  ``kitty.banker_multiplier[unit]`` (no trump/side split); with no banker
  table the banker's capture deducts nothing.

The unit: a single, pair, triple or tractor is its own unit, with ``cards``
its number of cards. A play of several components (a throw, or a ruff of one)
is valued by ``kitty.multi_unit``: ``largest_component`` takes its largest
component's shape and cards; ``whole_play`` takes the ``throw`` formula with
all its cards. The winning play is classified on its own (as
:func:`combos.classify` sees it), not against the lead it answered.

A formula may also use ``pairs``: the number of pairs in what is valued (the
unit, or the whole play for ``whole_play``), pairs inside a tractor counted:
a pair 1, a tractor of three pairs 3, a single 0, a throw of a pair and a
single 1; a position of three equal cards (a triple) holds 1 pair.

Missing optional entries of a multiplier table (the schema lets a table omit
``triple`` and ``throw``): a triple is valued by the ``tractor`` formula with
``cards = 3`` (the formula the table gives for a unit of several equal-card
positions), and a whole-play throw by the ``tractor`` formula with all its
cards. Rulesets with two decks have no triples, so the first fallback only
matters for a table that omits ``triple`` with three decks.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable

from .combos import classify
from .rules import Judgment, Trace
from .trick import points_of
from .trump import TRUMP, Context

SIDES = ("banker", "attackers")


def _formula(table: dict, unit: str):
    """The table's formula for ``unit`` and the entry actually used (see the fallbacks above)."""
    if unit in table:
        return table[unit], unit
    if unit in ("triple", "quad", "throw"):
        return table["tractor"], "tractor"
    raise KeyError(unit)


def pairs_in(components) -> int:
    """The variable ``pairs`` of a multiplier formula: the pairs in the valued components, every position of a
    tractor counted (a tractor of three pairs holds 3) and a position of ``c`` equal cards holding ``c // 2``
    (a triple 1, a pair of a mixed tractor 1); a single holds none."""
    return sum(k // 2 for c in components for k in Counter(c.cards).values())


def judge_kitty(ctx: Context, winning_play: Iterable[int], winner_side: str, kitty: Iterable[int]) -> Judgment:
    """The signed change to the attackers' points from the kitty, when ``winning_play`` wins the last trick."""
    if winner_side not in SIDES:
        raise ValueError(f"winner_side must be one of {SIDES}, not {winner_side!r}")
    rules = ctx.rules
    kitty = list(kitty)
    combo = classify(ctx, winning_play)
    if combo.kind in ("empty", "mixed"):
        raise ValueError(f"a play that wins a trick is of one suit; got {combo.kind}")
    trace = Trace()
    kitty_points = points_of(rules, kitty)
    trace.add(rules.clause("equipment.points"), rules.clause("kitty.capturers"))
    trump = combo.suit == TRUMP
    suit_class = "trump" if trump else "side"
    extra = {"kitty_points": kitty_points, "multiplier": 0, "suit_class": suit_class,
             "unit": None, "cards": 0, "captured": False}

    if winner_side == "banker" and rules["kitty.capturers"] != "both":
        return Judgment(0, trace.tuple(), "ok", "the banker side does not capture the kitty", extra)
    trace.add(rules.clause("kitty.trump_only"))
    if rules["kitty.trump_only"] and not trump:
        return Judgment(0, trace.tuple(), "ok", "only a trump play captures the kitty", extra)

    if winner_side == "attackers":
        trace.add(rules.clause("kitty.multiplier"))
        table = rules["kitty.multiplier"][suit_class]
        sign = 1
    else:
        trace.add(rules.clause("kitty.banker_multiplier"))
        table = rules["kitty.banker_multiplier"]
        sign = -1
        if table is None:
            return Judgment(0, trace.tuple(), "ok", "no multiplier for a banker-side capture", extra)

    if combo.kind == "throw":
        trace.add(rules.clause("kitty.multi_unit"))
        if rules["kitty.multi_unit"] == "whole_play":
            unit, n, valued = "throw", combo.n, combo.components
        else:
            unit, n, valued = combo.largest.kind, combo.largest.n, combo.components[:1]
    else:
        unit, n, valued = combo.kind, combo.n, combo.components
    formula, used = _formula(table, unit)
    pairs = pairs_in(valued)
    multiplier = formula(n, pairs)
    value = sign * kitty_points * multiplier
    extra.update(multiplier=multiplier, unit=unit, cards=n, captured=True, formula=str(formula), entry=used)
    if formula.uses_pairs:
        extra["pairs"] = pairs
    who = "attackers gain" if sign > 0 else "attackers lose"
    return Judgment(value, trace.tuple(), "ok",
                    f"{suit_class} {unit} of {n} card(s): {kitty_points} × {multiplier}, {who} {abs(value)}",
                    extra)
