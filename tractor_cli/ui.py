"""The terminal of every ``tractor`` command: rich consoles, colours, card glyphs.

All output goes through :mod:`rich`, which writes colour and cursor codes only
to a terminal, never to a file or a pipe, and honours ``NO_COLOR``
(https://no-color.org: a terminal without colours) and ``FORCE_COLOR`` (a pipe
treated as a terminal). Markup, emoji codes and automatic highlighting are off:
text from the spec or from an engine is printed as it is (``[trump.order]`` is
not markup). Cards are always printed with :func:`reference_impl.cards.show_cards`.
"""
from __future__ import annotations

import re
from typing import Iterable

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from reference_impl.cards import show_cards
from tractor_dsl.diagnostics import showable

# the styles of the statuses of a conformance case, and of the words of a verdict
STYLES = {"pass": "green", "fail": "bold red", "xpass": "bold red", "skipped": "yellow", "xfail": "yellow",
          "errored": "bold magenta", "legal": "green", "illegal": "bold red", "heading": "bold",
          "clause": "cyan", "dim": "dim"}


def console(stderr: bool = False, **kw) -> Console:
    """A console on stdout (or stderr), made afresh so it follows the current ``sys.stdout`` and environment."""
    return Console(stderr=stderr, markup=False, emoji=False, highlight=False, **kw)


def echo(text: str | Text = "", style: str | None = None, stderr: bool = False) -> None:
    """One or more lines, never wrapped (lines a program may read, e.g. transcripts); what a terminal would
    act on rather than show is escaped (:func:`tractor_dsl.diagnostics.showable`, for every line alike)."""
    if isinstance(text, str):
        text = shown(text)
    console(stderr).print(text, style=style, soft_wrap=True)


def styled(*pieces: tuple[str, str | None] | str) -> Text:
    """A line from plain strings and (string, style) pieces."""
    t = Text()
    for p in pieces:
        if isinstance(p, str):
            t.append(shown(p))
        else:
            t.append(shown(p[0]), style=STYLES.get(p[1] or "", p[1]))
    return t


def shown(text: str) -> str:
    """``text`` as a terminal shows it, line by line (:func:`tractor_dsl.diagnostics.showable`)."""
    return "\n".join(showable(line) for line in text.split("\n"))


def parts_text(parts: Iterable[tuple[str, str]]) -> str:
    """A text made of ``("text", s)`` and ``("cards", notation)`` parts (conformance.analysis.variants), cards as glyphs."""
    return "".join(show_cards(s) if kind == "cards" else s for kind, s in parts)


def status_style(status: str, count: int = 1) -> str | None:
    """The style of a count in a status column: coloured only when there is something to count."""
    return STYLES.get(status) if count else "dim"


# punctuation that never starts a line (禁则; Chinese and ASCII): it hangs at the end of the line before
NO_LINE_START = set("，。、；：？！）」』”’》〉】…—%,.;:!?)]}")
# opening brackets and quotes that never end a line: they go down with what they open
NO_LINE_END = set("（「『“‘《〈【")
_TOKEN = re.compile(r"\s+|(?:(?:10|[2-9JQKA])[♠♥♦♣]|大王|小王)(?: (?:(?:10|[2-9JQKA])[♠♥♦♣]|大王|小王))*"
                    r"|[\x21-\x7e\u00b0-\u02ff\u2010-\u2027\u2030-\u2bff]+|.", re.S)


def _units(text: str) -> list[str]:
    """The pieces a line may break between: a run of cards (a play), a word or number, one CJK character,
    a run of blanks; closing punctuation joins the piece before it, an opening bracket the piece after."""
    units: list[str] = []
    pending = ""
    for tok in _TOKEN.findall(text):
        if tok in NO_LINE_END:
            pending += tok
            continue
        if units and tok[0] in NO_LINE_START and not pending:
            units[-1] += tok
            continue
        units.append(pending + tok)
        pending = ""
    if pending:
        units.append(pending)
    return units


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns (a CJK character is two), breaking only between
    :func:`_units`; a run of cards wider than a line is broken between cards. No trailing blanks."""
    lines: list[str] = []
    for para in text.split("\n"):
        units: list[str] = []
        for unit in _units(para):
            if cell_len(unit) > width and " " in unit.strip():   # a hand wider than a line: card by card
                units += re.split(r"( )", unit)
            else:
                units.append(unit)
        line = ""
        for unit in units:
            if unit.isspace():
                line += unit if line else ""
            elif not line or cell_len(line) + cell_len(unit) <= width:
                line += unit
            else:
                lines.append(line.rstrip())
                line = unit
        lines.append(line.rstrip())
    return lines


def print_indented(out: Console, text: str | Text, indent: int = 4, style: str | None = None,
                   label: str = "") -> None:
    """``label`` (bold) and ``text`` wrapped to the console's width by :func:`wrap`, every line indented."""
    plain = text.plain if isinstance(text, Text) else text
    width = max(20, out.width - indent - 1)
    for k, line in enumerate(wrap(label + plain, width)):
        t = Text(" " * indent)
        if k == 0 and label:
            t.append(line[:len(label)], style=STYLES["heading"])
            t.append(line[len(label):], style=style)
        else:
            t.append(line, style=style)
        out.print(t, soft_wrap=True)


def table(*columns: str, title: str | None = None) -> Table:
    """A table in the commands' plain style: a bold header, the first column left, the others right."""
    t = Table(box=None, pad_edge=False, show_edge=False, header_style="bold", title=title)
    for i, c in enumerate(columns):
        t.add_column(c, justify="left" if i == 0 else "right", no_wrap=i == 0)
    return t
