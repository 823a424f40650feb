"""Issue 31's check on real engines: "on real engines a rule-naming finding covers at least 70 % of failures".

    .venv/bin/python benchmarks/real_engines.py NAME=COMMAND [NAME=COMMAND ...] [--ruleset r000] [--json FILE]

Each engine (any language, behind a protocol adapter; see docs/guide.rst) is run as a user runs it,
``tractor conform --ruleset R --engine COMMAND`` with no other option, and the table gives the share of its
failing cases in each kind of finding (:func:`real_proxy.shares`): a finding of an alternative (``alt``), a
cluster a change of one rule fixes (``fix``), a cluster named by the nearest rule (``near``), by a clause only
(``clause``), in none (``none``); "rule value" is ``alt + fix``, the issue's measure. Labelled beside it: the share of failures in
clusters that differ in the reason alone (the engine decides legality as the spec does and names another
reason: an adapter's mapping of reason codes, no rule), and the rule-value share of the failures outside them.

The engines are not part of this repository (their code is theirs): the figures of the closing notes came
from open-source engines rebuilt from their public sources beside the checkout, each behind an adapter of a
few hundred lines that translates the protocol to the engine's own functions. A figure is only as good as its
adapter: an adapter that maps one of the engine's reason codes to another of ours moves failures between
kinds. These are figures on a shared machine (the load is printed), not a test.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from real_proxy import shares  # noqa: E402
from zoo import run  # noqa: E402

from tractor_dsl.files import write_file  # noqa: E402  (zoo put the checkout on the path)

KINDS = ("alt", "fix", "near", "clause", "none")


def engine_arg(text: str) -> tuple[str, list[str]]:
    """``NAME=COMMAND`` (argparse type)."""
    name, sep, command = text.partition("=")
    if not sep or not name or not command.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=COMMAND, not {text!r}")
    return name, shlex.split(command)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("engines", nargs="+", type=engine_arg, metavar="NAME=COMMAND")
    p.add_argument("--ruleset", default="r000", help="the ruleset judged (default r000)")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    args = p.parse_args(argv)
    print(f"{os.cpu_count()} cores; load {os.getloadavg()[0]:.2f} at the start; ruleset {args.ruleset}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, command in args.engines:
            wall, _, doc = run(command, args.ruleset, os.path.join(tmp, name), None)
            rows.append({"engine": name, **shares(doc), "findings": len(doc["findings"]),
                         "clusters": len(doc["clusters"]), "wall": wall, "load": os.getloadavg()[0]})
    print(f"{'engine':10} {'fail':>5} " + " ".join(f"{k:>6}" for k in KINDS)
          + f" {'rule value':>10} {'reason only':>11} {'value, rest':>11} {'findings':>8} {'clusters':>8} {'wall s':>6}")
    for r in rows:
        print(f"{r['engine']:10} {r['failing']:5d} " + " ".join(f"{100 * r[k]:5.1f}%" for k in KINDS)
              + f" {100 * r['value']:9.1f}% {100 * r['reason_only']:10.1f}% {100 * r['value_of_ruled']:10.1f}%"
              f" {r['findings']:8d} {r['clusters']:8d} {r['wall']:6.1f}")
    print("rule value: the issue's measure, the share of failures in a finding naming a rule value (alt + fix);"
          " reason only: in clusters differing in the reason alone (legality agrees); value, rest: the rule value"
          " share of the failures outside those")
    if args.json:
        write_file(args.json, json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
