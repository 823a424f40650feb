"""Examples for the rulebooks: a question each clause decides, computed by the interpreter.

For each feature a clause states, :func:`examples_for_clause` finds a
question whose answer the clause decides (its id is among the deciding
clauses), preferring one that another reading (or another value) of the
clause answers differently. Recorded examples can be recomputed
(:func:`evaluate_recorded`): the docs build writes them all, and the tests
ask again.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from reference_impl.rules import rules_for, ruleset_names
from tractor_dsl import model as m
from tractor_dsl.checker import CheckedRuleset

from conformance.generation.features import feature_order, feature_value, reading_changes, schema_alternatives, value_text
from conformance.analysis.variants.compare import with_changes
from conformance.analysis.variants.questions import Outcome, Question, outcome_or_impossible, try_ask
from conformance.analysis.variants.render import outcome_dict
from conformance.analysis.variants.search import Space, candidates


@dataclass
class Example:
    ruleset: str
    clause: str
    key: str
    position: Question
    outcome: Outcome
    decisive: bool                       # another reading or value would answer differently
    readings: list[tuple[str, Outcome]] = field(default_factory=list)   # other readings' answers

    def to_dict(self) -> dict:
        """The example as JSON, its Chinese in the words of the ruleset's source document."""
        doc = rules_for(self.ruleset).checked.document
        return {"ruleset": self.ruleset, "clause": self.clause, "key": self.key,
                "position": self.position.to_dict(), **outcome_dict(self.outcome, doc),
                "readings": [{"reading": n, **outcome_dict(o, doc)} for n, o in self.readings]}


def _ladder_key(lead: str) -> str:
    return f"follow {lead}"


def clause_features(rs: CheckedRuleset, clause_id: str) -> list[str]:
    """The features the clause (with its chosen reading) states in ``rs``."""
    keys = [k for k, o in rs.origins.items() if o.clause.id == clause_id and k not in ("follow.ladders",
                                                                                        "score.bands")]
    keys += [_ladder_key(lead) for lead, (_s, _l, o) in rs.ladders.items() if o.clause.id == clause_id]
    if rs.band_origin is not None and rs.band_origin.clause.id == clause_id:
        keys.append("score.bands")
    return feature_order(keys)


def _alternatives(rs: CheckedRuleset, clause: m.Clause, key: str) -> list[tuple[str, dict]]:
    """Counterfactuals for one feature: other readings of the clause, else other schema values,
    else what the other bundled rulesets state."""
    chosen = rs.choices.get(clause.id)
    out = []
    for r in clause.readings:
        if r.name != chosen:
            ch = reading_changes(clause, r.name)
            if key in ch:
                out.append((r.name, ch))
    if out:
        return out
    value = feature_value(rs, key)
    for alt in schema_alternatives(key, value):
        out.append((f"{key} = {value_text(alt)}", {key: alt}))
    if out:
        return out
    seen = {repr(value)}
    for name in ruleset_names():
        v = feature_value(rules_for(name).checked, key)
        if repr(v) not in seen:
            seen.add(repr(v))
            out.append((name, {key: v}))
    return out


@lru_cache(maxsize=None)
def examples_for_clause(ruleset: str, clause_id: str, limit: int = 3) -> tuple[Example, ...]:
    """Examples computed by the interpreter for one clause of a bundled ruleset.

    For each feature the clause states: a question whose answer the clause
    decides, preferring one that another reading (or another value) would
    answer differently. A feature no question shows is shown by its value.
    At most ``limit`` examples, none repeated.
    """
    rules = rules_for(ruleset)
    rs = rules.checked
    clause = rs.clause(clause_id)
    keys = clause_features(rs, clause_id)
    out: list[Example] = []
    seen: set[Question] = set()
    chosen = rs.choices.get(clause_id)
    others = [(r.name, with_changes(rules, reading_changes(clause, r.name))) for r in clause.readings
              if r.name != chosen]

    def reading_answers(q: Question) -> list[tuple[str, Outcome]]:
        answers = []
        for name, rr in others:
            ro = try_ask(rr, q, True)
            if ro is not None:
                answers.append((name, ro))
        return answers

    if others:
        # first, a question the readings answer differently: what the interpretation decides
        changed_keys = feature_order({k for r in clause.readings for k in reading_changes(clause, r.name)})
        for key in changed_keys + [k for k in keys if k not in changed_keys]:
            found = None
            for q in candidates(key, Space.of([rules], key), n_random=150):
                o = try_ask(rules, q)
                if o is None or clause_id not in o.clauses:
                    continue
                answers = reading_answers(q)
                if any(a.answer != o.answer for _, a in answers):
                    found = Example(ruleset, clause_id, key, q, o, True, answers)
                    break
            if found is not None:
                out.append(found)
                seen.add(found.position)
                break
    found_list: list[tuple[int, int, Example]] = []
    value_keys: list[str] = []
    for i, key in enumerate(keys):
        alt_rules = [with_changes(rules, ch) for _label, ch in _alternatives(rs, clause, key)]
        best = None
        for q in candidates(key, Space.of([rules], key), n_random=150):
            if q in seen:
                continue
            o = try_ask(rules, q)
            if o is None or clause_id not in o.clauses:
                continue
            decisive = any((oa := try_ask(ar, q, True)) is not None and oa.answer != o.answer for ar in alt_rules)
            if decisive:
                best = (q, o, True)
                break
            if best is None:
                best = (q, o, False)
        if best is None:
            value_keys.append(key)
            continue
        q, o, decisive = best
        found_list.append((0 if decisive else 1, i, Example(ruleset, clause_id, key, q, o, decisive)))
    if value_keys and not found_list:
        # no question of play shows these settings: one example gives their values
        q = Question.of("value", {"keys": value_keys})
        o = try_ask(rules, q)
        if o is not None:
            found_list.append((2, len(keys), Example(ruleset, clause_id, value_keys[0], q, o, False)))
    found_list.sort(key=lambda t: t[:2])
    answers = {(e.position.op, e.outcome.answer) for e in out}
    for _, _, ex in found_list:
        if len(out) >= limit:
            break
        kind_answer = (ex.position.op, ex.outcome.answer)
        if ex.position in seen or kind_answer in answers:
            continue
        seen.add(ex.position)
        answers.add(kind_answer)
        ex.readings = reading_answers(ex.position)
        out.append(ex)
    return tuple(out)


def is_executable(rs: CheckedRuleset, clause_id: str) -> bool:
    """Whether the clause states rules the interpreter executes (settings, ladders or bands)."""
    return bool(clause_features(rs, clause_id))


def evaluate_recorded(key: str, q: Question) -> Outcome | None:
    """Recompute an outcome recorded under ``key``: a ruleset name, or ``RULESET#CLAUSE#READING``
    for the answer the clause's other reading would give (what the docs record)."""
    if "#" in key:
        ruleset, clause_id, reading = key.split("#", 2)
        rules = rules_for(ruleset)
        clause = rules.checked.clause(clause_id)
        return try_ask(with_changes(rules, reading_changes(clause, reading)), q, True)
    return outcome_or_impossible(rules_for(key), q)
