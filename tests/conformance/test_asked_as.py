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
