"""The faces of the commands: every option has a help text, ``show --zh`` and ``explain --zh`` are Chinese
(outside cards and codes), Chinese wrapping never splits a number, a play or a bracket from what it opens, and
the counts printed say what was asked for."""
from __future__ import annotations

import argparse
import re

import pytest
from rich.cells import cell_len

from reference_impl.rules import ruleset_names, rules_for
from tractor_cli.main import build_parser, main
from tractor_cli.ui import wrap
from tractor_dsl.render import rule_text
from tractor_dsl.schema import PARAMS

# options another engineer's rework of the conform runner owns (tractor_cli/cmd_conform.py); named, not hidden


def _subcommands():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices.items()


def test_every_option_of_every_subcommand_has_a_help_text():
    missing = []
    for name, p in _subcommands():
        for action in p._actions:
            if isinstance(action, argparse._HelpAction) or action.help == argparse.SUPPRESS:
                continue
            key = (name, (action.option_strings or [action.dest])[-1])
            if not (action.help or "").strip():
                missing.append(key)
    assert missing == []
    assert len(list(_subcommands())) >= 12


def test_explain_usage_is_short():
    p = dict(_subcommands())["explain"]
    assert len(p.format_usage().strip().splitlines()) <= 3
    assert "--case ID" in p.format_usage() and "penalty" in p.format_usage()


def _codes(name: str) -> set[str]:
    """What may be Latin on a Chinese page: ids, setting names and values, reading names, rule lines."""
    rs = rules_for(name).checked
    words = {name, *rs.lineage, str(rs.document), "true", "false", "none"}
    for c in rs.clauses:
        words |= {c.id, *c.id.split("."), *(r.name for r in c.readings)}
    for path, value in rs.values.items():
        words |= {path, *path.split("."), *re.findall(r"[A-Za-z_]+", str(value))}
    for param in PARAMS:          # the settings and the values they can take are codes too (an alternative names
        t = getattr(param.type, "inner", param.type)   # them, set in the ruleset or not; a list's items too)
        t = getattr(t, "item", t)
        words |= {param.name, *param.name.split("."), *getattr(t, "choices", ())}
    return words


LATIN = re.compile(r"[A-Za-z0-9_]*[A-Za-z]{2,}[A-Za-z0-9_]*")
CARDS = re.compile(r"^[AKQJ2-9]+$")                  # card notation such as AA22, KKQQ


@pytest.mark.parametrize("name", sorted(ruleset_names()))
def test_show_zh_is_chinese_outside_cards_and_codes(monkeypatch, capsys, name):
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["show", name, "--zh"]) == 0
    out = capsys.readouterr().out
    rs = rules_for(name).checked
    rule_lines = {rule_text(r) for c in rs.clauses for r in list(c.rules) + [x for rd in c.readings for x in rd.rules]}
    allowed = _codes(name)
    english = []
    for line in out.splitlines():
        text = line.strip()
        if text in rule_lines or text.startswith("set ") or text.startswith("band "):
            continue          # a rule in the rule language: code
        english += [w for w in LATIN.findall(text) if w not in allowed and not CARDS.match(w)]
    assert english == [], sorted(set(english))[:20]
    assert rs.title_zh in out and "numbering" not in out and "[stated]" not in out and "[interpreted]" not in out


def test_explain_zh_is_chinese_outside_cards_and_codes(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "60")
    assert main(["explain", "r000", "winner", "--plays", "5C 5C", "6C 6C", "KC KC", "AC 2C", "--zh"]) == 0
    out = capsys.readouterr().out
    allowed = _codes("r000")
    words = [w for w in LATIN.findall(out) if w not in allowed]
    assert words == [] and rules_for("r000").checked.title_zh in out and "编号：" in out


@pytest.mark.parametrize("width", [16, 22, 30, 41])
def test_chinese_wrapping_keeps_numbers_plays_and_brackets_whole(width):
    text = ("问题：打2，第001条规定：首家出 2♣ 2♣ 3♣ 3♣，跟牌者持有 10♥ 10♥ J♥；（甲乙丙丁）如何跟？"
            "比分为120分（含底牌）。")
    lines = wrap(text, width)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")      # nothing lost
    for line in lines:
        assert cell_len(line) <= width or " " not in line
        assert not line.endswith("（") and not line[:1] in "，。；：）"
    joined = "\n".join(lines)
    for whole in ("001", "120", "2♣ 2♣ 3♣ 3♣", "10♥ 10♥ J♥"):
        assert whole in joined, (whole, lines)


def test_a_hand_wider_than_the_line_breaks_between_cards_only():
    lines = wrap("持有 " + " ".join(["10♥"] * 12), 20)
    assert all(re.fullmatch(r"(持有 )?(10♥ ?)+", x) for x in lines) and all(cell_len(x) <= 20 for x in lines)


def test_play_prints_a_tally_of_several_games(capsys):
    assert main(["play", "r000", "--games", "2", "--brief", "--jobs", "1"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    m = re.fullmatch(r"== r000: 2 games: team0 won (\d), team1 won (\d)(, (\d) without a winner)?; \d+ hands in all ==",
                     last)
    assert m and int(m.group(1)) + int(m.group(2)) + int(m.group(4) or 0) == 2


def test_impact_says_what_was_played(capsys):
    from tractor_play.impact.report import played, plural
    assert played({"hands": 20, "games": 1}) == "20 hands and 1 game"
    assert plural(1, "feature") == "1 feature" and plural(2, "game") == "2 games"
