"""Whole hands and games: conservation, points, termination, for every ruleset."""
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.cards import full_pack
from reference_impl.game import play_game
from reference_impl.hand import play_hand
from reference_impl.rules import ruleset_names, rules_for
from reference_impl.trick import points_of

RULESETS = ruleset_names()


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(0, 10**6), st.booleans())
def test_a_hand_conserves_cards_and_points(name, seed, first):
    rules = rules_for(name)
    start = rules["level.start"]
    hand = play_hand(rules, random.Random(seed), 1 if first else 2, {0: start, 1: start},
                     None if first else seed % 4)
    dealt = [c for cards in hand.deal.values() for c in cards] + hand.kitty
    assert Counter(dealt) == Counter(full_pack(rules.decks))            # the deal is the whole pack
    played = [c for t in hand.tricks for _, p in t.plays for c in p] + hand.buried
    assert Counter(played) == Counter(full_pack(rules.decks))           # every card is played or buried once
    assert len(hand.buried) == rules.kitty_size
    total = sum(t.points for t in hand.tricks) + points_of(rules, hand.buried)
    assert total == sum(rules.points.get(r, 0) for r in rules.points) * 4 * rules.decks  # 100 × decks
    assert total == 100 * rules.decks
    for t in hand.tricks:
        sizes = {len(p) for _, p in t.plays}
        assert len(sizes) == 1                                           # everybody plays as many cards
        assert [s for s, _ in t.plays] == [(t.leader + k) % 4 for k in range(4)]
        assert t.winner in {s for s, _ in t.plays}
    assert hand.attackers_points == hand.trick_points + hand.kitty_points + hand.penalty_points
    assert hand.next_banker_side in ("banker", "attackers")


@pytest.mark.slow
@pytest.mark.parametrize("name", RULESETS)
def test_random_games_finish(name):
    rules = rules_for(name)
    for seed in (1, 2):
        game = play_game(rules, seed, max_hands=400)
        assert game.winner in (0, 1), f"{name} seed {seed} did not finish"
        end = rules["level.end"]
        if end is not None and end in rules["level.must_play"]:
            # 003:3.2 "A为必打之级，不得跳过": the winner was playing the end level
            assert game.levels[-1][game.winner] == end
