"""Fuzz the readers of expectation files (--expect) and vector folders (--vectors) offline (issue 20).

    .venv/bin/python benchmarks/fuzz_files.py [--kind expectations|vectors|both] [--count 10000] [--seed 0]
                                              [--out fuzz_files.json]

The generators are those of tests/conformance/file_fuzz.py (which
tests/conformance/test_fuzz_files.py runs on a few hundred inputs in CI):
files the writer wrote, byte mutations of them, nesting up to 50,000 deep,
keys given twice, huge and non-finite numbers, odd TOML, odd Unicode
(lone surrogates, noncharacters, bidi overrides, NUL, ESC), invalid UTF-8,
random bytes; vector folders of good vectors with fields dropped or of the
wrong type, mutated lines, CRLF and blank lines, FIFOs, folders and links
to /dev/zero where a file should be. Each input must be read and then used
(expectations applied to cases and written back; vectors sent as requests),
or refused with the reader's own error. Anything else is an internal error,
counted and saved to ``--out``. Exit status 1 when there was any.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tractor_dsl.files import write_file  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", choices=("expectations", "vectors", "both"), default="both")
    ap.add_argument("--count", type=int, default=10_000, help="inputs of each kind")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="fuzz_files.json", help="where the tallies and failures are written")
    args = ap.parse_args()
    if args.count < 1:
        ap.error("--count must be 1 or more")
    from tests.conformance import file_fuzz
    kinds = ("expectations", "vectors") if args.kind == "both" else (args.kind,)
    tallies, failures = [], 0
    for kind in kinds:
        t0 = time.process_time()
        tally = file_fuzz.run(kind, args.count, args.seed)
        tally["cpu_seconds"] = round(time.process_time() - t0, 1)
        tallies.append(tally)
        failures += tally["failures"]
        print(f"{kind:12} {tally['count']:7} inputs  {tally['read']:6} read  {tally['refused']:6} refused  "
              f"{tally['failures']:4} internal error(s)  {tally['cpu_seconds']:6.1f} s CPU"
              + (f"  {tally['kinds']}" if tally["kinds"] else ""))
    print(f"seed {args.seed}: {sum(t['count'] for t in tallies)} inputs, {failures} internal error(s)")
    write_file(args.out, json.dumps({"seed": args.seed, "failures": failures, "kinds": tallies}, indent=1,
                                    ensure_ascii=True))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
