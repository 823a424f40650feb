"""Legal plays (合法出牌): every play a hand may make, built from the rules, never from blind subsets.

**Follows.** :func:`follow_options` reads the follow obligation the way
:func:`following.judge_follow_combo` judges it, and returns it as a
:class:`Follows`: the cards every legal play contains (``forced``: the whole
led suit when the hand holds no more of it than the lead has cards), the
units the play must contain (``units``: the ladder entries the holding must
supply, :func:`following.obligation`), the cards they are taken from
(``pool``), and how many further cards are chosen freely (``free``, from what
the units leave of ``pool`` plus ``extra``). Iterating a :class:`Follows`
yields every legal follow exactly once — each placement of the required units
(tractors on every window of every run, pairs and triples on every card that
holds them), then every choice of the free cards — and nothing else; building
it costs about one judgment, however many plays it holds.

**Leads.** :func:`lead_options` returns a :class:`Leads`: every unit the hand
can lead (every single, pair, triple and tractor of every length, mixed
tractors where ``tractor.mixed`` allows them) and, where ``throw.allowed``,
the throws made of up to ``max_components`` such units
(:meth:`Leads.throws`). Whether a throw stands is judged against the other
hands (:func:`leading.judge_lead`), which a player does not see: every throw
here is one a player may *attempt*.

:func:`legal_plays` is the one entry point: a :class:`Leads` for a lead, a
:class:`Follows` for a follow.
"""
from __future__ import annotations

import random
from collections import Counter
from collections import _count_elements  # noqa: PLC2701 - the C counting loop behind Counter
from dataclasses import dataclass, field
from itertools import combinations, product
from typing import Iterable, Iterator

from tractor_dsl.patterns import can_form

from .combos import Combo, classify, tractor_sizes, unit_sizes
from .following import judge_follow_combo, lowest_fill, obligation
from .rules import Trace
from .trump import Context

Unit = tuple[int, int]
Play = tuple[int, ...]


# --------------------------------------------------------------------------- follows

@dataclass(eq=False)
class Follows:
    """Every legal follow to ``lead`` from one hand (see the module docstring).

    A legal play is ``forced`` + a placement of ``units`` taken from ``pool``
    + ``free`` more cards from what is left of ``pool`` plus ``extra``.
    """

    ctx: Context
    lead: Combo
    hand: Counter
    forced: Play
    units: tuple[Unit, ...]
    pool: Counter
    extra: Counter
    free: int
    required: tuple[str, ...] = ()       # the ladder entries that required ``units``
    _placements: list | None = field(default=None, repr=False)
    # what following.obligation gave for the holding of the led suit: (required, chosen, clause ids), or None
    obliged: tuple | None = field(default=None, repr=False)
    suited: Counter | None = field(default=None, repr=False)   # the hand's cards of the led suit, when counted

    @property
    def n(self) -> int:
        return self.lead.n

    def placements(self) -> list[Play]:
        """Every distinct multiset of cards from ``pool`` forming ``units`` (sorted tuples)."""
        if self._placements is None:
            self._placements = sorted(set(_placements(self.ctx, self.lead.suit, self.units, _counter(self.pool))))
        return self._placements

    def __iter__(self) -> Iterator[Play]:
        placements = self.placements()
        seen: set | None = set() if len(placements) > 1 else None
        for placed in placements:
            rest = _counter(self.pool)
            rest.subtract(placed)
            rest.update(self.extra)
            for chosen in sub_multisets(rest, self.free):
                play = tuple(sorted(self.forced + placed + chosen))
                if seen is not None:
                    if play in seen:
                        continue
                    seen.add(play)
                yield play

    def __contains__(self, play: Iterable[int]) -> bool:
        return bool(self.judge(play).value)

    def judge(self, play: Iterable[int]):
        """:func:`following.judge_follow_combo` of ``play`` from this hand, with the obligation and the holding
        of the led suit worked out here."""
        return judge_follow_combo(self.ctx, self.lead, self.hand, list(play), self.obliged, self.suited)

    def count(self, limit: int | None = None) -> int:
        """How many legal follows there are (stops counting at ``limit``)."""
        n = 0
        for _ in self:
            n += 1
            if limit is not None and n >= limit:
                break
        return n

    def key(self) -> tuple:
        """The structure, canonical: equal keys mean equal sets of plays."""
        return (self.forced, self.units, tuple(sorted(self.pool.items())), tuple(sorted(self.extra.items())),
                self.free)

    def same_plays(self, other: "Follows", limit: int = 20000) -> bool:
        """Whether ``other`` allows exactly the same plays (structure first, then the plays themselves)."""
        if self.key() == other.key():
            return True
        if self.n != other.n or Counter(self.hand) != Counter(other.hand):
            return False
        mine = set()
        for p in self:
            mine.add(p)
            if len(mine) > limit:
                return False  # too many to compare: counted as different (stated in impact's docs)
        theirs = 0
        for p in other:
            theirs += 1
            if p not in mine:
                return False
        return theirs == len(mine)

    def sample(self, rng: random.Random) -> list[int]:
        """A random legal follow (a random placement, then random free cards; not uniform over plays)."""
        placements = self.placements()
        placed = rng.choice(placements)
        rest = _counter(self.pool)
        rest.subtract(placed)
        rest.update(self.extra)
        chosen = rng.sample(list(rest.elements()), self.free)
        return list(self.forced) + list(placed) + chosen


def _counted(cards: Iterable[int]) -> Counter:
    """``Counter(cards)`` for an iterable of cards, counted by Counter's own C loop without its
    Python-level update."""
    out = Counter.__new__(Counter)
    _count_elements(out, cards)
    return out


def _counter(mapping) -> Counter:
    """``Counter(mapping)`` for a dict of copies, without Counter's Python-level update (players build
    several per follow)."""
    out = Counter.__new__(Counter)
    dict.update(out, mapping)
    return out


def follow_options(ctx: Context, lead: Combo, hand: Iterable[int] | Counter) -> Follows:
    """The legal follows to ``lead`` from ``hand`` (mirrors :func:`following.judge_follow_combo`)."""
    hand = hand if isinstance(hand, Counter) else _counted(hand)
    n = lead.n
    suit = lead.suit
    s = ctx.suit
    in_suit, off_suit = _counter(()), _counter(())   # the hand's cards of the led suit, and the others
    for c, k in hand.items():
        if s[c] == suit:
            in_suit[c] = k
        else:
            off_suit[c] = k
    held = sum(in_suit.values())
    must_suit = ctx.rules["follow.suit"]
    if held <= n:
        if must_suit:
            return Follows(ctx, lead, hand, tuple(sorted(in_suit.elements())), (), _counter(()), off_suit, n - held,
                           suited=in_suit)
        return Follows(ctx, lead, hand, (), (), _counter(()), _counter(hand), n, suited=in_suit)
    fill = lowest_fill(ctx, lead, in_suit)
    if fill is not None:   # H37: the one play the tractor led dictates
        return Follows(ctx, lead, hand, tuple(sorted(fill.elements())), (), _counter(()), _counter(()), 0,
                       suited=in_suit)
    trace = Trace()
    required, chosen = obligation(ctx, lead, in_suit, trace)
    obliged = (tuple(required), tuple(chosen), tuple(trace.ids))
    units = tuple(sorted(required, key=lambda u: (-u[1], -u[0])))
    extra = _counter(()) if must_suit else off_suit
    if not extra:  # a required single is any card of the pool: it is a free card
        free = n - sum(sz * ln for sz, ln in units if (sz, ln) != (1, 1))
        units = tuple(u for u in units if u != (1, 1))
    else:
        free = n - sum(sz * ln for sz, ln in units)
    return Follows(ctx, lead, hand, (), units, in_suit, extra, free, tuple(chosen), obliged=obliged, suited=in_suit)


def _placements(ctx: Context, suit: int, units: tuple[Unit, ...], counts: Counter,
                floor: tuple = ()) -> Iterator[Play]:
    """Every way to take ``units`` (tractors first, then by size) from ``counts``, as card tuples."""
    if not units:
        yield ()
        return
    (size, length), rest = units[0], units[1:]
    same_next = bool(rest) and rest[0] == units[0]
    for key, cards in _unit_choices(ctx, suit, size, length, counts):
        if floor and key < floor:
            continue  # identical units: one order of placement
        for c in cards:
            counts[c] -= 1
        for more in _placements(ctx, suit, rest, counts, key if same_next else ()):
            yield cards + more
        for c in cards:
            counts[c] += 1


def _unit_choices(ctx: Context, suit: int, size: int, length: int, counts: Counter) -> Iterator[tuple[tuple, Play]]:
    """Each way to take one unit from ``counts``: (an ordering key, the cards)."""
    if length == 1:
        for c in sorted(counts):
            if counts[c] >= size:
                yield (c,), (c,) * size
        return
    for r, run in enumerate(ctx.runs[suit]):
        for start in range(len(run) - length + 1):
            choices = [[c for c in pos if counts.get(c, 0) >= size] for pos in run[start:start + length]]
            if any(not ch for ch in choices):
                continue
            for pick in product(*choices):
                yield (r, start, pick), tuple(c for c in pick for _ in range(size))


def sub_multisets(counts: Counter, k: int) -> Iterator[Play]:
    """Every sub-multiset of ``k`` cards of ``counts``, each once, as a sorted tuple."""
    items = sorted((c, m) for c, m in counts.items() if m > 0)
    suffix = [0] * (len(items) + 1)
    for i in range(len(items) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + items[i][1]

    def rec(i: int, need: int) -> Iterator[Play]:
        if need == 0:
            yield ()
            return
        if i == len(items) or suffix[i] < need:
            return
        c, m = items[i]
        for take in range(min(m, need), -1, -1):
            for tail in rec(i + 1, need - take):
                yield (c,) * take + tail

    return rec(0, k)


# --------------------------------------------------------------------------- leads

class Leads:
    """What a hand can lead: every unit (:attr:`units`, built on first use), and throws of up to
    ``max_components`` units (:meth:`throws`)."""

    def __init__(self, ctx: Context, hand: Counter, throws_allowed: bool, max_components: int = 2):
        self.ctx = ctx
        self.hand = hand
        self.throws_allowed = throws_allowed
        self.max_components = max_components
        self._units: tuple[Play, ...] | None = None

    @property
    def units(self) -> tuple[Play, ...]:
        """Every single, pair, triple and tractor the hand holds, each once."""
        if self._units is None:
            self._units = tuple(lead_units(self.ctx, self.hand))
        return self._units

    def __iter__(self) -> Iterator[Play]:
        yield from self.units
        if self.throws_allowed:
            yield from self.throws(self.max_components)

    def throws(self, max_components: int | None = None, within: Iterable[int] | None = None) -> Iterator[Play]:
        """Throws of 2..``max_components`` units (of one suit, taken together from the hand), each once.

        ``within`` restricts them to units made of those cards (a player's
        choice of cards it thinks nobody can beat).
        """
        if not self.throws_allowed:
            return
        k_max = self.max_components if max_components is None else max_components
        allowed = None if within is None else Counter(within)
        by_suit: dict[int, list[Play]] = {}
        for u in self.units:
            if allowed is not None and any(allowed[c] < m for c, m in _counted(u).items()):
                continue
            by_suit.setdefault(self.ctx.suit[u[0]], []).append(u)
        seen: set = set()
        limit = self.hand if allowed is None else (self.hand & allowed)
        for units in by_suit.values():
            for k in range(2, k_max + 1):
                for group in combinations(units, k):
                    cards = tuple(sorted(c for u in group for c in u))
                    if cards in seen:
                        continue
                    seen.add(cards)
                    if any(limit[c] < m for c, m in _counted(cards).items()):
                        continue
                    if classify(self.ctx, cards).kind == "throw":
                        yield cards

    def __contains__(self, play: Iterable[int]) -> bool:
        """Whether ``play`` is a lead this hand may make: a unit it holds, or a throw where throws are allowed."""
        play = list(play)
        if not play:
            return False
        hand = self.hand
        if any(hand[c] < m for c, m in _counted(play).items()):  # cards the hand does not hold
            return False
        kind = classify(self.ctx, play).kind
        return kind in ("single", "pair", "triple", "tractor") or (kind == "throw" and self.throws_allowed)

    def key(self) -> tuple:
        return (self.units, self.throws_allowed)

    def same_plays(self, other: "Leads") -> bool:
        """Equal units mean equal throws: a throw is a one-suit play that is not a unit."""
        return set(self.units) == set(other.units) and self.throws_allowed == other.throws_allowed


def lead_units(ctx: Context, hand: Counter) -> list[Play]:
    """Every single, pair, triple and tractor ``hand`` holds, each once, as sorted tuples."""
    out: list[Play] = []
    sizes = sorted(unit_sizes(ctx))
    least = sizes[0] if sizes else 2   # a card held fewer times is a single only
    often: list[tuple[int, int]] = []  # the cards held at least that often, with their copies
    for c, n in sorted(hand.items()):
        out.append((c,))
        if n >= least:
            often.append((c, n))
            for s in sizes:
                if n >= s:
                    out.append((c,) * s)
    t_sizes = tractor_sizes(ctx)
    if ctx.rules["tractor.mixed"] and len(t_sizes) > 1:
        return out + _mixed_tractors(ctx, hand, t_sizes)
    min_len = ctx.rules["tractor.min_length"]
    seen: set = set()
    where, suit_of = ctx.where, ctx.suit
    for size in t_sizes:
        big = [c for c, n in (often if size >= least else hand.items()) if n >= size]
        if len(big) < min_len:
            continue  # a tractor takes a card held ``size`` times at each of min_len positions at least
        # the positions, run by run, where the hand holds a card ``size`` times: tractors lie within them
        marked: dict[tuple[int, int], set[int]] = {}
        for c in big:
            for r, p in where[c]:
                marked.setdefault((suit_of[c], r), set()).add(p)
        for (suit, r), ps in sorted(marked.items()):
            if len(ps) < min_len:
                continue
            run = ctx.runs[suit][r]
            for stretch in _stretches(sorted(ps)):
                choices = [[c for c in run[q] if hand.get(c, 0) >= size] for q in stretch]
                for i in range(len(stretch)):
                    for j in range(i + min_len, len(stretch) + 1):
                        for pick in product(*choices[i:j]):
                            cards = tuple(sorted(c for c in pick for _ in range(size)))
                            if cards not in seen:
                                seen.add(cards)
                                out.append(cards)
    return out


def _stretches(positions: list[int]) -> Iterator[list[int]]:
    """Consecutive runs of positions: [1, 2, 3, 7, 8] -> [1, 2, 3], [7, 8]."""
    stretch: list[int] = []
    for p in positions:
        if stretch and p != stretch[-1] + 1:
            yield stretch
            stretch = []
        stretch.append(p)
    if stretch:
        yield stretch


def _mixed_tractors(ctx: Context, hand: Counter, t_sizes: tuple[int, ...]) -> list[Play]:
    """Tractors where ``tractor.mixed`` lets pairs and triples chain (88999): every window, every mix."""
    out: list[Play] = []
    seen: set = set()
    min_len = ctx.rules["tractor.min_length"]
    for suit in range(5):
        for run in ctx.runs[suit]:
            for start in range(len(run)):
                for end in range(start + min_len, len(run) + 1):
                    options = []
                    for pos in run[start:end]:
                        opts = [(c, sz) for c in pos for sz in t_sizes if hand.get(c, 0) >= sz]
                        if not opts:
                            break
                        options.append(opts)
                    else:
                        for pick in product(*options):
                            cards = tuple(sorted(c for c, sz in pick for _ in range(sz)))
                            if cards in seen:
                                continue
                            if len({sz for _, sz in pick}) > 1 and classify(ctx, cards).kind != "tractor":
                                continue
                            seen.add(cards)
                            out.append(cards)
                        continue
                    break  # a position with no unit ends every longer window from ``start``
    return out


def lead_options(ctx: Context, hand: Iterable[int] | Counter, max_components: int = 2) -> Leads:
    hand = hand if isinstance(hand, Counter) else _counted(hand)
    """What ``hand`` can lead (see :class:`Leads`)."""
    return Leads(ctx, hand, bool(ctx.rules["throw.allowed"]), max_components)


def legal_plays(ctx: Context, hand: Iterable[int], lead: Combo | Iterable[int] | None = None,
                max_components: int = 2) -> Leads | Follows:
    """The plays ``hand`` may make: a :class:`Leads` when it leads, a :class:`Follows` when it follows ``lead``."""
    if lead is None:
        return lead_options(ctx, hand, max_components)
    if not isinstance(lead, Combo):
        lead = classify(ctx, lead)
    return follow_options(ctx, lead, hand)


def is_unit(ctx: Context, cards: Iterable[int]) -> bool:
    """Whether ``cards`` are one single, pair, triple or tractor (no throw)."""
    return classify(ctx, cards).kind in ("single", "pair", "triple", "tractor")


__all__ = ["Follows", "Leads", "follow_options", "lead_options", "legal_plays", "lead_units",
           "sub_multisets", "is_unit", "can_form"]
