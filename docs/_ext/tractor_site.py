"""Sphinx extension: the two languages of the rulebook site and how its pages read on any screen.

The site is two Sphinx builds: the English tree (``docs/``, ``language = 'en'``) and
the Chinese tree (``docs/zh/``, ``language = 'zh_CN'``, built into ``html/zh/``), so
the theme's own words (navigation, search) are in the page's language.

- :func:`prose` gives the Chinese text of a piece of spec prose on a Chinese page.
  A text the spec lacks is never replaced by its English: the build warns (an
  error under ``-W``). While ``tractor_zh_placeholders`` is set, a visible
  placeholder stands in its place instead, and the build lists every such text in
  ``missing-zh.json`` and says so on stderr.
- Every page links to its twin in the other language (``tractor_twin`` in the
  templates), or to the other tree's home where it has none.
- ``details`` nodes: source citations that open on a tap, not only on hover.
- Every table sits in its own horizontally scrolling box, so no table makes a
  page wider than a phone.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from docutils import nodes
from sphinx.util import logging

logger = logging.getLogger(__name__)

MISSING_ZH = "〔缺中文译文〕"
LANG_TAGS = {"en": "en", "zh": "zh-CN"}
SWITCH_LABEL = {"en": "English", "zh": "中文"}
SPECIAL_PAGES = ("search", "genindex")


def page_lang(config) -> str:
    """``zh`` for a build whose Sphinx language is Chinese, else ``en``."""
    return "zh" if (config.language or "en").lower().startswith("zh") else "en"


# --------------------------------------------------------------------------
# Chinese prose, and the texts the spec still lacks
# --------------------------------------------------------------------------

def _missing(env) -> dict[str, list[str]]:
    if not hasattr(env, "tractor_missing_zh"):
        env.tractor_missing_zh = {}
    return env.tractor_missing_zh


def report_missing_zh(env, where: str) -> None:
    """Note that the spec has no Chinese for the text ``where`` names, shown on the current page."""
    seen = _missing(env).setdefault(env.docname, [])
    if where in seen:
        return
    seen.append(where)
    if not env.config.tractor_zh_placeholders:
        logger.warning(f"no Chinese text for {where}; a Chinese page never shows the English instead "
                       "(write it in spec/, or set tractor_zh_placeholders while it is being written)",
                       type="tractor", subtype="missing_zh", location=env.docname)


# a setting name or clause id (``tractor.bridge_level``, ``penalty.revoke``) or a reason code inside prose,
# with the value it is given (``declare.reinforce = false``)
# (bounded by ASCII alone: in Chinese prose an identifier may touch a Chinese character, 用tractor.elements表达)
CODE_WORD = re.compile(r"(?<![A-Za-z0-9_.])[a-z][a-z0-9]+(?:[._][a-z0-9]+)+(?![A-Za-z0-9_])"
                       r"(?:\s*=\s*(?:\[[A-Za-z0-9_, ]+\]|[A-Za-z0-9_]+(?![A-Za-z0-9_])))?")   # a value or a flat list


def text_nodes(s: str, lang: str = "en") -> list[nodes.Node]:
    """Prose with the setting names, clause ids and codes in it set as code (in Chinese prose too: an
    identifier is not English, and is shown as the code it is). On a Chinese page an identifier with a
    Chinese name (spec/names_zh.tsv, or a code of tractor_dsl.vocabulary) is shown by its name, the code
    after it as a small label (``tr-id``)."""
    out: list[nodes.Node] = []
    at = 0
    for m in CODE_WORD.finditer(s):
        if m.start() > at:
            out.append(nodes.Text(s[at:m.start()]))
        code = m.group(0)
        zh = identifier_zh(code) if lang == "zh" else None
        if zh:
            out += [nodes.Text(zh + " "), nodes.literal(code, code, classes=["tr-id"])]
        else:
            out.append(nodes.literal(code, code))
        at = m.end()
    if at < len(s):
        out.append(nodes.Text(s[at:]))
    return out


def identifier_zh(code: str) -> str | None:
    """The Chinese name of an identifier in prose (``throw.forced_play``, ``penalty.revoke``,
    ``partner_barred``), with the value it is given (``throw.forced_play = blocked_component``); None if
    it has none."""
    from tractor_dsl import names, vocabulary
    ident, _eq, value = (x.strip() for x in code.partition("="))

    def one(w: str) -> str | None:
        for table in (vocabulary.PLAY_REASONS, vocabulary.DECLARATION_REASONS):
            if w in table and w != "ok":   # without the setting named in brackets: its own label follows
                return re.sub(r"（[^）]*[a-z]+[._][a-z_.]+[^）]*）", "", table[w][1])
        found = names.feature_zh(w) or names.clause_zh(w) or names.name("value", w) or names.name("field", w)
        if found is None and "." in w:   # a field of a record setting: penalty.revoke.ends_hand
            setting, field = w.rsplit(".", 1)
            if names.setting_zh(setting) and names.name("field", field):
                found = f"{names.setting_zh(setting)}（{names.name('field', field)}）"
        return found
    left = one(ident)
    if left is None:
        return None
    if not value:
        return left
    right = names.value_text_zh(ident, value)
    return None if names.english_words(right) else f"{left}＝{right}"


def _text(s: str, lang: str = "en") -> nodes.Node:
    parts = text_nodes(s, lang)
    return parts[0] if len(parts) == 1 and isinstance(parts[0], nodes.Text) else nodes.inline("", "", *parts)


def prose(env, lang: str, en: str | None, zh: str | None, where: str) -> nodes.Node:
    """A piece of spec prose in the page's language: the English on English pages, the Chinese on
    Chinese pages, and on a Chinese page whose text is missing, the reported placeholder. Clause ids
    and setting names in it are set as code."""
    if lang != "zh":
        return _text(en or "")
    if zh:
        return _text(zh, lang)
    if not en:
        return nodes.Text("")
    report_missing_zh(env, where)
    return nodes.inline(MISSING_ZH, MISSING_ZH, classes=["tr-missing-zh"])


def purge_missing(app, env, docname) -> None:
    _missing(env).pop(docname, None)


def merge_missing(app, env, docnames, other) -> None:
    for d in docnames:
        if d in _missing(other):
            _missing(env)[d] = _missing(other)[d]


def write_missing(app, exception) -> None:
    """With placeholders on, list every missing text in ``missing-zh.json`` and say so on stderr."""
    if exception is not None or app.builder.format != "html" or page_lang(app.config) != "zh":
        return
    missing = {d: w for d, w in sorted(_missing(app.env).items()) if w}
    path = Path(app.outdir) / "missing-zh.json"
    if not missing:
        path.unlink(missing_ok=True)
        return
    from tractor_dsl.files import write_file
    write_file(path, json.dumps(missing, ensure_ascii=False, indent=1))
    texts = len({w for ws in missing.values() for w in ws})
    print(f"tractor_site: {texts} Chinese text(s) missing from spec/, shown as {MISSING_ZH} on "
          f"{len(missing)} page(s) because tractor_zh_placeholders is set; the list: {path}", file=sys.stderr)


# --------------------------------------------------------------------------
# the language switch: every page and its twin
# --------------------------------------------------------------------------

def _docnames(srcdir: Path, exclude: tuple[str, ...]) -> set[str]:
    out = set()
    for suffix in (".rst", ".md"):
        for p in srcdir.rglob(f"*{suffix}"):
            rel = p.relative_to(srcdir)
            if rel.parts[0] in exclude or rel.parts[0].startswith(("_", ".")):
                continue
            out.add(rel.with_suffix("").as_posix())
    return out


def twin_docnames(app) -> set[str]:
    """The pages of the other language's tree (its rulebook pages are written when it builds)."""
    if not hasattr(app, "_tractor_twins"):
        from tractor_nodes import ruleset_names
        src = (Path(app.confdir) / app.config.tractor_twin_srcdir).resolve()
        exclude = ("zh",) if page_lang(app.config) == "zh" else ()
        names = _docnames(src, exclude) | {f"rulebooks/{n}" for n in ruleset_names()} | set(SPECIAL_PAGES)
        app._tractor_twins = names
    return app._tractor_twins


def page_context(app, pagename, templatename, context, doctree) -> None:
    lang = page_lang(app.config)
    other = "en" if lang == "zh" else "zh"
    target = pagename if pagename in twin_docnames(app) else "index"
    up = "../" * pagename.count("/")
    context["tractor_twin"] = {
        "href": f"{up}{app.config.tractor_twin_prefix}{target}.html",
        "label": SWITCH_LABEL[other], "lang": LANG_TAGS[other], "exact": target == pagename,
    }
    context["tractor_lang"] = lang


# --------------------------------------------------------------------------
# details: a citation a reader can open on a touch screen
# --------------------------------------------------------------------------

class details(nodes.Element):
    """``<details>``: the summary is shown, the body opens on a click or a tap."""


class summary(nodes.TextElement):
    """``<summary>`` of a :class:`details`."""


def visit_details(self, node):
    self.body.append(self.starttag(node, "details", "", CLASS=" ".join(node.get("classes", [])) or None))


def depart_details(self, node):
    self.body.append("</details>\n")


def visit_summary(self, node):
    self.body.append(self.starttag(node, "summary", ""))


def depart_summary(self, node):
    self.body.append("</summary>")


def _pass(self, node):
    pass


# --------------------------------------------------------------------------
# tables scroll in their own box
# --------------------------------------------------------------------------

def wrap_tables(app, doctree, docname) -> None:
    for table in list(doctree.findall(nodes.table)):
        parent = table.parent
        if isinstance(parent, nodes.container) and "tr-scroll" in parent["classes"]:
            continue
        box = nodes.container("", classes=["tr-scroll"])
        table.replace_self(box)
        box += table


SOURCES = Path(__file__).resolve().parents[2] / "spec" / "sources"


def copy_sources(app, exception) -> None:
    """The source documents, whole, into the tree's ``sources/`` (each rulebook links its own): written with
    a UTF-8 byte-order mark, so that a browser opening the plain text reads its Chinese as UTF-8."""
    if exception is not None or app.builder.format != "html":
        return
    from tractor_dsl.files import write_file
    out = Path(app.outdir) / "sources"
    for src in sorted(SOURCES.glob("*.txt")):
        text = src.read_text(encoding="utf-8").lstrip("\ufeff")
        write_file(out / src.name, "\ufeff" + text)


def setup(app):
    app.add_config_value("tractor_zh_placeholders", False, "env", [bool])
    app.add_config_value("tractor_twin_srcdir", "zh", "html", [str])
    app.add_config_value("tractor_twin_prefix", "zh/", "html", [str])
    other = {b: (_pass, _pass) for b in ("latex", "text", "man", "texinfo")}
    app.add_node(details, html=(visit_details, depart_details), **other)
    app.add_node(summary, html=(visit_summary, depart_summary), **other)
    app.connect("html-page-context", page_context)
    app.connect("doctree-resolved", wrap_tables)
    app.connect("env-purge-doc", purge_missing)
    app.connect("env-merge-info", merge_missing)
    app.connect("build-finished", write_missing)
    app.connect("build-finished", copy_sources)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
