"""The site and the HTML conformance report draw a card with the same code: every card on a rulebook
page is exactly what :func:`conformance.reporting.cards_html.card_html` writes, and the site ships the style the
report inlines."""
from __future__ import annotations

import re

from conformance.reporting.cards_html import CARD_CSS, card_html

CARD = re.compile(r'<span class="tr-card [^"]+">(?:[^<]|<span class="tr-suit">[^<]*</span>)*</span>')


def test_the_site_draws_cards_as_the_report_does(site):
    drawings = {card_html(c) for c in range(54)}
    for lang in ("", "zh/"):
        page = (site.out / f"{lang}rulebooks/r003.html").read_text(encoding="utf-8")
        found = set(CARD.findall(page))
        assert len(found) > 20, lang
        assert found <= drawings, sorted(found - drawings)[:5]
    assert (site.out / "_static" / "tractor-cards.css").read_text(encoding="utf-8") == CARD_CSS
