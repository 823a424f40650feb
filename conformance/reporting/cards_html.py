"""Cards drawn as cards, in HTML: one drawing for the rulebook site and the HTML conformance report.

A card is a ``span.tr-card`` (``tr-red`` or ``tr-black``, ``tr-joker`` for the
jokers, 大王 and 小王) holding its rank and a ``span.tr-suit`` glyph; a row of
cards is a ``span.tr-cards``. :func:`card_face` says what a card shows; the
docs turn it into docutils nodes (``docs/_ext/tractor_docs.py``), the report
into HTML text (:func:`cards_html`), so the two draw a card the same way. The
style is ``static/tractor-cards.css``, which the site ships and the report
inlines (:data:`CARD_CSS`).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from conformance.reporting.escape import html_text
from reference_impl.cards import RANKS, SUIT_GLYPHS, CardError, is_red, parse_card

STATIC = Path(__file__).parent / "static"
CARD_CSS_FILE = STATIC / "tractor-cards.css"
CARD_CSS = CARD_CSS_FILE.read_text(encoding="utf-8")
JOKERS = {53: "大王", 52: "小王"}


@dataclass(frozen=True)
class CardFace:
    """What a card shows: its classes, its rank (or the joker's name) and its suit glyph (None for a joker)."""

    classes: tuple[str, ...]
    rank: str
    suit: str | None


def card_face(c: int) -> CardFace:
    classes = ("tr-card", "tr-red" if is_red(c) else "tr-black")
    if c in JOKERS:
        return CardFace(classes + ("tr-joker",), JOKERS[c], None)
    return CardFace(classes, RANKS[c % 13], SUIT_GLYPHS[c // 13])


def card_html(c: int) -> str:
    f = card_face(c)
    suit = f'<span class="tr-suit">{f.suit}</span>' if f.suit else ""
    return f'<span class="{" ".join(f.classes)}">{f.rank}{suit}</span>'


def cards_html(tokens: Iterable[str] | str) -> str:
    """A row of cards from their notation (``"5H 5H"`` or tokens); a token that is no card is shown as
    text (an engine's answer may hold anything), escaped."""
    if isinstance(tokens, str):
        tokens = tokens.split()
    out = []
    for t in tokens:
        try:
            out.append(card_html(parse_card(str(t))))
        except (CardError, ValueError):
            out.append(f'<code>{html_text(t)}</code>')
    if not out:
        return "—"
    return '<span class="tr-cards">' + "".join(out) + "</span>"
