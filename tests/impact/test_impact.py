"""tractor impact: intervals, journals re-asked, attribution of divergences, and the command."""
import json
import math
import random

import pytest

from tractor_play.impact.questions import Attributor, Divergence, ask, differing_features, first_divergence, same
from tractor_play.impact.run import run_impact
from tractor_play.impact.stats import Moments, wilson
from tractor_play.players import make_players
from reference_impl.cards import parse_cards
from reference_impl.hand import play_hand
from reference_impl.rules import rules_for
from tractor_cli.main import main


def test_wilson_interval_matches_the_textbook_values():
    # Newcombe (1998), Table I: 0/10 -> 0 to 0.2775; 5/10 -> 0.2366 to 0.7634 (Wilson score, 95 %)
    e = wilson(0, 10)
    assert e.value == 0 and e.low == 0 and math.isclose(e.high, 0.2775, abs_tol=5e-5)
    e = wilson(5, 10)
    assert math.isclose(e.low, 0.2366, abs_tol=5e-5) and math.isclose(e.high, 0.7634, abs_tol=5e-5)
    assert wilson(0, 0).value is None


def test_mean_interval_is_the_normal_approximation():
    m = Moments()
    for x in (1, 2, 3, 4):
        m.add(x)
    e = m.estimate()
    s = math.sqrt(sum((x - 2.5) ** 2 for x in (1, 2, 3, 4)) / 3)
    assert e.value == 2.5 and math.isclose(e.high - e.value, 1.959963984540054 * s / 2)


def _journal(name, seed):
    journal = []
    rules = rules_for(name)
    start = rules["level.start"]
    play_hand(rules, random.Random(seed), 2, {0: start, 1: start}, banker=seed % 4,
              players=make_players("heuristic", seed), journal=journal)
    return journal


@pytest.mark.parametrize("name", ["r000", "r001"])
def test_every_recorded_judgment_is_answered_again_the_same(name):
    rules = rules_for(name)
    journal = _journal(name, 3)
    kinds = {k for k, _, _ in journal}
    assert {"context", "leads", "lead", "follows", "trick", "kitty", "result"} <= kinds
    for kind, question, answer in journal:
        assert same(kind, ask(rules, kind, question), answer), (kind, question)


def test_the_same_ruleset_never_diverges_from_itself():
    assert first_divergence(_journal("r003", 4), _journal("r003", 4)) is None


def test_a_completed_follow_list_decides_the_divergence():
    """001:9b as printed lists no 'pair + two singles' for a two-pair tractor (r001_literal); r001 completes it
    (12.1: 有对不出对 is a revoke). A follower holding one heart pair may discard four singles under
    r001_literal, but not under r001."""
    ra, rb = rules_for("r001_literal"), rules_for("r001")
    question = ("9", "S", tuple(parse_cards("5H 5H 6H 6H")), tuple(sorted(parse_cards("8H 8H 3H 4H 10H QH JS"))))
    a, b = ask(ra, "follows", question), ask(rb, "follows", question)
    assert not same("follows", a, b)
    assert tuple(sorted(parse_cards("3H 4H 10H QH"))) in set(a) and tuple(sorted(parse_cards("3H 4H 10H QH"))) not in set(b)
    deciders = Attributor(ra, rb).attribute(Divergence(0, "follows", question, a, b))
    assert deciders and all(k.startswith("follow ") for k in deciders)
    assert set(deciders) <= set(differing_features(ra, rb))


def test_a_run_reports_every_figure_with_its_interval():
    data = run_impact(["r001", "r001_literal", "r000"], hands=10, seed=2, games=1, max_hands=40, jobs=1)
    for n in ("r001", "r001_literal", "r000"):
        fig = data["per_ruleset"][n]
        for key in ("bank_held", "kitty_captures", "hands_with_failed_throw", "games_finished"):
            assert fig[key]["kind"] == "proportion" and fig[key]["n"] > 0
        assert fig["attackers_points"]["low"] <= fig["attackers_points"]["value"] <= fig["attackers_points"]["high"]
    pairs = {(p["a"], p["b"]): p for p in data["pairs"]}
    assert not pairs[("r001", "r000")]["comparable"] and "different packs" in pairs[("r001", "r000")]["reason"]
    p = pairs[("r001", "r001_literal")]
    assert p["comparable"] and p["features_differing"]
    assert p["result_differs"]["value"] <= p["judgment_differs"]["value"]   # a result differs only after a judgment
    assert p["play_differs"]["value"] <= p["judgment_differs"]["value"]
    assert sum(p["first_divergence"].values()) == p["judgment_differs"]["count"]


def test_the_command_writes_json_and_plots(tmp_path, capsys):
    out = tmp_path / "impact.json"
    assert main(["impact", "r000", "r000_no_bridge", "--hands", "6", "--games", "1", "--max-hands", "30",
                 "--jobs", "1", "--quiet", "--json", str(out), "--plots", str(tmp_path / "plots")]) == 0
    data = json.loads(out.read_text())
    assert data["command"].startswith("tractor impact r000 r000_no_bridge --hands 6 --seed 1 --json")
    for stem in ("attackers_points", "rulesets", "pairs"):
        for ext in ("svg", "png"):
            assert (tmp_path / "plots" / f"{stem}.{ext}").stat().st_size > 0
    printed = capsys.readouterr().out
    assert "r000 vs r000_no_bridge" in printed and "Reproduce:" in printed


def test_the_command_refuses_bad_input(capsys):
    assert main(["impact", "r000"]) == 2
    assert "two or more" in capsys.readouterr().err
    assert main(["impact", "r000", "r000", "--hands", "1", "--quiet"]) == 2
    assert "named twice" in capsys.readouterr().err
    assert main(["impact", "r000", "nope", "--hands", "1", "--quiet"]) != 0


def test_a_captured_kitty_carries_points_so_kitty_rules_show_in_play():
    """Players bury points as players do (voiding a short suit, 扣分), so a captured kitty is sometimes worth
    something and a kitty multiplier (000:2.14) can change a hand; a banker that never buried a point made
    every kitty rule look irrelevant."""
    data = run_impact(["r000", "r000_no_bridge"], hands=80, seed=3, games=0, jobs=1)
    fig = data["per_ruleset"]["r000"]
    assert fig["kitty_captures"]["count"] > 0
    assert fig["kitty_value"]["value"] > 0


def test_the_terminal_tables_show_every_figure_whole_on_a_narrow_terminal():
    """On 80 columns the per-ruleset figures are split into tables that fit, never wrapped inside a figure;
    the pairs with different packs are listed once per reason."""
    import io
    import json
    from pathlib import Path
    from rich.console import Console
    from tractor_play.impact.report import RULESET_ROWS, fmt, print_tables
    data = json.loads((Path(__file__).resolve().parents[2] / "docs" / "impact" / "impact.json").read_text())
    out = io.StringIO()
    print_tables(data, Console(file=out, width=80))
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    for n in data["rulesets"]:
        for key, _, kind in RULESET_ROWS:
            assert fmt(data["per_ruleset"][n][key], kind) in text, (n, key)
    apart = [p for p in data["pairs"] if not p["comparable"]]
    assert apart and text.count("not compared hand by hand") == len({p["reason"] for p in apart})


KITTY_FLAT = '''ruleset kitty_flat extends r000 {
  title "r000 with a flat kitty x2" "000号规则，抠底一律×2"
  override kitty.capture {
    cites 000:2.14
    status stated
    says "The attackers' kitty points count double, whatever wins the last trick."
    zh "闲家抠底，底分一律×2。"
    set kitty.capturers = attackers
    set kitty.trump_only = false
    set kitty.multiplier = { trump: { single: 2, pair: 2, triple: 2, tractor: 2, throw: 2 }, side: { single: 2, pair: 2, triple: 2, tractor: 2, throw: 2 } }
    set kitty.banker_multiplier = none
    set kitty.multi_unit = whole_play
  } because "a house rule" "俱乐部规则"
}
'''


def test_an_organisers_house_rule_is_measured_under_its_own_name(tmp_path):
    """A house kitty rule (a flat x2 instead of 000:2.14's x2/x4 by the last trick's shape) from a user's file:
    the figures carry its name, the file is kept, and the kitty multiplier decides the hands that differ."""
    house = tmp_path / "kitty_flat.tractor"
    house.write_text(KITTY_FLAT, encoding="utf-8")
    data = run_impact(["r000", str(house)], hands=300, seed=1, games=0, jobs=1)
    assert data["rulesets"] == ["r000", "kitty_flat"]
    assert data["per_ruleset"]["kitty_flat"]["file"] == str(house) and "file" not in data["per_ruleset"]["r000"]
    assert str(house) in data["command"]
    pair = data["pairs"][0]
    assert (pair["a"], pair["b"]) == ("r000", "kitty_flat") and pair["judgment_differs"]["count"] > 0
    decided = {a["feature"]: a["decided"]["count"] for a in pair["attribution"]}
    assert decided["kitty.multiplier"] == pair["judgment_differs"]["count"]
