"""``tractor play`` (reinforcements, the last line) and ``tractor show --zh`` (wrapped, CJK-aware)."""
from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from reference_impl.rules import rules_for
from tractor_cli.main import main


@pytest.fixture(autouse=True)
def _plain(monkeypatch):
    monkeypatch.delenv("FORCE_COLOR", raising=False)


def _play(capsys, *argv) -> str:
    assert main(["play", *argv]) == 0
    return capsys.readouterr().out


def test_a_reinforcement_says_so(capsys):
    out = _play(capsys, "r003", "--seed", "1", "--max-hands", "1")
    hand = out.split("  buried:")[0]
    # 003:6.2: the declarer reinforces his declaration with more copies of the same card (加固)
    assert re.search(r"seat (\d) overcalls \(反主\) with 2♠ 2♠\n  seat \1 reinforces \(加固\) with 2♠: now 2♠ 2♠ 2♠",
                     hand), hand
    for seed in range(1, 6):
        lines = [x for x in _play(capsys, "r003", "--seed", str(seed), "--max-hands", "2").splitlines()
                 if " declares " in x or "(加固)" in x or "(反主)" in x]
        assert all(a != b for a, b in zip(lines, lines[1:])), lines


def _after(rules, hand_line: str, result_line: str) -> dict[int, str]:
    """The levels after a hand, from its two printed lines (the table's ranks, 003:3.2)."""
    m = re.search(r"levels team0 (\w+) / team1 (\w+); banker seat \d \(team (\d)\)", hand_line)
    levels, banker_team = {0: m.group(1), 1: m.group(2)}, int(m.group(3))
    side, gain = re.search(r"; (banker|attackers) \+(\d)$", result_line).groups()
    team = banker_team if side == "banker" else 1 - banker_team
    ranks = list(rules["level.ranks"])
    levels[team] = ranks[min(ranks.index(levels[team]) + int(gain), len(ranks) - 1)]
    return levels


def test_the_last_line_shows_the_levels_after_the_last_hand(capsys):
    for seed in (1, 2, 3):
        lines = _play(capsys, "r000", "--seed", str(seed), "--max-hands", "2", "--brief").splitlines()
        hand, result, last = lines[-3], lines[-2], lines[-1]
        if "wins" in last:
            continue
        after = _after(rules_for("r000"), hand, result)
        assert last.endswith(f"final levels team0 {after[0]} / team1 {after[1]} =="), (hand, result, last)


def test_a_won_game_says_who_passed_which_level(capsys):
    last = _play(capsys, "r003", "--seed", "1", "--brief").splitlines()[-1]
    # 003:3.2: the first team to pass A wins
    m = re.match(r"== team (\d) wins: at (\w+) it gained (\d) level\(s\) as (the banker side|the attackers) in hand "
                 r"\d+ and passed A, the end level \(level\.progression\); final levels team0 (.+) / team1 (.+) ==$",
                 last)
    assert m, last
    assert (m.group(5), m.group(6))[int(m.group(1))] == "past A"


def test_show_zh_wraps_chinese_to_the_width(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "50")
    assert main(["show", "r003", "--zh"]) == 0
    out = capsys.readouterr().out
    zh_lines = [x for x in out.splitlines()   # the statements and reasons (not the clause headings, not rules)
                if re.search(r"[\u4e00-\u9fff]", x) and x.startswith("    ") and not x.startswith("      ")]
    assert zh_lines
    assert max(cell_len(x) for x in zh_lines) <= 50   # a Chinese character is two columns wide
    long = next(c.zh for c in rules_for("r003").checked.clauses if c.zh and cell_len(c.zh) > 60)
    assert long not in out and long[:8] in out       # wrapped, not cut
    # no line starts with closing punctuation (禁则): a comma or a full stop hangs at the end of the line before
    starts = [x.strip()[:1] for x in zh_lines]
    assert not [c for c in starts if c in "，。、；：？！）」』”"], [x for x in zh_lines if x.strip()[:1] in "，。、；："]


def test_show_zh_gives_the_chinese_of_every_text(monkeypatch, capsys):
    """With --zh a reader gets the Chinese title, each reading, each alternative and the override's reason."""
    monkeypatch.setenv("COLUMNS", "400")     # one line per text: each can be found whole
    assert main(["show", "r003_capped", "--zh"]) == 0
    out = capsys.readouterr().out
    rs = rules_for("r003_capped").checked
    assert f"r003_capped：{rs.title_zh}" in out and "三副牌" in rs.title_zh
    clause = rs.clause("score.table")
    assert [r.description_zh for r in clause.readings if r.description_zh and r.description_zh not in out] == []
    assert rs.overrides["score.table"].because_zh in out
    alts = [a for c in rs.clauses for a in c.alternatives_zh if a]
    assert alts and all(a in out for a in alts)
    assert main(["show", "r003_capped"]) == 0
    assert rs.title_zh not in capsys.readouterr().out      # English only without --zh


def test_a_hand_nobody_declares_under_h01_is_shown_without_a_trump_suit(capsys):
    """H01 (spec/house_rules.tsv): nobody declaring, the hand is played without a trump suit; the brief view
    printed 'internal error' for such a hand (its trump is no_trump, not a suit)."""
    out = _play(capsys, "h01_no_declaration_no_trump", "--seed", "3", "--brief")
    assert re.search(r"level \S+, trump none", out), out
