"""What an engine author waits for: ``tractor conform --ruleset R`` with no other option, per ruleset.

    .venv/bin/python benchmarks/bench_default_run.py [--rulesets r000,r003] [--repeat 3]
                                                     [--engine "tractor engine"]

Each run is the whole command as a user types it (a fresh ``tractor``
process: start-up, loading the vectors, starting the engine, every case,
the reports, written to a temporary folder), timed on the wall clock; best and median of ``--repeat``. The
target of issue 9 is 5 s or less per ruleset on 2 cores against
``tractor engine``.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)


def one_run(ruleset: str, engine: str, report: str) -> tuple[float, int, int]:
    cmd = [sys.executable, "-m", "tractor_cli.main", "conform", "--ruleset", ruleset, "--engine", engine,
           "--report", report]
    t = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    if done.returncode not in (0, 1):
        raise SystemExit(f"conform --ruleset {ruleset} exited {done.returncode}:\n{done.stderr[-2000:]}")
    with open(os.path.join(report, "report.json"), encoding="utf-8") as f:
        doc = json.load(f)
    cases = doc["cases"]
    return elapsed, len(cases), sum(1 for c in cases if c["status"] != "pass")


def main(argv=None) -> int:
    from reference_impl.rules import ruleset_names
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rulesets", default=",".join(ruleset_names()))
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--engine", default=shlex.join([sys.executable, "-m", "tractor_cli.main", "engine"]))
    args = p.parse_args(argv)
    print(f"tractor conform --ruleset R (no other option) against {args.engine}; {os.cpu_count()} cores; "
          f"best and median of {args.repeat}")
    print(f"{'ruleset':16} {'cases':>6} {'not pass':>8} {'best s':>7} {'median s':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for rs in args.rulesets.split(","):
            times, n, bad = [], 0, 0
            for _ in range(args.repeat):
                t, n, bad = one_run(rs, args.engine, os.path.join(tmp, rs))
                times.append(t)
            print(f"{rs:16} {n:6d} {bad:8d} {min(times):7.2f} {statistics.median(times):9.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
