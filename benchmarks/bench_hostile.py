"""The worst inputs to each tool: time and memory, within the limits and just past them (issue 13).

    .venv/bin/python benchmarks/bench_hostile.py [--only check|engine|conform] [--keep DIR]

Each input is written to a temporary folder (not timed) and given to the tool in
a fresh process; the table gives the tool's exit status and first line of
output, its wall-clock and CPU seconds and its peak memory (maximum resident
set size of that process, from ``wait4``). The target is at most 10 s and
500 MB for every input, and a clear error for every input past a limit of
``tractor_dsl/limits.py``. Timings on a machine other processes share are
noisy: compare CPU seconds, and re-run on a quiet machine.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tractor_dsl import limits  # noqa: E402
from tractor_dsl.files import write_file  # noqa: E402

PY = sys.executable
ENGINES = ROOT / "tests" / "conformance" / "engines"


# Run from a small fresh process, so that the tool's peak memory is its own: a process forked from
# this one (which built inputs of 100 MB) would count this one's pages too.
LAUNCHER = """
import json, os, subprocess, sys, time
t0 = time.perf_counter()
with open(sys.argv[1], "rb") as f, open(sys.argv[2], "wb") as out:
    p = subprocess.Popen(sys.argv[3:], stdin=f, stdout=out, stderr=subprocess.STDOUT)
    _, status, ru = os.wait4(p.pid, 0)
print(json.dumps({"status": os.waitstatus_to_exitcode(status), "wall": time.perf_counter() - t0,
                  "cpu": ru.ru_utime + ru.ru_stime, "mb": ru.ru_maxrss / 1024}))
"""


def measure(argv: list[str], stdin: Path | None = None) -> dict:
    """Run ``argv``; exit status, first line of output, wall and CPU seconds, peak MB."""
    with tempfile.NamedTemporaryFile(suffix=".out") as out:
        done = subprocess.run([PY, "-c", LAUNCHER, str(stdin or os.devnull), out.name, *argv], cwd=ROOT,
                              capture_output=True, text=True, check=True)
        m = json.loads(done.stdout)
        text = Path(out.name).read_bytes()[:1 << 16].decode("utf-8", "replace")
    m["first"] = next((ln for ln in text.splitlines() if ln.strip()), "")[:110]
    return m


# --------------------------------------------------------------------------- tractor check

def spec_inputs(d: Path) -> list[tuple[str, Path]]:
    real = (ROOT / "spec" / "003.tractor").read_text(encoding="utf-8")
    body = real[real.index("  clause "):real.rindex("}")]
    parts, size, n = ['ruleset big {\n  title "big"\n  document "003"\n'], 0, 0
    while size < 10_000_000:
        chunk = re.sub(r"clause ([a-z_.]+)", lambda m: f"clause {m.group(1)}_{n}", body)
        parts.append(chunk)
        size += len(chunk.encode())
        n += 1
    out = []

    def write(name: str, text: str | bytes) -> None:
        out.append((name, write_file(d / f"{name}.tractor", text)))

    write("10 MB of real clauses", "".join(parts) + "}\n")
    items = limits.SPEC_TOKENS // 2 - 20
    write(f"{limits.SPEC_TOKENS:,} tokens (the densest accepted)",
          "ruleset r { clause a { set x.y = [" + ",".join(["1"] * items) + "] } }\n")
    write("180,000 short clauses, 10 MB (over)", "ruleset r {\n" + "".join(
        f'clause c{i} {{ cites 001:1 status stated says "x" zh "y" }}\n' for i in range(180_000)) + "}\n")
    write("one 10 MB string", 'ruleset r { title "' + "x" * 10_000_000 + '" }\n')
    write("nested 100,000 deep (over)", "ruleset r { clause a { set x.y = " + "[" * 100_000 + "]" * 100_000 + " } }\n")
    write("formula of 5,000 operands (over)", "ruleset r { clause a { set x.y = " + " + ".join(["1"] * 5000) + " } }\n")
    write("the 80-character ladder, 20 times", "ruleset r { clause a {\n" + "".join(
        "  follow tractor(pair, 30): 15 tractor(pair, 2) / tractor(pair, 29) + 2 single\n" for _ in range(20))
        + "} }\n")
    write("5,000 duplicate cites", "ruleset r { clause a { cites " + ", ".join(["003:1"] * 5000) + " } }\n")
    out.append(("17 MiB file (over)", write_file(d / "17 MiB (over).tractor", bytes(limits.SPEC_BYTES + 1))))
    chain = d / "chain"
    for i in range(3000):   # one at a time: a set keeps each file open until it is flushed (3,000 descriptors)
        write_file(chain / f"r{i}.tractor", f"ruleset r{i}{f' extends r{i - 1}' if i else ''} {{ }}\n")
    out.append(("3,000 extends in a chain", chain))
    return out


# --------------------------------------------------------------------------- tractor engine

def engine_inputs(d: Path) -> list[tuple[str, Path]]:
    out = []

    def write(name: str, lines: list[bytes]) -> None:
        out.append((name, write_file(d / f"{len(out)}.jsonl", b"\n".join(lines) + b"\n")))

    head = b'{"seq": 1, "op": "classify", "ruleset": "r001", "input": {"level": "7", "trump": "H", "cards": '
    fill = limits.LINE_BYTES - 200
    write("a 1 MiB request (the largest accepted)", [head + b'["5H"], "x": "' + b"a" * fill + b'"}}'])
    write("a 100 MB request line (over)", [head + b'["5H"], "x": "' + b"a" * 100_000_000 + b'"}}'])
    write(f"{limits.CARDS_PER_REQUEST:,} cards (the most accepted)",
          [head + json.dumps(["5H"] * limits.CARDS_PER_REQUEST).encode() + b"}}"])
    write("140,000 cards in 1 MiB (over)", [head + json.dumps(["5H"] * 140_000).encode() + b"}}"])
    write("1 MiB of [ (over)", [b'{"seq": 1, "op": "classify", "input": ' + b"[" * fill + b"}"])
    write("10,000 hostile lines", [b'{"seq": %d, "op": ["x"], "input": {"cards": "\\ud800", "n": NaN}}' % i
                                   for i in range(10_000)])
    return out


# --------------------------------------------------------------------------- tractor conform

def conform_inputs(d: Path) -> list[tuple[str, list[str]]]:
    def engine(name, *args):
        return subprocess.list2cmdline([PY, str(ENGINES / f"{name}.py"), *map(str, args)])
    return [
        ("every answer a 3 MiB line", [engine("huge_line", 1)]),
        ("every answer 5,000 deep", [engine("deep", 1)]),
        ("every answer NaN", [engine("nan", 1)]),
        ("8 MiB of stderr, 16 KiB per answer", [engine("flood_stderr", 8)]),
        ("every answer doubled", [engine("duplicate", 1)]),
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=("check", "engine", "conform"))
    ap.add_argument("--keep", help="write the inputs here and keep them")
    args = ap.parse_args()
    tmp = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-hostile-"))
    tmp.mkdir(parents=True, exist_ok=True)
    tractor = [PY, "-m", "tractor_cli.main"]
    rows = []
    if args.only in (None, "check"):
        for name, path in spec_inputs(tmp):
            rows.append(("check", name, measure(tractor + ["check", "--quiet", str(path)])))
    if args.only in (None, "engine"):
        for name, path in engine_inputs(tmp):
            rows.append(("engine", name, measure(tractor + ["engine"], stdin=path)))
    if args.only in (None, "conform"):
        for name, extra in conform_inputs(tmp):
            rows.append(("conform", name, measure(tractor + ["conform", "--engine", *extra, "--ruleset", "r001",
                                                            "--count", "20", "--report", str(tmp / "rep"),
                                                            "--no-progress"])))
    print(f"{'tool':8} {'input':42} {'exit':>4} {'wall s':>7} {'cpu s':>7} {'MB':>6}  first line")
    worst = 0.0
    for tool, name, m in rows:
        print(f"{tool:8} {name:42} {m['status']:>4} {m['wall']:7.2f} {m['cpu']:7.2f} {m['mb']:6.0f}  {m['first']}")
        worst = max(worst, m["cpu"])
    over = [r for r in rows if r[2]["cpu"] > 10 or r[2]["mb"] > 500]
    print(f"worst CPU {worst:.1f} s; over 10 s or 500 MB: {len(over)}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
