"""The random legal player: the control against which the heuristic player is measured."""
from __future__ import annotations

import random

from reference_impl.legal import Follows, Leads
from reference_impl.seats import SeatView


class RandomPlayer:
    """Uniform choices among what the interpreter generates.

    Declares one of its options or passes, each equally likely; buries any
    cards; leads a random unit, or (one time in ten, where throws are
    allowed) a random throw of two units; follows with a random legal play
    (:meth:`legal.Follows.sample`: a random placement of the required units,
    then random free cards).
    """

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def declare(self, view: SeatView, options: list) -> tuple | None:
        pick = self.rng.randrange(len(options) + 1)
        return None if pick == len(options) else options[pick]

    def bury(self, view: SeatView, n: int) -> list[int]:
        return self.rng.sample(list(view.hand), n)

    def lead(self, view: SeatView, options: Leads) -> list[int]:
        if options.throws_allowed and self.rng.random() < 0.1:
            throws = list(options.throws(2))
            if throws:
                return list(self.rng.choice(throws))
        return list(self.rng.choice(options.units))

    def follow(self, view: SeatView, options: Follows) -> list[int]:
        return options.sample(self.rng)
