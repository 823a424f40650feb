"""Sphinx extension: the documentation of the Tractor rulebook, generated from ``spec/``.

Directives (each draws on the checked spec and the reference interpreter;
nothing about the rules is written by hand in the ``.rst`` files):

``tractor-rulebook RULESET [:lang: en|zh]``
    A whole rulebook: the list of its clauses, then every clause of the ruleset
    in the order of its source document, each with its statement, source
    clause ids (which open to what each source clause says), status badge, the
    reason and alternatives of an interpretation, the rule as stated in the
    rule language, and examples computed by the interpreter, drawn as cards.
``tractor-clause RULESET CLAUSE [:lang:]``
    One clause, as in a rulebook.
``tractor-rulebook-list [:lang:]``
    The table of rulesets with links to their rulebooks.
``tractor-interpretations [:lang:]``
    Every gap of the source documents and how each ruleset resolves it
    (rulesets that resolve it alike share a row).
``tractor-comparison [AREA] [:lang:]``
    Without AREA, the overview: the areas of the rules (one page each,
    ``comparison/AREA``) and the pairs of rulesets with their differences by
    area. With AREA (``tractor_comparison.AREAS``): the features of that area on
    which the rulesets differ, side by side (the shared ones folded per topic),
    then each pair's differences there, each with a distinguishing position
    found by :func:`conformance.analysis.variants.compare`. On a Chinese page
    every feature and value is shown by its name (``spec/names_zh.tsv``).
``tractor-settings``
    The vocabulary of settings (``tractor_dsl.schema``).
``tractor-snippet RULESET [CLAUSE]``
    The source text of a clause (or a ruleset's header) from the spec file.
``tractor-rule-example [:extends: RULESET]``
    A rule text written in the page, checked by the checker at build time.
``tractor-cli``
    The command-line reference, from the argument parser.
``tractor-schemas``
    The engine protocol reference, from ``conformance/protocol/schemas/*.json``.
``tractor-api``
    ``automodule`` for every module of the packages.

The extension is split by purpose: ``tractor_nodes`` (the spec, cards, badges, clause references,
tables, the base directive), ``tractor_rulebook`` (rulebooks and clauses), ``tractor_comparison``
(interpretations and the comparison of rulesets), ``tractor_reference`` (the rule language, the
command line, the protocol, the API); this module wires them into Sphinx. Cards are drawn by
:mod:`conformance.reporting.cards_html`, as in the HTML conformance report.

Every example drawn (a position, the cards, the computed answer and the
deciding clauses) is recorded; at the end of an HTML build the records are
written to ``examples.json`` in the output folder, so a test can recompute
each one and check that no example on the site was typed by hand.

The site is two builds, one per language (``docs/`` and ``docs/zh/``, see
``tractor_site.py``); ``:lang:`` defaults to the build's language. At
``config-inited`` the extension writes one stub page per ruleset into the
tree it builds (``rulebooks/NAME.rst``), so a ruleset added to ``spec/`` gets
its rulebooks without editing the docs. On a Chinese page every text of the
spec is its Chinese twin (``zh``, ``title_zh``, ``reason_zh``, ...); a missing
one is reported, never replaced by the English (:func:`tractor_site.prose`).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from docutils import nodes
from sphinx.util import logging
from tractor_dsl.files import write_file

from tractor_comparison import ComparisonDirective, InterpretationsDirective
from tractor_house_rules import HouseRulesDirective
from tractor_reference import (
    ApiDirective, CliDirective, EngineExchangeDirective, LimitsDirective, RuleExampleDirective,
    SchemasDirective, SettingsDirective, SnippetDirective)
from tractor_rulebook import ClauseDirective, RulebookDirective, RulebookListDirective
from tractor_site import page_lang
from tractor_nodes import (
    clause_anchor, clause_ref, _env_docs, _env_records, env_rulebooks, library, page_ref, rulebook_doc, ruleset_names,
    STUB_MARK)


logger = logging.getLogger(__name__)

# --------------------------------------------------------------------------
# autodoc: docstrings that are not valid reStructuredText are shown as written
# --------------------------------------------------------------------------

_ROLE = re.compile(r":[a-zA-Z:]+:`([^`]*)`")


def _docstring_is_clean(text: str) -> bool:
    from docutils.core import publish_doctree
    from docutils.utils import SystemMessage
    plain = _ROLE.sub(lambda m: "``" + m.group(1).replace("`", "") + "``", text)
    messages: list = []
    try:
        doc = publish_doctree(plain, settings_overrides={"report_level": 5, "halt_level": 5,
                                                         "warning_stream": False})
    except (SystemMessage, Exception):
        return False
    for msg in doc.traverse(nodes.system_message):
        if msg["level"] >= 2:
            messages.append(msg)
    return not messages


def sanitize_docstring(app, what, name, obj, options, lines: list[str]) -> None:
    text = "\n".join(lines)
    if not text.strip() or _docstring_is_clean(text):
        return
    lines[:] = ["::", ""] + ["   " + x for x in lines] + [""]


# --------------------------------------------------------------------------
# wiring
# --------------------------------------------------------------------------

def write_stubs(app, config) -> None:
    """One page per ruleset in this build's language (``rulebooks/NAME.rst`` of ``docs/`` or of
    ``docs/zh/``), so every ruleset in spec/ gets its rulebooks."""
    if not config.tractor_rulebook_pages:
        return      # a site of its own (an engine's, a club's) shows the rulebooks it names itself
    lang = page_lang(config)
    names = ruleset_names()
    folder = Path(app.srcdir) / "rulebooks"
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        path = folder / f"{name}.rst"
        text = f"{STUB_MARK}\n\n.. tractor-rulebook:: {name}\n   :lang: {lang}\n"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            write_file(path, text)   # whole or not at all (tractor_dsl.files); a link in its place refused
    for path in folder.glob("*.rst"):
        if path.stem not in names and path.read_text(encoding="utf-8").startswith(STUB_MARK):
            path.unlink()


def rulebook_page(app, ruleset: str) -> str | None:
    """The page showing a ruleset's rulebook: the one whose ``tractor-rulebook`` shows it, else (on a site
    that writes the bundled rulebooks) ``rulebooks/NAME``; None where no page does."""
    book = env_rulebooks(app.env).get(ruleset)
    if book is not None and book["doc"] is not None:
        return book["doc"]
    if app.config.tractor_rulebook_pages and ruleset in library().rulesets:
        return rulebook_doc(ruleset, page_lang(app.config))
    return None


def ruleset_clauses(app, ruleset: str) -> list[str] | None:
    book = env_rulebooks(app.env).get(ruleset)
    if book is not None:
        return book["clauses"]
    rs = library().rulesets.get(ruleset)
    return None if rs is None else [c.id for c in rs.clauses]


def _link(app, docname: str, target: str, anchor: str | None, content) -> nodes.reference:
    if target == docname and anchor:
        ref = nodes.reference("", "", internal=True, refid=anchor)
    else:
        uri = app.builder.get_relative_uri(docname, target) + (f"#{anchor}" if anchor else "")
        ref = nodes.reference("", "", internal=True, refuri=uri)
    ref += content
    return ref


def resolve_clause_refs(app, doctree, docname) -> None:
    for node in list(doctree.findall(clause_ref)):
        ruleset, cid = node["ruleset"], node["clause"]
        content = node.children[0] if node.children else nodes.literal(cid, cid)
        clauses = ruleset_clauses(app, ruleset)
        target = rulebook_page(app, ruleset)
        if clauses is None or cid not in clauses:
            logger.warning(f"link to unknown clause {ruleset}:{cid}", location=node)
            node.replace_self(content)
        elif target is None:
            node.replace_self(content)          # a ruleset no page of this site shows whole
        elif target not in app.env.all_docs:
            logger.warning(f"link to clause {ruleset}:{cid} on a missing page {target}", location=node)
            node.replace_self(content)
        else:
            ref = _link(app, docname, target, clause_anchor(cid), content)
            ref["classes"].append("tr-clause-ref")
            node.replace_self(ref)
    for node in list(doctree.findall(page_ref)):
        ruleset = node.get("ruleset")
        target = rulebook_page(app, ruleset) if ruleset else node["target"]
        if ruleset and target is None and ruleset_clauses(app, ruleset) is not None:
            node.replace_self(node.children)    # a ruleset no page of this site shows whole
            continue
        if target is None or target not in app.env.all_docs:
            logger.warning(f"link to unknown page {target or ruleset}", location=node)
            node.replace_self(node.children)
            continue
        node.replace_self(_link(app, docname, target, node.get("anchor"), node.children))


def purge(app, env, docname) -> None:
    _env_records(env).pop(docname, None)
    _env_docs(env).discard(docname)
    books = env_rulebooks(env)
    for name, book in list(books.items()):
        if docname in book["shown_on"]:
            book["shown_on"] = [d for d in book["shown_on"] if d != docname]
            if book["doc"] == docname:
                book["doc"] = None
            if not book["shown_on"]:
                del books[name]


def merge(app, env, docnames, other) -> None:
    records = _env_records(env)
    for d in docnames:
        if d in _env_records(other):
            records[d] = _env_records(other)[d]
        if d in _env_docs(other):
            _env_docs(env).add(d)
    books = env_rulebooks(env)
    for name, theirs in env_rulebooks(other).items():
        mine = books.get(name)
        if mine is None:
            books[name] = dict(theirs)
            continue
        if mine["doc"] is not None and theirs["doc"] not in (None, mine["doc"]):
            logger.warning(f"the rulebook of {name!r} is shown on two pages: {mine['doc']} and {theirs['doc']}")
        mine["doc"] = mine["doc"] or theirs["doc"]
        mine["shown_on"] = sorted(set(mine["shown_on"]) | set(theirs["shown_on"]))


def outdated(app, env, added, changed, removed) -> list[str]:
    """Pages drawn from the spec are read again on every build: the spec may have changed."""
    return sorted(d for d in _env_docs(env) if d in env.all_docs and d not in removed)


def write_records(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    records = [r for docname in sorted(_env_records(app.env)) for r in _env_records(app.env)[docname]]
    path = Path(app.outdir) / "examples.json"
    write_file(path, json.dumps({"examples": records}, ensure_ascii=False, indent=1))


def ship_card_css(app, config) -> None:
    """The cards' style is the conformance report's own (``conformance/reporting/static/tractor-cards.css``)."""
    from conformance.reporting.cards_html import STATIC
    if str(STATIC) not in config.html_static_path:
        config.html_static_path.append(str(STATIC))


_FACTORY_TEXT = {dict: "{}", list: "[]", set: "set()", tuple: "()", frozenset: "frozenset()"}


def readable_signature(app, what, name, obj, options, signature, return_annotation):
    """A dataclass field's default factory as the value it makes (``= {}``), not ``<factory>``, and a function
    given as a default by its name (``order=sorted``), not ``<built-in function sorted>``: neither is Python,
    so the domain could not parse the signature and showed it as raw text, annotations included
    (``~tractor_dsl.checker.CheckedRuleset``), one unbreakable line; with a value it parses, and the types
    become links."""
    import dataclasses
    if signature and "<factory>" in signature and dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            if f.default_factory is dataclasses.MISSING:
                continue
            factory_name = getattr(f.default_factory, "__name__", "")
            made = _FACTORY_TEXT.get(f.default_factory, f"{factory_name}()" if factory_name.isidentifier() else "...")
            signature = re.sub(rf"(\b{re.escape(f.name)}: [^=]*?)\s*=\s*<factory>",
                               lambda m: f"{m.group(1)} = {made}", signature, count=1)
        signature = signature.replace("<factory>", "...")   # a factory of a field the class does not list
    if signature and "<" in signature:   # a function as a default (order=sorted): its name, which parses
        signature = _FUNCTION_REPR.sub(lambda m: m.group(1), signature)
    return signature, return_annotation


# how Python writes a function given as a default value: ``<built-in function sorted>``, ``<function f at 0x..>``
_FUNCTION_REPR = re.compile(r"<(?:built-in )?function ([\w.]+)(?: at 0x[0-9a-f]+)?>")


def setup(app):
    app.setup_extension("sphinx.ext.autodoc")     # tractor-api, and docstrings shown as written
    app.setup_extension("tractor_site")
    # write a page per bundled ruleset (rulebooks/NAME.rst); another site turns this off and shows the
    # rulebooks it wants with the directives, a user's rule file included
    app.add_config_value("tractor_rulebook_pages", True, "env", [bool])
    app.add_node(clause_ref)
    app.add_node(page_ref)
    for name, cls in (("tractor-rulebook", RulebookDirective), ("tractor-clause", ClauseDirective),
                      ("tractor-rulebook-list", RulebookListDirective),
                      ("tractor-interpretations", InterpretationsDirective),
                      ("tractor-comparison", ComparisonDirective), ("tractor-house-rules", HouseRulesDirective),
                      ("tractor-settings", SettingsDirective),
                      ("tractor-limits", LimitsDirective),
                      ("tractor-snippet", SnippetDirective), ("tractor-rule-example", RuleExampleDirective),
                      ("tractor-cli", CliDirective), ("tractor-schemas", SchemasDirective),
                      ("tractor-api", ApiDirective), ("tractor-engine-exchange", EngineExchangeDirective)):
        app.add_directive(name, cls)
    app.connect("config-inited", write_stubs)
    app.connect("doctree-resolved", resolve_clause_refs)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("env-get-outdated", outdated)
    app.connect("build-finished", write_records)
    app.connect("autodoc-process-docstring", sanitize_docstring)
    app.connect("autodoc-process-signature", readable_signature)
    app.connect("config-inited", ship_card_css)
    app.add_css_file("tractor-cards.css")   # first: tractor.css may refine the cards (on paper)
    app.add_css_file("tractor.css")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}

