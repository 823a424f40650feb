"""What else the spec could have said: the nearby alternatives of every decision of a ruleset.

An :class:`Alternative` changes one feature of a checked ruleset — a
setting, a follow ladder, the score table, a reading — the way an engine
that read the rules differently would: a flipped switch, another value of an
enum, a follow ladder with a rung moved, dropped or swapped, a score band
edge moved, a kitty multiplier read as ×2 per card or 2^cards, another
junction set, the other reading of an interpreted clause. The same list is

* what the seeded suite is built to decide (:mod:`conformance.generation.decisions`):
  a position that tells each alternative from the spec, unless no position
  can (:mod:`conformance.generation.equivalence`);
* the mutants ``tractor mutate`` measures every stage of the suite by;
* the candidate explanations of an engine's failures (findings) and of its
  fingerprint.

Every alternative names the clause it changes, the operations that can
observe it and, where the change is local, the scenarios of
:mod:`conformance.generation.positions` aimed at it.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, Iterator

from reference_impl.following import derived_ladder
from reference_impl.rules import Rules
from tractor_dsl import model as m
from tractor_dsl.schema import PARAMS_BY_NAME
from tractor_dsl.types import TIERS, BoolType, EnumType, Formula, IntType, OptionalType, RecordType

from conformance.generation.features import changed, reading_changes
from conformance.generation.positions.scenario import Scenario, unit_text

# Settings no operation of the protocol observes: the clock, the tournament, the
# physical deal and seating. Changing them cannot change any judgment an engine
# is asked for, so they have no alternatives here. (Penalties are observed by
# the ``penalty`` operation.) The bank's succession is observed by ``hand``'s
# next_banker_seat since issue 32: its alternatives come last (:func:`_bank_succession`),
# so that the ids, and the positions searched, of the others stay as they were.
UNOBSERVED_PREFIXES = ("match.", "tournament.", "deal.", "equipment.players", "bank.")
# Equipment sizes change only together (a lone change is an impossible ruleset);
# the others are read by no judgment the protocol reports.
UNVARIED = {"equipment.decks", "equipment.hand_size", "equipment.kitty_size", "trump.equal_cards",
            "penalty.points_to", "declare.joker_trump", "bank.first_hand_undeclared",
            "score.threshold", "kitty.exchange"}

# Which operations can observe a change to a feature (by prefix; first match wins).
OBSERVERS: tuple[tuple[str, tuple[str, ...] | None], ...] = (
    ("follow ", ("follow",)), ("bank.", ("hand",)), ("score.", ("result",)), ("band", ("result",)), ("level.", ("advance",)),
    ("declare.wrong", ("declare", "penalty")), ("declare.", ("declare", "undeclared")),
    ("penalty.", ("penalty",)), ("throw.penalty", ("lead", "penalty")), ("throw.late", ("penalty",)),
    ("throw.split", ("classify", "lead", "follow", "winner", "kitty")), ("throw.wins_trick", ("winner", "kitty")),
    ("kitty.", ("kitty",)), ("follow.", ("follow",)),
    ("throw.", ("lead",)), ("ruff.", ("winner",)), ("compare.", ("winner", "kitty")),
    ("equipment.points", ("winner", "kitty")),
    ("tractor.", ("classify", "lead", "follow", "winner", "kitty")),
    ("trump.", ("classify", "lead", "follow", "winner", "kitty", "declare", "undeclared")),
)
# Settings that state one rule twice: a change to the first changes the second with it (the interpreter
# refuses a ruleset where they disagree), and the second has no alternatives of its own.
COUPLED = {"declare.first_hand_banker": ("declare.overcall_moves_bank",
                                         {"last_declarer": "first_hand", "first_declarer": "never"})}
COUPLED_WITH = {other for other, _ in COUPLED.values()}
ALL_OPS = ("classify", "lead", "follow", "winner", "kitty", "result", "advance", "declare", "undeclared", "penalty")


@dataclass
class Alternative:
    """One nearby alternative of a ruleset: ``feature`` changed as ``changes`` says.

    ``changes`` maps features to values as :func:`conformance.generation.features.changed`
    takes them. A change to one row of a kitty multiplier table is kept as a
    row (``row``), so that alternatives of several rows compose.
    """

    id: str
    clause: str                      # the clause whose statement is changed
    feature: str                     # a setting, "follow LEAD", "score.bands" or "reading CLAUSE"
    description: str
    changes: dict[str, Any] = field(repr=False)
    base: Rules = field(repr=False)
    observers: tuple[str, ...] = ALL_OPS
    targets: tuple[Scenario, ...] = ()   # scenarios aimed at it (empty: every scenario of the observers)
    row: tuple | None = None             # (table setting, class or None, shape, formula) for a multiplier row

    @cached_property
    def rules(self) -> Rules:
        out = self.on(self.base)
        out.name = f"{self.base.name}~{self.id}"
        return out

    def __getstate__(self) -> dict:
        """Pickled (to a worker) without its cached rules, which the worker rebuilds from ``base`` if asked."""
        state = dict(self.__dict__)
        state.pop("rules", None)
        return state

    def on(self, rules: Rules) -> Rules:
        """``rules`` with this alternative applied (to another base, e.g. one with other findings applied)."""
        if self.row is None:
            return changed(rules, self.changes, self.clause)
        name, cls, shape, formula = self.row
        table = rules[name]
        if table is None:
            return changed(rules, self.changes)
        if cls is None:
            return changed(rules, {name: {**table, shape: formula}})
        return changed(rules, {name: {**table, cls: {**table[cls], shape: formula}}})


def observers_of(feature: str) -> tuple[str, ...]:
    for prefix, ops in OBSERVERS:
        if feature.startswith(prefix):
            return ops or ALL_OPS
    return ALL_OPS


# --------------------------------------------------------------------------- values of settings

def _formula(text: str) -> Formula:
    """A formula in the rule language's own syntax (``2 ^ cards``)."""
    from tractor_dsl.parser import parse
    rs = parse(f"ruleset f {{ clause c {{ set x.y = {text} }} }}")
    return PARAMS_BY_NAME["kitty.multiplier"].type.fields["trump"].fields["single"].convert(
        rs.clauses[0].rules[0].value)


FORMULAS = ("cards", "2 * cards", "2 ^ cards", "3 * cards")  # per card, ×2 per card, doubling, ×3 per card


def setting_values(name: str, value: Any, values: dict | None = None) -> Iterator[tuple[str, Any]]:
    """(label, value) for each alternative value of the setting ``name`` (``values``: the ruleset's settings)."""
    t = PARAMS_BY_NAME[name].type
    inner = t.inner if isinstance(t, OptionalType) else t
    if isinstance(t, OptionalType) and value is not None:
        yield "none", None
    if isinstance(inner, BoolType):
        yield f"{not value}".lower(), not value
    elif isinstance(inner, EnumType):
        for c in inner.choices:
            if c != value:
                yield c, c
    elif isinstance(inner, IntType):
        high = inner.high
        if name == "declare.kitty_card" and values:  # a card of the kitty
            high = values.get("equipment.kitty_size", high)
        if value is None:
            yield "1", 1
        else:
            for v in (value + 5, value - 5 if value >= 5 else value + 1):
                if (inner.low is None or v >= inner.low) and (high is None or v <= high):
                    yield str(v), v
            if name == "declare.kitty_card" and value + 1 <= (high or value + 1):
                yield str(value + 1), value + 1
    elif name == "trump.order":
        for i in range(len(value) - 1):
            swapped = list(value)
            swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
            yield f"swap {value[i]} and {value[i + 1]}", tuple(swapped)
    elif name == "tractor.junctions":
        yield from _junction_sets(value, tuple((values or {}).get("trump.order", TIERS)))
    elif name in ("kitty.multiplier", "kitty.banker_multiplier") and value is not None:
        hand = (values or {}).get("equipment.hand_size", PARAMS_BY_NAME["equipment.hand_size"].type.high)
        yield from _multiplier_rows(name, value, hand)
    elif name == "trump.off_suit_order" and value is not None:   # H32 stated: equal again, or the other way up
        yield "off-suit trumps of one rank equal, the first played wins", None
        yield "the suits the other way up", tuple(reversed(value))
    elif name == "trump.fixed_ranks":
        yield ("no fixed trump ranks", ()) if value else ("2s always trump", ("2",))
        if len(value) > 1:  # the ranks are stated highest first
            yield "fixed trump ranks in the reverse order", tuple(reversed(value))
    elif name == "level.must_play":
        for i, level in enumerate(value):
            yield f"{level} may be skipped", tuple(x for k, x in enumerate(value) if k != i)
    elif name == "level.must_defend":
        for i, level in enumerate(value):
            yield f"{level} need not be defended", tuple(x for k, x in enumerate(value) if k != i)
        yield "no level need be defended", ()
    elif isinstance(inner, RecordType) and name.startswith("penalty.") and isinstance(value, dict):
        for field_name, fv in value.items():  # each field of a fault record
            sub = inner.fields.get(field_name)
            sub = sub.inner if isinstance(sub, OptionalType) else sub
            options = []
            if isinstance(sub, BoolType):
                options = [(str(not fv).lower(), not fv)]
            elif isinstance(sub, EnumType):
                from reference_impl.penalties import BOTH_SIDES_CONSEQUENCES
                allowed = BOTH_SIDES_CONSEQUENCES if field_name == "both_sides" else sub.choices
                options = [(c, c) for c in sub.choices if c != fv and c in allowed]
            elif isinstance(sub, IntType) and fv is not None:
                options = [(str(fv + 10), fv + 10)]
            for label, nv in options:
                yield f"{field_name} -> {label}", {**value, field_name: nv}
    elif name == "equipment.points":
        for rank, pts in value.items():
            changed_points = dict(value)
            changed_points[rank] = pts + 5
            yield f"{rank} counts {pts + 5}", changed_points


def _junction_sets(value, order: tuple[str, ...]) -> Iterator[tuple[str, Any]]:
    """Each junction dropped; each pair of neighbouring tiers of the trump order added; none; all."""
    present = {frozenset(j) for j in value}
    for i, j in enumerate(value):
        yield f"drop junction [{', '.join(j)}]", tuple(x for k, x in enumerate(value) if k != i)
    neighbours = tuple(zip(order, order[1:]))
    for a, b in neighbours:
        if frozenset((a, b)) not in present:
            yield f"add junction [{a}, {b}]", tuple(value) + ((a, b),)
    if value:
        yield "no junctions", ()
    if any(frozenset(j) not in present for j in neighbours) and len(neighbours) > 1:
        yield "every neighbouring tier chains", neighbours


def _multiplier_rows(name: str, value, hand: int) -> Iterator[tuple[str, Any]]:
    """(label, (new table, row)) for each alternative formula of each row of a kitty multiplier table that
    stays within the checker's bounds for hands of ``hand`` cards (E211: a part of it; E212: a value above
    2^40): ``2 ^ cards`` exceeds them for the tractors of a four-deck hand, and the interpreter refuses to
    compute it. The banker's sign (``0 - (...)``, a capture adding instead of deducting) is negative by
    design and kept: the interpreter computes it."""
    from tractor_dsl.checker import multiplier_counts, multiplier_problem
    tables = value if name == "kitty.multiplier" else {"": value}
    for cls, table in tables.items():
        counts = multiplier_counts(table, hand)
        for shape, formula in table.items():
            options = [(f"{formula} + 1", Formula("+", 0, formula, Formula("const", 1)))]
            options += [(f, _formula(f)) for f in FORMULAS]
            if cls == "":  # the banker's sign: a banker capture adding instead of deducting
                options.append((f"0 - ({formula})", Formula("-", 0, Formula("const", 0), formula)))
            fixed = {"single": 1, "pair": 2, "triple": 3}.get(shape)
            for label, new in options:
                if str(new) == str(formula) or (fixed is not None and new(fixed) == formula(fixed)):
                    continue  # the same multiplier for the only card count the row is read at
                problem = multiplier_problem(new, counts[shape]) if shape in counts else None
                if problem is not None and not (isinstance(problem[1], int) and problem[1] < 0):
                    continue  # beyond the bounds for this ruleset's hands (a banker's sign may turn negative)
                new_table = dict(table)
                new_table[shape] = new
                new_tables = dict(tables)
                new_tables[cls] = new_table
                where = f"{cls} " if cls else "banker "
                yield (f"{where}{shape} {formula} -> {label}",
                       _Row(new_tables if cls else new_table, (name, cls or None, shape, new)))


@dataclass(frozen=True)
class _Row:
    table: Any
    row: tuple


# --------------------------------------------------------------------------- ladders

def units_pattern(units) -> m.Pattern:
    """Units as a pattern of the rule language (``tractor(pair, 2) + 2 single``)."""
    from collections import Counter
    terms = []
    for (size, length), n in sorted(Counter(units).items(), key=lambda kv: (-kv[0][1], -kv[0][0])):
        terms.append(m.Term(n, unit_shape((size, length))))
    return m.Pattern(tuple(terms))


def unit_shape(unit) -> m.Shape:
    size, length = unit
    name = {1: "single", 2: "pair", 3: "triple"}[size]
    return m.Shape("tractor", name, length) if length > 1 else m.Shape(name)


def ladders_of(rules: Rules, derived_up_to: int = 8) -> dict[tuple[int, int], tuple[tuple, ...]]:
    """Every follow ladder a position can decide: the listed ones, and the derived ladders of unlisted
    units of at most ``derived_up_to`` cards."""
    from conformance.generation.positions.follow import ladder_units
    out = {}
    for unit in ladder_units(rules):
        if unit in rules.ladders:
            out[unit] = tuple(tuple(e) for e in rules.ladders[unit])
        elif unit[0] * unit[1] <= derived_up_to:
            out[unit] = derived_ladder(unit, rules["follow.unlisted"] == "component_ladders")
    return out


def _ladder_changes(unit, rungs) -> Iterator[tuple[str, tuple, set[int]]]:
    """(label, rungs, rungs whose order changes) for every move of one rung to another place, and every drop
    but the last rung's."""
    n = len(rungs)
    seen = {tuple(rungs)}
    for i in range(n):
        rest = [e for k, e in enumerate(rungs) if k != i]
        for q in range(n):
            moved = tuple(rest[:q] + [rungs[i]] + rest[q:])
            if moved not in seen:
                seen.add(moved)
                yield (f"rung {i + 1} ({units_pattern(rungs[i])}) moved to place {q + 1}", moved,
                       set(range(min(i, q), max(i, q) + 1)))
    for i in range(n - 1):
        yield (f"rung {i + 1} ({units_pattern(rungs[i])}) dropped", tuple(e for k, e in enumerate(rungs) if k != i),
               set(range(i, n)))


def _adjacent_changes(unit, rungs) -> Iterator[tuple[str, tuple, set[int]]]:
    for i in range(len(rungs) - 1):
        swapped = list(rungs)
        swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
        yield f"rungs {i + 1} and {i + 2} swapped", tuple(swapped), {i, i + 1}
        yield (f"rung {i + 1} ({units_pattern(rungs[i])}) dropped", tuple(e for k, e in enumerate(rungs) if k != i),
               set(range(i, len(rungs))))


def follow_targets(unit, touched: set[int]) -> Callable[[Scenario], bool]:
    """The follow scenarios of ``unit`` whose rungs are among those a ladder change reorders."""
    def aimed(sc: Scenario) -> bool:
        if sc.op != "follow" or sc.kind not in ("rung", "rungs") or sc.args[0] != unit:
            return False
        if sc.kind == "rungs":
            return sc.args[1] in touched and sc.args[2] in touched
        return sc.args[1] in touched and sc.args[2] in ("later", "meet")
    return aimed


# --------------------------------------------------------------------------- all alternatives

def alternatives(rules: Rules) -> list[Alternative]:
    """Every alternative of ``rules``, in a stable order with stable ids."""
    from conformance.generation.positions import scenarios as all_scenarios
    checked = rules.checked
    out: list[Alternative] = []

    def add(clause: str, feature: str, description: str, changes: dict, targets=None,
            obs: tuple[str, ...] | None = None, row: tuple | None = None):
        obs = obs or observers_of(feature)
        if isinstance(targets, tuple):  # scenarios of their own, aimed at this alternative alone
            aimed = targets
        else:
            pool = tuple(sc for op in obs for sc in all_scenarios(rules, op))
            aimed = tuple(sc for sc in pool if targets(sc)) if targets else ()
        out.append(Alternative(f"A{len(out) + 1:03d}", clause, feature, description, changes, rules, obs, aimed,
                               row))

    later: list[tuple[str, str, Any]] = []   # values the language gained after the ids were fixed: added last
    for name, value in sorted(checked.values.items()):
        if name.startswith(UNOBSERVED_PREFIXES) or name in UNVARIED or name in COUPLED_WITH:
            continue
        for label, new in setting_values(name, value, checked.values):
            if new in LAST_VALUES.get(name, ()):   # offered by _later_hand_rules, after every other
                continue
            if new in LATER_VALUES.get(name, ()):
                later.append((name, label, new))
                continue
            row = None
            if isinstance(new, _Row):
                new, row = new.table, new.row
            changes = {name: new}
            if name in COUPLED:  # the setting stated twice: the other statement changes with it
                other, follows = COUPLED[name]
                changes[other] = follows[new]
            add(checked.clause_id_of(name), name, f"{name}: {label}", changes,
                _kitty_targets(name, label) if name.startswith("kitty.") else _AIMED.get(name), row=row)
    listed = set(rules.ladders)
    for unit, rungs in ladders_of(rules).items():
        key = f"follow {unit_text(unit)}"
        clause = rules.ladder_clause[unit] if unit in listed else rules.clause("follow.unlisted")
        label = "" if unit in listed else " (derived)"
        changes = _ladder_changes if unit in listed else _adjacent_changes
        for what, new_rungs, touched in changes(unit, rungs):
            ladder = (unit_shape(unit), tuple(units_pattern(e) for e in new_rungs))
            add(clause, key, f"follow {unit_text(unit)}{label}: {what}", {key: ladder}, follow_targets(unit, touched))
    out.extend(_band_alternatives(rules, add))
    house = _reading_flips(rules, add)
    _unstated_options(rules, add)
    for flip in house:
        add(*flip[:5], obs=flip[5])
    for name, label, new in later:
        add(checked.clause_id_of(name), name, f"{name}: {label}", {name: new}, _AIMED.get(name))
    _later_house_rules(rules, add)
    _later_hand_rules(rules, add)
    _bank_succession(rules, add)
    _engine_rules(rules, add)
    return out


def _later_house_rules(rules: Rules, add) -> None:
    """House rules real engines follow that the analysis and the fingerprint must be able to name (issue 31,
    point 5, and issue 32), added after every other alternative so that no id moves: a failed throw that costs
    nothing (V42, where the ruleset charges one), no throw of trumps (H04, where the ruleset allows one) and a
    throw that wins its trick once accepted (H02, where the ruleset lets it be ruffed)."""
    values = rules.checked.values
    if not values["throw.allowed"]:
        return
    if values["throw.penalty_points"] != 0:
        add(rules.clause("throw.penalty_points"), "throw.penalty_points",
            "throw.penalty_points: 0, no penalty for a failed throw (V42)", {"throw.penalty_points": 0})
    if "throw.wins_trick" not in values:
        add(rules.clause("throw.allowed"), "throw.wins_trick",
            "throw.wins_trick: a throw once accepted wins its trick, no ruff takes it (H02)",
            {"throw.wins_trick": True}, _winner_kinds("ruffs", "counts_ruff"), obs=("winner", "kitty"))
    if "throw.penalty_by_blocked" not in values and values["throw.check"] == "components_unbeatable" \
            and values["throw.penalty_points"]:
        p = values["throw.penalty_points"]
        table = {"single": p, "pair": 2 * p, "tractor": 4 * p, **({"triple": 3 * p} if rules.decks >= 3 else {})}
        add(rules.clause("throw.penalty_points"), "throw.penalty_by_blocked",
            f"throw.penalty_by_blocked: {p} a card for a single blocked, {2 * p} a pair, {4 * p} a tractor (H05)",
            {"throw.penalty_by_blocked": table}, obs=("lead",))   # the penalty operation would need 'blocked'
    if "throw.banned_in" not in values:
        add(rules.clause("throw.allowed"), "throw.banned_in", "throw.banned_in: [trump], no throw of trumps (H04)",
            {"throw.banned_in": ("trump",)})
    _later_declaring_rules(rules, add)


def _later_declaring_rules(rules: Rules, add) -> None:
    """The declaring house rules of issue 32, where the ruleset does not state them: no overcall of one's partner
    (H06); where jokers declare, as many jokers as there are decks (H07, with three decks or more: with two a
    pair is every copy) and jokers only after the burial (H08). Seen by ``declare``."""
    values = rules.checked.values
    if "declare.overcall_partner" not in values:
        add(rules.clause("declare.self_overcall"), "declare.overcall_partner",
            "declare.overcall_partner: false, no overcall of one's partner (H06)",
            {"declare.overcall_partner": False}, obs=("declare",))
    if values["declare.joker_pairs"] and rules.decks >= 3 and "declare.joker_count" not in values:
        add(rules.clause("declare.joker_pairs"), "declare.joker_count",
            f"declare.joker_count: all_decks, a joker declaration shows all {rules.decks} copies (H07)",
            {"declare.joker_count": "all_decks"}, obs=("declare",))
    elif not values["declare.joker_pairs"] and rules.decks >= 3 and "declare.joker_count" not in values:
        # where jokers never declare (r003), H07 as its file states it over the ruleset: every copy, no trump
        add(rules.clause("declare.joker_pairs"), "declare.joker_count",
            f"declare.joker_count: all_decks, jokers declare no trump showing all {rules.decks} copies (H07)",
            {"declare.joker_pairs": True, "declare.joker_trump": "no_trump", "declare.joker_count": "all_decks"},
            obs=("declare",))
    if values["declare.joker_pairs"] and "declare.jokers_when" not in values:
        add(rules.clause("declare.joker_pairs"), "declare.jokers_when",
            "declare.jokers_when: after_burial, jokers declare only once the kitty is buried (H08)",
            {"declare.jokers_when": "after_burial"}, obs=("declare",))


def _later_hand_rules(rules: Rules, add) -> None:
    """The house rules of issue 32 on whole hands, the deal and the kitty, where the ruleset does not state them,
    added after the other later ones so that no id moves: the jack rule by shape and score (H23: at J a single J of
    the attackers winning the last trick sends the banker's team back to 7, a pair of J back to 3, with 80 points
    or more; seen by ``hand``, aimed at hands played at J), a redeal for a weak hand (H24: at most 15 points or at
    most 3 cards trump in every suit; seen by ``deal``, aimed at hands that weak but not empty, which V82 would
    not deal again) and the kitty doubled for every pair of the winning unit (H25: x2 x 2^pairs; seen by
    ``kitty``, aimed at its pair and tractor captures), and after a failed throw the blocked component with the
    fewest cards (H27, seen by ``lead``); where 2, 5, 10 and K are levels, those four to be defended (H26, seen by
    ``advance``)."""
    from conformance.generation.positions.dealing import weak_scenarios
    from conformance.generation.positions.hands import hands_at
    from conformance.generation.positions.suits import levels
    values = rules.checked.values
    if "level.knock_back" not in values and "J" in levels(rules) and "7" in levels(rules) and "3" in levels(rules):
        add(rules.clause("level.ranks"), "level.knock_back",
            "level.knock_back: at J a single J back to 7, a pair back to 3, with 80 points (H23)",
            {"level.knock_back": {"level": "J", "to": "7", "pair": "3", "min_points": 80}}, hands_at("J"),
            obs=("hand",))
    if "deal.redeal_if" not in values and "deal.redeal_at_most" not in values:
        add(rules.clause("deal.direction"), "deal.redeal_at_most",
            "deal.redeal_at_most: a redeal for a hand of at most 15 points or 3 cards trump in every suit (H24)",
            {"deal.redeal_if": ("no_points", "no_trumps"), "deal.redeal_at_most": {"points": 15, "trumps": 3}},
            weak_scenarios(rules), obs=("deal",))
    table = values.get("kitty.multiplier")
    if table is not None and "pairs" not in repr(table):
        doubling = _formula("2 * 2 ^ pairs")
        add(rules.clause("kitty.multiplier"), "kitty.multiplier",
            "kitty.multiplier: every row 2 * 2 ^ pairs, doubled for every pair of the winning unit (H25)",
            {"kitty.multiplier": {cls: {shape: doubling for shape in rows} for cls, rows in table.items()}},
            _any_of(*(_kitty_targets("kitty.multiplier", f"{cls} {shape}") for cls in table for shape in ("pair", "tractor"))),
            obs=("kitty",))
    ranks = tuple(values["level.ranks"])
    gates = ("2", "5", "10", "K")
    if "level.must_defend" not in values and all(g in ranks for g in gates):
        # H26: attackers at a gate taking the bank stay there; a climb from below stops at it
        aimed = tuple(Scenario("advance", "climb", (g, 1, False)) for g in gates) + tuple(
            Scenario("advance", "climb", (ranks[ranks.index(g) - 1], 2, True)) for g in gates if ranks.index(g) > 0)
        add(rules.clause("level.ranks"), "level.must_defend",
            "level.must_defend: 2, 5, 10 and K must be defended, won as banker to pass (H26)",
            {"level.must_defend": gates}, aimed, obs=("advance",))
    if values["throw.allowed"] and values["throw.forced_play"] != "blocked_fewest":
        add(rules.clause("throw.forced_play"), "throw.forced_play",
            "throw.forced_play: blocked_fewest, the blocked component with the fewest cards (H27)",
            {"throw.forced_play": "blocked_fewest"})


def _any_of(*aims: Callable[[Scenario], bool] | None) -> Callable[[Scenario], bool]:
    return lambda sc: any(aim(sc) for aim in aims if aim is not None)


# Values of settings the language gained after the alternatives' ids were fixed (issue 32): their alternatives
# come after every other, so that no id moves (a rival position is searched from an alternative's ruleset, named
# by its id) and the bundled rulesets' vectors keep every position they had.
LATER_VALUES: dict[str, tuple] = {
    "declare.fallback_first_hand": ("no_trump",),   # H01: nobody declaring, the hand has no trump suit
    "declare.fallback_later": ("no_trump",),
    "throw.forced_play": ("singles_first",),        # H03: after a failed throw, its singles first
}

# Values added later still (issue 32, H27; issue 31, H28, H30): offered after the later house rules (H27) or after
# every other alternative (H28, H30: :func:`_engine_rules`), so that no id above moves.
LAST_VALUES: dict[str, tuple] = {
    "throw.forced_play": ("blocked_fewest",),       # H27: the blocked component with the fewest cards
    "throw.check": ("unchecked",),                  # H28: offered by _engine_rules, after the bank's succession
    "compare.multi": ("every_component",),          # H30: offered by _engine_rules, after H29
    "declare.overcall_moves_bank": ("every_hand",),  # H31: offered by _engine_rules, after H30
    "follow.reason_order": ("pairs_first",),        # H38: offered by _engine_rules, last
}


def _engine_rules(rules: Rules, add) -> None:
    """Rules a real engine follows that no other alternative states (issue 31: tuolaji, code index id 41857568324),
    added after every other so that no id moves: a throw never judged at its lead (H28, ``throw.check =
    unchecked``: it stands as led, and is still played out as its trick; seen by ``lead``), where the ruleset
    allows throws and judges them; and the kitty counted at its face value, every row of the multiplier table
    read flat (H29: x1; seen by ``kitty``), where some row multiplies; last of all, after the catalogue's kitty
    tables (issue 31: rbtying/shengji's default ThrowEvaluationPolicy::All, and tuolaji's Trick._play_beats), a
    play of several components that beats the winning play only when each of its components beats the one of the
    same shape it is matched with (H30, ``compare.multi = every_component``), where the ruleset ranks such plays
    otherwise; after it (tuolaji's GameState._finalize_declaration), the bank bid for in every hand, the last
    declarer banking in later hands too (H31, ``declare.overcall_moves_bank = every_hand`` with
    ``declare.first_hand_banker = last_declarer``; seen by ``declare``), where the ruleset does not say so;
    after it (issue 31: tuolaji's TrumpSystem.trump_order), the off-suit level cards ranked by suit,
    spades, hearts, diamonds, clubs (H32, ``trump.off_suit_order``), where the level cards are trump and the ruleset
    makes them equal - seen by ``classify`` and ``winner`` (:data:`WHERE_CARDS_RANK`), aimed at pairs of level cards
    of several suits and at the card order's boundaries; last (issue 31: sunbin1998can/tractor-card-game-codex's
    GameEngine.finishRound), the kitty x2 per pair of a pair or tractor and a throw x2 (H33: its catalogue file's
    table with ``kitty.multi_unit = whole_play``; seen by ``kitty``), where the ruleset's table has the same classes
    of rows and reads otherwise; after it (tuolaji's GameState.declare_trump), a joker pair that wins the contest
    and leaves the overcalled suit trump (H34, ``declare.joker_trump = keep_suit``; seen by ``declare``), where
    jokers declare; last (sunbin1998can/tractor-card-game-codex's Throw.canBeatPart), a side-suit throw that fails
    when a hand void in its suit holds trumps of a component's shape (H35, ``throw.ruff_blocks``; seen by
    ``lead``), where throws are judged; last (the same engine's GameEngine.finishRound), the game won on reaching
    the last level (H36, ``level.end_on = reach``; seen by ``advance``), where it ends at a level not to be
    played; last (the same engine's Follow.buildExpectedInsufficient), a tractor not matched followed by a
    dictated fill, lowest first (H37, ``follow.fill = lowest_first``; seen by ``follow``), with two decks; last
    (tonyyunyang/80-fen-shengji's followError and abadcafe/tractor-game's illegal_follow_rejection), a follow with
    too few pairs refused for its pairs before the tractor it lacks is named (H38, ``follow.reason_order =
    pairs_first``; seen by ``follow``; cited to the clause stating follow.reason_order, in the bundled rulebooks
    follow.refusal), where the ruleset does not read so."""
    from conformance.generation.positions import scenarios as all_scenarios
    values = rules.checked.values
    if values["throw.allowed"] and values["throw.check"] != "unchecked":
        add(rules.clause("throw.check"), "throw.check",
            "throw.check: unchecked, a throw is never judged at its lead: it stands as led (H28)",
            {"throw.check": "unchecked"}, obs=("lead",))
    table = values.get("kitty.multiplier")
    if table is not None and any(str(f) != "1" for rows in table.values() for f in rows.values()):
        flat = _formula("1")
        add(rules.clause("kitty.multiplier"), "kitty.multiplier",
            "kitty.multiplier: every row 1, the kitty counts its face value (H29)",
            {"kitty.multiplier": {cls: {shape: flat for shape in rows} for cls, rows in table.items()}},
            _every_row(table), obs=("kitty",))
    _catalogue_tables(rules, add)
    if values["compare.multi"] != "every_component":
        add(rules.clause("compare.multi"), "compare.multi",
            "compare.multi: every_component, each component must beat the one of its shape (H30)",
            {"compare.multi": "every_component"}, _AIMED.get("compare.multi"))
    if values["declare.overcall_moves_bank"] != "every_hand":
        add(rules.clause("declare.overcall_moves_bank"), "declare.overcall_moves_bank",
            "declare.overcall_moves_bank: every_hand, the bank bid for in every hand, the last declarer banks (H31)",
            {"declare.overcall_moves_bank": "every_hand", "declare.first_hand_banker": "last_declarer"},
            obs=("declare",))
    order = values["trump.order"]
    if "trump.off_suit_order" not in values and {"trump_level", "off_level"} <= set(order):
        from conformance.generation.positions.shapes import OFF_LEVEL
        pool = (OFF_LEVEL,) + tuple(sc for op in WHERE_CARDS_RANK for sc in all_scenarios(rules, op)
                                    if _AIMED["trump.order"](sc))
        add(rules.clause("trump.order"), "trump.off_suit_order",
            "trump.off_suit_order: spades, hearts, diamonds, clubs, off-suit level cards ranked by suit (H32)",
            {"trump.off_suit_order": ("spades", "hearts", "diamonds", "clubs")}, pool, obs=WHERE_CARDS_RANK)
    if table is not None:
        from reference_impl.rules import rules_for
        h33 = rules_for("h33_kitty_lead_pairs").checked.values
        other = h33["kitty.multiplier"]
        if set(other) == set(table) and (repr(other) != repr(table) or values["kitty.multi_unit"] != "whole_play"):
            add(rules.clause("kitty.multiplier"), "kitty.multiplier",
                "kitty.multiplier: x2 per pair of a pair or tractor, a throw x2 (H33)",
                {"kitty.multiplier": other, "kitty.multi_unit": h33["kitty.multi_unit"]},
                _any_of(_every_row(table), _every_row(other)), obs=("kitty",))
    if values["declare.joker_pairs"] and values["declare.joker_trump"] != "keep_suit":
        add(rules.clause("declare.joker_trump"), "declare.joker_trump",
            "declare.joker_trump: keep_suit, a joker pair wins the contest and the suit it overcalls stays trump (H34)",
            {"declare.joker_trump": "keep_suit"}, obs=("declare",))
    if values["throw.allowed"] and values["throw.check"] != "unchecked" and "throw.ruff_blocks" not in values:
        add(rules.clause("throw.check"), "throw.ruff_blocks",
            "throw.ruff_blocks: true, a side-suit throw an opponent void in its suit could ruff fails (H35)",
            {"throw.ruff_blocks": True}, obs=("lead",))
    end = values["level.end"]
    if end is not None and "level.end_on" not in values and not values.get("level.wrap") and \
            end not in (*values["level.must_play"], *(values.get("level.must_defend") or ())):
        add(rules.clause("level.end"), "level.end_on",
            f"level.end_on: reach, a team reaching {end} wins the game, a gain beyond it capped (H36)",
            {"level.end_on": "reach"}, obs=("advance",))
    if rules.decks == 2 and "follow.fill" not in values:
        add(rules.clause("follow.break_triple_for_pair"), "follow.fill",
            "follow.fill: lowest_first, a tractor not matched is followed by the longest run of pairs, then the lowest "
            "pairs, then the lowest cards (H37)", {"follow.fill": "lowest_first"}, obs=("follow",))
    if values.get("follow.reason_order") != "pairs_first":
        add((*rules.clauses_of("follow.reason_order"), rules.ladder_clause.get((2, 2)) or rules.clause("follow.suit"))[0],
            "follow.reason_order",
            "follow.reason_order: pairs_first, a follow with too few pairs is refused as must_play_pair before a "
            "tractor it lacks is named (H38)", {"follow.reason_order": "pairs_first"}, obs=("follow",))


# Whole kitty tables of the catalogue, one alternative each (after H29, so that no id moves): an engine reading
# one of them differs from a ruleset in several rows at once, which one row's alternative names only in part
# (tonyyunyang/80-fen-shengji, src/rules.js, reads V47's: a finding of one side row and three clusters)
KITTY_TABLES = (("v47_kitty_twice_unit", "every row twice the cards of the winning unit, trump or not (V47)"),
                ("v48_kitty_powers_of_two", "every row 2 ^ the cards of the winning unit, trump or not (V48)"))


def _catalogue_tables(rules: Rules, add) -> None:
    """:data:`KITTY_TABLES` the ruleset does not read already, where its table has the same classes of rows."""
    from reference_impl.rules import rules_for
    table = rules.checked.values.get("kitty.multiplier")
    if table is None:
        return
    for name, what in KITTY_TABLES:
        other = rules_for(name).checked.values["kitty.multiplier"]
        if set(other) != set(table) or repr(other) == repr(table):
            continue
        add(rules.clause("kitty.multiplier"), "kitty.multiplier", f"kitty.multiplier: {what}",
            {"kitty.multiplier": other}, _every_row(table), obs=("kitty",))


def _every_row(table: dict) -> Callable[[Scenario], bool]:
    """The kitty scenarios aimed at any row of the multiplier ``table``: a whole table read otherwise."""
    return _any_of(*(_kitty_targets("kitty.multiplier", f"{cls} {shape}") for cls, rows in table.items()
                     for shape in rows))


def _bank_succession(rules: Rules, add) -> None:
    """The other values of ``bank.succession`` (the banker keeping the bank himself, r000's own reading
    same_player), seen by ``hand``'s next_banker_seat."""
    from conformance.generation.positions.hands import hand_scenarios
    later = tuple(sc for sc in hand_scenarios(rules) if sc.args == (False,))   # whole hands are searched only
    value = rules.checked.values.get("bank.succession")                         # where aimed (decisions.SEARCH_OPS)
    for label, new in setting_values("bank.succession", value, rules.checked.values):
        add(rules.clause("bank.succession"), "bank.succession", f"bank.succession: {label}",
            {"bank.succession": new}, later, obs=("hand",))


# Optional settings a ruleset may leave unset (the house rules of VARIANTS.md they state), as an engine that
# follows that house rule would set them: (setting, label, changes, clause whose statement it would join).
UNSTATED_OPTIONS = (
    ("declare.suit_precedence", "suits ranked spades, hearts, diamonds, clubs at an equal count (V75)",
     {"declare.suit_precedence": ("spades", "hearts", "diamonds", "clubs")}, "declare.overcall_by", None),
    ("declare.retake", "an overcalled declarer retakes trump with an equal count (V74)",
     {"declare.retake": True}, "declare.reinforce", "retake"),
    ("follow.protect_tractors", "a tractor need not be broken to follow a pair (V28)",
     {"follow.protect_tractors": True}, "follow.break_triple_for_pair", "protect"),
)


def _unstated_options(rules: Rules, add) -> None:
    """The house rules a ruleset does not state, where one position can show them: the optional setting set
    (the scenarios of :mod:`conformance.generation.positions` aimed at each, where there are some)."""
    from conformance.generation.positions.declaring import RETAKE
    from conformance.generation.positions.follow import PROTECT
    values = rules.checked.values
    own = {"retake": RETAKE, "protect": (PROTECT,) if 2 in rules.tractor_sizes else None}
    for name, label, changes, near, aimed in UNSTATED_OPTIONS:
        if name not in values:
            add(rules.clause(near), name, f"{name}: {label}", changes, own.get(aimed))
    for name, label, changes, near, aimed, obs in house_rule_options(rules):
        add(rules.clause(near), name, f"{name}: {label}", changes, aimed, obs=obs)
    _stated_deal_rules(rules, add)


def _stated_deal_rules(rules: Rules, add) -> None:
    """The other readings of the deal where a ruleset states V05 or V82 (the settings of the deal are otherwise
    unobserved, :data:`UNOBSERVED_PREFIXES`): every card dealt and the kitty as large again; the redeal for one
    condition only, or for none. Seen by ``deal`` alone."""
    from conformance.generation.positions.dealing import poor_scenarios
    values = rules.checked.values
    removed = values.get("equipment.removed")
    if removed:
        whole = rules.kitty_size + len(removed)
        add(rules.clause("equipment.removed"), "equipment.removed",
            f"equipment.removed: no card removed, a kitty of {whole}",
            {"equipment.removed": None, "equipment.kitty_size": whole}, obs=("deal",))
    conditions = tuple(values.get("deal.redeal_if") or ())
    if conditions:
        options = [(c,) for c in ("no_points", "no_trumps") if (c,) != conditions]
        for new in options + [None]:
            label = "no redeal for a hand's contents" if new is None else f"a redeal for {new[0]} only"
            add(rules.clause("deal.redeal_if"), "deal.redeal_if", f"deal.redeal_if: {label}",
                {"deal.redeal_if": new}, poor_scenarios(rules), obs=("deal",))


# Where a house rule that moves whole ranks or cards in the card order (V06, V09, V10) is observed: how cards
# combine and which play wins. It changes nearly every follow and lead with those cards too, but as one more
# clause deciding them it would split the findings and clusters of a narrow follow or lead bug in two.
WHERE_CARDS_RANK = ("classify", "winner")


def house_rule_options(rules: Rules) -> list[tuple[str, str, dict, str, Any, tuple[str, ...] | None]]:
    """The house rules of VARIANTS.md a ruleset does not follow, as an engine that does would state them over
    it: (setting, label, changes, clause whose statement it would join, aimed scenarios or None, observing
    operations or None). Each is offered only where it can change an answer of the ruleset: V06 and V21 where
    the level cards are trump, V29 where there are triples, V09 where 2s alone are fixed trumps and 10 is a
    mere level, V67 where J is a level; V05 (two 3s of clubs removed, the kitty two cards smaller) where no
    card is removed and two copies of the 3 of clubs are there to remove, V82 (a redeal for a hand with no
    point card or no card trump in every suit) where the ruleset has no such rule. V05 and V82 are seen by the
    ``deal`` operation alone (is this a proper deal, and is it dealt again?): every other position showing
    them is impossible under one of the two (a kitty of one size is no kitty of the other)."""
    from conformance.generation.positions.dealing import poor_scenarios
    from conformance.generation.positions.follow import STAND_IN
    from conformance.generation.positions.hands import hands_at, hand_scenarios
    from conformance.generation.positions.shapes import OFF_LEVEL
    from conformance.generation.positions.tricks import ranks_meet
    from conformance.generation.positions.suits import levels
    values = rules.checked.values
    order = tuple(values["trump.order"])
    out: list = []
    if "trump_level" in order:
        stay = tuple(t for t in order if t not in ("trump_level", "off_level"))
        out.append(("trump.order", "the level cards stay in their suits, only jokers are fixed trumps (V06)",
                    {"trump.order": stay}, "trump.order", None, WHERE_CARDS_RANK))
        if "tractor.off_level_chain" not in values:
            out.append(("tractor.off_level_chain", "off-suit level pairs of different suits chain (V21)",
                        {"tractor.off_level_chain": True}, "tractor.junctions", (OFF_LEVEL,), None))
    if "trump.named_cards" not in values:
        out.append(("trump.named_cards", "the heart 5 above the big joker, always trump (V10)",
                    {"trump.named_cards": (("5", "hearts"),), "trump.order": ("named",) + order},
                    "trump.order", None, WHERE_CARDS_RANK))
    ranks = tuple(values["level.ranks"])
    fixed = tuple(values["trump.fixed_ranks"])
    if fixed == ("2",) and "10" in ranks and "10" not in (values["level.start"], values["level.end"]) \
            and "10" not in values["level.must_play"]:
        without = tuple(r for r in ranks if r != "10")
        # the 10s above: a 10 led and a 2 after it tell this order from the spec and from the other order
        for order_of, label, aimed in ((("2", "10"), "2s and 10s fixed trumps, the 2s above (V09)", None),
                                       (("10", "2"), "2s and 10s fixed trumps, the 10s above (V09)",
                                        (ranks_meet("10", "2"),))):
            out.append(("trump.fixed_ranks", label, {"trump.fixed_ranks": order_of, "level.ranks": without},
                        "trump.fixed_ranks", aimed, WHERE_CARDS_RANK))
    if "follow.pairs_before_triples" not in values and rules.decks >= 3:
        out.append(("follow.pairs_before_triples", "a tractor led, held pairs before broken triples (V29)",
                    {"follow.pairs_before_triples": True}, "follow.break_triple_for_pair", (STAND_IN,), None))
    if "level.knock_back" not in values and "J" in levels(rules):
        out.append(("level.knock_back", f"the jack rule, back to {values['level.start']} (V67)",
                    {"level.knock_back": {"level": "J", "to": values["level.start"]}}, "level.ranks",
                    hands_at("J"), ("hand",)))
    defended = tuple(r for r in ("5", "10", "K", "A") if r in ranks)
    if "level.must_defend" not in values and defended:
        # attackers at each taking the bank stay there; a climb from below stops at it
        aimed = tuple(Scenario("advance", "climb", (r, g, False)) for r in defended for g in (1, 2)) + tuple(
            Scenario("advance", "climb", (ranks[ranks.index(r) - 1], 2, True)) for r in defended
            if ranks.index(r) > 0)
        out.append(("level.must_defend", f"{', '.join(defended)} must be defended, won as banker to pass (H20)",
                    {"level.must_defend": defended}, "level.ranks", aimed, ("advance",)))
    if "score.banker_needs_last_trick" not in values:
        later = tuple(sc for sc in hand_scenarios(rules) if sc.args == (False,))
        out.append(("score.banker_needs_last_trick", "the banker side rises only with the last trick (V68)",
                    {"score.banker_needs_last_trick": True}, "score.threshold", later, ("hand",)))
    if not values.get("equipment.removed") and rules.decks >= 2 and rules.kitty_size >= 6:
        smaller = rules.kitty_size - 2
        out.append(("equipment.removed", f"the two 3s of clubs removed, a kitty of {smaller} (V05)",
                    {"equipment.removed": (("3", "clubs"), ("3", "clubs")), "equipment.kitty_size": smaller},
                    "equipment.kitty_size", None, ("deal",)))
    if "deal.redeal_if" not in values:
        out.append(("deal.redeal_if", "a redeal when a hand holds no point card or no card trump in every suit (V82)",
                    {"deal.redeal_if": ("no_points", "no_trumps")}, "deal.direction", poor_scenarios(rules),
                    ("deal",)))
    return out


def _winner_kinds(*kinds: str) -> Callable[[Scenario], bool]:
    return lambda sc: (sc.op == "winner" and sc.kind in kinds) or (sc.op == "classify" and sc.kind == "boundary")


# Settings whose decisions a few scenarios aim at (the rest are searched through every scenario of their observers).
_AIMED: dict[str, Callable[[Scenario], bool]] = {
    "tractor.ace_two": _winner_kinds("wrap", "window"),
    "trump.order": _winner_kinds("boundary", "window"),
    "compare.element_over_length": _winner_kinds("upgrade"),
    "ruff.structure": _winner_kinds("counts_ruff", "ruffs"),
}


def _kitty_targets(name: str, label: str):
    """Kitty scenarios whose winning shape is the multiplier row changed."""
    if name not in ("kitty.multiplier", "kitty.banker_multiplier") or len(label.split(" ")) < 2:
        return None
    cls, shape = label.split(" ")[:2]
    side = "banker" if cls == "banker" else "attackers"

    def aimed(sc: Scenario) -> bool:
        plan, sc_cls, sc_side = sc.args
        kind = _plan_kind(plan)
        return sc_side == side and (cls == "banker" or sc_cls == cls) and (kind == shape or shape == "tractor")
    return aimed


def _plan_kind(plan) -> str:
    if len(plan) > 1:
        return "throw"
    size, length = plan[0]
    return "tractor" if length > 1 else {1: "single", 2: "pair", 3: "triple"}[size]


def _band_alternatives(rules: Rules, add) -> list:
    checked = rules.checked
    bands = sorted(checked.bands, key=lambda b: float("-inf") if b.low is None else b.low)
    clause = checked.band_origin.clause.id if checked.band_origin else "score"
    for i in range(len(bands) - 1):
        a, b = bands[i], bands[i + 1]
        for delta in (-5, 5):
            if (a.low is not None and a.high + delta < a.low) or (b.high is not None and b.low + delta > b.high):
                continue
            new = list(bands)
            new[i] = dataclasses.replace(a, high=a.high + delta)
            new[i + 1] = dataclasses.replace(b, low=b.low + delta)
            add(clause, "score.bands", f"band edge {b.low} moved by {delta:+d}", {"score.bands": tuple(new)})
    for i, band in enumerate(bands):
        for levels in (band.levels + 1, band.levels - 1):
            if levels < 0:
                continue
            new = list(bands)
            new[i] = dataclasses.replace(band, levels=levels)
            add(clause, "score.bands", f"band {_band(band)} gains {levels}", {"score.bands": tuple(new)})
        if band.step is not None:
            new = list(bands)
            new[i] = dataclasses.replace(band, step=band.step * 2)
            add(clause, "score.bands", f"band {_band(band)} step {band.step * 2}", {"score.bands": tuple(new)})
    return []


def _band(b: m.Band) -> str:
    return f"{'' if b.low is None else b.low}..{'' if b.high is None else b.high}"


def _reading_flips(rules: Rules, add) -> list[tuple]:
    """The other readings of every interpreted clause, as the features each reading sets. Those that state a
    house rule of spec/house_rules.tsv (issue 32) are returned, to be added after every other alternative (see
    :data:`LATER_VALUES`)."""
    checked = rules.checked
    house = []
    for clause in checked.clauses:
        chosen = checked.choices.get(clause.id)
        for reading in clause.readings:
            if reading.name == chosen or not reading.rules:
                continue
            changes = reading_changes(clause, reading.name)
            changes = {k: v for k, v in changes.items()
                       if not (k.startswith(UNOBSERVED_PREFIXES) or k in UNVARIED)}
            if not changes:
                continue
            observed: set[str] = set()
            for key in changes:
                observed.update(observers_of(key))
            aimed = _AIMED.get(next(iter(changes))) if len(changes) == 1 else None
            flip = (clause.id, f"reading {clause.id}", f"{clause.id}: reading {chosen} -> {reading.name}", changes,
                    aimed, tuple(op for op in ALL_OPS + ("hand",) if op in observed))
            if any(v.startswith("H") for v in reading.variants):
                house.append(flip)
            else:
                add(*flip[:5], obs=flip[5])
    return house
