"""Parse rule files into the model, keeping source positions.

Lark's own exceptions never leave this module: a syntax error becomes a
:class:`~tractor_dsl.diagnostics.SpecError` with the position and the tokens
that were expected there.
"""
from __future__ import annotations

import codecs
import os
import re
import stat
import threading
import warnings
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from . import limits
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


# The grammar's named terminals; every other token is a keyword or punctuation.
_NAMED = frozenset({"CITE", "VARIANT", "DOTTED", "NAME", "RANGE_DOTS", "SIGNED_INT", "INT", "STRING"})


class _Reducer:
    """Lark's inline transformer: each reduction goes to the :class:`_Build` of the parse in
    progress on this thread, so that the parser is built once and no parse tree is ever held."""

    def __init__(self):
        self.local = threading.local()

    def __getattr__(self, rule: str):
        if not rule.islower() or rule.startswith("_"):  # terminals (upper case) get no callback
            raise AttributeError(rule)
        local = self.local

        def reduce(children):
            return local.builder.reduce(rule, children)
        return reduce


_REDUCER = _Reducer()


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The LALR parser, building the model as it reduces (no parse tree: time and memory stay
    proportional to the model). It keeps every token, keywords and punctuation too, and leaves
    positions to :class:`_Build`, which derives each node's span from its first and last token:
    the spans Lark's ``propagate_positions`` gives."""
    grammar = (Path(__file__).resolve().parent / "tractor.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", keep_all_tokens=True, maybe_placeholders=False, transformer=_REDUCER)


# Characters no rule text may hold, written or escaped: control characters (but the tab and, by
# its escape, the newline), lone surrogates, and the bidirectional overrides that make text
# display in another order than it reads.
_REFUSED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")


# a string or a comment, as the lexer reads them (a '#' inside a string opens no comment)
_STRING_OR_COMMENT = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"|#[^\n]*')


def _comment_problem(text: str, file: str) -> Diagnostic | None:
    """E010 for the first comment holding a character no rule text may (a bidirectional override
    would make the code around it display in another order than it reads); the carriage return
    ending a line of a CRLF file is no problem."""
    if _REFUSED.search(text) is None:
        return None
    for found in _STRING_OR_COMMENT.finditer(text):
        comment = found.group()
        if not comment.startswith("#"):
            continue
        bad = _REFUSED.search(comment.rstrip("\r"))
        if bad is None:
            continue
        at = found.start() + bad.start()
        line = text.count("\n", 0, at) + 1
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        return Diagnostic(
            "E010", f"a comment holds the character U+{ord(bad.group()):04X}, which no rule text may hold "
                    "(control characters, lone surrogates and bidirectional overrides are refused in "
                    "comments as in strings)", m.Span(file, line, column, line, column + 1))
    return None


class _Refused(Exception):
    """Raised inside the transformer: the input is over a limit or holds what no rule file may."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


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


class _Build:
    """The model, built bottom up as the parser reduces, without recursion (a value may be nested
    very deep: it is measured here and refused above :data:`~tractor_dsl.limits.SPEC_NESTING`)."""

    def __init__(self, file: str):
        self.file = file
        self.problems: list[Diagnostic] = []
        self.depth: dict[int, int] = {}      # id(value) -> levels of lists, records and operators
        self.operands: dict[int, int] = {}   # id(formula) -> its numbers and names
        self._calls: dict[str, object] = {}

        self.container: dict[int, tuple] = {}  # id(value) -> the parentheses around it

    def reduce(self, rule: str, children: list):
        """One reduction: the rule's callback, given the node's span and its children without the
        keywords and punctuation. Whatever goes wrong is a diagnostic at the node."""
        try:
            if rule == "atom":  # ( sum ): the sum itself, spanning its parentheses
                inner = children[1]
                self.container[id(inner)] = (children[0], children[-1])
                return inner
            f = self._calls.get(rule)
            if f is None:
                f = self._calls[rule] = getattr(self, rule)
            kept = [c for c in children if not (type(c) is Token and c.type not in _NAMED)]
            return f(self._extent(children), kept)
        except _Refused:
            raise
        except Exception as e:
            raise _Refused(Diagnostic("E004", f"cannot read this construct: {e}", self._extent(children))) from None

    def _ends(self, child) -> tuple | None:
        """(line, column, end_line, end_column) of a child, or None when it has no place."""
        if type(child) is Token:
            return (child.line, child.column, child.end_line or child.line, child.end_column or child.column)
        if type(child) is tuple and child and isinstance(child[-1], m.Span):
            span = child[-1]
        else:
            span = getattr(child, "span", None)
            if span is None:
                return None
            paren = self.container.get(id(child))
            if paren is not None:
                return (paren[0].line, paren[0].column, paren[1].end_line, paren[1].end_column)
        return (span.line, span.column, span.end_line, span.end_column) if span.line else None

    def _extent(self, children) -> m.Span:
        """From the start of the first child that has a place to the end of the last one."""
        first = last = None
        for c in children:
            first = self._ends(c)
            if first is not None:
                break
        for c in reversed(children):
            last = self._ends(c)
            if last is not None:
                break
        if first is None:
            return m.Span(self.file, 0, 0)
        return m.Span(self.file, first[0], first[1], last[2], last[3])

    def _text(self, token: Token) -> str:
        """The text of a STRING token; refused (E010) when it holds a character no rule text may."""
        raw = str(token)
        bad = _REFUSED.search(raw)
        if bad is None:
            value = _unescape(raw)
            if _REFUSED.search(value) is None:
                return value
            bad = _REFUSED.search(value)
            offset = raw.find("\\")  # written as an escape: point at the first one
        else:
            offset = bad.start()
        column = token.column + offset
        raise _Refused(Diagnostic(
            "E010", f"a string holds the character U+{ord(bad.group()):04X}, which no rule text may hold "
                    "(control characters, lone surrogates and bidirectional overrides are refused; "
                    "write \\n or \\t for a new line or a tab)",
            m.Span(self.file, token.line, column, token.line, column + 1)))

    def _nest(self, node, children) -> None:
        self.depth[id(node)] = 1 + max((self.depth.get(id(c), 0) for c in children), default=0)

    def _span(self, token: Token) -> m.Span:
        return m.Span(self.file, token.line, token.column, token.end_line or token.line,
                      token.end_column or token.column)

    # --- values ---
    def _number(self, token: Token) -> int:
        """A number token's value; refused (E015) past :data:`~tractor_dsl.limits.NUMBER_DIGITS` digits."""
        digits = str(token).lstrip("+-")
        if len(digits.lstrip("0")) > limits.NUMBER_DIGITS:
            raise _Refused(Diagnostic(
                "E015", f"a number of {len(digits):,} digits; a number in a rule file has at most "
                        f"{limits.NUMBER_DIGITS} digits", self._span(token)))
        return int(str(token))

    def int(self, span, children):
        return m.Int(self._number(children[0]), span)

    def neg_int(self, span, children):
        return m.Int(-self._number(children[0]), span)

    def ident(self, span, children):
        return m.Ident(str(children[0]), span)

    def string(self, span, children):
        return m.Text(self._text(children[0]), span)

    def list(self, span, children):
        items = tuple(c for c in children if c is not None)
        node = m.ListValue(items, span)
        self._nest(node, items)
        return node

    def field(self, span, children):
        key, value = children
        node = m.Field(str(key), value, self._span(key))
        self.depth[id(node)] = self.depth.get(id(value), 0)
        return node

    def record(self, span, children):
        fields = tuple(c for c in children if c is not None)
        node = m.RecordValue(fields, span)
        self._nest(node, fields)
        return node

    def _binop(op):  # noqa: N805 - a small factory used in the class body
        def build(self, span, children):
            left, right = children
            node = m.BinOp(op, left, right, span)
            self._nest(node, children)
            count = self.operands.get(id(left), 1) + self.operands.get(id(right), 1)
            self.operands[id(node)] = count
            if count > limits.SPEC_EXPRESSION:
                raise _Refused(Diagnostic(
                    "E012", f"this formula has more than {limits.SPEC_EXPRESSION} operands "
                            f"(the limit of one expression)", node.span))
            return node
        return build

    add = _binop("+")
    sub = _binop("-")
    mul = _binop("*")
    pow = _binop("^")

    # --- rule content ---
    def unit_shape(self, span, children):
        return m.Shape(str(children[0]), span=span)

    def tractor_shape(self, span, children):
        name, element, length = children
        return m.Shape(str(name), str(element), self._number(length), span)

    def term(self, span, children):
        if len(children) == 2:
            return m.Term(self._number(children[0]), children[1], span)
        return m.Term(1, children[0], span)

    def pattern(self, span, children):
        return m.Pattern(tuple(children), span)

    def follow(self, span, children):
        return m.Follow(children[0], tuple(children[1:]), span)

    def setting(self, span, children):
        name, value = children
        depth = self.depth.get(id(value), 0)
        if depth > limits.SPEC_NESTING:
            raise _Refused(Diagnostic(
                "E011", f"the value of '{name}' is nested {depth} levels deep (lists, records and operators "
                        f"inside one another); at most {limits.SPEC_NESTING}", value.span))
        return m.Setting(str(name), value, self._span(name))

    def range(self, span, children):
        low = high = None
        seen_dots = False
        for c in children:
            if c.type == "RANGE_DOTS":
                seen_dots = True
            elif seen_dots:
                high = self._number(c)
            else:
                low = self._number(c)
        return (low, high, span)

    def step(self, span, children):
        return (self._number(children[0]), span)

    def band(self, span, children):
        (low, high, _), side, levels = children[0], children[1], children[2]
        step = children[3][0] if len(children) > 3 else None
        return m.Band(low, high, str(side), self._number(levels), step, span)

    # --- clause items: tagged tuples, assembled by clause() ---
    def cites(self, span, children):
        return ("cites", tuple((str(c), self._span(c)) for c in children), span)

    def variants(self, span, children):
        return ("variants", tuple((str(c), self._span(c)) for c in children), span)

    def _header(name):  # noqa: N805
        def build(self, span, children):
            token = children[0]
            value = self._text(token) if token.type == "STRING" else str(token)
            return (name, value, self._span(token))
        return build

    def _bilingual(name):  # noqa: N805 - prose in English, then optionally its Chinese text
        def build(self, span, children):
            zh = self._text(children[1]) if len(children) > 1 else None
            return (name, (self._text(children[0]), zh), self._span(children[0]))
        return build

    status = _header("status")
    term_item = _header("term")
    says = _header("says")
    zh = _header("zh")
    reason = _bilingual("reason")
    alternative = _bilingual("alternative")
    choose = _header("choose")

    def reading(self, span, children):
        name, description, *items = children
        description_zh = None
        if items and isinstance(items[0], Token) and items[0].type == "STRING":
            description_zh = self._text(items.pop(0))
        rules, says, zh, variants = [], None, None, []
        for item in items:
            if isinstance(item, tuple):
                tag, value, span = item
                if tag == "variants":
                    variants.extend(v for v, _ in value)
                elif (tag == "says" and says is not None) or (tag == "zh" and zh is not None):
                    self.problems.append(Diagnostic(
                        "E106", f"'{tag}' is given twice in reading '{name}'", span))
                elif tag == "says":
                    says = value
                elif tag == "zh":
                    zh = value
            else:
                rules.append(item)
        return m.Reading(str(name), self._text(description), tuple(rules), says, zh, self._span(name),
                         description_zh=description_zh, variants=tuple(variants))

    def _clause(self, clause_id: str, span: m.Span, items) -> m.Clause:
        header: dict[str, object] = {}
        spans: list[tuple[str, m.Span]] = []
        cites: list[str] = []
        variants: list[str] = []
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
                elif tag == "variants":
                    for vid, vid_span in value:
                        variants.append(vid)
                        spans.append((f"variant:{len(variants) - 1}", vid_span))
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
            readings=tuple(readings), choice=header.get("choose"), span=span, item_spans=tuple(spans),
            variants=tuple(variants))

    def clause(self, span, children):
        name, *items = children
        return self._clause(str(name), self._span(name), items)

    def override_choose(self, span, children):
        name, reading, because, *zh = children
        return m.Override(str(name), self._text(because), choose=str(reading), span=self._span(name),
                          because_zh=self._text(zh[0]) if zh else None)

    def override_replace(self, span, children):
        name, *items = children
        texts = []
        while items and isinstance(items[-1], Token) and items[-1].type == "STRING":
            texts.insert(0, self._text(items.pop()))
        replacement = self._clause(str(name), self._span(name), items)
        return m.Override(str(name), texts[0], replacement=replacement, span=self._span(name),
                          because_zh=texts[1] if len(texts) > 1 else None)

    def title(self, span, children):
        zh = self._text(children[1]) if len(children) > 1 else None
        return ("title", (self._text(children[0]), zh), self._span(children[0]))

    def document(self, span, children):
        return ("document", self._text(children[0]), self._span(children[0]))

    def extends(self, span, children):
        return ("extends", str(children[0]), self._span(children[0]))

    def ruleset(self, span, children):
        name, *items = children
        fields: dict[str, object] = {}
        extends_span = title_span = m.NOWHERE
        clauses, overrides = [], []
        variants: list[tuple[str, m.Span]] = []
        for item in items:
            if isinstance(item, m.Clause):
                clauses.append(item)
            elif isinstance(item, m.Override):
                overrides.append(item)
            elif item[0] == "variants":  # may be given on several lines
                variants.extend(item[1])
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
            file=self.file, span=self._span(name), extends_span=extends_span, title_span=title_span,
            variants=tuple(v for v, _ in variants), variant_spans=tuple(sp for _, sp in variants))

    def start(self, span, children):
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


# One lexeme: a string, a comment, a clause id, a (dotted) word or number, '..', '->' or one other
# character, with the white space after it. Counting them is a fast bound on the tokens the parser
# would meet (comments and white space cost the lexer too).
_LEXEME = re.compile(r'(?:"[^"\\\n]*(?:\\.[^"\\\n]*)*"|#[^\n]*|[0-9]{3}:[0-9a-z][0-9a-z.]*'
                     r'|[A-Za-z0-9_]+(?:\.[A-Za-z_][A-Za-z0-9_]*)*|\.\.|->|\S)\s*')


def _too_large(size: int, file: str) -> SpecError:
    return SpecError([Diagnostic(
        "E009", f"the file is {size:,} bytes; a rule file may be at most {limits.SPEC_BYTES:,} bytes",
        m.Span(file, 0, 0))])


def parse(text: str, file: str = "<string>") -> m.Ruleset:
    """Parse one rule file. Raises :class:`SpecError` on any syntax problem or exceeded limit."""
    if text.startswith("\ufeff"):  # a byte order mark, as some editors write
        text = text[1:]
    if len(text) > limits.SPEC_BYTES // 4 and len(text.encode("utf-8", "surrogatepass")) > limits.SPEC_BYTES:
        raise _too_large(len(text.encode("utf-8", "surrogatepass")), file)
    if len(text) > limits.SPEC_TOKENS:
        tokens = _LEXEME.subn("", text)[1]
        if tokens > limits.SPEC_TOKENS:
            raise SpecError([Diagnostic(
                "E013", f"the file holds {tokens:,} tokens (words, numbers, strings, comments and punctuation); "
                        f"a rule file may hold at most {limits.SPEC_TOKENS:,}", m.Span(file, 0, 0))])
    problem = _comment_problem(text, file)
    if problem is not None:
        raise SpecError([problem])
    builder = _REDUCER.local.builder = _Build(file)
    try:
        ruleset = _lark().parse(text)
    except _Refused as e:
        raise SpecError([e.diagnostic]) from None
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
            "E003", f"unexpected {str(tok)[:60]!r}; expected {_expected(e.expected)}",
            m.Span(file, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + 1))]) from None
    except UnexpectedInput as e:  # any other lexer/parser complaint
        raise SpecError([Diagnostic("E003", f"syntax error: {e.__class__.__name__}",
                                    m.Span(file, getattr(e, 'line', 1), getattr(e, 'column', 1)))]) from None
    finally:
        _REDUCER.local.builder = None
    if builder.problems:
        raise SpecError(builder.problems)
    return ruleset


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def _not_regular(mode: int, file: str) -> SpecError:
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return SpecError([Diagnostic("E007", f"this is {kind}, not a rule file (rule files are regular files)",
                                 m.Span(file, 0, 0))])


def read_spec(path) -> str:
    """The text of a rule file, checked: a regular file (never opened if it is a FIFO or a
    device, so nothing blocks), at most :data:`~tractor_dsl.limits.SPEC_BYTES` bytes, UTF-8;
    a byte order mark is dropped. Problems are raised as :class:`SpecError`."""
    file = str(path)
    try:
        mode = os.stat(file).st_mode
    except (OSError, ValueError) as e:
        raise SpecError([Diagnostic("E006", f"cannot read file: {getattr(e, 'strerror', None) or e}",
                                    m.Span(file, 0, 0))]) from None
    if not stat.S_ISREG(mode):
        raise _not_regular(mode, file)
    try:  # non-blocking: the path may have been swapped for a FIFO since the stat
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise SpecError([Diagnostic("E006", f"cannot read file: {e.strerror}", m.Span(file, 0, 0))]) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(st.st_mode, file)
        if st.st_size > limits.SPEC_BYTES:
            raise _too_large(st.st_size, file)
        chunks, size = [], 0
        while size <= limits.SPEC_BYTES:
            chunk = os.read(fd, min(1 << 20, limits.SPEC_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise SpecError([Diagnostic("E006", f"cannot read file: {e.strerror}", m.Span(file, 0, 0))]) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limits.SPEC_BYTES:
        raise _too_large(len(data), file)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[line_start:e.start].decode("utf-8", "replace")) + 1
        raise SpecError([Diagnostic("E005", f"file is not valid UTF-8 (byte {e.start} is 0x{data[e.start]:02x})",
                                    m.Span(file, line, column, line, column + 1))]) from None
    return text[1:] if text.startswith("\ufeff") else text


def parse_file(path) -> m.Ruleset:
    """Read and parse a rule file; unreadable files are reported, not raised raw."""
    return parse(read_spec(path), str(path))
