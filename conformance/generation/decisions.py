"""The decision points of a ruleset, and a position that decides each.

A ruleset decides answers at *decision points*: every rung of every follow
ladder (listed or derived), every junction and adjacency rule, every band
edge and cap of the score table, every kitty multiplier row, every throw
check, split and forced play, every ruff structure and comparison of shapes,
every declaration refusal, every must-play stop. Each is met here in two
ways:

* **coverage** — every rung of every ladder is the rung a seeded follow
  position is judged by, once with the play it requires (legal) and once
  with a play meeting only a later rung (illegal); every band edge and
  every kitty row decides a position of its own;
* **distinction** — for every alternative of the spec
  (:mod:`conformance.generation.alternatives`: a rung moved or dropped, another throw
  check, a kitty row read as ×2 per card, a junction dropped, the other
  reading of an interpreted clause, ...) a position the spec and the
  alternative answer differently, found by drawing the scenarios aimed at it
  (:mod:`conformance.generation.positions`) from a seeded :class:`random.Random`. An
  alternative no position can tell apart is declared equivalent, with its
  reason (:mod:`conformance.generation.equivalence`), and not searched.

Each position records what it decides (``decides``), so coverage is counted
per decision, not per operation. A position differing on the primary field
of its answer (``legal``, ``winner``, ``points`` ...) is preferred, so that
engines answering only that field are still told apart.
"""
from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, field
from typing import Iterable

from reference_impl.rules import Rules

from conformance.protocol import messages as protocol
from conformance.generation.alternatives import Alternative, alternatives
from conformance.protocol.engine import HANDLERS, InputError
from conformance.generation.equivalence import equivalence_reason, proven_ladder_equivalent
from conformance.generation.positions import RandomDraw, Rejected, Scenario, attempt, build, scenarios

# The field an engine answering partially is most likely to answer.
PRIMARY = {"classify": "kind", "lead": "legal", "follow": "legal", "winner": "winner", "kitty": "points",
           "result": "levels", "advance": "level", "declare": "legal", "undeclared": "trump", "hand": "levels",
           "penalty": "points", "deal": "proper"}


def primary_differs(op: str, a: dict, b: dict, fields=None) -> bool:
    """Whether two answers of ``op``, normalised as they are compared (``fields``: those the engine declared),
    differ in its primary field (:data:`PRIMARY`)."""
    return protocol.normalize(op, a, fields).get(PRIMARY[op]) != protocol.normalize(op, b, fields).get(PRIMARY[op])
# Once a position tells an alternative apart in another field than the primary one, the search goes on this many
# positions more for one that tells it in the primary field: fewer for a whole hand, which costs as much as
# hundreds of positions of the other operations (and whose alternatives of the bank's succession show in
# next_banker_seat alone, never in the primary field)
FALLBACK_EXTRA = 120
FALLBACK_EXTRA_BY_OP = {"hand": 20}
SEARCH_OPS = ("classify", "lead", "follow", "winner", "kitty", "result", "advance", "declare", "undeclared",
              "penalty", "deal")


@dataclass
class Decided:
    """A position, the operation asking it, and what it decides."""

    op: str
    input: dict
    decides: list[str] = field(default_factory=list)


@dataclass
class Search:
    """The outcome of looking for a position that tells one alternative from the spec."""

    alternative: Alternative
    found: Decided | None = None
    equivalent: str | None = None
    attempts: int = 0


def answer(rules: Rules, op: str, inp: dict):
    """The compared fields of ``rules``' answer (an impossible position answers with its error)."""
    return judged(rules, op, inp)[0]


def judged(rules: Rules, op: str, inp: dict) -> tuple[dict, tuple[str, ...]]:
    """:func:`answer`, and the clauses ``rules`` cites giving it (none for an impossible position)."""
    try:
        result, clauses = HANDLERS[op](rules, inp)
    except InputError as e:
        return {"error": str(e)}, ()
    except Exception as e:  # an alternative may be inconsistent where no checked ruleset is
        return {"error": f"{e.__class__.__name__}: {e}"}, ()
    return protocol.normalize(op, result), tuple(clauses)


def _seed(*parts: object) -> int:
    return zlib.crc32("|".join(str(p) for p in parts).encode("utf-8"))


def distinguish(rules: Rules, alt: Alternative, seed: int = 0, budget: int = 600,
                check_equivalence: bool = True, known: tuple[tuple[str, dict, bool], ...] = ()) -> Search:
    """A position ``rules`` and ``alt`` answer differently (preferring the primary field), or why none exists.

    ``known`` positions (``(op, input, primary)``: those that told the same alternative apart in the ruleset
    ``rules`` extends, :func:`inherited`, and whether they did in the primary field) are tried first: one where
    the answers still differ as they did (in the primary field, if they did there) is taken without a search,
    so a derived ruleset is asked, where its parent's positions still decide, the parent's positions.

    With ``check_equivalence`` (the default) an alternative declared or proved
    equivalent is not searched; without it, it is (to test the equivalence). The proof (an enumeration, for a
    follow ladder's rung moved or dropped) comes before the search: it costs milliseconds, where a search for
    a difference that cannot exist spends its whole budget (34 of v27's ladder moves cost 10 of its 14 s).
    """
    out = Search(alt)
    if check_equivalence:
        reason = equivalence_reason(alt, rules) or proven_ladder_equivalent(alt, rules)
        if reason is not None:
            out.equivalent = reason
            return out
    for op, inp, primary in known:
        a, b = answer(rules, op, inp), answer(alt.rules, op, inp)
        out.attempts += 1
        if "error" not in a and "error" not in b and a != b and (a.get(PRIMARY[op]) != b.get(PRIMARY[op])
                                                                 or not primary):
            out.found = Decided(op, inp, [alt.description])
            return out
    pools = [list(alt.targets)] if alt.targets else [list(scenarios(rules, op)) for op in alt.observers
                                                      if op in SEARCH_OPS]
    if not pools:
        return out
    d = RandomDraw(random.Random(_seed("distinguish", seed, rules.name, alt.description)))
    fallback: Decided | None = None
    for i in range(4 * budget):  # ``budget`` positions built, however many draws are rejected on the way
        if out.attempts >= budget:
            break
        pool = pools[i % len(pools)]  # the observing operations in turn, then a scenario of one
        turn = i // len(pools)
        sc = pool[turn] if turn < len(pool) and len(pool) <= 64 else pool[d.int(0, len(pool) - 1)]
        try:
            inp = build(d, rules, sc)
        except Rejected:
            continue
        out.attempts += 1
        a, b = answer(rules, sc.op, inp), answer(alt.rules, sc.op, inp)
        if "error" in a or "error" in b or a == b:
            continue
        primary = PRIMARY[sc.op]
        found = Decided(sc.op, inp, [alt.description])
        if a.get(primary) != b.get(primary):
            out.found = found
            return out
        if fallback is None:
            fallback = found
            budget = min(budget, out.attempts + FALLBACK_EXTRA_BY_OP.get(sc.op, FALLBACK_EXTRA))
    out.found = fallback
    return out


def coverage_positions(rules: Rules, seed: int = 0) -> list[Decided]:
    """Positions where each rung, band edge and kitty row decides the answer (see the module docstring).

    For a rung of a follow ladder: one position whose play meets it (legal) and one whose play does not
    (illegal) — a later rung played, else a card swapped, else random cards of the suit — each checked
    with the interpreter, since a seeded draw may miss.
    """
    out: list[Decided] = []
    d = RandomDraw(random.Random(_seed("coverage", seed, rules.name)))
    for op in ("follow", "result", "kitty", "advance"):
        for sc in scenarios(rules, op):
            if op == "follow":
                if sc.kind == "rung" and sc.args[2] == "meet":
                    out += _rung_positions(d, rules, sc)
            elif sc.kind != "random":
                inp = attempt(d, rules, sc, 200)
                if inp is not None:
                    out.append(Decided(op, inp, [_decision_text(sc)]))
    return out


def aimed_positions(rules: Rules, seed: int = 0) -> list[Decided]:
    """Positions aimed where no alternative looks (:mod:`conformance.generation.positions.aimed`): ties,
    holdings of jokers or level cards only, declarations after a reinforcement or a wrong declaration, hands
    whose banker buries points. Only those the reference judges are kept."""
    from conformance.generation.positions.aimed import aimed
    d = RandomDraw(random.Random(_seed("aimed", seed, rules.name)))
    return [Decided(op, inp, [what]) for op, inp, what in aimed(d, rules) if "error" not in answer(rules, op, inp)]


def _rung_positions(d: RandomDraw, rules: Rules, meet: Scenario) -> list[Decided]:
    unit, k, _ = meet.args
    out = []
    for legal, modes in ((True, ("meet",)), (False, ("later", "miss", "random"))):
        for mode in modes:
            sc = Scenario("follow", "rung", (unit, k, mode))
            inp = _checked(d, rules, sc, lambda got: got.get("legal") is legal)
            if inp is not None:
                out.append(Decided("follow", inp, [_decision_text(sc)]))
                break
    return out


def _checked(d: RandomDraw, rules: Rules, sc: Scenario, wanted, tries: int = 200) -> dict | None:
    """A position of ``sc`` whose answer under ``rules`` satisfies ``wanted``."""
    for _ in range(tries):
        try:
            inp = build(d, rules, sc)
        except Rejected:
            continue
        if wanted(answer(rules, sc.op, inp)):
            return inp
    return None


def _decision_text(sc: Scenario) -> str:
    from conformance.generation.positions.scenario import unit_text
    if sc.op == "follow":
        unit, k, mode = sc.args
        play = {"meet": "the play it requires", "later": "a later rung played", "miss": "a card of it missed",
                "random": "random cards of the suit"}[mode]
        return f"follow {unit_text(unit)}: rung {k + 1} first ({play})"
    if sc.op == "result":
        return f"score table at {sc.args[0]} points"
    if sc.op == "kitty":
        plan, cls, side = sc.args
        return f"kitty row: {cls} {' + '.join(unit_text(u) for u in plan)} won by the {side}"
    level, gain, banker = sc.args
    return f"climb from {level} by {gain} as {'banker' if banker else 'attackers'}"



def point_clauses(rules: Rules) -> dict[str, str]:
    """The stated rule (clause id) each decision point of ``rules``' suite is about, by the label a case
    carries in ``decides``: a follow rung the clause of its ladder (or of ``follow.unlisted``), a band edge
    the score table's clause, a kitty row the multiplier's, a climb the level ranks', an alternative the
    clause it changes. The aimed positions (``aimed: ...``) are aimed where no stated rule looks and name
    none."""
    key = ("point clauses",)
    found = rules.memo.get(key)
    if found is not None:
        return found
    out: dict[str, str] = {}
    for op in ("follow", "result", "kitty", "advance"):
        for sc in scenarios(rules, op):
            if (sc.kind != "rung" or sc.args[2] not in _RUNG_MODES) if op == "follow" else sc.kind == "random":
                continue
            clause = _scenario_clause(rules, sc)
            if clause is not None:
                out[_decision_text(sc)] = clause
    alts = alternatives(rules)
    for alt in alts:
        out.setdefault(alt.description, alt.clause)
    for a, b in rival_pairs(alts):
        out.setdefault(rival_label(a, b), a.clause)
    rules.memo[key] = out
    return out


_RUNG_MODES = ("meet", "later", "miss", "random")


def _scenario_clause(rules: Rules, sc: Scenario) -> str | None:
    try:
        if sc.op == "follow":
            unit = sc.args[0]
            return rules.ladder_clause[unit] if unit in rules.ladder_clause else rules.clause("follow.unlisted")
        if sc.op == "result":
            return rules.band_clause
        if sc.op == "kitty":
            return rules.clause("kitty.multiplier")
        return rules.clause("level.ranks")
    except KeyError:   # a counterfactual ruleset may hold a setting no clause states
        return None


def _distinguish_chunk(items: list[tuple[Alternative, tuple]], rules: Rules, seed: int) -> list[
        tuple[Decided | None, str | None, int]]:
    """On a worker: each alternative's search (:func:`distinguish`, with its known positions), as (found,
    equivalent, attempts)."""
    return [(s.found, s.equivalent, s.attempts)
            for s in (distinguish(rules, alt, seed, known=known) for alt, known in items)]


def parent_of(rules: Rules) -> Rules | None:
    """The ruleset ``rules`` extends (the nearest of the library in its lineage), when it has the same cards
    dealt the same way (:func:`dealt_cards`): a position of the parent's is a position of its own."""
    from reference_impl.rules import bundled_library, rules_for
    library = bundled_library().rulesets
    name = next((n for n in rules.checked.lineage[1:] if n in library), None)
    if name is None:
        return None
    parent = rules_for(name)
    return parent if dealt_cards(parent) == dealt_cards(rules) else None


def dealt_cards(rules: Rules) -> dict:
    """The settings that say which cards there are and how they are dealt (not what they score)."""
    return {k: v for k, v in rules.checked.values.items()
            if k.startswith(("equipment.", "deal.")) and k != "equipment.points"}


_INHERITED: dict[tuple[str, int, bool], dict[str, tuple[str, dict, bool]]] = {}   # (parent, seed, read)


DISTINGUISH_CHUNK = 16   # alternatives searched per chunk of the executor


def inherited(rules: Rules, seed: int = 0, executor=None, read=None) -> dict[str, tuple[str, dict, bool]]:
    """The position that told each alternative (by its description) apart in the ruleset ``rules`` extends
    (:func:`parent_of`; nothing when there is none), with whether it did in the primary field, found once in a
    process: from the parent's cases ``read(name)`` gives (its bundled vectors, whose decision cases are what its
    search finds, as the drift check keeps them), else searched."""
    parent = parent_of(rules)
    if parent is None:
        return {}
    cases = read(parent.name) if read is not None else None
    key = (parent.name, seed, cases is not None)
    if key not in _INHERITED:
        if cases is not None:
            alt_of = {a.description: a for a in alternatives(parent)}
            told = [(alt_of[d], c["op"], c["input"]) for c in cases for d in c.get("decides", ()) if d in alt_of]
        else:
            told = [(s.alternative, s.found.op, s.found.input)
                    for s in _searches(parent, seed, list(alternatives(parent)), executor, read)
                    if s.found is not None]
        found: dict[str, tuple[str, dict, bool]] = {}
        for alt, op, inp in told:
            if alt.description not in found:
                a, b = answer(parent, op, inp), answer(alt.rules, op, inp)
                found[alt.description] = (op, inp, a.get(PRIMARY[op]) != b.get(PRIMARY[op]))
        _INHERITED[key] = found
    return _INHERITED[key]


def _searches(rules: Rules, seed: int, alts: list[Alternative], executor=None, read=None) -> list[Search]:
    """Every alternative's search (:func:`distinguish`), its parent's position tried first (:func:`inherited`),
    on ``executor`` when one is given."""
    known = inherited(rules, seed, executor, read)
    items = [(alt, (known[alt.description],) if alt.description in known else ()) for alt in alts]
    if executor is not None and len(alts) > DISTINGUISH_CHUNK:
        from conformance.running.parallel import cut, map_chunks
        found = [r for chunk in map_chunks(_distinguish_chunk, cut(items, DISTINGUISH_CHUNK), pool=executor,
                                           extra=(rules, seed)) for r in chunk]
        return [Search(alt, *r) for alt, r in zip(alts, found)]
    return [distinguish(rules, alt, seed, known=k) for alt, k in items]


def decision_positions(rules: Rules, seed: int = 0, alts: Iterable[Alternative] | None = None,
                       executor=None, read=None) -> tuple[list[Decided], list[Search]]:
    """Coverage positions, the aimed positions, then a distinguishing position for every alternative (with the
    searches), the searches on ``executor`` (:func:`conformance.running.parallel.executor`) when one is given:
    each is seeded by its alternative alone, so the positions are the same on any number of workers. A ruleset
    that extends another with the same cards first tries, for each alternative, the parent's position
    (:func:`inherited`): the two are asked the same positions wherever those still decide, which makes a run
    on a derived (or emitted) file comparable with one on its parent, and spares most searches (``read``:
    a bundled parent's cases, its vectors, :func:`inherited`)."""
    alts = list(alts if alts is not None else alternatives(rules))
    positions = coverage_positions(rules, seed) + aimed_positions(rules, seed)
    searches = _searches(rules, seed, alts, executor, read)
    positions += [s.found for s in searches if s.found is not None]
    positions += rival_positions(rules, searches, seed)
    return positions, searches


RIVAL_VALUES = 4   # a feature of at most this many alternatives has each two of them told apart
# ... or of at most this many, for the settings engines are known to differ on value by value: the forced play after
# a failed throw has five other values since H27 (issue 32), each of which an engine may follow
RIVAL_LIMITS = {"throw.forced_play": 5}


def rival_label(a: Alternative, b: Alternative) -> str:
    """``throw.forced_play: smallest_component, not blocked_component``: what a rival position decides."""
    return f"{a.description}, not {b.description.split(': ', 1)[-1]}"


def rival_pairs(alts: Iterable[Alternative]) -> list[tuple[Alternative, Alternative]]:
    """Each two alternatives of one feature of 2 to :data:`RIVAL_VALUES` alternatives (:data:`RIVAL_LIMITS` for
    the features named there; a setting's or a reading's other values; a follow ladder's rung moves and a table's
    rows aside)."""
    by: dict[str, list[Alternative]] = {}
    for alt in alts:
        if alt.row is None and not alt.feature.startswith("follow "):
            by.setdefault(alt.feature, []).append(alt)
    return [(a, b) for feature, group in by.items() if 1 < len(group) <= RIVAL_LIMITS.get(feature, RIVAL_VALUES)
            for i, a in enumerate(group) for b in group[i + 1:] if a.changes != b.changes]   # twins: one ruleset


def rival_positions(rules: Rules, searches: list[Search], seed: int = 0) -> list[Decided]:
    """For each two other values of one feature (:func:`rival_pairs`) that none of their feature's
    distinguishing positions tells apart, a position that does, where one is found: the suite then tells an
    engine's value from each other value, not only from the spec's, so that the analysis names the value the
    engine follows without asking it more (``throw.forced_play: smallest_component`` and
    ``blocked_component`` differ only in rare failed throws)."""
    found: dict[str, list[Decided]] = {}
    for s in searches:
        if s.found is not None:
            found.setdefault(s.alternative.feature, []).append(s.found)
    out = []
    for a, b in rival_pairs(s.alternative for s in searches):
        if any(_apart(a.rules, b.rules, p) for p in found.get(a.feature, ())):
            continue
        search = distinguish(a.rules, b, seed, check_equivalence=False)   # a's answers against b's
        if search.found is not None:
            out.append(Decided(search.found.op, search.found.input, [rival_label(a, b)]))
    return out


def _apart(x: Rules, y: Rules, p: Decided) -> bool:
    one, other = answer(x, p.op, p.input), answer(y, p.op, p.input)
    return "error" not in one and "error" not in other and one != other
