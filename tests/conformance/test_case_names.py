"""Readable case names beside the ids, and clauses linked to the rulebook site (issue 33, item 6)."""
import json
import re
import xml.etree.ElementTree as ET

import pytest

from conformance.generation.cases import vector_cases
from conformance.protocol import messages as protocol
from conformance.reporting import matrix, report
from conformance.reporting.html_report import render
from conformance.reporting.names import case_title, clause_anchor, clause_url
from conformance.running.runner import Outcome, RunResult

from .conftest import cli, faux

DECIDED = {"id": "r001:follow:d97115d38902", "op": "follow", "ruleset": "r001",
           "input": {"level": "Q", "trump": "D", "lead": ["JH", "JH"],
                     "hand": ["8H", "8H", "8H", "9H", "9H", "10H", "QD"], "play": ["8H", "8H"]},
           "expected": {"legal": True, "reason": "ok"}, "clauses": ["follow.suit", "follow.pair_from_triple"],
           "decides": ["follow pair: rung 1 first (the play it requires)"]}
RANDOM = {**{k: v for k, v in DECIDED.items() if k != "decides"}, "id": "r001:follow:000000000000"}


def _run(cases, statuses):
    return RunResult(cases, [Outcome(s, "disagrees" if s == "fail" else "", "m", answer={"legal": False})
                             for s in statuses],
                     {"protocol": 1, "name": "e", "version": "1", "rulesets": ["r001"], "operations": ["follow"]}, ["e"], "now", 0.1, False, 0, 0,
                     "", rulesets=[cases[0]["ruleset"]])


def test_a_decision_case_is_named_by_ruleset_operation_clause_and_what_it_decides():
    assert case_title(DECIDED) == ("r001 · follow · follow.pair_from_triple · "
                                   "follow pair: rung 1 first (the play it requires)")


def test_a_random_case_is_named_by_a_short_account_of_its_position():
    title = case_title(RANDOM)
    assert title.startswith("r001 · follow · follow.pair_from_triple · ")
    assert "lead J♥ J♥" in title and "plays 8♥ 8♥" in title and "from a hand of 7" in title
    assert case_title({"id": "r003:result:1", "op": "result", "ruleset": "r003", "input": {"attackers_points": 85},
                       "clauses": ["score.table"]}) == "r003 · result · score.table · attackers take 85 points"


def test_a_trick_is_named_by_what_its_leader_played_not_by_seat_0s_play():
    """``plays`` is indexed by seat (winner.request.json): seat 2 leading names seat 2's cards."""
    case = {"id": "r000:winner:1", "op": "winner", "ruleset": "r000", "clauses": ["trick.winner"],
            "input": {"level": "2", "trump": "H", "leader": 2,
                      "plays": [["7H"], ["AC"], ["6S"], ["8S"]]}}
    assert "seat 2 leads 6♠, 4 plays" in case_title(case)


def test_every_vector_has_a_short_name_that_starts_with_its_ruleset_and_operation():
    for case in vector_cases(rulesets=["r001", "r003"]):
        title = case_title(case)
        assert title.startswith(f"{case['ruleset']} · {case['op']} · "), title
        assert len(title) < 160 and "\n" not in title, title


def test_the_anchor_is_the_one_the_rulebook_site_gives_each_clause():
    nodes = pytest.importorskip("docutils.nodes")
    from tractor_dsl.checker import load
    lib = load()
    ids = {c.id for rs in lib.rulesets.values() for c in rs.clauses}
    assert len(ids) > 50
    for cid in ids:
        assert clause_anchor(cid) == nodes.make_id(f"clause-{cid}"), cid   # docs/_ext: clause_anchor
    assert clause_url("r001", "follow.pair_from_triple", "https://example.org/tractor") == \
        "https://example.org/tractor/rulebooks/r001.html#clause-follow-pair-from-triple"
    assert clause_url("r001", "score.table").startswith("file://")
    assert clause_url("r001", "score.table").endswith("/docs/_build/html/rulebooks/r001.html#clause-score-table")


def test_the_reports_name_each_case_beside_its_id(tmp_path):
    r = _run([DECIDED], ["fail"])
    title = case_title(DECIDED)
    # report.json: the name, valid against the schema
    doc = report.report_dict(r)
    assert doc["cases"][0]["name"] == title and doc["cases"][0]["id"] == DECIDED["id"]
    assert protocol.schema_errors("report", json.loads(report.report_json(r))) == []
    # junit.xml: the test's name, then its id
    tc = ET.fromstring(report.junit_xml(r)).find(".//testcase")
    assert tc.get("name") == f"{title} [{DECIDED['id']}]"
    # the terminal
    assert f"  case:     {title}" in report.summary_text(r)
    # the HTML report: the name in the failure's heading, the id beside it, each clause a link to its text
    html = render(matrix.build([r]), [r], docs_url="https://example.org/tractor/")
    heading = re.search(r"<h4>(.*?)</h4>", html).group(1)
    assert "follow pair: rung 1 first (the play it requires)" in heading and "r001 · follow" in heading
    assert f"id <code>{DECIDED['id']}</code>" in html
    for clause in DECIDED["clauses"]:
        assert (f'href="https://example.org/tractor/rulebooks/r001.html#{clause_anchor(clause)}"') in html


def test_conform_passes_the_docs_url_to_the_html_report(tmp_path):
    out = tmp_path / "r.html"
    r = cli("conform", "--engine", faux("wrong_answers"), "--ruleset", "r001", "--ops", "follow",
            "-k", "r001:follow:0*", "--report", "", "--html", str(out), "--docs-url", "https://example.org/t")
    assert r.returncode == 1, r.stdout + r.stderr
    html = out.read_text(encoding="utf-8")
    assert '<div class="verdict fail"' in html
    assert re.search(r'href="https://example.org/t/rulebooks/r001\.html#clause-follow-[a-z0-9-]+"', html)
