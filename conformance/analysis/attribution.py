"""From failures to findings: which feature of the spec an engine reads differently, and which clause
decided each answer it got wrong.

A judgment consults many clauses (its trace); a disagreement is about one
answer. The alternatives of the spec (:mod:`conformance.generation.alternatives`) say
what else each feature could have been. A *finding* is one feature — a
setting, a reading, a follow ladder, the score table — with alternative
values under which the reference gives the engine's answer on a set of
failing cases, while breaking no case the engine passed. Findings are chosen
greedily, the feature explaining most failures first; failures no single
feature explains are *unexplained*.

Each failing case is *charged* to clauses:

1. the clause of the finding that explains it (the engine reads that clause
   another way);
2. else the clauses with an alternative that changes a field the engine got
   wrong (those clauses decide that field);
3. else the clauses the judgment consulted.

A kitty answered ×2 instead of ×1 is charged to the kitty clause alone, not to
the card order the trick also consulted; a follow answered as if 2s were not
trump is charged to the clause that makes them trump, not to ``follow.suit``
(which would explain that one case, but breaks every passing case of a
follower who must follow suit).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from contextlib import nullcontext
from functools import lru_cache

from reference_impl.rules import Rules

from conformance.protocol import messages as protocol
from conformance.generation.alternatives import Alternative, alternatives
from conformance.generation.decisions import answer

SAMPLE = 24           # failing cases per operation tried against every alternative before the rest
DECIDES_LIMIT = 60    # unexplained failures charged by deciding clauses; beyond, by consulted clauses


@dataclass
class Finding:
    """A feature the engine reads differently, with the evidence."""

    feature: str
    clause: str
    spec: str                                  # the spec's value, as text
    engine: list[str]                          # the alternatives that give the engine's answers
    cases: list[str] = field(default_factory=list)
    after: Rules | None = field(default=None, repr=False, compare=False)   # the reference with this finding
                                                                           # (and those before it) applied

    def to_dict(self) -> dict:
        return {"feature": self.feature, "clause": self.clause, "spec": self.spec, "engine": self.engine,
                "cases": len(self.cases), "case_ids": self.cases}


@dataclass(frozen=True)
class Charge:
    clauses: tuple[str, ...]          # the clauses charged
    how: str                          # "finding", "cluster", "decides" or "consulted"
    finding: str | None = None        # the feature of the finding that explains it


@dataclass
class Analysis:
    findings: list[Finding]
    unexplained: list[str]
    charges: dict[str, Charge]        # case id -> charge


@lru_cache(maxsize=32)
def _alternatives(rules: Rules) -> tuple[Alternative, ...]:
    return tuple(alternatives(rules))


def _agrees(other: dict, engine: dict, op: str, fields=None) -> bool:
    """The runner's own comparison, on the fields the engine declared it answers (all by default)."""
    return "error" not in other and not protocol.compare(op, other, engine, fields)


def analyse(rules: Rules, failures: list[tuple[dict, dict]], passes: list[dict],
            alts: tuple[Alternative, ...] | None = None, rounds: int = 16,
            fields: dict[str, tuple[str, ...]] | None = None) -> Analysis:
    """Findings and charges for ``failures`` (each a case and the engine's result), given the ``passes``.

    Findings are found one at a time, each on top of the ones before (an
    engine that differs in two features often fails a case only because of
    both): the alternative explaining most of the failures left, among those
    that break no passing case, is applied to the reference, with the other
    alternatives of its feature that help, and the search goes on.
    """
    alts = alts if alts is not None else _alternatives(rules)
    fields = fields or {}                  # partial answers, declared: op -> the fields compared
    engine_of = {case["id"]: protocol.normalize(case["op"], got, fields.get(case["op"])) for case, got in failures}
    case_of = {case["id"]: case for case, _ in failures}
    left = set(engine_of)
    base = rules
    findings: list[Finding] = []
    chosen_features: set[str] = set()
    candidates: list[Alternative] | None = None   # after the first round: the alternatives that explained some
    from conformance.generation.features import features as feature_table
    spec_text = {k: f.text for k, f in feature_table(rules.checked).items()}

    def explained(alt: Alternative, on: Rules) -> set[str]:
        by_op: dict[str, list[str]] = {}
        for cid in sorted(left):
            if case_of[cid]["op"] in alt.observers:
                by_op.setdefault(case_of[cid]["op"], []).append(cid)
        out: set[str] = set()
        for op, ids in by_op.items():
            agree = {cid for cid in ids[:SAMPLE]
                     if _agrees(answer(on, op, case_of[cid]["input"]), engine_of[cid], op, fields.get(op))}
            if agree:
                agree |= {cid for cid in ids[SAMPLE:]
                          if _agrees(answer(on, op, case_of[cid]["input"]), engine_of[cid], op, fields.get(op))}
            out |= agree
        return out

    def keeps_passes(alt: Alternative, on: Rules) -> bool:
        return all(_agrees(answer(on, c["op"], c["input"]), c["expected"], c["op"], fields.get(c["op"]))
                   for c in passes if c["op"] in alt.observers)

    for _ in range(rounds):
        if not left:
            break
        pool = [a for a in (candidates if candidates is not None else alts) if a.feature not in chosen_features]
        scored = []
        for alt in pool:
            on = alt.on(base)
            hits = explained(alt, on)
            if hits:
                scored.append((len(hits), alt, on, hits))
        if candidates is None:
            candidates = [alt for _, alt, _, _ in scored]
        scored.sort(key=lambda t: (-t[0], t[1].id))
        pick = next(((alt, on, hits) for _, alt, on, hits in scored if keeps_passes(alt, on)), None)
        if pick is None:
            break
        alt, on, covered = pick
        used = [alt]
        for _, other, _, _ in scored:  # other alternatives of the feature (other kitty rows ...) that help too
            if other.feature == alt.feature and other is not alt:
                more = other.on(on)
                hits = explained(other, more) - covered
                if hits and keeps_passes(other, more):
                    used.append(other)
                    on, covered = more, covered | hits
        base = on
        left -= covered
        together = {cid for cid in left
                    if _agrees(answer(base, case_of[cid]["op"], case_of[cid]["input"]), engine_of[cid],
                               case_of[cid]["op"], fields.get(case_of[cid]["op"]))}
        covered |= together   # explained by this finding on top of the ones before
        left -= together
        chosen_features.add(alt.feature)
        findings.append(Finding(alt.feature, alt.clause, spec_text.get(alt.feature, ""),
                                [a.description for a in used], sorted(covered), base))
    charges: dict[str, Charge] = {}
    for f in findings:
        for cid in f.cases:
            charges[cid] = Charge((f.clause,), "finding", f.feature)
    unexplained = [case_of[cid] for cid in sorted(left)]
    for i, case in enumerate(unexplained):
        charges[case["id"]] = _deciding(case, engine_of[case["id"]], alts, fields.get(case["op"])) \
            if i < DECIDES_LIMIT else \
            Charge(tuple(case.get("clauses", ())), "consulted")
    return Analysis(findings, [c["id"] for c in unexplained], charges)


def _deciding(case: dict, engine: dict, alts, fields=None) -> Charge:
    op = case["op"]
    expected = protocol.normalize(op, case["expected"], fields)
    wrong = {k for k in (fields or protocol.COMPARED[op]) if expected.get(k) != engine.get(k)}
    clauses: list[str] = []
    for alt in alts:
        if op in alt.observers and alt.clause not in clauses:
            other = answer(alt.rules, op, case["input"])
            if "error" not in other and any(other.get(k) != expected.get(k) for k in wrong):
                clauses.append(alt.clause)
    if clauses:
        return Charge(tuple(clauses), "decides")
    return Charge(tuple(case.get("clauses", ())), "consulted")


FAILED = ("fail", "xfail", "xpass")


def attribute(result, shrink: bool = True) -> None:
    """Fill in a conformance run's findings and each failure's charged clauses (see :func:`analyse`), then
    cluster the failures no alternative explains (:mod:`conformance.analysis.clusters`), each cluster's first
    case shrunk through the protocol by the run's own engine when ``shrink``.

    Only rulesets the reference knows by name (bundled, or read from a user's
    file in this process) are analysed; cases whose answer is not a result
    (errored, skipped) are neither failures nor passes here.
    """
    from reference_impl.rules import known_names, rules_for
    from conformance.analysis import clusters as clustering
    known = set(known_names())
    try:
        fields = protocol.declared_fields(result.handshake) if result.handshake else {}
    except protocol.ProtocolError:
        fields = {}
    by_ruleset: dict[str, tuple[list, list]] = {}
    for case, o in zip(result.cases, result.outcomes):
        if o is None or case["ruleset"] not in known:
            continue
        fails, passes = by_ruleset.setdefault(case["ruleset"], ([], []))
        if o.status in FAILED and isinstance(o.answer, dict):
            fails.append((case, o.answer))
        elif o.status == "pass":
            passes.append(case)
    charges: dict[str, Charge] = {}
    runner = getattr(result, "runner", None)
    session = None
    if shrink and runner is not None and not result.interrupted and any(f for f, _ in by_ruleset.values()):
        from conformance.analysis.shrinking import EngineSession
        session = EngineSession(runner)
    with session if session is not None else nullcontext():
        for ruleset, (fails, passes) in by_ruleset.items():
            if not fails:
                continue
            rules = rules_for(ruleset)
            a = analyse(rules, fails, passes, fields=fields)
            result.findings.extend(a.findings)
            charges.update(a.charges)
            left = set(a.unexplained)
            case_of = {c["id"]: c for c, _ in fails}
            engine_of = {c["id"]: protocol.normalize(c["op"], got, fields.get(c["op"])) for c, got in fails}
            found = clustering.cluster(rules, ruleset, [(case_of[cid], engine_of[cid]) for cid in a.unexplained],
                                       _alternatives(rules), fields)
            clustering.describe(rules, found, case_of, engine_of, session, fields)
            for c in found:
                left -= set(c.cases)
                for cid in c.cases:
                    charges[cid] = Charge((c.clause,), "cluster", c.feature)
            result.clusters.extend(found)
            result.unexplained.extend(cid for cid in a.unexplained if cid in left)
    for case, o in zip(result.cases, result.outcomes):
        if o is not None and case["id"] in charges:
            o.charged = charges[case["id"]].clauses
