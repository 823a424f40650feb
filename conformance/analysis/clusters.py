"""Findings beyond the alternatives: the failures no alternative of the spec explains, in clusters.

A failure left unexplained by :mod:`conformance.analysis.attribution` is put in
a cluster by its *signature*, the way fuzzing infrastructure buckets crashes:
the operation, the fields the engine answers otherwise, the clause deciding
them, and the shape of the position (the lead's kind and whether it is trump,
ties between equal plays, a follower void in the suit led, a holding of
jokers only or level cards only, ...). Each cluster becomes a finding with
the number of its cases, what the spec and the engine answer, and a minimal
position, shrunk through the protocol from its first case
(:mod:`conformance.analysis.shrinking`); one or two neighbouring positions then
probe how far the difference reaches.

A cluster whose failures differ only in ``reason`` is a finding of its own
kind (``reason_only``): the engine decides legality as the spec does and names
another reason, which an engine that does not mean to answer reasons
declares with ``fields`` in its handshake.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

from conformance.analysis.shapes import common_shape, difference, every_part, shape, with_difference
from conformance.protocol import messages as protocol

HEADLINE = 0.8        # the share of a cluster's cases its shown answers must hold for, else it says how many
MAX_CLUSTERS = 12     # cluster findings per ruleset (the others stay unexplained)
SHRUNK = 8            # clusters whose position is shrunk through the protocol (the largest first)
CHARACTERISED = 3     # cases of a shape before the clause characterising them may name them
CLAUSE_SAMPLE = 3     # cases per signature whose deciding clause is computed


@dataclass
class Cluster:
    """Failures no alternative explains, alike in operation, differing fields, deciding clause and shape."""

    kind: str                        # "cluster", or "reason_only"
    ruleset: str
    op: str
    fields: tuple[str, ...]          # the fields the engine answers otherwise
    clause: str                      # the clause deciding them
    signature: str                   # the shape of the positions
    cases: list[str] = field(default_factory=list)
    spec: str = ""                   # the spec's answer at the minimal position (the differing fields)
    engine: str = ""                 # the engine's answer there
    position: dict | None = None     # the minimal position (a request's input)
    shrunk_from: str = ""            # the case it was shrunk from
    steps: int = 0                   # shrinking steps that kept the disagreement
    neighbours: list[dict] = field(default_factory=list)   # {"change", "input", "spec", "engine", "differs"}
    needs: list[dict] = field(default_factory=list)        # the parts it needs: {"part", "clauses"}
    decided_by: str = ""             # the clause deciding its cases, when it is named by a part's rule instead
    not_shrunk: str = ""             # why its position is its first failing case's, not shrunk ("": shrunk)
    rule: object = None              # the rule whose change makes the engine agree (a naming.Rule), or None
    keeps: tuple[str, ...] = ()      # the shape parts every case has, which its minimal position keeps
    limited: bool = False            # shrinking stopped at its step limit (the position may shrink further)
    common: dict | None = None       # the answers its cases hold: answers_held
    differs_as: str = ""             # how every case's answers differ, where that tells rules apart
                                     # (shapes.difference: a tie given to another of the equal plays)

    def name_by_search(self, rule) -> None:
        """Named by ``rule`` (:func:`~conformance.analysis.naming.search`), the alternative leaving fewest fields
        differing on its cases, when there is one: the rule the engine reads otherwise (issue 31, item 1)."""
        self.rule = rule
        if rule is not None and rule.names and rule.clause != self.clause:
            self.decided_by, self.clause = self.decided_by or self.clause, rule.clause

    def name_by_parts(self) -> None:
        """Named by the rule the first part it needs brings in (:func:`~conformance.analysis.shrinking.needs`),
        when that is not already its clause: the engine answers otherwise because of that part, so that is
        the rule it reads otherwise (an offender's own wrong declaration: declare.wrong, not the
        declare.first_hand that decides an ``ok``)."""
        brought = next((n["clauses"] for n in self.needs if n["clauses"]), [])
        if self.rule is not None and self.rule.fixes:
            return      # a change of one rule makes the engine agree: that rule names it
        if brought and self.clause not in brought:
            self.decided_by, self.clause = self.decided_by or self.clause, brought[0]

    @property
    def needs_text(self) -> str:
        """``wrong (declare.wrong): without it the engine agrees``."""
        if not self.needs:
            return ""
        shown = [n["part"] + (f" ({', '.join(n['clauses'])})" if n["clauses"] else "") for n in self.needs[:3]]
        more = f" and {len(self.needs) - 3} more" if len(self.needs) > 3 else ""
        text = f"{', '.join(shown)}{more}: without {'it' if len(self.needs) == 1 else 'any one of them'} the " \
               "engine agrees"
        if self.decided_by:
            text += f"; named by the rule it brings in, not by {self.decided_by}, the clause its cases are charged to"
        return text

    @property
    def position_label(self) -> str:
        """What its position is: ``minimal position`` only when it was shrunk."""
        return f"first failing position (not shrunk: {self.not_shrunk})" if self.not_shrunk else "minimal position"

    @property
    def feature(self) -> str:
        return f"{self.op}: {', '.join(self.fields)}" + (" (reason only)" if self.kind == "reason_only" else "")

    @property
    def reach(self) -> str:
        """How far the difference reaches, as the neighbouring positions show it."""
        if not self.neighbours:
            return ""
        asked = [n for n in self.neighbours if n["engine"] is not None]
        if not asked:
            return "the engine answered no neighbouring position"
        differ = [n["change"] for n in asked if n["differs"]]
        agree = [n["change"] for n in asked if not n["differs"]]
        if not differ:
            return "only this position: the engine agrees once " + " or ".join(agree)
        if not agree:
            return "beyond this position: it still differs with " + " and with ".join(differ)
        return f"it still differs with {' and '.join(differ)}, not with {' and '.join(agree)}"

    @property
    def advice(self) -> str:
        if self.kind != "reason_only":
            return ""
        rest = [f for f in protocol.COMPARED[self.op] if f != "reason"]
        declared = json.dumps({"fields": {self.op: rest}})
        return (f"the engine decides {', '.join(rest)} as the spec does and names another reason: use the spec's "
                f"reason codes, or declare {declared[1:-1]} in the handshake")

    def to_dict(self) -> dict:
        return {"kind": self.kind, "ruleset": self.ruleset, "op": self.op, "fields": list(self.fields),
                "clause": self.clause, "signature": self.signature, "spec": self.spec, "engine": self.engine,
                "cases": len(self.cases), "case_ids": self.cases, "position": self.position,
                "shrunk_from": self.shrunk_from, "steps": self.steps, "neighbours": self.neighbours,
                "reach": self.reach, "advice": self.advice, "needs": self.needs, "decided_by": self.decided_by,
                "shrunk": not self.not_shrunk, "not_shrunk": self.not_shrunk,
                "rule": None if self.rule is None else self.rule.to_dict(), "keeps": list(self.keeps),
                "shrinking_limited": self.limited, "answers_held": self.common, "differs_as": self.differs_as}


def answer_text(values: dict, fields) -> str:
    """``legal false, reason must_follow_suit``: the differing fields of an answer, as a reader reads them (a
    classification's components as ``[(size 2, length 1, cards 9C 9C); ...]``, never a Python repr)."""
    def show(v):
        if v is None:
            return "null"
        if isinstance(v, bool):
            return str(v).lower()
        if isinstance(v, dict):
            return "(" + ", ".join(f"{k} {show(x)}" for k, x in v.items()) + ")"
        if isinstance(v, list):
            return " ".join(v) if all(isinstance(x, str) for x in v) else "[" + "; ".join(map(show, v)) + "]"
        return str(v)
    return ", ".join(f"{k} {show(values.get(k))}" for k in fields) or "the same"


def _pair(c: "Cluster", cid: str, case_of: dict, engine_of: dict, fields: dict) -> tuple[str, str]:
    return (answer_text(protocol.normalize(c.op, case_of[cid]["expected"], fields.get(c.op)), c.fields),
            answer_text(engine_of[cid], c.fields))


def _most_common_first(c: "Cluster", case_of: dict, engine_of: dict, fields: dict) -> str:
    """The first case of a cluster whose answers (the spec's against the engine's) are its most common."""
    pairs = [_pair(c, cid, case_of, engine_of, fields) for cid in c.cases]
    top = Counter(pairs).most_common(1)[0][0]
    return c.cases[pairs.index(top)]


def answers_held(c: "Cluster", case_of: dict, engine_of: dict, fields: dict) -> dict:
    """How many of a cluster's cases its shown answers (``spec`` against ``engine``, on its fields) hold for,
    and the most common pair of answers with its count (issue 31, item 4: a headline true for 32 of 660
    cases says so)."""
    pairs = Counter(_pair(c, cid, case_of, engine_of, fields) for cid in c.cases)
    (spec, engine), n = pairs.most_common(1)[0]
    values = {k: Counter() for k in c.fields}   # each field's values, the spec's and the engine's
    for cid in c.cases:
        e = protocol.normalize(c.op, case_of[cid]["expected"], fields.get(c.op))
        for k in c.fields:
            values[k][(answer_text(e, (k,)), answer_text(engine_of[cid], (k,)))] += 1
    varying = {k: [[s, g, m] for (s, g), m in v.most_common(4)] for k, v in values.items()
               if v.most_common(1)[0][1] < HEADLINE * len(c.cases)}
    return {"shown": pairs.get((c.spec, c.engine), 0), "spec": spec, "engine": engine, "cases": n,
            "varying": varying}


# --------------------------------------------------------------------------- clustering

def cluster(rules, ruleset: str, unexplained: list[tuple[dict, dict]], alts, fields=None,
            executor=None, known: dict | None = None, constant=(), passes=()) -> list[Cluster]:
    """The unexplained failures (case, the engine's normalised answer) of one ruleset, in clusters (largest
    first; at most :data:`MAX_CLUSTERS`): alike in operation, the fields answered otherwise and the deciding
    clause (computed for a few cases of each shape, the others of that shape taking the same, on
    ``executor`` when one is given; ``known``: case id -> the charge :func:`~conformance.analysis.charges.deciding`
    gives it with these ``alts``, read and filled in), each described by the shape its positions share. The
    failures of an operation in ``constant`` (the engine answers all its cases alike,
    :func:`~conformance.analysis.attribution.constant_ops`) are one cluster. Each is named by the rule whose
    change makes the engine agree (:func:`~conformance.analysis.naming.search`; ``passes``, the passing cases,
    say which alternatives reach beyond the cluster)."""
    from conformance.analysis.charges import deciding_all
    fields = fields or {}
    shaped: dict[tuple, list[tuple[dict, list[str]]]] = {}
    for case, engine in unexplained:
        op = case["op"]
        expected = protocol.normalize(op, case["expected"], fields.get(op))
        skip = protocol.unanswered(op, engine, fields.get(op))
        wrong = tuple(k for k in (fields.get(op) or protocol.COMPARED[op])
                      if expected.get(k) != engine.get(k) and k not in skip)
        sh = shape(rules, op, case["input"])
        diff = "" if op in constant else difference(op, case["input"], expected, engine)
        shaped.setdefault((op, wrong, tuple(sh), diff), []).append((case, engine, sh))
    deciding: dict[tuple, tuple[str, ...]] = {}    # (op, wrong, shape) -> the clauses deciding its sampled cases
    weight: dict[tuple, Counter] = {}               # (op, wrong) -> clause -> cases it may have decided
    known = {} if known is None else known
    sampled = [(key, case, engine) for key, members in shaped.items() for case, engine, _ in members[:CLAUSE_SAMPLE]]
    ask = [(key, case, engine) for key, case, engine in sampled if case["id"] not in known]
    got = dict(zip((case["id"] for _, case, _ in ask),
                   deciding_all([(case, engine, fields.get(key[0])) for key, case, engine in ask], alts, executor)))
    known.update(got)   # every sampled case's charge is known from here
    charged: dict[tuple, list] = {}
    for key, case, _ in sampled:
        charged.setdefault(key, []).append(known[case["id"]])
    for key, members in shaped.items():
        op = key[0]
        found: list[str] = []
        for charge in charged[key]:
            for cl in charge.clauses or (op,):
                if cl not in found:
                    found.append(cl)
        deciding[key] = tuple(found)
        counter = weight.setdefault(key[:2], Counter())
        for cl in found:
            counter[cl] += len(members)
    groups: dict[tuple, list[tuple[str, list[str]]]] = {}
    decided_by: dict[str, str] = {}        # case id -> the clause deciding it
    rewrites: dict[tuple, set[str]] = {}   # (op, wrong, clause) -> the answers rewritten (spec's -> engine's)
    from conformance.analysis.naming import alike, characteristic, sample, search, veto
    from conformance.analysis.ranking import secondary_only
    passing: dict[str, list] = {}
    for p in passes:
        passing.setdefault(p["op"], []).append(tuple(p.get("clauses", ())))
    for key, members in shaped.items():   # each shape to the clause deciding most failures of its kind, or the
        op, wrong = key[:2]               # clause characterising its cases when that one tells nothing of them
        clause = max(deciding[key], key=lambda cl: (weight[key[:2]][cl], -deciding[key].index(cl)))
        decides = clause
        if op not in constant and len(members) >= CHARACTERISED:   # a case or two characterise nothing
            clause = characteristic(clause, [tuple(case.get("clauses", ())) for case, _, _ in members],
                                    passing.get(op, []))
        for case, engine, sh in members:
            decided_by[case["id"]] = decides
            groups.setdefault((op, wrong, clause, key[3]), []).append((case["id"], sh))
            rewrites.setdefault((op, wrong, clause, key[3]), set()).add(
                "constant" if op in constant else _rewrite(op, wrong, case, engine, fields.get(op)))
    groups = _named_by_shared_rule(_one_rewrite_each(groups, rewrites), groups,
                                   {case["id"]: tuple(case.get("clauses", ())) for case, _ in unexplained})
    out: list[Cluster] = []
    for (op, wrong, clause, diff), members in groups.items():
        kind = "reason_only" if wrong == ("reason",) else "cluster"
        deciding_clause = Counter(decided_by[cid] for cid, _ in members).most_common(1)[0][0]
        out.append(Cluster(kind, ruleset, op, wrong, clause,
                           with_difference(common_shape([sh for _, sh in members]), diff),
                           [cid for cid, _ in members], keeps=every_part([sh for _, sh in members]),
                           decided_by="" if deciding_clause == clause else deciding_clause, differs_as=diff))
    out.sort(key=lambda c: (-len(c.cases), c.op, c.clause))
    out = out[:MAX_CLUSTERS]
    alt_of = {a.id: a for a in alts}
    engine_of = {case["id"]: (case, engine) for case, engine in unexplained}
    shapes = {case["id"]: sh for members in shaped.values() for case, _, sh in members}

    def name(c: Cluster, only=None) -> None:
        near = alike(rules, c.op, [shapes[cid] for cid in c.cases], passes)
        rule = search(c.op, [engine_of[cid] for cid in sample(c.cases)], alts if only is None else only,
                      fields.get(c.op), near)
        if rule is not None and c.op not in constant:   # a rule breaking passes the engine keeps fixes nothing
            rule = veto(rule, alt_of.get(rule.alt), c.op, passes, len(c.cases), fields.get(c.op),
                        secondary_only(c.op, c.fields, fields.get(c.op)))
        c.name_by_search(rule)
        if (c.rule is None or not c.rule.names) and len(c.cases) >= CHARACTERISED:   # beyond the language: the
            # clause that characterises its cases
            named = characteristic(c.clause, [tuple(engine_of[cid][0].get("clauses", ())) for cid in c.cases],
                                   passing.get(c.op, []))
            if named != c.clause:
                c.decided_by, c.clause = c.decided_by or c.clause, named
    for c in out:
        name(c)
    out = _one_change_each(out, alt_of, engine_of, shapes, fields, name)
    out = _split_by_change(out, alt_of, engine_of, shapes, fields, name, passes, decided_by, constant)
    return _exact(out, alt_of, engine_of, shapes, fields, name, passes, decided_by, constant)


def _part(c: Cluster, cases: list[str], shapes: dict, decided_by: dict) -> Cluster:
    """The cluster of ``cases`` (some of ``c``'s), charged to the clause deciding most of them and described by
    the shape they share; named afresh by the caller."""
    deciding = Counter(decided_by.get(cid, c.clause) for cid in cases).most_common(1)[0][0]
    return Cluster(c.kind, c.ruleset, c.op, c.fields, deciding,
                   with_difference(common_shape([shapes[cid] for cid in cases]), c.differs_as),
                   cases, keeps=every_part([shapes[cid] for cid in cases]), differs_as=c.differs_as)


def _engine_agrees(alt, op: str, case: dict, engine: dict, fields: dict) -> bool:
    """Whether ``alt`` answers ``case`` as the engine did (``engine``, its normalised answer), on the fields
    compared (``fields``: those an engine declared, op -> fields)."""
    from conformance.analysis.naming import distance
    from conformance.generation.decisions import answer
    got = answer(alt.rules, op, case["input"])
    return "error" not in got and not distance(op, got, engine, fields.get(op) or protocol.COMPARED[op])


SPLIT_TRIED = 3     # alternatives agreeing with some sampled case of a cluster tried as the rule of a part of it


def _split_by_change(out: list[Cluster], alt_of: dict, engine_of: dict, shapes: dict, fields: dict, name,
                     passes, decided_by: dict, constant=()) -> list[Cluster]:
    """Clusters whose cases need different changes, split (issue 31, item 2): a cluster no rule fixes is cut
    in two when a change of one rule makes the engine agree on a part of it (:data:`CHARACTERISED` cases at
    least), on under :data:`HEADLINE` of its cases (no single change explains the whole cluster well, judged
    field by field), and is the engine's rule there: ranked as the findings are, the failures it explains
    outweigh the passing cases of the operation it breaks
    (:func:`~conformance.analysis.ranking.outweighs`). The part it explains is named by it; the rest is
    named again, by the rule that fixes it or by none (the clause characterising its cases), unless its
    nearest rule is another value of the same feature (one feature read otherwise is one finding). A deviation
    beyond the language that a rule happens to answer on some of its cases is not split: that rule answers
    otherwise on passing cases the engine gets right (a joker follow bug agrees with "no need to follow
    suit" on some cases, and that rule breaks hundreds of passes). Nor is an operation the engine answers
    alike whatever the spec says (``constant``: it consults no rule, though each loosening of one explains a
    slice of it, and breaks no pass, all of which are answered alike), and a cluster is split once: the rest
    is not cut again (each cut asks for one more change the engine would have had to make). No more than
    :data:`MAX_CLUSTERS` clusters result: a split made with every place taken gives up the smallest cluster's
    place (its cases are left in no cluster), unless the rest it leaves would be that smallest one."""
    from conformance.analysis.ranking import outweighs, secondary_only
    from conformance.analysis.naming import breaking

    def agrees(alt, op: str, cid: str) -> bool:
        return _engine_agrees(alt, op, *engine_of[cid], fields)

    def breaks(alt, op: str, explained: int, wrong=()) -> bool:
        """Whether ``alt`` changes more passing cases of ``op`` than ``explained`` failures (differing in the
        fields ``wrong``) outweigh."""
        return not outweighs(explained, breaking(alt, op, passes, explained, fields.get(op),
                                                 secondary_only(op, wrong, fields.get(op))))

    def part(c: Cluster, cases: list[str]) -> Cluster:
        return _part(c, cases, shapes, decided_by)

    for c in list(out):
        if c.kind != "cluster" or c.op in constant or c.rule is None or c.rule.fixes or \
                len(c.cases) < 2 * CHARACTERISED:
            continue
        for alt_id in c.rule.agreeing[:SPLIT_TRIED]:
            alt = alt_of.get(alt_id)
            if alt is None:
                continue
            mine = [cid for cid in c.cases if agrees(alt, c.op, cid)]
            if not CHARACTERISED <= len(mine) < HEADLINE * len(c.cases) or breaks(alt, c.op, len(mine), c.fields):
                continue
            taken = set(mine)
            rest = [cid for cid in c.cases if cid not in taken]
            if len(out) >= MAX_CLUSTERS and len(rest) <= min(len(o.cases) for o in out):
                continue   # the rest would be the smallest cluster, beyond the cap: no split
            a, b = part(c, mine), part(c, rest)
            for new in (a, b):
                name(new)
                if new.clause == new.decided_by:
                    new.decided_by = ""
            if a.rule is None or not a.rule.fixes:
                continue   # the part it explains is not named by a rule that fixes it: no split
            if b.rule is not None and b.rule.feature == a.rule.feature and b.rule.agrees:
                continue   # the rest nears another value of the same feature: one feature read otherwise
                #            (a trump triple's follow, two rungs of its ladder), one finding
            out[out.index(c)] = a
            out.append(b)
            break
    out.sort(key=lambda c: (-len(c.cases), c.op, c.clause))
    return out[:MAX_CLUSTERS]


def _exact(out: list[Cluster], alt_of: dict, engine_of: dict, shapes: dict, fields: dict, name, passes,
           decided_by: dict, constant=()) -> list[Cluster]:
    """Rules that hold for every case they claim (issue 31, item 4). A cluster's rule is searched on a sample of
    its cases (:data:`~conformance.analysis.naming.SAMPLE`); here it is asked of all of them. One the engine
    agrees with on every case fixes the cluster, and says so of all of them. One it agrees with on most
    (:data:`HEADLINE`) but not all, while it leaves most of the others (half or more) as the spec has them and the
    engine changes their primary field otherwise than on any case it answers (they are another deviation's: two
    off-suit level cards read as a pair, beside tractors read as throws where the bridge is not taken; level
    cards of two suits taken as equal in choosing the lowest forced card, beside the blocked component with the
    fewest cards forced), or a fix of
    the sample that some other case refutes on more than a fifth of them, cuts the cluster: the part it answers
    is named by it, a fix when the passing cases it changes are outweighed
    (:func:`~conformance.analysis.naming.veto`), and the rest is named again. A rest mostly within its reach (the
    engine reads that rule otherwise there too), or changed as on a case it answers (a trump triple's follow bug, one
    rung moved on most cases, allows cards not held on the others: legal false to true on all of them), or
    nearing another value of the same feature is not cut off (one deviation, one finding), nor a part the rule
    may not fix: the rule then says on how many of all the cases the engine agrees with it, and fixes none. With
    every place taken (:data:`MAX_CLUSTERS`), the smallest cluster gives up its place, or the rest is left in no
    cluster when it would be that smallest one: a case the rule does not answer is never counted as fixed by it."""
    from dataclasses import replace
    from conformance.analysis.naming import veto
    from conformance.analysis.ranking import secondary_only
    from conformance.generation.decisions import PRIMARY, answer
    # the rule asked of all the cases is the one of those the sample agreed with that answers most of them
    # (:func:`_most_answered`)

    def agrees(alt, op: str, cid: str) -> bool:
        return _engine_agrees(alt, op, *engine_of[cid], fields)

    def reaches(alt, op: str, cid: str) -> bool:
        """Whether ``alt`` answers the case otherwise than the spec: a case it leaves as the spec has it is beyond
        its reach, another deviation's."""
        case, _ = engine_of[cid]
        got = answer(alt.rules, op, case["input"])
        return "error" not in got and not protocol.agrees(op, got, case["expected"], fields.get(op))

    def change(c: Cluster, cid: str) -> tuple:
        """The primary field's change, the spec's value to the engine's (a tractor read as a throw); in a cluster
        whose cases differ in other fields only (a forced play), the change of those fields."""
        case, engine = engine_of[cid]
        expected = protocol.normalize(c.op, case["expected"], fields.get(c.op))
        keys = (PRIMARY[c.op],) if PRIMARY[c.op] in c.fields else c.fields
        return tuple(json.dumps([a.get(k) for k in keys], sort_keys=True) for a in (expected, engine))

    for c in list(out):
        rule = c.rule
        alt = alt_of.get(getattr(rule, "alt", ""))
        if alt is None or c.op in constant or rule.vetoed:
            continue
        n = len(c.cases)
        mine = [cid for cid in c.cases if agrees(alt, c.op, cid)]
        if len(mine) < n:   # another rule the sample agreed with may answer more of all the cases
            c, rule, alt, mine = _most_answered(c, rule, alt, mine, alt_of, agrees, name, out)
        if not (rule.fixes or rule.agrees >= HEADLINE * rule.asked or len(mine) >= HEADLINE * n):
            continue
        if len(mine) == n:
            c.rule = replace(rule, agrees=n, asked=n) if rule.fixes else rule
            continue
        exact = replace(rule, agrees=len(mine), asked=n)   # no fix: the engine disagrees with it somewhere
        taken = set(mine)
        rest = [cid for cid in c.cases if cid not in taken]
        if len(mine) < 2 or not (rule.fixes or len(mine) >= HEADLINE * n) or \
                (len(mine) >= HEADLINE * n and (2 * sum(reaches(alt, c.op, cid) for cid in rest) >= len(rest) or
                                                {change(c, cid) for cid in rest} &
                                                {change(c, cid) for cid in mine})):
            c.rule = exact   # too few it answers, or most with the rest in its reach: one deviation, said as it is
            continue
        secondary = secondary_only(c.op, c.fields, fields.get(c.op))
        fix = veto(replace(rule, agrees=len(mine), asked=len(mine), left=(), total=0), alt, c.op, passes,
                   len(mine), fields.get(c.op), secondary)
        a, b = _part(c, mine, shapes, decided_by), _part(c, rest, shapes, decided_by)
        name(b)
        if b.clause == b.decided_by:
            b.decided_by = ""
        if not fix.fixes or (b.rule is not None and b.rule.feature == rule.feature and b.rule.agrees):
            c.rule = exact
            continue
        a.name_by_search(fix)
        if a.clause == a.decided_by:
            a.decided_by = ""
        out[out.index(c)] = a
        if len(out) < MAX_CLUSTERS or len(rest) > min(len(o.cases) for o in out):
            out.append(b)
    out.sort(key=lambda c: (-len(c.cases), c.op, c.clause))
    return out[:MAX_CLUSTERS]


def _most_answered(c: Cluster, rule, alt, mine: list, alt_of: dict, agrees, name, out: list):
    """Of the sampled rule of ``c`` and the other alternatives the engine agreed with on a sampled case
    (:data:`SPLIT_TRIED` of them), the one it agrees with on most of all of ``c``'s cases: on a sample of 8,
    "the throw's singles first" agreed as often as "the blocked component with the fewest cards", which answers
    22 of 25 forced plays to its 21. That one is then the cluster's rule, searched again on the sample alone
    (its share of passing cases changed, its veto); the cluster renamed by it replaces ``c`` in ``out``."""
    from dataclasses import replace
    best = (len(mine), alt, mine)
    for alt_id in rule.agreeing[:SPLIT_TRIED]:
        other = alt_of.get(alt_id)
        if other is None or other.id == alt.id:
            continue
        answered = [cid for cid in c.cases if agrees(other, c.op, cid)]
        if len(answered) > best[0]:
            best = (len(answered), other, answered)
    if best[1] is alt:
        return c, rule, alt, mine
    probe = replace(c, rule=None)
    name(probe, [best[1]])
    if probe.rule is None or probe.rule.alt != best[1].id or probe.rule.vetoed:
        return c, rule, alt, mine
    out[out.index(c)] = probe
    return probe, probe.rule, best[1], best[2]


def _one_change_each(out: list[Cluster], alt_of: dict, engine_of: dict, shapes: dict, fields: dict,
                     name) -> list[Cluster]:
    """One deviation, one finding (issue 31, item 2): clusters of one operation and fields merged when one rule
    change explains them: the same alternative makes the engine agree on each, or the rule that makes it agree
    on a smaller one's cases agrees on a larger one's as often as that one's own nearest rule does (the
    larger one is then the same deviation, reached through other clauses). Renamed by a search over the
    merged cases."""
    from conformance.analysis.naming import sample

    def agreeing(alt, c: Cluster) -> int:
        return sum(_engine_agrees(alt, c.op, *engine_of[cid], fields) for cid in sample(c.cases))
    def fixed(c: Cluster) -> bool:
        return c.rule is not None and c.rule.fixes

    def merge(keep: Cluster, gone: Cluster) -> None:
        keep.cases = keep.cases + gone.cases
        keep.signature = with_difference(common_shape([shapes[cid] for cid in keep.cases]), keep.differs_as)
        keep.keeps = every_part([shapes[cid] for cid in keep.cases])
        out.remove(gone)

    def holds(big: Cluster, small: Cluster) -> bool:   # a few cases with the shape every case of big has
        few = len(small.cases) < CHARACTERISED <= len(big.cases) or (   # three, no rule naming them (a rule
            len(small.cases) == CHARACTERISED and 2 * CHARACTERISED <= len(big.cases) and   # that answers them
            (small.rule is None or not small.rule.names))                # breaks passes names nothing)
        return few and bool(big.keeps) and all(set(big.keeps) <= set(shapes[cid]) for cid in small.cases)

    for c in sorted(out, key=lambda c: len(c.cases)):   # renamed into another's name, no rule fixing either
        twin = next((o for o in out if o is not c and len(o.cases) >= len(c.cases) and not fixed(o) and
                     (o.op, o.fields, o.kind, o.differs_as) == (c.op, c.fields, c.kind, c.differs_as) and
                     (o.clause == c.clause or holds(o, c))),
                    None)
        if twin is not None and not fixed(c):
            merge(twin, c)
    merged = True
    while merged:
        merged = False
        for small in sorted(out, key=lambda c: len(c.cases)):
            if small.rule is None or not small.rule.fixes or small.kind != "cluster":
                continue
            alt = alt_of.get(small.rule.alt)
            for big in out:
                if big is small or (big.op, big.fields, big.kind, big.differs_as) != \
                        (small.op, small.fields, small.kind, small.differs_as):
                    continue
                same = big.rule is not None and big.rule.alt == small.rule.alt
                if not same and not (big.rule is None or not big.rule.fixes):
                    continue
                if same or (alt is not None and agreeing(alt, big) >= max(1, big.rule.agrees if big.rule else 1)):
                    keep, gone = (big, small) if len(big.cases) >= len(small.cases) else (small, big)
                    merge(keep, gone)
                    keep.clause = keep.decided_by or keep.clause
                    keep.decided_by = ""
                    name(keep)
                    merged = True
                    break
            if merged:
                break
    out.sort(key=lambda c: (-len(c.cases), c.op, c.clause))
    return out


def shrunk(rules, session, ruleset: str, op: str, inp: dict, wanted: tuple[str, ...], op_fields=None,
           keeps: tuple[str, ...] = (), differs_as: str = "") -> dict:
    """One cluster's first position shrunk through ``session`` and its neighbours asked: what :func:`describe`
    writes into the cluster (``position``, ``spec``, ``engine``: answers there, ``steps``, ``neighbours``).
    The same wherever it is computed: in this process or on a worker, with an engine of its own."""
    from conformance.analysis.shrinking import differing, needs, neighbours, shrink
    from conformance.generation.decisions import answer
    from conformance.analysis.shrinking import MAX_ROUNDS
    position, spec, engine, steps = shrink(rules, session, ruleset, op, inp, wanted, op_fields, keeps, differs_as)
    near = neighbours(position)
    judged = [(what, p, answer(rules, op, p)) for what, p in near]
    judged = [(w, p, s) for w, p, s in judged if "error" not in s]
    got = session.ask(ruleset, op, [p for _, p, _ in judged])
    found = []
    for (what, p, s), g in zip(judged, got):
        d = differing(op, s, g, op_fields)
        found.append({"change": what, "input": p, "spec": answer_text(s, wanted),
                      "engine": None if g is None else answer_text(g, wanted), "differs": bool(d)})
    return {"position": position, "spec": spec, "engine": engine, "steps": steps, "neighbours": found,
            "limited": steps >= MAX_ROUNDS,
            "needs": needs(rules, session, ruleset, op, position, op_fields) if engine else []}


def shrink_chunk(items: list[tuple], rules, engine: dict, fields: dict) -> list[dict | None]:
    """On a worker: :func:`shrunk` for each ``(ruleset, op, input, wanted, keeps, differs_as)`` of ``items`` through an engine
    of the worker's own (``engine``: :func:`~conformance.analysis.shrinking.engine_spec`), stopped at the
    end, whatever happens; None for each item when it cannot be started (the caller shrinks those itself)."""
    from conformance.analysis.shrinking import EngineSession, runner_of
    with EngineSession(runner_of(engine)) as session:
        if not session.alive:
            return [None] * len(items)
        return [shrunk(rules, session, ruleset, op, inp, tuple(wanted), fields.get(op), tuple(keeps), differs_as)
                if session.alive else None for ruleset, op, inp, wanted, keeps, differs_as in items]


# Why a cluster's position is its first failing case's (Cluster.not_shrunk), in the words of the reports.
NOT_SHRUNK = {"interrupted": "interrupted", "beyond": f"only the {SHRUNK} largest clusters are shrunk",
              "no_engine": "no engine to ask", "engine_lost": "the engine stopped answering"}
SHRINK_CHUNK = 2      # clusters per chunk shrunk on a worker, each chunk with an engine of its own
CHUNK_COST = 0.35     # seconds a chunk costs on a worker beyond starting its engine (sending the rules, the
                      # worker's first answers): benchmarks/bench_shrinking.py, spin 0, 2 cores


def free_cores() -> float:
    """Cores the workers could have: those of this process less the load average, the shrinking here (this
    process and its engine, taking turns: about one) aside. On a machine others keep busy, spreading does
    not pay (benchmarks/bench_shrinking.py: 5 to 12 % slower at a load of 2.4 on 2 cores, 1.6 times faster
    at 1.2)."""
    import os
    from conformance.running.parallel import default_jobs
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):   # pragma: no cover - no load average
        return float(default_jobs())
    return max(0.0, default_jobs() + 1 - load)


def farm_out(first: float, rest: int, start: float, workers: int, free: float | None = None) -> bool:
    """Whether shrinking ``rest`` more clusters pays on ``workers`` workers (each chunk of
    :data:`SHRINK_CHUNK` starting its own engine, ``start`` seconds, and costing :data:`CHUNK_COST` more)
    rather than here, when the first took ``first`` seconds: the estimated time in parallel, on at most
    ``free`` cores (default :func:`free_cores`), against the time here. An engine as fast as the reference
    shrinks a cluster in hundredths of a second: here."""
    if rest < 2 or workers < 2:
        return False
    chunks = -(-rest // SHRINK_CHUNK)
    lanes = max(1, min(workers, chunks, int(round(free_cores() if free is None else free))))
    here = first * rest
    spread = -(-chunks // lanes) * (start + CHUNK_COST) + here / lanes
    return spread < here


def _rewrite(op: str, wrong: tuple[str, ...], case: dict, engine: dict, op_fields) -> str:
    """What the engine answers instead of the spec on the fields it gets wrong, as text (a key)."""
    expected = protocol.normalize(op, case["expected"], op_fields)
    return json.dumps([[expected.get(k), engine.get(k)] for k in wrong], sort_keys=True, default=str)


def _one_rewrite_each(groups: dict, rewrites: dict) -> dict:
    """Groups of one operation and fields whose failures are all one and the same rewrite of the spec's answer
    (``reason must_play_pair`` always answered ``must_follow_suit``, whichever clause decides the pair) as one
    group, under the clause deciding the most of them: one narrow bug, one finding."""
    def one(key):   # the group's one rewrite (with its operation and fields), or None; "constant": any fields
        if len(rewrites[key]) != 1:
            return None
        rewrite = next(iter(rewrites[key]))
        return (key[0], rewrite) if rewrite == "constant" else (*key[:2], *key[3:], rewrite)
    merged: dict[tuple, tuple] = {}   # (op, wrong, the one rewrite) -> the largest group's key
    for key in sorted(groups, key=lambda k: (-len(groups[k]), k)):
        if one(key) is not None:
            merged.setdefault(one(key), key)
    into = {key: merged[one(key)] if one(key) is not None else key for key in groups}
    out = {key: list(members) for key, members in groups.items() if into[key] == key}
    for key in sorted(groups, key=lambda k: (-len(groups[k]), k)):   # the largest group's cases first
        if into[key] != key:
            out[into[key]].extend(groups[key])
    return out


ANSWERS_PER_CLUSTER = 100   # answers a cluster's shrinking asks about (a few rounds of BATCH): an estimate


def _named_by_shared_rule(merged: dict, before: dict, cited: dict) -> dict:
    """Each group that :func:`_one_rewrite_each` merged from groups under different clauses, named by the rule
    the reference cites for every one of its cases (the last such in its citing order, the most specific:
    ``follow.suit`` for must_play_pair answered must_follow_suit on r001, whose pairs several ladder steps ask
    for; the cases of a wrong card count cite none and are left out), where there is one; else it keeps the
    clause deciding most of its cases. One rewrite across several
    deciding clauses is a bug of the rule they share, not of the one that happens to decide most cases."""
    out: dict = {}
    for key, members in merged.items():
        if len(members) != len(before.get(key, ())):   # merged from groups of other clauses
            citing = [cited[cid] for cid, _ in members if cited.get(cid)]   # a card count is no rule's
            shared = set(citing[0]).intersection(*citing[1:]) if citing else set()
            rule = [cl for cl in citing[0] if cl in shared] if citing else []
            if rule:
                key = (*key[:2], rule[-1], *key[3:])
        out.setdefault(key, []).extend(members)
    return out


def describe(rules, clusters: list[Cluster], case_of: dict, engine_of: dict, session=None, fields=None,
             progress=None, *, executor=None, workers: int = 1, parallel: bool | None = None,
             stop=None, per_answer: float | None = None) -> bool:
    """Give each cluster its minimal position (shrunk through ``session``, an
    :class:`~conformance.analysis.shrinking.EngineSession`, for the first :data:`SHRUNK`), the answers there and
    its neighbours; whether every cluster that was to be shrunk was (False: ``stop()`` said to stop first).

    The first is shrunk here. With an ``executor`` of ``workers`` workers, the others are shrunk there, each
    chunk of :data:`SHRINK_CHUNK` clusters through an engine of its own, when that pays by :func:`farm_out` (the
    time of a cluster against the engine's start; ``parallel`` True or False decides instead). The time of a
    cluster is estimated from ``per_answer`` (the seconds the run took per case: the first is then shrunk here
    while the workers shrink the others), or else it is the first one's, shrunk before deciding. Each
    cluster's position is the same either way: shrinking asks the engine the same positions in the same
    order."""
    import time
    fields = fields or {}
    for c in clusters:   # shrunk from the first case giving its most common answers: the headline's
        first = case_of[_most_common_first(c, case_of, engine_of, fields)]
        c.shrunk_from = first["id"]
        c.position = first["input"]
        c.spec = answer_text(protocol.normalize(c.op, first["expected"], fields.get(c.op)), c.fields)
        c.engine = answer_text(engine_of[first["id"]], c.fields)
        c.not_shrunk = NOT_SHRUNK["no_engine"]
        c.common = answers_held(c, case_of, engine_of, fields)
    todo = clusters[:SHRUNK] if session is not None and session.alive else []
    for c in clusters[SHRUNK:] if todo else ():
        c.not_shrunk = NOT_SHRUNK["beyond"]
    for c in todo:   # until shrunk: a signal that stops the shrinking leaves them so
        c.not_shrunk = NOT_SHRUNK["interrupted"]
    n = len(todo)
    stopped = lambda: stop is not None and stop()   # noqa: E731

    def fill(c: Cluster, got: dict) -> None:
        c.not_shrunk = ""
        c.position, c.steps, c.neighbours, c.needs = got["position"], got["steps"], got["neighbours"], got["needs"]
        c.limited = got.get("limited", False)
        c.name_by_parts()
        engine = got["engine"] or engine_of[c.shrunk_from]
        c.spec, c.engine = answer_text(got["spec"], c.fields), answer_text(engine, c.fields)
        c.common = answers_held(c, case_of, engine_of, fields)

    def here(i: int) -> None:
        c = todo[i]
        if progress is not None:
            progress(f"shrinking cluster {i + 1} of {n} through the engine")
        fill(c, shrunk(rules, session, c.ruleset, c.op, case_of[c.shrunk_from]["input"], c.fields,
                       fields.get(c.op), c.keeps, c.differs_as))

    can = executor is not None and getattr(session, "spec", None) is not None
    i = 0
    if can and per_answer is not None and n > 2 and not stopped() and (parallel if parallel is not None else farm_out(
            per_answer * ANSWERS_PER_CLUSTER, n - 1, session.start_seconds, workers)):
        rest = _spread(rules, todo, list(range(1, n)), case_of, session, fields, executor, workers, fill,
                       progress, stopped, first=lambda: here(0))
    else:
        t0 = time.monotonic()
        if todo and not stopped():
            here(0)
            i = 1
        first_seconds = time.monotonic() - t0
        rest = list(range(i, n))
        if rest and can and per_answer is None and not stopped() and (
                parallel if parallel is not None else farm_out(first_seconds, len(rest), session.start_seconds,
                                                              workers)):
            rest = _spread(rules, todo, rest, case_of, session, fields, executor, workers, fill, progress, stopped)
    for j in rest:
        if stopped():
            return False
        if not session.alive:   # the engine died or hung: the rest keep their first position
            for c in todo:
                if c.not_shrunk:
                    c.not_shrunk = NOT_SHRUNK["engine_lost"]
            break
        here(j)
    merge_named(rules, clusters, case_of, engine_of, fields)
    return True


def merge_named(rules, clusters: list[Cluster], case_of: dict, engine_of: dict, fields: dict) -> None:
    """Clusters named alike once shrunk, merged (one deviation, one finding): two shrunk clusters of one
    operation named by the same clause (a rule the part they need brings in:
    :meth:`Cluster.name_by_parts`), no rule fixing either, answering otherwise alike, whose differing fields
    are one the other's less some: an offender barred from his own suit is refused a declaration, and the
    banker differs with it only where the hand has none yet. Before shrinking they were named by the clauses
    deciding them (``declare.first_hand``, ``declare.overcall``), which several deviations share, so they are
    merged only now. The one differing in more fields keeps its minimal position (it holds the shape parts
    every case of both has) and shows its answers; ``clusters`` is changed in place."""
    def fixed(c: Cluster) -> bool:
        return c.rule is not None and c.rule.fixes
    merged = True
    while merged:
        merged = False
        for a in clusters:
            for b in clusters:
                if a is b or a.not_shrunk or b.not_shrunk or a.kind != "cluster" or b.kind != "cluster" or \
                        fixed(a) or fixed(b) or (a.op, a.clause, a.differs_as) != (b.op, b.clause, b.differs_as) \
                        or a.fields == b.fields or not set(b.fields) < set(a.fields):
                    continue
                a.cases = a.cases + b.cases   # a differs in more fields: it keeps its position and answers
                shapes = [shape(rules, a.op, case_of[cid]["input"]) for cid in a.cases]
                a.signature = with_difference(common_shape(shapes), a.differs_as)
                a.keeps = every_part(shapes)
                a.common = answers_held(a, case_of, engine_of, fields)
                clusters.remove(b)
                merged = True
                break
            if merged:
                break
    clusters.sort(key=lambda c: (-len(c.cases), c.op, c.clause))


def _spread(rules, todo, rest, case_of, session, fields, executor, workers, fill, progress, stopped,
            first=None) -> list[int]:
    """Shrink the clusters ``rest`` (indices of ``todo``) on the executor (and ``first()`` here meanwhile);
    those left to shrink here (a worker could not start the engine, or ``stopped()``: none)."""
    from concurrent.futures import FIRST_COMPLETED, wait
    from conformance.running.parallel import cut
    chunks = cut(rest, SHRINK_CHUNK)
    items = [[(todo[j].ruleset, todo[j].op, case_of[todo[j].shrunk_from]["input"], todo[j].fields, todo[j].keeps,
               todo[j].differs_as) for j in chunk]
             for chunk in chunks]
    futures = {executor.submit(shrink_chunk, its, rules, session.spec, fields): k for k, its in enumerate(items)}
    if progress is not None:
        progress(f"shrinking clusters {rest[0] + 1} to {rest[-1] + 1} of {len(todo)} on {workers} workers, "
                 "each with an engine of its own")
    if first is not None and not stopped():
        first()
    results: dict[int, list] = {}
    pending = set(futures)
    while pending:
        done, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
        for f in done:
            try:
                results[futures[f]] = f.result()
            except Exception:   # noqa: BLE001 — a worker the signal ended too (sent to the whole group)
                if not stopped():
                    raise
                pending.add(f)
        if done and progress is not None:
            progress(f"shrinking clusters {rest[0] + 1} to {rest[-1] + 1} of {len(todo)} on {workers} workers: "
                     f"{sum(len(chunks[k]) for k in results)} of {len(rest)} done")
        if pending and stopped():
            break
    left = []
    for k, chunk in enumerate(chunks):
        for j, got in zip(chunk, results.get(k, [None] * len(chunk))):
            if got is None:
                left.append(j)
            else:
                fill(todo[j], got)
    if pending:   # the chunks still running are the executor's to end: raise out of it
        for f in pending:
            f.cancel()
        raise ShrinkingStopped
    return left


class ShrinkingStopped(Exception):
    """A signal came while clusters were shrunk on the executor: the executor is to be ended (its workers take
    their engines with them), the clusters not yet shrunk keep their first position."""
