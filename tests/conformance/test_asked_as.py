"""A user's ruleset judged by an engine that knows only the ruleset it extends (issue 23, point 3), and a run
in which no case was judged, which is never a silent green."""
import json

from conformance.generation.cases import generate
from conformance.running.runner import EXTENDS, Runner

from .conftest import cli, faux

HOUSE = [{"name": "house", "extends": "r000", "path": "/x/house.tractor", "source": "..."},
         {"name": "street", "extends": "house", "path": "/x/street.tractor", "source": "..."}]


def cases_as(ruleset: str, n: int = 3) -> list[dict]:
    """r000 cases under another ruleset's name (a house file that changes nothing they ask)."""
    return [{**c, "ruleset": ruleset} for c in generate("r000", ops=["advance", "result"], counts=n, decisions=False)]


def run(engine_ruleset, cases):
    runner = Runner(faux("rulesets", "r000"), engine_ruleset=engine_ruleset)
    runner.rule_files = HOUSE
    return runner.run(cases)


def test_without_a_mapping_every_case_of_the_house_file_is_skipped_and_the_run_says_nothing_was_judged():
    result = run(None, cases_as("house"))
    assert {o.kind for o in result.outcomes} == {"ruleset_not_supported"}
    assert result.nothing_judged and not result.failed
    [event] = [e for e in result.events if e["kind"] == "nothing_judged"]
    assert f"all {len(result.cases)} were skipped (ruleset_not_supported" in event["message"]
    assert "--engine-ruleset" in event["message"]


def test_the_extends_of_each_file_names_the_ruleset_the_engine_is_asked_under():
    cases = cases_as("house") + cases_as("street")
    result = run(EXTENDS, cases)
    assert [o.status for o in result.outcomes] == ["pass"] * len(cases)
    assert result.asked_as == {"house": "r000", "street": "r000"}    # street extends house extends r000
    assert not result.nothing_judged
    assert sum(e["kind"] == "asked_as" for e in result.events) == 2


def test_one_name_for_every_users_ruleset_or_a_mapping():
    for mapping in ("r000", {"house": "r000"}):
        result = run(mapping, cases_as("house"))
        assert {o.status for o in result.outcomes} == {"pass"}, mapping
    result = run({"house": "r001"}, cases_as("house"))      # a name the engine does not list: still skipped
    assert {o.kind for o in result.outcomes} == {"ruleset_not_supported"}
    assert "(asked as r001)" in result.outcomes[0].message


def test_a_run_with_no_case_judged_exits_non_zero_with_a_clear_message(tmp_path):
    r = cli("conform", "--engine", faux("rulesets", "r001"), "--ruleset", "r000", "--ops", "advance",
            "--report", str(tmp_path))
    assert r.returncode == 1
    assert "no case was judged" in r.stderr and "ruleset_not_supported" in r.stderr
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["nothing_judged"] is True and report["totals"]["skipped"] == len(report["cases"]) > 0
    ok = cli("conform", "--engine", faux("rulesets", "r000"), "--ruleset", "r000", "--ops", "advance",
             "--report", str(tmp_path / "ok"))
    assert ok.returncode == 0, ok.stdout[-1000:]


def test_the_command_asks_a_house_file_under_the_name_the_engine_knows(tmp_path):
    """`--engine-ruleset r003`: an engine that knows only r003 is judged on a house file extending it. On
    `follow` (which the house cap does not touch) it passes; on `result` it answers as r003 does, rising 4
    levels where the house caps the gain at 3 (003:4 against the override), and the run fails."""
    house = tmp_path / "house.tractor"
    house.write_text('ruleset house extends r003 {\n  title "r003 capped at 3 levels"\n'
                     '  override score.table choose thirty_capped because "our club caps a hand\'s gain"\n}\n',
                     encoding="utf-8")
    engine = faux("rulesets", "r003")
    alone = cli("conform", "--engine", engine, "--ruleset", str(house), "--ops", "follow", "--report", "")
    assert alone.returncode == 1 and "were skipped" in alone.stderr and "--engine-ruleset" in alone.stderr
    mapped = cli("conform", "--engine", engine, "--ruleset", str(house), "--ops", "follow", "--report", "",
                 "--engine-ruleset", "r003")
    assert mapped.returncode == 0, mapped.stdout[-2000:] + mapped.stderr
    scored = cli("conform", "--engine", engine, "--ruleset", str(house), "--ops", "result", "--report", "",
                 "--engine-ruleset", "extends")
    assert scored.returncode == 1 and "score.table" in scored.stdout
    bad = cli("conform", "--engine", engine, "--ruleset", str(house), "--engine-ruleset", "r999")
    assert bad.returncode == 2 and "--engine-ruleset: 'r999' is no bundled ruleset" in bad.stderr
