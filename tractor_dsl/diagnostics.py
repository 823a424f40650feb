"""Diagnostics: what the parser and the checker report, with positions.

A diagnostic prints as ``file:line:col: error[CODE]: message`` followed by the
source line and a caret under the column, the layout compilers use.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable

from .model import Span


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
        return f"{self.span}: {self.severity}[{self.code}]: {self.message}"

    def render(self, sources: dict[str, str] | None = None) -> str:
        lines = [self.headline()]
        text = (sources or {}).get(self.span.file)
        if text is not None and self.span.line > 0:
            source_lines = text.split("\n")  # lines as the parser counts them ("\n" only)
            if self.span.line <= len(source_lines):
                line = source_lines[self.span.line - 1].rstrip("\r")
                width = 1
                if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                    width = self.span.end_column - self.span.column
                # keep tabs under tabs so that the caret lines up with the column
                pad = "".join("\t" if ch == "\t" else " " for ch in line[:self.span.column - 1])
                pad += " " * max(0, self.span.column - 1 - len(line))
                lines.append(f"    {line}")
                lines.append("    " + pad + "^" * max(1, width))
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
