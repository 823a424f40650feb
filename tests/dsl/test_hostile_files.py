"""Odd and hostile rule files: every one is refused with a clear diagnostic, never a traceback,
a hang or a bogus position (issue 13). The limits come from :mod:`tractor_dsl.limits`."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .dsl_support import check, clause, minimal, problems
from tractor_dsl import limits
from tractor_dsl.checker import load
from tractor_dsl.diagnostics import Diagnostic
from tractor_dsl.model import Span
from tractor_dsl.parser import parse
from tractor_dsl.patterns import can_form, fits_within, units_as_holding
from tests import processes

ROOT = Path(__file__).resolve().parents[2]


def tractor_check(*paths, timeout=processes.PATIENCE):
    """``tractor check PATHS`` in a subprocess: (exit status, stderr)."""
    proc = processes.run([sys.executable, "-m", "tractor_cli.main", "check", "--quiet", *map(str, paths)],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    return proc.returncode, proc.stderr


def codes(lib) -> list[str]:
    return [d.code for d in problems(lib)]


# --- files ------------------------------------------------------------------------------

def test_a_byte_order_mark_is_accepted(tmp_path):
    text = minimal()
    f = tmp_path / "bom.tractor"
    f.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    lib = load([f])
    assert codes(lib) == [] and "rmin" in lib.rulesets
    assert parse("\ufeff" + text) == parse(text)


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.tractor"
    os.mkfifo(fifo)
    rc, err = tractor_check(fifo, timeout=300)  # a blocking open would time out here (a normal check takes seconds)
    assert rc == 1
    assert f"{fifo}: error[E007]: this is a FIFO, not a rule file" in err
    found = tmp_path / "folder"
    found.mkdir()
    os.mkfifo(found / "x.tractor")
    lib = load([found])
    assert [d.code for d in lib.diagnostics] == ["E007"]


@pytest.mark.parametrize("make", ["empty", "named_like_a_file", "only_other_files"])
def test_a_folder_without_rule_files_is_an_error(tmp_path, make):
    folder = tmp_path / ("x.tractor" if make == "named_like_a_file" else "rules")
    folder.mkdir()
    if make == "only_other_files":
        (folder / "notes.txt").write_text("ruleset r {}")
    rc, err = tractor_check(folder)
    assert rc == 1
    assert f"{folder}: error[E008]: no rule files (*.tractor) in this folder" in err
    assert "0 ruleset(s) checked, 1 error(s)" in processes.run(
        [sys.executable, "-m", "tractor_cli.main", "check", str(folder)], cwd=ROOT, capture_output=True,
        text=True, timeout=processes.PATIENCE).stdout


def test_a_missing_file_has_a_real_message_and_no_position(tmp_path):
    missing = tmp_path / "missing.tractor"
    rc, err = tractor_check(missing)
    assert rc == 1
    assert err.splitlines()[0] == f"{missing}: error[E006]: cannot read file: No such file or directory"
    assert ":0:0" not in err
    assert str(Span("f", 0, 0)) == "f" and str(Span("f", 3, 4)) == "f:3:4"


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path):
    big = tmp_path / "big.tractor"
    with open(big, "wb") as f:  # sparse: nothing is written, nothing need be read
        f.truncate(limits.SPEC_BYTES + 1)
    lib = load([big])
    assert [(d.code, d.span.line) for d in lib.diagnostics] == [("E009", 0)]
    assert f"at most {limits.SPEC_BYTES:,} bytes" in lib.diagnostics[0].message


def test_a_file_of_too_many_tokens_is_refused():
    text = "ruleset r { clause a { set x = [" + ",".join(["1"] * (limits.SPEC_TOKENS // 2)) + "] } }"
    lib = check(text)
    assert [d.code for d in lib.diagnostics] == ["E013"]
    assert f"at most {limits.SPEC_TOKENS:,}" in lib.diagnostics[0].message


def test_invalid_utf8_is_located(tmp_path):
    f = tmp_path / "latin.tractor"
    f.write_bytes(b'ruleset r {\n  title "caf\xe9"\n}\n')
    (d,) = load([f]).diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E005", 2, 13)
    assert "0xe9" in d.message


def test_a_nul_outside_strings_is_a_syntax_error():
    (d,) = check("ruleset r {\x00}").diagnostics
    assert (d.code, d.span.line, d.span.column) == ("E001", 1, 12)
    assert "'\\x00'" in d.message


# --- structure ------------------------------------------------------------------------------

@pytest.mark.parametrize("depth", [65, 500, 20_000])
def test_deep_nesting_is_refused_without_recursion(depth):
    text = minimal().replace("set level.must_play = []", "set level.must_play = " + "[" * depth + "]" * depth)
    assert codes(check(text)) == ["E011"]


def test_deep_parentheses_build_nothing_deep():
    formula = "(" * 20_000 + "cards" + ")" * 20_000
    lib = check(minimal().replace("tractor: 2 * cards", f"tractor: {formula}"))
    assert codes(lib) == []
    assert str(lib.rulesets["rmin"]["kitty.multiplier"]["trump"]["tractor"]) == "cards"


def test_many_problems_stop_at_the_limit():
    cites = ", ".join(["003:2"] * 5000)
    lib = check(minimal(clause("c", "", cites=cites)))
    assert len(lib.diagnostics) == limits.DIAGNOSTICS + 1
    (stop,) = [d for d in lib.diagnostics if d.code == "E014"]
    assert f"stopped after {limits.DIAGNOSTICS} problems" in stop.headline()
    assert sum(d.code == "E105" for d in lib.diagnostics) >= limits.DIAGNOSTICS - 10


def test_a_long_extends_chain_resolves_up_to_the_limit():
    chain = {f"c{i}.tractor": f"ruleset rc{i} extends {'rc%d' % (i - 1) if i else 'rmin'} {{\n}}\n"
             for i in range(1000)}
    lib = check(minimal(), chain)
    # every ruleset past the limit is reported, each once (rmin and rc0..rc14 make the 16 a chain may hold)
    assert [d.code for d in problems(lib)] == ["E511"] * (1000 - (limits.EXTENDS_DEPTH - 1))
    assert {f"rc{i}" for i in range(limits.EXTENDS_DEPTH - 1)} <= set(lib.rulesets)
    assert f"rc{limits.EXTENDS_DEPTH - 1}" not in lib.rulesets
    assert lib.rulesets[f"rc{limits.EXTENDS_DEPTH - 2}"].lineage[-1] == "rmin"


def test_an_extends_chain_over_the_limit_counts_right_and_reports_every_file():
    """k1 extends rmin, k2 extends k1 ... k20: k15 is the 16th ruleset of its chain, the last a chain may hold;
    k16 makes 17, and k16 to k20 are each reported with their own count and file (issue 30, item 10)."""
    files = {f"k{i}.tractor": f"ruleset k{i} extends {'k%d' % (i - 1) if i > 1 else 'rmin'} {{\n}}\n"
             for i in range(1, 21)}
    lib = check(minimal(), files)
    e511 = [d for d in problems(lib) if d.code == "E511"]
    assert [d.span.file for d in e511] == [f"k{i}.tractor" for i in range(16, 21)]
    assert [f"'k{i}' makes a chain of {i + 1} rulesets" in d.message for i, d in zip(range(16, 21), e511)] == [True] * 5
    assert all(f"at most {limits.EXTENDS_DEPTH} rulesets" in d.message for d in e511)
    assert "k15" in lib.rulesets and "k16" not in lib.rulesets
    assert len(lib.rulesets["k15"].lineage) == limits.EXTENDS_DEPTH


# --- what is shown --------------------------------------------------------------------------

def test_control_characters_are_escaped_when_shown():
    d = Diagnostic("E001", "unexpected character '\x1b'", Span("f", 1, 3, 1, 4))
    shown = d.render({"f": "# \x1b[2J\rhi\x07 there"})
    assert "\x1b" not in shown and "\r" not in shown and "\x07" not in shown
    assert "\\x1b[2J\\x0dhi\\x07 there" in shown
    caret = shown.splitlines()[-1]
    assert caret == "    " + " " * 2 + "^" * 4  # under the four characters of \x1b


def test_long_lines_are_shown_around_the_column():
    line = "x" * 5000 + "$" + "y" * 5000
    shown = Diagnostic("E001", "unexpected character '$'", Span("f", 1, 5001, 1, 5002)).render({"f": line})
    source, caret = shown.splitlines()[1:]
    assert len(source) < 120 and source.strip("xy .…") == "$"
    assert source.index("$") == caret.index("^")


# --- ladders --------------------------------------------------------------------------------

UNIT = st.sampled_from([(1, 1), (2, 1), (3, 1), (2, 2), (2, 3), (3, 2), (2, 4)])


@settings(max_examples=300, deadline=None)
@given(st.lists(UNIT, max_size=5), st.lists(UNIT, max_size=5))
def test_shadowing_search_agrees_with_the_general_search(units, holding):
    assert fits_within(units, holding) == can_form(units, *units_as_holding(holding))


def test_shadowing_search_is_bounded_by_the_cards_not_the_lengths():
    # 15 tractors of two pairs do not fit in one tractor of 29 pairs (plus two singles): the general
    # search tries every placement (about 20 s); this one visits the stretches left (milliseconds)
    assert not fits_within([(2, 2)] * 15, [(2, 29), (1, 1), (1, 1)])
    assert fits_within([(2, 2)] * 14 + [(1, 1)] * 4, [(2, 29), (1, 1), (1, 1)])
    assert fits_within([(2, 29)], [(3, 29)]) and not fits_within([(3, 2)], [(2, 29), (2, 1), (2, 1)])


@pytest.mark.parametrize("char", ["\u202e", "\u2066", "\x1b", "\x00"])
def test_a_bidi_override_or_control_in_a_comment_is_refused_at_its_place(char):
    text = minimal().replace("  clause base {", f"  # the base {char}clause\n  clause base {{", 1)
    lib = check(text)
    [d] = [d for d in lib.diagnostics if d.code == "E010"]
    line = next(i for i, x in enumerate(text.split("\n"), 1) if char in x)
    assert (d.span.line, d.span.column) == (line, len("  # the base ") + 1)
    assert f"a comment holds the character U+{ord(char):04X}" in d.message


def test_comments_of_crlf_files_and_hashes_in_strings_are_no_problem():
    text = minimal().replace("  clause base {", '  # a comment\n  clause base {', 1)
    assert codes(check(text.replace("\n", "\r\n"))) == []
    quoted = minimal().replace('says "Everything."', 'says "Everything # \u202e, quoted."')
    assert [d.code for d in problems(check(quoted))] == ["E010"]   # in a string: refused as a string's
    assert "a string holds" in problems(check(quoted))[0].message
