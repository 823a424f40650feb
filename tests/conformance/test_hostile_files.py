"""Expectation and vector files from anyone (issue 20): size, depth and encoding limits with file:line
positions, never a traceback (exit 70) or a read without end; 20,000 entries are not tried against every
case; --write-expect writes nothing its own reader refuses."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests import processes

from tractor_dsl import limits
from conformance.generation.cases import VectorError, vector_cases
from conformance.running.expectations import (Deviation, ExpectationError, apply_expectations,
                                              expectations_text, load_expectations)
from conformance.running.runner import Outcome

from .conftest import REPO


def refused(tmp_path, name: str, content: bytes) -> str:
    f = tmp_path / name
    f.write_bytes(content)
    with pytest.raises(ExpectationError) as e:
        load_expectations(f)
    assert str(e.value).startswith(str(f))
    return str(e.value)[len(str(f)):]


@pytest.mark.parametrize("name, content", [
    ("deep.json", b'{"deviations": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
    ("deep.toml", b"x = " + b"[" * 100_000 + b"]" * 100_000 + b"\n"),
    ("medium.json", b'{"deviations": [], "engine": ' + b"[" * 500 + b"]" * 500 + b"}"),
])
def test_deep_nesting_is_refused_without_recursion(tmp_path, name, content):
    assert "nested more than 64 levels deep" in refused(tmp_path, name, content)


def test_non_utf8_is_refused_at_its_line_and_column(tmp_path):
    said = refused(tmp_path, "latin.toml", '[[deviations]]\ncase = "r003:*"\nreason = "caf\xe9"\n'.encode("latin-1"))
    assert said == ":3:14: not UTF-8 (byte 0xe9)"   # reason = "caf|é"


def test_malformed_json_and_toml_name_the_line(tmp_path):
    assert refused(tmp_path, "bad.json", b'{"deviations": [\n  {"case": "x", }\n]}').startswith(
        ":2:17: not valid JSON: Expecting property name")
    assert refused(tmp_path, "bad.toml", b'[[deviations]]\ncase = "x"\nreason = \n').startswith(
        ":3:10: not valid TOML")


def test_a_key_given_twice_is_refused(tmp_path):
    assert "the key \"case\" is given twice" in refused(
        tmp_path, "twice.json", b'{"deviations": [{"case": "a", "case": "b", "reason": "r"}]}')


def test_an_entry_the_schema_refuses_names_its_line(tmp_path):
    toml = b'[[deviations]]\ncase = "a"\nreason = "r"\n\n[[deviations]]\nop = "fly"\nreason = "r"\n'
    assert refused(tmp_path, "op.toml", toml).startswith(":5: deviations/1/op: 'fly' is not one of")
    js = b'{"deviations": [\n {"case": "a", "reason": "r"},\n\n {"op": "fly", "reason": "r"}\n]}'
    assert refused(tmp_path, "op.json", js).startswith(":4: deviations/1/op")


def test_dev_zero_and_a_folder_end_at_once(tmp_path):
    with pytest.raises(ExpectationError, match="more than 16,777,216 bytes"):
        load_expectations("/dev/zero")
    with pytest.raises(ExpectationError, match="folder"):
        load_expectations(tmp_path)
    # the command refuses a device before the run, the reader's cap being the second line of defence
    proc = processes.run([sys.executable, "-m", "tractor_cli.main", "conform", "--engine", "true",
                          "--expect", "/dev/zero", "--report", str(tmp_path / "r")], cwd=REPO, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == "tractor conform: --expect: /dev/zero is not a regular file"


def test_write_expect_escapes_every_control_its_reader_refuses(tmp_path):
    nasty = "del \x7f c1 \x85 nul \x00 esc \x1b lone \udc80 tab \t quote \" end"
    data = {"engine": "eng\x7f", "deviations": [{"case": "r003:x:1", "reason": nasty}]}
    for name, toml in (("w.toml", True), ("w.json", False)):
        f = tmp_path / name
        f.write_text(expectations_text(data, toml), encoding="utf-8")
        if toml:
            assert "\x7f" not in f.read_text(encoding="utf-8") and "\\u007f" in f.read_text(encoding="utf-8")
        [d] = load_expectations(f)
        assert d.reason == nasty.replace("\udc80", "\ufffd") and d.case == "r003:x:1"


def test_twenty_thousand_entries_are_not_tried_against_every_case(monkeypatch):
    cases = vector_cases(rulesets=["r003"])[:169]
    entries = [Deviation(reason="stale", case=f"r003:follow:{i:012x}") for i in range(20_000)]
    entries += [Deviation(reason="stale glob", case=f"r001:lead:{i:05x}*") for i in range(2_000)]
    entries += [Deviation(reason="glob", case=cases[20]["id"][:-3] + "*"),
                Deviation(reason="one", case=cases[3]["id"]), Deviation(reason="op", op=cases[9]["op"])]
    calls = 0
    real = Deviation.matches

    def counted(self, case, finding_of=None):
        nonlocal calls
        calls += 1
        return real(self, case, finding_of)

    monkeypatch.setattr(Deviation, "matches", counted)
    outs = [Outcome("fail") for _ in cases]
    apply_expectations(cases, outs, entries)
    # the same answers as trying every entry in order ...
    expected = []
    for case in cases:
        first = next((d for d in entries if real(d, case)), None)
        expected.append(f"known deviation ({first.reason})" if first else "")
    assert [o.message.split(":")[0] if o.status == "xfail" else "" for o in outs] == expected
    assert expected.count("known deviation (one)") == 1 and "known deviation (glob)" in expected
    # ... from a few tries per case, not 22,003 (169 × 22,003 = 3.7 million before)
    assert calls <= 4 * len(cases)


def test_first_entry_in_file_order_wins_across_kinds_of_selector():
    case = {"id": "r003:kitty:abc", "op": "kitty", "ruleset": "r003", "clauses": ["kitty.capture"]}
    for order in (["glob", "exact", "op", "any"], ["op", "exact", "glob", "any"], ["any", "glob", "op", "exact"]):
        make = {"glob": dict(case="r003:kitty:a*"), "exact": dict(case="r003:kitty:abc"), "op": dict(op="kitty"),
                "any": dict(clause="kitty.capture")}
        entries = [Deviation(reason=k, **make[k]) for k in order]
        out = [Outcome("fail")]
        apply_expectations([case], out, entries)
        assert out[0].message.startswith(f"known deviation ({order[0]})")


# --------------------------------------------------------------------------- vector folders

def folder_with(tmp_path, lines: list[bytes]):
    root = tmp_path / "v"
    (root / "r003").mkdir(parents=True)
    f = root / "r003" / "result.jsonl"
    f.write_bytes(b"\n".join(lines) + b"\n")
    return root, f


GOOD = json.dumps(vector_cases(rulesets=["r003"], ops=["result"])[0]).encode()


@pytest.mark.parametrize("bad, words", [
    (json.dumps({k: v for k, v in json.loads(GOOD).items() if k != "input"}).encode(), "it has no 'input'"),
    (b'{"id": "x", "op": "result", ', "not a vector: not JSON"),
    (b"[" * 100_000 + b"]" * 100_000, "nested more than 64 levels"),
    (b'{"id": "caf\xe9"}', "not UTF-8"),
    (GOOD[:-1] + b', "id": "again"}', "given twice"),
    (json.dumps({**json.loads(GOOD), "op": "fly"}).encode(), "unknown operation"),
    (json.dumps({**json.loads(GOOD), "input": []}).encode(), "'input' is not an object"),
    (b"17", "expected an object"),
])
def test_a_bad_vector_line_names_the_file_and_line(tmp_path, bad, words):
    root, f = folder_with(tmp_path, [GOOD, b"", bad, GOOD])
    with pytest.raises(VectorError) as e:
        vector_cases(root)
    assert str(e.value).startswith(f"{f}:3: ") and words in str(e.value), str(e.value)


def test_a_good_folder_reads_and_a_bad_one_is_exit_2_not_70(tmp_path):
    root, f = folder_with(tmp_path, [GOOD, GOOD])
    assert len(vector_cases(root)) == 2
    f.write_bytes(GOOD.replace(b'"input"', b'"inputs"') + b"\n")
    proc = subprocess.run([sys.executable, "-m", "tractor_cli.main", "conform", "--engine",
                           f"{sys.executable} -m tractor_cli.main engine", "--vectors", str(root), "--report",
                           str(tmp_path / "r")], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert f"{f}:1: not a vector: it has no 'input'" in proc.stderr and "Traceback" not in proc.stderr


def test_a_vector_file_over_its_limit_or_not_a_file_is_refused(tmp_path, monkeypatch):
    import os
    root, f = folder_with(tmp_path, [GOOD] * 3)
    monkeypatch.setattr(limits, "VECTOR_FILE_BYTES", 2 * len(GOOD))
    with pytest.raises(VectorError, match="more than"):
        vector_cases(root)
    monkeypatch.undo()
    f.unlink()
    os.mkfifo(f)
    with pytest.raises(VectorError, match="not a regular file"):
        vector_cases(root)   # never opened: a FIFO would block
