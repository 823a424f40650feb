"""No identifier without its name on the Chinese site (issue 33 item 2).

On a Chinese page every clause, setting, value and reading is shown by its Chinese name
(spec/names_zh.tsv), its id after it as a small secondary label (``code.tr-id``). What may stay Latin
there, and only that:

- the secondary labels themselves (``.tr-id``);
- card notation (``.tr-cards``, and runs of rank letters such as AAKK in prose);
- clause-id links (``a.tr-clause-ref``: 依据条款 003:7.2, § in the comparison) and the cited source clause ids
  (``.tr-cite``);
- ruleset ids (r003, r001_powers), which are names;
- blocks of code (``pre``: the rule language listings, the commands of the impact run);
- what a browser shows only without scripts (``noscript``: Sphinx's 请激活 JavaScript);
- inline code that is a command (``tractor diff …``) or a path (``spec/003.tractor``,
  ``core/src/bidding.rs``).

Every other Latin word counts as English, inline code included. The everyday tests check the nodes the
directives draw (no Sphinx build); the site test checks every page of the built Chinese tree (slow tier).
"""
from __future__ import annotations

import re
import sys

from docutils import nodes

from tractor_dsl.checker import load

from .conftest import DOCS, parse_html

sys.path.insert(0, str(DOCS / "_ext"))

HAN = re.compile(r"[\u4e00-\u9fff]")
# A Latin word of two letters or more, other than card notation (打A, AAKK, QQKKAA)
LATIN_WORD = re.compile(r"(?<![A-Za-z])(?![AKQJ]+(?![A-Za-z]))[A-Za-z]{2,}")
RULESET_ID = re.compile(r"(?<![A-Za-z0-9_])r\d{3}[a-z0-9_]*")
EXEMPT_CLASSES = {"tr-id", "tr-cards", "tr-clause-ref", "tr-cite"}
EXEMPT_TAGS = {"pre", "script", "style", "noscript"}   # noscript: Sphinx's "请激活 JavaScript"


def code_like(text: str) -> bool:
    """Inline code that stays code on a Chinese page: a command or a path."""
    text = text.strip()
    return text.startswith("tractor ") or "/" in text or bool(re.search(r"\.(tractor|txt|tsv|json|md|py|rs)$", text))


def english_in(text: str) -> list[str]:
    return LATIN_WORD.findall(RULESET_ID.sub(" ", text))


# --------------------------------------------------------------------------
# everyday tier: the nodes the directives draw
# --------------------------------------------------------------------------

def _left(parts) -> list[str]:
    """The Latin words of drawn nodes outside the exemptions."""
    out = []
    for n in parts:
        if isinstance(n, str):
            out += english_in(n)
        elif isinstance(n, nodes.literal):
            if "tr-id" not in n["classes"] and not code_like(n.astext()):
                out += english_in(n.astext())
        elif isinstance(n, nodes.Text):
            out += english_in(n.astext())
        elif isinstance(n, nodes.Element):
            out += _left(n.children)
    return out


def _zh_texts(rs):
    """Every piece of Chinese prose a ruleset gives its clauses, with where it is."""
    for c in rs.clauses:
        yield f"{c.id}: zh", c.zh
        yield f"{c.id}: reason", c.reason_zh
        for i, a in enumerate(c.alternatives_zh, 1):
            yield f"{c.id}: alternative {i}", a
        for r in c.readings:
            yield f"{c.id}#{r.name}", r.description_zh
            yield f"{c.id}#{r.name}: says", r.zh
    for cid, ov in rs.overrides.items():
        yield f"{cid}: because", ov.because_zh


def test_every_clause_heading_holds_chinese():
    """24 of the 41 headings of the Chinese r003 page held no Chinese (``clause.id · term`` without a term)."""
    from tractor_rulebook import clause_title
    bare = []
    for name, rs in load().rulesets.items():
        for c in rs.clauses:
            title = clause_title(c, "zh")
            text = "".join(t.astext() if isinstance(t, nodes.Node) and "tr-id" not in t.get("classes", [])
                           else (t if isinstance(t, str) else "") for t in title)
            labels = [t for t in title if isinstance(t, nodes.literal)]
            if not HAN.search(text) or [t.astext() for t in labels] != [c.id] or _left(title):
                bare.append(f"{name} {c.id}")
    assert not bare, bare


def test_identifiers_in_chinese_prose_are_shown_by_their_names():
    """A setting, value or reason code in a clause's Chinese text (``throw.forced_play = blocked_component``,
    ``partner_barred``) is drawn as its name, the code a small label after it."""
    from tractor_site import text_nodes
    left = {}
    for name, rs in load().rulesets.items():
        for where, text in _zh_texts(rs):
            words = _left(text_nodes(text or "", "zh"))
            if words:
                left[f"{name} {where}"] = words
    assert not left, left
    drawn = text_nodes("按最小一组（throw.forced_play = blocked_component）", "zh")
    assert [n.astext() for n in drawn] == ["按最小一组（", "甩牌失败后强制出牌＝被拦阻的最小一组 ",
                                           "throw.forced_play = blocked_component", "）"]
    assert drawn[2]["classes"] == ["tr-id"]
    # the English site keeps its code
    assert [type(n) for n in text_nodes("(throw.forced_play = blocked_component)")] == [nodes.Text, nodes.literal,
                                                                                       nodes.Text]


def test_a_reading_is_shown_by_its_name_in_chinese_and_by_its_id_in_english():
    from tractor_nodes import named
    zh = named("reading", "tractor.bridge#no_bridge", "zh")
    assert zh[0].astext() == "不能隔拖 " and zh[1].astext() == "no_bridge" and "tr-id" in zh[1]["classes"]
    en = named("reading", "tractor.bridge#no_bridge", "en")
    assert len(en) == 1 and en[0].astext() == "no_bridge" and "tr-id" in en[0]["classes"]


# --------------------------------------------------------------------------
# slow tier: the built Chinese tree
# --------------------------------------------------------------------------

def _prose(e, out: list[str]) -> None:
    if e.tag in EXEMPT_TAGS or e.classes & EXEMPT_CLASSES:
        return
    if e.tag == "code" and code_like(e.text()):
        return
    for c in e.children:
        if isinstance(c, str):
            out.append(c)
        else:
            _prose(c, out)


def test_the_chinese_site_shows_no_identifier_without_its_name(site):
    pages = [p for p in site.pages() if p.relative_to(site.out).parts[0] == "zh"]
    assert any(p.name == "r003.html" for p in pages) and any("comparison" in p.parts for p in pages)
    found, bare = {}, []
    for path in pages:
        body = next((e for e in parse_html(path).iter() if e.tag == "div" and "body" in e.classes), None)
        if body is None:
            continue
        where = str(path.relative_to(site.out))
        out: list[str] = []
        _prose(body, out)
        words = sorted(set(english_in("".join(out))))
        if words:
            found[where] = words[:20]
        for h in (e for e in body.iter() if e.tag in ("h1", "h2", "h3", "h4", "h5", "h6")):
            text: list[str] = []
            _prose(h, text)
            if not HAN.search("".join(text)):
                bare.append(f"{where}: {h.text().strip()[:60]}")
    assert not bare, f"headings without Chinese: {bare}"
    assert not found, f"identifiers or English on Chinese pages: {found}"
