"""Rulesets are files as well as names (issue 10, point 1): every command that takes a ruleset takes a
user's ``.tractor`` file, which may extend any bundled ruleset; ``tractor engine --rules FILE`` serves it."""
import json
import shlex
import sys

import pytest

from .conftest import REFERENCE, cli

# 003:4 and 003:g1: the table continued without a cap is r003's reading; 001's cap of 3 levels is the other.
HOUSE = '''ruleset house extends r003 {
  title "r003 capped at 3 levels"
  override score.table choose thirty_capped because "our club caps a hand's gain"
}
'''


@pytest.fixture
def house(tmp_path):
    path = tmp_path / "house.tractor"
    path.write_text(HOUSE, encoding="utf-8")
    return path


def test_a_users_file_extends_a_bundled_ruleset(house):
    from reference_impl.rules import rules_for
    rules = rules_for(str(house))
    assert rules.name == "house" and rules.checked.lineage == ("house", "r003")
    assert rules_for("house") is rules                      # known by its name once read
    assert rules["score.cap"] == 3 and rules_for("r003")["score.cap"] is None   # 003:g1, the two readings


def test_check_reports_a_users_file_alone_with_warnings_not_errors(house):
    r = cli("check", str(house))
    assert r.returncode == 0, r.stderr
    assert "1 ruleset(s) checked, 0 error(s)" in r.stdout and not r.stdout.startswith("r0")
    assert "warning[W119]" in r.stderr and "error" not in r.stderr     # no Chinese: a warning outside spec/


def test_an_error_in_a_users_file_is_located_never_a_traceback(tmp_path):
    bad = tmp_path / "bad.tractor"
    bad.write_text(HOUSE.replace("thirty_capped", "nonsense").replace("house", "bad"), encoding="utf-8")
    for argv in (["show", str(bad)], ["explain", str(bad), "classify", "5H 5H"],
                 ["conform", "--engine", REFERENCE, "--ruleset", str(bad), "--report", ""],
                 ["engine", "--rules", str(bad), "--handshake"]):
        r = cli(*argv)
        assert r.returncode == 2, argv   # bad input for every command, as for conform (issue 30, 16)
        assert f"{bad}:3:12: error[E508]: cannot choose 'nonsense'" in r.stderr, argv
        assert "Traceback" not in r.stderr


def test_show_explain_and_diff_take_a_file(house):
    assert cli("show", str(house)).stdout.splitlines()[:2] == ["house: r003 capped at 3 levels", "extends r003"]
    r = cli("diff", "r003", str(house))
    assert r.returncode == 0 and "house" in r.stdout and "score.bands" in r.stdout
    # 0 points for the attackers: r003 gives the banker +4 (no cap), house +3 (the cap)
    assert "keeps the bank and rises 3 levels" in cli("explain", str(house), "result", "--points", "0").stdout
    assert "keeps the bank and rises 4 levels" in cli("explain", "r003", "result", "--points", "0").stdout


def test_the_engine_serves_a_users_file_under_its_name_or_another(house):
    hs = json.loads(cli("engine", "--rules", str(house), "--handshake").stdout)["result"]
    assert "house" in hs["rulesets"] and "r003" in hs["rulesets"]
    assert cli("engine", "--rules", str(house), "--rules", str(house), "--as", "x").returncode == 2


def test_conform_runs_a_users_file_on_both_sides(house, tmp_path):
    """The reference side reads the file, and `tractor engine` is given it: an honest engine passes."""
    r = cli("conform", "--engine", REFERENCE, "--ruleset", str(house), "--ops", "result", "--count", "20",
            "--report", str(tmp_path / "rep"))
    assert r.returncode == 0, r.stdout + r.stderr
    report = json.loads((tmp_path / "rep" / "report.json").read_text())
    assert report["rulesets"] == ["house"] and report["totals"]["pass"] > 0
    assert report["engine"]["command"][-2:] == ["--rules", str(house)]


def test_the_handshake_announces_a_users_file_to_other_engines(house):
    from conformance.running.runner import Runner
    from conformance.conform import engine_with_rules, resolve_rulesets
    names, files = resolve_rulesets([str(house), "r001"])
    assert names == ["house", "r001"]
    assert files == [{"name": "house", "extends": "r003", "path": str(house.resolve()), "source": HOUSE}]
    assert engine_with_rules("my-engine --fast", files) == "my-engine --fast"   # not ours: the handshake says it
    script = ("import json,sys\nreq=json.loads(sys.stdin.readline())\n"
              "print(json.dumps({'seq':req['seq'],'result':{'protocol':1,'name':'echo','version':'0',"
              "'rulesets':[r['name'] for r in req.get('rulesets',[])],'operations':[]}}),flush=True)\n"
              "sys.stdin.readline()\n")
    runner = Runner(shlex.join([sys.executable, "-c", script]))
    runner.rule_files = files
    result = runner.run([])
    assert result.handshake["rulesets"] == ["house"]


def test_play_and_vectors_take_a_file(house, tmp_path):
    r = cli("play", str(house), "--seed", "1", "--max-hands", "2", "--brief")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("== house: game with seed 1 ==")
    r = cli("vectors", "export", "--dir", str(tmp_path / "v"), "--ruleset", str(house))
    assert r.returncode == 0, r.stderr
    lines = (tmp_path / "v" / "house" / "result.jsonl").read_text().splitlines()
    assert lines and all(json.loads(x)["ruleset"] == "house" for x in lines)
    assert cli("vectors", "check", "--dir", str(tmp_path / "v"), "--ruleset", str(house)).returncode == 0


def test_with_no_ruleset_the_run_checks_what_the_handshake_lists(tmp_path):
    """`tractor conform --engine CMD` alone checks the bundled rulesets the engine says it plays, and says so."""
    from .conftest import faux
    r = cli("conform", "--engine", faux("rulesets", "r001,our_house"), "--ops", "result",
            "--report", str(tmp_path / "rep"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "rulesets: r001 (those the engine's handshake lists" in r.stdout
    report = json.loads((tmp_path / "rep" / "report.json").read_text())
    assert report["rulesets"] == ["r001"] and {c["ruleset"] for c in report["cases"]} == {"r001"}
    none = cli("conform", "--engine", faux("rulesets", "our_house"), "--report", "")
    assert none.returncode == 2 and "lists no bundled ruleset (it lists: our_house)" in none.stderr
