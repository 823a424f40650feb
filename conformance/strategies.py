"""Hypothesis strategies for conformance cases, driven by a ruleset's settings.

:func:`cases` draws ``{"op": op, "input": {...}}`` for the engine protocol
(``input`` exactly as ``conformance/schemas/<op>.request.json`` requires), and
one strategy per operation draws the inputs alone. The strategies read the
ruleset (``reference_impl.rules.rules_for``) to aim at the positions where its
clauses decide the answer. Each strategy first draws a *scenario* from a list
built from the ruleset (a ladder entry of a lead shape, a tier boundary, a
band edge, a declaration sequence...), then the cards that realize it:

* follow — for every lead shape with a follow ladder (``rules.ladders``), and
  for derived ladders of unlisted shapes and of throws, a follower holding is
  built from a chosen entry *k*'s units (tractors on windows of ``ctx.runs``,
  pairs and triples on non-adjacent cards, filler singles), kept only when
  *k* is the first entry it can supply (:func:`reference_impl.following.obligation`);
  the play meets the entry, meets the *next* entry instead, misses by one
  card, leaves the suit, is random, has the wrong count or a card not held;
  plus short-suit and void holdings;
* classify / lead — tractors along every run of the trump context, pairs and
  triples on both sides of every boundary between key-adjacent positions
  (tier junctions, the level rank removed from a suit, off-suit level cards,
  fixed ranks, AA22), near-tractors (a gap, mixed sizes, a short position, an
  extra card), throws, mixed suits; throws led against blockers one or two
  positions above a thrown card, at it, or below it, as singles, pairs,
  triples or tractors, in the next, the partner's or the previous hand;
* winner — one unit against the same unit across a boundary (or an equal
  card: the first played wins), tractors of pairs answered by tractors of
  triples of as many cards, and tricks where followers follow the shape, ruff
  with the same shape or another of as many cards, or discard;
* kitty — last tricks won by a single, pair, triple, tractor or throw, trump
  or side, by the lead or by a ruff, for either side, with point-rich kitties;
* result — every band edge (low, high, ±5), step multiples, points beyond the
  open ends; advance — every level, gains 0–6 and beyond, banker or not;
* declare — prefixes of legal declarations (a first declaration, an
  overcall, a reinforcement, a joker pair) then a last declaration that is
  legal or broken in each way the rules refuse; undeclared — kitties with
  jokers at and before the card that names trump;
* penalty — one to three faults of one hand, each a kind the ruleset prices
  by either side (or both, where it names a consequence for that), found at
  once or late, counts 0–6, lateness at and just past every step, with the
  attackers' points at the band edges.

Everything is drawn from Hypothesis primitives (integers, sampled_from,
permutations, lists); every choice among candidates is an index into a list
ordered lowest first, so failures shrink towards few, low cards and the first
scenario. Each public strategy draws its input as the only element of a
unique list (:func:`_fresh`): Hypothesis then spends its budget on new
scenarios rather than on span-copying mutations of the case it just drew,
which with a fixed budget is what lets every scenario come up (every
non-equivalent mutant of r000, r001 and r003 is killed within 1000 cases). ``hand`` (a whole hand) is not generated here:
:mod:`conformance.cases` plays whole hands.

:func:`clause_coverage` and :func:`executable_clauses` measure which clauses
the drawn cases let decide an answer.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence

from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from reference_impl.cards import BIG_JOKER, RANKS, SMALL_JOKER, card, text
from reference_impl.combos import classify
from reference_impl.following import derived_ladder, obligation
from reference_impl.rules import Rules, Trace
from reference_impl.trump import TRUMP, Context, context
from tractor_dsl.patterns import can_form

__all__ = ["OPERATIONS", "POSITIVE", "cases", "classify_inputs", "lead_inputs", "follow_inputs", "winner_inputs",
           "kitty_inputs", "result_inputs", "advance_inputs", "declare_inputs", "undeclared_inputs",
           "penalty_inputs", "clause_coverage", "executable_clauses"]

#: The operations these strategies generate (``hand`` is left to conformance.cases).
OPERATIONS = ("classify", "lead", "follow", "winner", "kitty", "result", "advance", "declare", "undeclared",
              "penalty")

_SUIT_LETTERS = ("S", "H", "D", "C")
_TRUMPS = ("S", "H", "D", "C", None)
Unit = tuple[int, int]


# --------------------------------------------------------------------------- arguments

def _rules(ruleset) -> Rules:
    from reference_impl.rules import rules_for, ruleset_names
    if not isinstance(ruleset, str):
        raise TypeError(f"ruleset: expected a ruleset name such as 'r001', not {ruleset!r}")
    names = ruleset_names()
    if ruleset not in names:
        raise ValueError(f"unknown ruleset {ruleset!r}; the spec defines {', '.join(names)}")
    return rules_for(ruleset)


def _ops(ops) -> tuple[str, ...]:
    if ops is None:
        return OPERATIONS
    if isinstance(ops, str) or not isinstance(ops, Sequence):
        raise TypeError(f"ops: expected a sequence of operation names, not {ops!r}")
    if not ops:
        raise ValueError(f"ops: expected at least one operation, got {ops!r}")
    for op in ops:
        if op not in OPERATIONS:
            raise ValueError(f"ops: {op!r} is not an operation these strategies generate "
                             f"({', '.join(OPERATIONS)})")
    return tuple(dict.fromkeys(ops))


def _levels(rules: Rules) -> tuple[str, ...]:
    """The levels a hand is played at: the climbed ranks that are not fixed trump."""
    fixed = set(rules["trump.fixed_ranks"])
    return tuple(r for r in rules["level.ranks"] if r not in fixed)


# --------------------------------------------------------------------------- the cards of one suit

@dataclass(frozen=True, eq=False)
class _View:
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
                                                # (tier boundaries listed twice)
    special: tuple                              # two-position windows of runs linking cards not key-adjacent
                                                # (the AA22 window three times)


@lru_cache(maxsize=4096)
def _view(ctx: Context, suit: int) -> _View:
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
    for length, ws in windows.items():
        ws.sort(key=lambda w: (min(ctx.key[c] for c in w[0]), ctx.key[w[-1][0]]))
    boundaries = []
    for i in range(len(groups) - 1):
        a, b = groups[i][0], groups[i + 1][0]
        plain = (ctx.tier[a] == ctx.tier[b] and a < 52 and b < 52 and a // 13 == b // 13
                 and a % 13 + 1 == b % 13 and len(groups[i]) == len(groups[i + 1]) == 1)
        if not plain:
            boundaries += [i] * (2 if ctx.tier[a] != ctx.tier[b] else 1)
    return _View(suit, cards, tuple(tuple(g) for g in groups), group_of,
                 {k: tuple(v) for k, v in windows.items()}, {c: frozenset(v) for c, v in near.items()},
                 max((len(r) for r in runs), default=0), ctx.runs[suit], tuple(boundaries),
                 tuple(w for w in windows.get(2, ()) if abs(group_of[w[0][0]] - group_of[w[1][0]]) != 1
                       for _ in range(3 if set(w[0] + w[1]) <= ctx.wrap_cards else 1)))


def _suits(ctx: Context) -> list[int]:
    """The effective suits of the context, side suits first, trump last."""
    return [s for s in range(4) if s != ctx.trump] + [TRUMP]


@lru_cache(maxsize=None)
def _ints(lo: int, hi: int) -> SearchStrategy[int]:
    return st.integers(lo, hi)


@lru_cache(maxsize=None)
def _sampled(options: tuple) -> SearchStrategy:
    return st.sampled_from(options)


def _int(draw, lo: int, hi: int) -> int:
    """An integer in [lo, hi] (shrinks to lo)."""
    return draw(_ints(lo, hi))


def _bool(draw) -> bool:
    return draw(_sampled((False, True)))


def _choice(draw, options: Sequence):
    """One of ``options`` (shrinks to the first)."""
    return draw(_sampled(tuple(options)))


def _pick(draw, options: Sequence):
    """One of ``options`` (shrinks to the first)."""
    if len(options) == 1:
        return options[0]
    return options[_int(draw, 0, len(options) - 1)]


def _draw_ctx(draw, rules: Rules) -> tuple[str, str | None, Context]:
    level = _choice(draw, _levels(rules))
    trump = _choice(draw, _TRUMPS)
    return level, trump, context(rules, level, trump)


def _draw_suit(draw, ctx: Context, trump_share: str = "some") -> int:
    """A led suit: side suits or trump (``trump_share``: ``some`` one in five, ``half`` one in two)."""
    sides = [s for s in range(4) if s != ctx.trump]
    if trump_share == "half" and _bool(draw):
        return TRUMP
    return _choice(draw, sides + [TRUMP])


def _place(draw, view: _View, units: Sequence[Unit], avail: Counter, *, spread: bool = True,
           taken: Counter | None = None) -> Counter | None:
    """Cards of ``view`` forming ``units`` on distinct cards, within ``avail`` copies.

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
        return not (spread and size >= 2 and (c in multi or view.near[c] & multi))

    for size, length in sorted(units, key=lambda u: (-u[1], -u[0])):
        if length > 1:
            options = []
            for window in view.windows.get(length, ()):
                choices = [[c for c in pos if free(c, size)] for pos in window]
                if all(choices):
                    options.append(choices)
            if not options:
                return None
            for pos in _pick(draw, options):
                c = _pick(draw, pos)
                out[c] += size
                multi.add(c)
        else:
            options = [c for c in view.cards if free(c, size)]
            if not options:
                return None
            c = _pick(draw, options)
            out[c] += size
            if size >= 2:
                multi.add(c)
    return out


def _singles(draw, pool: Counter, n: int, fresh: Counter | None = None) -> list[int] | None:
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
            out = []
            for _ in range(n):
                out.append(distinct.pop(_int(draw, 0, len(distinct) - 1)))
            return out
    elements = sorted(pool.elements())
    if len(elements) < n:
        return None
    out = []
    for _ in range(n):
        out.append(elements.pop(_int(draw, 0, len(elements) - 1)))
    return out


def _realize(view: _View, counts: Counter, units: Sequence[Unit], turn: int) -> list[int] | None:
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
        multi = {c for c in out}
        for j, size in enumerate(flat):
            options = [c for c in sorted(w, key=lambda c: (view.group_of.get(c, 0), c)) if w[c] >= size]
            if size == 1:  # a single on a card of its own where possible
                options = [c for c in options if c not in got and c not in out] or options
            else:
                options = [c for c in options if not (view.near.get(c, frozenset()) & multi)] or options
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
        windows = view.windows.get(length, ())
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


def _fmt(cards) -> list[str]:
    return [text(c) for c in sorted(cards)]


def _unit_sizes(rules: Rules) -> list[int]:
    return [s for s in (2, 3) if s <= rules.decks]


def _tractor_sizes(rules: Rules) -> list[int]:
    sizes = {"pair": 2, "triple": 3}
    return sorted(sizes[e] for e in rules["tractor.elements"] if sizes[e] <= rules.decks)


def _fits(view: _View, units: Sequence[Unit]) -> bool:
    return all(u[1] == 1 or u[1] <= view.longest for u in units)


@lru_cache(maxsize=None)
def _listed(rules: Rules) -> tuple[Unit, ...]:
    """The units with a follow ladder of their own, smallest first."""
    return tuple(sorted(rules.ladders, key=lambda u: (u[0] * u[1], u)))


@lru_cache(maxsize=None)
def _unlisted(rules: Rules) -> tuple[Unit, ...]:
    """Lead units without a ladder of their own: singles, unlisted pairs/triples, longer tractors."""
    out: list[Unit] = [(1, 1)] + [(s, 1) for s in _unit_sizes(rules)]
    for size in _tractor_sizes(rules):
        out += [(size, length) for length in range(max(2, rules["tractor.min_length"]), 5)]
    return tuple(u for u in dict.fromkeys(out) if u not in rules.ladders)


@lru_cache(maxsize=None)
def _unit_plans(rules: Rules) -> tuple[tuple[Unit, ...], ...]:
    return tuple((u,) for u in _listed(rules) + _unlisted(rules))


@lru_cache(maxsize=None)
def _throw_plans(rules: Rules) -> tuple[tuple[Unit, ...], ...]:
    """Throw shapes: every unit size with a single or a pair beside it."""
    t = max(2, rules["tractor.min_length"])
    plans = [((2, 1), (1, 1)), ((1, 1), (1, 1)), ((2, 1), (2, 1)), ((2, t), (1, 1)), ((2, t), (2, 1)),
             ((2, 1), (1, 1), (1, 1))]
    if rules.decks >= 3:
        plans += [((3, 1), (1, 1)), ((3, 1), (2, 1)), ((3, 1), (3, 1))]
        if 3 in _tractor_sizes(rules):
            plans += [((3, t), (2, 1)), ((3, t), (1, 1))]
    if 2 not in _tractor_sizes(rules):
        plans = [p for p in plans if (2, t) not in p]
    return tuple(dict.fromkeys(plans))


@lru_cache(maxsize=None)
def _alternatives(rules: Rules, n: int) -> tuple[tuple[Unit, ...], ...]:
    """Unit lists of ``n`` cards, fewest units first: every shape a play of ``n`` cards can take."""
    out: list[tuple[Unit, ...]] = []
    units: list[Unit] = [(1, 1)] + [(s, 1) for s in _unit_sizes(rules)]
    for size in _tractor_sizes(rules):
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


# --------------------------------------------------------------------------- classify

def _boundary_cards(draw, rules: Rules, view: _View, avail: Counter | None = None,
                    special: bool = True) -> list[int] | None:
    """Pairs (or triples, or singles) on the two (or three) groups around one boundary of ``view``,
    or (with ``special``) on a window of a run linking cards that are not neighbours in the card order."""
    decks = rules.decks
    spots = [("b", i) for i in view.boundaries] + ([("w", w) for w in view.special] if special else [])
    if not spots:
        return None
    how, where = _pick(draw, spots)
    if how == "w":  # a window of a run whose cards are not neighbours in the card order (AA22, face rank)
        positions = list(where)
    else:
        span = [where, where + 1]
        extend = _choice(draw, (0, 0, 1, -1))
        if extend == 1 and where + 2 < len(view.groups):
            span.append(where + 2)
        elif extend == -1 and where > 0:
            span.insert(0, where - 1)
        positions = [view.groups[g] for g in span]
    size = _choice(draw, _tractor_sizes(rules) + [1] + [s for s in _unit_sizes(rules)
                                                               if s not in _tractor_sizes(rules)])
    avail = avail if avail is not None else Counter({c: decks for c in view.cards})
    cards: list[int] = []
    for pos in positions:
        options = [c for c in pos if avail[c] - cards.count(c) >= size]
        if not options:
            return None
        cards += [_pick(draw, options)] * size
    return cards


def _combination(draw, rules: Rules, ctx: Context, kind: str, suit: int | None = None) -> list[int]:
    """Cards of one (for ``mixed``, two) suits, shaped by ``kind``."""
    decks = rules.decks
    suits = _suits(ctx)
    if kind == "mixed":
        a, b = draw(st.permutations(suits))[:2]
        return ([_pick(draw, _view(ctx, a).cards)] * _int(draw, 1, decks)
                + [_pick(draw, _view(ctx, b).cards)])
    suit = suit if suit is not None else _draw_suit(draw, ctx, "half")
    view = _view(ctx, suit)
    full = Counter({c: decks for c in view.cards})
    if kind == "boundary":
        cards = _boundary_cards(draw, rules, view)
        if cards is not None:
            if _choice(draw, (False, False, True)):  # and a single equal to one of the cards
                equal = [c for x in sorted(set(cards)) for c in view.groups[view.group_of[x]]
                         if c not in cards and decks > 0]
                if equal:
                    cards.append(_pick(draw, equal))
            return cards
        kind = "tractor"
    if kind == "unit":
        return [_pick(draw, view.cards)] * _int(draw, 1, decks)
    if kind == "tractor":
        lengths = sorted(view.windows)
        if not lengths:
            return [_pick(draw, view.cards)] * decks
        length = _choice(draw, [x for x in lengths if x <= 4] or lengths[:1])
        positions = list(_pick(draw, view.windows[length]))
        sizes = _tractor_sizes(rules)
        size = _choice(draw, sizes + [s for s in (1, 2, 3) if s <= decks and s not in sizes])
        counts = [size] * len(positions)
        variant = _choice(draw, ("exact", "mixed_sizes", "gap", "short", "extra"))
        if variant == "mixed_sizes" and decks >= 3 and size in (2, 3):
            counts[_int(draw, 0, len(counts) - 1)] = 5 - size
        elif variant == "gap" and len(positions) > 2:
            del positions[_int(draw, 1, len(positions) - 2)]
            counts.pop()
        elif variant == "short" and size > 1:
            counts[_int(draw, 0, len(counts) - 1)] -= 1
        cards = []
        for pos, n in zip(positions, counts):
            cards += [_pick(draw, pos)] * n
        if variant == "extra":
            cards += _singles(draw, full - Counter(cards), 1) or []
        return cards
    if kind == "throw":
        plan = _choice(draw, [p for p in _throw_plans(rules) if _fits(view, p)] or [((1, 1), (1, 1))])
        placed = _place(draw, view, plan, full, spread=_choice(draw, (True, False)))
        assume(placed is not None)
        return list(placed.elements())
    # random cards of one suit
    return _singles(draw, full, _int(draw, 1, min(8, len(view.cards)))) or [view.cards[0]]


_CLASSIFY_KINDS = ("boundary", "boundary", "tractor", "tractor", "unit", "throw", "random", "mixed")


@st.composite
def _classify_input(draw, rules: Rules) -> dict:
    level, trump, ctx = _draw_ctx(draw, rules)
    cards = _combination(draw, rules, ctx, _choice(draw, _CLASSIFY_KINDS))
    return {"level": level, "trump": trump, "cards": _fmt(cards)}


def classify_inputs(ruleset: str) -> SearchStrategy[dict]:
    """Inputs of ``classify``: level, trump and the cards of one (sometimes two) suits.

    Pairs, triples or singles on both sides of every boundary between
    key-adjacent positions (tier junctions, the level rank removed from a
    suit, off-suit level cards, fixed ranks); tractors along every run of the
    context (AA22 included), exact or with mixed sizes, a gap, a short
    position or an extra card; single units; throws; random cards; mixed suits.
    """
    rules = _rules(ruleset)
    return _fresh(_classify_input(rules))


# --------------------------------------------------------------------------- lead

_LEAD_KINDS = ("throw", "throw", "throw", "boundary", "equal", "unit", "mixed")


@st.composite
def _lead_input(draw, rules: Rules) -> dict:
    level, trump, ctx = _draw_ctx(draw, rules)
    decks = rules.decks
    kind = _choice(draw, _LEAD_KINDS)
    suit = _draw_suit(draw, ctx, "half")
    view = _view(ctx, suit)
    others: list[Counter] = [Counter(), Counter(), Counter()]
    full = Counter({c: decks for c in view.cards})
    if kind == "equal":  # units across a boundary by a group of equal cards, one more equal card, a blocker there
        suit = TRUMP
        view = _view(ctx, suit)
        full = Counter({c: decks for c in view.cards})
        cards = _equal_throw(draw, rules, view, others)
    elif kind == "mixed":
        cards = _combination(draw, rules, ctx, "mixed")
    elif kind == "boundary":
        cards = _combination(draw, rules, ctx, "boundary", suit)
    elif kind == "unit":
        placed = _place(draw, view, _choice(draw, [p for p in _unit_plans(rules) if _fits(view, p)]), full)
        assume(placed is not None)
        cards = list(placed.elements())
    else:
        placed = _place(draw, view, _choice(draw, [p for p in _throw_plans(rules) if _fits(view, p)]), full)
        assume(placed is not None)
        cards = list(placed.elements())
    if kind in ("throw", "boundary") or (kind == "equal" and _bool(draw)):
        _blockers(draw, rules, ctx, view, cards, others)
    pool = Counter({c: decks for s in _suits(ctx) if s != suit for c in _view(ctx, s).cards}) - Counter(cards)
    for h in others:  # a little of the other suits in each hand
        extra = _singles(draw, pool, _int(draw, 0, 2)) or []
        pool -= Counter(extra)
        h.update(extra)
    return {"level": level, "trump": trump, "cards": _fmt(cards), "others": [_fmt(h.elements()) for h in others]}


def _equal_throw(draw, rules: Rules, view: _View, others: list[Counter]) -> list[int]:
    """Pairs on both sides of a boundary next to a group of equal cards, another card of that group,
    and one more of that group in another hand: where the throw's blocked and smallest components differ."""
    decks = rules.decks
    spots = [i for i in view.boundaries if len(view.groups[i]) > 1 or len(view.groups[i + 1]) > 1]
    assume(spots)
    i = _pick(draw, spots)
    size = _choice(draw, _tractor_sizes(rules))
    used: Counter = Counter()
    cards: list[int] = []
    for g in (i, i + 1):
        c = _pick(draw, view.groups[g])
        cards += [c] * size
        used[c] += size
    g = i if len(view.groups[i]) > 1 else i + 1
    for holder in (None, _int(draw, 0, 2)):
        options = [c for c in view.groups[g] if used[c] < decks and (holder is not None or c not in cards)]
        if not options:
            break
        c = _pick(draw, options)
        used[c] += 1
        if holder is None:
            cards.append(c)
        else:
            others[holder][c] += 1
    return cards


def _blockers(draw, rules: Rules, ctx: Context, view: _View, cards: list[int], others: list[Counter]) -> None:
    """Put led-suit cards near the thrown cards into the other hands (seat 0 next, 1 partner, 2 previous)."""
    decks = rules.decks
    used = Counter(cards) + sum(others, Counter())
    distinct = sorted(set(cards), key=lambda c: (ctx.key[c], c))
    for _ in range(_choice(draw, (1, 1, 2, 0, 3))):
        seat = _int(draw, 0, 2)
        anchor = _pick(draw, distinct)
        delta = _choice(draw, (1, 0, 2, -1))
        size = _choice(draw, [s for s in (1, 2, 3) if s <= decks])
        length = _choice(draw, (1, 1, 2)) if size > 1 else 1
        for step in range(length):
            g = view.group_of[anchor] + delta + step
            if not 0 <= g < len(view.groups):
                break
            options = [c for c in view.groups[g] if decks - used[c] >= size]
            if not options:
                break
            c = _pick(draw, options)
            used[c] += size
            others[seat][c] += size


def lead_inputs(ruleset: str) -> SearchStrategy[dict]:
    """Inputs of ``lead``: a lead and the other three hands (next player, partner, previous player).

    Mostly throws (and pairs across a boundary, which are tractors or throws
    by the adjacency settings) against blockers placed at a thrown card's
    key, one or two positions above it or one below, as singles, pairs,
    triples or two-position tractors, in any of the three hands — so each
    ``throw.check`` method, ``throw.judged_against`` (only the partner holding
    the blocker) and the failure's blocked cards, forced play and penalty
    decide some cases; pairs across a boundary next to a group of equal cards
    (off-suit level cards) with one more of those cards thrown and another
    held by some hand, where the blocked component and the smallest component
    differ (``throw.forced_play``); also single units and tractors (always
    legal) and mixed suits.
    """
    rules = _rules(ruleset)
    return _fresh(_lead_input(rules))


# --------------------------------------------------------------------------- follow

def _ladder(ctx: Context, unit: Unit) -> list[tuple[Unit, ...]]:
    rules = ctx.rules
    if unit in rules.ladders:
        return [tuple(e) for e in rules.ladders[unit]]
    return list(derived_ladder(unit, rules["follow.unlisted"] == "component_ladders"))


@lru_cache(maxsize=None)
def _follow_scenarios(rules: Rules) -> tuple[tuple, ...]:
    """(kind, plan, k): every entry of every listed ladder; the whole-tractor entry of the derived ladder
    of unlisted tractors; a single; a few throws; a short and a random holding."""
    out: list[tuple] = []
    for unit in _listed(rules):
        out += [("ladder", (unit,), k) for k in range(len(rules.ladders[unit]))]
    unlisted = _unlisted(rules)
    out += [("ladder", (unit,), 0) for unit in unlisted if unit[1] > 1][:2]
    out += [("ladder", (unit,), 0) for unit in unlisted if unit[1] == 1][:1]
    out += [("throw", plan, None) for plan in _throw_plans(rules)[::3]]
    out += [("short", _unit_plans(rules)[0], None), ("random", _unit_plans(rules)[1], None)]
    return tuple(out)


_FOLLOW_MODES = ("next", "next", "next", "next", "next", "meet", "meet", "miss", "off_suit", "random", "wrong")


@st.composite
def _follow_input(draw, rules: Rules) -> dict:
    level, trump, ctx = _draw_ctx(draw, rules)
    decks = rules.decks
    kind, plan, k = _choice(draw, _follow_scenarios(rules))
    suit = _draw_suit(draw, ctx)
    view = _view(ctx, suit)
    assume(_fits(view, plan))
    placed = _place(draw, view, plan, Counter({c: decks for c in view.cards}))
    assume(placed is not None)
    lead_cards = list(placed.elements())
    lead = classify(ctx, lead_cards)
    assume(lead.suit == suit and (kind != "ladder" or len(lead.components) == 1))
    n = lead.n
    avail = Counter({c: decks - placed[c] for c in view.cards})
    other_pool = Counter({c: decks for s in _suits(ctx) if s != suit for c in _view(ctx, s).cards})

    if kind == "short":  # as many led-suit cards as the lead or fewer (void included)
        m = _int(draw, 0, n)
        in_suit = Counter(_singles(draw, avail, m) or [])
        off = Counter(_singles(draw, other_pool, n - m + _int(draw, 0, 3)) or [])
        play = list(in_suit.elements()) + (_singles(draw, off, n - m) or [])
        if _bool(draw) and m and off - Counter(play[m:]):  # one led-suit card kept back
            play[_int(draw, 0, m - 1)] = _singles(draw, off - Counter(play[m:]), 1)[0]
        return _follow_dict(level, trump, lead_cards, in_suit + off, play)

    ladder: list = []
    if kind == "ladder":
        ladder = _ladder(ctx, lead.components[0].unit)
        units = list(ladder[k])
        # held apart from the entry: one more unit of any entry, or the whole next entry, where k stays first
        nxt = [tuple(ladder[k + 1])] if k + 1 < len(ladder) else []
        extras = [e for e in [()] + [(u,) for u in sorted({u for e in ladder for u in e}, reverse=True)] + nxt
                  if _abstract_first(ctx, lead.components[0].unit, ladder, units + list(e)) == k]
        units += list(_pick(draw, extras))
    elif kind == "throw":
        units = []
        for comp in lead.components:
            comp_ladder = _ladder(ctx, comp.unit)
            units += list(comp_ladder[_int(draw, 0, len(comp_ladder) - 1)])
    else:
        units = list(_pick(draw, _alternatives(rules, n)))
    if decks >= 3 and any(c.size == 2 for c in lead.components):  # pairs held as triples
        units = [(3, 1) if u == (2, 1) and _choice(draw, (False, False, True)) else u for u in units]
    holding = _place(draw, view, units, avail, spread=kind == "ladder" or _choice(draw, (True, True, False)))
    assume(holding is not None)
    spare = Counter({c: a for c, a in (avail - holding).items() if c not in holding})
    filler = _singles(draw, spare, _int(draw, 1, 3))
    assume(filler is not None)
    holding.update(filler)
    assume(sum(holding.values()) > n)
    required, _ = obligation(ctx, lead, holding, Trace())
    if kind == "ladder":
        assume(sorted(required) == sorted(ladder[k]))
    mode = _choice(draw, _FOLLOW_MODES)
    off = Counter(_singles(draw, other_pool, _int(draw, 1 if mode == "off_suit" else 0, 3)) or [])
    hand = holding + off
    play = None
    if mode == "next" and kind == "ladder":  # the next entry the holding can supply, not this one
        later = [e for e in ladder[k + 1:] if can_form(list(e), view.runs, dict(holding))]
        if later:
            play = _fill(draw, view, holding, later[0], n, avoid=ladder[k])
    elif mode == "random":
        play = _singles(draw, holding, n)
    elif mode == "wrong":
        if _bool(draw):
            play = _singles(draw, hand, n + _choice(draw, (-1, 1)))
        else:
            play = _fill(draw, view, holding, required, n)
            missing = [c for c in range(54) if hand[c] == 0]
            if play:
                play[_int(draw, 0, n - 1)] = _pick(draw, missing)
    if play is None:
        play = _fill(draw, view, holding, required, n)
        assume(play is not None)
        if mode == "miss":
            play = _miss(draw, holding, play)
        elif mode == "off_suit":
            play[_int(draw, 0, n - 1)] = _pick(draw, sorted(off))
    assume(len(play) > 0)
    return _follow_dict(level, trump, lead_cards, hand, play)


def _abstract_first(ctx: Context, unit: Unit, ladder: Sequence, units: Sequence[Unit]) -> int | None:
    """The first entry of ``ladder`` that ``units``, held apart from each other, can supply."""
    from tractor_dsl.patterns import units_as_holding
    runs, counts = units_as_holding(units)
    if unit[0] == 2 and not ctx.rules["follow.break_triple_for_pair"]:
        counts = {key: (1 if n == 3 else n) for key, n in counts.items()}
    for i, entry in enumerate(ladder):
        if can_form(list(entry), runs, counts):
            return i
    return None


def _fill(draw, view: _View, holding: Counter, units: Sequence[Unit], n: int,
          avoid: Sequence[Unit] | None = None) -> list[int] | None:
    """``units`` realized from ``holding``, then up to ``n`` cards with singles that form nothing more.

    With ``avoid``, realizations that also form ``avoid`` are passed over
    where another one exists (a play meeting one ladder entry, not another).
    """
    if not can_form(list(units), view.runs, dict(holding)):
        return None
    turn = _int(draw, 0, 7)
    cards = None
    for t in range(turn, turn + (12 if avoid else 1)):
        got = _realize(view, holding, units, t)
        if got is None:
            continue
        cards = cards or got
        if avoid is None or not can_form(list(avoid), view.runs, dict(Counter(got))):
            cards = got
            break
    if cards is None:
        return None
    more = _singles(draw, holding - Counter(cards), n - len(cards), fresh=Counter(cards))
    return None if more is None else cards + more


def _miss(draw, holding: Counter, play: list[int]) -> list[int]:
    """``play`` with one card (of a unit, where it has one) swapped for another card of the holding."""
    rest = holding - Counter(play)
    multi = [i for i, c in enumerate(play) if play.count(c) > 1] or list(range(len(play)))
    i = _pick(draw, multi)
    options = sorted(c for c in rest if c != play[i])
    if not options:
        return play
    out = list(play)
    out[i] = _pick(draw, options)
    return out


def _follow_dict(level, trump, lead, hand: Counter, play) -> dict:
    return {"level": level, "trump": trump, "lead": _fmt(lead), "hand": _fmt(hand.elements()), "play": _fmt(play)}


def follow_inputs(ruleset: str) -> SearchStrategy[dict]:
    """Inputs of ``follow``: a lead, the follower's whole hand and the play.

    Scenarios: every entry k of every listed follow ladder, the first entry
    of the ladders ``follow.unlisted`` derives for unlisted units (the whole
    tractor of a longer tractor, a single), throws (an entry drawn per
    component), short and void holdings, random holdings. For a ladder entry
    the holding is built from the entry's units on the led suit (tractors on
    windows of the context's runs, pairs and triples apart), sometimes with
    one more unit of the ladder or the whole next entry held apart where k
    stays the first entry (checked on the units first), sometimes with pairs
    held as triples, plus filler singles, and kept only when k is the first
    entry it supplies (``following.obligation``). Plays meet the obligation,
    meet the next entry the holding can supply and not entry k (legal only if
    the ladder is read wrongly), miss by one card, leave the suit, are
    random, have the wrong count or use a card not held.
    """
    rules = _rules(ruleset)
    return _fresh(_follow_input(rules))


# --------------------------------------------------------------------------- winner

_ANSWERS = ("same", "same", "ruff", "ruff_other", "same_other", "equal", "neighbour", "discard")


def _answer_play(draw, rules: Rules, ctx: Context, kind: str, suit: int, plan, lead: list[int],
                 avail: Counter) -> list[int]:
    """A follower's play of ``len(lead)`` cards answering ``lead`` the way ``kind`` says (see winner_inputs)."""
    n = len(lead)
    target = TRUMP if kind in ("ruff", "ruff_other") else suit
    view = _view(ctx, target)
    placed = None
    if kind in ("same", "ruff"):
        placed = _place(draw, view, plan, avail)
    elif kind in ("ruff_other", "same_other"):
        placed = _place(draw, view, _pick(draw, _alternatives(rules, n)), avail)
    elif kind in ("equal", "neighbour"):
        shift = 0 if kind == "equal" else _choice(draw, (1, -1))
        placed = Counter()
        for c, m in sorted(Counter(lead).items()):
            g = view.group_of[c] + shift
            options = [x for x in view.groups[g] if avail[x] - placed[x] >= m] if 0 <= g < len(view.groups) else []
            if not options:
                placed = None
                break
            placed[_pick(draw, options)] += m
    if placed is not None:
        return list(placed.elements())
    pool = Counter({c: k for c, k in avail.items() if ctx.suit[c] != suit and k > 0})
    return _singles(draw, pool, n) or []


@lru_cache(maxsize=None)
def _winner_scenarios(rules: Rules) -> tuple[tuple, ...]:
    out: list[tuple] = [("boundary", None)] * 4 + [("window", None)] * 3
    if rules["tractor.ace_two"] != "none" and "2" in rules["trump.fixed_ranks"]:
        out += [("wrap", None)] * 3
    if 2 in _tractor_sizes(rules) and 3 in _tractor_sizes(rules):
        out += [("upgrade", None)] * 6
    out += [("plan", p) for p in _unit_plans(rules)]
    out += [("plan", p) for p in _throw_plans(rules)]
    out += [("ruffs", p) for p in _throw_plans(rules)]
    out += [("counts_ruff", p) for p in _throw_plans(rules)]
    return tuple(out)


@lru_cache(maxsize=None)
def _containing(rules: Rules, plan: tuple[Unit, ...]) -> tuple[tuple[Unit, ...], ...]:
    """Other shapes of as many cards that contain ``plan``'s units (a triple holds a pair and a single)."""
    from tractor_dsl.patterns import units_as_holding
    n = sum(s * k for s, k in plan)
    out = []
    for alt in _alternatives(rules, n):
        runs, counts = units_as_holding(alt)
        if sorted(alt) != sorted(plan) and can_form(list(plan), runs, counts):
            out.append(alt)
    return tuple(out)


@st.composite
def _winner_input(draw, rules: Rules) -> dict:
    level, trump, ctx = _draw_ctx(draw, rules)
    decks = rules.decks
    leader = _int(draw, 0, 3)
    kind, plan = _choice(draw, _winner_scenarios(rules))
    suit = TRUMP if kind == "wrap" else _draw_suit(draw, ctx, "half" if kind in ("boundary", "window") else "some")
    if kind in ("ruffs", "counts_ruff"):
        assume(suit != TRUMP)
    view = _view(ctx, suit)
    avail = Counter({c: decks for c in range(54)})
    plays: list[list[int]] = [[], [], [], []]
    answers: list[list[int] | None] = [None, None, None]
    if kind == "boundary":  # one unit against the same unit on the other side of a boundary
        cards = _boundary_cards(draw, rules, view, special=False)
        assume(cards is not None and len(set(cards)) >= 2)
        groups = sorted(set(cards), key=lambda c: ctx.key[c])
        size = cards.count(groups[0])
        a, b = draw(st.permutations(groups[:2]))
        lead = [a] * size
        answers[_int(draw, 0, 2)] = [b] * size
        plan = ((size, 1),)
    elif kind == "wrap":  # the AA22 tractor against another tractor of trump
        assume(ctx.wrap_cards)
        size = _choice(draw, _tractor_sizes(rules))
        lead = [c for c in sorted(ctx.wrap_cards) for _ in range(size)]
        plan = ((size, 2),)
        kind = "window"
    elif kind == "window":  # pairs (a tractor or not) around a boundary, answered by any play
        lead = _boundary_cards(draw, rules, view)
        assume(lead is not None)
        plan = tuple(classify(ctx, lead).units)
    elif kind == "upgrade":  # a tractor of pairs against a tractor of triples of as many cards
        lead_units, answer_units = ((2, 3),), ((3, 2),)
        placed = _place(draw, view, lead_units, avail)
        assume(placed is not None)
        lead = list(placed.elements())
        target = TRUMP if _bool(draw) else suit
        other = _place(draw, _view(ctx, target), answer_units, avail - placed)
        assume(other is not None)
        answers[_int(draw, 0, 2)] = list(other.elements())
        plan = lead_units
    elif kind == "counts_ruff":  # a throw ruffed by another shape that contains its units
        assume(_fits(view, plan) and _containing(rules, plan))
        placed = _place(draw, view, plan, avail)
        assume(placed is not None)
        lead = list(placed.elements())
        other = _place(draw, _view(ctx, TRUMP), _pick(draw, _containing(rules, plan)), avail - placed)
        assume(other is not None)
        answers[_int(draw, 0, 2)] = list(other.elements())
    else:
        assume(_fits(view, plan))
        placed = _place(draw, view, plan, avail)
        assume(placed is not None)
        lead = list(placed.elements())
    assume(classify(ctx, lead).suit == suit)
    avail -= Counter(lead)
    for a in answers:
        if a:
            avail -= Counter(a)
    plays[leader] = lead
    answer_kinds = {"ruffs": ("ruff", "ruff_other"), "window": ("same", "same", "neighbour", "ruff", "discard")}
    for k in (1, 2, 3):
        play = answers[k - 1]
        if play is None:
            answer = _choice(draw, answer_kinds.get(kind, _ANSWERS))
            play = _answer_play(draw, rules, ctx, answer, suit, plan, lead, avail)
            avail -= Counter(play)
        assume(len(play) == len(lead))
        plays[(leader + k) % 4] = play
    return {"level": level, "trump": trump, "leader": leader, "plays": [_fmt(p) for p in plays]}


def winner_inputs(ruleset: str) -> SearchStrategy[dict]:
    """Inputs of ``winner``: level, trump, the leader's seat and the four plays by seat.

    Scenarios: a single, pair or triple against the same unit on the other
    side of a boundary between key-adjacent positions (a tier junction, the
    removed level rank, equal off-suit level cards: the first played wins);
    pairs around a boundary or on a run window of cards that are not
    neighbours in the card order, and the AA22 tractor where 2s are fixed
    trump (``tractor.ace_two``), answered mostly by the same shape; a tractor
    of pairs against a tractor of triples of as many cards, same suit or a
    ruff (``compare.element_over_length``); leads of every unit and throw
    shape answered by the same shape (higher, lower, equal, one position up
    or down), a ruff of the same shape or of another shape of as many cards,
    or a discard; throws in a side suit ruffed by two followers
    (``compare.multi``), or by one play of another shape that contains the
    throw's units (a triple for a pair and a single: ``ruff.structure``).
    """
    rules = _rules(ruleset)
    return _fresh(_winner_input(rules))


# --------------------------------------------------------------------------- kitty

def _point_cards(rules: Rules) -> list[int]:
    return [card(r, s) for r in RANKS if rules.points.get(r, 0) for s in _SUIT_LETTERS]


def _kitty_cards(draw, rules: Rules, avail: Counter, size: int) -> list[int]:
    """``size`` cards from ``avail``, most of them point cards."""
    points = _point_cards(rules)
    out: list[int] = []
    left = Counter(avail)
    for _ in range(size):
        rich = _choice(draw, (True, True, False))
        options = [c for c in (points if rich else range(54)) if left[c] > 0] or [c for c in range(54) if left[c] > 0]
        c = _pick(draw, options)
        left[c] -= 1
        out.append(c)
    return out


@lru_cache(maxsize=None)
def _kitty_plans(rules: Rules) -> tuple[tuple[Unit, ...], ...]:
    t = max(2, rules["tractor.min_length"])
    plans: list[tuple[Unit, ...]] = [((1, 1),), ((2, 1),)]
    if rules.decks >= 3:
        plans.append(((3, 1),))
    plans += [((s, t),) for s in _tractor_sizes(rules)] + [((2, t + 1),)]
    plans += [((2, 1), (1, 1)), ((2, t), (1, 1))]
    return tuple(dict.fromkeys(plans))


@lru_cache(maxsize=None)
def _kitty_scenarios(rules: Rules) -> tuple[tuple, ...]:
    """(plan, trump or side winner); trump winners twice as often where only trump captures."""
    trump = 2 if rules["kitty.trump_only"] else 1
    return tuple((plan, cls) for plan in _kitty_plans(rules) for cls in ("trump",) * trump + ("side",))


@st.composite
def _kitty_input(draw, rules: Rules) -> dict:
    level, trump, ctx = _draw_ctx(draw, rules)
    decks = rules.decks
    leader = _int(draw, 0, 3)
    plan, winner = _choice(draw, _kitty_scenarios(rules))
    if winner == "trump":  # trump wins: led, or ruffing a side suit
        mode = _choice(draw, ("lead", "lead", "ruff", "over"))
        suit = TRUMP if mode != "ruff" else _choice(draw, [s for s in range(4) if s != ctx.trump])
    else:
        mode = _choice(draw, ("lead", "lead", "over"))
        suit = _choice(draw, [s for s in range(4) if s != ctx.trump])
    view = _view(ctx, suit)
    assume(_fits(view, plan))
    avail = Counter({c: decks for c in range(54)})
    placed = _place(draw, view, plan, avail)
    assume(placed is not None)
    lead = list(placed.elements())
    avail -= placed
    beater = _int(draw, 1, 3)
    side_suits = [s for s in _suits(ctx) if s not in (suit, TRUMP)]
    plays: list[list[int]] = [[], [], [], []]
    plays[leader] = lead
    for k in (1, 2, 3):
        play = None
        if k == beater and mode == "ruff" and suit != TRUMP:
            play = _answer_play(draw, rules, ctx, _choice(draw, ("ruff", "ruff_other")), suit, plan, lead,
                                avail)
        elif k == beater and mode == "over":
            play = _answer_play(draw, rules, ctx, "same", suit, plan, lead, avail)
        if not play or len(play) != len(lead):  # a discard that cannot win
            pool = Counter({c: avail[c] for s in side_suits for c in _view(ctx, s).cards})
            play = _singles(draw, pool, len(lead))
            assume(play is not None)
        avail -= Counter(play)
        plays[(leader + k) % 4] = play
    kitty = _kitty_cards(draw, rules, avail, rules.kitty_size)
    expected = leader if mode != "ruff" or suit == TRUMP else (leader + beater) % 4  # who should win
    banker = (expected + _choice(draw, (1, 0, 1, 2))) % 4  # mostly the attackers win
    return {"level": level, "trump": trump, "banker": banker,
            "last_trick": {"leader": leader, "plays": [_fmt(p) for p in plays]}, "kitty": _fmt(kitty)}


def kitty_inputs(ruleset: str) -> SearchStrategy[dict]:
    """Inputs of ``kitty``: level, trump, banker, the last trick and a point-rich kitty.

    The last trick is won by a single, pair, triple, tractor or throw, in trump
    or in a side suit (trump twice as often where only trump captures): by
    the lead while the others discard side suits, by a ruff of the same or
    another shape, or by a follower of the same shape. The banker's seat is
    drawn relative to the expected winner: mostly the attackers capture,
    sometimes the banker side.
    """
    rules = _rules(ruleset)
    return _fresh(_kitty_input(rules))


# --------------------------------------------------------------------------- result and advance

def _covered(rules: Rules, points: int) -> bool:
    return any((b.low is None or points >= b.low) and (b.high is None or points <= b.high) for b in rules.bands)


@lru_cache(maxsize=None)
def _result_points(rules: Rules) -> tuple[int, ...]:
    top = 100 * rules.decks
    edges: list[int] = []
    for band in sorted(rules.bands, key=lambda b: (b.low is not None, b.low or 0)):
        for end in (band.low, band.high):
            if end is not None:
                edges += [end, end - 5 if end == band.low else end + 5]
        if band.step and band.low is not None:
            for m in range(1, 5):
                edges += [band.low + m * band.step - 5, band.low + m * band.step]
    edges += [-5, -100, top, top + 5, 20 * top]
    return tuple(v for v in dict.fromkeys(edges) if _covered(rules, v))


def result_inputs(ruleset: str) -> SearchStrategy[dict]:
    """Inputs of ``result``: attackers' points.

    Band edges (each band's low end and the point below it, its high end and
    the point above it), the multiples of a band's step (and five below), a
    pack's worth, and points beyond the open ends (negative, many packs'
    worth). Only points some band covers.
    """
    return _result_input(_rules(ruleset))


def _result_input(rules: Rules) -> SearchStrategy[dict]:
    return st.sampled_from(_result_points(rules)).map(lambda v: {"attackers_points": v})


@lru_cache(maxsize=None)
def _advance_levels(rules: Rules) -> tuple[str, ...]:
    """Every level, the end and must-play levels and their neighbours first (and again)."""
    ranks = list(rules["level.ranks"])
    marks = [r for r in list(rules["level.must_play"]) + [rules["level.end"], ranks[-1]] if r in ranks]
    near = [ranks[j] for r in marks for j in (ranks.index(r), ranks.index(r) - 1, ranks.index(r) - 2)
            if 0 <= j < len(ranks)]
    return tuple(near + near + ranks)


def advance_inputs(ruleset: str) -> SearchStrategy[dict]:
    """Inputs of ``advance``: every level of ``level.ranks`` (the end level, must-play levels and the
    levels just below them most often), gains 0–6 (sometimes up to 14), banker or not."""
    return _advance_input(_rules(ruleset))


def _advance_input(rules: Rules) -> SearchStrategy[dict]:
    return st.fixed_dictionaries({"level": st.sampled_from(_advance_levels(rules)),
                                  "gain": st.one_of(st.integers(0, 6), st.integers(7, 14)),
                                  "as_banker": st.booleans()})


# --------------------------------------------------------------------------- declare

_DECLARE_SCENARIOS: tuple[tuple[tuple[str, ...], str], ...] = (
    ((), "declare"), ((), "joker"), ((), "lone_joker"), ((), "not_level"), ((), "mixed"), ((), "no_token"),
    (("declare",), "overcall"), (("declare",), "equal"), (("declare",), "reinforce"),
    (("declare",), "self_other"), (("declare",), "joker"),
    (("declare", "overcall"), "overcall"), (("declare", "overcall"), "joker"),
    (("declare", "overcall"), "equal"), (("declare", "overcall"), "reinforce"),
    (("joker",), "joker"), (("joker",), "overcall"), (("joker",), "equal"),
    (("declare", "reinforce"), "overcall"), (("declare", "reinforce"), "self_other"),
    (("declare", "joker"), "joker"), (("random",), "random"),
)
_LAST_MOVES = ("declare", "joker", "lone_joker", "not_level", "mixed", "no_token", "overcall", "equal",
               "reinforce", "self_other")
_ANY_MOVE = ("declare", "overcall", "reinforce", "joker", "equal", "self_other")


def _declaration(draw, rules: Rules, level: str, token: int | None, state, move: str, room: bool = False):
    """One (seat, cards) declaration of the kind ``move`` after ``state`` (None if it makes no sense here).

    ``room``: a first declaration shows one copy, leaving copies for overcalls.
    """
    decks = rules.decks
    # a prefix step must be legal: no jokers where they may not declare
    jokers = [SMALL_JOKER, BIG_JOKER] if rules["declare.joker_pairs"] or not room else []
    level_cards = [card(level, s) for s in _SUIT_LETTERS]
    declarer = state.declarer if state is not None else None
    current = state.strength[0] if state is not None and state.strength else 0
    others = [s for s in range(4) if s != declarer]
    if move in ("overcall", "equal", "reinforce", "self_other") and declarer is None:
        return None
    if move in ("declare", "no_token"):
        seat = _int(draw, 0, 3)
        cards = [_pick(draw, level_cards)] * (1 if room else _int(draw, 1, decks))
    elif move == "overcall":
        seat = _pick(draw, others)
        copies = current + (1 if room else _choice(draw, (1, 1, 2)))
        if copies > decks:
            return None
        cards = [_pick(draw, level_cards + (jokers if copies >= 2 else []))] * copies
    elif move == "equal":
        seat = _pick(draw, others)
        cards = [_pick(draw, [c for c in level_cards if c != state.card] + (jokers if current >= 2 else []))] * current
    elif move == "reinforce":
        return declarer, [state.card] * _int(draw, 1, max(1, decks - current))  # no token again
    elif move == "self_other":
        seat = declarer
        copies = min(decks, current + _int(draw, 0, 1))
        cards = [_pick(draw, [c for c in level_cards if c != state.card] + (jokers if copies >= 2 else []))] * copies
    elif move in ("joker", "lone_joker"):
        if not jokers:
            return None
        seat = _int(draw, 0, 3)
        copies = 1 if move == "lone_joker" else _int(draw, 2, max(2, decks))
        cards = [_choice(draw, jokers)] * copies
    elif move == "not_level":
        seat = _int(draw, 0, 3)
        cards = [card(_pick(draw, [r for r in RANKS if r != level]), _choice(draw, _SUIT_LETTERS))]
        cards *= _int(draw, 1, 2)
    else:  # mixed
        seat = _int(draw, 0, 3)
        first = _pick(draw, level_cards)
        cards = [first, _pick(draw, [c for c in level_cards + jokers if c != first])]
    if token is not None and move != "no_token" and token not in cards:
        cards = cards + [token]
    return seat, cards


def _holds(holdings: list[Counter], seat: int, cards: list[int], reinforcing: bool, decks: int) -> list[Counter] | None:
    """The cards each seat must hold once it has shown ``cards`` (None when the pack cannot have them)."""
    new = [Counter(h) for h in holdings]
    for c, k in Counter(cards).items():
        new[seat][c] = new[seat][c] + k if reinforcing else max(new[seat][c], k)
    total = sum(new, Counter())
    return None if any(k > decks for k in total.values()) else new


@st.composite
def _declare_input(draw, rules: Rules) -> dict:
    from reference_impl.declaring import judge_declarations
    level = _choice(draw, _levels(rules))
    first_hand = _bool(draw)
    banker = None if first_hand else _int(draw, 0, 3)
    token = None
    if first_hand and rules["declare.first_hand_card"] is not None:
        token = card(*rules["declare.first_hand_card"])
    prefix, last = _choice(draw, _DECLARE_SCENARIOS)
    if prefix == ("random",):
        prefix = tuple(_choice(draw, _ANY_MOVE) for _ in range(_int(draw, 0, 3)))
        last = _choice(draw, _LAST_MOVES)
    sequence: list[tuple[int, list[int]]] = []
    holdings = [Counter() for _ in range(4)]
    state = None

    def shown(step) -> list[Counter] | None:
        reinforcing = state is not None and step[0] == state.declarer and set(step[1]) == {state.card}
        return _holds(holdings, step[0], step[1], reinforcing, rules.decks)

    for move in prefix:
        step = _declaration(draw, rules, level, token, state, move, room=True)
        held = None if step is None else shown(step)
        if held is None:
            continue
        j = judge_declarations(rules, level, sequence + [step], first_hand, banker=banker)
        if j.value.legal:
            sequence.append(step)
            holdings, state = held, j.value
    step = _declaration(draw, rules, level, token, state, last)
    assume(step is not None and shown(step) is not None)
    sequence.append(step)
    inp = {"level": level, "first_hand": first_hand, "banker": banker,
           "declarations": [{"seat": s, "cards": _fmt(c)} for s, c in sequence]}
    if _choice(draw, (False, False, False, True)):
        inp["kitty_taken"] = True
    return inp


def declare_inputs(ruleset: str) -> SearchStrategy[dict]:
    """Inputs of ``declare``: level, first hand or not (with the banker), and declarations.

    Scenarios: a first declaration (level cards, a joker pair, a lone joker,
    a card that is not a level card, mixed cards, no ``declare.first_hand_card``);
    after a declaration, after an overcall, after a joker pair, after a
    reinforcement: an overcall by more copies, one of equal copies (refused
    under ``more_copies``; jokers over level cards under
    ``copies_then_jokers``), a reinforcement, a self-overcall with another
    suit, a joker pair. Every declaration but the last is legal; sometimes the
    kitty was taken before the last. No seat shows more copies than the pack holds.
    """
    rules = _rules(ruleset)
    return _fresh(_declare_input(rules))


# --------------------------------------------------------------------------- undeclared

@st.composite
def _undeclared_input(draw, rules: Rules) -> dict:
    decks = rules.decks
    k = rules["declare.kitty_card"] - 1
    size = max(rules.kitty_size, k + 1)
    used: Counter = Counter()
    kitty: list[int] = []
    tail = _choice(draw, (False, False, False, True))  # jokers on every card from the named one on
    for i in range(size):
        if (i >= k and tail) or (i <= k + 1 and _choice(draw, (False, True))):
            options = [j for j in (SMALL_JOKER, BIG_JOKER) if used[j] < decks]
            if options:
                c = _pick(draw, options)
                used[c] += 1
                kitty.append(c)
                continue
        c = _pick(draw, [c for c in range(52) if used[c] < decks])
        used[c] += 1
        kitty.append(c)
    levels = _levels(rules)
    return {"level": _choice(draw, levels), "attackers_level": _choice(draw, levels),
            "kitty": [text(c) for c in kitty], "first_hand": _bool(draw)}


def undeclared_inputs(ruleset: str) -> SearchStrategy[dict]:
    """Inputs of ``undeclared``: the two sides' levels, the kitty in the order it is turned, first hand or not.

    Jokers are placed at and just before and after the card that names trump
    (``declare.kitty_card``), sometimes on every card from it on.
    """
    rules = _rules(ruleset)
    return _fresh(_undeclared_input(rules))


# --------------------------------------------------------------------------- penalty

@lru_cache(maxsize=None)
def _penalty_faults(rules: Rules) -> tuple[dict, ...]:
    """Every single fault to ask about: kind × offender (``both`` where a fault record names that case) ×
    found at once or late, the kinds of :data:`reference_impl.penalties.FAULTS` in order."""
    from reference_impl.penalties import FAULTS, RECORDS
    values = rules.checked.values
    out = []
    for kind in FAULTS:
        offenders = ["banker"] if kind == "wrong_kitty" else ["banker", "attackers"]
        if kind in RECORDS and "both_sides" in (values.get(RECORDS[kind]) or {}):
            offenders.append("both")
        out += [{"fault": kind, "offender": o, "found": found} for o in offenders for found in ("at_once", "late")]
    return tuple(out)


def _penalty_input(rules: Rules) -> SearchStrategy[dict]:
    faults = _penalty_faults(rules)
    steps = rules.checked.values.get("penalty.lateness") or ()
    minutes = tuple(sorted({0, 1} | {m for s in steps for m in (s["over"], s["over"] + 1)}))
    points = _result_points(rules)

    @st.composite
    def draw_input(draw) -> dict:
        out = []
        for _ in range(_int(draw, 1, 3)):
            f = dict(_pick(draw, faults), count=_int(draw, 0, 6))
            if f["fault"] == "lateness":
                f["minutes"] = _pick(draw, minutes)  # by index: (0, 1) would hit _sampled's cached (False, True)
            out.append(f)
        return {"faults": out, "attackers_points": _choice(draw, points)}
    return draw_input()


def penalty_inputs(ruleset: str) -> SearchStrategy[dict]:
    """Inputs of ``penalty``: one to three faults of one hand and the attackers' points.

    Each fault is a kind the ruleset may price, by the banker side, the
    attackers or (for a fault record naming ``both_sides``) both, found at once
    or late, counting 0–6 cards or times; lateness is drawn at and just past
    every step of ``penalty.lateness``. Points are the band edges of
    :func:`result_inputs`. Several faults let a hand-ending fault follow one
    that carries points (``penalty.several``).
    """
    return _fresh(_penalty_input(_rules(ruleset)))


# --------------------------------------------------------------------------- all operations

_STRATEGIES: dict[str, Callable[[Rules], SearchStrategy[dict]]] = {
    "classify": _classify_input, "lead": _lead_input, "follow": _follow_input, "winner": _winner_input,
    "kitty": _kitty_input, "result": _result_input, "advance": _advance_input, "declare": _declare_input,
    "undeclared": _undeclared_input, "penalty": _penalty_input,
}


def _strategy(op: str, rules: Rules) -> SearchStrategy[dict]:
    """The inputs of ``op`` (not yet wrapped by :func:`_fresh`)."""
    return _STRATEGIES[op](rules)


def _weights(rules: Rules) -> dict[str, int]:
    """How often :func:`cases` draws each operation: by the scenarios it has to visit (follow: its
    ladder entries, result: its band edges), the cheap operations generously."""
    return {"classify": 12, "lead": 10, "follow": len(_follow_scenarios(rules)) * 3 // 2, "winner": 12,
            "kitty": len(_kitty_scenarios(rules)), "result": len(_result_points(rules)), "advance": 8,
            "declare": len(_DECLARE_SCENARIOS), "undeclared": 3, "penalty": len(_penalty_faults(rules)) // 2}


def cases(ruleset: str, ops: Sequence[str] | None = None) -> SearchStrategy[dict]:
    """Cases ``{"op": op, "input": {...}}`` for ``ruleset``, ``input`` as the op's request schema requires.

    ``ops`` limits the operations (default: all of :data:`OPERATIONS`; ``hand``
    is not generated). Operations are drawn with weights that follow the
    number of decisions the ruleset gives each (follow by its ladder entries,
    result by its band edges).
    """
    rules = _rules(ruleset)
    chosen = _ops(ops)
    weights = _weights(rules)
    strategies = {op: _strategy(op, rules) for op in chosen}
    weighted = [op for op in chosen for _ in range(weights[op])]
    return _fresh(st.sampled_from(weighted).flatmap(
        lambda op: strategies[op].map(lambda inp: {"op": op, "input": inp})))


def _fresh(strategy: SearchStrategy) -> SearchStrategy:
    """``strategy``, drawn as the only element of a unique list.

    After each new case Hypothesis's generate phase runs a few mutations of
    it that copy one part of the case over another part drawn by the same
    strategy (the same operation and scenario, a few cards moved); it skips
    the parts inside a unique collection. Drawn this way, nearly every
    example is a new scenario, which is what a conformance run with a fixed
    budget needs. Shrinking is unaffected (the list has exactly one element).
    """
    return st.lists(strategy, min_size=1, max_size=1, unique_by=lambda _: 0).map(lambda xs: xs[0])


# --------------------------------------------------------------------------- clauses

#: What counts as a positive answer, per operation (see :func:`clause_coverage`).
POSITIVE = {
    "classify": "the cards are one unit (single, pair, triple or tractor), not a throw or mixed",
    "lead": "the lead is legal",
    "follow": "the play is legal",
    "winner": "the leader wins the trick",
    "kitty": "the kitty changes the attackers' points (points != 0)",
    "result": "the banker side keeps the bank",
    "advance": "the team wins the game",
    "declare": "the last declaration is legal",
    "undeclared": "a kitty card names trump (no redeal)",
    "penalty": "a fault decides the hand's result (consequence other than none)",
}


def _positive(op: str, inp: dict, result: dict) -> bool:
    if op == "classify":
        return result["kind"] in ("single", "pair", "triple", "tractor")
    if op in ("lead", "follow", "declare"):
        return bool(result["legal"])
    if op == "winner":
        return result["winner"] == inp["leader"]
    if op == "kitty":
        return result["points"] != 0
    if op == "result":
        return result["next_banker"] == "banker"
    if op == "advance":
        return bool(result["won"])
    if op == "penalty":
        return result["consequence"] != "none"
    return not result["redeal"]


# Settings no protocol operation judges: conduct and the match, tournament,
# deal and bank, and settings read by no operation (the equipment sizes only
# bound valid inputs; score.threshold restates the bands; kitty.exchange
# shapes a whole hand, not a judgment).
_NOT_JUDGED = ("match.", "tournament.", "deal.", "bank.", "equipment.players", "equipment.decks",
               "equipment.hand_size", "equipment.kitty_size", "score.threshold", "kitty.exchange")


def executable_clauses(ruleset: str) -> set[str]:
    """Ids of the clauses of ``ruleset`` holding a setting, follow ladder or score band an operation reads.

    Left out are clauses holding only settings no operation of the protocol
    judges: conduct, ``match.*``, ``tournament.*``, ``deal.*``, ``bank.*``,
    ``equipment.players`` and the equipment sizes (they only bound valid
    inputs), ``score.threshold`` and ``kitty.exchange``.
    """
    rules = _rules(ruleset)
    checked = rules.checked
    out = {origin.clause.id for name, origin in checked.origins.items() if not name.startswith(_NOT_JUDGED)}
    out |= set(rules.ladder_clause.values())
    if checked.band_origin is not None:
        out.add(checked.band_origin.clause.id)
    return out


def clause_coverage(ruleset: str, examples: int = 200) -> dict[str, dict[str, int]]:
    """How many drawn cases each clause decided, by the polarity of the answer.

    Draws ``examples`` cases of each operation of :data:`OPERATIONS`
    (deterministically: ``derandomize``, no example database, no shrinking),
    judges each with the reference engine (:func:`conformance.engine.judge`)
    and counts, for every clause id the judgment reports, the cases whose
    answer was *positive* and *negative* (:data:`POSITIVE`):

    * classify — positive: one unit (single, pair, triple, tractor); negative: a throw or mixed cards;
    * lead, follow, declare — positive: legal; negative: refused;
    * winner — positive: the leader wins; negative: another seat wins;
    * kitty — positive: the kitty changes the attackers' points; negative: it changes nothing;
    * result — positive: the banker side keeps the bank; negative: the attackers take it;
    * advance — positive: the team wins the game; negative: it does not;
    * undeclared — positive: a kitty card names trump; negative: a redeal;
    * penalty — positive: a fault decides the hand's result; negative: the score table does.

    Returns ``{clause_id: {"positive": n, "negative": n}}``.
    """
    from hypothesis import HealthCheck, Phase, given, settings
    from .engine import judge
    rules = _rules(ruleset)
    if type(examples) is not int or examples < 1:
        raise ValueError(f"examples: expected a positive integer, not {examples!r}")
    counts: dict[str, dict[str, int]] = {}
    for op in OPERATIONS:
        @settings(max_examples=examples, database=None, derandomize=True, deadline=None,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(_fresh(_strategy(op, rules)))
        def run(inp: dict) -> None:
            result, clauses = judge(op, ruleset, inp)
            polarity = "positive" if _positive(op, inp, result) else "negative"
            for c in clauses:
                counts.setdefault(c, {"positive": 0, "negative": 0})[polarity] += 1
        run()
    return counts

