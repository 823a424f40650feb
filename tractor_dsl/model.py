"""The typed, immutable model of a parsed rule file.

Every node carries a :class:`Span` (file, line, column) so that the checker can
point at it. Spans are excluded from equality: two models that say the same
thing compare equal wherever they were written (this is what the formatter's
round-trip property relies on).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


@dataclass(frozen=True)
class Span:
    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        if self.line <= 0:  # the whole file, or no place in it
            return self.file
        return f"{self.file}:{self.line}:{self.column}"


NOWHERE = Span("<nowhere>", 0, 0)


def _span() -> Span:
    return field(default=NOWHERE, compare=False, repr=False)


# --- values -----------------------------------------------------------------

@dataclass(frozen=True)
class Int:
    value: int
    span: Span = _span()


@dataclass(frozen=True)
class Text:
    value: str
    span: Span = _span()


@dataclass(frozen=True)
class Ident:
    name: str
    span: Span = _span()


@dataclass(frozen=True)
class ListValue:
    items: tuple["Value", ...]
    span: Span = _span()


@dataclass(frozen=True)
class Field:
    key: str
    value: "Value"
    span: Span = _span()


@dataclass(frozen=True)
class RecordValue:
    fields: tuple[Field, ...]
    span: Span = _span()

    def get(self, key: str) -> "Value | None":
        for f in self.fields:
            if f.key == key:
                return f.value
        return None


@dataclass(frozen=True)
class BinOp:
    """Arithmetic in a formula such as ``3 * cards`` or ``2 ^ (cards - 1)``."""

    op: str  # one of + - * ^
    left: "Value"
    right: "Value"
    span: Span = _span()


Value = Union[Int, Text, Ident, ListValue, RecordValue, BinOp]


# --- rule content -----------------------------------------------------------

@dataclass(frozen=True)
class Shape:
    """A unit of play: ``single``, ``pair``, ``triple`` or ``tractor(pair, 3)``."""

    unit: str
    element: str | None = None  # for tractors: pair or triple
    length: int | None = None   # for tractors: number of pairs/triples
    span: Span = _span()

    def __str__(self) -> str:
        if self.element is not None or self.length is not None:  # written NAME(ELEMENT, LENGTH)
            return f"{self.unit}({self.element}, {self.length})"
        return self.unit


@dataclass(frozen=True)
class Term:
    count: int
    shape: Shape
    span: Span = _span()

    def __str__(self) -> str:
        return f"{self.count} {self.shape}" if self.count != 1 else str(self.shape)


@dataclass(frozen=True)
class Pattern:
    terms: tuple[Term, ...]
    span: Span = _span()

    def __str__(self) -> str:
        return " + ".join(str(t) for t in self.terms)


@dataclass(frozen=True)
class Setting:
    path: str
    value: Value
    span: Span = _span()


@dataclass(frozen=True)
class Follow:
    lead: Shape
    ladder: tuple[Pattern, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Band:
    """Attackers' points LOW..HIGH (either end open) give SIDE +LEVELS.

    With ``step``, every further STEP points above LOW adds one more level.
    """

    low: int | None
    high: int | None
    side: str
    levels: int
    step: int | None = None
    span: Span = _span()


Rule = Union[Setting, Follow, Band]


@dataclass(frozen=True)
class Reading:
    name: str
    description: str
    rules: tuple[Rule, ...]
    says: str | None = None
    zh: str | None = None
    span: Span = _span()
    description_zh: str | None = None
    variants: tuple[str, ...] = ()   # house-rule readings of VARIANTS.md this reading states (V14)


@dataclass(frozen=True)
class Clause:
    id: str
    cites: tuple[str, ...] = ()
    status: str | None = None
    term: str | None = None
    says: str | None = None
    zh: str | None = None
    reason: str | None = None
    alternatives: tuple[str, ...] = ()
    rules: tuple[Rule, ...] = ()
    readings: tuple[Reading, ...] = ()
    choice: str | None = None
    span: Span = _span()
    reason_zh: str | None = None
    alternatives_zh: tuple[str | None, ...] = ()  # one per alternative, None where not given
    variants: tuple[str, ...] = ()   # house-rule readings of VARIANTS.md the clause states (V14)
    # where each single-valued header item was written, for the checker
    item_spans: tuple[tuple[str, Span], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:  # one Chinese text (or None) per alternative
        zh = tuple(self.alternatives_zh[:len(self.alternatives)])
        object.__setattr__(self, "alternatives_zh", zh + (None,) * (len(self.alternatives) - len(zh)))

    def item_span(self, item: str) -> Span:
        for name, span in self.item_spans:
            if name == item:
                return span
        return self.span


@dataclass(frozen=True)
class Override:
    clause_id: str
    because: str
    choose: str | None = None
    replacement: Clause | None = None
    span: Span = _span()
    because_zh: str | None = None


@dataclass(frozen=True)
class Ruleset:
    name: str
    extends: str | None = None
    title: str | None = None
    document: str | None = None
    clauses: tuple[Clause, ...] = ()
    overrides: tuple[Override, ...] = ()
    file: str = field(default="<string>", compare=False)
    span: Span = _span()
    extends_span: Span = _span()
    title_zh: str | None = None
    title_span: Span = _span()
    variants: tuple[str, ...] = ()   # house-rule readings of VARIANTS.md the ruleset states (V14)
    variant_spans: tuple[Span, ...] = field(default=(), compare=False, repr=False)
