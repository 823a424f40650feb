"""The generated site: every clause in every rulebook in both languages, every example computed."""
from __future__ import annotations

import re
import sys
from html import unescape

import pytest

from reference_impl.rules import rules_for, ruleset_names
from conformance.analysis.variants import Question, answer_text, evaluate_recorded, is_executable
from tractor_dsl.checker import load

from .conftest import DOCS, REPO, parse_html

sys.path.insert(0, str(DOCS / "_ext"))
from tractor_site import CODE_WORD, MISSING_ZH  # noqa: E402

LANG_DOC = {"en": "rulebooks/{}", "zh": "zh/rulebooks/{}"}


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", unescape(s)).strip()


def _shown(words: str, text: str, lang: str) -> bool:
    """Whether a text of the spec is shown in a page's ``text``. On a Chinese page each identifier in it is
    shown by its name with the id after it as a label (spec/names_zh.tsv): the words between the
    identifiers, and each identifier, are shown in their order."""
    if lang != "zh":
        return _norm(words) in text
    at = 0
    for part in re.split(f"({CODE_WORD.pattern})", _norm(words)):
        for piece in re.split(r"\s*=\s*", part or ""):   # a value given to a setting: name＝value, then its label
            piece = (piece or "").strip(" ;,:：；，")
            if piece:
                found = text.find(piece, at)
                if found < 0:
                    return False
                at = found + len(piece)
    return True


def _anchor(clause_id: str) -> str:
    return "clause-" + re.sub(r"[^a-z0-9]+", "-", clause_id.lower()).strip("-")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", ruleset_names())
def test_every_clause_appears_in_its_rulebook(site, name, lang):
    rs = rules_for(name).checked
    page = site.page(LANG_DOC[lang].format(name))
    sections = {e.id: e for e in page.find_all(tag="section") if e.id}
    missing = [c.id for c in rs.clauses if _anchor(c.id) not in sections]
    assert not missing, f"{name} ({lang}) lacks clauses {missing}"
    for clause in rs.clauses:
        sec = sections[_anchor(clause.id)]
        text = _norm(sec.text())
        statement = clause.zh if lang == "zh" else clause.says
        assert _shown(statement, text, lang), f"{name}:{clause.id} ({lang}): the statement is not shown"
        for cite in clause.cites:
            assert cite in text, f"{name}:{clause.id} ({lang}): source clause {cite} not shown"
        badges = [e for e in sec.find_all("tr-badge") if e.classes & {"tr-stated", "tr-interpreted", "tr-conduct"}]
        assert badges and f"tr-{clause.status}" in badges[0].classes
        if clause.status == "interpreted" and clause.reason:
            for en, zh in [(clause.reason, clause.reason_zh), *zip(clause.alternatives, clause.alternatives_zh),
                           *((r.description, r.description_zh) for r in clause.readings)]:
                _assert_in_language(text, lang, en, zh, f"{name}:{clause.id}")
            for r in clause.readings:
                assert r.name in text


def _assert_in_language(text: str, lang: str, en: str, zh: str | None, where: str) -> None:
    """The page shows the text in its language; a Chinese page without the Chinese shows the placeholder,
    never the English."""
    if lang == "en":
        assert _norm(en) in text, f"{where}: '{en[:40]}' is not shown"
    elif zh:
        assert _shown(zh, text, lang), f"{where}: '{zh[:40]}' is not shown"
    else:
        assert MISSING_ZH in text, f"{where}: no Chinese for '{en[:40]}', and no placeholder says so"
        assert _norm(en) not in text, f"{where}: the English '{en[:40]}' stands in for the Chinese"


@pytest.mark.parametrize("name", ruleset_names())
def test_rulebook_follows_the_source_order(site, name):
    from tractor_dsl import inventory
    index = {e.id: i for i, e in enumerate(inventory.entries())}
    rs = rules_for(name).checked
    page = site.page(LANG_DOC["en"].format(name))
    ids = [e.id for e in page.find_all("tr-clause")]
    by_anchor = {_anchor(c.id): c for c in rs.clauses}
    firsts = []
    for ident in ids:
        c = by_anchor[ident]
        stated = [index[x] for x in c.cites if not inventory.by_id()[x].is_gap]
        firsts.append(min(stated or [index[x] for x in c.cites]))
    assert firsts == sorted(firsts)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", ruleset_names())
def test_every_executable_clause_has_an_example(site, name, lang):
    rs = rules_for(name).checked
    page = site.page(LANG_DOC[lang].format(name))
    for clause in rs.clauses:
        sec = page.by_id(_anchor(clause.id))
        examples = sec.find_all("tr-example")
        if is_executable(rs, clause.id):
            assert examples, f"{name}:{clause.id} ({lang}) is executable but shows no example"
        else:
            assert not examples


def test_every_example_was_computed_by_the_interpreter(site):
    records = site.records()
    assert len(records) > 300
    for r in records:
        pos = Question.from_dict(r["position"])
        for key, shown in r["outcomes"].items():
            again = evaluate_recorded(key, pos)
            assert again is not None, f"{r['id']}: {key} cannot recompute {pos}"
            assert answer_text(again) == shown["answer"], r["id"]
            assert answer_text(again, "zh", r.get("document")) == shown["answer_zh"], r["id"]
            assert list(again.clauses) == shown["clauses"], r["id"]


def test_every_card_drawn_belongs_to_a_recorded_example(site):
    """No card on the site was typed by hand: each sits in an example the build recorded,
    and the example shows the answer that was recorded."""
    records = {(r["docname"], r["id"]): r for r in site.records()}
    seen = set()
    n_cards = 0
    for path in site.pages():
        docname = path.relative_to(site.out).with_suffix("").as_posix()
        root = site.page(docname)
        for card in root.find_all("tr-card"):
            n_cards += 1
            box = next((a for a in card.ancestors() if "tr-example" in a.classes), None)
            assert box is not None, f"{docname}: a card outside any example: {card.text()}"
            assert (docname, box.id) in records, f"{docname}: example {box.id} was not recorded"
        for box in root.find_all("tr-example"):
            rec = records.get((docname, box.id))
            assert rec is not None, f"{docname}: example {box.id} was not recorded"
            seen.add((docname, box.id))
            text = _norm(box.text())
            zh = docname.startswith("zh/")
            for key, shown in rec["outcomes"].items():
                answer = shown["answer_zh"] if zh else shown["answer"]
                # the text parts of the answer (card parts are drawn as cards)
                for chunk in re.split(r"\b(?:10|[2-9JQKA])[SHDC]\b|J[+-]", answer):
                    chunk = _norm(chunk).strip(" ;,:：；，")
                    if chunk:
                        assert _shown(chunk, text, "zh" if zh else "en"), \
                            f"{docname}#{box.id}: '{chunk}' of the recorded answer not shown"
    assert n_cards > 500
    assert seen == set(records), "records without an example on the site"


def test_no_example_is_written_in_the_sources():
    """The .rst files hold directives and prose, never cards or raw HTML."""
    generated = "generated by docs/_ext/tractor_docs.py"
    for path in DOCS.rglob("*.rst"):
        if "_build" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        if generated in text:
            continue
        assert not re.search(r"[♠♥♦♣]|大王|小王|tr-card", text), f"{path}: cards written by hand"
        assert ".. raw::" not in text, f"{path}: raw HTML"


def test_rulebooks_exist_for_every_ruleset_in_both_languages(site):
    for name in ruleset_names():
        for lang in ("en", "zh"):
            assert (site.out / f"{LANG_DOC[lang].format(name)}.html").exists()


def test_interpretations_page_lists_every_gap(site):
    from tractor_dsl import inventory
    page = site.page("interpretations")
    text = page.text()
    lib = load()
    documents = {rs.document for rs in lib.rulesets.values()}
    for e in inventory.entries():
        if e.is_gap and e.document in documents:
            assert page.by_id("gap-" + re.sub(r"[^a-z0-9]+", "-", e.id.lower())), e.id
            assert e.id in text


def test_language_reference_names_every_keyword():
    grammar = (REPO / "tractor_dsl" / "tractor.lark").read_text(encoding="utf-8")
    keywords = sorted(set(re.findall(r'"([a-z]+)"', grammar)))
    text = (DOCS / "language.rst").read_text(encoding="utf-8")
    missing = [k for k in keywords if not re.search(rf"``[^`]*\b{k}\b", text)]
    assert not missing, f"language.rst does not describe {missing}"


def test_protocol_reference_covers_every_schema(site):
    text = site.page("protocol-schemas").text()
    for path in sorted((REPO / "conformance" / "schemas").glob("*.json")):
        assert path.name in text


def test_cli_reference_covers_every_command(site):
    from tractor_cli.main import build_parser
    import argparse
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    page = site.page("cli")
    for name in sub.choices:
        assert page.by_id(f"tractor-{name}") or page.by_id(f"cli-{name}"), name


def test_api_reference_covers_every_module(site):
    import pkgutil
    import importlib
    text = site.page("api").text()
    for pkg in ("tractor_dsl", "reference_impl", "conformance", "tractor_cli"):
        for m in pkgutil.iter_modules(importlib.import_module(pkg).__path__):
            assert f"{pkg}.{m.name}" in text, f"{pkg}.{m.name} is not documented"


def test_every_local_link_resolves(site):
    """Every href and src of every page is a web address (http, https, mailto) or a file of the built site,
    and an anchor on a page names an id on it: no link to a missing page, and no text that docutils took
    for an address (``file:line:column`` in prose became a link to the scheme ``file``)."""
    from urllib.parse import unquote, urlsplit
    root = site.out.resolve()
    pages = [p.resolve() for p in site.pages()]
    ids: dict = {}

    def ids_of(path):
        if path not in ids:
            tree = parse_html(path)
            ids[path] = {e.id for e in tree.iter() if e.id} | {e.attrs["name"] for e in tree.iter()
                                                                if e.tag == "a" and e.attrs.get("name")}
        return ids[path]

    bad = []
    for path in pages:
        for e in parse_html(path).iter():
            for attr in ("href", "src"):
                link = e.attrs.get(attr) if e.tag in ("a", "img", "link", "script", "iframe") else None
                if not link:
                    continue
                parts = urlsplit(link)
                if parts.scheme in ("http", "https", "mailto") or link.startswith("//"):
                    continue
                where = f"{path.relative_to(root)}: {attr}={link!r}"
                if parts.scheme:
                    bad.append(where + " (not a web address)")
                    continue
                target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
                if not target.exists():
                    bad.append(where + " (no such file)")
                elif parts.fragment and target.suffix == ".html" and parts.fragment not in ids_of(target):
                    bad.append(where + " (no such anchor)")
    assert not bad, f"{len(bad)} links lead nowhere:\n" + "\n".join(bad[:40])


@pytest.mark.parametrize("prefix", ["", "zh/"])
def test_each_rulebook_links_its_whole_source_document(site, prefix):
    """Each base rulebook links the whole text of the document it formalises, copied into the site."""
    for name in ("r000", "r001", "r003"):
        page = site.out / prefix / "rulebooks" / f"{name}.html"
        links = [e.attrs["href"] for e in parse_html(page).iter()
                 if e.tag == "a" and "tr-source-document" in e.classes]
        assert len(links) == 1, (page, links)
        shown = (page.parent / links[0]).resolve()
        document = load().rulesets[name].document
        own = next((REPO / "spec" / "sources").glob(f"{document}_*.txt"))
        assert shown.name == own.name
        assert shown.read_text(encoding="utf-8-sig") == own.read_text(encoding="utf-8")


def test_every_long_page_has_a_table_of_contents(site):
    """A page of more than ten sections (the comparison, the rulebooks, the references) opens with a table of
    contents, so that a reader (on a phone above all) can reach a part without scrolling through the rest."""
    missing = []
    for path in site.pages():
        tree = parse_html(path)
        body = next((e for e in tree.iter() if e.tag == "div" and "body" in e.classes), None)
        if body is None:
            continue
        sections = [e for e in body.iter() if e.tag == "section"]
        tocs = [e for e in body.iter() if e.classes & {"contents", "tr-toc", "toctree-wrapper"}]
        if len(sections) > 10 and not tocs:
            missing.append(f"{path.relative_to(site.out)} ({len(sections)} sections)")
    assert not missing, f"long pages without a table of contents: {missing}"


def _cited_words(page) -> dict[str, list[str]]:
    """On a rulebook page, each cited source clause id with the lines of original text shown under it."""
    out: dict[str, list[str]] = {}
    for box in page.find_all("tr-cited"):
        term = None
        for e in box.children:
            if getattr(e, "tag", None) == "dt":
                term = _norm(e.text())
            elif getattr(e, "tag", None) == "dd" and term:
                lines = [_norm(x.text()) for x in e.find_all("line")]
                out.setdefault(term, lines)
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_cited_source_clause_shows_its_own_words(site, lang):
    """Issue 33 item 3: under 003:10.3 the Sources box showed the summary of 10.1. Now each cited clause
    shows its own sentence from the source document, in Chinese, on both language pages."""
    shown = _cited_words(site.page(LANG_DOC[lang].format("r003")))
    source = next((REPO / "spec" / "sources").glob("003_*.txt")).read_text(encoding="utf-8")
    # 003 十、3 (003:10.3): no asking a partner what he played; 十、1 (003:10.1): the kitty at the centre
    assert any("不得询问同伴已经出过什么牌" in line for line in shown["003:10.3"])
    assert not any("底牌放在牌桌中央" in line for line in shown["003:10.3"])
    assert any("底牌放在牌桌中央" in line for line in shown["003:10.1"])
    # 003 十二、3 (003:12.3) and 十二、4 (003:12.4), both cited by conduct.discipline, are different sentences
    assert shown["003:12.3"] != shown["003:12.4"]
    stated = [c for c in shown if not c.startswith("003:g")]
    assert len(stated) > 30
    for c in stated:
        assert shown[c] and all(line in source for line in shown[c]), c
