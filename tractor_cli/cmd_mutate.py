"""``tractor mutate RULESET``: measure the suite by the mutants of the spec it kills."""
from __future__ import annotations

import json
import sys
from collections import defaultdict

HELP = "derive mutant rulesets from the spec and report which ones the conformance suite kills"


def add_arguments(p):
    p.add_argument("ruleset", help="ruleset name, e.g. r003")
    p.add_argument("--seed", type=int, default=0, help="seed of the cases and the generated suite")
    p.add_argument("--profile", default="mutation", choices=("quick", "mutation", "thorough"))
    p.add_argument("--cases", type=int, default=None, help="seeded cases per operation (default: the runner's)")
    p.add_argument("--json", metavar="FILE", help="also write the outcome of every mutant as JSON")
    p.add_argument("--verbose", action="store_true", help="list killed mutants too")


def run(args) -> int:
    from conformance.cases import generate
    from conformance.mutants import run_mutants
    from reference_impl.rules import rules_for
    rules = rules_for(args.ruleset)
    cases = list(generate(args.ruleset, seed=args.seed, counts=args.cases))

    def progress(i, n):
        if sys.stderr.isatty():
            print(f"\r  mutant {i}/{n}", end="", file=sys.stderr, flush=True)

    outcomes = run_mutants(rules.checked, cases, rules, progress, args.profile, args.seed)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    per_clause: dict[str, list] = defaultdict(lambda: [0, 0, 0])  # killed, equivalent, survived
    for o in outcomes:
        row = per_clause[o.mutant.clause]
        row[0 if o.killed_by else 1 if o.equivalent else 2] += 1
    print(f"{rules.name}: {len(outcomes)} mutants from {len(cases)} seeded cases and the generated suite "
          f"(profile {args.profile}, seed {args.seed})\n")
    print(f"{'clause':32} {'killed':>7} {'equiv.':>7} {'survived':>9} {'kill rate':>10}")
    for clause in sorted(per_clause):
        k, e, s = per_clause[clause]
        rate = f"{100 * k / (k + s):.0f}%" if k + s else "-"
        print(f"{clause:32} {k:7d} {e:7d} {s:9d} {rate:>10}")
    killed = sum(1 for o in outcomes if o.killed_by)
    equivalent = [o for o in outcomes if not o.killed_by and o.equivalent]
    survivors = [o for o in outcomes if not o.killed_by and not o.equivalent]
    total = killed + len(survivors)
    print(f"\nkilled {killed} of {total} non-equivalent mutants ({100 * killed / total if total else 100:.1f}%); "
          f"{len(equivalent)} equivalent")
    if equivalent:
        print("\nequivalent mutants (no position can tell them apart):")
        for o in equivalent:
            print(f"  {o.mutant.id} {o.mutant.description} — {o.equivalent}")
    if survivors:
        print("\nsurviving mutants (the suite cannot tell them from the spec):")
        for o in survivors:
            print(f"  {o.mutant.id} [{o.mutant.clause}] {o.mutant.description}")
    if args.verbose:
        print("\nkilled:")
        for o in outcomes:
            if o.killed_by:
                print(f"  {o.mutant.id} [{o.mutant.clause}] {o.mutant.description} — by {o.killed_by}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([{"id": o.mutant.id, "clause": o.mutant.clause, "setting": o.mutant.setting,
                        "description": o.mutant.description, "killed_by": o.killed_by, "equivalent": o.equivalent,
                        "detail": o.detail} for o in outcomes], f, ensure_ascii=False, indent=1)
    return 1 if survivors else 0
