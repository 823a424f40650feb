"""Cards of one effective suit, and putting units on them.

A :class:`View` lays out one effective suit of one trump context lowest
first: its cards, its groups of equal cards, the windows of its runs (where
tractors go) and its *boundaries* — the places where a setting, not the face
rank, decides whether two neighbouring cards chain (tier junctions, the
removed level rank, off-suit level cards, fixed ranks, AA22). Builders place
units (singles, pairs, triples, tractors) on a view through a
:class:`~conformance.generation.positions.draw.Draw`, so the same code serves the seeded
suite and Hypothesis.

A unit is ``(size, length)``: a single (1, 1), a pair (2, 1), a triple
(3, 1), a tractor of k pairs (2, k) or of k triples (3, k).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from reference_impl.cards import RANKS, text
from reference_impl.rules import Rules
from reference_impl.trump import TRUMP, Context, context
from tractor_dsl.patterns import can_form

from conformance.generation.positions.draw import Draw

Unit = tuple[int, int]
SUIT_LETTERS = ("S", "H", "D", "C")
TRUMPS = ("S", "H", "D", "C", None)


@dataclass(frozen=True, eq=False)
class View:
    """One effective suit of one trump context; every list lowest first."""

    suit: int
    cards: tuple[int, ...]                      # by (key, card)
    groups: tuple[tuple[int, ...], ...]         # cards of equal key, by key
    group_of: dict                              # card -> index in groups
    windows: dict                               # length -> windows (each: positions, each: cards)
    near: dict                                  # card -> cards adjacent to it in some run
    longest: int                                # the longest run
    runs: tuple                                 # ctx.runs[suit], as tractor_dsl.patterns reads runs
    boundaries: tuple[int, ...]                 # i: groups i and i+1 meet where a setting decides adjacency
    special: tuple                              # two-position run windows linking cards not key-adjacent


@lru_cache(maxsize=4096)
def view(ctx: Context, suit: int) -> View:
    cards = tuple(sorted((c for c in range(54) if ctx.suit[c] == suit), key=lambda c: (ctx.key[c], c)))
    groups: list[list[int]] = []
    for c in cards:
        if groups and ctx.key[groups[-1][0]] == ctx.key[c]:
            groups[-1].append(c)
        else:
            groups.append([c])
    group_of = {c: i for i, g in enumerate(groups) for c in g}
    runs = [tuple(reversed(run)) for run in ctx.runs[suit]]
    windows: dict[int, list] = {}
    near: dict[int, set] = {c: set() for c in cards}
    for run in runs:
        for a, b in zip(run, run[1:]):
            for x in a:
                for y in b:
                    near[x].add(y)
                    near[y].add(x)
        for length in range(2, len(run) + 1):
            for start in range(len(run) - length + 1):
                windows.setdefault(length, []).append(run[start:start + length])
    for ws in windows.values():
        ws.sort(key=lambda w: (min(ctx.key[c] for c in w[0]), ctx.key[w[-1][0]]))
    boundaries = []
    for i in range(len(groups) - 1):
        a, b = groups[i][0], groups[i + 1][0]
        plain = (ctx.tier[a] == ctx.tier[b] and a < 52 and b < 52 and a // 13 == b // 13
                 and a % 13 + 1 == b % 13 and len(groups[i]) == len(groups[i + 1]) == 1)
        if not plain:
            boundaries += [i] * (2 if ctx.tier[a] != ctx.tier[b] else 1)
    special = tuple(w for w in windows.get(2, ()) if abs(group_of[w[0][0]] - group_of[w[1][0]]) != 1
                    for _ in range(3 if set(w[0] + w[1]) <= ctx.wrap_cards else 1))
    return View(suit, cards, tuple(tuple(g) for g in groups), group_of,
                {k: tuple(v) for k, v in windows.items()}, {c: frozenset(v) for c, v in near.items()},
                max((len(r) for r in runs), default=0), ctx.runs[suit], tuple(boundaries), special)


def suits(ctx: Context) -> list[int]:
    """The effective suits of the context, side suits first, trump last."""
    return [s for s in range(4) if s != ctx.trump] + [TRUMP]


def side_suits(ctx: Context) -> list[int]:
    return [s for s in range(4) if s != ctx.trump]


def levels(rules: Rules) -> tuple[str, ...]:
    """The levels a hand with a trump suit is played at: the climbed ranks that are not fixed trump (not the
    no-trump level NT of V66, which is no rank: it is seen on ``advance``)."""
    fixed = set(rules["trump.fixed_ranks"])
    return tuple(r for r in rules["level.ranks"] if r not in fixed and r in RANKS)


def draw_context(d: Draw, rules: Rules) -> tuple[str, str | None, Context]:
    level = d.pick(levels(rules))
    trump = d.pick(TRUMPS)
    return level, trump, context(rules, level, trump)


def draw_suit(d: Draw, ctx: Context, trump_share: str = "some") -> int:
    """A led suit: side suits or trump (``trump_share``: ``some`` one in five, ``half`` one in two)."""
    if trump_share == "half" and d.bool():
        return TRUMP
    return d.pick(side_suits(ctx) + [TRUMP])


def fmt(cards) -> list[str]:
    return [text(c) for c in sorted(cards)]


def full(rules: Rules, cards: Sequence[int]) -> Counter:
    """Every copy the pack holds of ``cards``."""
    return Counter({c: rules.decks for c in cards})


# --------------------------------------------------------------------------- units of a ruleset

def unit_sizes(rules: Rules) -> list[int]:
    """Sizes of repeated units: pairs with 2 decks, pairs and triples with 3 or more."""
    return [s for s in (2, 3) if s <= rules.decks]


def tractor_sizes(rules: Rules) -> list[int]:
    sizes = {"pair": 2, "triple": 3}
    return sorted(sizes[e] for e in rules["tractor.elements"] if sizes[e] <= rules.decks)


def fits(v: View, units: Sequence[Unit]) -> bool:
    return all(u[1] == 1 or u[1] <= v.longest for u in units)


@lru_cache(maxsize=None)
def listed_units(rules: Rules) -> tuple[Unit, ...]:
    """The units with a follow ladder of their own, smallest first."""
    return tuple(sorted(rules.ladders, key=lambda u: (u[0] * u[1], u)))


@lru_cache(maxsize=None)
def unlisted_units(rules: Rules) -> tuple[Unit, ...]:
    """Lead units without a ladder of their own: singles, unlisted pairs/triples, longer tractors."""
    out: list[Unit] = [(1, 1)] + [(s, 1) for s in unit_sizes(rules)]
    for size in tractor_sizes(rules):
        out += [(size, length) for length in range(max(2, rules["tractor.min_length"]), 5)]
    return tuple(u for u in dict.fromkeys(out) if u not in rules.ladders)


@lru_cache(maxsize=None)
def unit_plans(rules: Rules) -> tuple[tuple[Unit, ...], ...]:
    return tuple((u,) for u in listed_units(rules) + unlisted_units(rules))


@lru_cache(maxsize=None)
def throw_plans(rules: Rules) -> tuple[tuple[Unit, ...], ...]:
    """Throw shapes: every unit size with a single or a pair beside it."""
    t = max(2, rules["tractor.min_length"])
    plans = [((2, 1), (1, 1)), ((1, 1), (1, 1)), ((2, 1), (2, 1)), ((2, t), (1, 1)), ((2, t), (2, 1)),
             ((2, 1), (1, 1), (1, 1))]
    if rules.decks >= 3:
        plans += [((3, 1), (1, 1)), ((3, 1), (2, 1)), ((3, 1), (3, 1))]
        if 3 in tractor_sizes(rules):
            plans += [((3, t), (2, 1)), ((3, t), (1, 1))]
    if 2 not in tractor_sizes(rules):
        plans = [p for p in plans if (2, t) not in p]
    return tuple(dict.fromkeys(plans))


@lru_cache(maxsize=None)
def shapes_of(rules: Rules, n: int) -> tuple[tuple[Unit, ...], ...]:
    """Unit lists of ``n`` cards, fewest units first: the shapes a play of ``n`` cards can take."""
    out: list[tuple[Unit, ...]] = []
    units: list[Unit] = [(1, 1)] + [(s, 1) for s in unit_sizes(rules)]
    for size in tractor_sizes(rules):
        units += [(size, length) for length in range(max(2, rules["tractor.min_length"]), 5)]
    units.sort(key=lambda u: -u[0] * u[1])

    def rec(left: int, start: int, acc: list[Unit]) -> None:
        if left == 0:
            out.append(tuple(acc))
            return
        for i in range(start, len(units)):
            u = units[i]
            if u[0] * u[1] <= left:
                rec(left - u[0] * u[1], i, acc + [u])
    rec(n, 0, [])
    out.sort(key=lambda p: (len(p), p))
    return tuple(out[:12])


# --------------------------------------------------------------------------- placing units

def place(d: Draw, v: View, units: Sequence[Unit], avail: Counter, *, spread: bool = True,
          taken: Counter | None = None) -> Counter | None:
    """Cards of ``v`` forming ``units`` on distinct cards, within ``avail`` copies.

    Tractors go on windows of the context's runs; with ``spread``, pairs and
    triples go on cards not adjacent to other placed pairs (so the units do
    not merge into a bigger structure). ``taken`` cards are avoided too.
    None when the units do not fit.
    """
    out: Counter = Counter()
    taken = taken or Counter()
    multi: set[int] = {c for c, n in taken.items() if n >= 2}

    def free(c: int, size: int) -> bool:
        if out[c] or taken[c] or avail[c] < size:
            return False
        return not (spread and size >= 2 and (c in multi or v.near[c] & multi))

    for size, length in sorted(units, key=lambda u: (-u[1], -u[0])):
        if length > 1:
            options = []
            for window in v.windows.get(length, ()):
                choices = [[c for c in pos if free(c, size)] for pos in window]
                if all(choices):
                    options.append(choices)
            if not options:
                return None
            for pos in d.pick(options):
                c = d.pick(pos)
                out[c] += size
                multi.add(c)
        else:
            options = [c for c in v.cards if free(c, size)]
            if not options:
                return None
            c = d.pick(options)
            out[c] += size
            if size >= 2:
                multi.add(c)
    return out


def singles(d: Draw, pool: Counter, n: int, fresh: Counter | None = None) -> list[int] | None:
    """``n`` cards drawn one by one from the multiset ``pool`` (lowest first).

    With ``fresh``, cards not in ``fresh`` (and one copy of each) are taken
    first, so the cards add no pair to ``fresh``.
    """
    if n < 0:
        return None
    pool = Counter({c: k for c, k in pool.items() if k > 0})
    if fresh is not None:
        distinct = [c for c in sorted(pool) if not fresh[c]]
        if len(distinct) >= n:
            return [distinct.pop(d.int(0, len(distinct) - 1)) for _ in range(n)]
    elements = sorted(pool.elements())
    if len(elements) < n:
        return None
    return [elements.pop(d.int(0, len(elements) - 1)) for _ in range(n)]


def realize(v: View, counts: Counter, units: Sequence[Unit], turn: int) -> list[int] | None:
    """Concrete cards of ``units`` taken from ``counts`` (None when they cannot be taken).

    ``turn`` rotates the candidates tried first; pairs and triples go on cards
    not adjacent to each other where possible, singles on cards of their own.
    """
    tractors = sorted((u for u in units if u[1] > 1), key=lambda u: (-u[1], -u[0]))
    flat = sorted((u[0] for u in units if u[1] == 1), reverse=True)
    work = Counter({c: n for c, n in counts.items() if n > 0})
    out: list[int] = []

    def flat_cards(fullest: bool) -> list[int] | None:
        w = Counter(work)
        got: list[int] = []
        multi = set(out)
        for j, size in enumerate(flat):
            options = [c for c in sorted(w, key=lambda c: (v.group_of.get(c, 0), c)) if w[c] >= size]
            if size == 1:  # a single on a card of its own where possible
                options = [c for c in options if c not in got and c not in out] or options
            else:
                options = [c for c in options if not (v.near.get(c, frozenset()) & multi)] or options
            if not options:
                return None
            c = max(options, key=lambda c: w[c]) if fullest else options[(turn + 3 * j) % len(options)]
            w[c] -= size
            got += [c] * size
            if size > 1:
                multi.add(c)
        return got

    def tractors_ok(i: int) -> bool:
        if i == len(tractors):
            got = flat_cards(False) or flat_cards(True)
            if got is None:
                return False
            out.extend(got)
            return True
        size, length = tractors[i]
        windows = v.windows.get(length, ())
        for j in range(len(windows)):
            window = windows[(j + turn) % len(windows)]
            picks = []
            for pos in window:
                options = [c for c in pos if work[c] >= size]
                if not options:
                    break
                picks.append(max(options, key=lambda c: work[c]))
            else:
                for c in picks:
                    work[c] -= size
                out.extend(c for c in picks for _ in range(size))
                if tractors_ok(i + 1):
                    return True
                del out[len(out) - size * length:]
                for c in picks:
                    work[c] += size
        return False

    return out if tractors_ok(0) else None


def fill(d: Draw, v: View, holding: Counter, units: Sequence[Unit], n: int,
         avoid: Sequence[Unit] | None = None) -> list[int] | None:
    """``units`` realized from ``holding``, then up to ``n`` cards with singles that form nothing more.

    With ``avoid``, realizations that also form ``avoid`` are passed over
    where another one exists (a play meeting one ladder rung, not another).
    """
    if not can_form(list(units), v.runs, dict(holding)):
        return None
    turn = d.int(0, 7)
    cards = None
    for t in range(turn, turn + (12 if avoid else 1)):
        got = realize(v, holding, units, t)
        if got is None:
            continue
        cards = cards or got
        if avoid is None or not can_form(list(avoid), v.runs, dict(Counter(got))):
            cards = got
            break
    if cards is None:
        return None
    more = singles(d, holding - Counter(cards), n - len(cards), fresh=Counter(cards))
    if more is None or (avoid is not None and can_form(list(avoid), v.runs, dict(Counter(cards + more)))):
        more = singles(d, holding - Counter(cards), n - len(cards))
    return None if more is None else cards + more


def miss(d: Draw, holding: Counter, play: list[int]) -> list[int]:
    """``play`` with one card (of a unit, where it has one) swapped for another card of the holding."""
    rest = holding - Counter(play)
    multi = [i for i, c in enumerate(play) if play.count(c) > 1] or list(range(len(play)))
    i = d.pick(multi)
    options = sorted(c for c in rest if c != play[i])
    if not options:
        return play
    out = list(play)
    out[i] = d.pick(options)
    return out
