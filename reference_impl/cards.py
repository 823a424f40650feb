"""Cards and their notation.

Notation (unambiguous by construction): a suited card is its rank then its
suit letter — ``2H``, ``10S``, ``QD``, ``AC`` (ranks 2–10, J, Q, K, A; suits
S ♠, H ♥, D ♦, C ♣). Jokers have a form no suited card can take: ``J+`` is
the big joker (大王), ``J-`` the small joker (小王). ``BJ``, ``SJ``, ``HJ``,
``LJ`` and the like are rejected with a message, because other engines read
them both ways. Cards are separated by spaces or commas; copies repeat
(``5H 5H``).

Internally a card is an int 0–53: ``suit * 13 + rank_index`` for suited
cards (rank_index 0 is the 2), 52 the small joker, 53 the big joker.
"""
from __future__ import annotations

import re
from collections import _count_elements  # noqa: PLC2701
from typing import Iterable

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_LETTERS = ("S", "H", "D", "C")
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_GLYPHS = ("♠", "♥", "♦", "♣")
SMALL_JOKER, BIG_JOKER = 52, 53
DECK = tuple(range(54))

_TOKEN = re.compile(r"^(10|[2-9JQKA])([SHDC])$")
_AMBIGUOUS_JOKERS = {"BJ", "SJ", "HJ", "LJ", "RJ", "JB", "JR", "JK", "BJK", "SJK"}


class CardError(ValueError):
    """A card string that does not parse, or a card set that cannot exist."""


def card(rank: str, suit: str) -> int:
    return SUIT_LETTERS.index(suit) * 13 + RANKS.index(rank) if suit in SUIT_LETTERS else \
        SUIT_NAMES.index(suit) * 13 + RANKS.index(rank)


def is_joker(c: int) -> bool:
    return c >= 52


def rank_of(c: int) -> str | None:
    return None if c >= 52 else RANKS[c % 13]


def rank_index(c: int) -> int:
    """0 for the 2 ... 12 for the A; jokers have none (-1)."""
    return -1 if c >= 52 else c % 13


def suit_of(c: int) -> int | None:
    """0 spades, 1 hearts, 2 diamonds, 3 clubs; None for a joker."""
    return None if c >= 52 else c // 13


def text(c: int) -> str:
    if c == BIG_JOKER:
        return "J+"
    if c == SMALL_JOKER:
        return "J-"
    return RANKS[c % 13] + SUIT_LETTERS[c // 13]


def glyph(c: int) -> str:
    if c == BIG_JOKER:
        return "大王"
    if c == SMALL_JOKER:
        return "小王"
    return RANKS[c % 13] + SUIT_GLYPHS[c // 13]


def is_red(c: int) -> bool:
    return c == BIG_JOKER or (c < 52 and c // 13 in (1, 2))


def parse_card(token: str) -> int:
    t = token.strip()
    if t == "J+":
        return BIG_JOKER
    if t == "J-":
        return SMALL_JOKER
    m = _TOKEN.match(t)
    if m:
        return card(m.group(1), m.group(2))
    if t.upper() in _AMBIGUOUS_JOKERS:
        raise CardError(f"'{t}' is ambiguous: write J+ for the big joker, J- for the small joker, "
                        f"or rank then suit for a jack (JS, JH, JD, JC)")
    if re.match(r"^[SHDC](10|[2-9JQKA])$", t):
        raise CardError(f"'{t}' is suit-first; write the rank first: {t[1:]}{t[0]}")
    if re.match(r"^(10|[2-9JQKA])[shdc]$", t) or re.match(r"^(10|[2-9jqka])[SHDCshdc]$", t):
        raise CardError(f"'{t}' must be upper case: {t.upper()}")
    if re.match(r"^1[SHDC]$", t) or re.match(r"^T[SHDC]$", t):
        raise CardError(f"'{t}' is not a card; the ten is written 10 (e.g. 10{t[-1]})")
    raise CardError(f"'{t}' is not a card: write rank then suit (2H, 10S, QD, AC) or J+ / J- for the jokers")


def parse_cards(cards: str | Iterable[str]) -> list[int]:
    """Parse ``"5H 5H 7H 7H"`` (or a list of tokens) into card ints."""
    tokens = re.split(r"[\s,]+", cards.strip()) if isinstance(cards, str) else list(cards)
    return [parse_card(t) for t in tokens if t != ""]


def format_cards(cards: Iterable[int]) -> str:
    """Cards in notation (``5H J+``): what a program reads."""
    return " ".join(text(c) for c in cards)


def show_cards(cards: str | Iterable[int | str], empty: str = "—") -> str:
    """Cards as people read them (``5♥ 大王``): the one text every command and report prints cards with.

    Takes card ints, notation tokens or a notation string; a token that is not
    a card (an engine's wrong answer) is shown as it is.
    """
    items = re.split(r"[\s,]+", cards.strip()) if isinstance(cards, str) else list(cards)
    out = []
    for c in items:
        if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 54:
            out.append(glyph(c))
        elif c != "":
            try:
                out.append(glyph(parse_card(str(c))))
            except ValueError:
                out.append(str(c))
    return " ".join(out) if out else empty


def check_copies(cards: Iterable[int], decks: int, what: str = "these cards") -> None:
    """Reject a set holding more copies of a card than there are decks."""
    counts: dict[int, int] = {}
    _count_elements(counts, cards)  # Counter's own counting loop, in C, into a plain dict
    if not counts or max(counts.values()) <= decks:
        return
    over = sorted(c for c, n in counts.items() if n > decks)
    if over:
        detail = ", ".join(f"{counts[c]} × {text(c)}" for c in over)
        raise CardError(f"{what} hold {detail}, but {decks} deck(s) have only {decks} of each card")


def full_pack(decks: int) -> list[int]:
    return [c for _ in range(decks) for c in DECK]
