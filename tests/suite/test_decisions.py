"""The seeded suite decides every decision point of every bundled ruleset.

These tests read the checked-in vectors (exactly what ``tractor conform
--ruleset R`` runs) and re-judge them with the interpreter, independently of
the ``decides`` labels the generator wrote.
"""
from collections import Counter, defaultdict

import pytest

from conformance.generation.alternatives import alternatives, ladders_of
from conformance.generation.decisions import answer, distinguish
from conformance.generation.equivalence import (abstract_holdings, equivalence_reason, ladder_equivalent,
                                     proven_ladder_equivalent)
from conformance.generation.cases import vector_cases
from reference_impl.cards import parse_cards
from reference_impl.combos import classify
from reference_impl.following import obligation
from reference_impl.kitty import judge_kitty
from reference_impl.rules import Trace, rules_for, ruleset_names
from reference_impl.trick import judge_trick
from reference_impl.trump import context

RULESETS = ruleset_names()


@pytest.fixture(scope="module")
def vectors():
    by: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    for c in vector_cases():
        by[c["ruleset"]][c["op"]].append(c)
    return by


def _cards(xs):
    return parse_cards(" ".join(xs)) if xs else []


def _rung_decided(rules, case):
    """(lead unit, rung index, legal) of a follow case whose obligation is read from one ladder, else None."""
    inp = case["input"]
    ctx = context(rules, inp["level"], inp["trump"])
    lead = classify(ctx, _cards(inp["lead"]))
    if lead.kind in ("mixed", "empty", "throw") or len(lead.components) != 1:
        return None
    hand = Counter(_cards(inp["hand"]))
    in_suit = Counter({c: n for c, n in hand.items() if ctx.suit[c] == lead.suit})
    if sum(in_suit.values()) <= lead.n or len(_cards(inp["play"])) != lead.n:
        return None
    unit = lead.components[0].unit
    ladders = ladders_of(rules, derived_up_to=12)
    if unit not in ladders:
        return None
    required, _ = obligation(ctx, lead, in_suit, Trace())
    rungs = [sorted(e) for e in ladders[unit]]
    if sorted(required) not in rungs:
        return None
    return unit, rungs.index(sorted(required)), case["expected"]["legal"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_rung_of_every_ladder_decides_a_legal_and_an_illegal_case(ruleset, vectors):
    rules = rules_for(ruleset)
    seen: dict[tuple, set] = defaultdict(set)
    for case in vectors[ruleset]["follow"]:
        got = _rung_decided(rules, case)
        if got is not None:
            unit, k, legal = got
            seen[(unit, k)].add(legal)
    missing = []
    for unit, rungs in ladders_of(rules, derived_up_to=12).items():
        for k in range(len(rungs)):
            if not _can_be_first(rules, unit, rungs, k):
                continue
            # a rung of singles only is met by any play of the suit: it can only decide legal plays
            wanted = {True} if all(u == (1, 1) for u in rungs[k]) else {True, False}
            if not wanted <= seen[(unit, k)]:
                missing.append((unit, k + 1, sorted(seen[(unit, k)])))
    assert not missing, f"{ruleset}: rungs not decided both ways (unit, rung, legal answers seen): {missing}"


def _can_be_first(rules, unit, rungs, k) -> bool:
    """Whether some holding supplies rung k and no earlier rung (else no position can have rung k decide)."""
    from tractor_dsl.patterns import can_form
    protect = unit[0] == 2 and not rules["follow.break_triple_for_pair"]
    for runs, counts in abstract_holdings(unit[0] * unit[1], max(u[1] for r in rungs for u in r), rules.decks):
        if protect:
            counts = {key: (1 if n == 3 else n) for key, n in counts.items()}
        if can_form(list(rungs[k]), runs, counts) and not any(can_form(list(r), runs, counts) for r in rungs[:k]):
            return True
    return False


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_band_edge_and_the_cap_decide_a_case(ruleset, vectors):
    rules = rules_for(ruleset)
    points = {c["input"]["attackers_points"] for c in vectors[ruleset]["result"]}
    for band in rules.bands:
        for edge in (band.low, band.high):
            if edge is not None:
                assert edge in points, (ruleset, band, edge)
        if band.low is not None:
            assert band.low - 5 in points or band.low - 5 < -100, (ruleset, band)
    if rules["score.cap"] is not None:
        levels = {c["expected"]["levels"] for c in vectors[ruleset]["result"]}
        assert rules["score.cap"] in levels


def _kitty_row(rules, case):
    inp = case["input"]
    ctx = context(rules, inp["level"], inp["trump"])
    trick = inp["last_trick"]
    order = [(trick["leader"] + k) % 4 for k in range(4)]
    plays = [_cards(trick["plays"][s]) for s in order]
    seat = order[judge_trick(ctx, plays).value]
    side = "banker" if seat % 2 == inp["banker"] % 2 else "attackers"
    j = judge_kitty(ctx, _cards(trick["plays"][seat]), side, _cards(inp["kitty"]))
    if not j.extra.get("captured") or not j.extra.get("kitty_points"):
        return None
    return side, j.extra["suit_class"], j.extra["entry"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_kitty_row_decides_a_case(ruleset, vectors):
    rules = rules_for(ruleset)
    seen = {_kitty_row(rules, c) for c in vectors[ruleset]["kitty"]} - {None}
    wanted = set()
    shapes = ["single", "pair", "tractor"] + (["triple"] if rules.decks >= 3 else [])
    if rules["kitty.multi_unit"] == "whole_play":
        shapes.append("throw")
    for cls in (("trump",) if rules["kitty.trump_only"] else ("trump", "side")):
        table = rules["kitty.multiplier"][cls]
        wanted |= {("attackers", cls, s if s in table else "tractor") for s in shapes}
    if rules["kitty.capturers"] == "both" and rules["kitty.banker_multiplier"] is not None:
        table = rules["kitty.banker_multiplier"]
        for cls in ("trump", "side"):
            wanted |= {("banker", cls, s if s in table else "tractor") for s in shapes}
    assert wanted <= seen, f"{ruleset}: kitty rows decided by no case: {sorted(wanted - seen)}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_default_suite_kills_every_alternative_not_proven_equivalent(ruleset, vectors):
    """The seeded suite tells every alternative of the spec from it (the mutate report's default stage)."""
    from conformance.analysis.mutation import run_default
    rules = rules_for(ruleset)
    cases = [c for op in vectors[ruleset].values() for c in op]
    result = run_default(rules, cases)
    assert not result.survived, [o.mutant.description for o in result.survived]
    wrongly = [o.mutant.description for o in result.outcomes if o.killed_by and
               (equivalence_reason(o.mutant, rules) or proven_ladder_equivalent(o.mutant, rules))]
    assert not wrongly, f"stated equivalent, yet a case tells them apart: {wrongly}"


@pytest.mark.parametrize("ruleset", ["r000", "r001", "r003"])
def test_equivalent_alternatives_are_equivalent(ruleset):
    """Each equivalence is proved by enumeration where that is feasible, else searched for a counterexample."""
    rules = rules_for(ruleset)
    for alt in alternatives(rules):
        reason = equivalence_reason(alt, rules)
        if reason is None:
            if alt.feature.startswith("follow ") and proven_ladder_equivalent(alt, rules):
                search = distinguish(rules, alt, seed=7, budget=400, check_equivalence=False)
                assert search.found is None, (alt.description, "proved equivalent", search.found)
            continue
        if alt.feature == "score.bands" or alt.feature.startswith("score."):
            for points in range(-300, 1001, 5):
                assert answer(rules, "result", {"attackers_points": points}) == \
                    answer(alt.rules, "result", {"attackers_points": points}), (alt.description, points)
        elif alt.feature.startswith("level."):
            for level in rules["level.ranks"]:
                for gain in range(0, 15):
                    for banker in (True, False):
                        inp = {"level": level, "gain": gain, "as_banker": banker}
                        assert answer(rules, "advance", inp) == answer(alt.rules, "advance", inp), alt.description
        else:
            search = distinguish(rules, alt, seed=7, budget=400, check_equivalence=False)
            assert search.found is None, (alt.description, reason, search.found)


def test_ladder_equivalence_is_exact_on_a_small_case():
    """Two orders of rungs no holding can tell apart are equivalent; swapping a tractor and two pairs is not."""
    tractor, two_pairs, pair_two_singles, four_singles = ((2, 2),), ((2, 1), (2, 1)), ((2, 1), (1, 1), (1, 1)), \
        ((1, 1),) * 4
    ladder = [tractor, two_pairs, pair_two_singles, four_singles]
    assert not ladder_equivalent(ladder, [two_pairs, tractor, pair_two_singles, four_singles], (2, 2), 2)
    assert not ladder_equivalent(ladder, [tractor, pair_two_singles, two_pairs, four_singles], (2, 2), 2)
    # dropping the last rung: four singles can always be played
    assert ladder_equivalent(ladder, ladder[:3] + [four_singles], (2, 2), 2)


# --------------------------------------------------------------------------- rival values told apart

def test_the_suite_tells_each_two_other_values_of_a_setting_apart_where_a_position_can():
    """r001 (001:10, a failed throw): the spec plays the smallest card, and an engine may play the smallest
    component, the blocked component or the first blocker (or, house rules of issue 32, H03, the throw's
    singles first, and H27, the blocked component with the fewest cards). The positions telling each of those from the spec
    seldom tell them from one another; the suite holds one that does, so that an engine's value is named by
    the suite itself. Checked by judging the vectors again, whatever their labels say."""
    import dataclasses
    from conformance.generation.decisions import rival_pairs
    rules = rules_for("r001")
    cases = [c for c in vector_cases(None, ["r001"], None)]
    pairs = [(a, b) for a, b in rival_pairs(alternatives(rules)) if a.feature == "throw.forced_play"]
    assert {b.description.split(": ")[1].split(",")[0] for _, b in pairs} == \
        {"blocked_component", "first_blocker", "singles_first", "blocked_fewest"}
    for a, b in pairs:
        other = dataclasses.replace(b, base=a.rules).rules
        apart = [c["id"] for c in cases if c["op"] in a.observers
                 and "error" not in answer(a.rules, c["op"], c["input"])
                 and answer(a.rules, c["op"], c["input"]) != answer(other, c["op"], c["input"])]
        assert apart, (a.description, b.description)


def test_rival_pairs_are_the_values_of_small_features_only():
    from conformance.generation.decisions import RIVAL_LIMITS, RIVAL_VALUES, rival_pairs
    rules = rules_for("r001")
    pairs = rival_pairs(alternatives(rules))
    assert pairs and all(a.feature == b.feature and a.changes != b.changes for a, b in pairs)   # twins aside
    sizes = Counter(a.feature for a in alternatives(rules) if a.row is None)
    assert all(sizes[a.feature] <= RIVAL_LIMITS.get(a.feature, RIVAL_VALUES) and not a.feature.startswith("follow ")
               for a, _ in pairs)


def test_a_derived_ruleset_is_asked_its_parents_positions_read_from_the_vectors_as_searched():
    """A catalogue file extending r000 tries first, for each alternative, the position that told it apart in
    r000: read from r000's vectors, they are the positions r000's own search finds (the export searches them),
    and a position taken from them still tells the alternative apart in the derived file."""
    from conformance.generation.decisions import PRIMARY, decision_positions, inherited, parent_of
    rules = rules_for("v77_redeal_every_hand")
    assert parent_of(rules).name == "r000"
    from conformance.generation.cases import _bundled_vectors
    read, searched = inherited(rules, 0, read=_bundled_vectors), inherited(rules, 0)
    assert read == searched and len(read) > 300
    alts = {a.description: a for a in alternatives(rules)}
    _, searches = decision_positions(rules, read=_bundled_vectors)
    reused = [s for s in searches if s.found is not None and s.attempts == 1 and s.alternative.description in read]
    assert len(reused) > 250
    for s in reused[::25]:
        op, inp = s.found.op, s.found.input
        assert (op, inp) == read[s.alternative.description][:2]
        a, b = answer(rules, op, inp), answer(alts[s.alternative.description].rules, op, inp)
        assert a != b and (a.get(PRIMARY[op]) != b.get(PRIMARY[op]) or not read[s.alternative.description][2])
