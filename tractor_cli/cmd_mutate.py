"""``tractor mutate RULESET``: measure each stage of the suite by the alternatives of the spec it kills."""
from __future__ import annotations

import json
import sys

HELP = "derive mutant rulesets from the spec and report which ones each stage of the conformance suite kills"


def add_arguments(p):
    p.add_argument("ruleset", help="ruleset name, e.g. r003")
    p.add_argument("--stages", default="default,quick", metavar="STAGE,...",
                   help="stages to measure, in order: default (what `tractor conform --ruleset R` runs), quick, "
                        "thorough (the generated suite's profiles); default: default,quick")
    p.add_argument("--seed", type=int, default=0, help="seed of the generated suite (default 0)")
    p.add_argument("--json", metavar="FILE", help="also write the outcome of every mutant in every stage as JSON")
    p.add_argument("--verbose", action="store_true", help="list killed mutants too")
    from parallel import add_arguments as add_parallel
    add_parallel(p)


def run(args) -> int:
    from conformance.alternatives import alternatives
    from conformance.cases import suite
    from conformance.mutation import STAGES, by_clause, run_default, run_generated
    from reference_impl.rules import is_rule_file, rules_for, ruleset_names
    if is_rule_file(args.ruleset):
        args.ruleset = rules_for(args.ruleset).name  # a user's rule file, known by its name from now on
    elif args.ruleset not in ruleset_names():
        print(f"tractor mutate: unknown ruleset {args.ruleset!r}; known: {', '.join(ruleset_names())}",
              file=sys.stderr)
        return 2
    stages = [s.strip() for s in args.stages.split(",") if s.strip()]
    bad = [s for s in stages if s not in STAGES]
    if bad or not stages:
        print(f"tractor mutate: unknown stage(s) {', '.join(bad) or '(none)'}; stages: {', '.join(STAGES)}",
              file=sys.stderr)
        return 2
    base = rules_for(args.ruleset)
    mutants = alternatives(base)

    def progress(stage):
        def show(i, n):
            if sys.stderr.isatty():
                print(f"\r  {stage}: mutant {i}/{n}", end="", file=sys.stderr, flush=True)
        return show

    results = []
    for stage in stages:
        if stage == "default":
            result = run_default(base, suite(args.ruleset), mutants, progress(stage), jobs=args.jobs,
                                 scheduler=args.scheduler, ruleset=args.ruleset)
        else:
            result = run_generated(base, stage, args.seed, mutants, progress(stage), jobs=args.jobs,
                                   scheduler=args.scheduler, ruleset=args.ruleset)
        if sys.stderr.isatty():
            print(file=sys.stderr)
        results.append(result)
    from parallel import describe
    print(f"{base.name}: {len(mutants)} mutants (alternatives of the spec); seed {args.seed}; "
          f"on {describe(args.jobs, args.scheduler)}\n")
    print(f"{'stage':10} {'cases':>7} {'killed':>7} {'equiv.':>7} {'survived':>9} {'kill rate':>10}")
    for r in results:
        cases = f"{r.cases}" if r.stage == "default" else f"{r.cases}/op"
        print(f"{r.stage:10} {cases:>7} {r.killed:7d} {r.equivalent:7d} {len(r.survived):9d} {r.rate:9.1f}%")
    print(f"\n(the headline is the default stage: exactly what `tractor conform --ruleset {base.name}` runs)")
    for r in results:
        print(f"\n{r.stage}: by clause")
        print(f"  {'clause':32} {'killed':>7} {'equiv.':>7} {'survived':>9} {'kill rate':>10}")
        for clause, (k, e, s) in sorted(by_clause(r).items()):
            rate = f"{100 * k / (k + s):.0f}%" if k + s else "-"
            print(f"  {clause:32} {k:7d} {e:7d} {s:9d} {rate:>10}")
        if r.survived:
            print(f"  surviving mutants ({r.stage} cannot tell them from the spec):")
            for o in r.survived:
                print(f"    {o.mutant.id} [{o.mutant.clause}] {o.mutant.description}")
        if args.verbose:
            for o in r.outcomes:
                if o.killed_by:
                    print(f"    killed {o.mutant.id} [{o.mutant.clause}] {o.mutant.description} — by {o.killed_by}")
    equivalent = [o for o in results[0].outcomes if o.equivalent and not o.killed_by]
    if equivalent:
        print("\nequivalent mutants (no position can tell them apart):")
        for o in equivalent:
            print(f"  {o.mutant.id} {o.mutant.description} — {o.equivalent}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({r.stage: [{"id": o.mutant.id, "clause": o.mutant.clause, "feature": o.mutant.feature,
                                  "description": o.mutant.description, "killed_by": o.killed_by,
                                  "equivalent": o.equivalent, "detail": o.detail} for o in r.outcomes]
                       for r in results}, f, ensure_ascii=False, indent=1)
    return 1 if any(r.survived for r in results) else 0
