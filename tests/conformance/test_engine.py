"""The reference engine: the interpreter behind the protocol (``tractor engine``)."""
import json
import random
import sys

import pytest

from conformance.protocol import engine
from conformance.protocol import engine_io
from conformance.protocol import messages as protocol
from conformance.generation.cases import vector_cases

from .conftest import REPO
from tests import processes


def _talk(lines, timeout=processes.PATIENCE):
    """Send request lines to a fresh ``tractor engine``; its answers (decoded) and exit status."""
    proc = processes.run([sys.executable, "-m", "tractor_cli.main", "engine"], input="".join(lines),
                          capture_output=True, text=True, timeout=timeout, cwd=REPO)
    return [json.loads(x) for x in proc.stdout.splitlines()], proc.returncode, proc.stderr


def test_engine_subprocess_speaks_the_protocol():
    follow = {"level": "7", "trump": "H", "lead": ["5S", "5S"], "hand": ["6S", "QD", "AC", "KD"],
              "play": ["6S", "AC"]}
    reqs = [protocol.handshake_request(0),
            protocol.request(1, "follow", "r001", follow),
            "this is not json\n",
            {"seq": 3, "op": "fly", "ruleset": "r001", "input": {}},
            protocol.request(4, "classify", "r001", {"level": "7", "trump": "H", "cards": ["BJ"]}),
            protocol.request(5, "classify", "nope", {"level": "7", "trump": "H", "cards": ["5H"]}),
            protocol.shutdown_request(6),
            protocol.request(7, "classify", "r001", {"level": "7", "trump": "H", "cards": ["5H"]})]
    answers, rc, err = _talk([r if isinstance(r, str) else protocol.encode(r).decode() for r in reqs])
    assert rc == 0, err
    assert len(answers) == 7  # nothing after the shutdown
    hs = answers[0]["result"]
    assert hs["protocol"] == protocol.PROTOCOL_VERSION and hs["name"] == "tractor-reference"
    assert set(hs["rulesets"]) >= {"r000", "r001", "r003"}
    assert set(hs["operations"]) >= {"classify", "lead", "follow", "winner"}
    assert answers[1] == {"seq": 1, "result": {"legal": True, "reason": "ok", "clauses": ["follow.suit"]}}
    assert "errored" in answers[2] and "invalid JSON" in answers[2]["errored"]["message"]
    assert answers[3]["seq"] == 3 and "unknown operation" in answers[3]["errored"]["message"]
    assert answers[4]["seq"] == 4 and "ambiguous" in answers[4]["errored"]["message"]
    assert answers[5]["seq"] == 5 and "unknown ruleset" in answers[5]["errored"]["message"]
    assert answers[6] == {"seq": 6, "result": {}}
    for a in answers[:6]:
        check = protocol.check_answer("handshake" if a is answers[0] else "follow", a)
        assert check in ("result", "errored")


def test_handshake_flag_prints_the_handshake():
    proc = processes.run([sys.executable, "-m", "tractor_cli.main", "engine", "--handshake"], capture_output=True,
                          text=True, cwd=REPO, timeout=processes.PATIENCE)
    assert proc.returncode == 0
    msg = json.loads(proc.stdout)
    assert protocol.check_answer("handshake", msg) == "result"


@pytest.mark.parametrize("op,inp,words", [
    ("classify", {"level": "7", "trump": "H", "cards": ["5h"]}, "upper case"),
    ("classify", {"level": "7", "trump": "H", "cards": ["5H"] * 4}, "3 deck"),
    ("classify", {"level": "1", "trump": "H", "cards": ["5H"]}, "not a level"),
    ("classify", {"level": "2", "trump": "H", "cards": ["5H"]}, "fixed trump rank"),
    ("classify", {"level": "7", "trump": "X", "cards": ["5H"]}, "trump"),
    ("classify", {"level": "7", "cards": ["5H"]}, "level and a trump"),
    ("lead", {"level": "7", "trump": "H", "cards": ["5H"], "others": [[]]}, "three other hands"),
    ("follow", {"level": "7", "trump": "H", "lead": [], "hand": ["5H"], "play": []}, "at least one card"),
    ("follow", {"level": "7", "trump": "H", "lead": "5H", "hand": ["5H"], "play": ["5H"]}, "list of card"),
    ("winner", {"level": "7", "trump": "H", "leader": 4, "plays": [["5H"]] * 4}, "seat"),
    ("winner", {"level": "7", "trump": "H", "leader": 0, "plays": [["5H"]] * 3}, "four plays"),
    ("result", {"attackers_points": "many"}, "integer"),
    ("advance", {"level": "Z", "gain": 1, "as_banker": True}, "not a level"),
    ("declare", {"level": "7", "first_hand": True, "declarations": []}, "non-empty"),
    ("hand", {"transcript": []}, "transcript"),
])
def test_bad_input_is_errored_with_a_message(op, inp, words):
    ans = engine_io.answer(protocol.request(9, op, "r001", inp))
    assert "errored" in ans, ans
    assert words in ans["errored"]["message"], ans
    assert protocol.check_answer(op, ans) == "errored"


def test_an_operation_the_interpreter_lacks_is_skipped():
    ans = engine_io.answer(protocol.request(2, "follow", "r001", {}), supported=frozenset({"classify"}))
    assert ans == {"seq": 2, "skipped": {"reason": "the reference interpreter does not implement follow yet"}}


def test_a_request_without_a_seq_is_errored():
    ans = engine_io.answer({"op": "classify"})
    assert "errored" in ans and ans["seq"] == 0


def test_in_process_answers_equal_the_vectors():
    for c in vector_cases(rulesets=["r000", "r003"]):
        result, clauses = engine.judge(c["op"], c["ruleset"], c["input"])
        assert protocol.compare(c["op"], c["expected"], result) == [], c["id"]
        assert list(clauses) == c["clauses"], c["id"]


def _transcript(record) -> dict:
    """A HandRecord of the interpreter's own simulation as a protocol transcript."""
    from reference_impl.cards import text

    def fmt(cs):
        return [text(c) for c in cs]
    tricks = []
    for t in record.tricks:
        plays = [[] for _ in range(4)]
        for seat, cards in t.plays:
            plays[seat] = fmt(cards)
        trick = {"leader": t.leader, "plays": plays}
        if t.attempted is not None:
            trick["failed_throw"] = fmt(t.attempted)
        tricks.append(trick)
    return {"level": record.level, "trump": None if record.trump is None else "SHDC"[record.trump],
            "banker": record.banker, "first_hand": record.number == 1,
            "deal": {"hands": [fmt(record.deal[s]) for s in range(4)], "kitty": fmt(record.kitty)},
            "declarations": [{"seat": s, "cards": fmt(c)} for s, c in record.declarations],
            "discard": fmt(record.buried), "tricks": tricks}


@pytest.mark.parametrize("name", ["r000", "r001", "r001_powers", "r003"])
def test_hand_replay_agrees_with_the_interpreters_simulation(name):
    """Two paths to a hand's score: reference_impl.hand.play_hand, and the engine's replay of its transcript."""
    from reference_impl.hand import play_hand
    from reference_impl.rules import rules_for
    rules = rules_for(name)
    start = rules["level.start"]
    for seed in range(3):
        record = play_hand(rules, random.Random(seed), 1 + seed % 2, {0: start, 1: start},
                           None if seed % 2 == 0 else seed % 4)
        inp = {"transcript": _transcript(record)}
        assert not protocol.schema_errors("hand.request", protocol.request(1, "hand", name, inp))
        result, _ = engine.judge("hand", name, inp)
        assert result["attackers_points"] == record.attackers_points, (name, seed)
        assert (result["next_banker"], result["levels"]) == (record.next_banker_side, record.levels_gained)


# --------------------------------------------------------------------------- hostile requests (issue 13)

def test_the_engine_answers_every_hostile_line_and_goes_on():
    """One answer per line, in order, valid UTF-8 JSON, whatever the line; the engine never exits on one."""
    from conformance.protocol.jsonlines import decode
    from tractor_dsl import limits
    inp = b'"ruleset": "r001", "input": {"level": "7", "trump": "H", "cards": '
    lines = [
        b'{"seq": 1, "op": ["x"]}',
        b'{"seq": 2, "op": "classify", "input": ' + b"[" * 1000 + b"]" * 1000 + b"}",
        b'{"seq": 3, "op": "classify", ' + inp + b'["\\ud800"]}}',
        b'{"seq": 4, "op": "classify", ' + inp + b'["5H"], "x": NaN}}',
        b'{"seq": 5, "op": "classify", ' + inp + b'["\xff"]}}',
        b'{"seq": 6, "op": "classify", ' + inp + b'["5H"]',
        b'{"seq": 7, "op": "classify", ' + inp + json.dumps(["5H"] * (limits.CARDS_PER_REQUEST + 1)).encode() + b"}}",
        b'{"seq": 8, "op": "classify", ' + inp + b'["5H"], "x": "' + b"a" * (limits.LINE_BYTES + 10) + b'"}}',
        b'{"seq": 9, "op": "classify", ' + inp + b'["5H", "5H"]}}',
        b'{"seq": 10, "op": "shutdown"}',
    ]
    proc = processes.run([sys.executable, "-m", "tractor_cli.main", "engine"], input=b"\n".join(lines) + b"\n",
                          capture_output=True, text=False, timeout=processes.PATIENCE, cwd=REPO)
    assert proc.returncode == 0, proc.stderr[-2000:]
    answers = [decode(line) for line in proc.stdout.splitlines()]
    assert [a["seq"] for a in answers] == list(range(1, 11))
    code = {a["seq"]: a["errored"].get("context", {}).get("code") for a in answers if "errored" in a}
    assert code == {1: None, 2: "too_deep", 3: None, 4: "invalid_json", 5: "not_utf8", 6: "invalid_json",
                    7: "too_many_cards", 8: "line_too_long"}
    assert "unknown operation ['x']" in answers[0]["errored"]["message"]
    assert "is not a card" in answers[2]["errored"]["message"]
    assert answers[8]["result"]["kind"] == "pair" and answers[9] == {"seq": 10, "result": {}}


def test_respond_never_raises():
    for item in [("line", b"\x00"), ("line", b"[]"), ("line", b'{"seq": -1}'), ("line", b'{"seq": 1, "op": {}}'),
                 ("oversized", 5, b""), ("line", b'{"seq": 2, "op": "classify", "ruleset": [], "input": []}'),
                 ("line", b'{"seq": 3, "op": "hand", "ruleset": "r001", "input": {"transcript": {"level": []}}}')]:
        data, stop = engine_io.respond(item)
        msg = json.loads(data)
        assert not stop and protocol.check_answer("classify", msg) == "errored", (item, msg)


def test_a_failed_throw_must_be_held_by_its_leader():
    case = next(c for c in vector_cases(rulesets=["r001"], ops=["hand"]))
    transcript = json.loads(json.dumps(case["input"]["transcript"]))
    transcript["tricks"][0]["failed_throw"] = ["J+"] * 4  # more big jokers than three decks hold
    with pytest.raises(engine.InputError, match=r"tricks\[0\].failed_throw: plays cards that are not held"):
        engine.judge("hand", "r001", {"transcript": transcript})


def test_the_handshake_version_is_the_installed_distributions():
    # read from the dist-info without importlib.metadata (start-up), but the same answer
    from importlib.metadata import version
    assert engine.engine_version() == version("tractor-rulebook")
    found = engine._installed_version()
    assert found is None or found == version("tractor-rulebook")


def test_a_request_names_a_served_a_read_or_a_bundled_ruleset():
    from reference_impl import rules
    assert engine._rules("r003") is rules.rules_for("r003")
    with pytest.raises(engine.InputError, match="unknown ruleset 'r999'"):
        engine._rules("r999")
    with pytest.raises(engine.InputError, match="unknown ruleset 3"):
        engine._rules(3)


def test_serving_in_process_leaves_the_collector_as_it_found_it():
    # serve() collects less often and sets the library aside while it serves, and undoes both on return
    import gc
    import io
    import os
    r, w = os.pipe()
    os.write(w, (json.dumps(protocol.handshake_request(0)) + "\n" + json.dumps(protocol.shutdown_request(1))
                 + "\n").encode())
    os.close(w)
    before = gc.get_threshold(), gc.get_freeze_count()
    out = io.BytesIO()
    try:
        assert engine_io.serve(r, out) == 0
    finally:
        os.close(r)
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [a["seq"] for a in answers] == [0, 1] and answers[0]["result"]["name"] == engine.ENGINE_NAME


# --------------------------------------------------------------------------- a transcript is a whole hand

def _a_hand(name: str) -> dict:
    from reference_impl.hand import play_hand
    from reference_impl.rules import rules_for
    rules = rules_for(name)
    start = rules["level.start"]
    return _transcript(play_hand(rules, random.Random(1), 1, {0: start, 1: start}, None))


def test_a_transcript_that_stops_before_the_last_card_is_refused():
    """000:2.1 25 cards each, played out trick by trick: a transcript short of its last trick is no hand."""
    t = _a_hand("r000")
    ans = engine_io.answer(protocol.request(3, "hand", "r000", {"transcript": {**t, "tricks": t["tricks"][:-1]}}))
    assert "errored" in ans and "still holds 1 card(s) after the last trick" in ans["errored"]["message"], ans


def test_the_kitty_exchange_is_cited_when_the_banker_buried_other_cards():
    """000:2.3 the banker takes up the kitty and buries as many: the buried cards are the kitty scored, by
    kitty.exchange; a transcript burying the dealt kitty itself cites it not."""
    t = _a_hand("r000")
    assert sorted(t["discard"]) != sorted(t["deal"]["kitty"])
    _, clauses = engine.judge("hand", "r000", {"transcript": t})
    assert "kitty.exchange" in clauses and clauses.index("kitty.exchange") < clauses.index("kitty.capture")


def test_a_discard_is_refused_where_the_ruleset_has_no_exchange(tmp_path):
    """001:8b read as no exchange (the reading ``no_exchange`` of 001's kitty.exchange): the kitty stays as
    dealt, so a transcript burying other cards cannot be one of its hands."""
    from reference_impl.rules import load_file
    path = tmp_path / "still.tractor"
    path.write_text('ruleset still extends r001 {\n  title "r001, no exchange" "001，不换底"\n'
                    '  override kitty.exchange choose no_exchange because "a test" "测试"\n}\n', encoding="utf-8")
    rules = load_file(path)
    assert rules["kitty.exchange"] is False
    t = _a_hand("r001")
    with pytest.raises(engine.InputError, match="exchanges no kitty"):
        engine.replay_hand(rules, t)
