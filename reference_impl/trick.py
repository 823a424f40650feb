"""Who wins a trick (一轮), and the points in it.

A play can win only if it is all of the led suit or, when a side suit was
led, all trump (a ruff, 枪毙/毙牌), and it has the lead's structure: the same
shape, or for a throw (and for ruffs under ``ruff.structure = same_counts``)
it contains the lead's units. Among such plays trump beats the led side suit;
otherwise the higher wins and between equal plays the first played wins
(``trump.equal_cards``). ``compare.element_over_length`` lets a tractor of
triples beat a tractor of pairs of equal size. A play of several components
ranks by ``compare.multi``; under ``every_component`` (H30) there is no rank, only
a match: a later play takes the trick only when its cards make, for each
component of the winning play, a component of the same shape that beats it,
highest with highest (:func:`_every_match`). Under ``throw.wins_trick`` (H02) a
throw led wins its trick whatever follows.
"""
from __future__ import annotations

from collections import _count_elements  # noqa: PLC2701 - the C counting loop behind collections.Counter
from typing import Iterable, Sequence

from tractor_dsl.patterns import can_form

from .combos import Combo, classify, component_key, tractor_candidates
from .rules import Judgment, Trace
from .trump import TRUMP, Context


def _count(cards) -> dict[int, int]:
    """The cards as a plain dict of copies, in the order first met (what ``dict(Counter(cards))`` gives)."""
    counts: dict[int, int] = {}
    _count_elements(counts, cards)
    return counts


def points_of(rules, cards: Iterable[int]) -> int:
    return sum(map(rules.card_points.__getitem__, cards))


def best_unit_key(ctx: Context, unit: tuple[int, int], counts: dict, suit: int) -> int | None:
    size, length = unit
    if length == 1:
        return max((ctx.key[c] for c, n in counts.items() if n >= size), default=None)
    return max((component_key(ctx, cards) for cards in tractor_candidates(ctx, counts, suit, size, length)),
               default=None)


def _upgrades(ctx: Context, lead: Combo, play: Combo) -> bool:
    """A tractor of triples answering a tractor of pairs with as many cards (999888 vs AAKKQQ)."""
    if lead.kind != "tractor" or play.kind != "tractor" or not ctx.rules["compare.element_over_length"]:
        return False
    return lead.largest.size == 2 and play.largest.size == 3 and lead.n == play.n


def _structure_ok(ctx: Context, lead: Combo, play: Combo, ruff: bool, trace: Trace) -> bool:
    if len(play.cards) != len(lead.cards):
        return False
    if lead.kind != "throw" and play.kind == lead.kind:
        mine, led = play.components[0], lead.components[0]   # the largest components: the same unit
        if mine.size == led.size and mine.length == led.length:
            return True
    if ruff:
        trace.add(ctx.rules.clause("ruff.structure"))
        structure = ctx.rules["ruff.structure"]
        if structure == "same_shape":
            return sorted(play.units) == sorted(lead.units)
        if structure == "any_trumps":  # as many trumps as the lead has cards, whatever their shape
            return True
    if lead.kind != "throw":
        return False
    return can_form(lead.units, ctx.runs[play.suit], _count(play.cards))


def _strength(ctx: Context, lead: Combo, play: Combo, upgraded: bool) -> tuple[int, ...]:
    multi = ctx.rules["compare.multi"]
    several = lead.kind == "throw" or len(play.components) > 1  # a throw, or a shapeless ruff (any_trumps)
    if multi == "highest_card" and several:
        return (0, max(ctx.key[c] for c in play.cards))
    if multi == "by_component" and several:  # component by component, largest first: the first difference decides
        return (0, *(c.key for c in play.components))
    if multi == "every_component":   # the play's components ride along: a match is made against them (_takes)
        comps = tuple((c.size, c.length, c.key) for c in play.components)
        if several:
            return (_EVERY, comps)
        return (1 if upgraded else 0, play.largest.key, comps)
    if lead.kind != "throw":
        return (1 if upgraded else 0, play.largest.key)
    key = best_unit_key(ctx, lead.largest.unit, _count(play.cards), play.suit)
    return (0, key if key is not None else -1)


# compare.multi = every_component: the strength of a play of several components is (_EVERY, its components), each
# component (size, length, key), those of the winning play being the ones its cards were matched to; a play of one
# component keeps the ordinary (upgraded, key) strength with its one component after it
_EVERY = -1
_NO_FLOOR = -(10 ** 9)


def _every_takes(ctx: Context, lead: Combo, play: Combo, strength: tuple, best: tuple, first_ruff: bool) -> tuple | None:
    """``_takes`` under ``compare.multi = every_component``: a first ruff takes a side suit's trick (its cards
    matched to the lead's components where they can be, to be beaten component by component later); two plays
    of one component each compare as under ``largest_component``; otherwise ``play`` takes only when its cards
    make a component of each of the winning play's shapes that beats it (:func:`_every_match`)."""
    if first_ruff:
        if strength[0] != _EVERY:
            return strength
        lead_comps = tuple((c.size, c.length, c.key) for c in lead.components)
        matched = _every_match(ctx, play, lead_comps, beat=False)
        return (_EVERY, matched if matched is not None else strength[1])
    if strength[0] != _EVERY and best[0] != _EVERY:
        return strength if strength[:2] > best[:2] else None
    matched = _every_match(ctx, play, best[-1], beat=True)
    return None if matched is None else (_EVERY, matched)


def _every_match(ctx: Context, play: Combo, against: tuple, beat: bool) -> tuple | None:
    """The cards of ``play`` as one component of each shape of ``against`` ((size, length, key) each), the
    components of one shape paired highest with highest and, when ``beat``, each higher than the one it is
    paired with; None when the cards make no such components. Of several ways, the strongest: each component
    of ``against`` (tractors first, the longest first, then triples, pairs, singles; the highest first within
    a shape) gets the highest component left that can still complete the match."""
    slots = sorted(against, key=lambda c: (-c[1], -c[0], -c[2]))
    counts = _count(play.cards)
    key = ctx.key
    suit = play.suit
    chosen: list[tuple[int, int, int]] = []

    def singles(i: int) -> bool:   # only singles are left: the highest cards left, highest with highest
        left = sorted((key[c] for c, n in counts.items() for _ in range(n)), reverse=True)
        rest = slots[i:]
        if len(left) < len(rest) or (beat and any(k <= floor for (_, _, floor), k in zip(rest, left))):
            return False
        chosen.extend((1, 1, k) for k in left[:len(rest)])
        return True

    def place(i: int, previous: tuple | None) -> bool:
        if i == len(slots):
            return True
        size, length, floor = slots[i]
        if (size, length) == (1, 1):
            return singles(i)
        floor = floor if beat else _NO_FLOOR
        cap = previous[2] if previous is not None and previous[:2] == (size, length) else None
        if length == 1:
            options = [((c,), key[c]) for c, n in counts.items() if n >= size]
        else:
            options = [(cards, component_key(ctx, cards))
                       for cards in tractor_candidates(ctx, counts, suit, size, length)]
        options.sort(key=lambda o: -o[1])   # stable: equal cards in the order they came
        for cards, k in options:
            if cap is not None and k > cap:   # one shape's components are paired highest with highest
                continue
            if k <= floor:
                break
            for c in cards:
                counts[c] -= size
            chosen.append((size, length, k))
            if place(i + 1, chosen[-1]):
                return True
            chosen.pop()
            for c in cards:
                counts[c] += size
        return False

    return tuple(chosen) if place(0, None) else None


def judge_trick(ctx: Context, plays: Sequence[Iterable[int]]) -> Judgment:
    """The index (0 = the leader) of the play that wins, with the trick's points."""
    rules = ctx.rules
    combos = [classify(ctx, p) for p in plays]
    trace = Trace()
    winner = _winner(ctx, combos, trace)
    table = rules.card_points.__getitem__
    points = sum(sum(map(table, p)) for p in plays)
    trace.add(rules.clause("equipment.points"))
    return Judgment(winner, trace.tuple(), "ok", f"play {winner + 1} wins (plays counted from 1, the lead first)",
                    {"points": points, "combos": combos})


def winning_play(ctx: Context, plays: Sequence[Iterable[int]]) -> int:
    """``judge_trick(ctx, plays).value`` without the points, the clauses and the judgment (a player weighing
    its candidate plays asks it for each)."""
    return standing(ctx, plays).winner


class Standing:
    """The trick so far: the play that wins it (``winner``, 0 = the leader) and with what strength, and
    whether one more play would take it (:meth:`taken_by`) — what :func:`winning_play` answers for the plays
    with that one added, without weighing the earlier plays again (a player asks it of every candidate)."""

    __slots__ = ("ctx", "lead", "winner", "best", "best_trump", "_trace", "closed")

    def __init__(self, ctx: Context, lead: Combo, winner: int, best: tuple, best_trump: bool, trace: Trace,
                 closed: bool = False):
        self.ctx, self.lead, self.winner, self.best, self.best_trump, self._trace = \
            ctx, lead, winner, best, best_trump, trace
        self.closed = closed   # throw.wins_trick: a throw led, no later play takes the trick

    def taken_by(self, cards: Iterable[int]) -> bool:
        """Whether ``cards``, played next, would win the trick."""
        return not self.closed and _takes(self.ctx, self.lead, classify(self.ctx, cards), self.best,
                                          self.best_trump, self._trace) is not None


def standing(ctx: Context, plays: Sequence[Iterable[int]]) -> Standing:
    """The :class:`Standing` of a trick after ``plays`` (the lead first)."""
    return _standing(ctx, [classify(ctx, p) for p in plays], Trace())


def _winner(ctx: Context, combos: list[Combo], trace: Trace) -> int:
    """Which of the classified plays wins (see the module docstring), the clauses consulted added to ``trace``."""
    return _standing(ctx, combos, trace).winner


def _standing(ctx: Context, combos: list[Combo], trace: Trace) -> Standing:
    """The plays weighed in order, each against the best before it (:func:`_takes`)."""
    rules = ctx.rules
    lead = combos[0]
    trace.add(rules.clause("trump.order"), rules.clause("trump.equal_cards"))
    if lead.kind == "throw" or rules["ruff.structure"] == "any_trumps":
        trace.add(rules.clause("compare.multi"))
    winner = 0
    best = _strength(ctx, lead, lead, False)
    best_trump = lead.suit == TRUMP
    if lead.kind == "throw" and "throw.wins_trick" in rules.checked.values:
        trace.add(rules.clause("throw.wins_trick"))
        if rules["throw.wins_trick"]:   # H02: a throw accepted wins its trick; nothing after it is weighed
            return Standing(ctx, lead, 0, best, best_trump, trace, closed=True)
    for i, play in enumerate(combos[1:], start=1):
        strength = _takes(ctx, lead, play, best, best_trump, trace)
        if strength is not None:
            winner, best, best_trump = i, strength, best_trump or play.suit == TRUMP
    return Standing(ctx, lead, winner, best, best_trump, trace)


def _takes(ctx: Context, lead: Combo, play: Combo, best: tuple, best_trump: bool, trace: Trace) -> tuple | None:
    """The strength with which ``play`` takes the trick from the best play before it (of strength ``best``,
    trump or not), or None when it does not: it must be of the led suit or a ruff of a side suit, with the
    lead's structure; a first ruff takes a side suit's trick, otherwise only a stronger play takes it (the
    first of equals wins)."""
    if play.kind in ("mixed", "empty"):
        return None
    ruff = play.suit == TRUMP and lead.suit != TRUMP
    if play.suit != lead.suit and not ruff:
        return None
    upgraded = _upgrades(ctx, lead, play)
    if upgraded:
        trace.add(ctx.rules.clause("compare.element_over_length"))
    if not upgraded and not _structure_ok(ctx, lead, play, ruff, trace):
        return None
    strength = _strength(ctx, lead, play, upgraded)
    if ctx.rules["compare.multi"] == "every_component":
        return _every_takes(ctx, lead, play, strength, best, ruff and not best_trump)
    if (ruff and not best_trump) or strength > best:
        return strength
    return None
