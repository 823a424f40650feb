"""legal_plays agrees exactly with judge_follow and judge_lead.

Follows: every play the generator yields is judged legal, each once, and on
small holdings brute force over every sub-multiset finds no legal play it
misses. Leads: the generator covers every single, pair, triple and tractor
the hand holds and every throw of up to ``max_components`` components, and
nothing it yields is refused by judge_lead when no other hand can beat it.
"""
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.cards import full_pack, parse_cards
from reference_impl.combos import classify
from reference_impl.following import judge_follow_combo
from reference_impl.leading import judge_lead
from reference_impl.legal import Follows, Leads, follow_options, legal_plays, sub_multisets
from reference_impl.rules import ruleset_names, rules_for
from reference_impl.sampling import random_lead
from reference_impl.trump import context

from .helpers import cards, ctx

RULESETS = ruleset_names()
UNITS = ("single", "pair", "triple", "tractor")


@st.composite
def positions(draw, max_hand=10):
    """A ruleset and trump context, a lead from one hand, and a follower's hand from the same narrow pack."""
    rules = rules_for(draw(st.sampled_from(RULESETS)))
    level = draw(st.sampled_from(rules["level.ranks"]))
    ctx_ = context(rules, level, draw(st.sampled_from(["S", "H", "D", "C", None])))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    suits = rng.sample(range(4), 2)  # two suits and the jokers: pairs and tractors are likely
    pack = [c for c in full_pack(rules.decks) if c >= 52 or c // 13 in suits]
    rng.shuffle(pack)
    hand = pack[12:12 + draw(st.integers(1, max_hand))]
    lead = classify(ctx_, random_lead(ctx_, pack[:12], rng, throw_chance=0.4))
    return ctx_, lead, hand


def _legal_by_brute_force(ctx_, lead, hand) -> set:
    counts = Counter(hand)
    return {p for p in sub_multisets(counts, lead.n) if judge_follow_combo(ctx_, lead, counts, list(p)).value}


@settings(max_examples=300)
@given(positions())
def test_follows_are_exactly_the_legal_plays(position):
    ctx_, lead, hand = position
    if lead.n > len(hand):
        return
    generated = list(legal_plays(ctx_, hand, lead))
    assert len(generated) == len(set(generated)), "each play once"
    counts = Counter(hand)
    for p in generated:
        assert judge_follow_combo(ctx_, lead, counts, list(p)).value, p
    assert set(generated) == _legal_by_brute_force(ctx_, lead, hand)


@settings(max_examples=150)
@given(positions(max_hand=25), st.randoms(use_true_random=False))
def test_sampled_follows_are_legal_on_larger_hands(position, rnd):
    ctx_, lead, hand = position
    if lead.n > len(hand):
        return
    options = follow_options(ctx_, lead, hand)
    for _ in range(3):
        play = options.sample(rnd)
        assert play in options
        assert judge_follow_combo(ctx_, lead, Counter(hand), play).value


def test_follow_options_state_the_obligation():
    # 001:9b — a tractor of pairs led: a follower holding a tractor in the suit must play it
    c = ctx("r001", "9", "S")
    options = follow_options(c, classify(c, cards("5H 5H 6H 6H")), cards("7H 7H 8H 8H 3H 4H 10S"))
    assert options.units == ((2, 2),)
    assert list(options) == [tuple(sorted(cards("7H 7H 8H 8H")))]
    # short of the suit: every heart is forced, the rest is free
    short = follow_options(c, classify(c, cards("5H 5H")), cards("3H 10S JS"))
    assert short.forced == tuple(cards("3H")) and short.free == 1
    assert sorted(short) == sorted([tuple(sorted(cards("3H 10S"))), tuple(sorted(cards("3H JS")))])


@settings(max_examples=200)
@given(positions(max_hand=9), st.integers(2, 3))
def test_leads_cover_every_unit_and_every_bounded_throw(position, k):
    ctx_, _, hand = position
    leads = lead_options_of(ctx_, hand, k)
    units = set(leads.units)
    throws = set(leads.throws(k))
    assert len(units) == len(leads.units)
    for n in range(1, len(hand) + 1):
        for p in sub_multisets(Counter(hand), n):
            combo = classify(ctx_, p)
            if combo.kind in UNITS:
                assert p in units, (combo.kind, p)
            elif combo.kind == "throw" and len(combo.components) <= k and leads.throws_allowed:
                assert p in throws, p
    for p in units:
        assert classify(ctx_, p).kind in UNITS
    for p in throws:
        assert classify(ctx_, p).kind == "throw"
        assert judge_lead(ctx_, p, [[], [], []]).value, "nobody else holds a card: every throw stands"
    assert set(leads) == units | throws


def lead_options_of(ctx_, hand, k) -> Leads:
    options = legal_plays(ctx_, hand, None, max_components=k)
    assert isinstance(options, Leads)
    return options


def test_throws_within_a_chosen_set_of_cards():
    c = ctx("r000", "2", "S")
    leads = legal_plays(c, cards("AH KH KH 9H 5D"))
    within = set(leads.throws(3, within=cards("AH KH KH")))
    assert within == {tuple(sorted(cards("AH KH KH"))), tuple(sorted(cards("AH KH")))}


def test_leads_contain_units_and_throws_only_where_allowed():
    c = ctx("r000", "2", "S")
    leads = legal_plays(c, cards("AH KH KH 9H 5D"))
    assert cards("KH KH") in leads and cards("AH KH KH") in leads
    assert cards("AH 5D") not in leads              # two suits
    assert cards("AH AH") not in leads              # not held


def test_same_plays_compares_sets_not_structures():
    c = ctx("r001", "9", "S")
    lead = classify(c, cards("5H 5H 6H 6H"))
    hand = cards("7H 7H 8H 8H 3H")
    a = follow_options(c, lead, hand)
    b = Follows(c, lead, Counter(hand), (), ((2, 1), (2, 1)), a.pool, a.extra, a.free)
    assert a.key() != b.key() and a.same_plays(b)    # two pairs from a holding whose only pairs are the tractor
