"""From failures to findings: which feature of the spec an engine reads differently, and which clause
decided each answer it got wrong.

A judgment consults many clauses (its trace); a disagreement is about one
answer. The alternatives of the spec (:mod:`conformance.generation.alternatives`) say
what else each feature could have been. A *finding* is one feature — a
setting, a reading, a follow ladder, the score table — with alternative
values under which the reference gives the engine's answer on a set of
failing cases; alternatives are ranked by the failures they explain minus the passing cases they break
(reported beside the finding), so one passing case does not veto a rule that explains hundreds. Findings are
chosen greedily, the feature explaining most (net) failures first; failures no single
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

import json
import os
from dataclasses import dataclass, field
from contextlib import nullcontext
from functools import lru_cache

from reference_impl.rules import Rules

from conformance.protocol import messages as protocol
from conformance.analysis.charges import Charge, deciding_all
from conformance.analysis.ranking import BROKEN_SHARE, cost, outweighs, secondary_only  # noqa: F401 — shared
from conformance.generation.alternatives import Alternative, alternatives
from conformance.generation.decisions import PRIMARY, answer, primary_differs

SAMPLE = 24           # failing cases per operation tried against every alternative before the rest
DECIDES_LIMIT = 60    # unexplained failures charged by deciding clauses; beyond, by consulted clauses
CONTRADICTED = 0.1    # an alternative changing this share of failing answers to values the engine does not give
                      # either (per case it explains) is not the engine's reading
BROKEN_LIMIT = 12     # an alternative breaking more passes than this is not searched for a partner
RIVALS = 4            # other values of a finding's feature, explaining the same, asked of the engine
PAIR_POOL = 10        # the alternatives moving most failing answers, judged in pairs when no single one explains


@dataclass
class Finding:
    """A feature the engine reads differently, with the evidence."""

    feature: str
    clause: str
    spec: str                                  # the spec's value, as text
    engine: list[str]                          # the alternatives that give the engine's answers
    cases: list[str] = field(default_factory=list)
    keys: tuple[str, ...] = ()                 # the features its alternatives change (a reading: several)
    broken: list[str] = field(default_factory=list)   # passing cases (and failures an earlier finding
                                                      # explained) whose answer it changes: explained minus
                                                      # broken ranks the alternatives (issue 31, item 3)
    rivals: list = field(default_factory=list, repr=False, compare=False)  # other values explaining the same
    after: Rules | None = field(default=None, repr=False, compare=False)   # the reference with this finding
                                                                           # (and those before it) applied

    def to_dict(self) -> dict:
        return {"feature": self.feature, "clause": self.clause, "spec": self.spec, "engine": self.engine,
                "cases": len(self.cases), "case_ids": self.cases, "broken": len(self.broken),
                "broken_ids": self.broken}


@dataclass
class Analysis:
    findings: list[Finding]
    unexplained: list[str]
    charges: dict[str, Charge]        # case id -> charge
    constant: set[str] = field(default_factory=set)   # operations answered alike whatever the spec says


@lru_cache(maxsize=32)
def _alternatives(rules: Rules) -> tuple[Alternative, ...]:
    return tuple(alternatives(rules))


def _agrees(other: dict, engine: dict, op: str, fields=None) -> bool:
    """The runner's own comparison, on the fields the engine declared it answers (all by default)."""
    return "error" not in other and protocol.agrees(op, other, engine, fields)


def _judge_on(obs, on: Rules, cases: list[dict], engine_of: dict, fields: dict) -> tuple[set, set, set]:
    """(explained, moved, contradicted) among the failing ``cases`` (sorted by id) that ``obs`` observes, for the
    rules ``on``: an operation of which nothing is explained in its first :data:`SAMPLE` cases is not asked
    further."""
    by_op: dict[str, list[dict]] = {}
    for case in cases:
        if case["op"] in obs:
            by_op.setdefault(case["op"], []).append(case)
    hits, moved, wrong = set(), set(), set()
    for op, group in by_op.items():
        for n, case in enumerate(group):
            if n == SAMPLE and not hits & {c["id"] for c in group[:SAMPLE]}:
                break           # nothing of this operation explained in the sample: the rest is not asked
            got = answer(on, op, case["input"])
            if "error" in got:
                continue
            cid = case["id"]
            if _agrees(got, engine_of[cid], op, fields.get(op)):
                hits.add(cid)
                moved.add(cid)
            elif not _agrees(got, case["expected"], op, fields.get(op)):
                moved.add(cid)
                if contradicts(op, got, case["expected"], engine_of[cid], fields.get(op)):
                    wrong.add(cid)
    return hits, moved, wrong


def contradicts(op: str, other: dict, expected: dict, engine: dict, fields=None) -> bool:
    """Whether ``other`` (an alternative's answer) changes a compared field of the spec's answer to a value the
    engine does not give either: judged field by field, so an alternative that gives the engine's penalty on a
    failed throw whose forced play differs for another reason is not contradicted by it (issue 31, item 3)."""
    o, e = protocol.normalize(op, other, fields), protocol.normalize(op, expected, fields)
    missing = object()
    return any(o.get(k, missing) != e.get(k, missing) and o.get(k, missing) != engine.get(k, missing)
               for k in (fields or protocol.COMPARED[op]))


def _judge_alternatives(alts: list[Alternative], base: Rules, cases: list[dict], engine_of: dict,
                        fields: dict) -> list[tuple[set, set, set]]:
    """On a worker: :func:`_judge_on` for each alternative applied to ``base``."""
    return [_judge_on(a.observers, a.on(base), cases, engine_of, fields) for a in alts]


JUDGED_CHUNK = 64   # alternatives judged per chunk of the executor (each chunk pickles the failures and the
#                     rules to its worker: a few large chunks, not many small ones)


def _judge_all(pool: list, base: Rules, cases: list[dict], engine_of: dict, fields: dict,
               executor=None, fn=None) -> list[tuple[set, set, set]]:
    """``fn`` (:func:`_judge_alternatives`, or :func:`_judge_pairs`) of every item of ``pool``, on the executor
    when one is given (the chunks depend on the pool alone, so the findings are the same on any number of
    workers)."""
    fn = fn or _judge_alternatives
    if executor is None or len(pool) <= JUDGED_CHUNK:
        return fn(pool, base, cases, engine_of, fields)
    from conformance.running.parallel import cut, map_chunks
    wanted = {c["id"]: engine_of[c["id"]] for c in cases}
    return [r for chunk in map_chunks(fn, cut(pool, JUDGED_CHUNK), pool=executor,
                                      extra=(base, cases, wanted, fields)) for r in chunk]


def analyse(rules: Rules, failures: list[tuple[dict, dict]], passes: list[dict],
            alts: tuple[Alternative, ...] | None = None, rounds: int = 16,
            fields: dict[str, tuple[str, ...]] | None = None, *, executor=None,
            progress=None, charge_unexplained: bool = True) -> Analysis:
    """Findings and charges for ``failures`` (each a case and the engine's result), given the ``passes``.

    A greedy search over sets of alternatives: findings are found one at a
    time, each on top of the ones before (an engine that differs in two
    features often fails a case only because of both). Each round takes the
    alternative explaining most of the failures left, net, among those that

    * explain more failures than they break cases (passing cases, and failures an earlier finding explained):
      ranked by the difference, the broken cases kept beside the finding (``Finding.broken``);
    * are not contradicted, field by field (:func:`contradicts`): on at most :data:`CONTRADICTED` of the cases they
      explain do they change another failing answer to a value the engine does
      not give either (a flat penalty is not "per blocked card" because one
      blocked card gives the same points);

    with the other rows of its table that help (never two values of one row).
    When no single alternative qualifies, pairs of the alternatives that move
    the failing answers most are judged together, so that interacting
    differences (an alternative that is right only with another) are found
    together: each pair becomes two findings, one feature value each.

    Each round's alternatives are judged on ``executor`` (one of
    :func:`conformance.running.parallel.executor`) when one is given;
    ``progress(text)`` is told each round. ``charge_unexplained=False`` leaves the unexplained failures
    uncharged, for a caller that clusters them first (:func:`attribute`: a clustered failure is charged to its
    cluster, and the clauses deciding the others are computed then, as :func:`charge_outside` does).
    """
    alts = alts if alts is not None else _alternatives(rules)
    fields = fields or {}                  # partial answers, declared: op -> the fields compared
    engine_of = {case["id"]: protocol.normalize(case["op"], got, fields.get(case["op"])) for case, got in failures}
    case_of = {case["id"]: case for case, _ in failures}
    constant = constant_ops(failures, passes, fields)   # an engine answering one thing whatever the spec says
    aside = {cid for cid in engine_of if case_of[cid]["op"] in constant}
    left = set(engine_of) - aside
    done: set[str] = set()                 # failures explained by the findings so far
    base = rules
    findings: list[Finding] = []
    chosen_features: set[str] = set()
    candidates: list[Alternative] | None = None   # after the first round: the alternatives that moved some

    def op_fields(cid):
        return fields.get(case_of[cid]["op"])

    def judge(obs, on: Rules) -> tuple[set[str], set[str], set[str]]:
        """(explained, moved, contradicted) among the failures left, for the rules ``on``."""
        return _judge_on(obs, on, [case_of[cid] for cid in sorted(left)], engine_of, fields)

    given_up: set[str] = set()             # passes an earlier finding broke (reported beside it)

    def broken_by(obs, on: Rules, limit: int | None = None) -> list[str]:
        """The passes (and failures explained so far) whose answer ``on`` changes, among those of the operations
        ``obs``; counting stops at ``limit``."""
        out = []
        for c in passes:
            if c["op"] in obs and c["id"] not in given_up and \
                    not _agrees(answer(on, c["op"], c["input"]), c["expected"], c["op"], fields.get(c["op"])):
                out.append(c["id"])
                if limit is not None and len(out) >= limit:
                    return out
        for cid in sorted(done):
            if case_of[cid]["op"] in obs and not _agrees(answer(on, case_of[cid]["op"], case_of[cid]["input"]),
                                                         engine_of[cid], case_of[cid]["op"], op_fields(cid)):
                out.append(cid)
                if limit is not None and len(out) >= limit:
                    return out
        return out

    pass_of = {c["id"]: c for c in passes}

    def secondary(hits: set) -> bool:
        """Whether the failures ``hits`` all differ from the spec in other fields than the primary one."""
        for cid in hits:
            op = case_of[cid]["op"]
            differing = [PRIMARY[op]] if primary_differs(op, engine_of[cid], case_of[cid]["expected"],
                                                         op_fields(cid)) else []
            if not secondary_only(op, differing, op_fields(cid)):
                return False
        return True

    def primary_changed(on: Rules, ids: list[str]) -> int:
        """How many of the passes (and failures explained so far) ``ids`` ``on`` answers otherwise in the
        primary field."""
        n = 0
        for cid in ids:
            case = pass_of.get(cid) or case_of[cid]
            op, want = case["op"], pass_of[cid]["expected"] if cid in pass_of else engine_of[cid]
            got = answer(on, op, case["input"])
            n += "error" not in got and primary_differs(op, got, want, fields.get(op))
        return n

    def keeps(obs, on: Rules) -> bool:
        return not broken_by(obs, on, 1)

    def judge_pairs(pairs) -> list[tuple[set, set, set]]:
        """:func:`_judge_pairs` among the failures left, on ``base`` (as it is when asked)."""
        return _judge_all(list(pairs), base, [case_of[cid] for cid in sorted(left)], engine_of, fields, executor,
                          _judge_pairs)

    def plausible(hits: set, wrong: set) -> bool:
        return bool(hits) and len(wrong) <= CONTRADICTED * len(hits)

    def anchored(anchor: Alternative, on: Rules, pool) -> list[tuple[Alternative, Alternative]]:
        """``anchor`` (explaining most, yet breaking some passes) with each alternative of another feature that
        gives the broken passes back their answers: the differences that are right only together."""
        broken = [(c, c["expected"]) for c in passes if c["op"] in anchor.observers
                  and not _agrees(answer(on, c["op"], c["input"]), c["expected"], c["op"], fields.get(c["op"]))]
        broken += [(case_of[cid], engine_of[cid]) for cid in done if case_of[cid]["op"] in anchor.observers
                   and not _agrees(answer(on, case_of[cid]["op"], case_of[cid]["input"]), engine_of[cid],
                                   case_of[cid]["op"], op_fields(cid))]
        if not broken or len(broken) > BROKEN_LIMIT:
            return []
        out = []
        for other in pool:
            if other.feature == anchor.feature or not set(other.observers) & {c["op"] for c, _ in broken}:
                continue
            both = other.on(on)
            if all(_agrees(answer(both, c["op"], c["input"]), want, c["op"], fields.get(c["op"]))
                   for c, want in broken):
                out.append((anchor, other))
        return out

    for n_round in range(rounds):
        if not left:
            break
        pool = [a for a in (candidates if candidates is not None else alts) if a.feature not in chosen_features]
        if progress is not None:
            progress(f"finding {n_round + 1}: {len(pool)} alternatives on {len(left)} failures")
        scored = []
        judged = _judge_all(pool, base, [case_of[cid] for cid in sorted(left)], engine_of, fields, executor)
        for alt, (hits, moved, wrong) in zip(pool, judged):
            if moved:
                scored.append((len(hits), alt, alt.on(base), hits, moved, wrong))
        if candidates is None:
            candidates = [alt for _, alt, *_ in scored]
        scored.sort(key=lambda t: (-t[0], t[1].id))
        pick, top = None, 0   # ranked by failures explained minus passes broken (issue 31, item 3)
        for n_hits, alt, on, hits, _, wrong in scored:
            if n_hits <= top:
                break         # sorted by failures explained: none after it can explain more net
            if not plausible(hits, wrong):
                continue
            broken = broken_by(alt.observers, on, n_hits - top)
            weighed = cost(len(broken), primary_changed(on, broken), secondary(hits))
            if n_hits - weighed > top and outweighs(n_hits, weighed):
                pick, top = (alt, on, hits, broken), n_hits - weighed
        if pick is not None:
            alt, on, covered, lost = pick
            used = [alt]
            rows = {alt.row[:3]} if alt.row else set()
            for _, other, _, _, _, _ in scored:  # other rows of the tables (other kitty rows ...) that help too
                if other is alt or not other.row or not alt.row or other.row[:3] in rows or \
                        other.clause != alt.clause:
                    continue
                more = other.on(on)
                hits, _, wrong = judge(other.observers, more)
                hits -= covered
                if hits and plausible(hits, wrong - covered):
                    given_up.update(lost)
                    broken = broken_by(other.observers, more, len(hits))
                    given_up.difference_update(lost)
                    if len(hits) > len(broken):   # another row of a table the finding reads otherwise
                        used.append(other)
                        rows.add(other.row[:3])
                        on, covered, lost = more, covered | hits, lost + broken
            group = [(used, covered)]
        best = scored[0] if scored else None   # most explained, whether it keeps the passes or not
        pair = None
        if best is not None and best[0] > 1.5 * (len(covered) if pick else 0) + 2:
            pair = _pair(anchored(best[1], best[2], pool), base, judge_pairs, keeps, plausible)   # right with another?
            if pair is not None and pick is not None and len(pair[2]) <= len(covered):
                pair = None
        if pick is None and pair is None:
            pair = _pair(_pairs(scored), base, judge_pairs, keeps, plausible)
            if pair is None:
                break
        if pair is not None:
            (a, b), on, covered = pair
            alone = judge(a.observers, a.on(base))[0] & covered
            group = [([a], alone or covered), ([b], (covered - alone) or covered)]
            lost = []
        base = on
        given_up.update(c for c in lost if c not in engine_of)
        left -= covered
        together = {cid for cid in left
                    if _agrees(answer(base, case_of[cid]["op"], case_of[cid]["input"]), engine_of[cid],
                               case_of[cid]["op"], op_fields(cid))}
        left -= together   # explained by these findings on top of the ones before
        done |= covered | together
        for k, (used, cases) in enumerate(group):
            if k == len(group) - 1:
                cases = cases | together
            chosen_features.add(used[0].feature)
            findings.append(_finding(rules, used, sorted(cases), base))
            findings[-1].broken = sorted(lost)
    for f in findings:   # other values of the feature the suite cannot tell from the finding's
        if len(f.engine) != 1 or alts is None:
            continue
        for other in alts:
            if other.feature != f.feature or other.row or engine_value(rules, other) in f.engine:
                continue
            on = other.on(f.after)
            if all(_agrees(answer(on, case_of[cid]["op"], case_of[cid]["input"]), engine_of[cid],
                           case_of[cid]["op"], op_fields(cid)) for cid in f.cases) and \
                    all(_agrees(answer(on, c["op"], c["input"]), c["expected"], c["op"], fields.get(c["op"]))
                        for c in passes if c["op"] in other.observers):
                f.rivals.append(other)
            if len(f.rivals) >= RIVALS:
                break
    charges: dict[str, Charge] = {}
    for f in findings:
        for cid in f.cases:
            charges[cid] = Charge((f.clause,), "finding", f.feature)
    unexplained = [case_of[cid] for cid in sorted(left | aside)]
    if not charge_unexplained:
        return Analysis(findings, [c["id"] for c in unexplained], charges, constant)
    if progress is not None and unexplained:
        progress(f"charging {min(len(unexplained), DECIDES_LIMIT)} unexplained failures to their clauses")
    decided = deciding_all([(case, engine_of[case["id"]], fields.get(case["op"]))
                            for case in unexplained[:DECIDES_LIMIT]], alts, executor)
    for case, charge in zip(unexplained, decided):
        charges[case["id"]] = charge
    for case in unexplained[DECIDES_LIMIT:]:
        charges[case["id"]] = Charge(tuple(case.get("clauses", ())), "consulted")
    return Analysis(findings, [c["id"] for c in unexplained], charges, constant)


CONSTANT_MIN = 20   # cases of an operation (passing and failing) before one answer to all of them is telling


def constant_ops(failures: list[tuple[dict, dict]], passes: list[dict], fields=None) -> set[str]:
    """The operations the engine gives one and the same answer on every case (at least :data:`CONSTANT_MIN`)
    while the spec's answers differ, ``legal true`` to every follow: no alternative of the rules explains an
    engine that does not consult them, though many explain a slice of its failures. Their failures are left
    to clustering, as one finding beyond the alternatives."""
    fields = fields or {}
    engine: dict[str, set[str]] = {}
    spec: dict[str, set[str]] = {}
    count: dict[str, int] = {}
    for case, got in failures:
        op = case["op"]
        engine.setdefault(op, set()).add(json.dumps(protocol.normalize(op, got, fields.get(op)), sort_keys=True,
                                                    default=str))
        spec.setdefault(op, set()).add(json.dumps(protocol.normalize(op, case["expected"], fields.get(op)),
                                                  sort_keys=True, default=str))
        count[op] = count.get(op, 0) + 1
    for case in passes:
        op = case["op"]
        if op not in engine:
            continue
        text = json.dumps(protocol.normalize(op, case["expected"], fields.get(op)), sort_keys=True, default=str)
        engine[op].add(text)
        spec[op].add(text)
        count[op] += 1
    return {op for op in engine if count[op] >= CONSTANT_MIN and len(engine[op]) == 1 and len(spec[op]) > 1}


def charge_outside(unexplained: list[str], clustered: set[str], case_of: dict, engine_of: dict, alts, fields,
                   known: dict, executor=None, progress=None) -> dict[str, Charge]:
    """The charges of the unexplained failures outside every cluster, as :func:`analyse` gives them: the
    deciding clauses for the first :data:`DECIDES_LIMIT` unexplained ones (``known``: those computed already,
    case id -> charge), the consulted clauses for the others."""
    first = [cid for cid in unexplained[:DECIDES_LIMIT] if cid not in clustered]
    ask = [cid for cid in first if cid not in known]
    if progress is not None and ask:
        progress(f"charging {len(ask)} failures outside every cluster to their clauses")
    known = {**known, **dict(zip(ask, deciding_all([(case_of[cid], engine_of[cid],
                                                     fields.get(case_of[cid]["op"])) for cid in ask],
                                                   alts, executor)))}
    out = {cid: known[cid] for cid in first}
    for cid in unexplained[DECIDES_LIMIT:]:
        if cid not in clustered:
            out[cid] = Charge(tuple(case_of[cid].get("clauses", ())), "consulted")
    return out


def _pairs(scored, anchor: Alternative | None = None) -> list[tuple[Alternative, Alternative]]:
    """Pairs of alternatives (of two features) to judge together: ``anchor`` with each of the alternatives
    explaining or moving most failures, or, with no anchor, the :data:`PAIR_POOL` moving most, pairwise."""
    if anchor is not None:
        others = sorted((t for t in scored if t[1].feature != anchor.feature), key=lambda t: (-t[0], -len(t[4])))
        return [(anchor, t[1]) for t in others[:4 * PAIR_POOL]]
    movers = sorted(scored, key=lambda t: (-len(t[4]), t[1].id))
    top: list[Alternative] = []
    for t in movers:
        if len(top) >= PAIR_POOL:
            break
        if t[1].row is None or all(t[1].feature != o.feature for o in top):
            top.append(t[1])
    return [(a, b) for i, a in enumerate(top) for b in top[i + 1:] if a.feature != b.feature]


def _pair(pairs, base: Rules, judge_pairs, keeps, plausible):
    """Of ``pairs``, the one that together explains most failures (breaking no pass), or None;
    ``judge_pairs(pairs)`` judges them all (on the executor)."""
    best = None
    for (a, b), (hits, _, wrong) in zip(pairs, judge_pairs(pairs)):
        if plausible(hits, wrong) and (best is None or len(hits) > len(best[2])):
            on = b.on(a.on(base))
            if keeps(tuple(dict.fromkeys(a.observers + b.observers)), on):
                best = ((a, b), on, hits)
    return best


def _judge_pairs(pairs: list[tuple[Alternative, Alternative]], base: Rules, cases: list[dict], engine_of: dict,
                 fields: dict) -> list[tuple[set, set, set]]:
    """On a worker: :func:`_judge_on` for each pair of alternatives applied together to ``base``."""
    return [_judge_on(tuple(dict.fromkeys(a.observers + b.observers)), b.on(a.on(base)), cases, engine_of, fields)
            for a, b in pairs]


def _finding(rules: Rules, used: list[Alternative], cases: list[str], after: Rules) -> Finding:
    alt = used[0]
    spec = "; ".join(dict.fromkeys(spec_value(rules, a) for a in used))   # each row changed, once
    keys = tuple(dict.fromkeys(k for a in used for k in a.changes))
    return Finding(alt.feature, alt.clause, spec, [engine_value(rules, a) for a in used], cases, keys, after=after)


def simplified(formula) -> str:
    """A multiplier as a reader writes it: ``2``, not ``1 + 1``."""
    def has_variable(f) -> bool:
        return f is not None and (f.op in ("cards", "pairs") or has_variable(f.left) or has_variable(f.right))
    return str(formula) if has_variable(formula) else str(formula(0))


def _row_value(rules: Rules, row: tuple):
    name, cls, shape, _ = row
    table = rules[name]
    table = table[cls] if cls else table
    return table[shape]


def spec_value(rules: Rules, alt: Alternative) -> str:
    """The spec's value of the feature an alternative changes, as text (never blank): the row of a table it
    changes, the reading chosen, a derived ladder's rungs."""
    from conformance.generation.alternatives import ladders_of, units_pattern
    from conformance.generation.features import features as feature_table
    if alt.row is not None:
        _, cls, shape, _ = alt.row
        return f"{cls or 'banker'} {shape} {simplified(_row_value(rules, alt.row))}"
    if alt.feature.startswith("reading "):
        clause = alt.feature[len("reading "):]
        return f"reading {rules.checked.choices.get(clause) or 'none'}"
    text = feature_table(rules.checked).get(alt.feature)
    if text is not None and text.text:
        return text.text
    if alt.feature.startswith("follow "):
        for unit, rungs in ladders_of(rules).items():
            from conformance.generation.positions.scenario import unit_text
            if f"follow {unit_text(unit)}" == alt.feature:
                return " / ".join(str(units_pattern(e)) for e in rungs) + " (derived)"
    unset = _unset_value(rules, alt.feature)
    return f"not set: {unset}" if unset else f"as {rules.name} states it"


def _unset_value(rules: Rules, feature: str) -> str | None:
    """What a setting the ruleset leaves unset means, as the schema's ``Not set:`` says (``largest`` for
    follow.reason_order): the spec's side of a house rule's finding, where "as r000 states it" told nothing."""
    import re
    from tractor_dsl.schema import PARAMS_BY_NAME
    param = PARAMS_BY_NAME.get(feature)
    if param is None or feature in rules.checked.values:
        return None
    m = re.search(r"Not set: (.*?)(?: - |\. |\.$| \(|;|$)", " ".join(param.doc.split()))
    return m.group(1).strip() if m else None


def folded(rules: Rules, clusters: list, findings: list[Finding], case_of: dict, engine_of: dict, fields: dict,
           charges: dict) -> list:
    """``clusters``, less those a finding's own alternative fixes (one deviation, one finding: issue 31, item 2),
    whose cases join that finding. A finding is judged on top of the findings before it, a cluster's rule on the
    spec alone: the same rule read otherwise (tonyyunyang/80-fen-shengji's kitty table, V47) can explain some
    failures in the first way and the rest in the second. A case joins only when the alternative gives the
    engine's answer on it (not on the sample the cluster's name was judged on); when at least :data:`FOLDED` of
    a cluster's cases join, the others are left in no finding (the cluster's name and shape were judged with
    those that joined), else the cluster stays whole."""
    alt_of = {a.id: a for a in _alternatives(rules)}
    out = []
    for c in clusters:
        alt = alt_of.get(c.rule.alt) if c.rule is not None and c.rule.fixes else None
        f = next((f for f in findings if alt is not None and f.feature == alt.feature and
                  f.engine == [engine_value(rules, alt)]), None)
        joins = [cid for cid in c.cases if f is not None and _agrees(
            answer(alt.rules, c.op, case_of[cid]["input"]), engine_of[cid], c.op, fields.get(c.op))]
        if len(joins) < FOLDED * len(c.cases):
            out.append(c)
            continue
        f.cases = sorted(set(f.cases) | set(joins))
        for cid in joins:
            charges[cid] = Charge((f.clause,), "finding", f.feature)
    return out


FOLDED = 0.8   # the share of a cluster's cases a finding's alternative must answer as the engine does to take them


def engine_value(rules: Rules, alt: Alternative) -> str:
    """The alternative value the engine is seen to follow, simplified (one value of one feature)."""
    if alt.row is None:
        return alt.description
    name, cls, shape, new = alt.row
    return f"{name}: {cls or 'banker'} {shape} {simplified(_row_value(rules, alt.row))} -> {simplified(new)}"


def settle_rivals(rules: Rules, ruleset: str, findings: list[Finding], session, fields=None) -> None:
    """Ask the engine, through ``session``, a position telling a finding's value from each other value of its
    feature that explains the same failures (the suite decides each against the spec, not against each other),
    and take the value the engine follows: what ``fingerprint --emit`` writes is then the engine's own."""
    import dataclasses
    from conformance.generation.decisions import distinguish
    for i, f in enumerate(findings):
        for rival in f.rivals:
            mine = f.after
            theirs = rival.on(mine)
            search = distinguish(mine, dataclasses.replace(rival, base=mine), budget=2000, check_equivalence=False)
            if search.found is None or not session.alive:
                continue
            op, inp = search.found.op, search.found.input
            [got] = session.ask(ruleset, op, [inp])
            if got is None:
                continue
            want = (fields or {}).get(op)
            if _agrees(answer(theirs, op, inp), got, op, want) and not _agrees(answer(mine, op, inp), got, op, want):
                f.engine = [engine_value(rules, rival)]
                f.keys = tuple(dict.fromkeys(rival.changes))
                for later in findings[i:]:
                    later.after = rival.on(later.after)
                break


FAILED = ("fail", "xfail", "xpass")
SHRINK_ON_WORKERS = "TRACTOR_SHRINK_ON_WORKERS"   # 1: always on the workers, 0: always here (tests, benchmarks)


def attribute(result, shrink: bool = True, *, jobs: int | None = 1, scheduler: str | None = None,
              progress=None, stop=None, parallel_shrink: bool | None = None) -> None:
    """Fill in a conformance run's findings and each failure's charged clauses (see :func:`analyse`), then
    cluster the failures no alternative explains (:mod:`conformance.analysis.clusters`), each cluster's first
    case shrunk through the protocol by the run's own engine when ``shrink``.

    Only rulesets the reference knows by name (bundled, or read from a user's
    file in this process) are analysed; cases whose answer is not a result
    (errored, skipped) are neither failures nor passes here.

    The alternatives are judged on the executor of ``jobs`` local processes
    or a Dask ``scheduler`` (:mod:`conformance.running.parallel`; the
    findings are the same on any number of workers); the engine is asked from
    this process, and shrinking on the executor too, each chunk of clusters through an engine of its own,
    when that pays (``parallel_shrink`` True or False decides instead, or the environment variable
    :data:`SHRINK_ON_WORKERS` set to 1 or 0; see
    :func:`conformance.analysis.clusters.describe`). ``progress(text)`` is told each step; once ``stop()``
    is true (a signal came), no more cluster is shrunk and the executor's workers are ended with their
    engines.
    """
    from reference_impl.rules import known_names
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
    say = progress or (lambda text: None)
    failing = any(f for f, _ in by_ruleset.values())
    from conformance.running.parallel import default_jobs, executor as open_executor
    workers = 2 if scheduler else default_jobs() if jobs is None or jobs <= 0 else jobs
    if parallel_shrink is None and os.environ.get(SHRINK_ON_WORKERS) in ("0", "1"):
        parallel_shrink = os.environ[SHRINK_ON_WORKERS] == "1"
    done: list[str] = []   # the rulesets whose analysis finished
    try:
        _attribute(result, by_ruleset, fields, charges, session, failing, jobs, scheduler, workers, say, stop,
                   parallel_shrink, open_executor, done)
    except clustering.ShrinkingStopped:
        result.events.append({"kind": "shrinking_stopped", "message": "a signal came while clusters were "
                              "shrunk: the rest keep their first position, and no other ruleset is analysed"})
        stopped_in = next(rs for rs, (fails, _) in by_ruleset.items() if fails and rs not in done)
        left = [c for c in result.clusters if c.ruleset == stopped_in and c.not_shrunk == clustering.NOT_SHRUNK[
            "interrupted"]]
        result.unfinished.append(f"shrinking the clusters of {stopped_in}: {len(left)} keep their first failing "
                                 "position")
        result.unfinished += [f"the analysis of {rs}'s {len(fails)} failures (findings, clusters)"
                              for rs, (fails, _) in by_ruleset.items() if fails and rs not in done and rs != stopped_in]
    for case, o in zip(result.cases, result.outcomes):
        if o is not None and case["id"] in charges:
            o.charged = charges[case["id"]].clauses


def _attribute(result, by_ruleset, fields, charges, session, failing, jobs, scheduler, workers, say, stop,
               parallel_shrink, open_executor, done: list) -> None:
    from reference_impl.rules import rules_for
    from conformance.analysis import clusters as clustering
    asked = sum(1 for o in result.outcomes if o is not None)
    duration = getattr(result, "duration", None)
    per_answer = duration / asked if isinstance(duration, (int, float)) and duration > 0 and asked else None
    with session if session is not None else nullcontext(), \
            (open_executor(jobs, scheduler) if failing and (jobs != 1 or scheduler) else nullcontext()) as ex:
        for ruleset, (fails, passes) in by_ruleset.items():
            if not fails:
                continue
            rules = rules_for(ruleset)
            say(f"analysing {ruleset}: {len(fails)} failures")
            a = analyse(rules, fails, passes, fields=fields, executor=ex, charge_unexplained=False,
                        progress=lambda text, ruleset=ruleset: say(f"analysing {ruleset}: {text}"))
            if session is not None:
                say(f"analysing {ruleset}: asking the engine between values the suite cannot tell apart")
                settle_rivals(rules, ruleset, a.findings, session, fields)
            result.findings.extend(a.findings)
            charges.update(a.charges)
            left = set(a.unexplained)
            case_of = {c["id"]: c for c, _ in fails}
            engine_of = {c["id"]: protocol.normalize(c["op"], got, fields.get(c["op"])) for c, got in fails}
            decided: dict[str, Charge] = {}   # the deciding clauses computed for clustering, reused
            if a.unexplained:
                say(f"analysing {ruleset}: clustering {len(a.unexplained)} unexplained failures")
            found = clustering.cluster(rules, ruleset, [(case_of[cid], engine_of[cid]) for cid in a.unexplained],
                                       _alternatives(rules), fields, executor=ex, known=decided,
                                       constant=a.constant, passes=passes)
            found = folded(rules, found, a.findings, case_of, engine_of, fields, charges)
            left -= {cid for f in a.findings for cid in f.cases}
            try:
                complete = clustering.describe(
                    rules, found, case_of, engine_of, session, fields,
                    progress=lambda text, ruleset=ruleset: say(f"analysing {ruleset}: {text}"),
                    executor=ex, workers=workers, parallel=parallel_shrink, stop=stop, per_answer=per_answer)
            finally:   # stopped or not, the clusters are the run's (those not shrunk keep their first position)
                for c in found:
                    left -= set(c.cases)
                    for cid in c.cases:
                        charges[cid] = Charge((c.clause,), "cluster", c.feature)
                charges.update(charge_outside(
                    a.unexplained, set(a.unexplained) - left, case_of, engine_of, _alternatives(rules), fields,
                    decided, ex, progress=lambda text, ruleset=ruleset: say(f"analysing {ruleset}: {text}")))
                result.clusters.extend(found)
                result.unexplained.extend(cid for cid in a.unexplained if cid in left)
            if not complete:
                raise clustering.ShrinkingStopped
            done.append(ruleset)
