"""Diagnostics: what the parser and the checker report, with positions.

A diagnostic prints as ``file:line:col: error[CODE]: message`` followed by the
source line and a caret under the column, the layout compilers use.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from .model import Span

SHOWN = 100  # characters of a source line shown around a column

# what a terminal would act on rather than show, or shows as nothing or as something else: control
# characters (but the tab), lone surrogates, bidirectional overrides and isolates, and the
# noncharacters (U+FDD0-U+FDEF and the last two code points of every plane, U+FFFE, U+FFFF, ...).
# One policy for every line a tool prints (and every text a report shows: conformance.reporting.escape)
_UNSHOWABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069"
                         "\ufdd0-\ufdef\ufffe\uffff"
                         + "".join(f"{chr(plane << 16 | 0xfffe)}{chr(plane << 16 | 0xffff)}" for plane in range(1, 17))
                         + "]")


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def showable(text: str) -> str:
    """``text`` with every character a terminal would act on written as an escape (``\\x1b``)."""
    return _UNSHOWABLE.sub(lambda mt: _escape(mt.group()), text)


@lru_cache(maxsize=4)
def _lines(text: str) -> list[str]:
    """The lines of a source as the parser counts them (split on "\\n" only), split once per source."""
    return text.split("\n")


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    span: Span
    severity: str = "error"  # or "warning"

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def sort_key(self) -> tuple:
        return (self.span.file, self.span.line, self.span.column, self.code)

    def headline(self) -> str:
        return showable(f"{self.span}: {self.severity}[{self.code}]: {self.message}")

    def render(self, sources: dict[str, str] | None = None) -> str:
        """The headline, then the source line (at most :data:`SHOWN` characters of it around the
        column, with control characters escaped) and a caret under the span."""
        lines = [self.headline()]
        text = (sources or {}).get(self.span.file)
        if text is not None and self.span.line > 0:
            source_lines = _lines(text)
            if self.span.line <= len(source_lines):
                line = source_lines[self.span.line - 1].rstrip("\r")
                column = self.span.column - 1
                width = 1
                if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                    width = self.span.end_column - self.span.column
                start = max(0, min(column - SHOWN // 2, len(line) - SHOWN))
                shown = line[start:start + SHOWN]
                before = shown[:max(0, column - start)]
                width = min(width, max(1, SHOWN - len(before)))
                # keep tabs under tabs so that the caret lines up with the column
                pad = "".join("\t" if ch == "\t" else " " * len(showable(ch)) for ch in before)
                pad += " " * max(0, column - len(line))
                marks = "^" * max(1, len(showable(shown[len(before):len(before) + width])))
                lines.append(f"    {'…' if start else ''}{showable(shown)}{'…' if start + SHOWN < len(line) else ''}")
                lines.append("    " + (" " if start else "") + pad + marks)
        return "\n".join(lines)


class SpecError(Exception):
    """Raised when a rule file or ruleset cannot be used; carries every problem."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        super().__init__("\n".join(d.headline() for d in self.diagnostics))


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """A ``; did you mean 'x'?`` suffix, or nothing when nothing is close."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""
