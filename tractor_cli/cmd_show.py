"""``tractor show RULESET``: the ruleset clause by clause, as a reader sees it (``--zh``: in Chinese).

Every follow ladder is printed, the ones the ruleset lists under their clause
and the ones ``follow.unlisted`` derives (a tractor of four pairs, ...) under
the clause that sets it: an engine is judged by both.
"""
from __future__ import annotations

from tractor_dsl import model as m
from tractor_dsl.ladders import SHOWN_UP_TO_LENGTH, derived_follows, follow_zh
from tractor_dsl.render import rule_text

from . import ui

HELP = "print a ruleset clause by clause, readably (--zh: in Chinese)"

STYLE = {"stated": "green", "interpreted": "yellow", "conduct": "dim"}
WORDS = {
    "en": {"stated": "[stated]", "interpreted": "[interpreted]", "conduct": "[conduct: not machine-checkable]",
           "extends": "extends ", "document": "source document ", "why": "Why: ", "reading": "reading ",
           "alternative": "alternative: ", "override": "overridden here: ", "sep": ": ",
           "derived": "derived ladders (follow.unlisted = {v}), for leads with no ladder of their own:",
           "longer": "longer tractors: the same derivation (see follow.unlisted in the rule language)"},
    "zh": {"stated": "［原文规定］", "interpreted": "［解释］", "conduct": "［行为规范：机器无法检查］",
           "extends": "继承自 ", "document": "来源文件 ", "why": "理由：", "reading": "读法 ",
           "alternative": "另一种理解：", "override": "本规则集改写此条，理由：", "sep": "：",
           "derived": "推导出的跟牌顺序（follow.unlisted = {v}），用于没有单列跟牌顺序的首家牌型：",
           "longer": f"超过{SHOWN_UP_TO_LENGTH}连的拖拉机按同样方法推导（见规则语言中的 follow.unlisted）"},
}


def add_arguments(p):
    p.add_argument("ruleset", help="ruleset name (e.g. r001) or rule file (house.tractor)")
    p.add_argument("--zh", action="store_true",
                   help="in Chinese: title, statements, reasons, readings, alternatives, ladders and labels "
                        "(the English where a user's rule file gives no Chinese)")


def _rule_line(rule, zh: bool, document: str | None = None) -> str:
    """A rule as the rule language has it, or a follow ladder in Chinese (in the words of ``document``)."""
    return follow_zh(rule, document) if zh and isinstance(rule, m.Follow) else rule_text(rule)


def run(args) -> int:
    from reference_impl.rules import checked_ruleset
    rs = checked_ruleset(args.ruleset)   # a bundled name or a user's rule file
    zh = bool(args.zh)
    w = WORDS["zh" if zh else "en"]

    def pick(en, cn):
        return (cn or en or "") if zh else (en or "")

    out = ui.console()
    out.print(ui.styled((f"{rs.name}{w['sep']}{pick(rs.title, rs.title_zh)}", "heading")), soft_wrap=True)
    if len(rs.lineage) > 1:
        out.print(f"{w['extends']}{' -> '.join(rs.lineage[1:])}", soft_wrap=True)
    out.print(f"{w['document']}{rs.document}\n", soft_wrap=True)
    unlisted_clause = rs.origins["follow.unlisted"].clause.id if "follow.unlisted" in rs.origins else None
    if rs.variants:
        _house_rules(out, rs.variants, zh)
    for clause in rs.clauses:
        term = f"  {clause.term}" if clause.term else ""
        out.print(ui.styled((clause.id, "clause"), f"{term}  ", (w.get(clause.status, ""), STYLE.get(clause.status)),
                            f"  ({', '.join(clause.cites)})"), soft_wrap=True)
        ui.print_indented(out, pick(clause.says, clause.zh), 4)
        chosen = rs.choices.get(clause.id)
        if clause.status == "interpreted":
            ui.print_indented(out, pick(clause.reason, clause.reason_zh), 4, label=w["why"])
            for r in clause.readings:
                mark = "*" if r.name == chosen else "-"
                ui.print_indented(out, f"{mark} {w['reading']}{r.name}{w['sep']}{pick(r.description, r.description_zh)}", 4)
        for alt, alt_zh in zip(clause.alternatives, clause.alternatives_zh):   # a stated clause's too: the house
            ui.print_indented(out, f"- {w['alternative']}{pick(alt, alt_zh)}", 4)   # rules that read it otherwise
        if clause.id in rs.overrides:
            ov = rs.overrides[clause.id]
            ui.print_indented(out, pick(ov.because, ov.because_zh), 4, label=w["override"])
        rules = list(clause.rules) + [x for r in clause.readings if r.name == chosen for x in r.rules]
        for rule in rules:
            out.print(f"      {_rule_line(rule, zh, rs.document)}", soft_wrap=True)
        if clause.id == unlisted_clause:
            _derived(out, rs, w, zh)
        out.print()
    return 0


def _derived(out, rs, w, zh: bool) -> None:
    follows = derived_follows(rs)
    if not follows:
        return
    ui.print_indented(out, w["derived"].format(v=rs.values["follow.unlisted"]), 4)
    for f in follows:
        out.print(f"      {_rule_line(f, zh, rs.document)}", soft_wrap=True)
    ui.print_indented(out, w["longer"], 4)


def _house_rules(out, ids, zh: bool) -> None:
    """The house-rule readings of VARIANTS.md the ruleset states, one a line (in Chinese with --zh)."""
    from tractor_dsl.variants import by_id
    known = by_id()
    heading = "所采用的规则变体：" if zh else "house-rule readings stated (VARIANTS.md):"
    out.print(ui.styled((heading, "heading")), soft_wrap=True)
    for vid in sorted(ids):
        v = known[vid]
        line = f"  {v.point_zh}：{v.zh}" if zh else f"  {v.point}: {v.text}"
        out.print(ui.styled("  ", (vid, "clause"), line), soft_wrap=True)
    out.print()
