"""What can happen in a hand of a ruleset: the domains the reference engine reads its inputs in (issue 20).

An input outside them describes no hand of the ruleset, so the engine refuses it (``errored``) rather
than answer it: 10^26 attackers' points would otherwise "give" 2.5 × 10^24 levels.

* the cards of the deck: ``equipment.decks`` × 54; a fault counts at most that many cards (or times);
* the kitty: exactly ``equipment.kitty_size`` cards;
* the point step: every point card, kitty multiple and penalty moves points by a multiple of it
  (the greatest common divisor of the ruleset's point values; 5 in every bundled ruleset);
* the points bound: attackers' points (final, or before penalties) never exceed in magnitude the
  deck's points, plus the kitty's dearest points times the largest multiplier, plus a failed throw
  of a whole hand in every trick, plus one fault of the dearest kind counting the whole deck. The
  bound is generous (a hand reaches a fraction of it) but finite, and sound for every ruleset the
  checker accepts (whose multipliers it proves to be at most 2^40).
"""
from __future__ import annotations

from functools import lru_cache
from math import gcd

CARDS_PER_DECK = 54


def deck_cards(rules) -> int:
    return rules.decks * CARDS_PER_DECK


def _fault_prices(rules) -> list[int]:
    """The points per card (or per time) of every fault the ruleset prices."""
    v = rules.checked.values
    prices = [v.get("throw.penalty_points", 0), v.get("declare.wrong_points", 0),
              v.get("penalty.exposed_card_points", 0) or 0, v.get("penalty.looking_back_points", 0) or 0]
    for name in ("penalty.revoke", "penalty.wrong_count", "penalty.played_count", "penalty.signals"):
        record = v.get(name)
        if isinstance(record, dict):
            prices.append(record.get("points_per_card", 0))
    for step in v.get("penalty.lateness") or ():
        if isinstance(step, dict):
            prices.append(step.get("points", 0))
    return [p for p in prices if isinstance(p, int)]


@lru_cache(maxsize=256)   # per Rules object (a mutant is one too): bounded
def point_step(rules) -> int:
    """The step every point total of a hand moves by (5 in every bundled ruleset)."""
    step = 0
    for p in list(rules.points.values()) + _fault_prices(rules):
        step = gcd(step, p)
    return step or 5


@lru_cache(maxsize=256)   # per Rules object (a mutant is one too): bounded
def largest_multiplier(rules) -> int:
    """The largest kitty multiplier in magnitude, over every row and card count (0 with no table)."""
    from tractor_dsl.checker import multiplier_counts   # the rows' card counts, as the checker proves them
    most = 0
    tables = list(rules["kitty.multiplier"].values())
    if rules["kitty.banker_multiplier"] is not None:
        tables.append(rules["kitty.banker_multiplier"])
    for table in tables:
        for shape, counts in multiplier_counts(table, rules.hand_size).items():
            most = max([most] + [abs(table[shape](n)) for n in counts])
    return most


@lru_cache(maxsize=256)   # per Rules object (a mutant is one too): bounded
def points_bound(rules) -> int:
    """The most attackers' points, in magnitude, a hand of the ruleset can give (see the module)."""
    dearest = max(rules.points.values(), default=0)
    deck = deck_cards(rules) // CARDS_PER_DECK * 4 * sum(rules.points.values())
    kitty = rules.kitty_size * dearest * largest_multiplier(rules)
    throws = rules.hand_size * rules.hand_size * rules["throw.penalty_points"]
    fault = max(_fault_prices(rules), default=0) * deck_cards(rules)
    return deck + kitty + throws + fault
