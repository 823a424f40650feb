"""The judgments of a hand as questions: compare two journals, re-ask a question under another ruleset.

A hand played with a journal (:func:`reference_impl.hand.play_hand`) records
every judgment as ``(kind, question, answer)``. Two rulesets playing the same
deal with the same players ask the same questions until an answer differs:
the *first divergence*. :func:`first_divergence` finds it; :func:`ask`
re-asks its question under any ruleset, so :func:`attribute` can tell which
differing feature decides it: giving the first ruleset that one feature of
the second makes its answer the second's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reference_impl.combos import classify
from reference_impl.declaring import judge_declarations, judge_undeclared
from reference_impl.kitty import judge_kitty
from reference_impl.leading import judge_lead
from reference_impl.legal import follow_options, lead_options
from reference_impl.rules import Rules
from reference_impl.scoring import judge_result
from reference_impl.seats import declaration_candidates
from reference_impl.trick import judge_trick
from reference_impl.trump import context

from tractor_play.impact.diffing import changed, feature_value, features

IMPOSSIBLE = ("impossible",)

KIND_NAMES = {
    "declare_options": "which declarations are allowed",
    "declare": "a declaration's effect",
    "undeclared": "a hand nobody declares",
    "exchange": "the kitty exchange",
    "leads": "which leads are allowed",
    "lead": "a lead or throw",
    "follows": "which follows are allowed",
    "trick": "who wins a trick",
    "kitty": "the kitty's value",
    "result": "the hand's result",
    "choice": "a player's choice on a different card order",
}


def canon(kind: str, answer: Any) -> Any:
    """An answer as comparable data (option sets are compared by :func:`same`)."""
    if answer is IMPOSSIBLE:
        return answer
    if kind == "context":
        ranks = {k: i for i, k in enumerate(sorted(set(answer.key)))}
        return (answer.suit, tuple(ranks[k] for k in answer.key), answer.runs, answer.wrap_cards)
    if kind == "lead":
        failure = answer.extra.get("failure")
        return (bool(answer.value), answer.reason, failure)
    if kind == "trick":
        return (answer.value, answer.extra["points"])
    if kind == "kitty":
        return (answer.value, answer.extra.get("captured"))
    return answer


def same(kind: str, a: Any, b: Any) -> bool:
    if a is IMPOSSIBLE or b is IMPOSSIBLE:
        return a is b
    if kind in ("leads", "follows"):
        return a.same_plays(b)
    return canon(kind, a) == canon(kind, b)


def ask(rules: Rules, kind: str, question: tuple) -> Any:
    """The answer ``rules`` gives to a recorded question (IMPOSSIBLE where it cannot be asked)."""
    try:
        return _ask(rules, kind, question)
    except (ValueError, KeyError, IndexError):
        return IMPOSSIBLE


def _ask(rules: Rules, kind: str, q: tuple) -> Any:
    if kind == "declare_options":
        seat, level, hand, sequence, first_hand, banker = q
        seq = [(s, list(c)) for s, c in sequence]
        return tuple(o for o in declaration_candidates(rules, level, hand)
                     if judge_declarations(rules, level, seq + [(seat, list(o))], first_hand, banker=banker).value.legal)
    if kind == "declare":
        level, sequence, first_hand, banker = q
        return judge_declarations(rules, level, [(s, list(c)) for s, c in sequence], first_hand, banker=banker).value
    if kind == "undeclared":
        kitty, first_hand, level, attackers_level = q
        return judge_undeclared(rules, list(kitty), first_hand, level, attackers_level).value
    if kind == "exchange":
        return (rules["kitty.exchange"], rules.kitty_size)
    if kind == "result":
        return judge_result(rules, q[0]).value
    ctx = context(rules, q[0], q[1])
    if kind == "context":
        return ctx
    if kind == "leads":
        return lead_options(ctx, q[2])
    if kind == "lead":
        return judge_lead(ctx, q[2], [list(h) for h in q[3]])
    if kind == "follows":
        return follow_options(ctx, classify(ctx, q[2]), q[3])
    if kind == "trick":
        return judge_trick(ctx, [list(p) for p in q[2]])
    if kind == "kitty":
        return judge_kitty(ctx, q[2], q[3], q[4])
    raise ValueError(f"unknown question kind {kind!r}")


@dataclass(frozen=True)
class Divergence:
    index: int          # position in the journals
    kind: str           # the judgment's kind, or "choice" when the questions themselves differ
    question: tuple | None
    answer_a: Any
    answer_b: Any


def first_divergence(journal_a: list, journal_b: list) -> Divergence | None:
    """The first judgment two journals of the same deal answer differently (None if they never do).

    The hand's card order (``context``) is not itself counted as a judgment:
    it differs whenever the rules of order or adjacency differ, whether or
    not any play is affected. It matters when the players, who rank their
    cards by it, choose differently although every judgment so far agreed:
    that divergence is a ``choice``, attributed to the features that change
    the card order.
    """
    context = None
    for i, (ea, eb) in enumerate(zip(journal_a, journal_b)):
        (ka, qa, aa), (kb, qb, ab) = ea, eb
        if ka != kb or qa != qb:
            return Divergence(i, "choice", *(context or (None, None, None)))
        if ka == "context":
            context = None if same(ka, aa, ab) else (qa, aa, ab)
            continue
        if not same(ka, aa, ab):
            return Divergence(i, ka, qa, aa, ab)
    if len(journal_a) != len(journal_b):
        return Divergence(min(len(journal_a), len(journal_b)), "choice", *(context or (None, None, None)))
    return None


def differing_features(ra: Rules, rb: Rules) -> list[str]:
    fa, fb = features(ra.checked), features(rb.checked)
    keys = sorted(set(fa) | set(fb))
    return [k for k in keys if (fa.get(k).text if k in fa else None) != (fb.get(k).text if k in fb else None)]


class Attributor:
    """Which differing feature decides a divergence between rulesets ``a`` and ``b``."""

    def __init__(self, ra: Rules, rb: Rules):
        self.ra, self.rb = ra, rb
        self.keys = differing_features(ra, rb)
        self._swapped: dict[str, tuple[Rules | None, Rules | None]] = {}

    def _rules(self, key: str) -> tuple[Rules | None, Rules | None]:
        if key not in self._swapped:
            try:
                a_with_b = changed(self.ra, {key: feature_value(self.rb.checked, key)})
            except Exception:  # noqa: BLE001 - a feature one side lacks cannot be moved across
                a_with_b = None
            try:
                b_with_a = changed(self.rb, {key: feature_value(self.ra.checked, key)})
            except Exception:  # noqa: BLE001
                b_with_a = None
            self._swapped[key] = (a_with_b, b_with_a)
        return self._swapped[key]

    def attribute(self, d: Divergence) -> list[str]:
        """The features each of which alone turns one ruleset's answer into the other's."""
        if d.question is None:
            return []
        kind = "context" if d.kind == "choice" else d.kind   # a choice is attributed through the card order
        out = []
        for key in self.keys:
            a_with_b, b_with_a = self._rules(key)
            if a_with_b is not None and same(kind, ask(a_with_b, kind, d.question), d.answer_b):
                out.append(key)
            elif b_with_a is not None and same(kind, ask(b_with_a, kind, d.question), d.answer_a):
                out.append(key)
        return out
