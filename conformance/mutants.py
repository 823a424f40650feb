"""Mutant rulesets: small changes to a checked ruleset, to measure the suite's strength.

A mutant changes one thing the spec says — flips a reading, changes a setting,
a multiplier, a follow-ladder entry, a score-band edge — and is *killed* when
some case of the suite is judged differently by the reference interpreter
driven by the mutant. A mutant no case can kill is either a gap in the suite
or *equivalent*: no position of the ruleset can tell it apart (a setting about
triples in a two-deck ruleset). Equivalence is never assumed silently: each is
listed with the reason in :data:`EQUIVALENCE`.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from reference_impl.rules import Rules
from tractor_dsl import model as m
from tractor_dsl.checker import CheckedRuleset, check_text, load
from tractor_dsl.schema import PARAMS_BY_NAME
from tractor_dsl.types import BoolType, EnumType, Formula, IntType, OptionalType, TIERS

# Settings no operation of the protocol observes: the match clock, the
# tournament, the physical deal and seating. Mutating them cannot change any
# judgment, so they are not mutated (and say so in the report). Penalties are
# observed by the ``penalty`` operation.
UNOBSERVED_PREFIXES = ("match.", "tournament.", "deal.", "equipment.players", "bank.")
# Equipment sizes are mutated only together (a lone change is an impossible
# ruleset the checker refuses), so they are left out too.
UNMUTATED = {"equipment.decks", "equipment.hand_size", "equipment.kitty_size", "trump.equal_cards",
             "penalty.points_to", "declare.joker_trump", "bank.first_hand_undeclared",
             # read only by judgments no protocol operation reports: the threshold the score table restates,
             # and whether the banker exchanges the kitty
             "score.threshold", "kitty.exchange",
             # observed only by a declare request carrying earlier wrong declarations, which the generated
             # declare inputs do not draw yet (tests/interp/test_declaring.py tests it from 003:6.3)
             "declare.wrong_bars_partner"}


@dataclass
class Mutant:
    id: str
    clause: str          # the clause whose statement was changed
    setting: str         # the setting (or ladder / band / reading) changed
    description: str
    rules: Rules


def _with(checked: CheckedRuleset, **changes) -> CheckedRuleset:
    return dataclasses.replace(checked, **changes)


def _value_mutations(name: str, value: Any) -> Iterator[tuple[str, Any]]:
    param = PARAMS_BY_NAME[name]
    t = param.type
    inner = t.inner if isinstance(t, OptionalType) else t
    if isinstance(t, OptionalType) and value is not None:
        yield "none", None
    if isinstance(inner, (BoolType, EnumType)):
        yield from _typed_mutations(inner, value)
    elif isinstance(inner, IntType):
        if value is None:
            yield "1", 1
        else:
            for v in (value + 5, value - 5 if value >= 5 else value + 1):
                if (inner.low is None or v >= inner.low) and (inner.high is None or v <= inner.high):
                    yield str(v), v
    elif name == "trump.order":
        for i in range(len(value) - 1):
            swapped = list(value)
            swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
            yield f"swap {value[i]} and {value[i + 1]}", tuple(swapped)
    elif name == "tractor.junctions":
        for i, j in enumerate(value):
            yield f"drop junction {list(j)}", tuple(x for k, x in enumerate(value) if k != i)
        present = {frozenset(j) for j in value}
        for a, b in zip(TIERS, TIERS[1:]):
            if frozenset((a, b)) not in present:
                yield f"add junction [{a}, {b}]", tuple(value) + ((a, b),)
    elif name in ("kitty.multiplier", "kitty.banker_multiplier") and value is not None:
        tables = value if name == "kitty.multiplier" else {"": value}
        for cls, table in tables.items():
            for shape, formula in table.items():
                bumped = Formula("+", 0, formula, Formula("const", 1))
                new_table = dict(table)
                new_table[shape] = bumped
                new = dict(tables)
                new[cls] = new_table
                yield f"{cls + ' ' if cls else ''}{shape} {formula} -> {bumped}", new if cls else new_table
    elif isinstance(value, dict) and name.startswith("penalty."):
        for fieldname, fv in value.items():
            sub = PARAMS_BY_NAME[name].type.fields[fieldname]
            for label, nv in _typed_mutations(sub, fv):
                changed = dict(value)
                changed[fieldname] = nv
                yield f"{fieldname} -> {label}", changed
    elif name == "level.must_play":
        yield "no must-play level", () if value else None
    elif name == "trump.fixed_ranks":
        return
    elif name == "equipment.points":
        for rank, pts in value.items():
            changed = dict(value)
            changed[rank] = pts + 5
            yield f"{rank} counts {pts + 5}", changed


def _typed_mutations(t, value):
    if isinstance(t, BoolType):
        yield f"{not value}".lower(), not value
    elif isinstance(t, EnumType):
        for c in t.choices:
            if c != value:
                yield c, c
    elif isinstance(t, IntType):
        yield str(value + 10), value + 10


def mutants(checked: CheckedRuleset, sources: dict[str, str] | None = None) -> Iterator[Mutant]:
    """Every mutant of ``checked``: value changes, ladder changes, band shifts, reading flips."""
    n = 0

    def make(clause: str, setting: str, description: str, new: CheckedRuleset) -> Mutant:
        nonlocal n
        n += 1
        return Mutant(f"M{n:03d}", clause, setting, description, Rules(new))

    for name, value in sorted(checked.values.items()):
        if name.startswith(UNOBSERVED_PREFIXES) or name in UNMUTATED:
            continue
        for label, new_value in _value_mutations(name, value):
            if new_value is None and name == "level.must_play":
                continue
            values = dict(checked.values)
            values[name] = new_value
            yield make(checked.clause_id_of(name), name, f"{name}: {label}", _with(checked, values=values))
    for key, (shape, ladder, origin) in sorted(checked.ladders.items()):
        for i in range(len(ladder) - 1):
            swapped = list(ladder)
            swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
            ladders = dict(checked.ladders)
            ladders[key] = (shape, tuple(swapped), origin)
            yield make(origin.clause.id, f"follow {key}", f"follow {key}: swap entries {i + 1} and {i + 2}",
                       _with(checked, ladders=ladders))
        for i in range(len(ladder) - 1):
            dropped = tuple(e for k, e in enumerate(ladder) if k != i)
            ladders = dict(checked.ladders)
            ladders[key] = (shape, dropped, origin)
            yield make(origin.clause.id, f"follow {key}", f"follow {key}: drop entry {i + 1} ({ladder[i]})",
                       _with(checked, ladders=ladders))
    bands = sorted(checked.bands, key=lambda b: float("-inf") if b.low is None else b.low)
    clause = checked.band_origin.clause.id if checked.band_origin else "score"
    for i in range(len(bands) - 1):
        a, b = bands[i], bands[i + 1]
        for delta in (-5, 5):
            if a.low is not None and a.high + delta < a.low or b.high is not None and b.low + delta > b.high:
                continue
            new = list(bands)
            new[i] = dataclasses.replace(a, high=a.high + delta)
            new[i + 1] = dataclasses.replace(b, low=b.low + delta)
            yield make(clause, "score.bands", f"band edge {b.low} moved by {delta:+d}", _with(checked, bands=tuple(new)))
    for i, band in enumerate(bands):
        new = list(bands)
        new[i] = dataclasses.replace(band, levels=band.levels + 1)
        yield make(clause, "score.bands", f"band {_band(band)} gains {band.levels + 1}", _with(checked, bands=tuple(new)))
        if band.step is not None:
            new = list(bands)
            new[i] = dataclasses.replace(band, step=band.step * 2)
            yield make(clause, "score.bands", f"band {_band(band)} step {band.step * 2}",
                       _with(checked, bands=tuple(new)))
    yield from _reading_flips(checked, sources, make)


def _band(b: m.Band) -> str:
    return f"{'' if b.low is None else b.low}..{'' if b.high is None else b.high}"


def _reading_flips(checked: CheckedRuleset, sources, make) -> Iterator[Mutant]:
    if sources is None:
        sources = load().sources
    for clause in checked.clauses:
        chosen = checked.choices.get(clause.id)
        for reading in clause.readings:
            if reading.name == chosen or not reading.rules:
                continue
            touched = [r.path for r in reading.rules if isinstance(r, m.Setting)]
            if touched and all(p.startswith(UNOBSERVED_PREFIXES) or p in UNMUTATED for p in touched):
                continue
            text = (f'ruleset mutant_flip extends {checked.name} {{\n'
                    f'  override {clause.id} choose {reading.name} because "mutant"\n}}\n')
            lib = check_text(text, "<mutant>", extra=sources)
            flipped = lib.rulesets.get("mutant_flip")
            if flipped is None or lib.errors:
                continue
            yield make(clause.id, f"reading {clause.id}", f"{clause.id}: reading {chosen} -> {reading.name}",
                       flipped)


# --------------------------------------------------------------------------- equivalence

def _no_triples(r: Rules) -> bool:
    return r.decks < 3


EQUIVALENCE: list[tuple[Callable[[Mutant, Rules], bool], str]] = [
    (lambda mu, r: _no_triples(r) and any(w in mu.description for w in
                                          ("triple", "tractor.mixed", "element_over_length", "break_triple")),
     "with two decks there are no triples, so no position can tell these apart"),
    (lambda mu, r: mu.setting == "tractor.ace_two" and "2" not in r["trump.fixed_ranks"],
     "AA22 chains only where the 2s are fixed trump, which this ruleset does not have"),
    (lambda mu, r: mu.setting.startswith("declare.kitty") and "kitty_card" not in
     (r["declare.fallback_first_hand"], r["declare.fallback_later"]),
     "nobody ever names trump from the kitty in this ruleset"),
    (lambda mu, r: mu.setting.startswith("declare.smothered") and r["declare.fallback_later"] != "smothered",
     "no banker is ever smothered in this ruleset"),
    (lambda mu, r: mu.setting == "kitty.banker_multiplier" and r["kitty.capturers"] == "attackers",
     "only the attackers capture the kitty, so the banker's table is never read"),
    (lambda mu, r: mu.setting == "kitty.multiplier" and mu.description.startswith("kitty.multiplier: side")
     and r["kitty.trump_only"], "only trump captures the kitty, so the side-suit table is never read"),
    (lambda mu, r: mu.setting in ("kitty.multiplier", "kitty.banker_multiplier")
     and r["kitty.multi_unit"] == "largest_component"
     and " throw " in f" {mu.description} ", "the largest component of a throw is read, never the 'throw' entry"),
    (lambda mu, r: mu.setting == "declare.joker_trump", "the setting has a single value"),
    (lambda mu, r: mu.setting == "level.must_play" and all(
        r["level.ranks"].index(x) <= r["level.ranks"].index(r["level.start"]) for x in r["level.must_play"]),
     "every must-play level is at or below the start level, so no climb ever passes one"),
    (lambda mu, r: mu.setting == "declare.overcall_by" and not r["declare.joker_pairs"],
     "the two ways differ only between jokers and level cards, and jokers never declare in this ruleset"),
    (lambda mu, r: mu.setting == "declare.kitty_joker" and r["declare.kitty_skip_jokers"],
     "jokers turned from the kitty are always skipped, so what a joker would name is never read"),
    (lambda mu, r: mu.setting == "declare.kitty_skip_jokers" and r["declare.kitty_joker"] == "next_card",
     "not skipping a joker but taking the next card is the same as skipping it"),
    (lambda mu, r: mu.setting == "kitty.capturers" and r["kitty.banker_multiplier"] is None,
     "with no banker multiplier a banker-side capture moves nothing, as when only attackers capture"),
    (lambda mu, r: mu.setting == "kitty.trump_only" and all(
        f(n) == 0 for f in r["kitty.multiplier"]["side"].values() for n in range(1, 40)),
     "every side-suit multiplier is 0, so a side-suit capture moves nothing either way"),
    (lambda mu, r: mu.setting == "throw.check" and {r["throw.check"], mu.description.rsplit(" ", 1)[-1]}
     == {"singles", "smallest_vs_largest"},
     "a throw fails under both exactly when a card of it is below another hand's highest card of the suit, "
     "and both block the same cards"),
    (lambda mu, r: mu.setting == "tractor.junctions" and mu.description.startswith("tractor.junctions: add")
     and any(t not in r["trump.order"] for t in mu.description.split("[", 1)[1].rstrip("]").split(", ")),
     "the junction names a tier this ruleset's trump order does not have"),
    (lambda mu, r: mu.setting in ("tractor.junctions", "reading tractor.junctions")
     and r["tractor.adjacency"] == "face_rank" and mu.rules["tractor.adjacency"] == "face_rank"
     and _joker_junction(r) == _joker_junction(mu.rules),
     "with face-rank adjacency only the joker junction is read, and it is unchanged"),
    (lambda mu, r: mu.setting == "score.bands" and r["score.cap"] is not None and _cap_binds(mu, r),
     "the band already gains the capped number of levels, so more stays capped"),
    (lambda mu, r: mu.setting == "declare.after_overcall" and not r["declare.joker_pairs"]
     and mu.description.endswith("jokers_only") is False, "no joker declarations exist"),
    (lambda mu, r: mu.setting in ("penalty.revoke", "penalty.wrong_count", "penalty.played_count",
                                  "penalty.signals") and "points_per_card" in mu.description
     and r[mu.setting]["ends_hand"] and r["penalty.several"] == "first_decides",
     "the fault ends the hand, and a hand-ending fault voids every point of the hand, its own included"),
    (lambda mu, r: mu.setting == "penalty.several" and not _ends_a_hand(r),
     "no fault of this ruleset ends the hand, and the two ways differ only when one does"),
    (lambda mu, r: mu.setting == "penalty.wrong_kitty_cap"
     and r["penalty.wrong_kitty"] != "attackers_take_stage_by_points",
     "the wrong-kitty consequence does not count levels by points, so its cap is never read"),
]


def _ends_a_hand(r: Rules) -> bool:
    from reference_impl.penalties import RECORDS
    return any((r.checked.values.get(s) or {}).get("ends_hand") for s in RECORDS.values())


def _joker_junction(r: Rules) -> bool:
    return any(set(j) == {"big_joker", "small_joker"} for j in r["tractor.junctions"])


def _cap_binds(mutant: Mutant, r: Rules) -> bool:
    import re
    desc = mutant.description
    m_ = re.match(r"band (-?\d*)\.\.(-?\d*) (gains (\d+)|step (\d+))", desc)
    if not m_:
        return False
    low = int(m_.group(1)) if m_.group(1) else None
    band = next(b for b in r.bands if b.low == low)
    return band.levels >= r["score.cap"]


def _first_entry(ladder, runs, counts) -> int | None:
    from tractor_dsl.patterns import can_form
    for i, entry in enumerate(ladder):
        if can_form(entry, runs, counts):
            return i
    return None


def ladder_equivalent(original: list, mutated: list, lead_cards: int) -> bool:
    """Whether two follow ladders require the same entry of every holding.

    Holdings are enumerated over an abstract suit: four adjacent positions and
    three isolated ones, 0-3 copies each, with more cards than the lead (with
    fewer or as many the follower plays them all and no ladder is read).
    """
    from itertools import product
    ids = list(range(7))
    runs = [[[0], [1], [2], [3]], [[4]], [[5]], [[6]]]
    for counts in product(range(4), repeat=7):
        total = sum(counts)
        if not lead_cards < total <= lead_cards + 3:
            continue
        held = {i: c for i, c in zip(ids, counts) if c}
        a, b = _first_entry(original, runs, held), _first_entry(mutated, runs, held)
        if (original[a] if a is not None else None) != (mutated[b] if b is not None else None):
            return False
    return True


def equivalence_reason(mutant: Mutant, original: Rules) -> str | None:
    if mutant.setting.startswith("follow ") and not mutant.setting.startswith("follow."):
        for unit, ladder in original.ladders.items():
            changed = mutant.rules.ladders.get(unit)
            if changed is not None and changed != ladder:
                if ladder_equivalent(ladder, changed, unit[0] * unit[1]):
                    return ("no holding of the suit makes the changed entries decide differently: wherever one "
                            "of them is the first the follower can supply, so is the same entry in the other order")
                return None
    for test, reason in EQUIVALENCE:
        try:
            if test(mutant, original):
                return reason
        except KeyError:
            continue
    return None


# --------------------------------------------------------------------------- running the suite

@dataclass
class Outcome:
    mutant: Mutant
    killed_by: str | None      # the id of the first case judged differently
    equivalent: str | None     # the reason, when no position can tell the mutant apart
    detail: str = ""


def _answer(rules: Rules, case: dict) -> Any:
    from .engine import HANDLERS
    from .protocol import COMPARED
    try:
        result, _ = HANDLERS[case["op"]](rules, case["input"])
    except Exception as e:  # a mutant may make a position impossible: that is a difference too
        return {"error": f"{e.__class__.__name__}: {e}"}
    return {k: result[k] for k in COMPARED[case["op"]] if k in result}


# Which operations can observe a change to a setting (by prefix); the others are not asked.
OBSERVERS = (
    ("score.", ("result",)), ("level.", ("advance",)), ("declare.wrong", ("declare", "penalty")),
    ("declare.", ("declare", "undeclared")), ("penalty.", ("penalty",)), ("throw.penalty", ("lead", "penalty")),
    ("kitty.", ("kitty",)), ("follow.", ("follow",)), ("throw.", ("lead",)), ("ruff.", ("winner",)),
    ("compare.", ("winner", "kitty")), ("equipment.points", ("winner", "kitty", "result")),
    ("tractor.", ("classify", "lead", "follow", "winner", "kitty")),
    ("trump.", ("classify", "lead", "follow", "winner", "kitty", "declare", "undeclared")),
    ("reading ", None), ("band", ("result",)),
)


def observers(mutant: Mutant) -> tuple[str, ...] | None:
    """The operations that can tell ``mutant`` apart (None: all of them)."""
    key = mutant.setting
    if key.startswith("reading "):
        return None
    if key.startswith("follow "):
        return ("follow",)
    for prefix, ops in OBSERVERS:
        if key.startswith(prefix):
            return ops
    return None


def run_mutants(checked: CheckedRuleset, cases: list[dict], original: Rules,
                progress: Callable[[int, int], None] | None = None, profile: str = "mutation",
                seed: int = 0) -> list[Outcome]:
    """Judge the suite under every mutant.

    First the seeded cases (fast, in-process); a mutant they do not kill then
    faces the generated Hypothesis suite (:mod:`conformance.suite`) on the
    operations that can observe it. A mutant is killed by the first case (or
    generated position) it answers differently.
    """
    from .suite import InProcessEngine, check_operation
    ordered = sorted(cases, key=lambda c: c["op"] == "hand")  # whole hands are slowest: last
    all_mutants = list(mutants(checked))
    outcomes = []
    for i, mutant in enumerate(all_mutants):
        killer, detail = None, ""
        ops = observers(mutant)
        for case in ordered:
            if ops is not None and case["op"] not in ops:
                continue
            got = _answer(mutant.rules, case)
            if got != case["expected"]:
                killer = case["id"]
                detail = f"expected {case['expected']}, mutant answers {got}"
                break
        if killer is None:
            engine = InProcessEngine(mutant.rules, mutant.id)
            from .protocol import OPERATIONS
            for op in ops or [o for o in OPERATIONS if o != "hand"]:
                found = check_operation(engine, checked.name, op, profile, seed)
                if found.disagreement is not None:
                    d = found.disagreement
                    killer = f"generated {op}"
                    detail = "; ".join(d.differences)
                    break
        reason = None if killer else equivalence_reason(mutant, original)
        outcomes.append(Outcome(mutant, killer, reason, detail))
        if progress:
            progress(i + 1, len(all_mutants))
    return outcomes
