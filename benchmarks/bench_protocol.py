"""Throughput of the engine protocol against the same judgments in-process.

    .venv/bin/python benchmarks/bench_protocol.py [--rulesets r000,r001,r003] [--count N] [--repeat 3]
                                                  [--window 32] [--engine "tractor engine"]

The cases are generated once (not timed). In-process: for every case the
reference judgment (``conformance.protocol.engine.judge``: reading the cards, judging,
building the answer) and the comparison with the expected answer. Protocol:
the runner against a persistent ``tractor engine`` subprocess, requests
pipelined (``--window`` in flight): encoding, pipes, the engine's decoding and
judging, validation and comparison. Reported as cases per second, best of
``--repeat`` runs: for a fresh engine (with and without its start-up and
handshake) and for a warm one (the same cases again in the same session, as a
persistent engine serving a long run would be).
The goal (issue: engine protocol) is protocol >= 0.5 × in-process.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from conformance.protocol import messages as protocol# noqa: E402
from conformance.protocol.engine import judge  # noqa: E402
from conformance.running.runner import Runner  # noqa: E402
from conformance.generation.cases import generated_cases  # noqa: E402


def in_process(cases) -> float:
    t = time.perf_counter()
    bad = 0
    for c in cases:
        result, _ = judge(c["op"], c["ruleset"], c["input"])
        if protocol.compare(c["op"], c["expected"], result):
            bad += 1
    elapsed = time.perf_counter() - t
    assert bad == 0, f"{bad} in-process disagreements"
    return elapsed


def through_protocol(cases, engine: str, window: int) -> tuple[float, float, float]:
    """(total, after the handshake, warm) seconds for the cases through one engine process.

    The cases are sent twice in one session: "warm" times the second pass,
    when the engine's caches (trump contexts, ladders) are as warm as the
    in-process path's.
    """
    n = len(cases)
    marks = {}

    def progress(done, total, tally):
        if done == n:
            marks["first"] = time.perf_counter()

    runner = Runner(engine, window=window, timeout=30, progress=progress)
    t = time.perf_counter()
    result = runner.run(cases + cases)
    end = time.perf_counter()
    assert not result.failed, result.counts()
    first = marks["first"] - t
    return first, first - runner.handshake_seconds, end - marks["first"]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rulesets", default="r000,r001,r003")
    p.add_argument("--ops", default=None, help="comma-separated operations (default: all)")
    p.add_argument("--count", type=int, default=None, help="cases per operation (default: the conform defaults)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--window", type=int, default=32)
    p.add_argument("--engine", default="tractor engine")
    args = p.parse_args(argv)
    ops = args.ops.split(",") if args.ops else None
    cases = generated_cases(args.rulesets.split(","), ops, seed=1, count=args.count)
    n = len(cases)
    in_process(cases[:200])  # warm the caches (trump contexts) as a long-running engine would be
    inproc = min(in_process(cases) for _ in range(args.repeat))
    runs = [through_protocol(cases, args.engine, args.window) for _ in range(args.repeat)]
    total = min(r[0] for r in runs)
    steady = min(r[1] for r in runs)
    warm = min(r[2] for r in runs)
    print(f"cases: {n} ({args.rulesets}; ops {args.ops or 'all'}), best of {args.repeat}, window {args.window}")
    print(f"in-process (warm):        {n / inproc:8.0f} cases/s  ({inproc:.3f} s)")
    print(f"protocol, fresh engine:   {n / total:8.0f} cases/s  ({total:.3f} s, including start-up and handshake)")
    print(f"protocol, after handshake:{n / steady:8.0f} cases/s  ({steady:.3f} s, engine caches cold)")
    print(f"protocol, warm engine:    {n / warm:8.0f} cases/s  ({warm:.3f} s, second pass in the same session)")
    print(f"ratio protocol/in-process: fresh {inproc / total:.2f}, after handshake {inproc / steady:.2f}, "
          f"warm {inproc / warm:.2f} (goal >= 0.5 for a persistent engine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
