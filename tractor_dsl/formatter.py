"""The canonical layout of rule files, as written by ``tractor fmt``.

Layout
    Two spaces of indentation per level, one item per line, strings written
    with :func:`~tractor_dsl.render.quote`, values, rules and bands with the
    shared :mod:`~tractor_dsl.render` functions.

    * A ruleset: ``ruleset NAME [extends BASE] {``, then ``title``,
      ``document``, ``variants`` (on one line), then every clause, then every override (each preceded by
      a blank line), then ``}``.
    * A clause: ``cites``, ``variants``, ``status``, ``term``, ``says``, ``zh``, ``reason``,
      the ``alternative`` lines, then its rules (``set``, ``follow``,
      ``band``) in source order, then its readings, then ``choose``.
    * A reading: ``variants``, ``says``, ``zh``, then its rules in source order.
    * An empty clause or reading is written ``{}``; the ruleset's braces
      are always on lines of their own.

Comments
    The model holds no comments, so :func:`format_ruleset` writes none.
    :func:`format_text` keeps every comment of the source by attaching it to
    an item of the ruleset (a clause, an override, a line of a clause ...):

    * comments before ``ruleset`` are the file's header, written first and
      followed by a blank line; comments after its closing brace stay after it;
    * a comment that follows code on its line is a *trailing* comment of the
      last item that starts on that line, and is written at the end of that
      item's first line;
    * any other comment is a *leading* comment of the next item, written on
      its own line just above it (a blank line after a comment is kept, so a
      section heading stays apart from the clause under it); with no item
      after it, it is written before the ruleset's closing brace.

    So a comment written above a clause stays above it, wherever the clause
    moves. A comment in the middle of a multi-line value or on a closing
    line (``}``) moves to the next item. Other blank lines are not kept: the
    layout decides them.

Properties (tested in ``tests/dsl/test_roundtrip.py``): formatting is
idempotent, and the formatted text parses to a model equal to the original
(spans do not take part in equality). :func:`format_text` verifies the
second property on every call and raises :class:`FormatterBug` rather than
return text that means something else.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree

from . import model as m
from .parser import parse
from .render import quote, rule_text

INDENT = "  "

# An item's key: ("ruleset",), ("title",), ("clause", i), ("clause", i, "status"),
# ("clause", i, "rule", j), ("override", i, "reading", r, "says"), ...
Key = tuple


class FormatterBug(RuntimeError):
    """The formatted text would not mean what the source meant (a bug, never a user error)."""


@dataclass
class Comments:
    """Comments of a source file, attached to items of its ruleset by key."""

    header: list[str] = field(default_factory=list)
    leading: dict[Key, list[str]] = field(default_factory=dict)
    trailing: dict[Key, list[str]] = field(default_factory=dict)
    closing: list[str] = field(default_factory=list)
    trailer: list[str] = field(default_factory=list)


# --- writing -------------------------------------------------------------------

class _Writer:
    def __init__(self, comments: Comments):
        self.c = comments
        self.lines: list[str] = []

    def line(self, depth: int, text: str, key: Key | None = None) -> None:
        if key is not None:
            for comment in self.c.leading.get(key, ()):
                self.lines.append(INDENT * depth + comment if comment else "")
            trailing = self.c.trailing.get(key)
            if trailing:
                text += "  " + "  ".join(trailing)
        self.lines.append(INDENT * depth + text)

    def blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    # --- ruleset ---
    def ruleset(self, rs: m.Ruleset) -> str:
        for comment in self.c.header:
            self.lines.append(comment)  # "" is a blank line
        if self.c.header:
            self.lines.append("")
        extends = f" extends {rs.extends}" if rs.extends is not None else ""
        self.line(0, f"ruleset {rs.name}{extends} {{", ("ruleset",))
        opened = len(self.lines)
        if rs.title is not None:
            self.line(1, f"title {quote(rs.title)}" + _zh_same_line(rs.title_zh), ("title",))
        if rs.document is not None:
            self.line(1, f"document {quote(rs.document)}", ("document",))
        if rs.variants:
            self.line(1, "variants " + ", ".join(rs.variants), ("variants",))
        for i, clause in enumerate(rs.clauses):
            if len(self.lines) > opened:
                self.blank()
            self.clause(1, clause, ("clause", i), f"clause {clause.id}", "")
        for i, ov in enumerate(rs.overrides):
            if len(self.lines) > opened:
                self.blank()
            key = ("override", i)
            if ov.replacement is not None:
                self.clause(1, ov.replacement, key, f"override {ov.clause_id}", f" because {quote(ov.because)}",
                            ov.because_zh)
            else:
                self.line(1, f"override {ov.clause_id} choose {ov.choose} because {quote(ov.because)}", key)
                self.zh_line(1, ov.because_zh)
        if self.c.closing:
            if len(self.lines) > opened:
                self.blank()
            for comment in self.c.closing:
                self.lines.append(INDENT + comment if comment else "")
        self.lines.append("}")
        self.lines.extend(self.c.trailer)
        return "\n".join(self.lines) + "\n"

    # --- clause (or the replacement clause of an override) ---
    def zh_line(self, depth: int, zh: str | None) -> None:
        """The Chinese twin of the prose just written, on its own line under it."""
        if zh is not None:
            self.lines.append(INDENT * (depth + 1) + quote(zh))

    def clause(self, depth: int, c: m.Clause, key: Key, opening: str, after: str,
               after_zh: str | None = None) -> None:
        body = _Writer(self.c)
        d = depth + 1
        if c.cites:
            body.line(d, "cites " + ", ".join(c.cites), key + ("cites",))
        if c.variants:
            body.line(d, "variants " + ", ".join(c.variants), key + ("variants",))
        for name, value, tag in (("status", c.status, "status"), ("term", c.term, "term"),
                                 ("says", c.says, "says"), ("zh", c.zh, "zh"), ("reason", c.reason, "reason")):
            if value is not None:
                body.line(d, f"{name} {value if name == 'status' else quote(value)}", key + (tag,))
                if name == "reason":
                    body.zh_line(d, c.reason_zh)
        for k, alternative in enumerate(c.alternatives):
            body.line(d, f"alternative {quote(alternative)}", key + ("alt", k))
            body.zh_line(d, c.alternatives_zh[k] if k < len(c.alternatives_zh) else None)
        for j, rule in enumerate(c.rules):
            body.line(d, rule_text(rule), key + ("rule", j))
        for r, reading in enumerate(c.readings):
            body.reading(d, reading, key + ("reading", r))
        if c.choice is not None:
            body.line(d, f"choose {c.choice}", key + ("choose",))
        if body.lines:
            self.line(depth, f"{opening} {{", key)
            self.lines.extend(body.lines)
            self.line(depth, f"}}{after}")
        else:
            self.line(depth, f"{opening} {{}}{after}", key)
        self.zh_line(depth, after_zh)

    def reading(self, depth: int, r: m.Reading, key: Key) -> None:
        body = _Writer(self.c)
        d = depth + 1
        if r.variants:
            body.line(d, "variants " + ", ".join(r.variants), key + ("variants",))
        if r.says is not None:
            body.line(d, f"says {quote(r.says)}", key + ("says",))
        if r.zh is not None:
            body.line(d, f"zh {quote(r.zh)}", key + ("zh",))
        for j, rule in enumerate(r.rules):
            body.line(d, rule_text(rule), key + ("rule", j))
        opening = f"reading {r.name} {quote(r.description)}" + _zh_same_line(r.description_zh)
        if body.lines:
            self.line(depth, f"{opening} {{", key)
            self.lines.extend(body.lines)
            self.line(depth, "}")
        else:
            self.line(depth, f"{opening} {{}}", key)


def _zh_same_line(zh: str | None) -> str:
    return f" {quote(zh)}" if zh is not None else ""


def format_ruleset(ruleset: m.Ruleset, comments: Comments | None = None) -> str:
    """The canonical text of a ruleset (no comments unless ``comments`` are given)."""
    return _Writer(comments or Comments()).ruleset(ruleset)


# --- comments: collect them and attach them to items ----------------------------

_lock = threading.Lock()
_collected: list[Token] = []


@lru_cache(maxsize=1)
def _comment_lark() -> Lark:
    """The project's grammar, built as the parser builds it, also handing over comments."""
    grammar = (Path(__file__).resolve().parent / "tractor.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False,
                lexer_callbacks={"COMMENT": _collected.append})


_CLAUSE_HEADERS = {"cites": "cites", "variants": "variants", "status": "status", "term_item": "term", "says": "says", "zh": "zh",
                   "reason": "reason", "choose": "choose"}
_RULES = ("setting", "follow", "band")


def _anchors(tree: Tree) -> list[tuple[int, int, Key]]:
    """(line, column, key) where each item of the ruleset starts, in source order."""
    out: list[tuple[int, int, Key]] = []

    def add(node, key: Key) -> None:
        out.append((node.meta.line, node.meta.column, key))

    def clause_items(items, key: Key) -> None:
        rules = readings = alternatives = 0
        for item in items:
            if not isinstance(item, Tree):
                continue
            if item.data in _CLAUSE_HEADERS:
                add(item, key + (_CLAUSE_HEADERS[item.data],))
            elif item.data == "alternative":
                add(item, key + ("alt", alternatives))
                alternatives += 1
            elif item.data in _RULES:
                add(item, key + ("rule", rules))
                rules += 1
            elif item.data == "reading":
                rkey = key + ("reading", readings)
                readings += 1
                add(item, rkey)
                reading_rules = 0
                for sub in item.children[2:]:
                    if not isinstance(sub, Tree):
                        continue
                    if sub.data in ("says", "zh", "variants"):
                        add(sub, rkey + (sub.data,))
                    else:
                        add(sub, rkey + ("rule", reading_rules))
                        reading_rules += 1

    ruleset = tree.children[0] if tree.data == "start" else tree
    add(ruleset, ("ruleset",))
    clauses = overrides = 0
    for item in ruleset.children[1:]:
        if not isinstance(item, Tree):
            continue
        if item.data in ("title", "document", "variants"):
            add(item, (item.data,))
        elif item.data == "clause":
            key = ("clause", clauses)
            clauses += 1
            add(item, key)
            clause_items(item.children[1:], key)
        elif item.data in ("override_choose", "override_replace"):
            key = ("override", overrides)
            overrides += 1
            add(item, key)
            if item.data == "override_replace":
                clause_items(item.children[1:-1], key)
    out.sort(key=lambda a: (a[0], a[1]))
    return out


def collect_comments(text: str) -> Comments:
    """Attach the comments of ``text`` (which must parse) to the items of its ruleset."""
    with _lock:
        _collected.clear()
        tree = _comment_lark().parse(text)
        tokens = list(_collected)
        _collected.clear()
    ruleset = tree.children[0]
    start = (ruleset.meta.line, ruleset.meta.column)
    end = (ruleset.meta.end_line, ruleset.meta.end_column)
    anchors = _anchors(tree)
    lines = text.split("\n")  # Lark counts lines by "\n" only

    def blank_after(line: int) -> bool:
        return line < len(lines) and not lines[line].strip()

    comments = Comments()
    for tok in tokens:
        text_ = str(tok).rstrip()
        where = (tok.line, tok.column)
        if where < start:
            target = comments.header
        elif where >= end:
            target = comments.trailer
        else:
            on_line = [a for a in anchors if a[0] == tok.line and a[1] < tok.column]
            if on_line:
                comments.trailing.setdefault(on_line[-1][2], []).append(text_)
                continue
            after = next((a for a in anchors if (a[0], a[1]) > where), None)
            target = comments.closing if after is None else comments.leading.setdefault(after[2], [])
        target.append(text_)
        if blank_after(tok.line):  # a blank line after a comment (once) is kept
            target.append("")
    for block in (comments.header, comments.closing, comments.trailer):
        while block and block[-1] == "":
            block.pop()
    return comments


def format_text(text: str, file: str = "<string>") -> str:
    """The canonical text of one rule file, keeping its comments.

    Raises :class:`~tractor_dsl.diagnostics.SpecError` if the text does not parse. A byte order
    mark is dropped.
    """
    text = text[1:] if text.startswith("\ufeff") else text
    ruleset = parse(text, file)
    out = format_ruleset(ruleset, collect_comments(text))
    again = parse(out, file)
    if again != ruleset:
        raise FormatterBug(f"{file}: the formatted text does not parse to the same ruleset")
    return out
