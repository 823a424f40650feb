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

from conformance.protocol import messages as protocol

MAX_CLUSTERS = 12     # cluster findings per ruleset (the others stay unexplained)
SHRUNK = 8            # clusters whose position is shrunk through the protocol (the largest first)
CLAUSE_SAMPLE = 6     # cases per signature whose deciding clause is computed


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
                "reach": self.reach, "advice": self.advice}


def answer_text(values: dict, fields) -> str:
    """``legal false, reason must_follow_suit``: the differing fields of an answer."""
    def show(v):
        return "null" if v is None else str(v).lower() if isinstance(v, bool) else \
            " ".join(v) if isinstance(v, list) and all(isinstance(x, str) for x in v) else str(v)
    return ", ".join(f"{k} {show(values.get(k))}" for k in fields) or "the same"


# --------------------------------------------------------------------------- the shape of a position

def _cls(rules, inp: dict, cards) -> tuple[str, str]:
    from conformance.generation.decisions import answer
    got = answer(rules, "classify", {"level": inp.get("level"), "trump": inp.get("trump"), "cards": list(cards)})
    if "error" in got:
        return "?", "?"
    return got.get("kind", "?"), "trump" if got.get("suit") == "trump" else "side"


def _holding(rules, inp: dict, cards) -> str:
    level = inp.get("level")
    if cards and all(c in ("J+", "J-") for c in cards):
        return "jokers only"
    if cards and all(c[:-1] == level for c in cards if c not in ("J+", "J-")) and \
            any(c not in ("J+", "J-") for c in cards):
        return "level cards" + ("" if all(c not in ("J+", "J-") for c in cards) else " and jokers")
    return ""


def signature(rules, op: str, inp: dict) -> str:
    """The shape of a position, as clustering reads it."""
    return ", ".join(shape(rules, op, inp)) or op


def shape(rules, op: str, inp: dict) -> list[str]:
    """The parts of a position's shape: the lead's kind and suit, ties, ruffs, voids, holdings."""
    parts: list[str] = []
    try:
        if op in ("classify", "lead"):
            kind, suit = _cls(rules, inp, inp["cards"])
            parts.append(f"{kind} of {suit}")
            h = _holding(rules, inp, inp["cards"])
            if h:
                parts.append(h)
        elif op == "follow":
            kind, suit = _cls(rules, inp, inp["lead"])
            parts.append(f"{kind} of {suit} led")
            same = _same_suit(rules, inp, inp["hand"], inp["lead"])
            parts.append("void in the suit led" if same == 0 else
                         "short in the suit led" if same < len(inp["lead"]) else "holding the suit led")
            h = _holding(rules, inp, inp["lead"])
            if h:
                parts.append(f"lead of {h}")
        elif op in ("winner", "kitty"):
            trick = inp if op == "winner" else inp["last_trick"]
            plays = trick["plays"]
            lead = plays[trick["leader"]]
            kind, suit = _cls(rules, inp, lead)
            parts.append(f"{kind} of {suit} led")
            keys = [tuple(sorted(p)) for p in plays]
            parts.append("equal plays" if len(set(keys)) < len(keys) else "no equal plays")
            ruffs = sum(1 for i, p in enumerate(plays) if i != trick["leader"]
                        and suit == "side" and _cls(rules, inp, p)[1] == "trump")
            parts.append("ruffed" if ruffs else "not ruffed")
            h = _holding(rules, inp, lead)
            if h:
                parts.append(f"lead of {h}")
            if op == "kitty":
                parts.append("points in the kitty" if any(c[:-1] in ("5", "10", "K") for c in inp["kitty"])
                             else "no points in the kitty")
        elif op == "declare":
            decl = inp.get("declarations", [])
            parts.append(f"{len(decl)} declaration(s)")
            seats = [d.get("seat") for d in decl]
            parts.append("a seat declares twice" if len(seats) != len(set(seats)) else "each seat once")
        elif op == "result":
            parts.append("attackers below 0" if inp["attackers_points"] < 0 else "attackers at 0 or more")
        elif op == "penalty":
            parts.append(" + ".join(sorted({f.get("fault", "?") for f in inp.get("faults", [])})))
        elif op == "advance":
            parts.append("as banker" if inp.get("as_banker") else "as attackers")
    except (KeyError, TypeError, IndexError, AttributeError):
        parts.append("unusual position")
    return parts


def common_shape(shapes: list[list[str]]) -> str:
    """What every position of a cluster has in common (``in every case``), then what most have."""
    n = len(shapes)
    counts = Counter(p for sh in shapes for p in set(sh))
    every = [p for p, k in counts.most_common() if k == n]
    most = [f"{p} ({k} of {n})" for p, k in counts.most_common() if n > 1 and 0.6 * n <= k < n]
    return "; ".join(x for x in (", ".join(every) + (" in every case" if every and n > 1 else ""),
                                 ", ".join(most)) if x) or "no shape in common"


def _same_suit(rules, inp, hand, lead) -> int:
    _, suit = _cls(rules, inp, lead[:1])
    if suit == "trump":
        return sum(1 for c in hand if _cls(rules, inp, [c])[1] == "trump")
    led = lead[0][-1]
    return sum(1 for c in hand if c[-1] == led and _cls(rules, inp, [c])[1] == "side")


# --------------------------------------------------------------------------- clustering

def cluster(rules, ruleset: str, unexplained: list[tuple[dict, dict]], alts, fields=None,
            executor=None) -> list[Cluster]:
    """The unexplained failures (case, the engine's normalised answer) of one ruleset, in clusters (largest
    first; at most :data:`MAX_CLUSTERS`): alike in operation, the fields answered otherwise and the deciding
    clause (computed for a few cases of each shape, the others of that shape taking the same, on
    ``executor`` when one is given), each described by the shape its positions share."""
    from conformance.analysis.charges import deciding_all
    fields = fields or {}
    shaped: dict[tuple, list[tuple[dict, list[str]]]] = {}
    for case, engine in unexplained:
        op = case["op"]
        expected = protocol.normalize(op, case["expected"], fields.get(op))
        wrong = tuple(k for k in (fields.get(op) or protocol.COMPARED[op]) if expected.get(k) != engine.get(k))
        sh = shape(rules, op, case["input"])
        shaped.setdefault((op, wrong, tuple(sh)), []).append((case, engine, sh))
    deciding: dict[tuple, tuple[str, ...]] = {}    # (op, wrong, shape) -> the clauses deciding its sampled cases
    weight: dict[tuple, Counter] = {}               # (op, wrong) -> clause -> cases it may have decided
    sampled = [(key, case, engine) for key, members in shaped.items() for case, engine, _ in members[:CLAUSE_SAMPLE]]
    charged: dict[tuple, list] = {}
    for (key, _, _), charge in zip(sampled, deciding_all([(case, engine, fields.get(key[0]))
                                                          for key, case, engine in sampled], alts, executor)):
        charged.setdefault(key, []).append(charge)
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
    for key, members in shaped.items():   # each shape to the clause deciding most failures of its kind
        op, wrong = key[:2]
        clause = max(deciding[key], key=lambda cl: (weight[key[:2]][cl], -deciding[key].index(cl)))
        for case, _, sh in members:
            groups.setdefault((op, wrong, clause), []).append((case["id"], sh))
    out: list[Cluster] = []
    for (op, wrong, clause), members in groups.items():
        kind = "reason_only" if wrong == ("reason",) else "cluster"
        out.append(Cluster(kind, ruleset, op, wrong, clause, common_shape([sh for _, sh in members]),
                           [cid for cid, _ in members]))
    out.sort(key=lambda c: (-len(c.cases), c.op, c.clause))
    return out[:MAX_CLUSTERS]


def describe(rules, clusters: list[Cluster], case_of: dict, engine_of: dict, session=None, fields=None,
             progress=None) -> None:
    """Give each cluster its minimal position (shrunk through ``session``, an
    :class:`~conformance.analysis.shrinking.EngineSession`, for the first :data:`SHRUNK`), the answers there and
    its neighbours."""
    from conformance.analysis.shrinking import differing, neighbours, shrink
    from conformance.generation.decisions import answer
    fields = fields or {}
    for i, c in enumerate(clusters):
        first = case_of[c.cases[0]]
        op_fields = fields.get(c.op)
        c.shrunk_from = first["id"]
        c.position = first["input"]
        spec = protocol.normalize(c.op, first["expected"], op_fields)
        engine = engine_of[first["id"]]
        if session is not None and session.alive and i < SHRUNK:
            if progress is not None:
                progress(f"shrinking cluster {i + 1} of {min(len(clusters), SHRUNK)} through the engine")
            c.position, spec, engine, c.steps = shrink(rules, session, c.ruleset, c.op, first["input"], c.fields,
                                                       op_fields)
            engine = engine or engine_of[first["id"]]
            near = neighbours(c.position)
            judged = [(what, inp, answer(rules, c.op, inp)) for what, inp in near]
            judged = [(w, inp, s) for w, inp, s in judged if "error" not in s]
            got = session.ask(c.ruleset, c.op, [inp for _, inp, _ in judged])
            for (what, inp, s), g in zip(judged, got):
                d = differing(c.op, s, g, op_fields)
                c.neighbours.append({"change": what, "input": inp, "spec": answer_text(s, c.fields),
                                     "engine": None if g is None else answer_text(g, c.fields),
                                     "differs": bool(d)})
        c.spec, c.engine = answer_text(spec, c.fields), answer_text(engine, c.fields)
