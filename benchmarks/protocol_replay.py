"""Replay a file of protocol requests through any engine command, timing the whole process.

    # write request files: 20,000 follow-legality questions on 2 decks (r000) and 3 decks (r003)
    .venv/bin/python benchmarks/protocol_replay.py make --ruleset r000 --count 20000 -o /tmp/follow-r000.jsonl
    .venv/bin/python benchmarks/protocol_replay.py make --ruleset r003 --count 20000 -o /tmp/follow-r003.jsonl

    # replay a file through an engine (any command speaking the protocol), best of 3
    .venv/bin/python benchmarks/protocol_replay.py run /tmp/follow-r000.jsonl --engine ".venv/bin/tractor engine"

A request file is JSON lines: the handshake, the requests, the shutdown, as
the engine reads them. ``run`` starts the engine, writes the whole file to its
standard input (from a thread, so neither side blocks), reads every answer,
and waits for the process to exit: the time is the whole process's — start-up,
imports, handshake, every judgment, shutdown — the figure to set beside other
engines measured the same way; the engine's CPU time (user + system) is shown
too, a steadier figure on a busy machine. It checks that every request got exactly one
answer, counts results, skips and errors, and the results that name no clause
(the interpreter names none for a play of the wrong size or of cards not
held). ``--save FILE`` keeps the answers; ``--same-as FILE`` fails unless
every answer, clauses included, is identical to the saved ones — so an
optimisation can be shown to change no judgment and no trace.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tractor_dsl.files import write_file  # noqa: E402


def write_requests(path: str, cases) -> int:
    """Write a request file (the handshake, one request per case, the shutdown), whole or not at all; the number
    of requests."""
    from conformance.protocol import messages as protocol
    lines = [json.dumps(protocol.handshake_request(0))]
    seq = 0
    for case in cases:
        seq += 1
        lines.append(json.dumps(protocol.request(seq, case["op"], case["ruleset"], case["input"]), ensure_ascii=False))
    lines.append(json.dumps(protocol.shutdown_request(seq + 1)))
    write_file(path, "\n".join(lines) + "\n")
    return seq


def make(args) -> int:
    from conformance.generation.cases import generate
    ops = args.ops.split(",")
    seq = write_requests(args.output, generate(args.ruleset, ops, seed=args.seed, counts=args.count))
    print(f"wrote {seq} requests ({args.ops}, {args.ruleset}, seed {args.seed}) to {args.output}")
    return 0


def replay(data: bytes, argv: list[str], env: dict | None = None) -> tuple[float, float, bytes]:
    """(wall seconds, the engine's CPU seconds, its output) for one run of the whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env=env)

    def feed():
        try:
            proc.stdin.write(data)
            proc.stdin.close()
        except BrokenPipeError:
            pass
    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    out = proc.stdout.read()
    proc.wait()
    writer.join()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out


def check(requests: list[dict], out: bytes) -> dict:
    answers = [json.loads(line) for line in out.splitlines() if line.strip()]
    if len(answers) != len(requests):
        raise SystemExit(f"{len(requests)} requests but {len(answers)} answers")
    tally = {"result": 0, "skipped": 0, "errored": 0, "untraced": 0}
    for req, ans in zip(requests, answers):
        if ans.get("seq") != req.get("seq"):
            raise SystemExit(f"answer seq {ans.get('seq')} for request seq {req.get('seq')}")
        kind = next((k for k in ("result", "skipped", "errored") if k in ans), None)
        if kind is None:
            raise SystemExit(f"answer without result, skipped or errored: {ans}")
        tally[kind] += 1
        if kind == "result" and req.get("op") not in ("handshake", "shutdown") and not ans["result"].get("clauses"):
            tally["untraced"] += 1
    return tally


def run(args) -> int:
    with open(args.file, "rb") as f:
        data = f.read()
    requests = [json.loads(line) for line in data.splitlines() if line.strip()]
    n = sum(1 for r in requests if r.get("op") not in ("handshake", "shutdown"))
    argv = shlex.split(args.engine)
    times, cpus = [], []
    for _ in range(args.repeat):
        elapsed, cpu, out = replay(data, argv)
        tally = check(requests, out)
        times.append(elapsed)
        cpus.append(cpu)
        if args.same_as:
            with open(args.same_as, "rb") as f:
                if f.read() != out:
                    raise SystemExit(f"the answers differ from {args.same_as}")
    if args.save:
        write_file(args.save, out)
    best = min(times)
    print(f"{os.path.basename(args.file)}: {n} requests through `{args.engine}`: best {best:.3f} s of "
          f"{args.repeat} ({n / best:,.0f} requests/s, whole process); runs: "
          + ", ".join(f"{t:.3f}" for t in times) + f"; engine CPU best {min(cpus):.3f} s; answers: {tally}")
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("make", help="write a request file from the conformance case generator")
    m.add_argument("--ruleset", required=True)
    m.add_argument("--ops", default="follow", help="comma-separated operations (default follow)")
    m.add_argument("--count", type=int, default=20000, help="requests per operation")
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("-o", "--output", required=True)
    r = sub.add_parser("run", help="replay a request file through an engine command, timing the whole process")
    r.add_argument("file")
    r.add_argument("--engine", default="tractor engine", help="the engine command (default: tractor engine)")
    r.add_argument("--repeat", type=int, default=3)
    r.add_argument("--save", metavar="FILE", help="write the engine's answers to FILE")
    r.add_argument("--same-as", metavar="FILE", help="fail unless the answers are byte for byte those in FILE")
    args = p.parse_args(argv)
    return make(args) if args.command == "make" else run(args)


if __name__ == "__main__":
    sys.exit(main())
