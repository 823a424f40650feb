"""Naming a cluster by the rule whose change makes the engine agree (issue 31, item 1).

A cluster (:mod:`conformance.analysis.clusters`) holds failures no single alternative explained on the whole
run: each alternative there had to explain them while breaking fewer passing cases than it explained, on top
of the findings. Its *name* is another question: which rule would an engine author have to read to find the
bug? The clause the reference cites (or the one deciding the field, ``decided_by``) is where the spec's answer
comes from, not where the engine's differs: a ruff compared wrongly is decided by the card order, a kitty
multiplied wrongly by the points of the cards.

So the cluster's cases are searched through the spec's settings and the language's constructs (every
:class:`~conformance.generation.alternatives.Alternative` of its operation), and each alternative is judged
field by field on them: the fields it leaves differing from the engine's answers, summed over the cases. The
alternative leaving fewest is the cluster's rule: *fixes* when the engine agrees with it on every case asked,
else the *nearest* one, with the fields that still differ. No alternative that brings the answers nearer the
engine's: no rule is named, and the cluster keeps its deciding clause.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from conformance.protocol import messages as protocol

SAMPLE = 8     # cases of a cluster asked of every alternative (spread over it)
NEAR = 0.6     # the share of the spec's differing fields a nearest rule may leave, and still name a cluster
REACH = 0.25   # the share of passing cases of a cluster's shape a rule that fixes it may change


@dataclass(frozen=True)
class Rule:
    """The rule a cluster is named by: the alternative leaving fewest differing fields on its cases."""

    clause: str
    feature: str
    value: str                  # the alternative's description
    agrees: int                 # sampled cases on which the engine agrees with it
    asked: int                  # sampled cases
    left: tuple[str, ...]       # fields that still differ on some sampled case
    alt: str = ""               # the alternative's id (merging clusters one change explains)
    reach: float = 0.0          # the share of passing cases of the same shape whose answer it changes
    total: int = 0              # fields left differing, summed over the cases asked
    base: int = 0               # fields the spec's answers differ in, summed over the same cases
    agreeing: tuple[str, ...] = field(default=(), compare=False)   # ids of the alternatives the engine agrees
    #                             with on some case asked, most cases first (where a cluster may be split)
    breaks: int = 0             # passing cases of the operation it changes, of those asked (:func:`veto`)
    vetoed: bool = False        # it changes more of them than the cluster's failures outweigh: not the
    #                             engine's rule, though it answers the cases asked

    @property
    def fixes(self) -> bool:
        """The engine agrees with it on every case asked (two at least: one case agrees with many a change by
        chance), and it leaves most passing cases of their shape as they are (a change that answers everything
        otherwise agrees with a few failures by chance)."""
        return self.agrees == self.asked >= 2 and self.reach <= REACH and not self.vetoed

    def to_dict(self) -> dict:
        return {"clause": self.clause, "feature": self.feature, "value": self.value, "fixes": self.fixes,
                "agrees": self.agrees, "asked": self.asked, "fields_left": list(self.left),
                "breaks_alike": round(self.reach, 3), "names": self.names, "vetoed": self.vetoed}

    @property
    def names(self) -> bool:
        """Whether it names the cluster: it fixes it, or (on three cases asked or more, leaving most passing
        cases of their shape as they are) the engine agrees with it on half of them or more, or it leaves at most
        :data:`NEAR` of the fields differing that the spec leaves (the nearest of a deviation beyond the
        language); else the cluster is named by the clause characterising its cases (:func:`characteristic`),
        the nearest rule shown beside it."""
        return self.fixes or (not self.vetoed and self.reach <= REACH and self.asked >= 3 and
                              (2 * self.agrees >= self.asked or self.total <= NEAR * self.base))

    @property
    def text(self) -> str:
        """``trick.ruff (ruff.structure: any_trumps): the engine agrees on 6 of 8 cases; winner still differs``."""
        how = "the engine agrees on every case asked" if self.fixes else \
            f"the engine agrees on every case asked, but it changes {self.breaks} passing case(s) of the " \
            "operation the engine answers as the spec does" if self.vetoed else \
            f"the engine agrees on {self.agrees} of {self.asked} cases asked" if self.names and not self.left else \
            "the engine agrees on its one case, too little to tell a rule" if self.asked == 1 and self.agrees else \
            f"the engine agrees on every case asked, but it changes {round(100 * self.reach)} % of the passing " \
            "cases of their shape" if self.agrees == self.asked else \
            f"the engine agrees on {self.agrees} of {self.asked} cases asked; " \
            f"{', '.join(self.left)} still differ{'s' if len(self.left) == 1 else ''}"
        return f"{self.clause} ({self.value}): {how}"


def sample(ids: list[str], n: int = SAMPLE) -> list[str]:
    """``n`` of ``ids`` spread over them (the first always), the same on every run."""
    if len(ids) <= n:
        return list(ids)
    step = len(ids) / n
    return [ids[int(k * step)] for k in range(n)]


def distance(op: str, a: dict, b: dict, fields) -> tuple[str, ...]:
    """The compared fields ``a`` and ``b`` answer otherwise."""
    missing = object()
    return tuple(k for k in fields if a.get(k, missing) != b.get(k, missing))


def search(op: str, items: list[tuple[dict, dict]], alts, fields=None, alike=()) -> Rule | None:
    """The rule of the failures ``items`` (case, the engine's normalised answer) of one operation: of the
    alternatives observing ``op`` that bring the answers nearer the engine's than the spec's are (and, when the
    engine answers the primary field as the spec does on every case, keep it so), the one
    ranked first by the share of the cases on which the engine agrees with it less the share of ``alike``
    (passing cases of the same shape) whose answer it changes, then by the fields it leaves differing, summed
    over the cases (then the first listed); None when none brings them nearer."""
    from conformance.generation.decisions import PRIMARY, answer
    compared = tuple(fields or protocol.COMPARED[op])
    expected = [protocol.normalize(op, case["expected"], fields) for case, _ in items]
    base = sum(len(distance(op, e, g, compared)) for e, (_, g) in zip(expected, items))
    primary = PRIMARY[op] if PRIMARY[op] in compared else None
    # failures differing in other fields only: the engine answers the primary one as the spec does on each, and an
    # alternative answering it otherwise on one of them is refuted there (a tractor of 7 pairs at least makes the
    # reason the engine names, but allows the play the engine refuses)
    keep_primary = primary is not None and all(e.get(primary) == g.get(primary) for e, (_, g) in zip(expected, items))
    best = None
    some: list[tuple[int, int, str]] = []   # (-cases agreeing, order, id) of each alternative agreeing on some
    for n_alt, alt in enumerate(alts):
        if op not in alt.observers:
            continue
        total, agree, left = 0, 0, set()
        for (case, engine), spec in zip(items, expected):
            got = answer(alt.rules, op, case["input"])
            if "error" in got:
                got = spec      # an impossible position under it: it changes nothing there
            d = distance(op, got, engine, compared)
            total += len(d)
            agree += not d
            left.update(d)
        if keep_primary and primary in left:
            continue
        if agree:
            some.append((-agree, n_alt, alt.id))
        if total >= base:
            continue
        broken = 0
        for case in alike:
            got = answer(alt.rules, op, case["input"])
            broken += "error" not in got and not protocol.agrees(op, got, case["expected"], fields)
        key = (-(agree / len(items) - (broken / len(alike) if alike else 0)), total)
        if best is None or key < best[0]:
            best = (key, agree, alt, tuple(k for k in compared if k in left), broken / len(alike) if alike else 0.0)
    if best is None:
        return None
    (_, total), agree, alt, left, reach = best
    return Rule(alt.clause, alt.feature, alt.description, agree, len(items), left, alt.id, reach, total, base,
                tuple(i for *_, i in sorted(some)))


ALIKE = 24     # passing cases of a cluster's shape asked of each alternative that nears its cases
PASSES = 240   # passing cases of an operation (spread over them) asked of a rule that fixes a cluster
SECONDARY_PASSES = 4   # ... so many times more for a cluster differing in other fields than the primary one only:
#                        a rule that changes the primary field where the engine keeps it is refuted on few of them


def breaking(alt, op: str, passes, explained: int, fields=None, secondary_only: bool = False) -> int:
    """How many of up to :data:`PASSES` passing cases of ``op`` (spread over them) ``alt`` changes, counted until
    they outweigh ``explained`` failures as findings are ranked
    (:func:`~conformance.analysis.ranking.outweighs`): past that count, ``alt`` is not the engine's rule. When the
    failures differ in other fields than the primary one only (``secondary_only``), :data:`SECONDARY_PASSES` times
    as many passes are asked, and one whose primary field ``alt`` changes counts
    :data:`~conformance.analysis.ranking.PRIMARY_WEIGHT` times (:func:`~conformance.analysis.ranking.cost`)."""
    from conformance.analysis.ranking import cost, outweighs
    from conformance.generation.decisions import answer, primary_differs
    same = [p for p in passes if p["op"] == op]
    asked = PASSES * (SECONDARY_PASSES if secondary_only else 1)
    if len(same) > asked:
        same = [same[int(k * len(same) / asked)] for k in range(asked)]
    n = 0
    for p in same:
        got = answer(alt.rules, op, p["input"])
        if "error" not in got and not protocol.agrees(op, got, p["expected"], fields):
            n += cost(1, int(primary_differs(op, got, p["expected"], fields)), secondary_only)
            if not outweighs(explained, n):
                break
    return n


def veto(rule: "Rule | None", alt, op: str, passes, explained: int, fields=None,
         secondary_only: bool = False) -> "Rule | None":
    """``rule`` (which fixes a cluster of ``explained`` failures), vetoed when its alternative ``alt`` changes
    more passing cases of the operation than those failures outweigh (:func:`breaking`): a rung of the triple's
    ladder that answers three cases of a joker follow bug is not the engine's rule, as it refuses what the
    engine refuses on every other triple led (issue 31: one deviation, one finding)."""
    from dataclasses import replace
    from conformance.analysis.ranking import outweighs
    if rule is None or alt is None or not rule.fixes:
        return rule
    n = breaking(alt, op, passes, explained, fields, secondary_only)
    return rule if outweighs(explained, n) else replace(rule, breaks=n, vetoed=True)


def alike(rules, op: str, shapes: list[list[str]], passes: list[dict], n: int = ALIKE) -> list[dict]:
    """Up to ``n`` passing cases of ``op`` (spread over them) whose shape holds every part at least 80 % of a
    cluster's ``shapes`` share: the cases a rule of that cluster would also reach."""
    from collections import Counter
    from conformance.analysis.shapes import shape
    counts = Counter(p for sh in shapes for p in set(sh))
    common = {p for p, k in counts.items() if k >= 0.8 * len(shapes)}
    same = [c for c in passes if c["op"] == op]
    out = []
    for k in range(0, len(same), max(1, len(same) // (4 * n))):
        if common <= set(shape(rules, op, same[k]["input"])):
            out.append(same[k])
    return [out[int(k * len(out) / n)] for k in range(n)] if len(out) > n else out


CITED = 0.8        # the share of a cluster's cases that must cite a clause for it to characterise them
HALF = 0.5         # a deciding clause cited by fewer of a cluster's cases than this share does not characterise them
TELLING = 0.95     # a clause cited by this share of the passing cases of an operation tells nothing of a cluster


def characteristic(clause: str, cited: list[tuple[str, ...]], passing: list[tuple[str, ...]]) -> str:
    """The clause characterising a cluster no alternative names (a deviation beyond the language): of the
    clauses the reference cites for at least :data:`CITED` of its cases (``cited``), the one the passing cases
    of its operation (``passing``) cite least, when the cluster's deciding ``clause`` tells nothing of them:
    cited by fewer than :data:`HALF` of its cases, or by fewer than :data:`CITED` of them or nearly every
    passing case (:data:`TELLING`) while that one is cited by fewer passes than it. A
    ruff compared otherwise is decided by how tractors are shaped, yet every case of it cites the rule of
    ruffing, which few passing tricks do: the reader is sent there."""
    from collections import Counter
    if not cited:
        return clause
    mine = Counter(c for cs in cited for c in set(cs))
    theirs = Counter(c for cs in passing for c in set(cs))
    share = {c: theirs[c] / len(passing) if passing else 1.0 for c in mine}
    if mine[clause] >= CITED * len(cited) and share.get(clause, 1.0) < TELLING:
        return clause
    common = sorted((share[c], c) for c, k in mine.items() if k >= CITED * len(cited))
    if common and (mine[clause] < HALF * len(cited) or common[0][0] < share.get(clause, 1.0)):
        return common[0][1]
    return clause
