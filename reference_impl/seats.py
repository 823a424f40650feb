"""Seats at the table: what a player sees, what a player decides, and the default random player.

A whole hand (:mod:`hand`) asks a *player* four things, always with a
:class:`SeatView` — the table as that seat sees it, nothing more — and, where
there is a choice of plays, the choices the interpreter generated
(:mod:`legal`):

* ``declare(view, options)`` — one of ``options`` (the declarations the
  interpreter judges legal for this seat now) or None to pass;
* ``bury(view, n)`` — the banker's ``n`` cards for the kitty, from its hand
  (which holds the kitty it picked up);
* ``lead(view, options)`` — a play from ``options`` (:class:`legal.Leads`);
* ``follow(view, options)`` — a play from ``options`` (:class:`legal.Follows`).

The hand checks every answer against the interpreter (a play outside the
options is a player's bug, reported as :class:`hand.HandError`).

:class:`SamplingPlayer` is the players' default: random but always legal,
drawing from a random generator it may share with the deal.
"""
from __future__ import annotations

import random
from collections import Counter
from collections import _count_elements  # noqa: PLC2701 - the C counting loop behind Counter
from dataclasses import dataclass
from typing import Any, Protocol

from .cards import BIG_JOKER, RANKS, SMALL_JOKER, card
from .legal import Follows, Leads
from .rules import Rules
from .trick import points_of
from .trump import TRUMP, Context

Play = tuple[int, ...]


@dataclass(frozen=True)
class SeatView:
    """The table as one seat sees it: its own hand and what is public (never another hand).

    ``tricks`` are the finished tricks of the hand (:class:`hand.Trick`,
    with their plays, winners and any failed throw), ``current`` the plays
    made so far in the trick under way, ``kitty`` the kitty the banker
    picked up (for the banker only, None for everybody else) and ``buried``
    the cards the banker put back (banker only).
    """

    seat: int
    rules: Rules
    level: str
    hand: Play
    first_hand: bool
    banker: int | None
    levels: tuple[str, str]                        # team 0's level, team 1's level
    declarations: tuple[tuple[int, Play], ...] = ()
    ctx: Context | None = None                     # None while trump is not yet fixed
    tricks: tuple[Any, ...] = ()
    current: tuple[tuple[int, Play], ...] = ()
    kitty: Play | None = None
    buried: Play | None = None

    def __init__(self, seat: int, rules: Rules, level: str, hand: Play, first_hand: bool, banker: int | None,
                 levels: tuple[str, str], declarations: tuple = (), ctx: Context | None = None, tricks: tuple = (),
                 current: tuple = (), kitty: Play | None = None, buried: Play | None = None):
        # the generated __init__ without object.__setattr__ per field (as DeclarationState's): a hand draws a
        # view for every declaration, lead and follow
        d = self.__dict__
        d["seat"], d["rules"], d["level"], d["hand"], d["first_hand"] = seat, rules, level, hand, first_hand
        d["banker"], d["levels"], d["declarations"], d["ctx"] = banker, levels, declarations, ctx
        d["tricks"], d["current"], d["kitty"], d["buried"] = tricks, current, kitty, buried

    @property
    def team(self) -> int:
        return self.seat % 2

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    @property
    def is_banker_side(self) -> bool:
        return self.banker is not None and self.banker % 2 == self.seat % 2

    def played(self) -> Counter:
        """Every card seen played in this hand so far (finished tricks and the current one)."""
        seen: Counter = Counter()
        for t in self.tricks:
            for _, p in t.plays:
                seen.update(p)
        for _, p in self.current:
            seen.update(p)
        return seen


class Player(Protocol):
    def declare(self, view: SeatView, options: list[Play]) -> Play | None: ...
    def bury(self, view: SeatView, n: int) -> list[int]: ...
    def lead(self, view: SeatView, options: Leads) -> list[int]: ...
    def follow(self, view: SeatView, options: Follows) -> list[int]: ...


def declaration_candidates(rules: Rules, level: str, hand: Play) -> list[Play]:
    """What a hand could show to declare (level cards of one suit, joker pairs, with the first-hand token)."""
    counts: dict[int, int] = {}
    _count_elements(counts, hand)  # Counter's C loop, into a plain dict (only read with get)
    out: list[Play] = []
    required = rules["declare.first_hand_card"]
    extra = card(*required) if required is not None else None
    for s in "SHDC" if level in RANKS else "":   # the no-trump level (NT) has no level card
        c = card(level, s)
        for n in range(1, counts.get(c, 0) + 1):
            shown = (c,) * n
            out.append(shown)
            if extra is not None and counts.get(extra, 0) > (n if extra == c else 0):
                out.append(shown + (extra,))
    for j in (SMALL_JOKER, BIG_JOKER) if level in RANKS else ():   # nothing is declared at NT
        for n in range(2, counts.get(j, 0) + 1):
            out.append((j,) * n)
    return out


def low_cards(ctx: Context, hand: list[int], n: int, rng: random.Random) -> list[int]:
    """The ``n`` cards a banker buries by habit: side cards before trumps, no points, low first."""
    rules = ctx.rules
    ranked = sorted(hand, key=lambda c: (ctx.suit[c] == TRUMP, points_of(rules, [c]) > 0, ctx.key[c], rng.random()))
    return ranked[:n]


class SamplingPlayer:
    """Random legal choices from a shared random generator (the default of :func:`hand.play_hand`).

    Declares with probability 0.7 when it can, buries low side cards without
    points, leads a random unit (sometimes a throw), follows with a random
    legal play.
    """

    def __init__(self, rng: random.Random):
        self.rng = rng

    def declare(self, view: SeatView, options: list[Play]) -> Play | None:
        if not options or self.rng.random() >= 0.7:
            return None
        return self.rng.choice(options)

    def bury(self, view: SeatView, n: int) -> list[int]:
        return low_cards(view.ctx, list(view.hand), n, self.rng)

    def lead(self, view: SeatView, options: Leads) -> list[int]:
        from .sampling import random_lead
        return random_lead(view.ctx, view.hand, self.rng, throw_chance=0.15)

    def follow(self, view: SeatView, options: Follows) -> list[int]:
        return options.sample(self.rng)
