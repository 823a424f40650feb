"""Bounds by construction in rule files (issue 20): every kitty multiplier is proved, at every card
count the ruleset allows, to be a whole number from 0 to 2^40 whose every part stays within 2^53;
exponents are bounded and a negative one (a fraction) is refused; the interpreter never computes an
unbounded value. Every problem is a positioned diagnostic."""
from __future__ import annotations

import pytest

from .dsl_support import check, locate, minimal, problems, settings
from tractor_dsl import limits
from tractor_dsl.types import Formula, FormulaError


def multiplier(tractor: str, **more: str) -> str:
    rows = {"single": "2", "pair": "4", "tractor": tractor, "throw": "cards", **more}
    table = ", ".join(f"{k}: {v}" for k, v in rows.items())
    return minimal(values=settings(**{"kitty.multiplier": f"{{ trump: {{ {table} }}, side: {{ {table} }} }}"}))


def only(lib, code):
    found = [d for d in problems(lib) if d.code == code]
    assert found, [d.headline() for d in problems(lib)]
    return found[0]


@pytest.mark.parametrize("formula, code, words", [
    ("9 ^ 9 ^ 9 ^ 9", "E211", "an exponent is at most 63"),
    ("2 ^ 100000000", "E211", "an exponent is at most 63"),
    ("2 ^ (0 - 1)", "E211", "negative exponent -1"),
    ("3 ^ 40 * 3 ^ 40", "E211", "stay within"),
    ("0 - cards", "E212", "is -3 for cards = 3"),  # no triple row: a triple reads the tractor row
    ("cards - 5", "E212", "is -2 for cards = 3"),
    ("2 ^ (cards + 30)", "E212", "for cards = 11"),
    ("cards - 2 * pairs - 1", "E212", "is -1 for cards = 4 (at some count of pairs)"),  # two pairs in 4 cards
    ("2 ^ (pairs * 8)", "E212", "for cards = 12 (at some count of pairs)"),        # 2^40 at 5 pairs, 2^48 at 6
])
def test_an_unbounded_or_impossible_multiplier_is_a_positioned_error(formula, code, words):
    text = multiplier(formula)
    d = only(check(text), code)
    assert words in d.message and "kitty.multiplier.trump.tractor" in d.message
    assert (d.span.line, d.span.column) >= locate(text, formula)  # at the formula (or a part of it)
    assert d.span.line == locate(text, formula)[0]


def test_every_card_count_a_row_is_read_at_is_proved():
    # 60 - 4 * cards is 0 at 15 cards, negative from 16: a hand of 25 reaches it, a hand of 15 does not
    assert only(check(multiplier("60 - 4 * cards")), "E212").message.startswith(
        "kitty.multiplier.trump.tractor = 60 - (4 * cards) is -4 for cards = 16")
    # a throw row is read from 2 cards up, a pair row at 2 only
    assert only(check(multiplier("cards", throw="cards - 3")), "E212").message.split(" is ")[1].startswith(
        "-1 for cards = 2")
    assert not [d for d in problems(check(multiplier("cards", pair="10 - 4 * 2"))) if d.code.startswith("E21")]
    # with no throw row a throw is valued by the tractor row, from 2 cards up
    no_throw = multiplier("cards - 3").replace(", throw: cards", "")
    assert "is -1 for cards = 2" in only(check(no_throw), "E212").message


def test_a_formula_over_pairs_is_proved_at_every_pair_count_a_unit_may_hold():
    # cards - 2 * pairs is never negative: a unit of n cards holds at most n // 2 pairs
    assert not [d for d in problems(check(multiplier("cards - 2 * pairs", throw="cards - 2 * pairs")))
                if d.code in ("E211", "E212")]
    # x2 x 2^pairs (H25) stays within the bounds for a hand of 25: at most 12 pairs, 2^13
    assert not [d for d in problems(check(multiplier("2 * 2 ^ pairs", pair="2 * 2 ^ pairs")))
                if d.code in ("E211", "E212")]
    # 1 - pairs is refused: a pair row holds one pair, so 0 is fine, but a tractor of 4 cards holds two
    assert "is -1 for cards = 4 (at some count of pairs)" in only(check(multiplier("1 - pairs")), "E212").message
    f = Formula("^", 0, Formula("const", 2), Formula("pairs"))
    assert str(f) == "2 ^ pairs" and (f(4, 0), f(4, 2)) == (1, 4) and f.uses_pairs
    assert not Formula("cards").uses_pairs


def test_bounded_formulas_the_bundled_rules_use_are_accepted():
    for formula in ("2 ^ (cards - 1)", "3 * cards", "cards * cards", "(0 - 2) ^ 3 + 10", "1 ^ 100000000"):
        assert not [d for d in problems(check(multiplier(formula))) if d.code in ("E211", "E212")], formula


def test_a_number_past_the_digit_limit_is_refused_at_its_place():
    big = "1" + "0" * 60
    text = multiplier(big)
    d = only(check(text), "E015")
    assert (d.span.line, d.span.column) == locate(text, big)
    assert "61 digits" in d.message


def test_the_interpreter_refuses_before_it_computes():
    two, huge = Formula("const", 2), Formula("const", 10 ** 8)
    with pytest.raises(FormulaError, match="an exponent is at most 63"):
        Formula("^", 0, two, huge)(1)
    # 9 ^ (9 ^ 9): refused on the exponent's size, not computed (9 ^ 387420489 has 370 million digits)
    nine = Formula("const", 9)
    with pytest.raises(FormulaError):
        Formula("^", 0, nine, Formula("^", 0, nine, nine))(1)
    with pytest.raises(FormulaError, match="fraction"):
        Formula("^", 0, two, Formula("-", 0, Formula("const", 0), Formula("cards")))(3)
    # a product past 2^53 is refused; every value up to it is exact
    big = Formula("const", limits.FORMULA_MAGNITUDE)
    assert big(0) == 2 ** 53 and Formula("^", 0, two, Formula("const", 53))(0) == 2 ** 53
    with pytest.raises(FormulaError):
        Formula("*", 0, big, two)(0)
    with pytest.raises(FormulaError):
        Formula("^", 0, two, Formula("const", 54))(0)
    assert Formula("^", 0, Formula("const", -1), huge)(0) == 1 and Formula("^", 0, Formula("const", 0), huge)(0) == 0


def test_an_engine_given_such_a_file_refuses_it_at_once(tmp_path):
    import subprocess
    import sys
    from pathlib import Path
    f = tmp_path / "house.tractor"
    f.write_text(multiplier("9 ^ 9 ^ 9 ^ 9").replace("ruleset rmin", "ruleset house_bounds"), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "tractor_cli.main", "engine", "--rules", str(f), "--handshake"],
                          cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "error[E211]" in proc.stderr and f"{f}:" in proc.stderr
    assert proc.stdout == ""


def test_no_kitty_multiplier_alternative_is_one_the_checker_would_refuse():
    # 2 ^ cards is a fine tractor multiplier for three decks' hands (39 cards: at most 2^39) and beyond the
    # bounds for four decks' (52): the alternatives of V04 leave it out, those of r003 keep it; a mutant
    # engine built from it would answer errored ("internal error: FormulaError"), naming no finding
    from conformance.generation.alternatives import alternatives
    from reference_impl.rules import rules_for
    from tractor_dsl.checker import multiplier_counts, multiplier_problem

    def rows(name):
        rules = rules_for(name)
        hand = rules["equipment.hand_size"]
        out = []
        for a in alternatives(rules):
            if a.row is not None:
                table_name, cls, shape, new = a.row
                table = rules[table_name][cls] if cls else rules[table_name]
                out.append((cls, shape, str(new), multiplier_problem(new, multiplier_counts(table, hand)[shape])))
        return out
    four, three = rows("v04_four_decks"), rows("r003")
    assert four and all(problem is None for *_, problem in four)
    assert ("trump", "tractor", "2 ^ cards", None) in three
    assert not any(shape in ("tractor", "throw") and new == "2 ^ cards" for _, shape, new, _ in four)
    assert any(shape == "pair" and new == "2 ^ cards" for _, shape, new, _ in four)   # only the rows beyond
