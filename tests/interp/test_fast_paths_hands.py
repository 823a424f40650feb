"""The fast paths of whole hands give the answers of the plain procedures they stand for.

As :mod:`tests.interp.test_fast_paths`, for the procedures a whole hand asks most often, on random positions
of every bundled ruleset: who takes a trick when one more play is weighed against the plays before it (the
weighing written here the plain way), and one more declaration judged after the sequence before it (against
:func:`reference_impl.declaring.judge_declarations` of the whole sequence).
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


def _shows(rules, level, rng):
    """What a seat might show: level cards of a suit, jokers, the first-hand token, now and then anything."""
    from reference_impl.cards import card
    from reference_impl.seats import declaration_candidates
    hand = tuple(sorted(rng.sample([c for c in range(54) for _ in range(rules.decks)], 30)))
    shows = declaration_candidates(rules, level, hand)
    shows += [(c,) * rng.randint(1, rules.decks) for c in (52, 53, card(level, "S"), rng.randrange(54))]
    return shows


@pytest.mark.parametrize("name", ruleset_names() + ["v74_retake_after_overcall", "v75_suit_precedence"])
def test_a_declaration_judged_after_the_remembered_sequence_is_judged_as_the_whole_sequence(name):
    from reference_impl.declaring import Declaring, judge_declarations
    rules = rules_for(name)
    rng = random.Random(name)
    legal = 0
    for level in ("2", "5", "A", "10"):
        if level in rules["trump.fixed_ranks"]:
            continue
        for _ in range(40):
            first_hand = rng.random() < 0.5
            banker = None if first_hand else rng.randrange(4)
            kitty_taken = rng.random() < 0.2
            wrong = [(rng.randrange(4), [rng.randrange(52)])] if rng.random() < 0.3 else []
            declaring = Declaring(rules, level, first_hand, kitty_taken, banker, wrong)
            sequence = []
            for _ in range(rng.randint(1, 6)):
                seat = rng.randrange(4)
                steps = _shows(rules, level, rng)
                for shown in steps:
                    fast = declaring.judge_next(seat, shown)
                    plain = judge_declarations(rules, level, sequence + [(seat, list(shown))], first_hand,
                                               kitty_taken, banker, wrong)
                    assert (fast.value, fast.clauses, fast.reason, fast.detail, fast.extra) == \
                        (plain.value, plain.clauses, plain.reason, plain.detail, plain.extra), (sequence, shown)
                made = [s for s in steps if judge_declarations(rules, level, sequence + [(seat, list(s))],
                                                               first_hand, False, banker, wrong).value.legal]
                if made:
                    shown = rng.choice(made)
                    legal += 1
                    sequence.append((seat, list(shown)))
                    declaring.add(seat, shown)
    assert legal > 50
