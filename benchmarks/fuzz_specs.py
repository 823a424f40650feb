"""Fuzz the parser and the checker offline: N specs from every generator, uncaught exceptions counted.

    .venv/bin/python benchmarks/fuzz_specs.py [--count 100000] [--jobs 2] [--seed 0] [--out fuzz.json]

The generators are those of tests/dsl/test_fuzz.py (which runs a small sample
in CI): strings derived from the grammar (padded, raw, cut), character
mutations and byte mutations of the bundled spec files, and the structural
extremes of tests/dsl/structural.py. Each spec must parse and check, or be
refused with a SpecError; whatever parses must format back to the same model.
Anything else (a RecursionError, a formatter bug, ...) is counted as an
uncaught exception and its input saved to ``--out``. The share of each
generator is fixed (:data:`SHARES`); the work is split across ``--jobs``
processes, each with its own seed. Exit status 1 when anything was caught.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import traceback
from concurrent.futures import ProcessPoolExecutor

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from tractor_dsl.files import write_file  # noqa: E402

SHARES = {"padded": 0.25, "raw": 0.15, "cut": 0.1, "mutated": 0.1, "bytes": 0.15, "structural": 0.25}


def _probe(name: str, count: int, seed: int) -> dict:
    """Run ``count`` examples of generator ``name``; the tally and the first failures."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hyp_seed
    from hypothesis import strategies as st

    from tests.dsl import test_fuzz as tf
    from tractor_dsl.diagnostics import SpecError
    from tractor_dsl.parser import parse_file

    tally = {"name": name, "count": 0, "failures": 0, "kinds": {}, "examples": [], "seconds": 0.0}

    def record(text, exc: BaseException) -> None:
        tally["failures"] += 1
        kind = type(exc).__name__
        tally["kinds"][kind] = tally["kinds"].get(kind, 0) + 1
        if len(tally["examples"]) < 20:
            tally["examples"].append({"kind": kind, "message": str(exc)[:300], "input": repr(text)[:2000],
                                      "where": traceback.format_exc(limit=-3)[-1500:]})

    def check_bytes(raw: bytes) -> None:
        fd, path = tempfile.mkstemp(suffix=".tractor")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(raw)
            try:
                parse_file(path)
            except SpecError:
                pass
        finally:
            os.unlink(path)

    @st.composite
    def byte_mutations(draw):
        spec = draw(st.sampled_from(sorted(tf.SPECS)))
        raw = bytearray(tf.SPECS[spec].encode("utf-8"))
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, max(0, len(raw) - 1)))
            b = draw(st.integers(0, 255))
            if draw(st.booleans()):
                raw[i:i + 1] = bytes([b])
            else:
                raw.insert(i, b)
        return bytes(raw)

    @st.composite
    def cut(draw):
        text = draw(tf.PADDED)
        return text[:draw(st.integers(0, len(text)))]

    strategy, run = {
        "padded": (tf.PADDED, tf.outcome),
        "raw": (tf.RAW, tf.outcome),
        "cut": (cut(), tf.outcome),
        "mutated": (tf.mutated(), lambda case: tf.outcome(case[1], case[0])),
        "bytes": (byte_mutations(), check_bytes),
        "structural": (tf.structural(), tf.structural_outcome),
    }[name]

    @hyp_seed(seed)
    @settings(max_examples=count, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def probe(example):
        tally["count"] += 1
        try:
            run(example)
        except Exception as e:  # what the fuzzing is for: any exception but SpecError is a bug
            record(example, e)

    t0 = time.perf_counter()
    probe()
    tally["seconds"] = time.perf_counter() - t0
    return tally


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=100_000)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="fuzz_specs.json", help="where the failures are written")
    args = ap.parse_args()
    work = []
    for name, share in SHARES.items():
        total = max(1, round(args.count * share))
        per = -(-total // args.jobs)
        for j in range(args.jobs):
            n = min(per, total - j * per)
            if n > 0:
                work.append((name, n, args.seed * 1000 + j))
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        tallies = list(pool.map(_probe, *zip(*work)))
    elapsed = time.perf_counter() - t0
    merged: dict[str, dict] = {}
    for t in tallies:
        m = merged.setdefault(t["name"], {"count": 0, "failures": 0, "kinds": {}, "examples": [], "seconds": 0.0})
        m["count"] += t["count"]
        m["failures"] += t["failures"]
        m["seconds"] += t["seconds"]
        for k, v in t["kinds"].items():
            m["kinds"][k] = m["kinds"].get(k, 0) + v
        m["examples"] += t["examples"][:20 - len(m["examples"])]
    total = sum(m["count"] for m in merged.values())
    failures = sum(m["failures"] for m in merged.values())
    for name, m in merged.items():
        print(f"{name:11} {m['count']:7} specs  {m['failures']:5} uncaught  {m['seconds']:7.0f} s (summed over workers)"
              + (f"  {m['kinds']}" if m["kinds"] else ""))
    print(f"{total} specs, {failures} uncaught exception(s), {elapsed:.0f} s with {args.jobs} job(s), "
          f"seed {args.seed}")
    write_file(args.out, json.dumps({"total": total, "failures": failures, "seconds": elapsed, "generators": merged},
                                    indent=1))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
