"""``tractor engine`` against an earlier revision of itself, whole process, A/B interleaved (a benchmark, not a test).

    .venv/bin/python benchmarks/bench_engine_throughput.py [--baseline 0c0fc12] [--runs 5]
        [--engine ".venv/bin/tractor engine"] [--only follow-r000,follow-r003,all-ops] [--dir DIR]

Request files (made once, kept in ``--dir``, default
``/tmp/tractor-bench-engine``), drawn with the project's own generator
(:func:`conformance.generation.cases.generate`, seed 1):

* ``follow-r000`` and ``follow-r003`` — the decision positions of ``follow``
  and 20,000 random ones (``--follow-count``), mixed as the suite mixes them;
* ``all-ops`` — every operation of every bundled ruleset in the default
  suite's proportions (decision positions and :data:`DEFAULT_COUNTS`).

The baseline is the revision ``--baseline`` checked out with ``git worktree
add`` into ``DIR/rev-<hash>`` and installed in its own virtual environment
there (made once). Each run times both engines on every file, the order of the
two alternating from run to run: the whole process with the file as standard
input and standard output discarded, wall-clock and CPU time (user + system of
the engine). Each engine has its own checked-library cache
(``TRACTOR_CACHE_DIR``) and its bytecode (``PYTHONDONTWRITEBYTECODE`` is
dropped from their environment), both warmed before timing. Before timing, one untimed run of
each engine on each file compares their answers line by line (the handshake
aside): a speed-up that changed an answer is reported, not timed.

The figure is the median over the runs of baseline time / candidate time (above
1: the candidate is faster) with the min–max; CPU time is the steadier figure
on a shared machine.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

FILES = ("follow-r000", "follow-r003", "all-ops")


def make_files(where: Path, follow_count: int, seed: int, wanted, ops: list[str]) -> dict[str, Path]:
    """The request files; ``all-ops`` holds the operations ``ops`` only (those the baseline answers: one it
    does not know, such as ``deal`` for 0c0fc12, would make every answer of it differ)."""
    from protocol_replay import write_requests
    from conformance.generation.cases import generate
    from conformance.protocol.messages import OPERATIONS
    from reference_impl.rules import ruleset_names
    paths = {}
    asked = [op for op in OPERATIONS if op in ops]
    left_out = [op for op in OPERATIONS if op not in ops and op != "hand"]   # hand: not in the default suite
    for name in wanted:
        kind = follow_count if name != "all-ops" else "default" + "".join(f"-no-{op}" for op in left_out)
        path = where / f"{name}-seed{seed}-{kind}.jsonl"
        paths[name] = path
        if path.exists():
            continue
        t = time.perf_counter()
        if name == "all-ops":
            cases = [c for rs in ruleset_names() for c in generate(rs, None, seed=seed) if c["op"] in asked]
        else:
            cases = generate(name.split("-")[1], ["follow"], seed=seed, counts=follow_count)
        n = write_requests(str(path), cases)   # whole or not at all: no half file is taken for a made one
        print(f"made {path.name}: {n} requests ({time.perf_counter() - t:.0f} s)", flush=True)
    return paths


def operations(argv: list[str], env: dict) -> list[str]:
    """The operations an engine lists in its handshake (``tractor engine --handshake``)."""
    done = subprocess.run([*argv, "--handshake"], capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout)["result"]["operations"]


def _git(*args, cwd=ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def baseline_engine(where: Path, rev: str) -> list[str]:
    """The command of ``tractor engine`` at ``rev``, in its own worktree and virtual environment."""
    full = _git("rev-parse", "--verify", f"{rev}^{{commit}}")
    tree = where / f"rev-{full[:12]}"
    tractor = tree / ".venv" / "bin" / "tractor"
    if not tractor.exists():
        if not tree.exists():
            print(f"checking out {full[:12]} into {tree}", flush=True)
            _git("worktree", "add", "--detach", str(tree), full)
        print(f"installing {full[:12]} into {tree / '.venv'}", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(tree / ".venv")], check=True)
        done = subprocess.run([str(tree / ".venv" / "bin" / "pip"), "install", "-q", "--disable-pip-version-check",
                               "-e", str(tree)], capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"installing {full[:12]} failed:\n{done.stderr[-2000:]}")
    return [str(tractor), "engine"]


def timed(argv: list[str], path: Path, env: dict) -> tuple[float, float]:
    """(wall, CPU) seconds of one whole run of the engine on the request file (stdout discarded)."""
    with open(path, "rb") as stdin:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def answers(argv: list[str], path: Path, env: dict) -> list[str]:
    with open(path, "rb") as stdin:
        out = subprocess.run(argv, stdin=stdin, capture_output=True, env=env, check=True).stdout
    return out.decode("utf-8").splitlines()


def same_answers(a: list[str], b: list[str]) -> str | None:
    """None when the answers agree (the handshake aside), else where they first differ."""
    if len(a) != len(b):
        return f"{len(a)} answers against {len(b)}"
    for x, y in zip(a, b):
        if x != y and json.loads(x).get("seq") != 0:
            return f"first difference:\n  baseline:  {x[:300]}\n  candidate: {y[:300]}"
    return None


def summary(ratios: list[float]) -> str:
    return f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--baseline", default="0c0fc12", help="the git revision to time against (default 0c0fc12)")
    p.add_argument("--engine", default=str(ROOT / ".venv" / "bin" / "tractor") + " engine",
                   help="the candidate engine command (default: this checkout's .venv/bin/tractor engine)")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--only", default=",".join(FILES), help="comma-separated files: " + ", ".join(FILES))
    p.add_argument("--follow-count", type=int, default=20000, help="random follow positions per file")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dir", default="/tmp/tractor-bench-engine", help="where the files and the baseline live")
    args = p.parse_args(argv)
    wanted = [f for f in args.only.split(",") if f]
    unknown = [f for f in wanted if f not in FILES]
    if unknown:
        p.error(f"unknown file {unknown[0]!r}: choose from {', '.join(FILES)}")
    where = Path(args.dir)
    where.mkdir(parents=True, exist_ok=True)
    engines = {"baseline": baseline_engine(where, args.baseline), "candidate": shlex.split(args.engine)}
    # each engine its own library cache, and its bytecode written and read as an installed engine's is
    # (PYTHONDONTWRITEBYTECODE would have both compile every module at every start)
    plain = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    envs = {k: dict(plain, TRACTOR_CACHE_DIR=str(where / f"cache-{k}")) for k in engines}
    files = make_files(where, args.follow_count, args.seed, wanted, operations(engines["baseline"], envs["baseline"]))
    for name, path in files.items():  # warms each engine's library cache, and proves no answer changed
        got = {k: answers(engines[k], path, envs[k]) for k in engines}
        diff = same_answers(got["baseline"], got["candidate"])
        if diff:
            print(f"{name}: the candidate's answers differ from {args.baseline}'s: {diff}")
            return 1
        print(f"{name}: {len(got['candidate']) - 2} requests, every answer the same as {args.baseline}'s", flush=True)
    times = {(k, name): [] for k in engines for name in files}
    for i in range(args.runs):
        order = ("baseline", "candidate") if i % 2 == 0 else ("candidate", "baseline")
        for name, path in files.items():
            for k in order:
                times[(k, name)].append(timed(engines[k], path, envs[k]))
        print(f"run {i + 1}/{args.runs} done", flush=True)
    print(f"\nbaseline {args.baseline} / candidate `{args.engine}`, {args.runs} runs, A/B interleaved; "
          f"load average {os.getloadavg()[0]:.2f} at the end")
    for name in files:
        base, cand = times[("baseline", name)], times[("candidate", name)]
        wall = [b[0] / c[0] for b, c in zip(base, cand)]
        cpu = [b[1] / c[1] for b, c in zip(base, cand)]
        print(f"{name:12s} speed-up wall {summary(wall)}, CPU {summary(cpu)}; median seconds wall "
              f"{statistics.median(b[0] for b in base):.3f} -> {statistics.median(c[0] for c in cand):.3f}, CPU "
              f"{statistics.median(b[1] for b in base):.3f} -> {statistics.median(c[1] for c in cand):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
