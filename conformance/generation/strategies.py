"""Hypothesis strategies for conformance cases: the builders of :mod:`conformance.generation.positions` drawn through
``st.composite``.

:func:`cases` draws ``{"op": op, "input": {...}}`` for the engine protocol
(``input`` exactly as ``conformance/protocol/schemas/<op>.request.json`` requires), and
one strategy per operation (``follow_inputs`` ...) draws the inputs alone.
Each draw picks a scenario of the operation — a rung of a follow ladder, a
pair of rungs, a boundary of the card order, a band edge, a kitty row, a
declaration sequence, a dealt hand, a whole hand — then the cards that
realize it. These are the very builders the seeded suite and the comparison
of rulesets use; here every choice is a Hypothesis draw, so a failure shrinks
towards the first scenario and few, low cards.

Each public strategy draws its input as the only element of a unique list
(:func:`_fresh`): Hypothesis then spends its budget on new scenarios rather
than on mutations of the case it just drew.

:func:`clause_coverage` and :func:`executable_clauses` measure which clauses
the drawn cases let decide an answer.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference_impl.rules import Rules

from conformance.generation.positions import HypothesisDraw, build, draw_scenario, scenarios

__all__ = ["OPERATIONS", "POSITIVE", "cases", "classify_inputs", "lead_inputs", "follow_inputs", "winner_inputs",
           "kitty_inputs", "result_inputs", "advance_inputs", "declare_inputs", "undeclared_inputs", "hand_inputs",
           "penalty_inputs", "deal_inputs", "inputs", "clause_coverage", "executable_clauses"]

#: The operations these strategies generate.
OPERATIONS = ("classify", "lead", "follow", "winner", "kitty", "result", "advance", "declare", "undeclared", "hand",
              "penalty", "deal")


def _rules(ruleset) -> Rules:
    from reference_impl.rules import known_names, rules_for
    if isinstance(ruleset, Rules):
        return ruleset
    if not isinstance(ruleset, str):
        raise TypeError(f"ruleset: expected a ruleset name such as 'r001', not {ruleset!r}")
    from reference_impl.rules import catalogue_names
    if ruleset not in known_names():   # the bundled ones, the catalogue's and those read from users' files
        listed = sorted(set(known_names()) - set(catalogue_names()))
        raise ValueError(f"unknown ruleset {ruleset!r}; the spec defines {', '.join(listed)}"
                         " and the house-rule files of spec/variants/")
    return rules_for(ruleset)


def _ops(ops) -> tuple[str, ...]:
    if ops is None:
        return tuple(o for o in OPERATIONS if o != "hand")
    if isinstance(ops, str) or not isinstance(ops, Sequence):
        raise TypeError(f"ops: expected a sequence of operation names, not {ops!r}")
    if not ops:
        raise ValueError(f"ops: expected at least one operation, got {ops!r}")
    for op in ops:
        if op not in OPERATIONS:
            raise ValueError(f"ops: {op!r} is not an operation these strategies generate ({', '.join(OPERATIONS)})")
    return tuple(dict.fromkeys(ops))


@st.composite
def _input(draw, rules: Rules, op: str) -> dict:
    d = HypothesisDraw(draw)
    return build(d, rules, draw_scenario(d, rules, op))


@lru_cache(maxsize=None)
def _strategy(rules: Rules, op: str) -> SearchStrategy[dict]:
    return _fresh(_input(rules, op))


def inputs(ruleset, op: str) -> SearchStrategy[dict]:
    """Inputs of ``op`` for ``ruleset`` (a bundled name, or a :class:`~reference_impl.rules.Rules`)."""
    rules = _rules(ruleset)
    _ops([op])
    return _strategy(rules, op)


def classify_inputs(ruleset) -> SearchStrategy[dict]:
    """Inputs of ``classify``: level, trump and the cards of one (sometimes two) suits."""
    return inputs(ruleset, "classify")


def lead_inputs(ruleset) -> SearchStrategy[dict]:
    """Inputs of ``lead``: a lead and the other three hands (next player, partner, previous player)."""
    return inputs(ruleset, "lead")


def follow_inputs(ruleset) -> SearchStrategy[dict]:
    """Inputs of ``follow``: a lead, the follower's whole hand and the play."""
    return inputs(ruleset, "follow")


def winner_inputs(ruleset) -> SearchStrategy[dict]:
    """Inputs of ``winner``: level, trump, the leader's seat and the four plays by seat."""
    return inputs(ruleset, "winner")


def kitty_inputs(ruleset) -> SearchStrategy[dict]:
    """Inputs of ``kitty``: level, trump, banker, the last trick and a point-rich kitty."""
    return inputs(ruleset, "kitty")


def result_inputs(ruleset) -> SearchStrategy[dict]:
    """Inputs of ``result``: attackers' points at the score table's edges, or random."""
    return inputs(ruleset, "result")


def advance_inputs(ruleset) -> SearchStrategy[dict]:
    """Inputs of ``advance``: a level, a gain, banker or not."""
    return inputs(ruleset, "advance")


def declare_inputs(ruleset) -> SearchStrategy[dict]:
    """Inputs of ``declare``: level, first hand or not (with the banker), and declarations."""
    return inputs(ruleset, "declare")


def undeclared_inputs(ruleset) -> SearchStrategy[dict]:
    """Inputs of ``undeclared``: the two sides' levels, the kitty in the order it is turned, first hand or not."""
    return inputs(ruleset, "undeclared")


def hand_inputs(ruleset) -> SearchStrategy[dict]:
    """Inputs of ``hand``: the transcript of a whole hand played out."""
    return inputs(ruleset, "hand")


def penalty_inputs(ruleset) -> SearchStrategy[dict]:
    """Inputs of ``penalty``: one to three faults of one hand and the attackers' points."""
    return inputs(ruleset, "penalty")


def deal_inputs(ruleset) -> SearchStrategy[dict]:
    """Inputs of ``deal``: four hands and a kitty as dealt (proper, with a poor hand, or not the ruleset's)."""
    return inputs(ruleset, "deal")


def cases(ruleset, ops: Sequence[str] | None = None) -> SearchStrategy[dict]:
    """Cases ``{"op": op, "input": {...}}`` for ``ruleset``, ``input`` as the op's request schema requires.

    ``ops`` limits the operations (default: all but ``hand``). Operations are
    drawn with weights that follow the number of scenarios each has.
    """
    rules = _rules(ruleset)
    chosen = _ops(ops)
    weights = {op: max(3, min(60, len(scenarios(rules, op)) // 4)) for op in chosen}
    weighted = [op for op in chosen for _ in range(weights[op])]
    return _fresh(st.sampled_from(weighted).flatmap(
        lambda op: _input(rules, op).map(lambda inp: {"op": op, "input": inp})))


def _fresh(strategy: SearchStrategy) -> SearchStrategy:
    """``strategy``, drawn as the only element of a unique list.

    After each new case Hypothesis's generate phase runs a few mutations of
    it that copy one part of the case over another part drawn by the same
    strategy; it skips the parts inside a unique collection. Drawn this way,
    nearly every example is a new scenario, which is what a conformance run
    with a fixed budget needs. Shrinking is unaffected.
    """
    return st.lists(strategy, min_size=1, max_size=1, unique_by=lambda _: 0).map(lambda xs: xs[0])


# --------------------------------------------------------------------------- clauses

#: What counts as a positive answer, per operation (see :func:`clause_coverage`).
POSITIVE = {
    "classify": "the cards are one unit (single, pair, triple or tractor), not a throw or mixed",
    "lead": "the lead is legal",
    "follow": "the play is legal",
    "winner": "the leader wins the trick",
    "kitty": "the kitty changes the attackers' points (points != 0)",
    "result": "the banker side keeps the bank",
    "advance": "the team wins the game",
    "declare": "the last declaration is legal",
    "undeclared": "a kitty card names trump (no redeal)",
    "hand": "the banker side keeps the bank",
    "penalty": "a fault decides the hand's result (consequence other than none)",
    "deal": "the deal is proper and played (no redeal)",
}


def _positive(op: str, inp: dict, result: dict) -> bool:
    if op == "classify":
        return result["kind"] in ("single", "pair", "triple", "tractor")
    if op in ("lead", "follow", "declare"):
        return bool(result["legal"])
    if op == "winner":
        return result["winner"] == inp["leader"]
    if op == "kitty":
        return result["points"] != 0
    if op in ("result", "hand"):
        return result["next_banker"] == "banker"
    if op == "advance":
        return bool(result["won"])
    if op == "penalty":
        return result["consequence"] != "none"
    if op == "deal":
        return result["proper"] and not result["redeal"]
    return not result["redeal"]


# Settings no protocol operation judges: conduct and the match, tournament,
# deal and bank, and settings read by no operation (the equipment sizes only
# bound valid inputs; score.threshold restates the bands; kitty.exchange
# shapes a whole hand, not a judgment).
_NOT_JUDGED = ("match.", "tournament.", "deal.", "bank.", "equipment.players", "equipment.decks",
               "equipment.hand_size", "equipment.kitty_size", "score.threshold", "kitty.exchange")


def executable_clauses(ruleset) -> set[str]:
    """Ids of the clauses of ``ruleset`` holding a setting, follow ladder or score band an operation reads."""
    rules = _rules(ruleset)
    checked = rules.checked
    out = {origin.clause.id for name, origin in checked.origins.items() if not name.startswith(_NOT_JUDGED)}
    out |= set(rules.ladder_clause.values())
    if checked.band_origin is not None:
        out.add(checked.band_origin.clause.id)
    return out


def clause_coverage(ruleset, examples: int = 200) -> dict[str, dict[str, int]]:
    """How many drawn cases each clause decided, by the polarity of the answer (:data:`POSITIVE`).

    Draws ``examples`` cases of each operation but ``hand`` (deterministically:
    ``derandomize``, no database, no shrinking), judges each with the
    reference engine and counts, for every clause id the judgment reports,
    the cases whose answer was positive and negative.
    Returns ``{clause_id: {"positive": n, "negative": n}}``.
    """
    from hypothesis import HealthCheck, Phase, given, settings

    from conformance.protocol.engine import HANDLERS
    rules = _rules(ruleset)
    if type(examples) is not int or examples < 1:
        raise ValueError(f"examples: expected a positive integer, not {examples!r}")
    counts: dict[str, dict[str, int]] = {}
    for op in _ops(None):
        @settings(max_examples=examples, database=None, derandomize=True, deadline=None,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(_strategy(rules, op))
        def run(inp: dict) -> None:
            result, clauses = HANDLERS[op](rules, inp)
            polarity = "positive" if _positive(op, inp, result) else "negative"
            for c in clauses:
                counts.setdefault(c, {"positive": 0, "negative": 0})[polarity] += 1
        run()
    return counts
