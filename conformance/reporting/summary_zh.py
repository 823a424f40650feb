"""``summary.md`` in Chinese (``tractor conform --lang zh``, issue 33): the facts of
:func:`conformance.reporting.report.markdown`, each clause, operation and reason code by its Chinese name with
its id beside it in code, the texts from :data:`conformance.reporting.labels.SUMMARY_ZH`. A finding is told by
its structured parts (the feature, the clause, the values, the counts); the analysis' English account of a
finding beyond the alternatives is left out. report.json and junit.xml stay language-neutral."""
from __future__ import annotations

import json
from typing import Any

from conformance.protocol.inputs import glyphs, input_rows
from conformance.reporting.escape import md_code, md_text
from conformance.reporting.findings_zh import engine_zh, spec_zh
from conformance.reporting.labels import INPUT_WORDS, OPS_ZH, SUMMARY_ZH as S, cluster_kind, ruleset_title, word
from conformance.reporting.names import deciding_clause
from conformance.protocol import messages as protocol
from conformance.reporting.report import (COLUMNS, UNCLAUSED_ROWS, _cols, by_clause, by_op, compared_fields, decision_lines,
                                          explain_command, stated_groups)
from conformance.running.runner import RunResult
from tractor_dsl.names import clause_zh, feature_zh
from tractor_dsl.vocabulary import CONSEQUENCE_TEXTS, DECLARATION_REASONS, PLAY_REASONS, chinese, consequence_zh

PLAY_ZH, DECLARATION_ZH = chinese(PLAY_REASONS), chinese(DECLARATION_REASONS)


def _plain(s) -> str:
    return str(s)


def _styles(md: bool):
    """(code, text): Markdown spans for summary.md, the text as it is for the terminal."""
    return (md_code, md_text) if md else (_plain, _plain)


def named(zh: str | None, ident: str, md: bool = True) -> str:
    """An id by its Chinese name, the id beside it in code (the id alone when it has no name)."""
    code, text = _styles(md)
    return f"{text(zh)} {code(ident)}" if zh else code(ident)


def clause(c: str, md: bool = True) -> str:
    return _styles(md)[1](word("zh", c)) if c in UNCLAUSED_ROWS else named(clause_zh(c), c, md)


def _answer(v: Any, ruleset: str, md: bool = True) -> str:
    md_code, _ = _styles(md)
    if not isinstance(v, dict):
        return md_code(json.dumps(v, ensure_ascii=False))
    doc = ruleset[1:4] if ruleset[1:4].isdigit() else None
    parts = []
    for k, x in v.items():
        if k in ("clauses", "detail"):
            continue
        zh = None
        if k == "reason" and isinstance(x, str):
            zh = PLAY_ZH.get(x) or DECLARATION_ZH.get(x)
        elif k == "consequence" and x in CONSEQUENCE_TEXTS:
            zh = consequence_zh(x, doc)
        parts.append(f"{md_code(k)}={named(zh, x, md) if zh else md_code(json.dumps(x, ensure_ascii=False))}")
    return " ".join(parts)


def case_lines(c: dict, o, report_dir: str | None, md: bool = True) -> list[str]:
    md_code, md_text = _styles(md)
    title = " · ".join([md_code(c["ruleset"]), named(OPS_ZH.get(c["op"]), c["op"], md)]
                       + ([clause(deciding_clause(c), md)] if deciding_clause(c) else []))
    kind = o.kind or "disagrees"
    out = [(S["case"] if md else S["case"].replace("**", "")).format(status=word("zh", o.status), title=title, id=md_code(c["id"]),
                            kind="答案不同" if kind == "disagrees" else md_code(kind)),
           S["clauses"].format(v="、".join(clause(x, md) for x in c.get("clauses", [])) or "—")]
    for label, parts in input_rows(c["input"], INPUT_WORDS["zh"]):
        text = " ".join(md_code(glyphs(v)) if kind == "cards" else md_text(v) for kind, v in parts)
        out.append(S["input"].format(label=f"{md_text(label)}：" if label else "", v=text))
    out.append(S["expected"].format(v=_answer(c["expected"], c["ruleset"], md)))
    engine = _answer(o.answer, c["ruleset"], md) if o.status in ("fail", "xpass") and isinstance(o.answer, dict) \
        else md_code(o.message)
    out.append(S["answer"].format(v=engine))
    out.append(S["explain"].format(v=md_code(explain_command(c["id"], report_dir))))
    return out


def findings_lines(result: RunResult, md: bool = True) -> list[str]:
    md_code, md_text = _styles(md)
    out = []
    ids = (lambda s: " " + md_code(s)) if md else (lambda s: f"（{s}）")   # an id beside its name, as named() sets it
    for f in result.findings:
        values = "；".join(engine_zh(x, f.feature, escape=md_text, ident=ids) for x in f.engine)
        out.append(f"- {named(feature_zh(f.feature), f.feature, md)}（{clause(f.clause, md) if f.clause else '—'}）："
                   + (f"规则书取 {spec_zh(f.feature, f.spec, escape=md_text, ident=ids)}；" if f.spec else "")
                   + f"引擎的答案合于 {values} — {len(f.cases)} 例"
                   + (f"；它改变 {len(f.broken)} 例原本一致的例子" if f.broken else ""))
    for c in getattr(result, "clusters", []):
        what = cluster_kind(c, "zh")
        out.append(f"- {named(OPS_ZH.get(c.op), c.op, md)}：{'、'.join(md_code(x) for x in c.fields)}（{what}；"
                   f"{clause(c.clause, md)}）— {len(c.cases)} 例：规则书答 {md_code(c.spec)}，引擎答 {md_code(c.engine)}"
                   + (f"；{'首个不合的局面（未缩小）' if c.not_shrunk else '最小局面'}："
                      f"{md_code(json.dumps(c.position, ensure_ascii=False))}" if c.position is not None else ""))
    if not out:
        out.append(S["no_finding" if result.failed else "no_failure"])
    if result.unexplained:
        out.append(S["unexplained"].format(n=len(result.unexplained)))
    return out


def partial_lines(result: RunResult, md: bool = True) -> list[str]:
    """The operations the engine declared it answers in part (report.coverage_notes): never narrowed silently."""
    code, _ = _styles(md)
    out = []
    for op, fs in compared_fields(result).items():
        if tuple(fs) != protocol.COMPARED[op]:
            rest = [f for f in protocol.COMPARED[op] if f not in fs]
            out.append(f"- 部分回答（引擎声明）：{named(OPS_ZH.get(op), op, md)} 只比较 "
                       f"{'、'.join(code(f) for f in fs)}（不比较 {'、'.join(code(f) for f in rest)}）")
    return out


def coverage_lines(result: RunResult, md: bool = True) -> list[str]:
    """The decision points and stated rules the run reached (report.decision_lines, report.stated_lines)."""
    md_code, _ = _styles(md)
    out = [f"- {line}" for line in decision_lines(result, "zh", md_code)]
    for head, groups in stated_groups(result, "zh", md_code):
        out.append(f"- {head}")
        out += [f"  - {what}：" + "、".join(clause(c, md) for c in ids) for what, ids in groups]
    return out


def _table(head: str, rows: dict[str, dict], name) -> list[str]:
    out = [f"| {head} | " + " | ".join(word("zh", c) for c in COLUMNS) + " |", "|---|" + "---:|" * len(COLUMNS)]
    for k, row in rows.items():
        cols = _cols(row)
        out.append(f"| {name(k)} | " + " | ".join(str(cols[c]) for c in COLUMNS) + " |")
    return out


def _op_row(key: str) -> str:
    rs, _, op = key.partition(".")
    return f"{md_code(rs)} · {named(OPS_ZH.get(op), op)}" if op else md_code(key)


def markdown_zh(result: RunResult, show: int = 10) -> str:
    """summary.md in Chinese."""
    hs = result.handshake or {}
    t = result.counts()
    rulesets = "、".join(md_code(rs) + (f"（{md_text(tt)}）" if (tt := ruleset_title(rs, "zh")) else "")
                         for rs in result.rulesets) or "—"
    out = [S["title"], "",
           S["engine"].format(command=md_code(" ".join(result.command)),
                              name=f" — {md_code(str(hs.get('name')) + ' ' + str(hs.get('version', '')))}" if hs
                              else S["nohandshake"]),
           S["rulesets"].format(rulesets=rulesets, source=md_code(result.source or "-"),
                                seed=S["seed"].format(seed=result.seed) if result.seed is not None else ""),
           S["started"].format(started=md_code(result.started), seconds=result.duration,
                               interrupted=S["interrupted"] if result.interrupted else "")]
    out += [S["not_finished"].format(step=md_code(step)) for step in result.unfinished]
    out.append(S["counts"].format(**t) + "".join(S["extra"].format(status=word("zh", k), n=t[k])
                                                 for k in ("xfail", "xpass") if t[k]))
    if result.restarts:
        out.append(S["restarts"].format(n=result.restarts))
    out += partial_lines(result)
    out += coverage_lines(result)
    out += ["", S["findings"], ""] + findings_lines(result) + [""]
    out += [S["by_op"], ""] + _table(S["op_head"], by_op(result), _op_row) + [""]
    out += [S["by_clause"], ""] + _table(S["clause_head"], by_clause(result), clause) + [""]
    bad = [(c, o) for c, o in zip(result.cases, result.outcomes) if o.status in ("fail", "xpass", "errored")]
    if bad:
        out += [S["failures"].format(n=len(bad), shown=min(show, len(bad))), ""]
        for c, o in bad[:show]:
            out += case_lines(c, o, result.report_dir) + [""]
    if result.events:
        out += [S["events"], ""]
        out += [f"- {md_text(word('zh', e['kind'])) if word('zh', e['kind']) != e['kind'] else md_code(e['kind'])}："
                f"{md_code(e['message'])}" for e in result.events[:50]]
        out.append("")
    return "\n".join(out)


def matrix_markdown_zh(m, results: list[RunResult] | None = None) -> str:
    """matrix.md in Chinese (conformance.reporting.matrix.markdown): the rate of each engine per ruleset and
    operation, then each engine's findings."""
    from conformance.reporting.matrix import _cell_text
    skip = "（跳过 {n}）"
    out = ["# 一致性矩阵", "", "一致率：一致的例子占判定例子的比例（跳过的例子不计入，其数目写在比例旁）。", "",
           "| 规则集·操作 | " + " | ".join(md_code(e) for e in m.engines) + " |", "|---|" + "---:|" * len(m.engines)]
    for rs, op in m.rows:
        out.append(f"| {md_code(rs)} · {named(OPS_ZH.get(op), op)} | "
                   + " | ".join(_cell_text(m.cells[(rs, op, e)], skip) for e in m.engines) + " |")
    out.append("| **合计** | " + " | ".join(f"**{_cell_text(m.totals[e], skip)}**" for e in m.engines) + " |")
    out.append("")
    if results is not None:
        out += ["## 发现", ""]
        for name, r in zip(m.engines, results):
            out += [f"### {md_code(name)}", ""] + findings_lines(r) + [""]
    return "\n".join(out)
