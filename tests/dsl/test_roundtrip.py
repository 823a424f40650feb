"""The formatter: canonical, idempotent, meaning-preserving, comment-keeping.

Properties:

* for any ruleset model the parser can produce, ``parse(format_ruleset(m)) == m``;
* ``format_text`` is idempotent and keeps every comment;
* every bundled spec file formats to a model equal to its own, and is kept
  formatted (``tractor fmt --check`` passes on it).
"""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tractor_cli.main import main
from tractor_dsl import model as m
from tractor_dsl.checker import spec_files
from tractor_dsl.formatter import collect_comments, format_ruleset, format_text
from tractor_dsl.parser import parse
from tractor_dsl.render import band_text, value_text

# --- strategies for models the parser can produce ---------------------------------

KEYWORDS = ["ruleset", "extends", "title", "document", "clause", "override", "choose", "because", "cites",
            "status", "term", "says", "zh", "reason", "alternative", "reading", "set", "follow", "band", "step",
            "tractor", "pair", "single", "none", "true", "cards"]
names = st.one_of(st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,7}", fullmatch=True), st.sampled_from(KEYWORDS))
dotted = st.one_of(st.from_regex(r"[a-z_][a-z0-9_]{0,6}(\.[a-z_][a-z0-9_]{0,6}){0,2}", fullmatch=True),
                   st.sampled_from([k for k in KEYWORDS if k.islower()]))
cite_ids = st.from_regex(r"[0-9]{3}:[0-9a-z][0-9a-z.]{0,4}", fullmatch=True)
# any text a rule file may hold: no control characters (but the tab and the newline), lone
# surrogates or bidirectional overrides (E010)
BIDI = "".join(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))
texts = st.text(st.characters(exclude_categories=("Cs", "Cc"), include_characters="\t\n", exclude_characters=BIDI),
                max_size=12)


def _tuple(strategy, max_size=3, min_size=0):
    return st.lists(strategy, min_size=min_size, max_size=max_size).map(tuple)


ints = st.integers(-10 ** 6, 10 ** 6)
atoms = st.one_of(ints.map(m.Int), names.map(m.Ident))
formulas = st.recursive(atoms, lambda sub: st.builds(m.BinOp, st.sampled_from("+-*^"), sub, sub), max_leaves=6)
field_keys = st.one_of(names, st.from_regex(r"[0-9]{1,3}", fullmatch=True))
values = st.recursive(
    st.one_of(formulas, texts.map(m.Text)),
    lambda sub: st.one_of(
        _tuple(sub).map(m.ListValue),
        _tuple(st.builds(m.Field, field_keys, sub)).map(m.RecordValue)),
    max_leaves=8)
shapes = st.one_of(st.builds(m.Shape, names),
                   st.builds(m.Shape, names, names, st.integers(0, 99)))
patterns = _tuple(st.builds(m.Term, st.integers(0, 20), shapes), min_size=1).map(m.Pattern)
signed = st.integers(-300, 300)
rules = st.one_of(
    st.builds(m.Setting, dotted, values),
    st.builds(m.Follow, shapes, _tuple(patterns, min_size=1)),
    st.builds(m.Band, st.none() | signed, st.none() | signed, names, signed, st.none() | st.integers(0, 99)),
)
opt_text = st.none() | texts
readings = st.builds(m.Reading, names, texts, _tuple(rules), opt_text, opt_text, description_zh=opt_text)


@st.composite
def clauses(draw, clause_id=None):
    reason = draw(opt_text)
    alternatives = draw(_tuple(texts, 2))
    return m.Clause(
        id=draw(dotted) if clause_id is None else clause_id,
        cites=draw(_tuple(cite_ids)), status=draw(st.none() | names), term=draw(opt_text),
        says=draw(opt_text), zh=draw(opt_text), reason=reason,
        reason_zh=None if reason is None else draw(opt_text), alternatives=alternatives,
        alternatives_zh=tuple(draw(opt_text) for _ in alternatives),
        rules=draw(_tuple(rules)), readings=draw(_tuple(readings, 2)), choice=draw(st.none() | names))


@st.composite
def overrides(draw):
    clause_id = draw(dotted)
    because, because_zh = draw(texts), draw(opt_text)
    if draw(st.booleans()):
        return m.Override(clause_id, because, choose=draw(names), because_zh=because_zh)
    return m.Override(clause_id, because, replacement=draw(clauses(clause_id)), because_zh=because_zh)


@st.composite
def rulesets(draw):
    title = draw(opt_text)
    return m.Ruleset(draw(names), draw(st.none() | names), title, draw(opt_text), draw(_tuple(clauses(), 3)),
                     draw(_tuple(overrides(), 2)), title_zh=None if title is None else draw(opt_text))


rulesets = rulesets()


@given(rulesets)
def test_format_then_parse_gives_the_same_model(rs):
    text = format_ruleset(rs)
    assert parse(text) == rs
    assert format_text(text) == text


# what a comment may hold: no control character, lone surrogate or bidi override (refused as in strings)
COMMENT_TEXT = st.text(st.characters(exclude_categories=("Cs", "Cc"),
                                     exclude_characters="\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"),
                       max_size=10)


@given(rulesets, st.data())
def test_comments_are_kept_and_formatting_is_idempotent(rs, data):
    lines = format_ruleset(rs).split("\n")[:-1]
    inserted = []
    out = []
    for line in lines:
        if data.draw(st.integers(0, 3)) == 0:
            c = "#" + data.draw(COMMENT_TEXT)
            inserted.append(c.rstrip())
            out.append(" " * data.draw(st.integers(0, 4)) + c)
        if data.draw(st.integers(0, 4)) == 0:
            out.append(data.draw(st.sampled_from(["", "  ", "\t"])))
        if data.draw(st.integers(0, 3)) == 0:
            c = "#" + data.draw(COMMENT_TEXT)
            inserted.append(c.rstrip())
            line += " " + c
        out.append(line)
    if data.draw(st.booleans()):
        c = "# after " + data.draw(COMMENT_TEXT)
        inserted.append(c.rstrip())
        out.append(c)
    text = "\n".join(out) + "\n"
    once = format_text(text)
    assert parse(once) == rs
    assert format_text(once) == once
    for c in inserted:
        assert c in once


# --- layout, by example -----------------------------------------------------------

MESSY = '''# header one
# header two
ruleset r extends base {   # the ruleset
  document "003"
  title "T"
  override z choose b because "why"
  # above a
  clause a {
    choose x
    reading y "Y" { set q = 2 says "ys" }
    set p = 1   # trailing p
    zh "中"
    says "S"
    # above status

    status interpreted
    alternative "alt"
    reason "R"
    cites 003:1,
      003:2
    term "T"
    reading x "X" {}
  }
  clause b {}
  override c {
    cites 003:3
  } because "c"
  # closing
}
# trailer
'''

MESSY_FORMATTED = '''# header one
# header two

ruleset r extends base {  # the ruleset
  title "T"
  document "003"

  # above a
  clause a {
    cites 003:1, 003:2
    # above status

    status interpreted
    term "T"
    says "S"
    zh "中"
    reason "R"
    alternative "alt"
    set p = 1  # trailing p
    reading y "Y" {
      says "ys"
      set q = 2
    }
    reading x "X" {}
    choose x
  }

  clause b {}

  override z choose b because "why"

  override c {
    cites 003:3
  } because "c"

  # closing
}
# trailer
'''


def test_canonical_layout():
    assert format_text(MESSY) == MESSY_FORMATTED
    assert format_text(MESSY_FORMATTED) == MESSY_FORMATTED
    assert parse(MESSY_FORMATTED) == parse(MESSY)


def test_format_ruleset_has_no_comments():
    assert "#" not in format_ruleset(parse(MESSY))


def test_comment_inside_a_value_moves_to_the_next_item():
    text = 'ruleset r {\n  clause a {\n    set x = [1,\n      # inside\n      2]\n    set y = 3\n  }\n}\n'
    assert format_text(text) == ('ruleset r {\n  clause a {\n    set x = [1, 2]\n    # inside\n'
                                 '    set y = 3\n  }\n}\n')


def test_empty_ruleset():
    assert format_text("ruleset   r{}") == "ruleset r {\n}\n"
    assert format_text("ruleset r {} # c") == "ruleset r {\n}\n# c\n"


def test_collect_comments_keys():
    c = collect_comments(MESSY)
    assert c.header == ["# header one", "# header two"]
    assert c.trailing[("ruleset",)] == ["# the ruleset"]
    assert c.leading[("clause", 0)] == ["# above a"]
    assert c.leading[("clause", 0, "status")] == ["# above status", ""]
    assert c.trailing[("clause", 0, "rule", 0)] == ["# trailing p"]
    assert c.closing == ["# closing"]
    assert c.trailer == ["# trailer"]


@pytest.mark.parametrize("source, canonical", [
    ("1 + 2 + 3", "1 + 2 + 3"),
    ("1 + (2 + 3)", "1 + (2 + 3)"),
    ("(1 - 2) - 3", "1 - 2 - 3"),
    ("1 - (2 - 3)", "1 - (2 - 3)"),
    ("(1 + 2) * 3", "(1 + 2) * 3"),
    ("1 * (2 * 3)", "1 * (2 * 3)"),
    ("2 ^ 3 ^ 2", "2 ^ 3 ^ 2"),
    ("(2 ^ 3) ^ 2", "(2 ^ 3) ^ 2"),
    ("(2 * 3) ^ 2", "(2 * 3) ^ 2"),
    ("2 ^ (cards - 1)", "2 ^ (cards - 1)"),
    ("2 * 3 ^ 2", "2 * 3 ^ 2"),
    ("-2 ^ 2", "(-2) ^ 2"),
    ("3 - -5", "3 - (-5)"),
    ("((cards))", "cards"),
    ("[1, -2, (3), x,]", "[1, -2, 3, x]"),
    ("{a: 1, 5: [], k: {}}", "{ a: 1, 5: [], k: {} }"),
])
def test_formula_text(source, canonical):
    rs = parse(f"ruleset r {{ clause a {{ set x = {source} }} }}")
    value = rs.clauses[0].rules[0].value
    assert value_text(value) == canonical
    again = parse(f"ruleset r {{ clause a {{ set x = {canonical} }} }}")
    assert again.clauses[0].rules[0].value == value


def test_band_text_with_negative_levels_parses_back():
    band = m.Band(-10, None, "banker", -1, 5)
    assert band_text(band) == "band -10.. -> banker -1 step 5"
    rs = parse("ruleset r { clause a { " + band_text(band) + " } }")
    assert rs.clauses[0].rules[0] == band


def test_shape_with_arguments_keeps_them():
    rs = parse("ruleset r { clause a { follow foo(bar, 2): 2 baz(pair, 3) + single } }")
    assert "follow foo(bar, 2): 2 baz(pair, 3) + single" in format_ruleset(rs)


# --- the bundled spec files ----------------------------------------------------------

SPEC_FILES = spec_files()


@pytest.mark.parametrize("path", SPEC_FILES, ids=lambda p: p.name)
def test_spec_file_format_is_idempotent_and_keeps_meaning(path):
    text = path.read_text(encoding="utf-8")
    once = format_text(text, str(path))
    assert format_text(once, str(path)) == once
    assert parse(once, str(path)) == parse(text, str(path))
    assert _all_comments(collect_comments(once)) == _all_comments(collect_comments(text))


def _all_comments(c) -> list[str]:
    out = c.header + c.closing + c.trailer
    for block in list(c.leading.values()) + list(c.trailing.values()):
        out += block
    return sorted(x for x in out if x)


def test_spec_003_is_formatted():
    path = next(p for p in SPEC_FILES if p.name == "003.tractor")
    text = path.read_text(encoding="utf-8")
    assert format_text(text, str(path)) == text


@pytest.mark.parametrize("path", SPEC_FILES, ids=lambda p: p.name)
def test_fmt_check_passes_on_spec(path, capsys):
    assert main(["fmt", "--check", str(path)]) == 0, (
        f"{path} is not in the canonical layout: run `tractor fmt {path}`\n" + capsys.readouterr().out)
