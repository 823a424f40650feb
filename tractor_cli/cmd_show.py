"""``tractor show RULESET``: the ruleset clause by clause, as a reader sees it."""
from __future__ import annotations

from tractor_dsl.render import rule_text

from . import ui

HELP = "print a ruleset clause by clause, readably"

STYLE = {"stated": "green", "interpreted": "yellow", "conduct": "dim"}
BADGE = {"stated": "[stated]", "interpreted": "[interpreted]", "conduct": "[conduct: not machine-checkable]"}


def add_arguments(p):
    p.add_argument("ruleset", help="ruleset name (e.g. r001) or rule file (house.tractor)")
    p.add_argument("--zh", action="store_true", help="show the Chinese of every text too (title, statements, reasons, readings, alternatives)")


def run(args) -> int:
    from reference_impl.rules import checked_ruleset
    rs = checked_ruleset(args.ruleset)   # a bundled name or a user's rule file
    out = ui.console()
    out.print(ui.styled((f"{rs.name}: {rs.title}", "heading")), soft_wrap=True)
    if args.zh and rs.title_zh:
        out.print(ui.styled((f"{rs.name}：{rs.title_zh}", "heading")), soft_wrap=True)
    if len(rs.lineage) > 1:
        out.print(f"extends {' -> '.join(rs.lineage[1:])}", soft_wrap=True)
    out.print(f"source document {rs.document}\n", soft_wrap=True)
    if rs.variants:
        _house_rules(out, rs.variants, args.zh)
    for clause in rs.clauses:
        term = f"  {clause.term}" if clause.term else ""
        out.print(ui.styled((clause.id, "clause"), f"{term}  ", (BADGE.get(clause.status, ""), STYLE.get(clause.status)),
                            f"  ({', '.join(clause.cites)})"), soft_wrap=True)
        ui.print_indented(out, clause.says or "", 4)
        if args.zh and clause.zh:  # wrapped to the terminal, a Chinese character two columns wide
            ui.print_indented(out, clause.zh, 4)
        if clause.status == "interpreted":
            ui.print_indented(out, "Why: " + (clause.reason or ""), 4)
            if args.zh and clause.reason_zh:
                ui.print_indented(out, "理由：" + clause.reason_zh, 4)
            chosen = rs.choices.get(clause.id)
            for r in clause.readings:
                mark = "*" if r.name == chosen else "-"
                ui.print_indented(out, f"{mark} reading {r.name}: {r.description}", 4)
                if args.zh and r.description_zh:
                    ui.print_indented(out, f"  {r.description_zh}", 4)
            for alt, alt_zh in zip(clause.alternatives, clause.alternatives_zh):
                ui.print_indented(out, f"- alternative: {alt}", 4)
                if args.zh and alt_zh:
                    ui.print_indented(out, f"  {alt_zh}", 4)
        if clause.id in rs.overrides:
            ov = rs.overrides[clause.id]
            ui.print_indented(out, f"overridden here: {ov.because}", 4)
            if args.zh and ov.because_zh:
                ui.print_indented(out, f"本规则集改写此条，理由：{ov.because_zh}", 4)
        rules = list(clause.rules) + [x for r in clause.readings if r.name == rs.choices.get(clause.id) for x in r.rules]
        for rule in rules:
            out.print(f"      {rule_text(rule)}", soft_wrap=True)
        out.print()
    return 0


def _house_rules(out, ids, zh: bool) -> None:
    """The house-rule readings of VARIANTS.md the ruleset states, one a line (in Chinese too with --zh)."""
    from tractor_dsl.variants import by_id
    known = by_id()
    out.print(ui.styled(("house-rule readings stated (VARIANTS.md):", "heading")), soft_wrap=True)
    if zh:
        out.print(ui.styled(("所采用的规则变体（VARIANTS.md）：", "heading")), soft_wrap=True)
    for vid in sorted(ids):
        v = known[vid]
        out.print(ui.styled("  ", (vid, "clause"), f"  {v.point}: {v.text}"), soft_wrap=True)
        if zh:
            out.print(f"        {v.point_zh}：{v.zh}", soft_wrap=True)
    out.print()
