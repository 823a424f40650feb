"""Properties of the interpreter, checked with Hypothesis over every ruleset."""
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.cards import full_pack
from reference_impl.combos import classify
from reference_impl.following import judge_follow_combo
from reference_impl.rules import REASONS, ruleset_names, rules_for
from reference_impl.sampling import legal_follows, random_follow, random_lead
from reference_impl.trump import TRUMP, context
from reference_impl.trick import judge_trick

RULESETS = ruleset_names()


@st.composite
def positions(draw, max_hand=9):
    """A ruleset, a trump context, a lead from one hand and a follower's hand, from one pack."""
    name = draw(st.sampled_from(RULESETS))
    rules = rules_for(name)
    level = draw(st.sampled_from(rules["level.ranks"]))
    trump = draw(st.sampled_from(["S", "H", "D", "C", None]))
    ctx = context(rules, level, trump)
    rng_seed = draw(st.integers(0, 2**32 - 1))
    import random
    rng = random.Random(rng_seed)
    # a narrow pack makes structure (pairs, tractors) likely: two suits plus jokers
    suits = rng.sample(range(4), 2)
    pack = [c for c in full_pack(rules.decks) if c >= 52 or c // 13 in suits]
    rng.shuffle(pack)
    leader = pack[:12]
    follower_size = draw(st.integers(2, max_hand))
    follower = pack[12:12 + follower_size]
    lead = random_lead(ctx, leader, rng, throw_chance=0.3)
    combo = classify(ctx, lead)
    return ctx, combo, follower, rng


@settings(max_examples=150)
@given(positions())
def test_follow_legality_agrees_with_brute_force(position):
    ctx, lead, hand, _ = position
    if lead.n > len(hand):
        return
    counts = Counter(hand)
    legal = set(legal_follows(ctx, lead, hand))
    assert legal, "some follow is always legal"
    from itertools import combinations
    for combo in set(combinations(sorted(hand), lead.n)):
        verdict = judge_follow_combo(ctx, lead, counts, list(combo))
        assert bool(verdict.value) == (combo in legal)


@settings(max_examples=200)
@given(positions(max_hand=20))
def test_sampled_follows_are_legal(position):
    ctx, lead, hand, rng = position
    if lead.n > len(hand):
        return
    play = random_follow(ctx, lead, hand, rng)
    assert len(play) == lead.n
    assert not (Counter(play) - Counter(hand))
    assert judge_follow_combo(ctx, lead, Counter(hand), play).value


@settings(max_examples=200)
@given(positions(max_hand=12), st.randoms(use_true_random=False))
def test_every_rejected_follow_names_a_violated_obligation(position, rnd):
    ctx, lead, hand, _ = position
    if lead.n > len(hand):
        return
    play = rnd.sample(hand, lead.n)
    verdict = judge_follow_combo(ctx, lead, Counter(hand), play)
    assert verdict.reason in REASONS
    if not verdict.value:
        assert verdict.reason != "ok"
        assert verdict.clauses, "a refusal names the clauses behind it"
        if verdict.reason == "must_follow_suit":
            in_suit = sum(1 for c in hand if ctx.suit[c] == lead.suit)
            played = sum(1 for c in play if ctx.suit[c] == lead.suit)
            assert played < min(in_suit, lead.n)
    else:
        assert verdict.reason == "ok"


@settings(max_examples=100)
@given(positions(max_hand=12), st.randoms(use_true_random=False))
def test_exactly_one_winner_and_it_played_a_matching_suit(position, rnd):
    ctx, lead, _, rng = position
    plays = [list(lead.cards)]
    pack = [c for c in full_pack(ctx.rules.decks)]
    rnd.shuffle(pack)
    for k in range(3):
        hand = pack[k * 20:(k + 1) * 20]
        plays.append(random_follow(ctx, lead, hand, rng))
    j = judge_trick(ctx, plays)
    assert 0 <= j.value < 4
    win = {ctx.suit[c] for c in plays[j.value]}
    assert win == {lead.suit} or win == {TRUMP}
