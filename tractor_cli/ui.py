"""The terminal of every ``tractor`` command: rich consoles, colours, card glyphs.

All output goes through :mod:`rich`, which writes colour and cursor codes only
to a terminal, never to a file or a pipe, and honours ``NO_COLOR``
(https://no-color.org: a terminal without colours) and ``FORCE_COLOR`` (a pipe
treated as a terminal). Markup, emoji codes and automatic highlighting are off:
text from the spec or from an engine is printed as it is (``[trump.order]`` is
not markup). Cards are always printed with :func:`reference_impl.cards.show_cards`.
"""
from __future__ import annotations

from typing import Iterable

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


# Chinese punctuation that never starts a line (禁则): it hangs at the end of the line before instead
NO_LINE_START = set("，。、；：？！）」』”’》〉】…—%")


def print_indented(out: Console, text: str | Text, indent: int = 4, style: str | None = None) -> None:
    """``text`` wrapped to the console's width (CJK-aware: a Chinese character is two columns wide), every
    line indented, no line starting with closing punctuation; no trailing blanks."""
    body = text if isinstance(text, Text) else Text(text, style=style)
    lines = list(body.wrap(out, max(20, out.width - indent - 4)))   # room for two hanging marks (），)
    emptied = set()
    for i in range(1, len(lines)):
        while lines[i].plain and lines[i].plain[0] in NO_LINE_START:
            lines[i - 1] = lines[i - 1] + lines[i][:1]
            lines[i] = lines[i][1:]
            if not lines[i].plain:
                emptied.add(i)
    for i, line in enumerate(lines):
        line.rstrip()
        if i not in emptied:
            out.print(Text(" " * indent) + line, soft_wrap=True)


def table(*columns: str, title: str | None = None) -> Table:
    """A table in the commands' plain style: a bold header, the first column left, the others right."""
    t = Table(box=None, pad_edge=False, show_edge=False, header_style="bold", title=title)
    for i, c in enumerate(columns):
        t.add_column(c, justify="left" if i == 0 else "right", no_wrap=i == 0)
    return t
