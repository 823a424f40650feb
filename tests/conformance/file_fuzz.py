"""Generators of hostile expectation files and vector folders, and the check each input must pass (issue 20).

Shared by tests/conformance/test_fuzz_files.py (a few hundred inputs in CI) and
benchmarks/fuzz_files.py (as many as asked). Each input is made from a seeded
:class:`random.Random`, so a seed and an index name it again. An input must be
read, or refused with the reader's own error (:class:`ExpectationError`,
:class:`VectorError`); what is read must then be usable: expectations applied
to cases, vectors sent as requests. Anything else is an internal error.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import tempfile
from pathlib import Path

from conformance.generation.cases import VectorError, vector_cases
from conformance.protocol import jsonlines
from conformance.protocol import messages as protocol
from conformance.running.expectations import (Deviation, ExpectationError, apply_expectations,
                                              expectations_text, load_expectations)
from conformance.running.runner import Outcome

ODD = ["", "\x00", "\x1b[2J", "\x7f", "\u0085", "\u202e", "\ufffe", "\uffff", "\U0010ffff", "\ud800", "\udfff",
       "中文", "♠♥", "\\", '"', "'''", '"""', "[", "]", "*", "?", "[!a-]", "[z-a]", "#", "\n", "\r\n", "\t",
       "=", "{", "}", ",", ":", "x" * 5000]
SELECTORS = ("case", "op", "ruleset", "clause", "finding")
VECTOR_KEYS = ("id", "op", "ruleset", "input", "expected", "clauses")


def _text(rnd: random.Random) -> str:
    return "".join(rnd.choice(ODD) if rnd.random() < 0.3 else rnd.choice(["r003:follow:", "r001", "kitty",
                                                                           "follow.suit", "abc", "*", " "])
                   for _ in range(rnd.randint(0, 6)))


def _value(rnd: random.Random, depth: int = 0):
    kind = rnd.random()
    if depth > 3 or kind < 0.45:
        return rnd.choice([_text(rnd), _text(rnd), rnd.randint(-10 ** 6, 10 ** 6), True, None, 1.5, -0.0,
                           10 ** 30, rnd.choice(list(protocol.OPERATIONS))])
    if kind < 0.7:
        return [_value(rnd, depth + 1) for _ in range(rnd.randint(0, 3))]
    return {_text(rnd): _value(rnd, depth + 1) for _ in range(rnd.randint(0, 3))}


def _entry(rnd: random.Random) -> dict:
    entry = {}
    for key in rnd.sample(SELECTORS, rnd.randint(0, 3)):
        entry[key] = rnd.choice(list(protocol.OPERATIONS)) if key == "op" and rnd.random() < 0.8 else _text(rnd)
    if rnd.random() < 0.9:
        entry["reason"] = _text(rnd) or "r"
    if rnd.random() < 0.2:
        entry["strict"] = rnd.choice([True, False, "yes", 1])
    if rnd.random() < 0.1:
        entry[rnd.choice(["issue", "extra", "case"])] = _value(rnd)
    return entry


def _good_entry(rnd: random.Random) -> dict:
    """An entry the schema takes: one to three selectors, a reason, odd text in every string."""
    entry = {}
    for key in rnd.sample(SELECTORS, rnd.randint(1, 3)):
        entry[key] = rnd.choice(list(protocol.OPERATIONS)) if key == "op" else (_text(rnd) or "*")
    entry["reason"] = _text(rnd) or "r"
    if rnd.random() < 0.3:
        entry["strict"] = rnd.random() < 0.5
    return entry


def _nest(rnd: random.Random, opening: str, closing: str) -> str:
    n = rnd.choice([10, 63, 64, 65, 200, 1000, 5000, 50_000])
    return opening * n + closing * n


def _mutate(rnd: random.Random, raw: bytes) -> bytes:
    data = bytearray(raw)
    for _ in range(rnd.randint(1, 4)):
        i = rnd.randint(0, max(0, len(data)))
        choice = rnd.random()
        if choice < 0.35:
            data[i:i + 1] = bytes([rnd.randint(0, 255)])
        elif choice < 0.6:
            data.insert(i, rnd.choice(b'"[]{},:=\\\n\x00\xff\xc3#'))
        elif choice < 0.8:
            del data[i:i + rnd.randint(1, 20)]
        else:
            data[i:i] = rnd.choice(ODD).encode("utf-8", "surrogatepass")
    return bytes(data)


def expectation_input(rnd: random.Random) -> tuple[str, bytes]:
    """(file name, bytes) of one expectation file."""
    toml = rnd.random() < 0.5
    name = "expect.toml" if toml else "expect.json"
    data = {"deviations": [_entry(rnd) for _ in range(rnd.randint(0, 6))]}
    if rnd.random() < 0.3:
        data["engine"] = _text(rnd)
    kind = rnd.random()
    if kind < 0.3:   # written by the writer: must read back
        good = {**data, "deviations": [_good_entry(rnd) for _ in range(rnd.randint(0, 6))]}
        return name, expectations_text(jsonlines.scrub(good), toml).encode("utf-8")
    if kind < 0.55:
        return name, _mutate(rnd, expectations_text(jsonlines.scrub(data), toml).encode("utf-8"))
    if kind < 0.65:
        deep = _nest(rnd, "[", "]")
        return name, (f"x = {deep}\n" if toml else f'{{"deviations": {deep}}}').encode()
    if kind < 0.75:   # raw JSON of odd values (keys twice, wrong types, huge numbers)
        text = json.dumps(data, ensure_ascii=rnd.random() < 0.5)
        if rnd.random() < 0.5:
            text = text.replace('{"deviations"', '{"deviations": [], "deviations"', 1)
        if rnd.random() < 0.3:
            text = text.replace("1.5", "1e400").replace("null", "NaN")
        return "expect.json", text.encode("utf-8", "surrogatepass")
    if kind < 0.85:   # TOML of odd shapes
        pieces = ["[[deviations]]", f"reason = {json.dumps(_text(rnd))}", "case = 1979-05-27T07:32:00Z",
                  "op = { a = 1 }", "a.b.c = 1", "[deviations]", "reason = '''x", "x = 0x_1", "y = inf",
                  "[[deviations]]\nreason = \"a\"\nreason = \"b\"", "\ufeff", "case = \"\\uD800\""]
        return "expect.toml", "\n".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 6))).encode(
            "utf-8", "surrogatepass")
    return name, bytes(rnd.randint(0, 255) for _ in range(rnd.randint(0, 200)))


def _sample_cases() -> list[dict]:
    return [{"id": f"r003:{op}:{i:04x}", "op": op, "ruleset": rs, "clauses": ["follow.suit", "kitty.capture"][:i % 3]}
            for i, (op, rs) in enumerate([(op, rs) for op in protocol.OPERATIONS for rs in ("r003", "r001")])]


CASES = _sample_cases()


def check_expectation(folder: Path, name: str, raw: bytes) -> str:
    """Read one expectation file and use what was read: "read" or "refused" (anything else raises)."""
    path = folder / name
    path.write_bytes(raw)
    try:
        deviations = load_expectations(path)
    except ExpectationError:
        return "refused"
    outcomes = [Outcome(s) for s in ("fail", "pass", "errored") * (len(CASES) // 3 + 1)][:len(CASES)]
    apply_expectations(CASES, outcomes, deviations)
    for d in deviations:
        assert isinstance(d, Deviation) and isinstance(d.reason, str) and d.label() is not None
    again = folder / ("again" + path.suffix)   # what it reads, the writer writes and it reads back
    entries = [{k: v for k, v in vars(d).items() if k != "matched" and not k.startswith("_") and v is not None}
               for d in deviations]
    again.write_text(expectations_text({"deviations": entries}, path.suffix == ".toml"), encoding="utf-8")
    # (a lone surrogate, which a JSON escape can hold, is written as U+FFFD: no UTF-8 file holds one)
    assert [d.reason for d in load_expectations(again)] == [jsonlines.clean_text(d.reason) for d in deviations]
    return "read"


def _vector(rnd: random.Random, good: list[dict]) -> bytes:
    v = dict(rnd.choice(good))
    kind = rnd.random()
    if kind < 0.3:
        return json.dumps(v).encode()
    if kind < 0.45:
        v.pop(rnd.choice(VECTOR_KEYS))
        return json.dumps(v).encode()
    if kind < 0.6:
        v[rnd.choice(VECTOR_KEYS + ("note", "x"))] = _value(rnd)
        return json.dumps(v, ensure_ascii=False).encode("utf-8", "surrogatepass")
    if kind < 0.8:
        return _mutate(rnd, json.dumps(v).encode())
    if kind < 0.9:
        return _nest(rnd, "[", "]").encode() if rnd.random() < 0.5 else _nest(rnd, '{"a":', "}").replace(
            '{"a":}', '{"a":1}').encode()
    return rnd.choice([b"", b"   ", b"\r", b"null", b"[]", b"\xff\xfe", b'{"id": "a", "id": "b"}',
                       json.dumps(v).encode() * 2, b"\x00" * 10])


def vector_input(rnd: random.Random, good: list[dict]) -> dict[str, object]:
    """A vector folder as {relative path: bytes, or "fifo" / "folder" / "link:TARGET"}."""
    files: dict[str, object] = {}
    for _ in range(rnd.randint(1, 3)):
        rs = rnd.choice(["r003", "r001", "x", "中文"])
        op = rnd.choice(list(protocol.OPERATIONS) + ["fly"])
        kind = rnd.random()
        if kind < 0.04:
            files[f"{rs}/{op}.jsonl"] = rnd.choice(["fifo", "folder", "link:/dev/zero", "link:/nonexistent"])
            continue
        lines = [_vector(rnd, good) for _ in range(rnd.randint(0, 5))]
        sep = rnd.choice([b"\n", b"\n", b"\r\n", b"\n\n"])
        files[f"{rs}/{op}.jsonl"] = sep.join(lines) + rnd.choice([b"", sep])
    return files


def check_vectors(folder: Path, files: dict[str, object]) -> str:
    """Read one vector folder and send what was read as requests: "read" or "refused"."""
    root = folder / "vectors"
    if root.exists():
        shutil.rmtree(root)
    root.mkdir()
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if content == "fifo":
            os.mkfifo(path)
        elif content == "folder":
            path.mkdir()
        elif isinstance(content, str) and content.startswith("link:"):
            path.symlink_to(content[5:])
        else:
            path.write_bytes(content)
    try:
        cases = vector_cases(root)
    except VectorError:
        return "refused"
    for seq, c in enumerate(cases):
        assert all(k in c for k in VECTOR_KEYS) and isinstance(c["input"], dict)
        line = jsonlines.encode(protocol.request(seq, c["op"], c["ruleset"], c["input"]))
        assert jsonlines.decode(line)["input"] == jsonlines.decode(jsonlines.encode(c["input"]))
    apply_expectations(cases, [Outcome("fail") for _ in cases], [Deviation(reason="r", case=c["id"]) for c in cases])
    return "read"


def good_vectors(n: int = 40) -> list[dict]:
    return vector_cases(rulesets=["r003"])[::500][:n]


def run(kind: str, count: int, seed: int, on_failure=None) -> dict:
    """``count`` inputs of ``kind`` (``expectations`` or ``vectors``): a tally of read, refused and failures."""
    rnd = random.Random(f"{kind}:{seed}")
    good = good_vectors() if kind == "vectors" else []
    tally = {"kind": kind, "count": 0, "read": 0, "refused": 0, "failures": 0, "kinds": {}, "examples": []}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for i in range(count):
            made = expectation_input(rnd) if kind == "expectations" else vector_input(rnd, good)
            tally["count"] += 1
            try:
                got = check_expectation(folder, *made) if kind == "expectations" else check_vectors(folder, made)
                tally[got] += 1
            except Exception as e:   # what the fuzzing is for: anything but the reader's own error is a bug
                tally["failures"] += 1
                name = type(e).__name__
                tally["kinds"][name] = tally["kinds"].get(name, 0) + 1
                if len(tally["examples"]) < 20:
                    tally["examples"].append({"index": i, "kind": name, "message": str(e)[:300],
                                              "input": repr(made)[:2000]})
                if on_failure is not None:
                    on_failure(i, made, e)
    return tally
