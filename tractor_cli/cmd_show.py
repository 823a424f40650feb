"""``tractor show RULESET``: the ruleset clause by clause, as a reader sees it."""
from __future__ import annotations

import textwrap

from tractor_dsl.render import rule_text

HELP = "print a ruleset clause by clause, readably"

BADGE = {"stated": "[stated]", "interpreted": "[interpreted]", "conduct": "[conduct: not machine-checkable]"}


def add_arguments(p):
    p.add_argument("ruleset", help="ruleset name (e.g. r001) or rule file (house.tractor)")
    p.add_argument("--zh", action="store_true", help="show the Chinese statements too")


def run(args) -> int:
    from reference_impl.rules import is_rule_file, load_file
    from tractor_dsl.checker import load
    from tractor_dsl.diagnostics import SpecError
    if is_rule_file(args.ruleset):  # a user's rule file
        rs = load_file(args.ruleset).checked
    else:
        lib = load()
        if lib.errors:
            raise SpecError(lib.errors)
        rs = lib.get(args.ruleset)
    print(f"{rs.name}: {rs.title}")
    if len(rs.lineage) > 1:
        print(f"extends {' -> '.join(rs.lineage[1:])}")
    print(f"source document {rs.document}\n")
    for clause in rs.clauses:
        term = f"  {clause.term}" if clause.term else ""
        print(f"{clause.id}{term}  {BADGE.get(clause.status, '')}  ({', '.join(clause.cites)})")
        for line in textwrap.wrap(clause.says or "", 96):
            print(f"    {line}")
        if args.zh and clause.zh:
            print(f"    {clause.zh}")
        if clause.status == "interpreted":
            for line in textwrap.wrap("Why: " + (clause.reason or ""), 96):
                print(f"    {line}")
            chosen = rs.choices.get(clause.id)
            for r in clause.readings:
                mark = "*" if r.name == chosen else "-"
                print(f"    {mark} reading {r.name}: {r.description}")
            for alt in clause.alternatives:
                print(f"    - alternative: {alt}")
        if clause.id in rs.overrides:
            print(f"    overridden here: {rs.overrides[clause.id].because}")
        rules = list(clause.rules) + [x for r in clause.readings if r.name == rs.choices.get(clause.id) for x in r.rules]
        for rule in rules:
            print(f"      {rule_text(rule)}")
        print()
    return 0
