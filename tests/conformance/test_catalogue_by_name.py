"""The house-rule catalogue (spec/variants/) is found by name by every command, as docs/language.rst says,
and a conform run of any catalogue file generates its cases without the reference refusing its own positions."""
from __future__ import annotations

import json

import pytest

from conformance.protocol.engine import judge
from reference_impl.rules import catalogue_names, library_file, load_file, rules_for

from .conftest import REFERENCE, cli

V06 = {"level": "5", "trump": "S", "leader": 0, "plays": [["5H"], ["4S"], ["6H"], ["7H"]]}


def test_a_request_may_name_a_catalogue_ruleset():
    """V06 (VARIANTS.md: the level cards stay in their suits): at level 5 with spades trump, the heart 5 led is a
    heart, and the spade 4 ruffs it; under 000 (000:2.10, the level cards are trump) the 5 of hearts wins."""
    assert judge("winner", "v06_jokers_only", V06)[0]["winner"] == 1
    assert judge("winner", "r000", V06)[0]["winner"] == 0


def test_explain_finds_a_catalogue_ruleset_by_name():
    r = cli("explain", "v06_jokers_only", "winner", "--plays", "5H", "4S", "6H", "7H", "--level", "5", "--trump", "S")
    assert r.returncode == 0, r.stderr
    assert "seat 1 wins" in r.stdout


def test_a_catalogue_file_given_by_its_path_is_the_librarys_ruleset():
    """Read alone, the file would find nothing it extends (E504 'extends unknown ruleset r003')."""
    path = library_file("v75_suit_precedence")
    assert load_file(path) is rules_for("v75_suit_precedence")
    hs = json.loads(cli("engine", "--rules", path, "--handshake").stdout)["result"]
    assert "v75_suit_precedence" in hs["rulesets"]


def test_mutate_takes_a_catalogue_ruleset_by_name():
    """`tractor mutate v82_redeal_poor_hands` used to answer "unknown ruleset"; its mutants now include those of
    the clause V82 adds (deal.redeal), and the default run kills every one that is not equivalent."""
    r = cli("mutate", "v82_redeal_poor_hands", "--stages", "default", "--jobs", "1", timeout=600)
    assert r.returncode == 0, r.stderr
    assert any(line.split()[:1] == ["deal.redeal"] for line in r.stdout.splitlines())
    row = next(line.split() for line in r.stdout.splitlines() if line.startswith("default "))
    assert int(row[4]) == 0 and row[5] == "100.0%", row   # survivors, kill rate


def test_the_handshake_still_lists_the_bundled_rulesets_only():
    """Found by name, but not bundled: a run with no --ruleset stays on the rulebooks (docs/language.rst)."""
    hs = json.loads(cli("engine", "--handshake").stdout)["result"]
    assert not set(hs["rulesets"]) & set(catalogue_names())


def test_no_score_band_edge_is_beyond_what_a_hand_can_give():
    """V42 (no throw penalty): 20 packs' worth of points (6,000) is no score a hand of three decks can reach,
    and the engine refuses it; the score table's edges stay within the bound."""
    from conformance.generation.positions.table import edge_points
    from reference_impl.domains import points_bound
    rules = rules_for("v42_no_throw_penalty")
    assert 6000 > points_bound(rules) and 6000 not in edge_points(rules)
    for name in ("r000", "r003"):
        assert 20 * 100 * rules_for(name).decks in edge_points(rules_for(name))   # the bundled edges stay


def test_a_dealt_hand_leaves_the_removed_cards_out():
    """V05: a kitty of 6 from two decks with two cards removed (each hand still 25 cards)."""
    from reference_impl.hand import dealt_pack
    rules = rules_for("v05_kitty_with_cards_removed")
    pack = dealt_pack(rules)
    assert len(pack) == 4 * rules.hand_size + 6 == 106


def test_a_penalty_by_points_steps_inside_a_stepping_band():
    """V01's table (one deck): 'band 40.. -> attackers +0 step 20', so the attackers reach +1 at 60 and a level
    costs 20 points above the stage at 40; it has no +1 band of its own."""
    from reference_impl.penalties import by_points_step
    assert by_points_step(rules_for("v01_one_deck")) == 20
    assert by_points_step(rules_for("r000")) == 40   # 000:2.15: 80 to take the stage, +1 from 120


def test_conform_judges_a_catalogue_ruleset_by_name(tmp_path):
    """The organiser's path: `tractor conform --ruleset v06_jokers_only` against the reference engine is green,
    the file announced to the engine as a user's file is."""
    r = cli("conform", "--engine", REFERENCE, "--ruleset", "v06_jokers_only", "--ops", "classify,winner",
            "--report", str(tmp_path / "rep"), "--jobs", "1", "--no-progress")
    assert r.returncode == 0, (r.stdout + r.stderr)[-2000:]
    report = json.loads((tmp_path / "rep" / "report.json").read_text(encoding="utf-8"))
    assert report["rulesets"] == ["v06_jokers_only"] and report["totals"]["pass"] > 0 == report["totals"]["fail"]


@pytest.mark.parametrize("name", catalogue_names())
def test_every_catalogue_file_has_a_default_suite(name):
    """Every operation of a catalogue file's default suite has cases, each with the reference's answer (three
    files made the generator crash with an internal error: V01's stepping table, V05's removed cards, V42's
    unreachable edges)."""
    from conformance.generation.cases import suite
    from conformance.protocol import messages as protocol
    cases = suite(name)
    missing = set(protocol.OPERATIONS) - {c["op"] for c in cases}
    assert not missing, missing
    assert all("expected" in c and c["ruleset"] == name for c in cases)
