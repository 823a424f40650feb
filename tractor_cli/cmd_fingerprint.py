"""``tractor fingerprint --engine CMD --ruleset R``: which reading of each interpreted clause an engine follows."""
from __future__ import annotations

import json
import sys

HELP = "find which reading of each interpreted clause an engine follows"


def add_arguments(p):
    p.add_argument("--engine", required=True, help='the engine command, e.g. "tractor engine"')
    p.add_argument("--ruleset", required=True, help="the ruleset whose readings to probe, e.g. r001")
    p.add_argument("--positions", type=int, default=4, help="discriminating positions per clause (default 4)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per request")
    p.add_argument("--json", metavar="FILE", help="also write the verdicts and their evidence as JSON")


def run(args) -> int:
    from conformance.fingerprint import fingerprint
    from conformance.suite import EngineUnavailable, ProcessEngine
    from reference_impl.rules import rules_for
    rules = rules_for(args.ruleset)
    engine = ProcessEngine(args.engine, args.timeout)
    try:
        verdicts = fingerprint(engine, rules.checked, args.positions, args.seed,
                               lambda c: print(f"  probing {c} ...", file=sys.stderr) if sys.stderr.isatty() else None)
    except EngineUnavailable as e:
        print(f"tractor fingerprint: {e}", file=sys.stderr)
        return 2
    finally:
        engine.close()
    print(f"{engine.name} on {rules.name}: readings followed\n")
    print(f"{'clause':26} {'spec chooses':20} {'engine follows':22} positions")
    mismatches = 0
    for v in verdicts:
        mark = "" if v.followed == [v.chosen] or not v.positions else "  <- differs from the spec"
        if mark:
            mismatches += 1
        print(f"{v.clause:26} {v.chosen:20} {v.verdict:22} {v.positions:>9}{mark}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([{"clause": v.clause, "readings": v.readings, "chosen": v.chosen, "followed": v.followed,
                        "positions": v.positions, "evidence": v.evidence} for v in verdicts], f,
                      ensure_ascii=False, indent=1)
    print(f"\n{len(verdicts)} clause(s) with several readings; the engine departs from {rules.name} on {mismatches}")
    return 0
