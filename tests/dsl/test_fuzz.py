"""Fuzzing the parser and the checker: they succeed or raise SpecError, nothing else.

(a) Strings derived from the grammar itself (hypothesis.extra.lark), with
    every terminal padded by white space so that most of them parse and the
    checker and the formatter get exercised too; and unpadded, so that the
    lexer's error paths are.
(b) Character and byte mutations (deletions, insertions, swaps, duplications,
    truncations) of the real spec files.
(c) Structural extremes (tests/dsl/structural.py): values nested thousands
    deep, formulas of thousands of operands, ladders with huge lengths, long
    chains of extends, thousands of cites, numbers of thousands of digits,
    control characters in strings. They are refused at the limits of
    tractor_dsl/limits.py, never with a RecursionError.

This is the CI sample; benchmarks/fuzz_specs.py runs the same generators
offline on 100,000 specs.

Whatever parses must also format back to the same model.
"""
from __future__ import annotations

import os
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark.lexer import PatternStr

from .structural import structural
from tractor_dsl.checker import check_text, spec_files
from tractor_dsl.diagnostics import SpecError
from tractor_dsl.formatter import format_text
from tractor_dsl.parser import _lark, parse, parse_file

SPECS = {p.name: p.read_text(encoding="utf-8") for p in spec_files()}
FUZZ = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                       HealthCheck.data_too_large])


def outcome(text: str, file: str = "fuzz.tractor"):
    """Parse, check and (when it parses) format ``text``; any failure but SpecError propagates."""
    try:
        rs = parse(text, file)
    except SpecError as e:
        assert e.diagnostics, "a SpecError carries at least one diagnostic"
        for d in e.diagnostics:
            assert d.code.startswith("E0") or d.code == "E106", d
            d.render({file: text})
        lib = check_text(text, file)
        assert lib.errors
        return None
    lib = check_text(text, file)
    for d in lib.diagnostics:
        d.render(lib.sources)
    formatted = format_text(text, file)
    assert parse(formatted, file) == rs
    assert format_text(formatted, file) == formatted
    return rs


# --- (a) grammar-derived strings ------------------------------------------------------

_ALPHABET = st.characters(codec="utf-8", exclude_categories=("Cs",))


def _terminal_strategies(pad: bool) -> dict[str, st.SearchStrategy[str]]:
    out = {}
    for t in _lark().terminals:
        if isinstance(t.pattern, PatternStr):
            s = st.just(t.pattern.value)
        elif t.name == "WS":
            s = st.sampled_from([" ", "\n", "\t", "  \n  "])
        elif t.name == "COMMENT":
            s = st.from_regex(t.pattern.to_regexp(), fullmatch=True, alphabet=_ALPHABET).map(lambda c: c + "\n")
        elif t.name in ("INT", "SIGNED_INT"):
            # small numbers mostly, some huge ones (nothing may blow up on them)
            s = st.one_of(st.integers(0, 40).map(str), st.integers(0, 10 ** 30).map(str))
            if t.name == "SIGNED_INT":
                s = st.tuples(st.sampled_from(["", "+", "-"]), s).map("".join)
        else:
            s = st.from_regex(t.pattern.to_regexp(), fullmatch=True, alphabet=_ALPHABET)
        out[t.name] = s.map(lambda x: f" {x} ") if pad else s
    return out


PADDED = from_lark(_lark(), start="start", explicit=_terminal_strategies(pad=True))
RAW = from_lark(_lark(), start="start", explicit=_terminal_strategies(pad=False))


@FUZZ
@given(PADDED)
def test_grammar_strings_padded(text):
    outcome(text)


@FUZZ
@given(RAW)
def test_grammar_strings_unpadded(text):
    outcome(text)


@FUZZ
@given(PADDED, st.data())
def test_grammar_strings_padded_then_cut(text, data):
    cut = data.draw(st.integers(0, len(text)))
    outcome(text[:cut])


# --- (b) mutations of the spec files ---------------------------------------------------

NOISE = st.lists(st.one_of(st.sampled_from(list('{}[]()",:=.+-*^/#\\\n 0123456789') +
                                           ["..", "->", "set ", "clause ", "reading ", "band ", "\\u", "中"]),
                           st.characters(codec="utf-8", exclude_categories=("Cs",))),
                 max_size=6).map("".join)


@st.composite
def mutated(draw):
    name = draw(st.sampled_from(sorted(SPECS)))
    text = SPECS[name]
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "swap", "duplicate", "truncate", "replace"]))
        i = draw(st.integers(0, len(text)))
        if kind == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 30)):]
        elif kind == "insert":
            text = text[:i] + draw(NOISE) + text[i:]
        elif kind == "swap" and i + 1 < len(text):
            text = text[:i] + text[i + 1] + text[i] + text[i + 2:]
        elif kind == "duplicate":
            j = min(len(text), i + draw(st.integers(1, 80)))
            text = text[:j] + text[i:j] + text[j:]
        elif kind == "truncate":
            text = text[:i]
        elif kind == "replace" and i < len(text):
            text = text[:i] + draw(NOISE) + text[i + 1:]
    return name, text


@settings(FUZZ, max_examples=max(1, settings.default.max_examples * 2 // 3))
@given(mutated())
def test_mutated_spec_files(case):
    name, text = case
    outcome(text, name)


@settings(FUZZ, max_examples=max(1, settings.default.max_examples // 2))
@given(st.sampled_from(sorted(SPECS)), st.data())
def test_byte_mutations_of_spec_files(name, data):
    raw = bytearray(SPECS[name].encode("utf-8"))
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, max(0, len(raw) - 1)))
        b = data.draw(st.integers(0, 255))
        if data.draw(st.booleans()):
            raw[i:i + 1] = bytes([b])
        else:
            raw.insert(i, b)
    fd, path = tempfile.mkstemp(suffix=".tractor")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        try:
            parse_file(path)
        except SpecError as e:
            assert e.diagnostics
    finally:
        os.unlink(path)


# --- (c) structural extremes ------------------------------------------------------------

def structural_outcome(case) -> None:
    text, extra = case
    if not extra:
        outcome(text)
        return
    lib = check_text(text, "fuzz.tractor", extra=extra)
    for d in lib.diagnostics:
        d.render(lib.sources)


@settings(FUZZ, max_examples=max(1, settings.default.max_examples // 2))
@given(structural())
def test_structural_extremes(case):
    structural_outcome(case)


def test_spec_files_exist():
    assert "003.tractor" in SPECS


@pytest.mark.parametrize("text", [
    "",
    "ruleset",
    "ruleset r {",
    "ruleset r { clause a { set x = \"\\x4\" } }",
    "ruleset r { clause a { set x = \"\\u4e2d\" } }",
    "ruleset r { title \"\\N{NO SUCH NAME}\" }",
    "ruleset r { clause a { follow tractor(pair, 100000000000): 200000000000 single } }",
    "ruleset r { clause a { follow pair: 99999999999 pair / 2 single } }",
    "ruleset r { clause a { band 99999999999999999999.. -> banker +99999999999999 step 0 } }",
    "ruleset r { clause a { set x = 2 ^ 2 ^ 2 ^ 2 ^ 2 ^ 2 } }",
    "ruleset r { clause a { set kitty.multiplier = { trump: { single: 99 ^ 99 ^ 99 } } } }",
    "ruleset r { clause a { set equipment.points = { 99999999999999999999: 5 } } }",
    "ruleset r { clause a { set equipment.hand_size = 99999999999999999999999 } }",
    "ruleset r extends r { }",
    "\ufeffruleset r { }",
    "ruleset r { clause a { cites 003:1 cites 003:1 } }",
    "ruleset r { override a { } because \"\" override a choose b because \"x\" }",
])
def test_nasty_inputs(text):
    outcome(text)
