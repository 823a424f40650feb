"""The interpreter's fast paths give the answers of the plain procedures they stand for.

Each optimisation is checked against the procedure its docstring defines,
written here the plain way, on random holdings of every bundled ruleset (the
vectors' drift check covers the positions the suite draws; these cover many
more, with the settings of every ruleset).
"""
import random

import pytest

from reference_impl import combos
from reference_impl.combos import best_component, decompose
from reference_impl.rules import catalogue_names, ruleset_names, rules_for
from reference_impl.trump import TRUMP, context
from tractor_dsl import patterns


def _plain_decompose(ctx, counts, suit):
    """throw.split as the module docstring states it: repeatedly take the best component."""
    counts = {c: n for c, n in counts.items() if n > 0}
    out = []
    while counts:
        best = best_component(ctx, counts, suit)
        out.append(best)
        for c in best.cards:
            counts[c] -= 1
            if counts[c] == 0:
                del counts[c]
    return out


def _holdings(ctx, rng, n):
    """Random holdings of one effective suit, up to the pack's copies of each card, often rich in pairs."""
    decks = ctx.rules.decks
    for _ in range(n):
        suit = rng.choice([s for s in range(5) if s != ctx.trump])
        cards = [c for c in range(54) if ctx.suit[c] == suit]
        counts = {}
        for c in rng.sample(cards, min(len(cards), rng.randint(1, 9))):
            counts[c] = rng.choice([1, 2, 2, 3, 3][:2 + decks]) if decks > 1 else 1
            counts[c] = min(counts[c], decks)
        yield suit, counts


@pytest.mark.parametrize("name", ruleset_names())
def test_decompose_is_the_repeated_best_component(name):
    rules = rules_for(name)
    rng = random.Random(name)
    for level, trump in [("2", 1), ("7", 0), ("A", 3), ("5", None), ("10", 2)]:
        if level in rules["trump.fixed_ranks"]:
            continue
        ctx = context(rules, level, trump)
        for suit, counts in _holdings(ctx, rng, 300):
            assert decompose(ctx, counts, suit) == _plain_decompose(ctx, counts, suit), (level, trump, counts)


def _plain_place_tractors(tractors, i, runs, counts, flat, floor):
    """can_form's search as it was first written: every window of every run, looked at afresh."""
    from itertools import product
    if i == len(tractors):
        return patterns._place_flat(flat, counts)
    size, length = tractors[i]
    same_as_previous = i > 0 and tractors[i - 1] == tractors[i]
    for r, run in enumerate(runs):
        for start in range(0, len(run) - length + 1):
            window = run[start:start + length]
            choices = [[k for k in pos if counts.get(k, 0) >= size] for pos in window]
            if any(not c for c in choices):
                continue
            for pick in product(*choices):
                key = (r, start, pick)
                if same_as_previous and key < floor:
                    continue
                for k in pick:
                    counts[k] -= size
                ok = _plain_place_tractors(tractors, i + 1, runs, counts, flat, key)
                for k in pick:
                    counts[k] += size
                if ok:
                    return True
    return False


def _plain_can_form(units, runs, counts):
    if sum(s * n for s, n in units) > sum(counts.values()):
        return False
    flat = [u for u in units if u[1] == 1]
    if len(flat) == len(units):
        return patterns._place_flat(flat, counts)
    tractors = sorted((u for u in units if u[1] > 1), key=lambda u: (-u[1], -u[0]))
    return _plain_place_tractors(tractors, 0, runs, dict(counts), flat, (0, 0, ()))


UNITS = [(1, 1), (2, 1), (3, 1), (2, 2), (2, 3), (3, 2), (2, 4), (2, 2), (2, 2)]  # identical tractors too


@pytest.mark.parametrize("name", ruleset_names())
def test_can_form_is_the_plain_search(name):
    rules = rules_for(name)
    rng = random.Random(name)
    for level, trump in [("2", 1), ("7", None), ("K", 0)]:
        if level in rules["trump.fixed_ranks"]:
            continue
        ctx = context(rules, level, trump)
        for suit, counts in _holdings(ctx, rng, 400):
            units = [rng.choice(UNITS) for _ in range(rng.randint(1, 3))]
            runs = ctx.runs[suit]
            before = dict(counts)
            plain = _plain_can_form(units, runs, counts)
            assert patterns.can_form(units, runs, counts) == plain, (units, counts)
            assert patterns.can_form(units, runs, counts, ctx.where) == plain, (units, counts)  # by positions held
            assert counts == before  # can_form never changes the holding it is given


def test_a_trump_holding_with_equal_off_suit_level_cards_decomposes_as_the_plain_loop():
    # the off-suit level cards are equal cards at one position: the stable order of the tail matters
    ctx = context(rules_for("r003"), "5", 0)
    off_level = [c for c in range(52) if c % 13 == 3 and c // 13 != 0]
    counts = {off_level[0]: 1, off_level[1]: 2, off_level[2]: 1, 52: 1, 53: 2}
    assert all(ctx.suit[c] == TRUMP for c in counts)
    assert decompose(ctx, counts, TRUMP) == _plain_decompose(ctx, counts, TRUMP)
    assert combos.classify(ctx, [c for c, n in counts.items() for _ in range(n)]).kind == "throw"


@pytest.mark.parametrize("name", ruleset_names())
def test_a_card_sits_at_one_position_of_a_run_at_most(name):
    # what can_form's early refusal (fewer cards than a tractor's positions) relies on
    from reference_impl.cards import RANKS
    rules = rules_for(name)
    for level in RANKS:
        if level in rules["trump.fixed_ranks"]:
            continue
        for trump in (None, 0, 1, 2, 3):
            for suit_runs in context(rules, level, trump).runs:
                for run in suit_runs:
                    ids = [c for pos in run for c in pos]
                    assert len(ids) == len(set(ids)), (level, trump, run)


def _plain_place_flat(flat, counts):
    """Triples, then pairs, each from the fullest card left, then singles from what remains."""
    remaining = sorted((c for c in counts.values() if c > 0), reverse=True)
    for size in sorted((s for s, _ in flat if s > 1), reverse=True):
        if not remaining or remaining[0] < size:
            return False
        remaining[0] -= size
        remaining.sort(reverse=True)
    return sum(remaining) >= sum(1 for s, _ in flat if s == 1)


def test_flat_units_are_placed_as_the_greedy_loop_places_them():
    rng = random.Random(3)
    for _ in range(5000):
        counts = {c: rng.choice([0, 1, 1, 2, 2, 3, 3, 4][:rng.choice([7, 8])]) for c in range(rng.randint(0, 8))}
        flat = [(rng.choice([1, 1, 2, 2, 3]), 1) for _ in range(rng.randint(1, 6))]
        assert patterns._place_flat(flat, counts) == _plain_place_flat(flat, counts), (flat, counts)


class _Recording:
    """A ruleset that notes every setting read from it."""

    def __init__(self, rules):
        self.rules, self.read = rules, set()

    def __getitem__(self, name):
        self.read.add(name)
        return self.rules[name]

    def get(self, name, default=None):
        self.read.add(name)
        return self.rules.get(name, default)

    def __getattr__(self, name):
        self.read.add("." + name)
        return getattr(self.rules, name)


@pytest.mark.parametrize("name", ruleset_names())
def test_contexts_share_tables_only_over_the_settings_they_are_made_of(name):
    # rulesets that agree on TABLE_SETTINGS share a context's tables: nothing else may be read making them
    from reference_impl import trump as trump_module
    from reference_impl.cards import RANKS
    rules = rules_for(name)
    for level in RANKS:
        if level in rules["trump.fixed_ranks"]:
            continue
        for t in (None, 0, 1, 2, 3):
            seen = _Recording(rules)
            fresh = trump_module._tables(seen, level, t)
            made_of = set(trump_module.TABLE_SETTINGS) | set(trump_module.OPTIONAL_TABLE_SETTINGS)
            assert seen.read <= made_of, seen.read - made_of
            ctx = context(rules, level, t)
            assert (ctx.suit, ctx.key, ctx.tier, ctx.runs, ctx.wrap_cards, ctx.where, ctx.spot) == fresh
            assert ctx.rules is rules


def _plain_consecutive(ctx, ids):
    """combos._consecutive as first written: every run of the first card, each card's position looked up."""
    for run, _ in ctx.where[ids[0]]:
        positions = []
        for c in ids:
            found = [pp for rr, pp in ctx.where[c] if rr == run]
            if not found:
                break
            positions.append(found[0])
        else:
            positions.sort()
            if len(set(positions)) == len(positions) and positions[-1] - positions[0] == len(positions) - 1:
                return True
    return False


@pytest.mark.parametrize("name", ruleset_names() + catalogue_names())
def test_consecutive_by_places_is_the_plain_lookup(name):
    # a card's one place as a number (Context.spot): the house rules' extra runs (V21) give cards two places
    rules = rules_for(name)
    rng = random.Random(name)
    for level in ("2", "5", "9", "A"):
        if level in rules["trump.fixed_ranks"]:
            continue
        for trump in (None, 0, 3):
            ctx = context(rules, level, trump)
            for suit in range(5):
                cards = [c for c in range(54) if ctx.suit[c] == suit]
                if len(cards) < 2:
                    continue
                for _ in range(150):
                    ids = rng.sample(cards, rng.randint(2, min(5, len(cards))))
                    if rng.random() < 0.5:  # neighbours, the sets a tractor is made of
                        r = rng.randrange(len(ctx.runs[suit]))
                        run = ctx.runs[suit][r]
                        start = rng.randrange(len(run))
                        ids = list(dict.fromkeys(rng.choice(pos) for pos in run[start:start + rng.randint(1, 4)]))
                    assert combos._consecutive(ctx, ids) == _plain_consecutive(ctx, ids), (level, trump, ids)


@pytest.mark.parametrize("name", ruleset_names())
def test_a_follow_judged_with_the_options_obligation_is_judged_as_without(name):
    # a whole hand judges each follow with the obligation follow_options worked out for the same holding
    from reference_impl.combos import classify
    from reference_impl.following import judge_follow_combo
    from reference_impl.legal import follow_options
    rules = rules_for(name)
    rng = random.Random(name)
    deck = [c for c in range(54) for _ in range(rules.decks)]
    obliged = 0
    for level, trump in [("2", 1), ("7", 0), ("A", 3), ("5", None), ("10", 2)]:
        if level in rules["trump.fixed_ranks"]:
            continue
        ctx = context(rules, level, trump)
        for _ in range(120):
            cards = rng.sample(deck, 30)
            lead_cards, hand = cards[:rng.choice([1, 2, 4, 6])], cards[8:8 + rng.randint(6, 22)]
            lead = classify(ctx, lead_cards)
            if lead.kind in ("mixed", "empty"):
                continue
            options = follow_options(ctx, lead, hand)
            obliged += options.obliged is not None
            plays = [list(p) for p, _ in zip(options, range(6))] + [rng.sample(hand, min(len(hand), lead.n))]
            for play in plays:
                plain = judge_follow_combo(ctx, lead, options.hand, play)
                # with the obligation, and with the holding of the led suit too (Follows.judge, a whole hand's)
                for fast in (judge_follow_combo(ctx, lead, options.hand, play, options.obliged),
                             options.judge(play)):
                    assert (fast.value, fast.clauses, fast.reason, fast.detail, fast.extra) == \
                        (plain.value, plain.clauses, plain.reason, plain.detail, plain.extra), (lead_cards, hand, play)
    assert obliged > 50   # most positions ask the obligation
