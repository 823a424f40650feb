"""``tractor check``: parse and check rule files; report coverage of the inventory."""
from __future__ import annotations

import sys

from tractor_dsl.checker import coverage, load

HELP = "check rule files (default: spec/) and report which source clauses each document covers"


def add_arguments(p):
    p.add_argument("paths", nargs="*", help="rule files or folders (default: the bundled spec/)")
    p.add_argument("--quiet", action="store_true", help="print problems only")


def run(args) -> int:
    lib = load(args.paths or None)
    for d in lib.diagnostics:
        print(d.render(lib.sources), file=sys.stderr)
    if not args.quiet:
        for name in sorted(set(lib.rulesets) - lib.context):
            rs = lib.rulesets[name]
            base = f" extends {rs.lineage[1]}" if len(rs.lineage) > 1 else ""
            if len(rs.lineage) == 1 and rs.document:
                cov = coverage(rs)
                total = len(cov["covered"]) + len(cov["missing"])
                gaps = len(cov["gaps"]) + len(cov["gaps_missing"])
                pct = 100.0 * len(cov["covered"]) / total if total else 100.0
                print(f"{name}: document {rs.document}: {len(cov['covered'])}/{total} source clauses covered "
                      f"({pct:.0f}%), {len(cov['gaps'])}/{gaps} gaps interpreted")
                if cov["missing"]:
                    print(f"  missing: {', '.join(cov['missing'])}")
            else:
                print(f"{name}: document {rs.document}{base}: {len(rs.overrides)} override(s)")
    errors = len(lib.errors)
    warnings = len(lib.diagnostics) - errors
    from . import ui
    ui.echo(ui.styled(f"{len(set(lib.rulesets) - lib.context)} ruleset(s) checked, ",
                      (f"{errors} error(s)", "fail" if errors else "pass"),
                      ", ", (f"{warnings} warning(s)", "skipped" if warnings else None)))
    return 1 if errors else 0
