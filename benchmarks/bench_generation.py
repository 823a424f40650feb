"""Generating a rule file's default suite (what `tractor conform --ruleset FILE` does before it asks the engine
anything, and what the slow tier's catalogue test does for every catalogue file): CPU seconds per ruleset.

    .venv/bin/python benchmarks/bench_generation.py [--hand-extra N] [RULESET ...]

``--hand-extra`` sets how many whole hands a search goes on past the first that tells an alternative apart in
another field than the primary one (conformance.generation.decisions.FALLBACK_EXTRA_BY_OP; 120 was the value
before it had one of its own). A bundled ruleset reads its exported vectors: name catalogue files.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

DEFAULT = ("v40_forced_failing_component", "v34_ruffs_by_highest_card", "h25_kitty_pairs", "v01_one_deck")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="*", default=list(DEFAULT))
    parser.add_argument("--hand-extra", type=int, default=None)
    args = parser.parse_args()
    from conformance.generation import decisions
    from conformance.generation.cases import suite
    if args.hand_extra is not None:
        decisions.FALLBACK_EXTRA_BY_OP["hand"] = args.hand_extra
    print(f"whole hands past the first telling position: {decisions.FALLBACK_EXTRA_BY_OP.get('hand')}")
    print(f"load average: {os.getloadavg()[0]:.1f}")
    total = 0.0
    for name in args.rulesets:
        started = time.process_time()
        cases = suite(name)
        spent = time.process_time() - started
        total += spent
        print(f"{name:40} {len(cases):6,} cases  {spent:6.1f} s CPU")
    print(f"{'total':40} {'':13} {total:6.1f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
