"""Aimed positions where the generator was blind (issue 23, point 4): each mutant engine rewrites one narrow
class of the reference's answers, and the default suite now fails it on a position aimed at that class."""
import json

import pytest

from conformance.generation.cases import vector_cases
from conformance.generation.decisions import answer, aimed_positions
from reference_impl.rules import rules_for

from .conftest import cli, faux

AIMED = [  # engine, operation, the aim (a prefix of the decides text) that catches it
    ("tie_last", "winner", "aimed: tie of "),
    ("level_suits", "winner", "aimed: tie of equal cards of a tier"),
    ("joker_suit", "follow", "aimed: a lead of jokers only"),
    ("tier_pairs", "follow", "aimed: a trump pair led, the follower holding equal cards of a tier"),
    ("overcall_original", "declare", "aimed: a declaration equal to the reinforced count"),
    ("offender_barred", "declare", "aimed: the offender declaring again"),
    ("kitty_dealt", "hand", "aimed: a whole hand whose banker buries point cards"),
]


@pytest.mark.parametrize("engine, op, aim", AIMED)
def test_each_narrow_bug_is_caught_by_a_position_aimed_at_it(tmp_path, engine, op, aim):
    ruleset = "r001" if engine != "kitty_dealt" else "r000"
    r = cli("conform", "--engine", faux(engine), "--ruleset", ruleset, "--ops", op, "--report", str(tmp_path),
            "--show", "0")
    assert r.returncode == 1, r.stdout[-2000:]
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    decides = {c["id"]: c.get("decides", []) for c in vector_cases(None, [ruleset], [op])}
    failing = [c["id"] for c in report["cases"] if c["status"] == "fail"]
    assert report["totals"]["errored"] == 0
    assert any(d.startswith(aim) for cid in failing for d in decides[cid]), failing
    assert report["clusters"] and report["unexplained"] == []   # and named by findings beyond the alternatives


@pytest.mark.parametrize("ruleset", ["r000", "r001", "r003"])
def test_the_aimed_positions_are_what_they_say(ruleset):
    rules = rules_for(ruleset)
    got = aimed_positions(rules)
    assert got == aimed_positions(rules)                     # seeded: the vectors can hold them
    by_aim = {}
    for p in got:
        by_aim.setdefault(p.decides[0], []).append(p)
        assert "error" not in answer(rules, p.op, p.input)
    ties = [p for aim, ps in by_aim.items() if aim.startswith("aimed: tie of") for p in ps]
    assert ties and all(len({tuple(sorted(x)) for x in p.input["plays"]}) < 4 or "tier" in p.decides[0]
                        for p in ties)
    tied = [p for aim, ps in by_aim.items() if "equal cards of a tier that are no pair" in aim for p in ps]
    assert len(tied) == 4
    for p in tied:   # a trump pair led; two distinct cards of the hand are equal (one trump tier), not a pair
        assert p.input["lead"][0] == p.input["lead"][1] and len(p.input["play"]) == 2
        want = {"legal": False, "reason": "must_play_pair"} if "and a pair" in p.decides[0] else \
            {"legal": True, "reason": "ok"}
        assert answer(rules, "follow", p.input) == want, p
    jokers = by_aim["aimed: jokers only, 4 cards"]
    assert all(set(p.input["cards"]) == {"J+", "J-"} for p in jokers)
    level = by_aim["aimed: level only, 2 cards"]
    assert all({c[:-1] for c in p.input["cards"]} == {p.input["level"]} for p in level)
    offender = by_aim["aimed: the offender declaring again after his wrong declaration"]
    assert all(p.input["declarations"][-1]["seat"] == p.input["wrong"][0]["seat"] for p in offender)
    reinforced = by_aim["aimed: a declaration equal to the reinforced count, beating the original"]
    assert all(len(p.input["declarations"]) >= 3 and "kitty_taken" not in p.input for p in reinforced)
    hands = by_aim.get("aimed: a whole hand whose banker buries point cards", [])
    assert hands and all(any(c[:-1] in ("5", "10", "K") for c in p.input["transcript"]["discard"]) for p in hands)
