"""Fingerprinting: which reading of each interpreted clause does an engine follow?

For every clause of a ruleset that declares several readings, the ruleset is
re-checked once per reading (``override CLAUSE choose READING``). Positions
are searched (with :mod:`conformance.generation.strategies`) on which the readings
answer differently; the engine is asked those positions, and it *follows* a
reading when its answers agree with that reading's on every one of them, or
on a clear majority of them (:data:`MAJORITY`). It may follow none (its own
rule), or agree with several when no position separates them.

Only the fields the clause decides on a position are compared: those on
which the readings' answers differ there. A field every reading answers
alike is decided by other clauses; an engine differing there (a throw's
penalty, when the clause decides which cards are blocked) departs from those
clauses, not from this one, and the evidence names them.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from hypothesis import HealthCheck, Phase, given, seed as hyp_seed, settings

from reference_impl.rules import Rules
from tractor_dsl import model as m
from tractor_dsl.checker import CheckedRuleset, check_text

from conformance.protocol import messages as protocol
from conformance.generation.alternatives import Alternative, OBSERVERS, UNOBSERVED_PREFIXES, UNVARIED as UNMUTATED
from conformance.generation.suite import Engine, InProcessEngine


# A reading is followed by a clear majority of a clause's positions when the engine agrees with it on at least
# 75 % of the positions it answered and on strictly more of them than with any other reading (3 of 4 positions,
# the default; never 1 of 2). The positions where it does not agree are listed with the clauses that decide them.
MAJORITY = 0.75


@dataclass
class Verdict:
    clause: str
    readings: tuple[str, ...]
    chosen: str                        # the ruleset's own choice
    followed: list[str]                # readings whose answers the engine matched on every position (or the one
                                       # it matched on a clear majority of them, see MAJORITY)
    positions: int                     # discriminating positions asked (and answered)
    evidence: list[dict] = field(default_factory=list)   # per position: op, input, answers by reading, engine's

    unobserved: bool = False           # probed only through operations the engine does not answer
    context: dict[str, str] = field(default_factory=dict)  # the engine's other readings the positions were
                                                           # judged with (clause -> reading), see in_context
    agreeing: int | None = None        # the positions the one reading followed agrees on (None: all of them)

    @property
    def majority(self) -> bool:
        """Whether the one reading followed is followed on a clear majority of the positions, not on all."""
        return self.agreeing is not None and self.agreeing < self.positions

    @property
    def verdict(self) -> str:
        if self.unobserved:
            return "unobserved"
        if not self.positions:
            return "undecided (no position separates the readings)"
        if len(self.followed) == 1:
            return self.followed[0] + (f" ({self.agreeing} of {self.positions})" if self.majority else "")
        if not self.followed:
            return "none of them"
        return "any of " + ", ".join(self.followed)

    def notes(self) -> list[str]:
        """What the evidence shows beyond the verdict, one line each: the positions where the engine agrees
        with no reading (beside a majority, or following none), and those where it gives a reading's answer
        on the fields the clause decides and differs in fields only other clauses decide."""
        out = []
        for key in ("differs", "differs_elsewhere"):
            seen = [e[key] for e in self.evidence if key in e]
            if not seen:
                continue
            reading = seen[0]["reading"]
            fields = ", ".join(sorted({f for d in seen for f in d["fields"]}))
            clauses = ", ".join(dict.fromkeys(c for d in seen for c in d["clauses"]))
            if key == "differs":
                out.append(f"{self.clause}: on {len(seen)} of {self.positions} position(s) the engine agrees with "
                           f"no reading; it differs from {reading} in {fields}"
                           + (f" (other clauses cited there: {clauses})" if clauses else ""))
            else:
                out.append(f"{self.clause}: on {len(seen)} of {self.positions} position(s) the engine answers as "
                           f"{reading} on what the clause decides, and differs in {fields}, which every reading "
                           "answers alike" + (f" (other clauses cited there: {clauses})" if clauses else ""))
        return out


def reading_rulesets(checked: CheckedRuleset, sources: dict[str, str] | None = None) -> dict[str, dict[str, Rules]]:
    """For each clause with several executable readings: reading name -> the ruleset choosing it."""
    wanted = [(clause.id, reading.name) for clause in checked.clauses
              for reading in _executable(clause) if len(_executable(clause)) >= 2]
    built = combined(checked, [{c: r} for c, r in wanted], sources)
    out: dict[str, dict[str, Rules]] = {}
    for (clause, reading), rules in zip(wanted, built):
        if rules is not None:
            out.setdefault(clause, {})[reading] = rules
    return {clause: variants for clause, variants in out.items() if len(variants) >= 2}


def _executable(clause: m.Clause) -> list[m.Reading]:
    return [r for r in clause.readings if r.rules and not _unobserved(r)]


def combined(checked: CheckedRuleset, combos: list[dict[str, str]],
             sources: dict[str, str] | None = None) -> list[Rules | None]:
    """For each combination of readings (clause -> reading), ``checked`` choosing them (None: it does not check).

    Every combination (``override CLAUSE choose READING`` for each) is checked in one pass over the sources,
    each in a file of its own: the sources are parsed and checked once, not once per combination.
    """
    if not combos:
        return []
    if sources is None:  # the bundled files, and of the house-rule catalogue only the files it extends
        sources = _sources_for(checked)
    texts: dict[str, str] = {}
    for n, combo in enumerate(combos):
        overrides = "".join(f"  override {clause} choose {reading} because \"fingerprint\"\n"
                            for clause, reading in combo.items())
        texts[f"<fingerprint {n}>"] = f"ruleset fingerprint_variant_{n} extends {checked.name} {{\n{overrides}}}\n"
    first = next(iter(texts))
    lib = check_text(texts[first], first, extra={**sources, **{f: t for f, t in texts.items() if f != first}})
    broken = {d.span.file for d in lib.errors}
    if broken - set(texts):   # the sources themselves do not check: no reading can be trusted
        return [None] * len(combos)
    out: list[Rules | None] = []
    for n in range(len(combos)):
        rs = lib.rulesets.get(f"fingerprint_variant_{n}")
        if rs is None or f"<fingerprint {n}>" in broken:
            out.append(None)
            continue
        rs.name = checked.name
        out.append(Rules(rs))
    return out


def _sources_for(checked: CheckedRuleset) -> dict[str, str]:
    """The files a variant of ``checked`` is checked with: the bundled ones and, of the house-rule catalogue,
    only the files ``checked`` extends; ``checked``'s own file when it is a user's."""
    from pathlib import Path

    from reference_impl.rules import bundled_library
    from tractor_dsl.bundled import is_catalogue
    lib = bundled_library()
    mine = {lib.rulesets[n].file for n in checked.lineage if n in lib.rulesets}
    sources = {f: t for f, t in lib.sources.items() if not is_catalogue(f) or f in mine}
    if checked.name not in lib.rulesets and checked.file and checked.file not in sources:
        try:
            sources[checked.file] = Path(checked.file).read_text(encoding="utf-8")
        except OSError:
            pass
    return sources


def _unobserved(reading: m.Reading) -> bool:
    paths = [r.path for r in reading.rules if isinstance(r, m.Setting)]
    return bool(paths) and len(paths) == len(reading.rules) and all(
        p.startswith(UNOBSERVED_PREFIXES) or p in UNMUTATED for p in paths)


def _ops_for(variants: dict[str, Rules], clause: str, checked: CheckedRuleset) -> list[str]:
    paths = {p for p, o in checked.origins.items() if o.clause.id == clause}
    ops: list[str] = []
    for path in paths:
        for prefix, observed in OBSERVERS:
            if path.startswith(prefix) and observed:
                ops.extend(o for o in observed if o not in ops)
    if any(key for key, (_, _, origin) in checked.ladders.items() if origin.clause.id == clause) or \
            any(r for c in checked.clauses if c.id == clause for rd in c.readings for r in rd.rules
                if isinstance(r, m.Follow)):
        ops.append("follow")
    if checked.band_origin is not None and checked.band_origin.clause.id == clause:
        ops.append("result")
    return list(dict.fromkeys(ops)) or [o for o in protocol.OPERATIONS if o != "hand"]


class _Enough(Exception):
    pass


@lru_cache(maxsize=8)
def reading_flips(rules: Rules) -> dict[str, dict[str, Alternative]]:
    """clause -> reading -> the alternative of ``rules`` that flips the clause's chosen reading to it (with the
    scenarios the seeded suite aims at its change)."""
    from conformance.generation.alternatives import alternatives
    out: dict[str, dict[str, Alternative]] = {}
    for alt in alternatives(rules):
        if alt.feature.startswith("reading "):
            out.setdefault(alt.clause, {})[alt.description.rsplit(" -> ", 1)[1]] = alt
    return out


def _aimed(variants: dict[str, Rules], flips: dict[str, Alternative], a: str, b: str, ops: list[str]):
    """The rules of reading ``a`` and the alternative turning them into reading ``b``'s (the suite's flip to
    ``b``, or to ``a`` the other way round), seen through the operations ``ops`` only; None if neither is a
    flip."""
    if b not in flips:
        a, b = b, a
    alt = flips.get(b)
    if alt is None:
        return None
    observers = tuple(op for op in alt.observers if op in ops)
    if not observers:
        return None
    targets = tuple(sc for sc in alt.targets if sc.op in ops)
    return variants[a], dataclasses.replace(alt, base=variants[a], observers=observers, targets=targets)


def discriminating(ruleset: str, variants: dict[str, Rules], ops: list[str], wanted: int = 4,
                   seed: int = 0, max_examples: int = 400,
                   flips: dict[str, Alternative] | None = None) -> list[dict]:
    """Positions on which the readings answer differently.

    The search goes on until every pair of readings is told apart by some
    position (so three readings need more than one) and ``wanted`` positions
    are found, or the searches run out. First the seeded suite's own search
    (:func:`conformance.generation.decisions.distinguish`, given the reading
    alternatives ``flips``): the scenarios aimed at each reading's change,
    ``wanted`` seeds per pair, and a pair the suite proves equivalent is not
    searched further; then, for what is still missing, a Hypothesis search
    over the operations ``ops`` (fewer examples once every pair is apart).
    """
    from itertools import combinations

    from conformance.generation import strategies
    from conformance.generation.decisions import distinguish
    engines = {name: InProcessEngine(rules, name) for name, rules in variants.items()}
    pairs = [frozenset(p) for p in combinations(variants, 2)]
    separated: set = set()
    equivalent: set = set()
    found: list[dict] = []

    def done() -> bool:
        return separated | equivalent >= set(pairs) and len(found) >= wanted

    def consider(op: str, inp: dict) -> None:
        answers = {}
        for name, engine in engines.items():
            status, got = engine.ask(op, ruleset, inp)
            answers[name] = protocol.normalize(op, got) if status == "result" else {"errored": str(got)}
        apart = {p for p in pairs if len({repr(answers[n]) for n in p}) > 1}
        if apart - separated or (apart and len(found) < wanted):
            separated.update(apart)
            found.append({"op": op, "input": inp, "answers": answers})

    for k in range(wanted if flips else 0):
        for pair in pairs:
            if done():
                break
            if pair in equivalent or (k and pair not in separated):   # a pair no seed told apart: Hypothesis
                continue
            a, b = sorted(pair, key=list(variants).index)
            aimed = _aimed(variants, flips, a, b, ops)
            if aimed is None:
                continue
            search = distinguish(*aimed, seed=seed + k)
            if search.equivalent:
                equivalent.add(pair)
            elif search.found is not None:
                consider(search.found.op, search.found.input)
    left = set(pairs) - separated - equivalent
    if not left and not separated:   # every pair proven equivalent: no position can tell the readings apart
        return found
    examples = max_examples if left else max(max_examples // 8, 20)
    for op in ops:
        if done():
            break

        @hyp_seed(seed)
        @settings(max_examples=examples, deadline=None, database=None,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(getattr(strategies, f"{op}_inputs")(ruleset))
        def search(inp):
            if done():  # raised again when Hypothesis replays the example, so the stop is not flaky
                raise _Enough
            consider(op, inp)
            if done():
                raise _Enough

        try:
            search()
        except _Enough:
            pass
    return found


def _probe(variants: dict[str, Rules], clause: str, checked: CheckedRuleset, ops: Any) -> list[str]:
    return [op for op in _ops_for(variants, clause, checked) if ops is None or op in ops]


def _positions_chunk(clauses: list[str], ruleset: str, wanted: int, seed: int, ops: Any) -> list[list[dict]]:
    """On a worker: the discriminating positions of ``clauses`` (the ruleset and its readings rebuilt
    there; both are deterministic)."""
    checked, table, flips = _worker_table(ruleset)
    out = []
    for clause in clauses:
        probe = _probe(table[clause], clause, checked, ops)
        out.append(discriminating(checked.name, table[clause], probe, wanted, seed, flips=flips.get(clause, {}))
                   if probe else [])
    return out


@lru_cache(maxsize=4)
def _worker_table(ruleset: str):
    """The ruleset and its reading table, built once per worker process (every chunk of a run needs them)."""
    from reference_impl.rules import rules_for
    rules = rules_for(ruleset)
    return rules.checked, reading_rulesets(rules.checked), reading_flips(rules)


def fingerprint(engine: Engine, checked: CheckedRuleset, wanted: int = 4, seed: int = 0,
                progress: Callable[[str], None] | None = None, ops: Any = None, *, jobs: int | None = 1,
                scheduler: str | None = None, ruleset: str | None = None) -> list[Verdict]:
    """Which reading of each multi-reading clause of ``checked`` the engine follows.

    Only operations in ``ops`` (the handshake's list; default: every one) are
    sent. A clause whose positions could only be asked through other
    operations, or that the engine answered ``skipped`` on every one, is
    *unobserved*: nothing is known of it, which is not a difference.
    """
    verdicts = []
    table = reading_rulesets(checked)
    flips = reading_flips(Rules(checked)) if table else {}
    searched: dict[str, list[dict]] = {}
    if ruleset is not None and (jobs != 1 or scheduler):
        # the search for positions is the costly part, and needs no engine: on the executor (parallel);
        # the engine is then asked here, one process, in clause order
        from conformance.running.parallel import cut, map_chunks
        names = list(table)
        found = map_chunks(_positions_chunk, cut(names, 1), jobs=jobs, scheduler=scheduler,
                           extra=(ruleset, wanted, seed, None if ops is None else list(ops)),
                           progress=(lambda done, total: progress(f"positions searched for {done} of {total} "
                                                                  "clauses")) if progress else None)
        searched = {name: cases for name, chunk in zip(names, found) for cases in chunk}
    for clause, variants in table.items():
        if progress:
            progress(clause)
        probe = _probe(variants, clause, checked, ops)
        chosen = checked.choices.get(clause, "")
        if not probe:
            verdicts.append(Verdict(clause, tuple(variants), chosen, [], 0, [], unobserved=True))
            continue
        cases = searched[clause] if clause in searched else discriminating(checked.name, variants, probe, wanted, seed,
                                                                            flips=flips.get(clause, {}))
        verdicts.append(_judge(engine, checked.name, clause, variants, chosen, cases))
    return in_context(engine, checked, verdicts, flips, wanted, seed, ops, progress=progress)


def _judge(engine: Engine, ruleset: str, clause: str, variants: dict[str, Rules], chosen: str, cases: list[dict],
           context: dict[str, str] | None = None) -> Verdict:
    """The engine asked the positions ``cases``: the readings whose answers it gave on every one, compared on
    the fields the clause decides there (:func:`decided_fields`); else the reading it gave on a clear majority
    of them (:data:`MAJORITY`). Each position's evidence names the fields compared and, where the engine
    differs elsewhere or from the reading followed, the fields and the clauses that decide them."""
    evidence = []
    agreeing: dict[str, int] = dict.fromkeys(variants, 0)
    answered = 0
    for case in cases:
        status, got = engine.ask(case["op"], ruleset, case["input"])
        answer: Any = protocol.normalize(case["op"], got) if status == "result" else {status: str(got)}
        if status == "skipped":   # the engine does not judge this: no evidence either way
            evidence.append({**case, "engine": answer, "agrees_with": []})
            continue
        decided = decided_fields(case["answers"])
        declared = _declared(engine, case["op"])
        fields = decided if declared is None else decided & declared   # an engine answering some fields only (its
        if not fields and declared is not None:   # handshake's "fields") is judged on those; a position where the
            # clause decides none of them is no evidence (a throw's blockers seen in "blocked" alone, left out)
            evidence.append({**case, "engine": answer, "agrees_with": [], "unanswered": sorted(decided)})
            continue
        answered += 1
        agree = {name for name, a in case["answers"].items() if same(a, answer, fields)}
        for name in agree:
            agreeing[name] += 1
        evidence.append({**case, "engine": answer, "agrees_with": sorted(agree), "fields": sorted(fields)}
                        | ({"answered_fields": sorted(declared)} if declared is not None else {}))
    if not answered:
        return Verdict(clause, tuple(variants), chosen, sorted(variants), 0, evidence, unobserved=bool(cases),
                       context=dict(context or {}))
    followed = sorted(r for r, n in agreeing.items() if n == answered)
    most = None
    if not followed:
        best = max(agreeing, key=lambda r: agreeing[r])
        if agreeing[best] >= MAJORITY * answered and all(n < agreeing[best] for r, n in agreeing.items() if r != best):
            followed, most = [best], agreeing[best]
    for e in evidence:   # what the engine answers beyond the reading it follows (or the spec's, following none)
        if "fields" in e:
            _elsewhere(e, variants[followed[0] if len(followed) == 1 else chosen], clause,
                       followed[0] if len(followed) == 1 else chosen)
    return Verdict(clause, tuple(variants), chosen, followed, answered, evidence,
                   context=dict(context or {}), agreeing=most)


_ABSENT = object()


def _declared(engine: Engine, op: str) -> set[str] | None:
    """The compared fields of ``op`` an engine answers, when its handshake's ``fields`` leaves some out (None when
    it answers all of them)."""
    fields = (getattr(engine, "fields", None) or {}).get(op)
    return None if fields is None or isinstance(fields, protocol.AllFields) else set(fields)


def _comparable(answer: dict) -> dict:
    """An answer as the fingerprint compares it: an error is an error, whatever its message says."""
    return {"errored": True} if "errored" in answer or "error" in answer else answer


def decided_fields(answers: dict[str, dict]) -> set[str]:
    """The fields on which the readings' answers to one position differ: what the clause decides there
    (every field, when the readings differ in whether the position is refused)."""
    shown = [_comparable(a) for a in answers.values()]
    keys = set().union(*shown) if shown else set()
    return {k for k in keys if len({repr(a.get(k, _ABSENT)) for a in shown}) > 1}


def same(reading: dict, engine: dict, fields: set[str]) -> bool:
    """Whether the engine's answer is the reading's on ``fields`` (the whole answer when there are none)."""
    a, b = _comparable(reading), _comparable(engine)
    if "errored" in a or "errored" in b or not fields:
        return a == b
    return all(a.get(k, _ABSENT) == b.get(k, _ABSENT) for k in fields)


def _elsewhere(e: dict, rules: Rules, clause: str, reading: str) -> None:
    """Mark on the evidence ``e`` the fields where the engine differs from ``reading`` (whose ``rules`` give
    its answer) and the other clauses the reference cites deciding the position: the engine's difference is
    theirs (``differs_elsewhere``) when the fields are outside those the clause decides there."""
    from conformance.generation.decisions import judged
    mine, engine = _comparable(e["answers"][reading]), _comparable(e["engine"])
    if "errored" in mine or "errored" in engine:
        return
    off = sorted(k for k in set(mine) | set(engine) if mine.get(k, _ABSENT) != engine.get(k, _ABSENT)
                 and k in e.get("answered_fields", (k,)))   # not a field the engine does not answer
    if not off:
        return
    cites = [c for c in judged(rules, e["op"], e["input"])[1] if c != clause]
    e["differs_elsewhere" if not set(off) & set(e["fields"]) else "differs"] = {"reading": reading, "fields": off,
                                                                                "clauses": cites}


def departs(v: Verdict) -> bool:
    """Whether the verdict is one reading, not the spec's, seen on some position."""
    return not v.unobserved and bool(v.positions) and len(v.followed) == 1 and v.followed[0] != v.chosen


def in_context(engine: Engine, checked: CheckedRuleset, verdicts: list[Verdict],
               flips: dict[str, dict[str, Alternative]] | None = None, wanted: int = 4, seed: int = 0,
               ops: Any = None, progress: Callable[[str], None] | None = None) -> list[Verdict]:
    """The verdicts with every departure judged again among the engine's other departures.

    Each clause's positions are searched on ``checked`` as it is; an engine
    that departs from it in two clauses may answer one clause's position as
    another reading only because of the other clause (a throw of AA22 is
    ranked by ``compare.multi``, but whether AA22 chains is
    ``tractor.ace_two``'s). So each departing clause is judged again — new
    positions, asked of the engine — on ``checked`` with the other departing
    clauses' readings chosen, the one with the least evidence first; a clause
    whose departure the others explain (its own reading agrees there, or no
    position tells its readings apart) is dropped, and the rest judged again,
    until no departure changes. The verdicts that matched no reading are then
    judged once among the departures that stand.
    """
    flips = flips if flips is not None else reading_flips(Rules(checked))
    order = [v.clause for v in verdicts]
    first = {v.clause: v for v in verdicts}
    now = dict(first)
    standing = {v.clause for v in verdicts if departs(v)}
    cache: dict[tuple, Verdict] = {}

    def key(clause: str, context: dict[str, str]) -> tuple:
        return clause, tuple(sorted(context.items()))

    def judged(items: list[tuple[str, dict[str, str]]]) -> dict[str, Verdict]:
        """Each clause judged with its context chosen: every combination checked in one pass, then searched."""
        todo = [(c, ctx) for c, ctx in items if key(c, ctx) not in cache]
        built = iter(combined(checked, [{**ctx, c: r} for c, ctx in todo for r in first[c].readings]))
        for clause, context in todo:
            v = first[clause]
            variants = {r: rules for r in v.readings if (rules := next(built)) is not None}
            if len(variants) < 2:
                cache[key(clause, context)] = v
                continue
            if progress:
                progress(f"{clause} again, with {', '.join(f'{c} {r}' for c, r in context.items())}")
            probe = _probe(variants, clause, checked, ops)
            cases = discriminating(checked.name, variants, probe, wanted, seed, flips=flips.get(clause, {}))
            cache[key(clause, context)] = _judge(engine, checked.name, clause, variants, v.chosen, cases, context)
        return {c: cache[key(c, ctx)] for c, ctx in items}

    for _ in range(2 * len(standing) + 2):
        reading_of = {c: now[c].followed[0] for c in standing}
        again = judged([(c, others) for c in sorted(standing, key=order.index)
                        if (others := {o: r for o, r in reading_of.items() if o != c})])
        moved = [c for c, v in again.items() if not departs(v) or v.followed != [reading_of[c]]]
        if not moved:
            now.update(again)
            break
        weakest = min(moved, key=lambda c: (first[c].positions, order.index(c)))   # the least evidence first
        now[weakest] = again[weakest]
        if not departs(again[weakest]):
            standing.discard(weakest)
    for clause in standing:
        if len(standing) == 1:   # a departure alone: as first judged
            now[clause] = first[clause]
    reading_of = {c: now[c].followed[0] for c in standing}
    if reading_of:
        now.update(judged([(v.clause, reading_of) for v in verdicts
                           if v.positions and not v.followed and v.clause not in standing]))
    return [now[c] for c in order]
