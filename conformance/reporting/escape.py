"""Text that came from an engine (or a user's file), made safe for the reader of each kind of report.

An engine's name, version, messages and answers may hold anything. Each writer of a report that a person
reads shows that text as text, never as markup, by one policy per format:

* :func:`md_text` — inline Markdown (``summary.md``, ``matrix.md``): what a terminal would act on is
  escaped first (:func:`tractor_dsl.diagnostics.showable`), then every ASCII punctuation mark is
  backslash-escaped and ``&``, ``<`` and ``>`` written as entities, so no link, image, emphasis,
  heading, table cell or raw HTML can come out of it; a new line is a space;
* :func:`md_code` — inline code (a command line), fenced by more backticks than it holds, ``|``
  escaped for table cells;
* :func:`md_block` — a fenced block (a case drawn as cards): the fence is longer than any run of
  backticks inside, so the text cannot close it;
* :func:`html_text` — HTML: control characters (NUL, ESC, ...), lone surrogates, bidirectional
  overrides and noncharacters escaped as ``\\x1b``, then ``& < > " '`` as entities.
"""
from __future__ import annotations

import re
from html import escape as _html_escape

from tractor_dsl.diagnostics import showable

_MD_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!|~:\"'=])")
_BACKTICKS = re.compile("`+")


def _shown(text) -> str:
    return showable(str(text).replace("\r\n", "\n").replace("\n", " "))


def md_text(text) -> str:
    """``text`` as inline Markdown that renders as exactly that text."""
    shown = _shown(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_PUNCTUATION.sub(r"\\\1", shown)


def md_code(text) -> str:
    """``text`` as an inline code span (safe inside a table cell too)."""
    shown = _shown(text).replace("|", "\\|")
    longest = max((len(m) for m in _BACKTICKS.findall(shown)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if shown.startswith("`") or shown.endswith("`") or not shown.strip() else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def md_block(text: str) -> list[str]:
    """``text`` as the lines of a fenced block that nothing inside can close."""
    lines = [showable(line) for line in str(text).split("\n")]
    longest = max((len(m) for line in lines for m in _BACKTICKS.findall(line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence] + lines + [fence]


def html_text(text) -> str:
    """``text`` as HTML text (or an attribute value): shown, never acted on."""
    return _html_escape(showable_keeping_lines(str(text)), quote=True)


def showable_keeping_lines(text: str) -> str:
    """:func:`~tractor_dsl.diagnostics.showable` line by line: new lines stay new lines."""
    return "\n".join(showable(line) for line in text.split("\n"))
