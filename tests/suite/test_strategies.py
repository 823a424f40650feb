"""The conformance strategies: valid inputs, clause coverage, and the mutants they kill.

Run the kill measurement for any ruleset by hand::

    .venv/bin/python -m tests.suite.test_strategies r003 [max_examples]
"""
from __future__ import annotations

import json
import sys
import time
from collections import Counter
from itertools import product

import pytest
from hypothesis import HealthCheck, Phase, Verbosity, given, settings

from conformance import protocol
from conformance.engine import judge
from conformance.mutants import Mutant, _answer, equivalence_reason, mutants
from conformance.strategies import (OPERATIONS, POSITIVE, cases, clause_coverage, declare_inputs,
                                    executable_clauses, follow_inputs)
from reference_impl.rules import Rules, rules_for, ruleset_names
from tractor_dsl.patterns import can_form

SEARCH = dict(database=None, derandomize=True, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet)

# How many cases the kill search draws per mutant. Hypothesis spends most calls
# of its generate phase on mutations of the case it just drew (same operation,
# same scenario), so about one case in six is a fresh scenario.
KILL_EXAMPLES = 6000


# --------------------------------------------------------------------------- 1. valid inputs

@pytest.mark.parametrize("op", OPERATIONS)
@pytest.mark.parametrize("ruleset", ruleset_names())
def test_every_drawn_case_is_a_valid_request_the_reference_judges(ruleset, op):
    seen = []

    @settings(max_examples=60, **SEARCH)
    @given(cases(ruleset, [op]))
    def check(case):
        assert set(case) == {"op", "input"} and case["op"] == op
        inp = case["input"]
        request = protocol.request(0, op, ruleset, inp)
        assert not protocol.schema_errors(f"{op}.request", request), (protocol.schema_errors(f"{op}.request", request), inp)
        result, clauses = judge(op, ruleset, inp)  # raises InputError on an input the engine cannot read
        assert not protocol.schema_errors(f"{op}.result", {**result, "clauses": list(clauses)})
        seen.append(inp)

    check()
    assert len(seen) >= 10


def test_arguments_are_checked_up_front():
    with pytest.raises(ValueError, match="'r999'"):
        cases("r999")
    with pytest.raises(TypeError, match="3"):
        follow_inputs(3)
    with pytest.raises(ValueError, match="'hand'"):
        cases("r003", ["hand"])
    with pytest.raises(ValueError, match=r"\[\]"):
        cases("r003", [])
    with pytest.raises(TypeError, match="'follow'"):
        cases("r003", "follow")
    with pytest.raises(ValueError, match="0"):
        clause_coverage("r003", 0)
    assert set(POSITIVE) == set(OPERATIONS)


def test_a_failure_shrinks_to_few_low_cards():
    """A property that fails on every illegal follow shrinks to a pair led and a three-card hand of low ranks."""
    found = []

    @settings(max_examples=300, database=None, derandomize=True, deadline=None,
              suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet)
    @given(follow_inputs("r003"))
    def prop(inp):
        result, _ = judge("follow", "r003", inp)
        if not result["legal"]:
            found.append(inp)
            raise AssertionError
    with pytest.raises(AssertionError):
        prop()
    smallest = found[-1]
    assert len(smallest["lead"]) <= 2 and len(smallest["hand"]) <= 3, smallest
    assert all(c[:-1] in ("2", "3", "4") for c in smallest["lead"] + smallest["hand"]), smallest


def test_declarations_never_show_more_copies_than_the_pack():
    for ruleset in ("r000", "r001", "r003"):
        decks = rules_for(ruleset).decks

        @settings(max_examples=150, **SEARCH)
        @given(declare_inputs(ruleset))
        def check(inp):
            held: list[Counter] = [Counter() for _ in range(4)]
            for d in inp["declarations"]:
                for c, n in Counter(d["cards"]).items():
                    held[d["seat"]][c] = max(held[d["seat"]][c], n)
            total = sum(held, Counter())
            assert all(n <= decks for n in total.values()), inp
        check()


# --------------------------------------------------------------------------- 2. clause coverage

def _untraced(ruleset: str) -> set[str]:
    """Clauses whose only settings the reference reads but never reports (tractor.mixed)."""
    checked = rules_for(ruleset).checked
    by_clause: dict[str, set] = {}
    for name, origin in checked.origins.items():
        by_clause.setdefault(origin.clause.id, set()).add(name)
    return {c for c, names in by_clause.items() if names <= {"tractor.mixed"}}


@pytest.mark.parametrize("ruleset", ["r000", "r001", "r003"])
def test_every_executable_clause_decides_some_case(ruleset):
    coverage = clause_coverage(ruleset, examples=200)
    executable = executable_clauses(ruleset)
    missing = executable - set(coverage) - _untraced(ruleset)
    assert not missing, f"{ruleset}: no case decided by {sorted(missing)}"
    # both polarities for the clauses the legality operations report
    for clause in ("follow.suit",):
        if clause in coverage:
            assert coverage[clause]["positive"] and coverage[clause]["negative"], coverage[clause]


# --------------------------------------------------------------------------- 3. mutants

def _side_table_zero(rules: Rules) -> bool:
    table = rules["kitty.multiplier"]["side"]
    return all(f(n) == 0 for f in table.values() for n in range(1, 13))


def _changed_band(mu: Mutant, rules: Rules):
    for old, new in zip(sorted(rules.bands, key=lambda b: (b.low is not None, b.low or 0)),
                        sorted(mu.rules.bands, key=lambda b: (b.low is not None, b.low or 0))):
        if old != new:
            return old, new
    return None


def _capped_band(mu: Mutant, rules: Rules) -> bool:
    """A band's levels or step changed where it already gives score.cap levels at its low end."""
    changed = _changed_band(mu, rules)
    cap = rules["score.cap"]
    if changed is None or cap is None:
        return False
    old, new = changed
    return (old.low, old.high) == (new.low, new.high) and old.levels >= cap and new.levels >= cap


def _entries_never_both_first(mu: Mutant, rules: Rules) -> bool:
    """A swap of ladder entries i and i+1 where every holding that can supply both also supplies an earlier one.

    Proved by enumerating holdings as copy counts, for entries without
    tractors (a tractor-free entry depends on counts only; an earlier entry
    found by counts alone is supplied whatever the adjacency).
    """
    if mu.setting.startswith("follow ") and "swap entries" in mu.description:
        i = int(mu.description.split("swap entries ")[1].split(" and ")[0]) - 1
        key = mu.setting[len("follow "):]
        _, ladder, _ = rules.checked.ladders[key]
        from tractor_dsl.patterns import pattern_units, shape_unit
        unit = shape_unit(rules.checked.ladders[key][0])
        entries = [pattern_units(p) for p in ladder]
        a, b = entries[i], entries[i + 1]
        if any(u[1] > 1 for u in a + b):
            return False
        earlier = [e for e in entries[:i] if all(u[1] == 1 for u in e)]
        protect = unit[0] == 2 and not rules["follow.break_triple_for_pair"]
        need = sum(s * n for s, n in a) + sum(s * n for s, n in b)
        for counts in _count_holdings(need, rules.decks):
            held = {k: (1 if protect and n == 3 else n) for k, n in enumerate(counts)}
            if can_form(a, [], held) and can_form(b, [], held) and \
                    not any(can_form(e, [], held) for e in earlier):
                return False
        return True
    return False


def _count_holdings(cards: int, decks: int):
    """Copy counts (non-increasing, each 1..decks) of holdings of up to ``cards`` cards."""
    def rec(left, top, acc):
        yield tuple(acc)
        for n in range(min(top, left), 0, -1):
            yield from rec(left - n, n, acc + [n])
    yield from rec(cards, decks, [])


def _changed(mu: Mutant, rules: Rules) -> set[str]:
    """The settings (and ``ladders`` / ``bands``) whose value the mutant changes."""
    out = {name for name, value in rules.checked.values.items() if mu.rules.checked.values.get(name) != value}
    if mu.rules.ladders != rules.ladders:
        out.add("ladders")
    if mu.rules.bands != rules.bands:
        out.add("bands")
    return out


# Settings no operation compares: score.threshold restates the bands, a wrong
# declaration's points are only in the judgment's extra, kitty.exchange shapes
# a whole hand (hand takes the discard as given).
_UNCOMPARED = {"score.threshold", "declare.wrong_points", "kitty.exchange"}
_BIG_SMALL = frozenset(("big_joker", "small_joker"))


def _junctions_only(mu: Mutant, rules: Rules) -> tuple[set, set] | None:
    if _changed(mu, rules) != {"tractor.junctions"}:
        return None
    return ({frozenset(j) for j in rules["tractor.junctions"]}, {frozenset(j) for j in mu.rules["tractor.junctions"]})


def _absent_tier_junctions(mu: Mutant, rules: Rules) -> bool:
    sets = _junctions_only(mu, rules)
    if sets is None or rules["trump.fixed_ranks"]:
        return False
    return all(j & {"trump_fixed", "off_fixed"} for j in sets[0] ^ sets[1])


def _face_rank_junctions(mu: Mutant, rules: Rules) -> bool:
    sets = _junctions_only(mu, rules)
    return (sets is not None and rules["tractor.adjacency"] == "face_rank"
            and (_BIG_SMALL in sets[0]) == (_BIG_SMALL in sets[1]))


# Equivalences the mutant table (conformance.mutants.EQUIVALENCE) does not state yet.
PROPOSED_EQUIVALENCE = [
    (lambda mu, r: _changed(mu, r) <= _UNCOMPARED,
     "it changes only settings no operation compares (score.threshold restates the bands; the points of a "
     "wrong declaration are only in the judgment's extra; kitty.exchange shapes a whole hand, not a judgment)"),
    (lambda mu, r: _changed(mu, r) == {"throw.check"}
     and {r["throw.check"], mu.rules["throw.check"]} == {"singles", "smallest_vs_largest"},
     "singles and smallest_vs_largest block exactly the same cards (those below the highest card the other "
     "hands hold in the suit), so every throw fails or stands alike, with the same failure"),
    (_absent_tier_junctions,
     "the added or dropped junction names a tier this ruleset does not have (no fixed trump ranks)"),
    (_face_rank_junctions,
     "under tractor.adjacency = face_rank only the big_joker-small_joker junction is read, and it is unchanged"),
    (lambda mu, r: _changed(mu, r) == {"kitty.trump_only"} and r["kitty.trump_only"] and _side_table_zero(r),
     "every side-suit kitty multiplier is 0, so letting side-suit plays capture changes nothing"),
    (lambda mu, r: _changed(mu, r) == {"bands"} and _capped_band(mu, r),
     "the band already gives score.cap levels, so more levels (or a finer step) are capped away"),
    (lambda mu, r: _changed(mu, r) == {"kitty.capturers"} and r["kitty.banker_multiplier"] is None,
     "the banker side has no multiplier table (kitty.banker_multiplier none): a banker-side capture deducts "
     "nothing either way"),
    (lambda mu, r: _changed(mu, r) == {"kitty.banker_multiplier"} and r["kitty.multi_unit"] == "largest_component"
     and " throw " in f" {mu.description} ",
     "the largest component of a throw is read, never the banker table's 'throw' entry"),
    (lambda mu, r: _changed(mu, r) == {"declare.overcall_by"} and not r["declare.joker_pairs"],
     "without joker declarations every declaration ranks as level cards: copies_then_jokers compares copies "
     "only, like more_copies"),
    (lambda mu, r: _changed(mu, r) == {"declare.kitty_joker"} and r["declare.kitty_skip_jokers"],
     "jokers turned from the kitty are skipped, so declare.kitty_joker is never read"),
    (lambda mu, r: _changed(mu, r) == {"declare.kitty_skip_jokers"} and r["declare.kitty_joker"] == "next_card",
     "not skipping a joker but taking the next card (kitty_joker = next_card) names the same card as skipping"),
    (lambda mu, r: _changed(mu, r) == {"level.must_play"}
     and set(r["level.must_play"]) | set(mu.rules["level.must_play"]) <= {r["level.ranks"][0]},
     "a must-play level stops a climb only strictly above the team's level, which the first rank never is"),
    (_entries_never_both_first,
     "every holding that can supply both swapped entries also supplies an earlier entry of the ladder "
     "(checked over all copy counts), so neither is ever the first"),
]


def proposed_reason(mu: Mutant, rules: Rules) -> str | None:
    for test, reason in PROPOSED_EQUIVALENCE:
        try:
            if test(mu, rules):
                return reason
        except (KeyError, ValueError, IndexError):
            continue
    return None


class _Killed(Exception):
    pass


def _observed(rules: Rules, case: dict):
    got = _answer(rules, case)
    return got if "error" in got else protocol.normalize(case["op"], got)


def kill_report(ruleset: str, max_examples: int = KILL_EXAMPLES, equivalent_examples: int = 100) -> dict:
    """Search ``cases(ruleset)`` for a case each mutant answers differently from the ruleset.

    Mutants with a stated (or proposed) equivalence get a shorter search: a
    kill there would show the equivalence is wrong.
    """
    rules = rules_for(ruleset)
    strategy = cases(ruleset)
    expected: dict[str, object] = {}
    outcomes = []
    start = time.time()
    for mu in mutants(rules.checked):
        reason = equivalence_reason(mu, rules)
        proposed = None if reason else proposed_reason(mu, rules)

        @settings(max_examples=equivalent_examples if (reason or proposed) else max_examples, **SEARCH)
        @given(strategy)
        def search(case):
            key = json.dumps(case, sort_keys=True)
            if key not in expected:
                expected[key] = _observed(rules, case)
            if _observed(mu.rules, case) != expected[key]:
                raise _Killed(case)

        try:
            search()
            killer = None
        except _Killed as e:
            killer = e.args[0]
        outcomes.append({"mutant": mu, "killer": killer, "reason": reason, "proposed": proposed})
    seconds = time.time() - start
    survivors = [o for o in outcomes if o["killer"] is None]
    equivalent = [o for o in outcomes if o["reason"] or o["proposed"]]
    killed = [o for o in outcomes if o["killer"] is not None]
    non_equivalent = [o for o in outcomes if not (o["reason"] or o["proposed"])]
    return {"ruleset": ruleset, "outcomes": outcomes, "survivors": survivors, "killed": killed,
            "equivalent": equivalent, "non_equivalent": non_equivalent, "seconds": seconds,
            "wrongly_equivalent": [o for o in killed if o["reason"] or o["proposed"]]}


def render(report: dict) -> str:
    ne = report["non_equivalent"]
    killed_ne = [o for o in ne if o["killer"] is not None]
    lines = [f"{report['ruleset']}: {len(report['outcomes'])} mutants, {len(report['equivalent'])} equivalent, "
             f"killed {len(killed_ne)}/{len(ne)} non-equivalent ({report['seconds']:.0f}s)"]
    for o in report["survivors"]:
        mu = o["mutant"]
        why = (f"equivalent: {o['reason']}" if o["reason"] else
               f"equivalent (proposed): {o['proposed']}" if o["proposed"] else "NOT KILLED")
        lines.append(f"  survivor {mu.id} [{mu.clause}] {mu.description} -- {why}")
    for o in report["wrongly_equivalent"]:
        mu = o["mutant"]
        lines.append(f"  KILLED though stated equivalent: {mu.id} {mu.description}: {o['killer']}")
    return "\n".join(lines)


@pytest.mark.slow
def test_the_strategies_kill_every_non_equivalent_mutant_of_r003():
    report = kill_report("r003")
    print(render(report))
    assert not report["wrongly_equivalent"], render(report)
    unexplained = [o["mutant"].description for o in report["survivors"] if not (o["reason"] or o["proposed"])]
    assert not unexplained, render(report)


def test_the_proposed_equivalences_hold_on_known_cases():
    """Spot checks of the count-based ladder proof and the band-cap rule on r003."""
    rules = rules_for("r003")
    by_description = {mu.description: mu for mu in mutants(rules.checked)}
    swap = by_description.get("follow tractor(triple, 2): swap entries 6 and 7")
    if swap is not None:
        assert _entries_never_both_first(swap, rules)
    killable = by_description.get("follow tractor(triple, 2): swap entries 5 and 6")
    if killable is not None:
        assert not _entries_never_both_first(killable, rules)
    assert list(_count_holdings(3, 3)) == [(), (3,), (2,), (2, 1), (1,), (1, 1), (1, 1, 1)]


if __name__ == "__main__":
    names = sys.argv[1:2] or ["r000", "r001", "r003"]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else KILL_EXAMPLES
    for name in names:
        print(render(kill_report(name, n)), flush=True)
