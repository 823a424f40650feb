"""The built site in a real headless Chromium (Debian's package), served on localhost.

- No page, in either language, is wider than a 390 px phone or a 1280 px desktop window; code and
  tables that cannot fit scroll (or wrap) inside their own box instead of being cut off.
- On a phone the page comes before the navigation.
- Text has a contrast of at least 4.5:1 (WCAG AA) against its background, on a phone (where the
  navigation is drawn dark) and on a desktop.
- Search works in both languages: a game's word typed into the search page finds the pages that use it
  (Sphinx 9.0's Chinese search never finished: sphinx-doc/sphinx#14229).
- A Chinese page shows no English outside code and card notation.
- The print view of a rulebook hides the navigation and fits the width of an A4 page.
- On a 390 px phone, in both languages: the index's list of rulebooks shows every column (each rulebook
  a card) with its titles at the page's width; the comparison says its table becomes cards, not that it
  scrolls; the impact plots fit, their labels are drawn at 9 px or more and their legends cover no bar.
- Screenshots of the English and Chinese rulebooks, on a desktop and on a phone, and their print
  previews (PNG and PDF), are written to ``docs/_build/screenshots/`` for a person to look at.

Without a browser these tests are reported as skipped, with the reason (see ``browser.py``).
"""
from __future__ import annotations

import re

import pytest

from .browser import (A4_CONTENT_WIDTH, DESKTOP, LOW_CONTRAST, PHONE, PROSE_TEXT, WIDTH_REPORT, launch, playwright_or_skip,
                      serve)
from .conftest import REPO

SHOTS = REPO / "docs" / "_build" / "screenshots"
RULEBOOK = "rulebooks/r003"            # the rulebook the screenshots show
# A Latin word of two letters or more, other than card notation: single letters are ranks (打A) and
# runs of rank letters are the notation of pairs and tractors (AAKK, QQKKAA). Ruleset ids (r001_powers)
# are names, as in code; the page title, which cannot hold code, has them.
LATIN_WORD = re.compile(r"(?<![A-Za-z])(?![AKQJ]+(?![A-Za-z]))[A-Za-z]{2,}")
RULESET_ID = re.compile(r"(?<![A-Za-z0-9_])r\d{3}[a-z0-9_]*")


@pytest.fixture(scope="module")
def browser(request):
    """Chromium, the built site and its address; without a browser the test is skipped before the site
    is built."""
    with playwright_or_skip() as pw:
        chromium = launch(pw)
        site = request.getfixturevalue("site")
        with serve(site.out) as url:
            yield chromium, url, site
        chromium.close()


def _phone(chromium):
    return chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=1)


def _desktop(chromium):
    return chromium.new_context(viewport=DESKTOP)


def _url(site, url, path) -> str:
    return f"{url}/{path.relative_to(site.out).as_posix()}"


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_page_is_wider_than_its_viewport(browser, lang):
    chromium, url, site = browser
    pages = [p for p in site.pages() if (p.relative_to(site.out).parts[0] == "zh") == (lang == "zh")]
    assert len(pages) >= 10
    problems = []
    for make, label in ((_phone, "390 px phone"), (_desktop, "1280 px desktop")):
        context = make(chromium)
        page = context.new_page()
        for path in pages:
            page.goto(_url(site, url, path), wait_until="load")
            r = page.evaluate(WIDTH_REPORT)
            where = f"{path.relative_to(site.out)} on a {label}"
            if r["scrollWidth"] > r["viewport"] or r["wide"]:
                problems.append(f"{where}: {r['scrollWidth']} px wide in a {r['viewport']} px viewport; "
                                f"too wide: {r['wide']}")
            if r["cut"]:
                problems.append(f"{where}: cut off (wider than their box, which does not scroll): {r['cut']}")
        context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_on_a_phone_the_page_comes_before_the_navigation(browser, lang):
    chromium, url, site = browser
    context = _phone(chromium)
    page = context.new_page()
    prefix = "zh/" if lang == "zh" else ""
    page.goto(f"{url}/{prefix}{RULEBOOK}.html")
    h1 = page.locator("div.body h1").bounding_box()
    nav = page.locator("div.sphinxsidebar").bounding_box()
    assert h1["y"] < PHONE["height"], "the rulebook's title is not on the first screen"
    assert nav is None or nav["y"] > h1["y"] + 1000, "the navigation comes before the page"
    # the top bar leads to the navigation and to the twin page
    assert page.locator("nav.tr-topbar a.tr-to-nav").is_visible()
    page.locator("nav.tr-topbar a.tr-lang-switch").click()
    page.wait_for_load_state()
    other = "en" if lang == "zh" else "zh-CN"
    assert page.evaluate("document.documentElement.lang") == other
    assert page.url.endswith(("" if lang == "zh" else "zh/") + f"{RULEBOOK}.html")
    context.close()


def test_a_source_citation_opens_on_a_tap(browser):
    chromium, url, site = browser
    context = _phone(chromium)
    page = context.new_page()
    page.goto(f"{url}/{RULEBOOK}.html")
    first = page.locator("details.tr-sources").first
    assert not first.locator("dl").is_visible()
    first.locator("summary").tap()
    assert first.locator("dl").is_visible()
    assert first.locator("dd").first.inner_text().strip()
    context.close()


def test_chinese_pages_show_no_english_outside_code_and_cards(browser):
    chromium, url, site = browser
    context = _desktop(chromium)
    page = context.new_page()
    pages = [p for p in site.pages() if p.relative_to(site.out).parts[0] == "zh"]
    found = {}
    for path in pages:
        page.goto(_url(site, url, path))
        assert page.evaluate("document.documentElement.lang") == "zh-CN"
        words = sorted(set(LATIN_WORD.findall(RULESET_ID.sub(" ", page.evaluate(PROSE_TEXT)))))
        if words:
            found[str(path.relative_to(site.out))] = words[:20]
    context.close()
    assert not found, f"English on Chinese pages: {found}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_print_view_is_the_rulebook_alone_on_a4(browser, lang):
    chromium, url, site = browser
    context = chromium.new_context(viewport={"width": A4_CONTENT_WIDTH, "height": 980})
    page = context.new_page()
    prefix = "zh/" if lang == "zh" else ""
    page.goto(f"{url}/{prefix}{RULEBOOK}.html")
    page.emulate_media(media="print")
    for hidden in ("div.sphinxsidebar", "nav.tr-topbar", "div.footer", "#searchbox"):
        for el in page.locator(hidden).all():
            assert not el.is_visible(), f"{hidden} is printed"
    r = page.evaluate(WIDTH_REPORT)
    assert r["scrollWidth"] <= r["viewport"] and not r["wide"], f"wider than A4 when printed: {r}"
    assert not r["cut"], f"cut off when printed: {r['cut']}"
    body = page.locator("div.body").bounding_box()
    assert body["x"] < 20 and body["width"] > A4_CONTENT_WIDTH - 40, "the rulebook does not use the page's width"
    _shot(page, f"print-{lang}-{RULEBOOK.replace('/', '-')}.png")
    pdf = SHOTS / f"print-{lang}-{RULEBOOK.replace('/', '-')}.pdf"
    page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page\b", data)) > 5
    # every page is A4 (595 x 842 points)
    boxes = {tuple(round(float(x)) for x in m) for m in re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)}
    assert boxes == {(595, 842)}, boxes
    context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_screenshots_of_the_rulebooks(browser, lang):
    """Screenshots for a person to look at, written where the end of the test run says."""
    chromium, url, site = browser
    prefix = "zh/" if lang == "zh" else ""
    written = []
    for make, label in ((_desktop, "desktop"), (_phone, "phone")):
        context = make(chromium)
        page = context.new_page()
        page.goto(f"{url}/{prefix}{RULEBOOK}.html")
        _shot(page, name := f"{lang}-{label}-rulebook-top.png")
        written.append(name)
        # an interpreted clause with an example whose readings decide differently, its sources opened
        clause = page.locator("section.tr-clause-interpreted:has(.tr-decisive)").first
        clause.locator("details.tr-sources summary").first.click()
        clause.scroll_into_view_if_needed()
        page.evaluate("el => el.scrollIntoView()", clause.element_handle())
        _shot(page, name := f"{lang}-{label}-rulebook-clause.png")
        written.append(name)
        page.goto(f"{url}/{prefix}comparison/cards.html")   # one area of the comparison, its table
        page.locator("table.tr-comparison").scroll_into_view_if_needed()
        _shot(page, name := f"{lang}-{label}-comparison.png")
        written.append(name)
        context.close()
    for name in written:
        assert (SHOTS / name).stat().st_size > 10_000, name
    print(f"screenshots in {SHOTS}: {', '.join(written)}")


# --- phone layouts (issue 22, point 2): at 390 px, in both languages -----------------------------------------

CELLS = """sel => Array.from(document.querySelectorAll(sel + ' tbody tr')).map(tr => Array.from(tr.children).map(td => {
  const r = td.getBoundingClientRect(), s = getComputedStyle(td);
  return {left: r.left, right: r.right, width: r.width, height: r.height, shown: s.display !== 'none' &&
          s.visibility !== 'hidden', font: parseFloat(s.fontSize), text: td.innerText.trim()};
}))"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_on_a_phone_the_rulebook_list_shows_every_column(browser, lang):
    """The index's table of rulebooks at 390 px: every column of every row is shown inside the page (no
    column hidden, nothing cut off: the table fits rather than scrolling), and a title has the page's width,
    not a column squeezed to two characters."""
    chromium, url, site = browser
    context = _phone(chromium)
    page = context.new_page()
    page.goto(f"{url}/{'zh/' if lang == 'zh' else ''}index.html")
    vw = page.evaluate("document.documentElement.clientWidth")
    headers = page.locator("table.tr-rulebook-list thead th").count()
    rows = page.evaluate(CELLS, "table.tr-rulebook-list")
    assert headers == 5 and len(rows) >= 8
    box = page.evaluate("""() => { const t = document.querySelector('table.tr-rulebook-list'), b = t.parentElement;
        return {scroll: b.scrollWidth, client: b.clientWidth}; }""")
    assert box["scroll"] <= box["client"] + 1, f"the rulebook list is wider than its box: {box}"
    for cells in rows:
        assert len(cells) == headers and all(c["shown"] and c["width"] > 0 for c in cells), cells
        assert all(c["left"] >= 0 and c["right"] <= vw + 1 for c in cells), cells
        title = cells[1]
        assert title["text"] and title["width"] >= 12 * title["font"], \
            f"the title column is squeezed: {title['width']:.0f} px for {title['text']!r}"
    _shot(page, f"{lang}-phone-index.png")
    context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_on_a_phone_the_comparison_says_what_its_table_does(browser, lang):
    """At 390 px the comparison's table is shown as cards, and its introduction says so (not that it
    scrolls sideways); on a desktop it says the table scrolls where it cannot fit."""
    chromium, url, site = browser
    scrolls, cards = ("scrolls sideways", "card") if lang == "en" else ("左右滑动", "卡片")
    for make, phone in ((_phone, True), (_desktop, False)):
        context = make(chromium)
        page = context.new_page()
        page.goto(f"{url}/{'zh/' if lang == 'zh' else ''}comparison/cards.html")
        intro = page.locator("section#rulesets-side-by-side > p").first.inner_text()
        display = page.evaluate("getComputedStyle(document.querySelector('table.tr-comparison tbody tr')).display")
        if phone:
            assert display == "grid", "the comparison is not shown as cards on a phone"
            assert scrolls not in intro and cards in intro, intro
        else:
            assert display == "table-row" and scrolls in intro and cards not in intro, intro
        context.close()


def _svg_url(site, url, img_src: str, page_path) -> str:
    return url + "/" + (page_path.parent / img_src).as_posix()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_on_a_phone_the_impact_plots_are_readable_and_their_legends_cover_no_bar(browser, lang):
    """The impact plots of the comparison page at 390 px: each fits the page, its smallest label is drawn at
    9 px or more (the label's size in the figure, tractor_play.impact.report.FONT, scaled as the page shows
    the image), and its legend lies outside the axes, so it covers no bar, line or interval."""
    from tractor_play.impact.report import FONT
    chromium, url, site = browser
    context = _phone(chromium)
    page = context.new_page()
    prefix = "zh/" if lang == "zh" else ""
    page.goto(f"{url}/{prefix}comparison.html")
    vw = page.evaluate("document.documentElement.clientWidth")
    plots = page.evaluate("""() => Array.from(document.querySelectorAll('img.tr-impact-plot')).map(i => {
        const r = i.getBoundingClientRect(); return {src: i.getAttribute('src'), left: r.left, right: r.right,
        width: r.width, natural: i.naturalWidth}; })""")
    assert len(plots) == 3
    page.locator("img.tr-impact-plot").first.scroll_into_view_if_needed()
    _shot(page, f"{lang}-phone-impact.png")
    smallest = min(v for k, v in FONT.items())
    where = site.out / prefix / "comparison.html"
    for p in plots:
        assert p["left"] >= 0 and p["right"] <= vw + 1 and p["width"] > 0.8 * vw, p
        svg = page.context.new_page()
        svg.goto(_svg_url(site, url, p["src"], where.relative_to(site.out)))
        geometry = svg.evaluate("""() => {
            const root = document.documentElement, box = g => { const b = g.getBBox();
                return {x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height}; };
            const axes = Array.from(document.querySelectorAll('g[id^="axes_"]')).map(a =>
                box(a.querySelector('g[id^="patch_"]')));
            const legends = Array.from(document.querySelectorAll('g[id^="legend_"]')).map(box);
            return {width: root.viewBox.baseVal.width, axes, legends}; }""")
        svg.close()
        label_px = smallest * p["width"] / geometry["width"]
        assert label_px >= 9, f"{p['src']}: labels drawn at {label_px:.1f} px on a 390 px phone"
        assert geometry["legends"] and geometry["axes"], geometry
        for lg in geometry["legends"]:
            for ax in geometry["axes"]:
                overlap = lg["x0"] < ax["x1"] and ax["x0"] < lg["x1"] and lg["y0"] < ax["y1"] and ax["y0"] < lg["y1"]
                assert not overlap, f"{p['src']}: the legend {lg} lies over the axes {ax}"
    context.close()


# a word of the game each tree uses on many pages, and a page the search must find for it
SEARCHES = {"en": ("trump", "rulebooks/r003.html"), "zh": ("甩牌", "zh/rulebooks/r003.html")}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_search_finds_pages_in_both_languages(browser, lang):
    chromium, url, site = browser
    word, expected = SEARCHES[lang]
    context = _desktop(chromium)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    prefix = "zh/" if lang == "zh" else ""
    page.goto(f"{url}/{prefix}search.html?q={word}")
    # the summary appears when the search has finished (before the fix, the Chinese one never did); the
    # bound only keeps a broken search from hanging the run
    try:
        page.wait_for_selector("#search-results p.search-summary", timeout=60_000)
    except Exception:
        raise AssertionError(f"the {lang} search for {word!r} never finished; page errors: {errors}") from None
    assert not errors, f"JavaScript errors on the {lang} search page: {errors}"
    hrefs = page.eval_on_selector_all("#search-results ul.search li a",
                                      "as => as.map(a => new URL(a.href).pathname)")
    assert hrefs, f"the {lang} search for {word!r} found nothing: {page.inner_text('#search-results')}"
    assert any(h.endswith("/" + expected) for h in hrefs), (word, expected, hrefs[:10])
    context.close()


CONTRAST_PAGES = ("index.html", f"{RULEBOOK}.html", "comparison.html", "comparison/cards.html", "interpretations.html")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_text_has_a_contrast_of_at_least_4_5_to_1(browser, lang):
    chromium, url, site = browser
    low = {}
    for make in (_phone, _desktop):
        context = make(chromium)
        page = context.new_page()
        for path in CONTRAST_PAGES:
            page.goto(f"{url}/{'zh/' if lang == 'zh' else ''}{path}")
            found = page.evaluate(LOW_CONTRAST)
            if found:
                low[f"{make.__name__[1:]} {path}"] = sorted(set(found))[:10]
        context.close()
    assert not low, f"text under 4.5:1 against its background: {low}"


# Every table of the page on a phone: is it wider than the screen without a box of its own that scrolls, and
# which cells are squeezed to two characters a line or fewer (text characters, a card counting as two; the
# lines are those the cell's text and cards sit on). A cell's label (shown where a table becomes cards) and
# hidden cells are not counted.
TABLE_REPORT = """() => {
  const vw = document.documentElement.clientWidth;
  const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
                    (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
  const scrolls = e => { for (let a = e.parentElement; a; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX; if (o === 'auto' || o === 'scroll') return a; } return null; };
  const overflowing = [], squeezed = [];
  for (const t of document.querySelectorAll('div.body table')) {
    if (getComputedStyle(t).display === 'none' || !t.getBoundingClientRect().width) continue;
    const r = t.getBoundingClientRect(), box = scrolls(t);
    if (r.right > vw + 1 && !(box && box.getBoundingClientRect().right <= vw + 1)) overflowing.push(name(t));
    for (const cell of t.querySelectorAll('td, th')) {
      if (cell.closest('table') !== t) continue;
      const s = getComputedStyle(cell); if (s.display === 'none') continue;
      const mids = []; let chars = 0;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const p = n.parentElement; if (!p || getComputedStyle(p).display === 'none' || p.closest('.tr-cell-label, .tr-cards')) continue;
        const text = n.textContent.replace(/\\s+/g, ''); if (!text) continue;
        const range = document.createRange(); range.selectNodeContents(n);
        const rects = [...range.getClientRects()].filter(q => q.width > 0);
        if (!rects.length) continue;
        chars += [...text].length;
        for (const q of rects) mids.push((q.top + q.bottom) / 2);
      }
      for (const card of cell.querySelectorAll('.tr-card')) {   // a card is drawn about two characters wide
        const q = card.getBoundingClientRect(); if (!q.width) continue;
        chars += 2; mids.push((q.top + q.bottom) / 2);
      }
      mids.sort((a, b) => a - b);   // a line: the text and cards whose middles lie within 8 px
      const lines = mids.filter((m, i) => i === 0 || m - mids[i - 1] > 8).length;
      if (lines >= 2 && chars / lines <= 2)
        squeezed.push(`${name(t)} ${cell.tagName.toLowerCase()} '${cell.textContent.trim().replace(/\\s+/g,' ').slice(0, 24)}' ${chars} chars on ${lines} lines, ${Math.round(cell.getBoundingClientRect().width)} px`);
    }
  }
  return {overflowing, squeezed};
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_table_on_a_phone_is_squeezed_or_cut_off(browser, lang):
    """Issue 33: at 390 px the "Figures per ruleset", house-rules and answer tables were squeezed to one or
    two characters a line. Every table fits the screen or scrolls in its own box, and no cell of it holds two
    characters a line or fewer."""
    chromium, url, site = browser
    pages = [p for p in site.pages() if (p.relative_to(site.out).parts[0] == "zh") == (lang == "zh")]
    context = _phone(chromium)
    page = context.new_page()
    overflowing, squeezed, tables = {}, {}, 0
    for path in pages:
        page.goto(_url(site, url, path), wait_until="load")
        r = page.evaluate(TABLE_REPORT)
        tables += page.evaluate("() => document.querySelectorAll('div.body table').length")
        where = path.relative_to(site.out).as_posix()
        if r["overflowing"]:
            overflowing[where] = r["overflowing"][:5]
        if r["squeezed"]:
            squeezed[where] = (len(r["squeezed"]), r["squeezed"][:5])
    context.close()
    assert tables > 100, "the site's tables were not found"
    assert not overflowing, f"tables wider than a 390 px phone, with no box of their own that scrolls: {overflowing}"
    assert not squeezed, f"table cells squeezed to two characters a line or fewer at 390 px: {squeezed}"
