"""Canonical text of values and rules, shared by the formatter and ``tractor show``."""
from __future__ import annotations

import json

from . import model as m


def quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def value_text(v: m.Value) -> str:
    if isinstance(v, m.Int):
        return str(v.value) if v.value >= 0 else f"-{-v.value}"
    if isinstance(v, m.Text):
        return quote(v.value)
    if isinstance(v, m.Ident):
        return v.name
    if isinstance(v, m.ListValue):
        return "[" + ", ".join(value_text(i) for i in v.items) + "]"
    if isinstance(v, m.RecordValue):
        return "{ " + ", ".join(f"{f.key}: {value_text(f.value)}" for f in v.fields) + " }" if v.fields else "{}"
    if isinstance(v, m.BinOp):
        return f"{_operand(v.left, v.op, False)} {v.op} {_operand(v.right, v.op, True)}"
    raise TypeError(v)


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "^": 3}


def _operand(v: m.Value, op: str, right: bool) -> str:
    text = value_text(v)
    if isinstance(v, m.BinOp):
        inner, outer = _PRECEDENCE[v.op], _PRECEDENCE[op]
        # parenthesise lower precedence, and same precedence where association would change the meaning
        if inner < outer or (inner == outer and (right != (op == "^")) or (inner == outer and op == "^" and not right)):
            return f"({text})"
    elif isinstance(v, m.Int) and v.value < 0:
        return f"({text})"
    return text


def band_text(b: m.Band) -> str:
    low = "" if b.low is None else str(b.low)
    high = "" if b.high is None else str(b.high)
    step = f" step {b.step}" if b.step is not None else ""
    levels = f"+{b.levels}" if b.levels >= 0 else str(b.levels)
    return f"band {low}..{high} -> {b.side} {levels}{step}"


def rule_text(r: m.Rule) -> str:
    if isinstance(r, m.Setting):
        return f"set {r.path} = {value_text(r.value)}"
    if isinstance(r, m.Follow):
        return f"follow {r.lead}: " + " / ".join(str(p) for p in r.ladder)
    if isinstance(r, m.Band):
        return band_text(r)
    raise TypeError(r)
