"""Parse rule files into the model, keeping source positions.

Lark's own exceptions never leave this module: a syntax error becomes a
:class:`~tractor_dsl.diagnostics.SpecError` with the position and the tokens
that were expected there.
"""
from __future__ import annotations

import codecs
import warnings
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from . import model as m
from .diagnostics import Diagnostic, SpecError

# Human names for the grammar's terminals, used in "expected ..." messages.
_TOKEN_NAMES = {
    "LBRACE": "'{'", "RBRACE": "'}'", "LSQB": "'['", "RSQB": "']'", "LPAR": "'('", "RPAR": "')'",
    "COLON": "':'", "COMMA": "','", "EQUAL": "'='", "SLASH": "'/'", "PLUS": "'+'", "MINUS": "'-'",
    "STAR": "'*'", "CIRCUMFLEX": "'^'", "NAME": "a name", "DOTTED": "a clause or setting name",
    "INT": "a number", "SIGNED_INT": "a number", "STRING": "a quoted string",
    "CITE": "a clause id such as 001:9d", "RANGE_DOTS": "'..'", "__ANON_0": "'->'",
}

HEADER_ITEMS = ("status", "term", "says", "zh", "reason", "choose")


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = (Path(__file__).resolve().parent / "tractor.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False)


def _unescape(token: str) -> str:
    body = token[1:-1]
    if "\\" not in body:
        return body
    try:
        with warnings.catch_warnings():  # an unknown escape such as \q is kept as written
            warnings.simplefilter("ignore", DeprecationWarning)
            return codecs.decode(body.encode("utf-8").decode("unicode_escape").encode("latin-1"), "utf-8")
    except (UnicodeDecodeError, UnicodeEncodeError):
        raise ValueError(f"the string {token} has an escape sequence that cannot be read "
                         "(use \\\" \\\\ \\n \\t, or write the character itself)") from None


class _Build(Transformer):
    def __init__(self, file: str):
        super().__init__()
        self.file = file
        self.problems: list[Diagnostic] = []

    def _span(self, meta_or_token) -> m.Span:
        if isinstance(meta_or_token, Token):
            return m.Span(self.file, meta_or_token.line, meta_or_token.column,
                          meta_or_token.end_line or meta_or_token.line,
                          meta_or_token.end_column or meta_or_token.column)
        meta = meta_or_token
        if getattr(meta, "empty", True):
            return m.Span(self.file, 0, 0)
        return m.Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    # --- values ---
    @v_args(meta=True)
    def int(self, meta, children):
        return m.Int(int(children[0]), self._span(meta))

    @v_args(meta=True)
    def neg_int(self, meta, children):
        return m.Int(-int(children[0]), self._span(meta))

    @v_args(meta=True)
    def ident(self, meta, children):
        return m.Ident(str(children[0]), self._span(meta))

    @v_args(meta=True)
    def string(self, meta, children):
        return m.Text(_unescape(str(children[0])), self._span(meta))

    @v_args(meta=True)
    def list(self, meta, children):
        return m.ListValue(tuple(c for c in children if c is not None), self._span(meta))

    @v_args(meta=True)
    def field(self, meta, children):
        key, value = children
        return m.Field(str(key), value, self._span(key))

    @v_args(meta=True)
    def record(self, meta, children):
        return m.RecordValue(tuple(c for c in children if c is not None), self._span(meta))

    def _binop(op):  # noqa: N805 - a small factory used in the class body
        @v_args(meta=True)
        def build(self, meta, children):
            return m.BinOp(op, children[0], children[1], self._span(meta))
        return build

    add = _binop("+")
    sub = _binop("-")
    mul = _binop("*")
    pow = _binop("^")

    # --- rule content ---
    @v_args(meta=True)
    def unit_shape(self, meta, children):
        return m.Shape(str(children[0]), span=self._span(meta))

    @v_args(meta=True)
    def tractor_shape(self, meta, children):
        name, element, length = children
        return m.Shape(str(name), str(element), int(length), self._span(meta))

    @v_args(meta=True)
    def term(self, meta, children):
        if len(children) == 2:
            return m.Term(int(children[0]), children[1], self._span(meta))
        return m.Term(1, children[0], self._span(meta))

    @v_args(meta=True)
    def pattern(self, meta, children):
        return m.Pattern(tuple(children), self._span(meta))

    @v_args(meta=True)
    def follow(self, meta, children):
        return m.Follow(children[0], tuple(children[1:]), self._span(meta))

    @v_args(meta=True)
    def setting(self, meta, children):
        return m.Setting(str(children[0]), children[1], self._span(children[0]))

    def range(self, children):
        low = high = None
        seen_dots = False
        for c in children:
            if c.type == "RANGE_DOTS":
                seen_dots = True
            elif seen_dots:
                high = int(c)
            else:
                low = int(c)
        return (low, high)

    def step(self, children):
        return int(children[0])

    @v_args(meta=True)
    def band(self, meta, children):
        (low, high), side, levels = children[0], children[1], children[2]
        step = children[3] if len(children) > 3 else None
        return m.Band(low, high, str(side), int(levels), step, self._span(meta))

    # --- clause items: tagged tuples, assembled by clause() ---
    @v_args(meta=True)
    def cites(self, meta, children):
        return ("cites", tuple((str(c), self._span(c)) for c in children), self._span(meta))

    def _header(name):  # noqa: N805
        @v_args(meta=True)
        def build(self, meta, children):
            token = children[0]
            value = _unescape(str(token)) if token.type == "STRING" else str(token)
            return (name, value, self._span(token))
        return build

    def _bilingual(name):  # noqa: N805 - prose in English, then optionally its Chinese text
        @v_args(meta=True)
        def build(self, meta, children):
            zh = _unescape(str(children[1])) if len(children) > 1 else None
            return (name, (_unescape(str(children[0])), zh), self._span(children[0]))
        return build

    status = _header("status")
    term_item = _header("term")
    says = _header("says")
    zh = _header("zh")
    reason = _bilingual("reason")
    alternative = _bilingual("alternative")
    choose = _header("choose")

    @v_args(meta=True)
    def reading(self, meta, children):
        name, description, *items = children
        description_zh = None
        if items and isinstance(items[0], Token) and items[0].type == "STRING":
            description_zh = _unescape(str(items.pop(0)))
        rules, says, zh = [], None, None
        for item in items:
            if isinstance(item, tuple):
                tag, value, span = item
                if (tag == "says" and says is not None) or (tag == "zh" and zh is not None):
                    self.problems.append(Diagnostic(
                        "E106", f"'{tag}' is given twice in reading '{name}'", span))
                elif tag == "says":
                    says = value
                elif tag == "zh":
                    zh = value
            else:
                rules.append(item)
        return m.Reading(str(name), _unescape(str(description)), tuple(rules), says, zh, self._span(name),
                         description_zh=description_zh)

    def _clause(self, clause_id: str, span: m.Span, items) -> m.Clause:
        header: dict[str, object] = {}
        spans: list[tuple[str, m.Span]] = []
        cites: list[str] = []
        alternatives: list[str] = []
        alternatives_zh: list[str | None] = []
        rules: list = []
        readings: list[m.Reading] = []
        for item in items:
            if isinstance(item, m.Reading):
                readings.append(item)
            elif isinstance(item, tuple):
                tag, value, item_span = item
                if tag == "cites":
                    for cite, cite_span in value:
                        cites.append(cite)
                        spans.append((f"cite:{cite}", cite_span))
                elif tag == "alternative":
                    spans.append((f"alternative:{len(alternatives)}", item_span))
                    alternatives.append(value[0])
                    alternatives_zh.append(value[1])
                elif tag in header:
                    self.problems.append(Diagnostic(
                        "E106", f"'{tag}' is given twice in clause '{clause_id}'", item_span))
                else:
                    header[tag] = value
                    spans.append((tag, item_span))
            else:
                rules.append(item)
        reason, reason_zh = header.get("reason") or (None, None)
        return m.Clause(
            id=clause_id, cites=tuple(cites), status=header.get("status"), term=header.get("term"),
            says=header.get("says"), zh=header.get("zh"), reason=reason, reason_zh=reason_zh,
            alternatives=tuple(alternatives), alternatives_zh=tuple(alternatives_zh), rules=tuple(rules),
            readings=tuple(readings), choice=header.get("choose"), span=span, item_spans=tuple(spans))

    def clause(self, children):
        name, *items = children
        return self._clause(str(name), self._span(name), items)

    def override_choose(self, children):
        name, reading, because, *zh = children
        return m.Override(str(name), _unescape(str(because)), choose=str(reading), span=self._span(name),
                          because_zh=_unescape(str(zh[0])) if zh else None)

    def override_replace(self, children):
        name, *items = children
        texts = []
        while items and isinstance(items[-1], Token) and items[-1].type == "STRING":
            texts.insert(0, _unescape(str(items.pop())))
        replacement = self._clause(str(name), self._span(name), items)
        return m.Override(str(name), texts[0], replacement=replacement, span=self._span(name),
                          because_zh=texts[1] if len(texts) > 1 else None)

    def title(self, children):
        zh = _unescape(str(children[1])) if len(children) > 1 else None
        return ("title", (_unescape(str(children[0])), zh), self._span(children[0]))

    def document(self, children):
        return ("document", _unescape(str(children[0])), self._span(children[0]))

    def extends(self, children):
        return ("extends", str(children[0]), self._span(children[0]))

    def ruleset(self, children):
        name, *items = children
        fields: dict[str, object] = {}
        extends_span = title_span = m.NOWHERE
        clauses, overrides = [], []
        for item in items:
            if isinstance(item, m.Clause):
                clauses.append(item)
            elif isinstance(item, m.Override):
                overrides.append(item)
            else:
                tag, value, span = item
                if tag in fields:
                    self.problems.append(Diagnostic("E106", f"'{tag}' is given twice in ruleset '{name}'", span))
                    continue
                fields[tag] = value
                if tag == "extends":
                    extends_span = span
                elif tag == "title":
                    title_span = span
        title, title_zh = fields.get("title") or (None, None)
        return m.Ruleset(
            name=str(name), extends=fields.get("extends"), title=title, title_zh=title_zh,
            document=fields.get("document"), clauses=tuple(clauses), overrides=tuple(overrides),
            file=self.file, span=self._span(name), extends_span=extends_span, title_span=title_span)

    def start(self, children):
        return children[0]


def _expected(names) -> str:
    shown = sorted({_TOKEN_NAMES.get(n, f"'{n.lower()}'" if n.isupper() else n) for n in names})
    if len(shown) > 8:
        shown = shown[:8] + ["..."]
    return ", ".join(shown)


def _end_span(text: str, file: str) -> m.Span:
    """Just after the last character that is not white space (lines counted by "\\n", as Lark does)."""
    body = text.rstrip()
    line = body.count("\n") + 1
    column = len(body) - (body.rfind("\n") + 1) + 1
    return m.Span(file, line, column)


def parse(text: str, file: str = "<string>") -> m.Ruleset:
    """Parse one rule file. Raises :class:`SpecError` on any syntax problem."""
    try:
        tree = _lark().parse(text)
    except UnexpectedCharacters as e:
        char = text[e.pos_in_stream] if e.pos_in_stream is not None and e.pos_in_stream < len(text) else "?"
        raise SpecError([Diagnostic(
            "E001", f"unexpected character {char!r}; expected {_expected(e.allowed or [])}",
            m.Span(file, e.line, e.column, e.line, e.column + 1))]) from None
    except UnexpectedEOF as e:
        raise SpecError([Diagnostic(
            "E002", f"unexpected end of file; expected {_expected(e.expected)}", _end_span(text, file))]) from None
    except UnexpectedToken as e:
        tok = e.token
        if tok.type == "$END":
            raise SpecError([Diagnostic(
                "E002", f"unexpected end of file; expected {_expected(e.expected)}", _end_span(text, file))]) from None
        raise SpecError([Diagnostic(
            "E003", f"unexpected {str(tok)!r}; expected {_expected(e.expected)}",
            m.Span(file, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + 1))]) from None
    except UnexpectedInput as e:  # any other lexer/parser complaint
        raise SpecError([Diagnostic("E003", f"syntax error: {e.__class__.__name__}",
                                    m.Span(file, getattr(e, 'line', 1), getattr(e, 'column', 1)))]) from None
    builder = _Build(file)
    try:
        ruleset = builder.transform(tree)
    except VisitError as e:
        meta = getattr(e.obj, "meta", None)
        if isinstance(e.obj, Token):
            span = m.Span(file, e.obj.line, e.obj.column, e.obj.end_line or 0, e.obj.end_column or 0)
        elif meta is not None and not getattr(meta, "empty", True):
            span = m.Span(file, meta.line, meta.column, meta.end_line, meta.end_column)
        else:
            span = m.Span(file, 1, 1)
        raise SpecError([Diagnostic("E004", f"cannot read this construct: {e.orig_exc}", span)]) from None
    if builder.problems:
        raise SpecError(builder.problems)
    return ruleset


def parse_file(path) -> m.Ruleset:
    """Read and parse a rule file; unreadable files are reported, not raised raw."""
    from pathlib import Path
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise SpecError([Diagnostic("E005", f"file is not valid UTF-8 (byte {e.start})", m.Span(str(p), 1, 1))]) from None
    except OSError as e:
        raise SpecError([Diagnostic("E006", f"cannot read file: {e.strerror}", m.Span(str(p), 0, 0))]) from None
    return parse(text, str(p))
