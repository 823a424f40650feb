"""The fast paths of whole hands give the answers of the plain procedures they stand for.

As :mod:`tests.interp.test_fast_paths`, for the procedures a whole hand asks most often: who takes a trick
when one more play is weighed against the plays before it, written here the plain way, on random tricks of
every bundled ruleset.
"""
import random

import pytest

from reference_impl import trick
from reference_impl.combos import classify
from reference_impl.legal import follow_options
from reference_impl.rules import Trace, ruleset_names, rules_for
from reference_impl.trump import TRUMP, context

CONTEXTS = [("2", 1), ("7", 0), ("A", 3), ("5", None), ("10", 2)]


def _plain_winner(ctx, plays):
    """The module docstring of :mod:`reference_impl.trick`, the plain way: every play weighed in order
    against the best so far (the loop as it was written before :class:`trick.Standing`)."""
    combos = [classify(ctx, p) for p in plays]
    lead = combos[0]
    trace = Trace()
    winner = 0
    best = trick._strength(ctx, lead, lead, False)
    best_trump = lead.suit == TRUMP
    for i, play in enumerate(combos[1:], start=1):
        if play.kind in ("mixed", "empty"):
            continue
        ruff = play.suit == TRUMP and lead.suit != TRUMP
        if play.suit != lead.suit and not ruff:
            continue
        upgraded = trick._upgrades(ctx, lead, play)
        if not upgraded and not trick._structure_ok(ctx, lead, play, ruff, trace):
            continue
        strength = trick._strength(ctx, lead, play, upgraded)
        if ruff and not best_trump:
            winner, best, best_trump = i, strength, True
        elif strength > best:
            winner, best = i, strength
    return winner


def _tricks(ctx, rng, n):
    """Random tricks under way: a lead of one suit, then legal follows (and now and then any cards)."""
    deck = [c for c in range(54) for _ in range(ctx.rules.decks)]
    for _ in range(n):
        cards = rng.sample(deck, 4 * 12)
        hands = [cards[12 * k:12 * k + 12] for k in range(4)]
        suit = ctx.suit[hands[0][0]]
        lead = [c for c in hands[0] if ctx.suit[c] == suit][:rng.choice([1, 2, 2, 4, 6])]
        if classify(ctx, lead).kind == "mixed":
            continue
        combo = classify(ctx, lead)
        plays = [lead]
        for k in (1, 2, 3):
            options = follow_options(ctx, combo, hands[k])
            play = options.sample(rng) if rng.random() < 0.8 else rng.sample(hands[k], combo.n)
            plays.append(play)
        yield plays, [follow_options(ctx, combo, h) for h in hands[1:]]


@pytest.mark.parametrize("name", ruleset_names())
def test_a_trick_standing_is_the_plain_weighing_of_every_play(name):
    rules = rules_for(name)
    rng = random.Random(name)
    taken = 0
    for level, trump in CONTEXTS:
        if level in rules["trump.fixed_ranks"]:
            continue
        ctx = context(rules, level, trump)
        for plays, options in _tricks(ctx, rng, 60):
            assert trick.judge_trick(ctx, plays).value == _plain_winner(ctx, plays), plays
            for k in (1, 2, 3):
                now = trick.standing(ctx, plays[:k])
                assert now.winner == _plain_winner(ctx, plays[:k]) == trick.winning_play(ctx, plays[:k])
                candidates = [list(p) for p, _ in zip(options[k - 1], range(8))] + [plays[k]]
                for p in candidates:
                    fast = now.taken_by(p)
                    assert fast == (_plain_winner(ctx, plays[:k] + [p]) == k), (plays[:k], p)
                    taken += fast
    assert taken > 100
