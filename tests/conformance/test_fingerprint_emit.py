"""`tractor fingerprint --emit` (issue 10, point 5): the emitted ruleset holds what the engine is seen to
do, so a conformance run against it passes; only operations the handshake lists are sent, and clauses
probed only through others are unobserved, never "differs"."""
import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from .conftest import cli, faux
from .test_findings import CHANGED, MUTANT, MUTANT_ENGINE

ENGINES = Path(__file__).parent / "engines"


def _same_positions(stdout: str, ruleset: str, name: str = "seen") -> tuple[int, int]:
    """The failures fingerprint --emit reports on the run's positions: against ``ruleset``, against the file."""
    m = re.search(rf"on the same [\d,]+ positions of the seeded suite: ([\d,]+) failure\(s\) against {ruleset}, "
                  rf"([\d,]+) against {name}", stdout)
    assert m, stdout[-2000:]
    return int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))


def test_emit_then_conform_against_the_emitted_file_passes(tmp_path):
    emitted = tmp_path / "seen.tractor"
    r = cli("fingerprint", "--engine", MUTANT_ENGINE, "--ruleset", "r003", "--positions", "2", "--emit", str(emitted))
    assert r.returncode == 0, r.stderr
    assert "3 override(s) from 3 finding(s)" in r.stdout and _same_positions(r.stdout, "r003")[1] == 0
    text = emitted.read_text(encoding="utf-8")
    assert "ruleset seen extends r003" in text
    overridden = re.findall(r"^  override (\S+)", text, re.M)
    assert sorted(overridden) == sorted(CHANGED.values())   # the three clauses the mutant changes, no other
    assert text.count("because \"") == 3 and "failing case(s) of the seeded suite, e.g. r003:" in text   # evidence as the reason
    # the mutant engine, answering under the emitted ruleset's name, against the emitted file
    engine = MUTANT_ENGINE.replace("--as r003", "--as seen")
    r = cli("conform", "--engine", engine, "--ruleset", str(emitted), "--report", str(tmp_path / "rep"))
    assert r.returncode == 0, r.stdout[-2000:]
    report = json.loads((tmp_path / "rep" / "report.json").read_text())
    assert report["totals"]["fail"] == 0 and report["totals"]["pass"] > 1000


def test_only_listed_operations_are_sent_and_the_rest_is_unobserved(tmp_path):
    log = tmp_path / "asked.log"
    # classify and winner only: the score table (result) and the kitty (kitty) cannot be asked
    r = cli("fingerprint", "--engine", faux("few_ops", "classify,winner", log), "--ruleset", "r003",
            "--positions", "1", "--emit", str(tmp_path / "seen.tractor"))
    assert r.returncode == 0, r.stderr
    assert set(log.read_text().split()) <= {"classify", "winner"}
    rows = {line.split()[0]: line for line in r.stdout.splitlines() if line[:1].isalpha() and "  " in line}
    assert "unobserved" in rows["score.table"] and "unobserved" in rows["kitty.capture"]
    assert "differs" not in r.stdout
    text = (tmp_path / "seen.tractor").read_text()
    assert not re.search(r"^  override", text, re.M)   # it answers classify and winner as r003 does


MUTANT4 = Path(__file__).parent / "rulesets" / "mutant4_r001.tractor"


def _blocks(text: str) -> list[str]:
    return re.split(r"^  override ", text, flags=re.M)[1:]


def test_four_differences_at_once_emit_a_fixpoint_whose_reasons_and_evidence_differ(tmp_path):
    """Two readings and two settings of r001 changed at once (one of them a value the suite decides against
    the spec but not against its neighbour, the forced play): the emitted file states each as the engine plays
    it, and the engine passes a conform run against the file."""
    engine = shlex.join([sys.executable, "-m", "tractor_cli.main", "engine", "--rules", str(MUTANT4), "--as", "r001"])
    emitted = tmp_path / "seen.tractor"
    r = cli("fingerprint", "--engine", engine, "--ruleset", "r001", "--positions", "1", "--emit", str(emitted),
            timeout=900)
    assert r.returncode == 0, r.stderr
    text = emitted.read_text(encoding="utf-8")
    assert sorted(re.findall(r"^  override (\S+)", text, re.M)) == ["kitty.capture", "lead.throw_fail",
                                                                   "tractor.ace_two"]
    assert "set throw.forced_play = blocked_component" in text and "set throw.penalty_points = 5" in text
    for block in _blocks(text):
        reason = re.search(r'^    reason "([^"]*)"', block, re.M)
        because = re.search(r'because "([^"]*)"', block)
        assert because, block
        if reason:
            assert reason.group(1) not in because.group(1) and because.group(1) not in reason.group(1), block
    r = cli("conform", "--engine", engine.replace("--as r001", "--as seen"), "--ruleset", str(emitted),
            "--report", str(tmp_path / "rep"), timeout=900)
    assert r.returncode == 0, r.stdout[-3000:]
    report = json.loads((tmp_path / "rep" / "report.json").read_text())
    assert report["totals"]["fail"] == 0 and report["totals"]["pass"] > 1000 and report["clusters"] == []


def _emit_house_rule_as_r000(tmp_path, name: str):
    """An engine playing the catalogue file ``name`` (renamed, so that the engine knows it only as r000),
    fingerprinted against r000 with ``--emit``: (its rule file, the emitted file, the finished command)."""
    from tractor_dsl.bundled import default_spec_dir
    text = (default_spec_dir() / "variants" / f"{name}.tractor").read_text(encoding="utf-8")
    own = tmp_path / "house.tractor"
    own.write_text(text.replace(f"ruleset {name} extends", "ruleset house extends"), encoding="utf-8")
    engine = shlex.join([sys.executable, "-m", "tractor_cli.main", "engine", "--rules", str(own), "--as", "r000"])
    emitted = tmp_path / "seen.tractor"
    r = cli("fingerprint", "--engine", engine, "--ruleset", "r000", "--positions", "1", "--jobs", "1",
            "--emit", str(emitted), timeout=900)
    assert r.returncode == 0, r.stderr
    return own, emitted, r


@pytest.mark.parametrize("name, line", [
    ("v68_banker_needs_last_trick", "set score.banker_needs_last_trick = true"),
    ("v67_jack_rule", "set level.knock_back = { level: J, to: 2 }"),
])
def test_an_engine_following_a_house_rule_seen_only_on_whole_hands_is_emitted_with_it(tmp_path, name, line):
    """Issue 19: the jack rule (V67) and the banker needing the last trick (V68) are alternatives of the suite,
    seen on whole hands; an engine playing r000 with one of them is emitted with that setting, and nothing else."""
    own, emitted, r = _emit_house_rule_as_r000(tmp_path, name)
    assert _same_positions(r.stdout, "r000")[1] == 0
    out = emitted.read_text(encoding="utf-8")
    assert line in out, out
    assert len(re.findall(r"^  override ", out, re.M)) == 1


def test_an_engine_that_must_defend_ace_is_emitted_with_it(tmp_path):
    """Issue 31 item 5 / issue 32 (H21, "只有庄家级牌为A且获胜，才能通过A"): an engine playing r000 with A to be defended
    is fingerprinted against r000 and emitted with that setting in level.progression, and nothing else."""
    own, emitted, r = _emit_house_rule_as_r000(tmp_path, "h21_ace_must_be_defended")
    assert _same_positions(r.stdout, "r000")[1] == 0   # no failure left on the same positions
    out = emitted.read_text(encoding="utf-8")
    assert "set level.must_defend = [A]" in out, out
    assert re.findall(r"^  override (\S+)", out, re.M) == ["level.progression"]


@pytest.mark.parametrize("name, lines, clause", [
    ("v05_kitty_with_cards_removed", ("set equipment.kitty_size = 6",
                                      "set equipment.removed = [{ rank: 3, suit: clubs }, { rank: 3, suit: clubs }]"),
     "equipment.decks"),
    ("v82_redeal_poor_hands", ("set deal.redeal_if = [no_points, no_trumps]",), "deal.draw"),
])
def test_an_engine_following_a_house_rule_of_the_deal_is_emitted_with_it(tmp_path, name, lines, clause):
    """Issue 19: V05 (two 3s of clubs out, a kitty of 6) and V82 (a redeal for a hand with no point card or no
    card trump in every suit) are seen by the deal operation alone; an engine playing r000 with one of them is
    fingerprinted against r000 and emitted with that setting, in the clause of r000 that states the deal, and
    nothing else. (The V05 engine cannot answer r000's kitties of 8: those cases are errored, not failures.)"""
    from reference_impl.rules import load_file
    own, emitted, r = _emit_house_rule_as_r000(tmp_path, name)
    assert "from 1 finding(s)" in r.stdout and _same_positions(r.stdout, "r000")[1] == 0
    out = emitted.read_text(encoding="utf-8")
    for line in lines:
        assert line in out, out
    assert re.findall(r"^  override (\S+)", out, re.M) == [clause]
    assert "failing case(s) of the seeded suite, e.g. r000:deal:" in out   # the evidence: deal cases
    seen, house = load_file(emitted), load_file(own)
    assert (seen.kitty_size, seen.get("equipment.removed"), seen.get("deal.redeal_if")) == \
        (house.kitty_size, house.get("equipment.removed"), house.get("deal.redeal_if"))


@pytest.mark.parametrize("given", ["path", "name"])
def test_an_engine_dealing_every_card_against_v05_is_emitted_without_the_removed_cards(tmp_path, given):
    """The other way round: r000's engine (all 108 cards, a kitty of 8) fingerprinted against V05's file. The
    finding unsets equipment.removed, which the emitted clause then leaves out (no `set equipment.removed =
    none`, which the rule language refuses: the setting is a list of cards), and the emitted file checks.
    The catalogue file named by its name is analysed as by its path (by name, the findings analysis used to
    pass it over as an unknown ruleset: "0 finding(s) of 19 failing case(s), 0 unexplained")."""
    from reference_impl.rules import load_file
    from tractor_dsl.bundled import default_spec_dir
    v05 = default_spec_dir() / "variants" / "v05_kitty_with_cards_removed.tractor"
    engine = shlex.join([sys.executable, "-m", "tractor_cli.main", "engine", "--rules",
                         str(default_spec_dir() / "000.tractor"), "--as", "v05_kitty_with_cards_removed"])
    emitted = tmp_path / "seen.tractor"
    r = cli("fingerprint", "--engine", engine, "--ruleset", str(v05) if given == "path" else v05.stem,
            "--positions", "1", "--jobs", "1", "--emit", str(emitted), timeout=900)
    assert r.returncode == 0, r.stderr
    assert "from 1 finding(s)" in r.stdout and _same_positions(r.stdout, "v05_kitty_with_cards_removed")[1] == 0
    out = emitted.read_text(encoding="utf-8")
    assert "set equipment.kitty_size = 8" in out and "set equipment.removed" not in out, out
    seen = load_file(emitted)
    assert seen.kitty_size == 8 and not seen.get("equipment.removed")


def _failing(report: Path) -> dict[str, bool]:
    """A conform report's cases by position (the id after the ruleset's name: op and the input's hash), failing
    or not."""
    cases = json.loads(report.read_text(encoding="utf-8"))["cases"]
    return {c["id"].split(":", 1)[1]: c["status"] == "fail" for c in cases}


def test_fingerprint_emit_then_conform_on_the_same_positions_leaves_at_most_half_the_failures(tmp_path):
    """Issue 31, item 6 (done when): an engine with three differences a rule file states (mutant_r003's) and one
    it cannot (a tie of equal plays won by the last: the wrapper tie_last). fingerprint --emit writes the three;
    its report of the run's positions, judged again by the file, and a conform run against the file, on the
    positions both runs ask, leave at most half the failures, and those left are the tie's."""
    engine = shlex.join([sys.executable, str(ENGINES / "mutant_ties.py"), str(MUTANT), "r003"])
    emitted = tmp_path / "seen.tractor"
    r = cli("fingerprint", "--engine", engine, "--ruleset", "r003", "--positions", "1", "--emit", str(emitted),
            timeout=900)
    assert r.returncode == 0, r.stderr
    before, after = _same_positions(r.stdout, "r003")
    assert before > 0 and after <= before / 2, r.stdout[-2000:]
    assert re.search(rf"{after} failure\(s\) stay against seen, .*{after} in clusters beyond the alternatives",
                     r.stdout), r.stdout[-2000:]
    r0 = cli("conform", "--engine", engine, "--ruleset", "r003", "--report", str(tmp_path / "r003"), timeout=900)
    r1 = cli("conform", "--engine", engine.replace(" r003", " seen"), "--ruleset", str(emitted),
             "--report", str(tmp_path / "seen"), timeout=900)
    assert r0.returncode == 1 and r1.returncode == 1   # the tie stays a failure
    was, now = _failing(tmp_path / "r003" / "report.json"), _failing(tmp_path / "seen" / "report.json")
    same = set(was) & set(now)
    assert len(same) >= 2000   # the file draws r003's random positions (2,054 of them)
    assert sum(was[k] for k in same) > 0 and sum(now[k] for k in same) <= sum(was[k] for k in same) / 2
    assert sum(was.values()) == before   # the run fingerprint --emit reported is the conform run's
    report = json.loads((tmp_path / "seen" / "report.json").read_text(encoding="utf-8"))
    assert report["findings"] == [] and all(c["op"] == "winner" for c in report["clusters"])   # the tie's


def test_an_emitted_file_that_overrides_nothing_says_so(tmp_path):
    """An engine whose one difference no reading or alternative value expresses (a tie won by the last play):
    the emitted file overrides nothing, and both the terminal and the file say so; its failures stay failures
    against the file, and are counted so, not as '0 unexplained'."""
    emitted = tmp_path / "seen.tractor"
    r = cli("fingerprint", "--engine", shlex.join([sys.executable, str(ENGINES / "tie_last.py")]),
            "--ruleset", "r003", "--positions", "1", "--emit", str(emitted), timeout=900)
    assert r.returncode == 0, r.stderr
    assert "the emitted file only extends r003: it overrides nothing" in r.stdout
    before, after = _same_positions(r.stdout, "r003")
    assert before == after > 0 and f"{after} failure(s) stay against seen" in r.stdout
    assert "0 unexplained" not in r.stdout
    text = emitted.read_text(encoding="utf-8")
    assert "this\n# file overrides nothing" in text and not re.search(r"^  override", text, re.M)


def test_a_reading_seen_through_another_difference_is_emitted_and_the_file_explains_every_failure(tmp_path):
    """Issue 31, item 6: the real engines' case. An engine chaining the off-suit level pair to the trump A pair
    (r000's tractor.junctions read as with_off_level_ace) and fining a failed throw per card thrown: the
    fingerprint names the reading though the engine's refused throws differ in their penalty (lead.throw's
    field), and the emitted file states both, so that on the run's positions no failure stays."""
    from .test_fingerprint_majority import JUNCTIONS_FLAT
    engine = shlex.join([sys.executable, "-m", "tractor_cli.main", "engine", "--rules", str(JUNCTIONS_FLAT),
                         "--as", "r000"])
    emitted = tmp_path / "seen.tractor"
    r = cli("fingerprint", "--engine", engine, "--ruleset", "r000", "--emit", str(emitted), timeout=900)
    assert r.returncode == 0, r.stderr
    row = next(line for line in r.stdout.splitlines() if line.startswith("tractor.junctions "))
    assert row.split()[2] == "with_off_level_ace", row
    before, after = _same_positions(r.stdout, "r000")
    assert before > 0 and after == 0, r.stdout[-2000:]
    text = emitted.read_text(encoding="utf-8")
    assert "set throw.penalty_per = card_thrown" in text and "[off_level, trump_suit]" in text


def _house_rule_files() -> list[tuple[str, str]]:
    """Every catalogue file of a house rule beyond VARIANTS.md (spec/house_rules.tsv, H01…), with its parent."""
    from tractor_dsl.bundled import default_spec_dir
    out = []
    for path in sorted((default_spec_dir() / "variants").glob("h*.tractor")):
        parent = re.search(r"^ruleset \S+ extends (\S+)", path.read_text(encoding="utf-8"), re.M)
        assert parent, path
        out.append((path.stem, parent.group(1)))
    return out


@pytest.mark.parametrize("name, parent", _house_rule_files())
def test_an_engine_playing_a_house_rule_is_fingerprinted_and_emitted_with_its_settings(tmp_path, name, parent):
    """Issue 32: "each construct in … the fingerprint". An engine playing a house rule's catalogue file (renamed,
    so that it knows it only as the parent's name) is fingerprinted against the parent with --emit; the
    emitted file leaves no failure on the same positions, and it reads every setting the house file sets as
    the house file does (compared as the interpreter loads them, not as text)."""
    from reference_impl.rules import load_file
    from tractor_dsl.bundled import default_spec_dir
    text = (default_spec_dir() / "variants" / f"{name}.tractor").read_text(encoding="utf-8")
    own = tmp_path / "house.tractor"
    own.write_text(text.replace(f"ruleset {name} extends", "ruleset house extends"), encoding="utf-8")
    engine = shlex.join([sys.executable, "-m", "tractor_cli.main", "engine", "--rules", str(own), "--as", parent])
    emitted = tmp_path / "seen.tractor"
    r = cli("fingerprint", "--engine", engine, "--ruleset", parent, "--positions", "1", "--jobs", "1",
            "--emit", str(emitted), timeout=900)
    assert r.returncode == 0, r.stderr
    before, after = _same_positions(r.stdout, parent)
    assert before > 0 and after == 0, r.stdout[-2000:]   # the house rule is seen, and the emitted file explains it
    seen, house = load_file(emitted), load_file(own)
    for setting in sorted(set(re.findall(r"^\s+set (\S+) =", text, re.M))):
        assert seen.get(setting) == house.get(setting), (setting, emitted.read_text(encoding="utf-8"))


def test_a_clause_whose_readings_the_engine_follows_none_of_is_judged_again_by_the_emitted_file(tmp_path):
    # (and the positions the emitted file cannot hold are said apart from its failures)
    """Issue 31 item 6: an engine that never judges a throw (H28, throw.check = unchecked) follows none of
    lead.failed_throw's readings (each says how a failed throw is forced); the readings table says "none of
    them", and the emitted file, overriding throw.check, is then seen to answer as the engine on every one of
    that clause's positions: the table's verdict is accounted for, not left as a mystery."""
    emitted = tmp_path / "seen.tractor"
    r = cli("fingerprint", "--engine", faux("altered", json.dumps({"throw.check": "unchecked"})), "--ruleset", "r000",
            "--emit", str(emitted))
    assert r.returncode == 0, r.stderr
    assert re.search(r"^lead\.failed_throw +\S+ +none of them +\d+ +<- differs from the spec$", r.stdout, re.M), r.stdout
    assert "set throw.check = unchecked" in emitted.read_text(encoding="utf-8")
    # whole hands with a failed throw are positions the file cannot hold (throws never fail under it): said apart,
    # not counted as failing against it (they were 18 "newly failing" cases of a file that fixes every failure)
    assert _same_positions(r.stdout, "r000")[1] == 0 and "0 newly failing" in r.stdout
    assert re.search(r"; \d+ position\(s\) seen cannot hold \(its rules refuse them as input: [\d,]+ compared\)",
                     r.stdout), r.stdout
    assert "the clauses whose readings the engine follows none of, judged again by the emitted file:" in r.stdout
    assert re.search(r"^  lead\.failed_throw: the engine follows none of its readings; seen, with the settings it "
                     r"overrides, answers as the engine on all \d+ of its position\(s\)$", r.stdout, re.M), r.stdout
