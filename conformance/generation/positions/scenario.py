"""A scenario: what kind of position a builder makes, and what it is for."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Scenario:
    """``op``'s builder makes a position of ``kind`` with ``args`` (builder-specific, plain data)."""

    op: str
    kind: str
    args: tuple = ()

    def __str__(self) -> str:
        args = ", ".join(_text(a) for a in self.args)
        return f"{self.op}:{self.kind}({args})"


def _text(a) -> str:
    if isinstance(a, tuple) and len(a) == 2 and all(isinstance(x, int) for x in a):
        return unit_text(a)
    if isinstance(a, tuple):
        return "[" + " + ".join(_text(x) for x in a) + "]"
    return str(a)


def unit_text(unit: tuple[int, int]) -> str:
    size, length = unit
    name = {1: "single", 2: "pair", 3: "triple"}[size]
    return f"tractor({name}, {length})" if length > 1 else name
