"""An honest coverage line (issue 22, point 1): a run says which stated rules its cases were built to decide,
which are met only by positions built for something else (random, or aimed elsewhere), and which no case of
the run judges; and the cases whose answer no clause decides are named for what they are.

The stated rules without decision points are worked out here without the labels the generator wrote: a
rule has decision points when the search for a position telling one of its alternatives from the spec finds
one (:func:`conformance.generation.decisions.distinguish`), or when it is a follow ladder, the score table,
the kitty table or the level ranks (each rung, edge, row and climb is a point of its own)."""
import json
import re

import pytest

from conformance.generation.alternatives import alternatives
from conformance.generation.cases import vector_cases
from conformance.generation.decisions import distinguish, point_clauses
from conformance.reporting.report import FREE_LEAD, NO_CLAUSE, UNCLAUSED_ROWS, WELL_FORMED
from reference_impl.rules import rules_for, ruleset_names

from .conftest import REFERENCE, REPO, cli


@pytest.fixture(scope="module")
def honest_run(tmp_path_factory):
    where = tmp_path_factory.mktemp("stated")
    r = cli("conform", "--engine", REFERENCE, "--ruleset", "r000", "--report", str(where))
    assert r.returncode == 0, r.stderr
    return r, where, json.loads((where / "report.json").read_text(encoding="utf-8"))


def _searched(rules) -> set[str]:
    """The clauses with decision points, found by searching (not read from the vectors' labels)."""
    found = {alt.clause for alt in alternatives(rules) if distinguish(rules, alt).found is not None}
    found |= set(rules.ladder_clause.values()) | {rules.band_clause, rules.clause("kitty.multiplier"),
                                                  rules.clause("level.ranks")}
    return found


def _listed(lines: list[str], what: str) -> list[str]:
    """The clause ids the indented line starting with ``what`` lists."""
    for line in lines:
        if line.strip().startswith(what):
            return line.split(": ", 1)[1].split(", ")
    return []


def test_the_stated_rules_without_decision_points_are_the_ones_the_summary_names(honest_run):
    r, where, report = honest_run
    rules = rules_for("r000")
    groups = report["stated_rules"]["r000"]
    clauses = [c.id for c in rules.checked.clauses]
    assert sorted(groups["decided"] + groups["random_only"] + groups["unjudged"]) == sorted(clauses)
    searched = _searched(rules)
    without = [c for c in clauses if c not in searched]
    assert without and sorted(groups["random_only"] + groups["unjudged"]) == sorted(without)
    from conformance.protocol.messages import validator
    assert not list(validator("report").iter_errors(report))     # stated_rules as the schema describes it
    consulted = {k for c in report["cases"] for k in c["clauses"]}
    assert set(groups["random_only"]) <= consulted and not set(groups["unjudged"]) & consulted
    # the terminal and summary.md print exactly those names
    lines = r.stdout.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("stated rules of r000:"))
    assert lines[at].startswith(f"stated rules of r000: {len(clauses)}; {len(groups['decided'])} with decision "
                                f"points; {len(groups['random_only'])} met only by positions not built to decide "
                                f"them; {len(groups['unjudged'])} judged by no case of this run")
    assert _listed(lines[at + 1:at + 3], "met only by positions") == groups["random_only"]
    assert _listed(lines[at + 1:at + 3], "judged by no case") == groups["unjudged"]
    md = (where / "summary.md").read_text(encoding="utf-8")
    md_lines = md.splitlines()
    at = md_lines.index(next(ln for ln in md_lines if ln.startswith("- stated rules of r000\\:")))
    named = " ".join(ln for ln in md_lines[at + 1:at + 3] if ln.startswith("  - "))
    assert sorted(c.strip("`") for c in re.findall(r"`[^`]+`", named)) == sorted(without)


@pytest.mark.parametrize("ruleset", ruleset_names())
def test_ruff_structure_and_comparison_have_decision_points(ruleset):
    """The ruff (its structure and how two ruffs compare) is decided by a case built for it in every bundled
    ruleset: a ruff bug can no longer pass every decision point."""
    rules = rules_for(ruleset)
    points = point_clauses(rules)
    decided = {points[p] for c in vector_cases(None, [ruleset]) for p in c.get("decides", ()) if p in points}
    assert {rules.clause("ruff.structure"), rules.clause("compare.multi")} <= decided


def test_the_cases_no_clause_decides_are_named_for_what_they_are(honest_run):
    _, where, report = honest_run
    unclaused = [c for c in report["cases"] if not c["clauses"]]
    assert len(unclaused) > 50
    rows = report["by_clause"]
    assert NO_CLAUSE not in rows            # every one of a default run is named
    named = {row: sum(rows.get(row, {}).values()) for row in (WELL_FORMED, FREE_LEAD)}
    assert sum(named.values()) == len(unclaused) and all(named.values())
    cases = {c["id"]: c for c in vector_cases(None, ["r000"])}
    for c in unclaused:
        reason = cases[c["id"]]["expected"]["reason"]
        assert (reason in ("cards_not_held", "wrong_card_count")) or (c["op"] == "lead" and reason == "ok")
    md = (where / "summary.md").read_text(encoding="utf-8")
    assert f"| {WELL_FORMED} |" in md.replace("`", "")
    guide = (REPO / "docs" / "guide.rst").read_text(encoding="utf-8")
    for row in UNCLAUSED_ROWS:
        assert f"``{row}``" in guide, f"docs/guide.rst does not explain the row {row}"
