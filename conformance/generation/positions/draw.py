"""The one primitive every position is built from: a ``draw`` of a choice.

A builder of positions asks a :class:`Draw` for integers, picks and
permutations, and says when a drawn position is unusable
(:meth:`Draw.require`). Two kinds of draw drive the same builders:

* :class:`RandomDraw` — a seeded :class:`random.Random`: the seeded suite and
  the test vectors (the same seed gives the same positions on every
  platform), the searches for distinguishing positions and examples;
* :class:`HypothesisDraw` — Hypothesis's ``draw`` inside ``st.composite``:
  the generated suite, which shrinks a failing position towards the first
  choice of every draw (few, low cards; the first scenario).

Every choice is an index into a list ordered lowest first, so shrinking and
seeded runs both read the lists the same way.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Sequence, TypeVar

T = TypeVar("T")


class Rejected(Exception):
    """The drawn position cannot be used (a builder's :meth:`Draw.require` failed)."""


class Draw:
    """The interface builders draw through. Subclasses implement :meth:`int` and :meth:`require`."""

    def int(self, lo: int, hi: int) -> int:  # pragma: no cover - interface
        """An integer in ``[lo, hi]`` (shrinks towards ``lo``)."""
        raise NotImplementedError

    def require(self, condition: object) -> None:  # pragma: no cover - interface
        """Give up this position unless ``condition`` holds."""
        raise NotImplementedError

    def pick(self, options: Sequence[T]) -> T:
        """One of ``options`` (shrinks towards the first)."""
        if not options:
            self.require(False)
        if len(options) == 1:
            return options[0]
        return options[self.int(0, len(options) - 1)]

    def bool(self) -> bool:
        return self.int(0, 1) == 1

    def chance(self, numerator: int, denominator: int) -> bool:
        """True ``numerator`` times in ``denominator`` (shrinks towards False)."""
        return self.int(1, denominator) > denominator - numerator if numerator < denominator else True

    def permutation(self, items: Sequence[T]) -> list[T]:
        rest = list(items)
        out = []
        while rest:
            out.append(rest.pop(self.int(0, len(rest) - 1)))
        return out

    def sample(self, items: Sequence[T], n: int) -> list[T]:
        """``n`` of ``items`` without repeats (positions, not values), in drawing order."""
        self.require(0 <= n <= len(items))
        rest = list(items)
        return [rest.pop(self.int(0, len(rest) - 1)) for _ in range(n)]


class RandomDraw(Draw):
    """Draws from a seeded :class:`random.Random`; a failed requirement raises :class:`Rejected`."""

    def __init__(self, rng: random.Random | int | str):
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def int(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def require(self, condition: object) -> None:
        if not condition:
            raise Rejected()


class HypothesisDraw(Draw):
    """Draws through Hypothesis (inside ``st.composite``); a failed requirement is ``assume(False)``."""

    def __init__(self, draw):
        self._draw = draw

    def int(self, lo: int, hi: int) -> int:
        return self._draw(_integers(lo, hi))

    def require(self, condition: object) -> None:
        from hypothesis import assume
        assume(condition)


@lru_cache(maxsize=4096)
def _integers(lo: int, hi: int):
    from hypothesis import strategies as st
    return st.integers(lo, hi)
