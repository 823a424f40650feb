"""The impact figures on the comparison page, in both languages: the same numbers, and on the Chinese
page every word Chinese (outside code), checked on the HTML itself, with or without a browser."""
from __future__ import annotations

import json
import re

from .conftest import DOCS, Element
from .test_browser import LATIN_WORD, RULESET_ID


def _section(site, docname: str, title: str) -> Element:
    page = site.page(docname)
    for e in page.find_all(tag="section"):
        h = next((c for c in e.children if isinstance(c, Element) and c.tag in ("h1", "h2")), None)
        if h is not None and h.text().replace("¶", "").strip() == title:
            return e
    raise AssertionError(f"{docname}: no section {title!r}")


def _prose(e: Element) -> str:
    """The text outside code, as a reader sees it."""
    if isinstance(e, str):
        return e
    if e.tag in ("code", "pre", "script", "style") or "highlight" in " ".join(e.classes):
        return " "
    return "".join(_prose(c) for c in e.children)


def _numbers(e: Element) -> list[str]:
    return re.findall(r"\d+\.\d %", e.text())


def test_the_chinese_comparison_page_has_the_impact_figures_in_chinese(site):
    en = _section(site, "comparison", "Impact in play")
    zh = _section(site, "zh/comparison", "对实际牌局的影响")
    data = json.loads((DOCS / "impact" / "impact.json").read_text(encoding="utf-8"))
    # the same figures, in the same order
    assert _numbers(zh) == _numbers(en) and len(_numbers(en)) > 50
    assert f"{data['hands']} 手" in zh.text() and data["command"] in zh.text()
    words = sorted(set(LATIN_WORD.findall(RULESET_ID.sub(" ", _prose(zh)))))
    assert not words, f"English in the Chinese impact section: {words}"
    # each page has its three plots, the Chinese one drawn in Chinese: text kept as text in the SVG
    assert len(en.find_all(tag="img")) == 3 and len(zh.find_all(tag="img")) == 3
    for img in zh.find_all(tag="img"):
        src = img.attrs["src"]
        assert src.endswith(".zh.svg"), src
        svg = (site.out / "zh" / src).read_text(encoding="utf-8")
        texts = " ".join(re.findall(r"<text\b[^>]*>([^<]*)</text>", svg))
        assert re.search(r"[\u4e00-\u9fff]", texts), f"{src}: no Chinese text"
        words = sorted(set(LATIN_WORD.findall(RULESET_ID.sub(" ", texts))))
        assert not words, f"English in the Chinese plot {src}: {words}"


def test_the_impact_sections_have_the_same_anchors_in_both_languages(site):
    """The Chinese sections carry the English page's anchors (#impact-in-play), not docutils' numbers (#id2)."""
    for docname in ("comparison", "zh/comparison"):
        html = (site.out / f"{docname}.html").read_text(encoding="utf-8")
        for anchor in ("impact-in-play", "figures-per-ruleset", "plots", "r000-and-r001-in-play"):
            assert f'id="{anchor}"' in html, (docname, anchor)
    zh = _section(site, "zh/comparison", "对实际牌局的影响").text()
    assert "每对规则集的差异在实战中出现的频率" in zh and "多常显现" not in zh
    en = " ".join(_section(site, "comparison", "Impact in play").text().split())
    assert "Every share is given with its Wilson score interval (95 %) and every mean with its " \
           "normal-approximation interval" in en


def test_the_api_page_shows_signatures_as_python(site):
    html = (site.out / "api.html").read_text(encoding="utf-8")
    assert "&lt;factory&gt;" not in html and "~tractor_dsl" not in html and "~reference_impl" not in html
    text = " ".join(site.page("api").text().split())
    assert "rulesets: dict[str, CheckedRuleset] = {}" in text
