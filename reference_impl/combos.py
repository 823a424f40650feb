"""Combinations: what a set of cards of one suit is (单张, 对子, 三张, 拖拉机, 甩牌).

A play of one effective suit is a single, a pair, a triple, a tractor (two or
more adjacent pairs or triples, per the ruleset), or otherwise a throw made
of several components.

How a throw is split into components (``throw.split``; it matters for
following and for ruffs): repeatedly take the component with the most cards;
on equal cards the one of triples before the one of pairs, then the higher.
So 777888 99 splits into the tractor 777888 and the pair 99, not 778899 + 7 + 8.
Under ``triples_first`` a tractor of pairs may not take two cards of a
triple, so 88999 is a pair and a triple (003:7.3 "2拖3"), not 8899 + 9.
"""
from __future__ import annotations

from collections import Counter
from collections import _count_elements  # noqa: PLC2701 - Counter's own counting loop, in C
from dataclasses import dataclass
from typing import Iterable

from .trump import Context

KIND_OF_SIZE = {1: "single", 2: "pair", 3: "triple", 4: "quad"}   # quads with four decks (V04)
SIZE_OF_ELEMENT = {"pair": 2, "triple": 3}


@dataclass(frozen=True)
class Component:
    size: int                 # copies of each card: 1 single, 2 pair, 3 triple
    length: int               # adjacent positions: 1 unless a tractor
    cards: tuple[int, ...]
    key: int                  # rank of the top card (the AA22 run may rank lowest)

    def __init__(self, size: int, length: int, cards: tuple[int, ...], key: int):
        # what the generated __init__ does, without a call of object.__setattr__ per field (a third of the
        # cost): every play judged builds some
        d = self.__dict__
        d["size"], d["length"], d["cards"], d["key"] = size, length, cards, key

    @property
    def kind(self) -> str:
        return "tractor" if self.length > 1 else KIND_OF_SIZE.get(self.size, "single")

    @property
    def unit(self) -> tuple[int, int]:
        return (self.size, self.length)

    @property
    def n(self) -> int:
        return self.size * self.length

    @property
    def mixed(self) -> bool:
        """A tractor of pairs and triples side by side (88999, ``tractor.mixed``): ``size`` is its smallest
        element, and it holds more cards than ``size × length``."""
        return len(self.cards) != self.size * self.length

    def describe(self) -> str:
        if self.length > 1:
            return f"tractor({'mixed' if self.mixed else KIND_OF_SIZE[self.size]}, {self.length})"
        return self.kind


@dataclass(frozen=True)
class Combo:
    suit: int | None          # effective suit, None when the cards mix suits
    kind: str                 # single, pair, triple, tractor, throw, mixed
    components: tuple[Component, ...]
    cards: tuple[int, ...]

    def __init__(self, suit: int | None, kind: str, components: tuple[Component, ...], cards: tuple[int, ...]):
        d = self.__dict__  # as Component's
        d["suit"], d["kind"], d["components"], d["cards"] = suit, kind, components, cards

    @property
    def n(self) -> int:
        return len(self.cards)

    @property
    def units(self) -> list[tuple[int, int]]:
        return [c.unit for c in self.components]

    @property
    def largest(self) -> Component:
        return self.components[0]

    def shape(self) -> str:
        if self.kind == "throw":
            return "throw(" + " + ".join(c.describe() for c in self.components) + ")"
        return self.components[0].describe() if self.components else self.kind


def unit_sizes(ctx: Context) -> tuple[int, ...]:
    """Which repeated units exist: pairs always (2+ decks), triples with 3+ decks."""
    return ctx.rules.unit_sizes


def tractor_sizes(ctx: Context) -> tuple[int, ...]:
    return ctx.rules.tractor_sizes


def component_key(ctx: Context, cards: Iterable[int]) -> int:
    if ctx.wrap_cards:  # an AA22 run: it may rank lowest
        cards = set(cards)
        if len(cards) > 1 and cards <= ctx.wrap_cards and ctx.rules["tractor.ace_two"] == "lowest":
            return -1
    return max(map(ctx.key.__getitem__, cards))


# combinations remembered per trump context: a trick asks about its few plays many times, and an engine
# is asked about the same small leads (singles, pairs) again and again. Whole hands with players (the
# plays and every candidate a player weighs) fill 512 every few hands and start again; with 2048 the
# misses of 300 hands of r003 fall from 11,300 to 6,800 and no further with more (about 1 MB a context)
MEMO_LIMIT = 2048


def classify(ctx: Context, cards: Iterable[int]) -> Combo:
    """What ``cards`` are in ``ctx`` (remembered per context: a trick asks about the same plays often)."""
    cards = tuple(cards)
    memo = ctx.memo
    hit = memo.get(cards)
    if hit is None:
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        hit = memo[cards] = _classify(ctx, cards)
    return hit


def _classify(ctx: Context, cards: tuple[int, ...]) -> Combo:
    if not cards:
        return Combo(None, "empty", (), ())
    key = ctx.key
    suit_of = ctx.suit
    if len(cards) == 1:
        c = cards[0]
        return Combo(suit_of[c], "single", (Component(1, 1, cards, key[c]),), cards)
    cards = tuple(sorted(cards, key=key.__getitem__, reverse=True))  # highest first; a stable sort, as before
    suit = suit_of[cards[0]]
    for c in cards:
        if suit_of[c] != suit:
            return Combo(None, "mixed", (), cards)
    counts: dict[int, int] = {}
    _count_elements(counts, cards)
    exact = _exact_unit(ctx, counts, suit)
    if exact is not None:
        return Combo(suit, exact.kind, (exact,), cards)
    return Combo(suit, "throw", tuple(_decompose(ctx, counts, suit)), cards)  # counts: this call's own


def _exact_unit(ctx: Context, counts: dict, suit: int) -> Component | None:
    """The cards as one unit (single, pair, triple or tractor), or None."""
    if len(counts) == 1:
        for c, n in counts.items():  # the one card
            break
        if n == 1 or n in ctx.rules.unit_sizes:
            return Component(n, 1, (c,) * n, ctx.key[c])
        return None
    if len(counts) < ctx.rules.values["tractor.min_length"]:
        return None
    sizes = set(counts.values())
    if len(sizes) == 1:
        size = sizes.pop()
        if size not in ctx.rules.tractor_sizes:
            return None
    elif ctx.rules.values["tractor.mixed"] and sizes <= set(ctx.rules.tractor_sizes) and len(sizes) > 1:
        size = 0  # a mixed tractor (88999) where the ruleset allows one
    else:
        return None
    if not _consecutive(ctx, list(counts)):
        return None
    expanded = tuple(c for c, n in counts.items() for _ in range(n))
    if size == 0:
        size = min(counts.values())
    return Component(size, len(counts), expanded, component_key(ctx, counts))


def _consecutive(ctx: Context, ids: list[int]) -> bool:
    """Whether the distinct cards ``ids`` sit one per position on consecutive positions of one run."""
    spot = ctx.spot
    places = [spot[c] for c in ids]
    if -1 not in places:  # each card has one place: consecutive numbers are consecutive positions of one run
        return max(places) - min(places) == len(places) - 1 and len(set(places)) == len(places)
    where = ctx.where
    for run, _ in where[ids[0]]:
        positions = []
        for c in ids:
            for rr, pp in where[c]:
                if rr == run:
                    positions.append(pp)
                    break
            else:  # ``c`` is not in this run
                break
        else:
            positions.sort()
            if len(set(positions)) == len(positions) and positions[-1] - positions[0] == len(positions) - 1:
                return True
    return False


def decompose(ctx: Context, counts: Counter | dict, suit: int) -> list[Component]:
    """Split cards of one suit into components, largest first (see the module docstring).

    Each step takes :func:`best_component`. Where every tractor has more
    cards than any single, pair or triple (tractors of two positions or more)
    and every card is held at most in as many copies as the largest unit,
    the steps after the first that takes no tractor take none either
    (taking a card's unit takes all its copies, and fewer cards never make a
    new tractor): the rest, the highest unit first, is then one stable sort.
    """
    return _decompose(ctx, {c: n for c, n in counts.items() if n > 0}, suit)


def _decompose(ctx: Context, counts: dict, suit: int) -> list[Component]:
    """:func:`decompose` of a dict of positive counts that it may empty."""
    out: list[Component] = []
    rules = ctx.rules
    sizes = rules.unit_sizes
    top = sizes[0] if sizes else 1
    tail = rules.values["tractor.min_length"] >= 2 and all(n <= top for n in counts.values())
    while counts:
        best = best_component(ctx, counts, suit)
        out.append(best)
        if tail and best.length == 1:
            key = ctx.key
            del counts[best.cards[0]]  # all its copies (see above)
            flat = []
            for c, n in counts.items():
                flat.append((_unit_size(sizes, n), key[c], c))
            flat.sort(key=_flat_order, reverse=True)  # stable: equal cards in the order they came
            out.extend(Component(size, 1, (c,) * size, k) for size, k, c in flat)
            return out
        for c in best.cards:
            counts[c] -= 1
            if counts[c] == 0:
                del counts[c]
    return out


def _flat_order(unit: tuple[int, int, int]) -> tuple[int, int]:
    return unit[0], unit[1]


def _unit_size(sizes: tuple[int, ...], n: int) -> int:
    """The largest unit ``n`` copies of a card make (``sizes`` run from the largest down); 1 for a single."""
    for s in sizes:
        if s <= n:
            return s
    return 1


def best_component(ctx: Context, counts: dict, suit: int) -> Component:
    """The component taken first: the most cards, then triples before pairs, then the highest; on a tie
    the first found (tractors before units, in the order of ``counts``)."""
    best: tuple | None = None     # (cards, size, key) of the best so far
    ids: tuple = ()
    rules = ctx.rules
    keep_triples = rules.values["throw.split"] == "triples_first"
    min_len = rules.values["tractor.min_length"]
    for size in rules.tractor_sizes:
        pool = {c: n for c, n in counts.items() if n < 3} if keep_triples and size == 2 else counts
        held = 0
        for n in pool.values():
            if n >= size:
                held += 1
        if held < min_len:
            continue  # a tractor takes as many cards as positions (a card sits once in a run)
        for cards in tractor_candidates(ctx, pool, suit, size):
            cand = (size * len(cards), size, component_key(ctx, cards))
            if best is None or cand > best:
                best, ids = cand, cards
    sizes = rules.unit_sizes
    key = ctx.key
    for c, n in counts.items():
        size = _unit_size(sizes, n)
        cand = (size, size, key[c])
        if best is None or cand > best:
            best, ids = cand, (c,)
    _, size, key_ = best
    return Component(size, len(ids), tuple(c for c in ids for _ in range(size)), key_)


def tractor_candidates(ctx: Context, counts: dict, suit: int, size: int, length: int | None = None):
    """Tractors of ``size`` available in ``counts``: each as the tuple of its distinct cards.

    With ``length`` None, the longest in each stretch of a run; else every
    tractor of exactly that length. At a position where several equal cards
    sit (the off-suit level cards), the one held in most copies is taken, the
    first in the position's order on a tie. Only the positions of the cards
    held are visited.
    """
    min_len = ctx.rules["tractor.min_length"] if length is None else length
    runs = ctx.runs[suit]
    where = ctx.where
    suit_of = ctx.suit
    marked: dict[int, set[int]] = {}
    for c, n in counts.items():
        if n >= size and suit_of[c] == suit:
            for r, p in where[c]:
                marked.setdefault(r, set()).add(p)
    for r in sorted(marked):
        positions = sorted(marked[r])
        if len(positions) < min_len:
            continue
        run = runs[r]
        stretch: list[int] = []
        for i, p in enumerate(positions):
            stretch.append(p)
            if i + 1 < len(positions) and positions[i + 1] == p + 1:
                continue
            if len(stretch) >= min_len:
                picks = [_pick(run[q], counts, size) for q in stretch]
                if length is None:
                    yield tuple(picks)
                else:
                    for start in range(len(picks) - length + 1):
                        yield tuple(picks[start:start + length])
            stretch = []


def _pick(pos: tuple[int, ...], counts: dict, size: int) -> int:
    if len(pos) == 1:
        return pos[0]
    return max((c for c in pos if counts.get(c, 0) >= size), key=lambda c: counts[c])
