"""Comparing rulesets: what they set differently, and a question that tells them apart.

For each feature two rulesets state differently (:mod:`conformance.generation.features`),
:func:`distinguish` searches a *distinguishing question*: one the two answer
differently. It prefers a question whose answers that difference alone
accounts for — giving one ruleset the other's value for that feature gives it
the other's answer (:attr:`Difference.alone`) — and then one where that
change at least changes an answer (:attr:`Difference.attributed`). A feature
no question of play shows is shown by its value.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from reference_impl.rules import Rules, rules_for

from conformance.generation.features import Feature, changed, feature_order, feature_value, features, topic_of
from conformance.analysis.variants.questions import IMPOSSIBLE, Outcome, Question, outcome_or_impossible, try_ask
from conformance.analysis.variants.render import outcome_dict, question_text
from conformance.analysis.variants.search import Space, candidates


@dataclass
class Difference:
    key: str
    a: Feature | None
    b: Feature | None
    position: Question | None = None
    outcome_a: Outcome | None = None
    outcome_b: Outcome | None = None
    attributed: bool = False      # changing this feature alone changes an answer
    alone: bool = False           # ... and makes it the other ruleset's answer
    searched: int = 0             # questions tried

    @property
    def topic(self) -> str:
        return topic_of(self.key)

    def to_dict(self) -> dict:
        return {
            "key": self.key, "topic": self.topic,
            "a": dataclasses.asdict(self.a) if self.a else None,
            "b": dataclasses.asdict(self.b) if self.b else None,
            "position": self.position.to_dict() if self.position else None,
            "question": question_text(self.position) if self.position else None,
            "outcome_a": outcome_dict(self.outcome_a) if self.outcome_a else None,
            "outcome_b": outcome_dict(self.outcome_b) if self.outcome_b else None,
            "attributed": self.attributed, "alone": self.alone,
        }


@dataclass
class Comparison:
    a: str
    b: str
    differences: list[Difference]
    same: list[str]

    def topics(self) -> list[str]:
        return list(dict.fromkeys(d.topic for d in self.differences))

    def to_dict(self) -> dict:
        return {"a": self.a, "b": self.b, "differences": [d.to_dict() for d in self.differences],
                "same": self.same}


_changed_cache: dict[tuple, Rules] = {}


def with_changes(rules: Rules, changes: dict[str, Any]) -> Rules:
    """``changed(rules, changes)``, remembered."""
    ck = (id(rules), tuple((k, repr(v)) for k, v in sorted(changes.items())))
    hit = _changed_cache.get(ck)
    if hit is None:
        hit = _changed_cache[ck] = changed(rules, changes)
    return hit


def distinguish(key: str, ra: Rules, rb: Rules, n_random: int = 250) -> Difference:
    """Search a question that ``ra`` and ``rb`` answer differently, turning on ``key`` if possible."""
    fa, fb = features(ra.checked).get(key), features(rb.checked).get(key)
    diff = Difference(key, fa, fb)
    va, vb = feature_value(ra.checked, key), feature_value(rb.checked, key)
    a_swapped = with_changes(ra, {key: vb})
    b_swapped = with_changes(rb, {key: va})
    fallback = one_sided = None
    impossible: list[Question] = []
    for q in candidates(key, Space.of([ra, rb], key), n_random):
        diff.searched += 1
        oa, ob = try_ask(ra, q), try_ask(rb, q)
        if oa is None or ob is None:
            if len(impossible) < 40 and (oa is None) != (ob is None):
                impossible.append(q)
            continue
        if oa.answer == ob.answer:
            continue
        oa2, ob2 = try_ask(a_swapped, q, True), try_ask(b_swapped, q, True)
        if (oa2 is not None and oa2.answer == ob.answer) or (ob2 is not None and ob2.answer == oa.answer):
            # taking the other's value makes one answer like the other's: this difference accounts for it
            diff.position, diff.outcome_a, diff.outcome_b = q, oa, ob
            diff.attributed = diff.alone = True
            return diff
        if one_sided is None and ((oa2 is not None and oa2.answer != oa.answer) or
                                  (ob2 is not None and ob2.answer != ob.answer)):
            one_sided = (q, oa, ob)
        if fallback is None:
            fallback = (q, oa, ob)
    if one_sided is not None:
        diff.position, diff.outcome_a, diff.outcome_b = one_sided
        diff.attributed = True
        return diff
    if impossible and ra.decks != rb.decks:
        # a question only one of them can reach (three copies of a card where the other has two decks),
        # preferably one whose answer the feature decides for the ruleset that can reach it
        first = None
        for q in impossible:
            oa, ob = outcome_or_impossible(ra, q), outcome_or_impossible(rb, q)
            if oa is None or ob is None or (oa.op == IMPOSSIBLE) == (ob.op == IMPOSSIBLE):
                continue
            live, swapped = (oa, a_swapped) if ob.op == IMPOSSIBLE else (ob, b_swapped)
            other = try_ask(swapped, q, True)
            if other is not None and other.answer != live.answer:
                diff.position, diff.outcome_a, diff.outcome_b = q, oa, ob
                return diff
            first = first or (q, oa, ob)
        if first is not None:
            diff.position, diff.outcome_a, diff.outcome_b = first
            return diff
    if fallback is not None:
        diff.position, diff.outcome_a, diff.outcome_b = fallback
        return diff
    q = Question.of("value", {"keys": [key]})  # no play tells them apart: ask for the setting itself
    diff.position, diff.outcome_a, diff.outcome_b = q, try_ask(ra, q), try_ask(rb, q)
    return diff


@lru_cache(maxsize=None)
def compare(a: str, b: str) -> Comparison:
    """The differences between the bundled rulesets ``a`` and ``b``, each with a distinguishing question."""
    ra, rb = rules_for(a), rules_for(b)
    fa, fb = features(ra.checked), features(rb.checked)
    diffs, same = [], []
    for key in feature_order(set(fa) | set(fb)):
        x, y = fa.get(key), fb.get(key)
        if x is not None and y is not None and x.text == y.text:
            same.append(key)
            continue
        diffs.append(distinguish(key, ra, rb))
    return Comparison(a, b, diffs, same)
