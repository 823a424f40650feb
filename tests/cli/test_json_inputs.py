"""Every JSON a user gives the tool is read by one reader with the protocol's limits (issue 30, item 9): a text
nested past the message depth, an endless device, a key given twice are each one line naming the file and
exit status 2 — never a RecursionError, a MemoryError, or an answer for the last of two values."""
from __future__ import annotations

import io
import json
import sys

import pytest

from conformance.protocol import jsonlines
from tractor_cli.main import main
from tractor_dsl.limits import JSON_DEPTH, LINE_BYTES

DEEP = "[" * 100_000 + "]" * 100_000
TWICE = '{"attackers_points": 85, "attackers_points": -5}'


def explain(capsys, *argv) -> tuple[int, str]:
    status = main(["explain", *argv])
    return status, capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    lambda f: ["r000", "result", "--input", f"@{f}"],
    lambda f: ["r000", "hand", "--transcript", str(f)],
    lambda f: ["--case", "r000:follow:0123456789ab", "--report", str(f)],
])
def test_deep_nesting_in_any_json_file_is_refused_with_its_name(argv, tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP, encoding="ascii")
    status, err = explain(capsys, *argv(deep))
    assert status == 2
    assert str(deep) in err and f"nested more than {JSON_DEPTH} levels deep" in err
    assert "RecursionError" not in err


def test_an_endless_device_is_read_no_further_than_a_message(capsys):
    status, err = explain(capsys, "r000", "result", "--input", "@/dev/zero")
    assert status == 2
    assert "/dev/zero" in err and f"more than {LINE_BYTES:,} bytes" in err


def test_endless_standard_input_is_read_no_further_than_a_message(monkeypatch, capsys):
    class Zeros(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, b):
            b[:] = bytes(len(b))
            return len(b)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(Zeros())))
    status, err = explain(capsys, "r000", "hand", "--transcript", "-")
    assert status == 2 and "standard input" in err and "more than" in err


@pytest.mark.parametrize("as_file", [True, False])
def test_a_key_given_twice_is_refused_as_the_engine_refuses_it(as_file, tmp_path, capsys):
    request = ('{"seq": 1, "op": "result", "ruleset": "r000", "input": ' + TWICE + "}").encode()
    with pytest.raises(jsonlines.BadMessage) as e:   # what the engine reads a request with
        jsonlines.decode(request)
    assert e.value.kind == "invalid_json"
    text = TWICE
    if as_file:
        (tmp_path / "twice.json").write_text(TWICE, encoding="utf-8")
        text = f"@{tmp_path / 'twice.json'}"
    status, err = explain(capsys, "r000", "result", "--input", text)
    assert status == 2
    assert 'the key "attackers_points" is given twice' in err and "invalid_json" in err


def test_malformed_json_is_placed_at_its_line_and_column(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "attackers_points": 85,\n}\n', encoding="utf-8")
    status, err = explain(capsys, "r000", "result", "--input", f"@{bad}")
    assert status == 2 and f"{bad}:3:1: not valid JSON" in err


def test_the_reader_takes_what_the_engine_takes(tmp_path):
    """The same value as the standard library for a plain file; the limits are the protocol's."""
    value = {"a": [1, 2.5, "x", None, True, {"b": []}], "c": "汉字"}
    path = tmp_path / "v.json"
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    assert jsonlines.read_json(path) == value
    assert jsonlines.loads_json("[" * JSON_DEPTH + "]" * JSON_DEPTH, "x") is not None
    with pytest.raises(jsonlines.JsonFileError, match="levels deep"):
        jsonlines.loads_json("[" * (JSON_DEPTH + 1) + "]" * (JSON_DEPTH + 1), "x")
    with pytest.raises(jsonlines.JsonFileError, match="NaN"):
        jsonlines.loads_json('{"x": NaN}', "x")
