"""Alternatives no position can tell from the spec, each with the reason why.

Equivalence is never assumed silently. An alternative is equivalent when

* a declared reason holds (:data:`DECLARED`: a setting about triples in a
  two-deck ruleset, a table nothing reads in this ruleset, a cap that already
  binds, ...) — tests prove these by enumeration where that is feasible; or
* for a follow ladder no seeded search tells apart, enumerating every
  holding of an abstract suit (one run of positions where tractors go, and
  isolated cards) shows that the two ladders require the same rung of every
  holding (:func:`ladder_equivalent`). The abstract suit is smaller than a
  real one (a real suit can hold two tractors apart), so the enumeration is
  asked only after the search: the search is the evidence that counts, and a
  test searches again, harder, every alternative the enumeration calls
  equivalent.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

from reference_impl.rules import Rules
from tractor_dsl.patterns import can_form


def _no_triples(r: Rules) -> bool:
    return r.decks < 3


def _joker_junction(r: Rules) -> bool:
    return any(set(j) == {"big_joker", "small_joker"} for j in r["tractor.junctions"])


def _cap_binds(alt, r: Rules) -> bool:
    m_ = re.match(r"band (-?\d*)\.\.(-?\d*) (gains (\d+)|step (\d+))", alt.description)
    if not m_ or r["score.cap"] is None:
        return False
    low = int(m_.group(1)) if m_.group(1) else None
    band = next(b for b in r.bands if b.low == low)
    gains = int(m_.group(4)) if m_.group(4) else None
    return band.levels >= r["score.cap"] and (gains is None or gains >= r["score.cap"])


def _junction_tiers(description: str) -> list[str]:
    return description.split("[", 1)[1].rstrip("]").split(", ") if "[" in description else []


DECLARED: list[tuple[Callable, str]] = [
    (lambda a, r: _no_triples(r) and any(w in a.description for w in
                                         ("triple", "tractor.mixed", "element_over_length", "break_triple")),
     "with two decks there are no triples, so no position can tell these apart"),
    (lambda a, r: a.feature == "tractor.ace_two" and "2" not in r["trump.fixed_ranks"],
     "AA22 chains only where the 2s are fixed trump, which this ruleset does not have"),
    (lambda a, r: a.feature.startswith("declare.kitty") and "kitty_card" not in
     (r["declare.fallback_first_hand"], r["declare.fallback_later"]),
     "nobody ever names trump from the kitty in this ruleset"),
    (lambda a, r: a.feature.startswith("declare.smothered") and r["declare.fallback_later"] != "smothered",
     "no banker is ever smothered in this ruleset"),
    (lambda a, r: a.feature == "kitty.banker_multiplier" and r["kitty.capturers"] == "attackers",
     "only the attackers capture the kitty, so the banker's table is never read"),
    (lambda a, r: a.feature == "kitty.multiplier" and a.description.startswith("kitty.multiplier: side")
     and r["kitty.trump_only"], "only trump captures the kitty, so the side-suit table is never read"),
    (lambda a, r: a.feature in ("kitty.multiplier", "kitty.banker_multiplier")
     and a.rules["kitty.multi_unit"] == "largest_component" and " throw " in f" {a.description} ",
     "the largest component of a throw is read, never the 'throw' entry"),
    (lambda a, r: a.feature == "level.must_play" and all(
        r["level.ranks"].index(x) <= r["level.ranks"].index(r["level.start"]) for x in r["level.must_play"]),
     "every must-play level is at or below the start level, so no climb ever passes one"),
    (lambda a, r: a.feature == "declare.overcall_by" and not r["declare.joker_pairs"],
     "the two ways differ only between jokers and level cards, and jokers never declare in this ruleset"),
    (lambda a, r: a.feature == "declare.kitty_joker" and r["declare.kitty_skip_jokers"],
     "jokers turned from the kitty are always skipped, so what a joker would name is never read"),
    (lambda a, r: a.feature == "declare.kitty_skip_jokers" and r["declare.kitty_joker"] == "next_card",
     "not skipping a joker but taking the next card is the same as skipping it"),
    (lambda a, r: a.feature == "kitty.capturers" and r["kitty.banker_multiplier"] is None,
     "with no banker multiplier a banker-side capture moves nothing, as when only attackers capture"),
    (lambda a, r: a.feature == "kitty.trump_only" and all(
        f(n) == 0 for f in r["kitty.multiplier"]["side"].values() for n in range(1, 40)),
     "every side-suit multiplier is 0, so a side-suit capture moves nothing either way"),
    (lambda a, r: a.feature == "throw.check" and {r["throw.check"], a.description.rsplit(" ", 1)[-1]}
     == {"singles", "smallest_vs_largest"},
     "a throw fails under both exactly when a card of it is below another hand's highest card of the suit, "
     "and both block the same cards"),
    (lambda a, r: r["throw.check"] == "unchecked" and a.rules["throw.check"] == "unchecked" and a.feature in (
        "throw.penalty_points", "throw.penalty_per", "throw.penalty_by_blocked", "throw.forced_play",
        "throw.judged_against", "throw.late"),
     "no throw is judged at its lead (throw.check = unchecked, H28), so no throw fails and nothing of a failed "
     "throw is ever read"),
    (lambda a, r: a.feature == "kitty.multi_unit" and len({str(f) for t in (r["kitty.multiplier"]["trump"],
        r["kitty.multiplier"]["side"], r["kitty.banker_multiplier"] or {}) for f in t.values()}) == 1
     and all(str(f).lstrip("-").isdigit() for f in r["kitty.multiplier"]["trump"].values()),
     "every row of the kitty tables is the same number, so whatever part of the winning play is valued, the "
     "multiplier is that number (H29)"),
    (lambda a, r: a.feature == "tractor.junctions" and "junctions: add" in a.description
     and any(t not in r["trump.order"] for t in _junction_tiers(a.description)),
     "the junction names a tier this ruleset's trump order does not have"),
    (lambda a, r: a.feature in ("tractor.junctions", "reading tractor.junctions")
     and r["tractor.adjacency"] == "face_rank" and a.rules["tractor.adjacency"] == "face_rank"
     and _joker_junction(r) == _joker_junction(a.rules),
     "with face-rank adjacency only the joker junction is read, and it is unchanged"),
    (lambda a, r: a.feature == "score.bands" and _cap_binds(a, r),
     "the band already gains the capped number of levels, so more stays capped"),
    (lambda a, r: a.feature == "declare.after_overcall" and not r["declare.joker_pairs"]
     and not a.description.endswith("jokers_only"), "no joker declarations exist"),
]


def _ends_a_hand(r: Rules) -> bool:
    from reference_impl.penalties import RECORDS
    return any((r.checked.values.get(s) or {}).get("ends_hand") for s in RECORDS.values())


DECLARED += [
    (lambda a, r: a.feature in ("penalty.revoke", "penalty.wrong_count", "penalty.played_count", "penalty.signals")
     and "points_per_card" in a.description and r[a.feature]["ends_hand"] and r["penalty.several"] == "first_decides",
     "the fault ends the hand, and a hand-ending fault voids every point of the hand, its own included"),
    (lambda a, r: a.feature == "penalty.several" and not _ends_a_hand(r),
     "no fault of this ruleset ends the hand, and the two ways differ only when one does"),
    (lambda a, r: a.feature == "penalty.wrong_kitty_cap" and r["penalty.wrong_kitty"] != "attackers_take_stage_by_points",
     "the wrong-kitty consequence does not count levels by points, so its cap is never read"),
]


def equivalence_reason(alt, original: Rules) -> str | None:
    """The declared reason ``alt`` cannot be told from ``original``, or None."""
    for test, reason in DECLARED:
        try:
            if test(alt, original):
                return reason
        except (KeyError, StopIteration):
            continue
    return None


# --------------------------------------------------------------------------- follow ladders

EXTRA_CARDS = 4   # holdings of the enumeration have up to this many cards more than the lead


def abstract_holdings(lead_cards: int, longest: int, decks: int):
    """Every holding of an abstract suit with more cards than the lead, up to :data:`EXTRA_CARDS` more.

    The suit has one run of ``2 * longest + 1`` positions (room for two
    tractors of the longest length apart, or one longer) where each position
    holds no card, a pair or a triple (a lone card in a run is a single like
    any other), and as many isolated cards as the holding needs, each of 1 to
    ``decks`` copies; isolated cards are interchangeable, so their counts are
    enumerated as multisets. Holdings with as many cards as the lead or fewer
    are left out: the follower plays them all and no ladder is read. Yields
    ``(runs, counts)`` as :func:`tractor_dsl.patterns.can_form` reads them.
    """
    from itertools import combinations_with_replacement, product
    length = 2 * longest + 1
    values = [0] + [v for v in (2, 3) if v <= decks]
    top = lead_cards + EXTRA_CARDS
    for run in product(values, repeat=length):
        in_run = sum(run)
        if in_run > top:
            continue
        for k in range(0, top - in_run + 1):
            for isolated in combinations_with_replacement(range(1, decks + 1), k):
                total = in_run + sum(isolated)
                if lead_cards < total <= top:
                    counts = {i: c for i, c in enumerate(run) if c}
                    counts.update({length + i: c for i, c in enumerate(isolated)})
                    runs = [[[i] for i in range(length)]] + [[[length + i]] for i in range(k)]
                    yield runs, counts


@lru_cache(maxsize=64)
def _suppliable(rungs: tuple, lead_cards: int, longest: int, decks: int, protect_triples: bool) -> tuple:
    """For every abstract holding, the set (a bitmask) of ``rungs`` it can supply."""
    out = []
    for runs, counts in abstract_holdings(lead_cards, longest, decks):
        if protect_triples:
            counts = {k: (1 if n == 3 else n) for k, n in counts.items()}
        mask = 0
        for i, rung in enumerate(rungs):
            if can_form(list(rung), runs, counts):
                mask |= 1 << i
        out.append(mask)
    return tuple(out)


def ladder_equivalent(original, mutated, unit, decks: int = 3, protect_triples: bool = False) -> bool:
    """Whether two follow ladders of the lead ``unit`` require the same rung of every abstract holding."""
    rungs = tuple(dict.fromkeys(tuple(sorted(e)) for e in list(original) + list(mutated)))
    index = {r: i for i, r in enumerate(rungs)}
    a = [index[tuple(sorted(e))] for e in original]
    b = [index[tuple(sorted(e))] for e in mutated]
    longest = max([u[1] for r in rungs for u in r] + [1])
    table = _suppliable(rungs, unit[0] * unit[1], longest, decks, protect_triples)
    for mask in table:
        first_a = next((r for r in a if mask >> r & 1), None)
        first_b = next((r for r in b if mask >> r & 1), None)
        if first_a != first_b:
            return False
    return True


LADDER_REASON = ("no holding of the suit makes the changed rungs decide differently: wherever one of them is "
                 "the first the follower can supply, the other ladder asks for the same rung (every holding "
                 f"of up to {EXTRA_CARDS} cards more than the lead enumerated)")


def proven_ladder_equivalent(alt, original: Rules) -> str | None:
    """For an alternative that changes one follow ladder: the reason, when enumeration proves it equivalent."""
    if not alt.feature.startswith("follow "):
        return None
    from conformance.generation.alternatives import ladders_of
    for unit, rungs in ladders_of(original).items():
        new = alt.rules.ladders.get(unit)
        if new is not None and [tuple(e) for e in new] != [tuple(e) for e in rungs]:
            protect = unit[0] == 2 and not original["follow.break_triple_for_pair"]
            equal = ladder_equivalent(rungs, new, unit, original.decks, protect)
            return LADDER_REASON if equal else None
    return None
