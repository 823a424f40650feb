"""The trump context of a hand: effective suits, card order and tractor adjacency.

Everything here is computed from the ruleset's settings (``trump.order``,
``trump.fixed_ranks``, ``tractor.adjacency``, ``tractor.bridge_level``,
``tractor.junctions``, ``tractor.ace_two``, ``tractor.no_trump_junction``, and the house rules
``trump.named_cards``, ``tractor.off_level_chain`` and ``trump.off_suit_order``) and the hand's level and
trump suit, once per context, into tables indexed by card (0–53).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from tractor_dsl.types import NO_TRUMP_LEVEL

from .cards import BIG_JOKER, RANKS, SMALL_JOKER, SUIT_LETTERS, SUIT_NAMES, CardError, card
from .rules import Rules

TRUMP = 4  # the effective suit of every trump card
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs", "trump")


def parse_suit(value: str | None) -> int | None:
    """'H', 'hearts' or None/'none' (no trump) -> suit index or None."""
    if value is None or value in ("none", "", "NT", "no_trump"):
        return None
    if value in SUIT_LETTERS:
        return SUIT_LETTERS.index(value)
    if value in SUIT_NAMES:
        return SUIT_NAMES.index(value)
    raise CardError(f"'{value}' is not a trump suit: write S, H, D, C (or spades, hearts, diamonds, clubs) or none")


@dataclass(frozen=True, eq=False)
class Context:
    """Level and trump of one hand, with the tables derived from the rules."""

    rules: Rules
    level: str
    trump: int | None          # trump suit index, None for no-trump
    suit: tuple[int, ...]      # effective suit per card
    key: tuple[int, ...]       # order key per card: higher beats lower; equal keys are equal cards
    tier: tuple[str | None, ...]
    runs: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...]  # per effective suit: runs of positions of cards
    wrap_cards: frozenset = frozenset()  # cards of the AA22 run
    where: tuple = ()  # per card: ((run index, position index), ...) in its effective suit's runs
    spot: tuple = ()   # per card: its one place as run * SPOT_RUN + position, or -1 (more places, or none)
    memo: dict = field(default_factory=dict, compare=False, repr=False)  # classify's answers, by cards

    def is_trump(self, c: int) -> bool:
        return self.suit[c] == TRUMP

    def suit_name(self, s: int) -> str:
        return SUIT_WORDS[s]

    def order_clauses(self) -> tuple[str, ...]:
        r = self.rules
        return (r.clause("trump.order"), r.clause("trump.fixed_ranks"))

    def adjacency_clauses(self) -> tuple[str, ...]:
        r = self.rules
        ids = [r.clause("tractor.adjacency"), r.clause("tractor.bridge_level"), r.clause("tractor.junctions"),
               r.clause("tractor.ace_two")]
        if self.trump is None:
            ids.append(r.clause("tractor.no_trump_junction"))
        return tuple(dict.fromkeys(ids))


def context(rules: Rules, level: str, trump: int | str | None) -> Context:
    if isinstance(trump, str) or trump is None:
        trump = parse_suit(trump)
    if level == NO_TRUMP_LEVEL:
        if NO_TRUMP_LEVEL not in rules["level.ranks"]:
            raise CardError(f"{NO_TRUMP_LEVEL} is not a level of {rules.name}: its level.ranks end at "
                            f"{rules['level.ranks'][-1]}")
        if trump is not None:
            raise CardError(f"a hand at the no-trump level {NO_TRUMP_LEVEL} has no trump suit")
        return _context(rules, level, None)
    if level not in RANKS:
        raise CardError(f"'{level}' is not a level: write 2–10, J, Q, K, A or NT")
    if level in rules["trump.fixed_ranks"]:
        raise CardError(f"{level} cannot be the level: it is a fixed trump rank in {rules.name}")
    return _context(rules, level, trump)


# The settings the tables of a context are computed from (and nothing else of the rules is read there).
TABLE_SETTINGS = ("trump.order", "trump.fixed_ranks", "tractor.adjacency", "tractor.bridge_level",
                  "tractor.junctions", "tractor.ace_two", "tractor.no_trump_junction")
OPTIONAL_TABLE_SETTINGS = ("trump.named_cards", "tractor.off_level_chain",   # house rules, unset in most rulesets
                           "trump.off_suit_order")
_TABLES: dict = {}  # (those settings, level, trump) -> the tables: rulesets that agree on them share them


@lru_cache(maxsize=512)
def _context(rules: Rules, level: str, trump: int | None) -> Context:
    key = (repr(tuple(rules[s] for s in TABLE_SETTINGS)),
           repr(tuple(rules.get(s) for s in OPTIONAL_TABLE_SETTINGS)), level, trump)
    tables = _TABLES.get(key)
    if tables is None:
        tables = _tables(rules, level, trump)
        if len(_TABLES) < 4096:
            _TABLES[key] = tables
    return Context(rules, level, trump, *tables)


def _tables(rules: Rules, level: str, trump: int | None) -> tuple:
    """The tables of a :class:`Context` after its rules, level and trump: suit, key, tier, runs, wrap_cards,
    where and spot (all immutable)."""
    fixed = list(reversed(rules["trump.fixed_ranks"]))  # stated highest first; kept lowest first, as RANKS are
    order = rules["trump.order"]
    # without the level tiers the level cards stay in their suits; at the no-trump level there are none (V66)
    level_cards_trump = "trump_level" in order and level != NO_TRUMP_LEVEL
    level_i = RANKS.index(level) if level_cards_trump else -1
    fixed_i = {RANKS.index(r) for r in fixed}
    named = [card(r, s) for r, s in rules.get("trump.named_cards") or ()]
    taken = set(named)   # a named card leaves its suit and every other tier
    # the off-suit letters of the tiers off_level and off_fixed, highest first where trump.off_suit_order ranks
    # them (H32: one place per suit), else in the protocol's order (one place of equal cards)
    suit_order = rules.get("trump.off_suit_order")
    off_letters = [SUIT_LETTERS[SUIT_NAMES.index(n)] for n in suit_order] if suit_order else list(SUIT_LETTERS)
    off_letters = [s for s in off_letters if trump is None or s != SUIT_LETTERS[trump]]

    def off_positions(rank: str) -> list[list[int]]:
        cards = [card(rank, s) for s in off_letters]
        return [[c] for c in cards] if suit_order else [cards]

    def tier_positions(tier: str) -> list[list[int]]:
        """The positions of one tier, highest first; each position lists equal cards."""
        if tier == "named":
            return [[c] for c in named]
        if tier == "big_joker":
            return [[BIG_JOKER]]
        if tier == "small_joker":
            return [[SMALL_JOKER]]
        if tier in ("trump_level", "off_level") and not level_cards_trump:
            return []
        if tier == "trump_level":
            return [[card(level, SUIT_LETTERS[trump])]] if trump is not None else []
        if tier == "off_level":
            return off_positions(level)
        if tier == "trump_fixed":
            return [[card(r, SUIT_LETTERS[trump])] for r in reversed(fixed)] if trump is not None else []
        if tier == "off_fixed":
            return [pos for r in reversed(fixed) for pos in off_positions(r)]
        if tier == "trump_suit":
            if trump is None:
                return []
            return [[trump * 13 + i] for i in range(12, -1, -1) if i != level_i and i not in fixed_i]
        raise ValueError(tier)

    suit = [0] * 54
    key = [0] * 54
    tier_of: list[str | None] = [None] * 54
    # trump: positions high to low
    trump_positions: list[tuple[str, list[int]]] = []
    for tier in order:
        for pos in tier_positions(tier):
            pos = pos if tier == "named" else [c for c in pos if c not in taken]
            if pos:
                trump_positions.append((tier, pos))
    top = 100 + len(trump_positions)
    for i, (tier, pos) in enumerate(trump_positions):
        for c in pos:
            suit[c] = TRUMP
            key[c] = top - i
            tier_of[c] = tier
    side_positions: list[list[list[int]]] = [[], [], [], []]
    for s in range(4):
        if s == trump:
            continue
        for i in range(12, -1, -1):
            if i == level_i or i in fixed_i or s * 13 + i in taken:
                continue
            c = s * 13 + i
            suit[c] = s
            key[c] = i
            side_positions[s].append([c])

    bridge = rules["tractor.bridge_level"]

    def ranks_chain(high: int, low: int) -> bool:
        if high - low == 1:
            return True
        return bridge and all(r == level_i for r in range(low + 1, high))

    runs: list[list[list[list[int]]]] = [[] for _ in range(5)]
    junctions = {frozenset(j) for j in rules["tractor.junctions"]}
    # no trump suit: the level cards sit directly below the small joker, and chain with it if the rules say so
    no_trump_link = trump is None and rules["tractor.no_trump_junction"]
    if no_trump_link:
        junctions.add(frozenset(("small_joker", "off_level")))
    if rules["tractor.adjacency"] == "trump_order":
        for s in range(4):
            runs[s] = _split(side_positions[s], lambda a, b: ranks_chain(a[0] % 13, b[0] % 13))

        def trump_link(a, b) -> bool:
            (ta, pa), (tb, pb) = a, b
            if ta != tb:
                return frozenset((ta, tb)) in junctions
            if ta == "trump_suit":
                return ranks_chain(pa[0] % 13, pb[0] % 13)
            # H32: off-suit trumps of one rank ranked by suit are adjacent places, and chain as such (tuolaji,
            # TrumpSystem.trump_order 500, 501, 502 and CardCombo._try_tractor's consecutive orders); equal
            # cards hold one place and never chain, nor do two ranks of off_fixed
            return bool(suit_order) and ta in ("off_level", "off_fixed") and pa[0] % 13 == pb[0] % 13
        runs[TRUMP] = [[pos for _, pos in run] for run in _split(trump_positions, trump_link)]
    else:  # face_rank: within one suit, by face rank
        for s in range(4):
            runs[s] = _split(side_positions[s], lambda a, b: ranks_chain(a[0] % 13, b[0] % 13))
        by_suit: dict[int, list[list[int]]] = {}
        for _, pos in trump_positions:
            for c in pos:
                if c < 52:
                    by_suit.setdefault(c // 13, []).append([c])
        for s, positions in sorted(by_suit.items()):
            positions.sort(key=lambda p: -(p[0] % 13))
            runs[TRUMP].extend(_split(positions, lambda a, b: ranks_chain(a[0] % 13, b[0] % 13)))
        jokers = [[BIG_JOKER], [SMALL_JOKER]] if frozenset(("big_joker", "small_joker")) in junctions \
            else [[SMALL_JOKER]]
        if no_trump_link and level_cards_trump:
            jokers.append(off_positions(level)[0])   # ranked by suit (H32): the highest only
        if len(jokers) > 1:
            runs[TRUMP].append(jokers)
    if rules.get("tractor.off_level_chain") and level_cards_trump:
        # any two or more off-suit level cards of different suits chain (V21): a run for each such set
        from itertools import combinations
        off = [card(level, s) for s in SUIT_LETTERS if trump is None or s != SUIT_LETTERS[trump]]
        off = [c for c in off if c not in taken]
        for k in range(2, len(off) + 1):
            runs[TRUMP].extend([[c] for c in group] for group in combinations(off, k))
    wrap: frozenset = frozenset()
    if rules["tractor.ace_two"] != "none" and "2" in fixed and trump is not None and level != "A":
        ace, two = trump * 13 + 12, trump * 13 + 0
        runs[TRUMP].append([[ace], [two]])
        wrap = frozenset((ace, two))
    frozen_runs = tuple(tuple(tuple(tuple(pos) for pos in run) for run in suit_runs if len(run) >= 1)
                        for suit_runs in runs)
    where: list[list[tuple[int, int]]] = [[] for _ in range(54)]
    for suit_runs in frozen_runs:
        for r, run in enumerate(suit_runs):
            for p, pos in enumerate(run):
                for c in pos:
                    where[c].append((r, p))
    spot = tuple(w[0][0] * SPOT_RUN + w[0][1] if len(w) == 1 and w[0][1] < SPOT_RUN - 1 else -1 for w in where)
    return (tuple(suit), tuple(key), tuple(tier_of), frozen_runs, wrap, tuple(tuple(w) for w in where), spot)


# A card's one place in its suit's runs as one number: positions of one run are consecutive numbers, and
# since no position reaches SPOT_RUN - 1, no two places of different runs are.
SPOT_RUN = 64


def _split(positions, linked) -> list[list]:
    """Split a high-to-low list of positions into runs where consecutive ones are linked."""
    runs: list[list] = []
    for pos in positions:
        if runs and linked(runs[-1][-1], pos):
            runs[-1].append(pos)
        else:
            runs.append([pos])
    return runs
