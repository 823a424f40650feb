"""``tractor explain``: every protocol operation, plays counted from 1, --leader, its own usage on a bad option."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conformance.protocol import messages as protocol
from conformance.analysis.variants.questions import Outcome
from conformance.analysis.variants.render import answer_parts, trump_words
from tractor_cli import cmd_explain
from tractor_cli.main import main
from tractor_cli.ui import parts_text

VECTORS = Path(__file__).resolve().parents[2] / "conformance" / "vectors"
REPR = re.compile(r"\b[A-Z][A-Za-z]+\([a-z_]+=")   # HandResult(next_banker=..., a dataclass's repr


@pytest.fixture(autouse=True)
def _plain(monkeypatch):
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("COLUMNS", "200")


def _explain(capsys, *argv) -> tuple[int, str, str]:
    code = main(["explain", *argv])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_every_protocol_operation_can_be_asked():
    assert cmd_explain.QUESTIONS == protocol.OPERATIONS


@pytest.mark.parametrize("op", protocol.OPERATIONS)
def test_explain_answers_the_checked_in_vector(op, capsys):
    """The first vector of each operation in r003, asked with --input, gets the vector's expected answer."""
    case = json.loads((VECTORS / "r003" / f"{op}.jsonl").read_text(encoding="utf-8").splitlines()[0])
    code, out, err = _explain(capsys, "r003", op, "--input", json.dumps(case["input"]))
    assert code == 0, err
    want = case["expected"]   # the compared fields only
    if op == "kitty":        # the answer also names the trick's winner, which a vector does not keep
        p = want["points"]
        assert f"gain {p}" in out if p > 0 else f"lose {-p}" in out if p < 0 else "do not change" in out
    elif op == "undeclared":  # likewise the kitty card that names trump
        assert ("redeal" in out) if want["redeal"] else (trump_words(want["trump"], "en") in out)
    else:
        assert f"answer: {parts_text(answer_parts(Outcome(op, want, ()), 'en'))}" in out
    for cid in case.get("clauses", []):
        assert cid in out
    assert not REPR.search(out), out


def test_winner_counts_plays_from_one_and_takes_the_leader(capsys):
    # 001:5.1 — at level 3 with clubs trump, the 2s and 3s are trump: the clubs pairs (play 3) win
    code, out, _ = _explain(capsys, "r001", "winner", "--level", "3", "--trump", "C", "--leader", "1", "--plays",
                            "2H 2H 3H 3H", "2S 2S 3S 3S", "2C 2C 3C 3C", "4D 4D 5D 5D")
    assert code == 0
    assert "seat 1 2♥ 2♥ 3♥ 3♥, seat 2 2♠ 2♠ 3♠ 3♠, seat 3 2♣ 2♣ 3♣ 3♣, seat 0 4♦ 4♦ 5♦ 5♦" in out
    assert re.search(r"answer: seat 3 wins; 10 points in the trick \(play 3\)", out)
    assert "play 1 is the lead" in out   # the numbering is said


def test_kitty_the_last_trick_by_plays(capsys):
    # 003:9.3 — attackers win the last trick with a trump pair: kitty points x6 (5 + 10 + 10 = 25 -> 150)
    code, out, _ = _explain(capsys, "r003", "kitty", "--plays", "AS AS", "3H 4H", "5D 6D", "7C 8C",
                            "--kitty", "5H 10H KD 3C 4C 6C", "--banker-seat", "1")
    assert code == 0
    assert "25 points × 6" in out and "gain 150" in out and "(play 1)" in out and "kitty.capture" in out


@pytest.mark.parametrize("op, extra", [("kitty", ("--plays", "AS AS", "3H 4H", "5D 6D", "7C 8C", "--banker-seat", "1")),
                                       ("undeclared", ())])
def test_a_kitty_of_another_size_than_the_rulesets_is_refused(capsys, op, extra):
    # 003:2.1 — three decks, a kitty of 6: a kitty of 3 cannot occur in an r003 hand
    code, out, err = _explain(capsys, "r003", op, "--kitty", "5H 10H KD", *extra)
    assert code == 2 and out == ""
    assert err.strip() == "tractor explain: --kitty holds 3 card(s), but a kitty of r003 holds 6 (equipment.kitty_size)"


def test_the_new_operations_from_options(capsys):
    # 003:6.2 — the declarer may reinforce with more copies of the same card
    code, out, _ = _explain(capsys, "r003", "declare", "--level", "5", "--declare", "0:5H", "--declare", "0:5H")
    assert code == 0 and "answer: legal: hearts trump" in out
    # 003:8.1 — each wrong card costs 10 points
    code, out, _ = _explain(capsys, "r003", "penalty", "--fault", "revoke:attackers:1", "--points", "60")
    assert code == 0 and "points -10" in out and "penalty.wrong_card" in out
    # 003:6.4 — nobody declares: the third card of the kitty names trump
    code, out, _ = _explain(capsys, "r003", "undeclared", "--level", "5", "--kitty", "3H 5S 2C 4D 6D 8D",
                            "--first-hand")
    assert code == 0 and "kitty card 3 names trump: clubs trump" in out


def test_hand_reads_a_transcript_file(tmp_path, capsys):
    case = json.loads((VECTORS / "r003" / "hand.jsonl").read_text(encoding="utf-8").splitlines()[0])
    path = tmp_path / "t.json"
    path.write_text(json.dumps(case), encoding="utf-8")   # a whole vector: its transcript is found inside
    code, out, err = _explain(capsys, "r003", "hand", "--transcript", str(path))
    assert code == 0, err
    assert parts_text(answer_parts(Outcome("hand", case["expected"], ()), "en")) in out


def test_results_are_words_not_reprs(capsys):
    # 001:8a — 85 points: the banker side rises one level
    code, out, _ = _explain(capsys, "r001", "result", "--points", "85")
    assert code == 0 and "answer: the banker side keeps the bank and rises 1 level" in out
    # 003:3.2 — A must be played: K + 2 stops at A
    code, out, _ = _explain(capsys, "r003", "advance", "--level", "K", "--gain", "2", "--banker")
    assert code == 0 and "answer: it reaches A" in out
    assert not REPR.search(out)


def test_chinese(capsys):
    code, out, _ = _explain(capsys, "r003", "classify", "5H 5H 6H 6H", "--zh")
    assert code == 0 and "答案：2对拖拉机" in out and "5♥ 5♥ 6♥ 6♥" in out


def test_bad_input_is_a_message(capsys):
    code, out, err = _explain(capsys, "r003", "penalty", "--fault", "revoke", "--points", "1")
    assert code == 2 and "KIND:OFFENDER" in err and "Traceback" not in err
    code, out, err = _explain(capsys, "r003", "hand", "--transcript", "/no/such/file.json")
    assert code == 2 and "cannot read" in err


def test_a_bad_option_prints_the_usage_of_explain(capsys):
    with pytest.raises(SystemExit) as e:
        main(["explain", "r003", "winner", "--bogus"])
    err = capsys.readouterr().err
    assert e.value.code == 2
    # the usage is short (three lines) and says where the options of each question are
    assert err.startswith("usage: tractor explain") and "explain -h" in err and "--bogus" in err
    assert len(err.strip().splitlines()) <= 4


def test_a_failing_case_of_a_run_is_explained_by_its_id(tmp_path, capsys, monkeypatch):
    """A conform report names each failing case and how to explain it; `explain --case ID` reads the case's
    input from the report (or the default suite) and answers as the vector expects."""
    from conformance.reporting import report
    from conformance.running.runner import Outcome as RunOutcome
    case = json.loads((VECTORS / "r003" / "follow.jsonl").read_text(encoding="utf-8").splitlines()[0])
    drawn = report.draw_case(case, RunOutcome("fail", "disagrees", "m", {"legal": not case["expected"]["legal"]}))
    assert f"explain:  tractor explain --case {case['id']}" in drawn
    monkeypatch.chdir(tmp_path)       # no report here: the default suite of r003 holds the case
    code, out, err = _explain(capsys, "--case", case["id"])
    assert code == 0, err
    assert f"case: {case['id']} (from the default suite of r003)" in out
    assert ("answer: legal" in out) == case["expected"]["legal"]
    # a report holding the case (as conform writes a failing one), another input under the same id
    other = json.loads((VECTORS / "r003" / "follow.jsonl").read_text(encoding="utf-8").splitlines()[1])
    (tmp_path / "rep").mkdir()
    (tmp_path / "rep" / "report.json").write_text(json.dumps({"cases": [{"id": case["id"], "input": other["input"]}]}))
    code, out, err = _explain(capsys, "--case", case["id"], "--report", str(tmp_path / "rep"))
    assert code == 0 and "report.json)" in out and ("answer: legal" in out) == other["expected"]["legal"]
    for bad, says in ((["--case", "r003:follow"], "expected RULESET:OPERATION:HASH"),
                      (["--case", "r003:follow:000000000000"], "no case r003:follow:000000000000"),
                      (["--case", "no_such_house:follow:000000000000"], "give its rule file"),
                      (["r003", "lead", "--case", case["id"]], "is a follow case, not lead"),
                      ([], "give RULESET QUESTION")):
        code, out, err = _explain(capsys, *bad)
        assert code == 2 and says in err and "Traceback" not in err, (bad, err)


def test_a_mixed_tractor_is_named_as_one_not_as_a_tractor_of_pairs(capsys, tmp_path):
    # 001:10.2 read with tractor.mixed (V13): 88999 is a pair and a triple side by side, five cards, not
    # "a tractor of 2 pairs" (four)
    f = tmp_path / "mixed.tractor"
    f.write_text('ruleset r001_mixed_t extends r001 {\n  title "mixed" "混合"\n'
                 '  override tractor.mixed choose mixed because "a test" "测试"\n}\n', encoding="utf-8")
    code, out, _ = _explain(capsys, str(f), "classify", "8H 8H 9H 9H 9H", "--level", "J")
    assert code == 0 and "answer: a mixed tractor: 2 adjacent pairs and triples" in out
    code, out, _ = _explain(capsys, str(f), "classify", "8H 8H 9H 9H 9H", "--level", "J", "--zh")
    assert code == 0 and "答案：2组对子与三条相连的拖拉机" in out


def test_deal_takes_the_hands_and_the_kitty_and_says_whether_the_deal_is_proper(capsys):
    """000:2.1: 108 cards, 25 to each player and a kitty of 8 — a proper deal of r000; V05 takes the two 3s of
    clubs out and deals a kitty of 6, so the same deal is not a proper one of V05 (in Chinese too)."""
    from reference_impl.cards import full_pack, text
    from tractor_dsl.bundled import default_spec_dir
    v05 = str(default_spec_dir() / "variants" / "v05_kitty_with_cards_removed.tractor")
    pack = [text(c) for c in full_pack(2)]
    deal = ["--hands", *[" ".join(pack[i * 25:(i + 1) * 25]) for i in range(4)], "--kitty", " ".join(pack[100:])]
    code, out, err = _explain(capsys, "r000", "deal", *deal)
    assert code == 0 and "answer: a proper deal; it stands" in out, out + err
    code, out, err = _explain(capsys, v05, "deal", *deal)
    assert code == 0 and "answer: not a proper deal (a kitty of the wrong size)" in out, out + err
    code, out, _ = _explain(capsys, v05, "deal", "--zh", *deal)
    assert "不是合规的发牌（底牌张数不对）" in out and "not a proper" not in out
    code, _, err = _explain(capsys, "r000", "deal", "--kitty", "5S")
    assert code != 0 and "--hands" in err


def test_explain_in_chinese_uses_the_rulesets_own_words(capsys):
    """Issue 33 item 4: r003's answers say 非庄家方 (003:4), r001's 攻庄方 (001:2), never the other's."""
    outs = {}
    for name in ("r001", "r003"):
        assert main(["explain", name, "result", "--points", "130", "--zh"]) == 0
        outs[name] = capsys.readouterr().out
    assert "攻庄方" in outs["r001"] and "非庄家方" not in outs["r001"]
    assert "非庄家方" in outs["r003"] and "攻庄方" not in outs["r003"]
