"""The rulebook's alternatives and the runner's feature values use the same names: every value the runner
can report for a setting an interpreted clause decides is named by the rulebook (a reading, or an
alternative written ``setting = value``), and every ``setting = value`` an alternative names is one the
runner can report (a field of a record setting as ``setting.field = value``). An alternative the runner
cannot report says so, with its reason, in both languages ("Not a runner alternative: ...", "非运行器的其他解读：
..."): no alternative of a bundled rulebook is left as free text naming nothing (issue 22, point 3)."""
from __future__ import annotations

import re

import pytest

from conformance.generation.alternatives import alternatives
from conformance.generation.features import value_text
from reference_impl.rules import rules_for
from tractor_dsl import model as m
from tractor_dsl.schema import PARAMS_BY_NAME
from tractor_dsl.types import BoolType, EnumType, OptionalType
from tractor_dsl.vocabulary import CONSEQUENCES

NAMED = re.compile(r"(?<![\w.])([a-z_]+\.[a-z_0-9]+) = (\[[a-z_0-9, ]+\]|[a-z_0-9]+\b)")   # a value or a flat list
FIELD_NAMED = re.compile(r"(?<![\w.])([a-z_]+\.[a-z_0-9]+)\.([a-z_0-9]+) = ([a-z_0-9]+)\b")   # setting.field = value
NOT_RUNNER = re.compile(r"Not a runner alternative: (\S.{10,})")
NOT_RUNNER_ZH = re.compile(r"非运行器的其他解读：(\S.{5,})")
BASES = ("r000", "r001", "r003")


def _enum_like(path: str) -> bool:
    t = PARAMS_BY_NAME[path].type
    t = t.inner if isinstance(t, OptionalType) else t
    return isinstance(t, (EnumType, BoolType))


def _runner_values(rules) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for a in alternatives(rules):
        if a.feature in PARAMS_BY_NAME and a.feature in a.changes:
            out.setdefault(a.feature, set()).add(value_text(a.changes[a.feature]))
    return out


def _runner_fields(rules) -> dict[str, set[str]]:
    """``setting.field`` -> the values the runner reports for one field of a record setting (an alternative
    whose record differs from the spec's in that field alone)."""
    out: dict[str, set[str]] = {}
    for a in alternatives(rules):
        new, old = a.changes.get(a.feature), rules.get(a.feature)
        if a.feature in PARAMS_BY_NAME and isinstance(new, dict) and isinstance(old, dict):
            differ = [k for k in new if new[k] != old.get(k)]
            if len(differ) == 1:
                out.setdefault(f"{a.feature}.{differ[0]}", set()).add(value_text(new[differ[0]]))
    return out


def _rulebook_values(clause) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for r in clause.readings:
        for rule in r.rules:
            if isinstance(rule, m.Setting) and rule.path in PARAMS_BY_NAME and _enum_like(rule.path):
                out.setdefault(rule.path, set()).add(value_text(PARAMS_BY_NAME[rule.path].type.convert(rule.value)))
    for text in clause.alternatives:
        for path, value in NAMED.findall(text):
            out.setdefault(path, set()).add(value)
    return out


@pytest.mark.parametrize("name", BASES)
def test_the_rulebook_names_every_value_the_runner_reports_for_an_interpreted_clause(name):
    rules = rules_for(name)
    runner = _runner_values(rules)
    unnamed = []
    for clause in rules.checked.clauses:
        if not clause.readings:
            continue
        book = _rulebook_values(clause)
        for path, values in book.items():
            if set(PARAMS_BY_NAME[path].type.choices if isinstance(PARAMS_BY_NAME[path].type, EnumType) else ()) \
                    <= set(CONSEQUENCES):
                continue        # a consequence: every one is defined in words (docs/protocol.md, the export)
            extra = runner.get(path, set()) - values
            unnamed += [f"{clause.id}: {path} = {v}" for v in sorted(extra)]
    assert unnamed == []


@pytest.mark.parametrize("name", BASES)
def test_every_value_an_alternative_names_is_one_the_runner_reports(name):
    rules = rules_for(name)
    runner = _runner_values(rules)
    named = [(c.id, path, value) for c in rules.checked.clauses for text in c.alternatives
             for path, value in NAMED.findall(text)]
    for cid, path, value in named:
        assert path in PARAMS_BY_NAME, (cid, path)
        assert value in runner.get(path, set()), f"{cid}: the runner never reports {path} = {value}"
    if name != "r001":
        assert named, "the bundled rulebooks name alternatives by their values"


@pytest.mark.parametrize("name", BASES)
def test_every_field_an_alternative_names_is_one_the_runner_reports(name):
    rules = rules_for(name)
    runner = _runner_fields(rules)
    named = [(c.id, f"{p}.{f}", v) for c in rules.checked.clauses for text in c.alternatives
             for p, f, v in FIELD_NAMED.findall(text)]
    for cid, path, value in named:
        assert value in runner.get(path, set()), f"{cid}: the runner never reports {path} = {value}"
    if name != "r003":
        assert named


def _classified(text: str) -> str | None:
    if FIELD_NAMED.search(text) or NAMED.search(text):
        return "named"
    if NOT_RUNNER.search(text):
        return "not a runner alternative"
    return None


@pytest.mark.parametrize("name", BASES)
def test_no_alternative_of_the_rulebook_is_left_unclassified(name):
    """Every alternative names a setting (or field) and value, or says it is not a runner alternative and
    why, in English and in Chinese alike (the Chinese text stays Chinese: the reason is written in it)."""
    rules = rules_for(name)
    free, marked = [], 0
    for clause in rules.checked.clauses:
        for en, zh in zip(clause.alternatives, clause.alternatives_zh):
            kind = _classified(en)
            if kind is None:
                free.append(f"{clause.id}: {en}")
                continue
            assert zh is not None, f"{clause.id}: an alternative with no Chinese text: {en}"
            if kind == "named":    # the Chinese text names the same settings
                assert sorted(NAMED.findall(zh) + FIELD_NAMED.findall(zh)) == \
                    sorted(NAMED.findall(en) + FIELD_NAMED.findall(en)), (clause.id, en, zh)
            else:
                marked += 1
                reason = NOT_RUNNER_ZH.search(zh)
                assert reason, f"{clause.id}: the Chinese text does not say it is not a runner alternative: {zh}"
                assert re.search(r"[\u4e00-\u9fff]", reason.group(1)), (clause.id, zh)
    assert free == [], "alternatives naming no setting = value and not marked as not runner alternatives"
    assert marked > 0


def test_the_suit_order_of_off_suit_level_cards_is_a_runner_alternative():
    """The off-suit level cards ranked by suit (H32), once an alternative the rule language could not state, is named by
    its setting and value in both languages, and the runner reports that value (the generator offers it)."""
    for name in BASES:
        rules = rules_for(name)
        clause = rules.checked.clause("trump.order")
        suit_order = [(a, z) for a, z in zip(clause.alternatives, clause.alternatives_zh) if "(H32)" in a]
        assert len(suit_order) == 1 and not NOT_RUNNER.search(suit_order[0][0])
        (en, zh), = suit_order
        assert NAMED.findall(en) == NAMED.findall(zh) == [("trump.off_suit_order", "[spades, hearts, diamonds, clubs]")]
        assert "[spades, hearts, diamonds, clubs]" in _runner_values(rules)["trump.off_suit_order"]
