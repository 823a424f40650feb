"""Value types of rule settings, and their conversion from model values.

Each type turns a model :data:`~tractor_dsl.model.Value` into a plain Python
value (int, bool, str, tuple, dict, :class:`Formula`) or raises
:class:`TypeProblem` with the span of the offending part.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import limits
from . import model as m
from .diagnostics import did_you_mean

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
NO_TRUMP_LEVEL = "NT"   # the one level that is not a rank (V66): no card is a level card, no suit is trump
SUITS = ("spades", "hearts", "diamonds", "clubs")
TIERS = ("big_joker", "small_joker", "trump_level", "off_level", "trump_fixed", "off_fixed", "trump_suit", "named")


class TypeProblem(Exception):
    def __init__(self, message: str, span: m.Span):
        super().__init__(message)
        self.message = message
        self.span = span


def _describe(value: m.Value) -> str:
    if isinstance(value, m.Int):
        return f"the number {value.value}"
    if isinstance(value, m.Text):
        return f"the string {value.value!r}"
    if isinstance(value, m.Ident):
        return f"'{value.name}'"
    if isinstance(value, m.ListValue):
        return "a list"
    if isinstance(value, m.RecordValue):
        return "a record"
    return "a formula"


class ValueType:
    name = "value"

    def convert(self, value: m.Value) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def wrong(self, value: m.Value) -> TypeProblem:
        return TypeProblem(f"expected {self.name}, found {_describe(value)}", value.span)


class IntType(ValueType):
    def __init__(self, low: int | None = None, high: int | None = None):
        self.low, self.high = low, high
        self.name = "a whole number" + (f" from {low} to {high}" if low is not None and high is not None else "")

    def convert(self, value):
        if not isinstance(value, m.Int):
            raise self.wrong(value)
        if (self.low is not None and value.value < self.low) or (self.high is not None and value.value > self.high):
            raise TypeProblem(f"{value.value} is out of range: expected {self.name}", value.span)
        return value.value


class BoolType(ValueType):
    name = "true or false"

    def convert(self, value):
        if isinstance(value, m.Ident) and value.name in ("true", "false"):
            return value.name == "true"
        raise self.wrong(value)


class TextType(ValueType):
    name = "a quoted string"

    def convert(self, value):
        if isinstance(value, m.Text):
            return value.value
        raise self.wrong(value)


class EnumType(ValueType):
    def __init__(self, *choices: str):
        self.choices = choices
        self.name = "one of " + ", ".join(choices)

    def convert(self, value):
        if isinstance(value, m.Ident):
            if value.name in self.choices:
                return value.name
            raise TypeProblem(f"'{value.name}' is not one of {', '.join(self.choices)}"
                              + did_you_mean(value.name, self.choices), value.span)
        raise self.wrong(value)


class RankType(ValueType):
    name = "a rank (2 to 10, J, Q, K, A)"

    def convert(self, value):
        if isinstance(value, m.Int) and str(value.value) in RANKS:
            return str(value.value)
        if isinstance(value, m.Ident) and value.name in RANKS:
            return value.name
        raise self.wrong(value)


class LevelType(RankType):
    """A level: a rank, or ``NT`` - the no-trump level (V66), played without level cards and without a trump
    suit (only the jokers, and any fixed or named trumps, are trump); the checker lets it stand only as the
    last of ``level.ranks``."""
    name = "a level (a rank 2 to 10, J, Q, K, A, or NT)"

    def convert(self, value):
        if isinstance(value, m.Ident) and value.name == NO_TRUMP_LEVEL:
            return NO_TRUMP_LEVEL
        try:
            return super().convert(value)
        except TypeProblem:
            raise self.wrong(value) from None


class OptionalType(ValueType):
    """``none`` or a value of the inner type."""

    def __init__(self, inner: ValueType):
        self.inner = inner
        self.name = f"none or {inner.name}"

    def convert(self, value):
        if isinstance(value, m.Ident) and value.name == "none":
            return None
        return self.inner.convert(value)


class ListType(ValueType):
    def __init__(self, item: ValueType, min_items: int = 0, unique: bool = False):
        self.item, self.min_items, self.unique = item, min_items, unique
        self.name = f"a list of {item.name}"

    def convert(self, value):
        if not isinstance(value, m.ListValue):
            raise self.wrong(value)
        if len(value.items) < self.min_items:
            raise TypeProblem(f"expected at least {self.min_items} item(s) in {self.name}", value.span)
        items = []
        for item in value.items:
            converted = self.item.convert(item)
            if self.unique and converted in items:
                raise TypeProblem(f"{_describe(item)} appears twice in the list", item.span)
            items.append(converted)
        return tuple(items)


class RecordType(ValueType):
    def __init__(self, fields: dict[str, ValueType], optional: tuple[str, ...] = ()):
        self.fields, self.optional = fields, optional
        self.name = "a record {" + ", ".join(fields) + "}"

    def convert(self, value):
        if not isinstance(value, m.RecordValue):
            raise self.wrong(value)
        out: dict[str, Any] = {}
        for f in value.fields:
            if f.key not in self.fields:
                raise TypeProblem(f"unknown field '{f.key}'" + did_you_mean(f.key, self.fields), f.span)
            if f.key in out:
                raise TypeProblem(f"field '{f.key}' is given twice", f.span)
            out[f.key] = self.fields[f.key].convert(f.value)
        missing = [k for k in self.fields if k not in out and k not in self.optional]
        if missing:
            raise TypeProblem(f"missing field(s) {', '.join(missing)} in {self.name}", value.span)
        return out


class MapType(ValueType):
    """A record whose keys come from a key type (e.g. rank → points)."""

    def __init__(self, key: ValueType, item: ValueType):
        self.key, self.item = key, item
        self.name = f"a record of {key.name} to {item.name}"

    def convert(self, value):
        if not isinstance(value, m.RecordValue):
            raise self.wrong(value)
        out = {}
        for f in value.fields:
            key_value = m.Int(int(f.key), f.span) if f.key.isdigit() else m.Ident(f.key, f.span)
            key = self.key.convert(key_value)
            if key in out:
                raise TypeProblem(f"key '{f.key}' is given twice", f.span)
            out[key] = self.item.convert(f.value)
        return out


class FormulaError(ValueError):
    """A formula whose value, or the value of a part of it, leaves the bounds every formula keeps
    (:data:`~tractor_dsl.limits.FORMULA_MAGNITUDE`, :data:`~tractor_dsl.limits.FORMULA_EXPONENT`),
    or is no whole number (a negative exponent). ``span`` is the offending part's place in its file."""

    def __init__(self, message: str, span: "m.Span | None"):
        super().__init__(message)
        self.message = message
        self.span = span


@dataclass(frozen=True)
class Formula:
    """An integer formula over the variables ``cards`` and ``pairs`` (e.g. ``3 * cards``, ``2 * 2 ^ pairs``).

    ``cards`` is the number of cards of the unit the multiplier is read for; ``pairs`` the number of pairs
    in it, pairs inside a tractor counted too (see :mod:`reference_impl.kitty`).

    Evaluation is bounded by construction: every intermediate value is a whole
    number of magnitude at most :data:`~tractor_dsl.limits.FORMULA_MAGNITUDE`
    and every exponent is 0 to :data:`~tractor_dsl.limits.FORMULA_EXPONENT`,
    checked before the operation is carried out; anything else raises
    :class:`FormulaError` (so ``9 ^ 9 ^ 9 ^ 9`` costs no more than ``9 ^ 9``).
    The checker evaluates each kitty multiplier at every card count the
    ruleset allows, so a checked ruleset never raises it.
    """

    op: str            # "const", "cards", "pairs", "+", "-", "*", "^"
    value: int = 0
    left: "Formula | None" = None
    right: "Formula | None" = None
    span: "m.Span | None" = field(default=None, compare=False, repr=False)

    def __call__(self, cards: int, pairs: int = 0) -> int:
        if self.op == "const":
            return self._bounded(self.value)
        if self.op == "cards":
            return self._bounded(cards)
        if self.op == "pairs":
            return self._bounded(pairs)
        a, b = self.left(cards, pairs), self.right(cards, pairs)
        if self.op == "+":
            return self._bounded(a + b)
        if self.op == "-":
            return self._bounded(a - b)
        if self.op == "*":
            return self._bounded(a * b)   # both factors are bounded: the product has at most ~106 bits
        if b < 0:
            raise FormulaError(f"{self} has the negative exponent {b} ({self._at(cards, pairs)}): "
                               "its value would be a fraction, and a formula's value is a whole number", self.span)
        if b > limits.FORMULA_EXPONENT and abs(a) > 1:
            raise FormulaError(f"{self} has the exponent {b} ({self._at(cards, pairs)}); an exponent is at most "
                               f"{limits.FORMULA_EXPONENT}", self.span)
        if abs(a) > 1 and (abs(a).bit_length() - 1) * b > limits.FORMULA_MAGNITUDE.bit_length():
            raise self._too_large(f"{a} ^ {b}", self._at(cards, pairs))
        return self._bounded(a ** b)  # |a| > 1 bounded above; 0, 1 and -1 to any power cost nothing

    def _bounded(self, value: int) -> int:
        if abs(value) > limits.FORMULA_MAGNITUDE:
            raise self._too_large(str(value) if abs(value) < 10 ** 40 else "more than 10^40", None)
        return value

    @property
    def uses_pairs(self) -> bool:
        """Whether the variable ``pairs`` occurs in the formula."""
        return self.op == "pairs" or any(f is not None and f.uses_pairs for f in (self.left, self.right))

    def _at(self, cards: int, pairs: int) -> str:
        return f"for cards = {cards}, pairs = {pairs}" if self.uses_pairs else f"for cards = {cards}"

    def _too_large(self, what: str, at: str | None) -> FormulaError:
        at = "" if at is None else f" ({at})"
        return FormulaError(f"{self} reaches {what}{at}; a formula and every part of it stay within "
                            f"±{limits.FORMULA_MAGNITUDE:,} (2^{limits.FORMULA_MAGNITUDE.bit_length() - 1})",
                            self.span)

    def __str__(self) -> str:
        if self.op == "const":
            return str(self.value)
        if self.op in ("cards", "pairs"):
            return self.op
        left, right = str(self.left), str(self.right)
        if self.left.op in "+-" and self.op in "*^":
            left = f"({left})"
        if self.right.op in "+-*^" and self.op != "+":
            right = f"({right})"
        return f"{left} {self.op} {right}"


class FormulaType(ValueType):
    name = "a formula over 'cards' and 'pairs' (e.g. 3 * cards, 2 * 2 ^ pairs)"

    def convert(self, value):
        if isinstance(value, m.Int):
            return Formula("const", value.value, span=value.span)
        if isinstance(value, m.Ident):
            if value.name in ("cards", "pairs"):
                return Formula(value.name, span=value.span)
            raise TypeProblem(f"unknown variable '{value.name}' in formula; the variables are 'cards' and 'pairs'",
                              value.span)
        if isinstance(value, m.BinOp):
            return Formula(value.op, 0, self.convert(value.left), self.convert(value.right), value.span)
        raise self.wrong(value)


class CardType(ValueType):
    """A suited card as a record ``{rank: 2, suit: hearts}``."""

    name = "a card {rank: R, suit: S}"

    def convert(self, value):
        record = RecordType({"rank": RankType(), "suit": EnumType(*SUITS)}).convert(value)
        return (record["rank"], record["suit"])
