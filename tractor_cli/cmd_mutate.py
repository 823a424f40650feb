"""``tractor mutate RULESET``: measure each stage of the suite by the alternatives of the spec it kills."""
from __future__ import annotations

import json
import sys

STAGES = ("default", "quick", "thorough")   # conformance.analysis.mutation.STAGES (a test holds them equal)

HELP = "derive mutant rulesets from the spec and report which ones each stage of the conformance suite kills"


def add_arguments(p):
    from .options import names, output_file
    p.add_argument("ruleset", help="ruleset name, e.g. r003")
    p.add_argument("--stages", default="default,quick", metavar="STAGE,...", type=names("--stages", STAGES),
                   help="stages to measure, in order: default (what `tractor conform --ruleset R` runs), quick, "
                        "thorough (the generated suite's profiles); default: default,quick")
    p.add_argument("--seed", type=int, default=0, help="seed of the generated suite (default 0)")
    p.add_argument("--json", metavar="FILE", type=output_file, help="also write the outcome of every mutant in every stage as JSON")
    p.add_argument("--verbose", action="store_true", help="list killed mutants too")
    from conformance.running.parallel import add_arguments as add_parallel
    add_parallel(p)


def run(args) -> int:
    from conformance.generation.alternatives import alternatives
    from conformance.generation.cases import suite
    from conformance.analysis.mutation import by_clause, run_default, run_generated
    from conformance.generation.suite import examples
    from reference_impl.rules import catalogue_names, is_rule_file, rules_for, ruleset_names
    if is_rule_file(args.ruleset):
        args.ruleset = rules_for(args.ruleset).name  # a user's rule file, known by its name from now on
    elif args.ruleset not in ruleset_names() and args.ruleset not in catalogue_names():
        print(f"tractor mutate: unknown ruleset {args.ruleset!r}; known: {', '.join(ruleset_names())}"
              " and the house-rule files of spec/variants/ (by name or path)", file=sys.stderr)
        return 2
    from .options import split_names
    stages = split_names([args.stages], "--stages", STAGES)   # checked by its argparse type already
    base = rules_for(args.ruleset)
    mutants = alternatives(base)

    from rich.progress import Progress

    from . import ui
    from .progress import fitting_columns
    err = ui.console(stderr=True)
    results = []
    # a bar on a terminal only (rich draws nothing live elsewhere)
    with Progress(*fitting_columns(err.width, describe=18), console=err, transient=True,
                  disable=not err.is_terminal) as bar:
        for stage in stages:
            task = bar.add_task(f"{stage}: mutants", total=len(mutants))

            def show(i, n, task=task):
                bar.update(task, completed=i, total=n)
            if stage == "default":
                result = run_default(base, suite(args.ruleset), mutants, show, jobs=args.jobs,
                                     scheduler=args.scheduler, ruleset=args.ruleset)
            else:
                result = run_generated(base, stage, args.seed, mutants, show, jobs=args.jobs,
                                       scheduler=args.scheduler, ruleset=args.ruleset)
            results.append(result)
    from conformance.running.parallel import describe
    out = ui.console()
    out.print(f"{base.name}: {len(mutants)} mutants (alternatives of the spec); seed {args.seed}; "
              f"on {describe(args.jobs, args.scheduler)}\n", soft_wrap=True)
    table = ui.table("stage", "cases", "killed", "equiv.", "survived", "kill rate")
    for r in results:
        cases = f"{r.cases}" if r.stage == "default" else \
            f"{r.cases}/op (follow {examples(r.stage, 'follow')})"
        table.add_row(r.stage, cases, str(r.killed), str(r.equivalent),
                      ui.styled((str(len(r.survived)), "fail" if r.survived else "dim")), f"{r.rate:.1f}%")
    out.print(table)
    out.print(f"\n(the headline is the default stage: exactly what `tractor conform --ruleset {base.name}` runs)",
              soft_wrap=True)
    for r in results:
        out.print(f"\n{r.stage}: by clause", style="bold")
        table = ui.table("clause", "killed", "equiv.", "survived", "kill rate")
        for clause, (k, e, s) in sorted(by_clause(r).items()):
            rate = f"{100 * k / (k + s):.0f}%" if k + s else "-"
            table.add_row(clause, str(k), str(e), ui.styled((str(s), "fail" if s else "dim")), rate)
        out.print(table)
        if r.survived:
            out.print(f"  surviving mutants ({r.stage} cannot tell them from the spec):", soft_wrap=True)
            for o in r.survived:
                out.print(f"    {o.mutant.id} [{o.mutant.clause}] {o.mutant.description}", soft_wrap=True)
        if args.verbose:
            for o in r.outcomes:
                if o.killed_by:
                    out.print(f"    killed {o.mutant.id} [{o.mutant.clause}] {o.mutant.description} — by {o.killed_by}",
                              soft_wrap=True)
    equivalent = [o for o in results[0].outcomes if o.equivalent and not o.killed_by]
    if equivalent:
        out.print("\nequivalent mutants (no position can tell them apart):", soft_wrap=True)
        for o in equivalent:
            out.print(f"  {o.mutant.id} {o.mutant.description} — {o.equivalent}", soft_wrap=True)
    if args.json:
        from tractor_dsl.files import write_file
        write_file(args.json, json.dumps({r.stage: [{"id": o.mutant.id, "clause": o.mutant.clause,
                                                     "feature": o.mutant.feature, "description": o.mutant.description,
                                                     "killed_by": o.killed_by, "equivalent": o.equivalent,
                                                     "detail": o.detail} for o in r.outcomes]
                                          for r in results}, ensure_ascii=False, indent=1))
    return 1 if any(r.survived for r in results) else 0
