"""Findings beyond the alternatives (issue 23, point 2): engines that rewrite a narrow class of the reference's
answers, the way real bugs do, get one finding each, with a minimal position shrunk through the protocol; a
difference in reason alone is a finding of its own kind."""
import json

from conformance.analysis import clusters
from conformance.protocol import messages as protocol

from .conftest import cli, faux


def conform(tmp_path, engine: str, ops: str, ruleset: str = "r000"):
    rep = tmp_path / "rep"
    r = cli("conform", "--engine", faux(engine), "--ruleset", ruleset, "--ops", ops, "--report", str(rep),
            "--show", "0")
    assert r.returncode == 1, r.stderr
    report = json.loads((rep / "report.json").read_text(encoding="utf-8"))
    assert protocol.schema_errors("report", report) == []
    return r, rep, report


def failing(report) -> set[str]:
    return {c["id"] for c in report["cases"] if c["status"] == "fail"}


def test_a_tie_won_by_the_last_play_is_one_finding_with_a_shrunk_position_of_equal_plays(tmp_path):
    r, rep, report = conform(tmp_path, "tie_last", "winner")
    assert report["findings"] == [] and report["unexplained"] == []
    [c] = report["clusters"]
    assert (c["kind"], c["op"], c["fields"]) == ("cluster", "winner", ["winner"])
    assert set(c["case_ids"]) == failing(report) and c["cases"] == len(failing(report)) > 3
    assert "equal plays" in c["signature"].split(" in every case")[0]
    first = next(x for x in report["cases"] if x["id"] == c["shrunk_from"])
    plays = c["position"]["plays"]
    assert c["steps"] > 0 and sum(map(len, plays)) <= sum(map(len, first["input"]["plays"]))
    assert len(set(tuple(sorted(p)) for p in plays)) < 4          # the tie is still there, however small
    assert c["spec"].startswith("winner ") and c["engine"].startswith("winner ") and c["spec"] != c["engine"]
    assert c["neighbours"] and all(n["engine"] is not None for n in c["neighbours"]) and c["reach"]
    out = r.stdout
    assert "findings (1:" in out and "beyond the alternatives" in out and "minimal position" in out
    md = (rep / "summary.md").read_text(encoding="utf-8")
    assert "**winner\\: winner** (beyond the alternatives" in md   # escaped as every engine text of summary.md
    [charged] = {tuple(x["charged"]) for x in report["cases"] if x["status"] == "fail"}
    assert charged == (c["clause"],)


def test_jokers_followed_as_their_own_suit_name_the_joker_lead_in_every_case(tmp_path):
    _, rep, report = conform(tmp_path, "joker_suit", "follow")
    clusters = report["clusters"]
    assert 1 <= len(clusters) <= 3 and report["unexplained"] == []
    assert sum(c["cases"] for c in clusters) == len(failing(report))
    for c in clusters:
        assert "lead of jokers only" in c["signature"].split(" in every case")[0]
        pos = c["position"]
        assert all(x in ("J+", "J-") for x in pos["lead"]) and not any(x in ("J+", "J-") for x in pos["hand"])
        assert c["spec"].startswith("legal false") and c["engine"].startswith("legal true")


def test_a_difference_in_reason_only_is_its_own_kind_and_suggests_declaring_fields(tmp_path):
    _, _, report = conform(tmp_path, "reason_swap", "follow")
    [c] = report["clusters"]
    assert c["kind"] == "reason_only" and c["fields"] == ["reason"] and c["clause"] == "follow.pairs"
    assert c["spec"] == "reason must_play_pair" and c["engine"] == "reason must_follow_suit"
    assert '"fields": {"follow": ["legal"]}' in c["advice"]
    assert c["cases"] == len(failing(report))


def test_one_rewrite_decided_by_several_clauses_is_one_cluster():
    # on r001 a pair is asked for by several clauses (a triple led, a tractor led, a pair from a triple...): the
    # engine's one rewrite, must_play_pair answered must_follow_suit, is still one finding, under the clause
    # deciding most of its cases; two groups answering differently stay apart
    from conformance.analysis import clusters
    groups = {("follow", ("reason",), "follow.triple"): [("a", [])], ("follow", ("reason",), "follow.suit"):
              [("b", []), ("c", [])], ("follow", ("reason",), "trump.order"): [("d", [])],
              ("winner", ("winner",), "trump.order"): [("e", [])]}
    one = '[["must_play_pair", "must_follow_suit"]]'
    rewrites = {("follow", ("reason",), "follow.triple"): {one}, ("follow", ("reason",), "follow.suit"): {one},
                ("follow", ("reason",), "trump.order"): {one, '[["must_play_pair", "ok"]]'},
                ("winner", ("winner",), "trump.order"): {one}}
    merged = clusters._one_rewrite_each(groups, rewrites)
    assert merged == {("follow", ("reason",), "follow.suit"): [("b", []), ("c", []), ("a", [])],
                      ("follow", ("reason",), "trump.order"): [("d", [])],
                      ("winner", ("winner",), "trump.order"): [("e", [])]}


def test_reason_swap_on_r001_is_one_finding(tmp_path):
    """On r001 several clauses ask for a pair (001:9a-9c, 001:12.1): the one rewrite is one finding, named by the
    rule the reference cites for every one of its cases, follow.suit, not by the step deciding most of them."""
    _, _, report = conform(tmp_path, "reason_swap", "follow", "r001")
    [c] = report["clusters"]
    assert c["kind"] == "reason_only" and c["cases"] == len(failing(report)) > 50 and report["unexplained"] == []
    assert (c["spec"], c["engine"]) == ("reason must_play_pair", "reason must_follow_suit")
    assert c["clause"] == "follow.suit"


def test_a_merged_group_is_named_by_the_rule_all_its_cases_cite():
    from conformance.analysis import clusters
    before = {("follow", ("reason",), "follow.triple"): [("a", [])],
              ("follow", ("reason",), "follow.pair_from_triple"): [("b", []), ("c", [])],
              ("winner", ("winner",), "trump.order"): [("e", [])]}
    merged = {("follow", ("reason",), "follow.pair_from_triple"): [("b", []), ("c", []), ("a", [])],
              ("winner", ("winner",), "trump.order"): [("e", [])]}
    cited = {"a": ("follow.suit", "follow.triple"), "b": ("follow.suit", "follow.pair_from_triple"),
             "c": ("follow.suit", "follow.pair_from_triple", "follow.pair_tractors"), "e": ("trump.order",)}
    assert clusters._named_by_shared_rule(merged, before, cited) == {
        ("follow", ("reason",), "follow.suit"): [("b", []), ("c", []), ("a", [])],
        ("winner", ("winner",), "trump.order"): [("e", [])]}   # not merged: its own clause
    # a wrong card count cites no rule and names nothing: the others' shared rule still does
    uncounted = {**cited, "a": (), "b": ("follow.suit", "follow.triple")}
    assert list(clusters._named_by_shared_rule(merged, before, uncounted))[0][2] == "follow.suit"
    cited["a"] = ("follow.triple",)                               # no rule shared: the largest group's clause
    assert list(clusters._named_by_shared_rule(merged, before, cited))[0][2] == "follow.pair_from_triple"


def test_clusters_are_shown_in_the_html_report(tmp_path):
    from conformance.reporting.html_report import engine_html
    from conformance.analysis.clusters import Cluster
    from conformance.running.runner import RunResult
    r = RunResult([], [], None, ["x"], "now", 0.0, False, 0, 0, "")
    r.clusters = [Cluster("reason_only", "r000", "follow", ("reason",), "follow.pairs", "a pair led", ["c1"],
                          "reason must_play_pair", "reason must_follow_suit", {"lead": ["3H", "3H"]}, "c1")]
    html = engine_html("e", "a", r)
    assert "follow: reason" in html and "reason only" in html and "3H" in html and "No finding" not in html


def test_several_deviations_at_once_get_their_alternatives_and_a_cluster_for_the_rest(tmp_path):
    """The three features of mutant_r003 and a tie won by the last play, in one engine: the three are named by
    their alternatives, the tie by a finding beyond them, and no failure is left outside."""
    from .test_findings import CHANGED, MUTANT
    rep = tmp_path / "rep"
    r = cli("conform", "--engine", faux("mutant_ties", MUTANT, "r003"), "--ruleset", "r003", "--report", str(rep),
            "--show", "0")
    assert r.returncode == 1, r.stderr
    report = json.loads((rep / "report.json").read_text(encoding="utf-8"))
    assert {f["feature"]: f["clause"] for f in report["findings"]} == CHANGED
    [c] = report["clusters"]
    assert (c["op"], c["fields"]) == ("winner", ["winner"]) and "equal plays" in c["signature"]
    assert report["unexplained"] == []
    named = {cid for f in report["findings"] for cid in f["case_ids"]} | set(c["case_ids"])
    assert named == failing(report)


def test_a_run_charges_each_failure_as_analysing_then_clustering_every_failure_would():
    # attribute() computes the deciding clauses of the clusters' samples and of the failures outside every
    # cluster only (not of every unexplained failure first): the same charges as analyse() then cluster()
    from conformance.analysis.attribution import _alternatives, analyse, attribute
    from conformance.analysis.charges import Charge
    from conformance.generation.cases import vector_cases
    from conformance.running.runner import Runner
    from reference_impl.rules import rules_for
    cases = [c for c in vector_cases(None, ["r001"], ["follow", "winner"]) if c["id"][-1] in "01234567"]
    result = Runner(faux("several", "reason_swap", "tie_last")).run(cases, rulesets=["r001"])
    attribute(result, shrink=False)
    fails = [(c, o.answer) for c, o in zip(result.cases, result.outcomes) if o.status == "fail"]
    passes = [c for c, o in zip(result.cases, result.outcomes) if o.status == "pass"]
    rules = rules_for("r001")
    a = analyse(rules, fails, passes)
    engine_of = {c["id"]: protocol.normalize(c["op"], got) for c, got in fails}
    found = clusters.cluster(rules, "r001", [(c, engine_of[c["id"]]) for c, _ in fails if c["id"] in a.unexplained],
                             _alternatives(rules))
    charges = dict(a.charges)
    for c in found:
        charges.update({cid: Charge((c.clause,), "cluster", c.feature) for cid in c.cases})
    assert len(found) >= 2 and fails
    assert {c["id"]: o.charged for c, o in zip(result.cases, result.outcomes) if o.status == "fail"} == \
        {cid: ch.clauses for cid, ch in charges.items()}


def test_once_a_signal_came_no_cluster_is_shrunk_and_the_engine_is_stopped():
    from conformance.analysis.attribution import attribute
    from conformance.generation.cases import vector_cases
    from conformance.running.runner import Runner
    cases = [c for c in vector_cases(None, ["r001"], ["winner"]) if c["id"][-1] in "01234567"]
    result = Runner(faux("tie_last")).run(cases, rulesets=["r001"])
    seen = []
    attribute(result, stop=lambda: True, progress=seen.append)
    [c] = result.clusters
    first = next(x for x in cases if x["id"] == c.shrunk_from)
    assert c.steps == 0 and c.position == first["input"] and c.spec != c.engine
    assert not any("shrinking" in t for t in seen)
    assert [e["kind"] for e in result.events if e["kind"] == "shrinking_stopped"] == ["shrinking_stopped"]
    assert result.runner.engine is None   # the engine started to shrink was stopped


def test_shrinking_goes_to_the_workers_only_when_it_pays():
    from conformance.analysis.clusters import farm_out
    assert not farm_out(0.02, 7, 0.15, 2, free=2)     # an engine as fast as the reference: every cluster here
    assert farm_out(2.0, 7, 0.15, 2, free=2)          # seconds per cluster, two cores free: on the workers
    assert not farm_out(2.0, 7, 0.15, 2, free=0.6)    # the cores busy with other work: here
    assert not farm_out(2.0, 7, 0.15, 1, free=2) and not farm_out(2.0, 1, 0.15, 2, free=2)   # one worker, one left


# --------------------------------------------------------------------------- named by the part a difference needs

def test_an_offender_barred_from_his_own_suit_is_named_by_the_rule_on_wrong_declarations(tmp_path):
    """001's declare.wrong: the one who showed a suit wrongly may still declare it (the spec's answer is ``ok``,
    decided by declare.first_hand or declare.overcall). The engine's refusal needs the wrong declaration: taken
    out, it agrees, so the findings name declare.wrong, the rule that part brings in."""
    r, _, report = conform(tmp_path, "offender_barred", "declare", "r001")
    assert report["clusters"] and report["unexplained"] == [] and len(report["clusters"]) <= 3
    for c in report["clusters"]:
        assert c["clause"] == "declare.wrong", c
        assert c["decided_by"] in ("declare.first_hand", "declare.overcall")
        assert {"part": "wrong", "clauses": ["declare.wrong"]} in c["needs"]
        assert c["position"]["wrong"] and c["spec"].startswith("legal true") and c["engine"].startswith("legal false")
    assert "needs:  wrong (declare.wrong): without it the engine agrees" in r.stdout


def test_a_hand_scored_with_the_dealt_kitty_is_named_by_the_kitty_exchange(tmp_path):
    """000:2.3: the banker buries as many cards as he took up, and the buried kitty is the one scored. An engine
    scoring the kitty as dealt agrees once the exchange is taken out of the hand, so the findings name
    kitty.exchange, not the first clause the whole hand consults."""
    _, _, report = conform(tmp_path, "kitty_dealt", "hand", "r000")
    assert report["clusters"] and report["unexplained"] == []
    for c in report["clusters"]:
        assert c["clause"] == "kitty.exchange" and c["op"] == "hand", c
        assert any(n["part"] == "the kitty exchange" and n["clauses"] == ["kitty.exchange"] for n in c["needs"])


def test_a_difference_that_needs_no_part_keeps_the_clause_deciding_it():
    """A cluster is renamed only by a part whose rule is not already its clause, and never by a part that
    brings in no rule."""
    from conformance.analysis.clusters import Cluster
    c = Cluster("cluster", "r001", "declare", ("legal",), "declare.overcall", "", ["x"])
    c.needs = [{"part": "declarations[0]", "clauses": []}, {"part": "wrong", "clauses": ["declare.overcall"]}]
    c.name_by_parts()
    assert (c.clause, c.decided_by) == ("declare.overcall", "")
    c.needs = [{"part": "declarations[0]", "clauses": []}, {"part": "wrong", "clauses": ["declare.wrong", "x.y"]}]
    c.name_by_parts()
    assert (c.clause, c.decided_by) == ("declare.wrong", "declare.overcall")
    assert "declarations[0], wrong (declare.wrong, x.y): without any one of them" in c.needs_text


def test_the_parts_of_a_position_are_its_keys_the_kitty_exchange_and_the_entries_of_its_lists():
    from conformance.analysis.shrinking import parts
    inp = {"level": "7", "declarations": [{"seat": 1, "cards": ["7D"]}, {"seat": 2, "cards": ["7S", "7S"]}],
           "wrong": [{"seat": 1, "cards": ["2D"]}]}
    got = dict(parts(inp))
    assert list(got) == ["level", "declarations", "wrong", "declarations[0]", "declarations[1]"]
    assert got["wrong"] == {"level": "7", "declarations": inp["declarations"]}
    assert got["declarations[0]"]["declarations"] == [{"seat": 2, "cards": ["7S", "7S"]}]
    assert inp["declarations"][0] == {"seat": 1, "cards": ["7D"]}      # the position itself is left as it was


def test_the_kitty_exchange_taken_out_leaves_every_trick_and_the_spec_s_score():
    """000:2.3 the banker takes up the kitty and buries as many cards: dealt the buried cards as his kitty (his
    hand what he played from), the hand is the same hand, and the spec scores it the same."""
    from conformance.analysis.shrinking import _exchange_undone
    from conformance.generation.cases import vector_cases
    from conformance.generation.decisions import answer, judged
    from reference_impl.rules import rules_for
    rules = rules_for("r000")
    hands = [c for c in vector_cases(None, ["r000"], ["hand"])][:4]
    assert hands
    for case in hands:
        t = case["input"]["transcript"]
        undone = _exchange_undone(t)
        assert undone["deal"]["kitty"] == t["discard"] and undone["tricks"] == t["tricks"]
        assert answer(rules, "hand", {"transcript": undone}) == answer(rules, "hand", case["input"])
        assert "kitty.exchange" in judged(rules, "hand", case["input"])[1]
        assert "kitty.exchange" not in judged(rules, "hand", {"transcript": undone})[1]
        assert _exchange_undone(undone) is None


def test_the_analysis_asks_the_engine_the_run_started_and_stops_it_after(tmp_path):
    """The run's engine stays up for the analysis (shrinking and asking between rival values) instead of a second
    process being started; when the command ends, it is stopped like any other."""
    import os
    log = tmp_path / "starts"
    rep = tmp_path / "rep"
    r = cli("conform", "--engine", faux("counted", log), "--ruleset", "r001", "--ops", "winner", "--report",
            str(rep), "--show", "0", env={**os.environ, "TRACTOR_SHRINK_ON_WORKERS": "0"})
    assert r.returncode == 1, r.stderr
    report = json.loads((rep / "report.json").read_text(encoding="utf-8"))
    assert report["clusters"] and any(c["steps"] > 0 for c in report["clusters"])   # asked while shrinking
    pids = log.read_text(encoding="utf-8").split()
    assert len(pids) == 1, pids
    assert not os.path.exists(f"/proc/{pids[0]}") or open(f"/proc/{pids[0]}/stat").read().split()[2] in "ZX"


# issue 30, item 6: a signal during the analysis left "interrupted": false and an unshrunk position labelled minimal

def _two_clusters():
    case = {"id": "r000:winner:1", "op": "winner", "ruleset": "r000", "input": {"level": "2", "trump": "S"},
            "expected": {"winner": 1}, "clauses": ["trump.order"]}
    other = {**case, "id": "r000:winner:2"}
    made = [clusters.Cluster("cluster", "r000", "winner", ("winner",), "trump.order", "equal plays", [c["id"]])
            for c in (case, other)]
    return made, {c["id"]: c for c in (case, other)}, {c["id"]: {"winner": 2} for c in (case, other)}


class _Alive:
    alive = True
    spec = None


def test_clusters_a_signal_kept_from_shrinking_say_so_and_are_no_minimal_position():
    made, case_of, engine_of = _two_clusters()
    complete = clusters.describe(None, made, case_of, engine_of, _Alive(), stop=lambda: True)
    assert complete is False
    for c in made:
        assert c.not_shrunk == "interrupted" and c.to_dict()["shrunk"] is False
        assert c.position_label == "first failing position (not shrunk: interrupted)"
    from conformance.reporting.report import cluster_lines
    text = "\n".join(cluster_lines(1, made[0]))
    assert "first failing position (not shrunk: interrupted)" in text and "minimal position" not in text


def test_clusters_with_no_engine_to_ask_are_not_called_minimal():
    made, case_of, engine_of = _two_clusters()
    assert clusters.describe(None, made, case_of, engine_of, None) is True
    assert {c.position_label for c in made} == {"first failing position (not shrunk: no engine to ask)"}


def test_a_report_of_a_run_stopped_in_its_analysis_says_interrupted_and_what_did_not_finish():
    from conformance.reporting import report
    from conformance.running.runner import Outcome, RunResult
    made, case_of, engine_of = _two_clusters()
    clusters.describe(None, made, case_of, engine_of, _Alive(), stop=lambda: True)
    cases = list(case_of.values())
    result = RunResult(cases, [Outcome("fail", "disagrees", "", answer={"winner": 2}) for _ in cases], None, ["e"],
                       "now", 1.0, False, 0, 0, "", rulesets=["r000"], clusters=made,
                       unfinished=["shrinking the clusters of r000: 2 keep their first failing position"])
    doc = report.report_dict(result)
    assert doc["interrupted"] is True and doc["unfinished"] == result.unfinished
    assert protocol.schema_errors("report", json.loads(report.report_json(result))) == []
    md = report.markdown(result)
    assert "**interrupted** during the analysis" in md and "2 keep their first failing position" in md
    assert "first failing position (not shrunk: interrupted)" in md and "minimal position" not in md
    from conformance.reporting import html_report, matrix
    html = html_report.render(matrix.build([result]), [result])
    assert "not finished (interrupted)" in html and "first failing position (not shrunk: interrupted)" in html
    assert json.loads(matrix.to_json(matrix.build([result]), [result]))["runs"][0]["interrupted"] is True


def test_a_reason_named_in_another_order_is_read_as_that_order_and_no_rule_that_changes_who_may_play_what(tmp_path):
    """An engine naming the pairs a follower misses before the tractor (as tonyyunyang/80-fen-shengji does) answers
    legality as the spec on every case. The rule it reads otherwise is the order of the reasons, H38
    (follow.reason_order = pairs_first): one finding of every failure, breaking no pass. No rule that also makes the
    engine's reasons but refuses or allows plays the engine judges as the spec (a tractor of 7 pairs at least, a
    follow ladder asking for the pair first) names any of them (issue 31, items 1 and 3)."""
    _, _, report = conform(tmp_path, "pair_named_first", ",".join(protocol.OPERATIONS))
    assert report["clusters"] == [] and report["unexplained"] == []
    [f] = report["findings"]
    assert f["feature"] == "follow.reason_order" and "(H38)" in f["engine"][0]
    # r000 states its order as an interpretation (follow.refusal, 000:2.16c, 2.16d): the finding is charged to it
    assert (f["clause"], f["spec"]) == ("follow.refusal", "largest")
    assert f["cases"] == len(failing(report)) >= 5 and f["broken"] == 0
    assert all(c["op"] == "follow" and (c["expected"]["reason"], c["answer"]["reason"]) ==
               ("must_play_tractor", "must_play_pair") and c["expected"]["legal"] is False
               for c in report["cases"] if c["status"] == "fail")


def test_a_pass_changed_in_its_primary_field_weighs_more_against_failures_differing_in_their_reason():
    """tonyyunyang/80-fen-shengji, run on r000: "follow tractor(pair, 2): rung 1 moved to place 2" gave the engine's
    reason on 26 failures (legality the spec's on each) and changed legality on 10 passing cases; the engine only
    names the pair before the tractor. Such a rule is not the engine's; one explaining 26 failures of legality
    and breaking 10 passes would be."""
    from conformance.analysis.ranking import cost, outweighs, secondary_only
    assert secondary_only("follow", ["reason"]) and not secondary_only("follow", ["legal", "reason"])
    assert not secondary_only("follow", ["reason"], ("reason",))   # legality not asked: nothing to keep
    assert outweighs(26, cost(10, 0, secondary_only("follow", ["legal", "reason"])))
    assert not outweighs(26, cost(10, 10, secondary_only("follow", ["reason"])))
    assert outweighs(26, cost(10, 0, secondary_only("follow", ["reason"])))   # passes changed in the reason only


def test_a_house_rule_the_ruleset_leaves_unset_is_shown_as_what_the_unset_setting_means():
    # "spec: as r000 states it" told an engine author nothing: r000 leaves follow.fill (H37) unset, which the
    # schema says means free (any fill meeting the ladder, 000:2.16a)
    from conformance.analysis.attribution import spec_value
    from conformance.generation.alternatives import alternatives
    from reference_impl.rules import rules_for
    rules = rules_for("r000")
    [h37] = [a for a in alternatives(rules) if a.feature == "follow.fill"]
    assert "follow.fill" not in rules.checked.values and spec_value(rules, h37) == "not set: free"
