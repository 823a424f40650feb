"""How long the one writer of files (tractor_dsl/files.py) takes per small file, three ways: each file written,
flushed and renamed alone (``write_file``, as badges and the manifest are); a set whose files are each flushed
as soon as written, then renamed (the set writer before it flushed in one pass); and a set written whole, then
flushed file after file, then renamed (``write_files``, a run's report set).

    .venv/bin/python benchmarks/bench_write_files.py [--files N] [--size BYTES] [--rounds R] [--dir DIR]

Every way keeps the guarantee: a temporary beside the target, flushed to disk before it is renamed; no write
through a link. The folder is made under ``--dir`` (default: the checkout, on the disk reports are written to;
/tmp may be a RAM disk, where a flush costs nothing). A benchmark on a shared machine (the load is printed),
not a test: the median of the rounds is shown.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, ROOT)

from tractor_dsl.files import Staged, write_file, write_files  # noqa: E402


def each_alone(paths, data):
    for p in paths:
        write_file(p, data)


def set_flushed_as_written(paths, data):
    staged = [Staged(p, data) for p in paths]   # sync=True: flushed as soon as written, as before
    for s in staged:
        s.commit()


def set_flushed_in_one_pass(paths, data):
    write_files({p: data for p in paths})


def unflushed(paths, data):
    """For reference only, not a way the tool writes: temporary and rename, never flushed to disk."""
    raw = data.encode("utf-8")
    for p in paths:
        temp = f"{p}.tmp"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        os.write(fd, raw)
        os.close(fd)
        os.replace(temp, p)


WAYS = {"write_file each": each_alone, "set, flushed as written": set_flushed_as_written,
        "set, flushed in one pass": set_flushed_in_one_pass, "(not flushed: reference)": unflushed}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--files", type=int, default=20, help="files per set (default 20)")
    p.add_argument("--size", type=int, default=2000, help="bytes per file (default 2000)")
    p.add_argument("--rounds", type=int, default=15, help="rounds of each way, interleaved (default 15)")
    p.add_argument("--dir", default=ROOT, help="where the scratch folder is made (default: the checkout)")
    args = p.parse_args(argv)
    data = ("x" * (args.size - 1)) + "\n"
    scratch = tempfile.mkdtemp(prefix=".bench-write-", dir=args.dir)
    times: dict[str, list[float]] = {w: [] for w in WAYS}
    print(f"{os.cpu_count()} cores; load {os.getloadavg()[0]:.2f} at the start; {args.files} files of "
          f"{args.size} bytes a set, {args.rounds} rounds, in {scratch}")
    try:
        for r in range(args.rounds):
            for name, way in WAYS.items():   # interleaved, so that a burst of load falls on every way alike
                paths = [os.path.join(scratch, f"{r}-{i}-{name[:3]}.json") for i in range(args.files)]
                t0 = time.perf_counter()
                way(paths, data)
                times[name].append((time.perf_counter() - t0) / args.files * 1000)
        for name, ms in times.items():
            print(f"{name:28} median {statistics.median(ms):6.2f} ms a file  (min {min(ms):.2f}, max {max(ms):.2f})")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"load {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
