"""The conformance report as one static HTML file: no server, no internet, nothing outside the file.

It opens with the verdict (red FAIL when any engine failed a case, green PASS when
every judged case agreed), then holds the matrix ruleset × operation × engine (each cell coloured by its
compliance rate: green at 100 % alone), then for each engine its findings, its table of clauses and
its failures, each position drawn with the cards of the rulebook site
(:mod:`conformance.reporting.cards_html`, whose style is inlined here). Everything an
engine said is escaped. The page is laid out for a phone as for a desktop:
tables scroll in their own box and long words wrap.

In Chinese (``lang="zh"``, ``tractor conform --lang zh``) every fixed text comes from the Chinese table of
:mod:`conformance.reporting.labels`, each clause, operation, reason code and consequence is shown by its
Chinese name with its id beside it as a small label (``code.tr-id``), and the analysis' English prose (a
finding's rule, reach and advice) is left out: only its structured parts are shown.
"""
from __future__ import annotations

import json
from typing import Any

from conformance.reporting.badges import colour
from conformance.protocol.inputs import input_rows
from conformance.reporting.cards_html import CARD_CSS, cards_html
from conformance.reporting.escape import html_text
from conformance.reporting.findings_zh import engine_zh, spec_zh
from conformance.reporting.labels import HTML_LANG, INPUT_WORDS, OPS_ZH, cluster_kind, ruleset_title, texts, word
from conformance.reporting.matrix import Matrix, percent, rate, slugs
from conformance.reporting.names import case_title, clause_url, deciding_clause
from conformance.reporting.report import explain_command
from conformance.reporting.report import (COLUMNS, UNCLAUSED_ROWS, _cols, by_clause, decision_lines,
                                          stated_groups, stated_lines)
from tractor_dsl.names import clause_zh, feature_zh
from tractor_dsl.vocabulary import (CONSEQUENCE_TEXTS, DECLARATION_REASONS, PLAY_REASONS, chinese,
                                    consequence_zh)
from conformance.running.runner import RunResult

PLAY_ZH, DECLARATION_ZH = chinese(PLAY_REASONS), chinese(DECLARATION_REASONS)
SHOW = 40          # failures drawn per engine
PAGE_CSS = """
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 "DejaVu Sans", "Noto Sans", "Noto Sans CJK SC", system-ui, sans-serif;
       color: #1b1b1b; background: #fafafa; }
main { max-width: 1100px; margin: 0 auto; padding: 1em; }
h1 { font-size: 1.6em; margin: 0.2em 0 0.4em; }
h2 { font-size: 1.3em; margin: 1.6em 0 0.4em; border-bottom: 1px solid #ddd; }
h3 { font-size: 1.1em; margin: 1.2em 0 0.4em; }
p, li, dd, td, th, summary { overflow-wrap: anywhere; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 0.9em; background: #f0f0f0; padding: 0 0.2em;
       border-radius: 3px; }
.scroll { overflow-x: auto; max-width: 100%; margin: 0.5em 0 1em; }
table { border-collapse: collapse; background: #fff; }
th, td { border: 1px solid #d6d6d6; padding: 0.25em 0.6em; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
thead th { background: #f0f0f0; white-space: normal; min-width: 6em; max-width: 14em; vertical-align: bottom;
           text-align: center; overflow-wrap: anywhere; }
thead th:first-child { white-space: nowrap; text-align: left; }
td.rate { font-weight: 600; color: #1b1b1b; }
td.rate.none { color: #555; }
.verdict { border-radius: 6px; padding: 0.6em 1em; margin: 0.4em 0 0.8em; color: #fff; font-size: 1.1em; }
.verdict strong { font-size: 1.3em; letter-spacing: 0.05em; margin-right: 0.5em; }
.verdict.fail { background: #b60205; }
.verdict.pass { background: #1a7f37; }
.verdict.incomplete { background: #8a5a00; }
.verdict.none { background: #555; }
.verdict ul { margin: 0.3em 0 0; padding-left: 1.2em; }
.tag { font-size: 0.75em; border-radius: 3px; padding: 0 0.4em; color: #fff; vertical-align: middle; }
.tag.fail { background: #b60205; } .tag.pass { background: #1a7f37; }
.tag.incomplete { background: #8a5a00; } .tag.none { background: #555; }
td small { font-weight: 400; opacity: 0.9; }
code.tr-id { font-size: 0.75em; color: #555; margin-left: 0.3em; }
tr.total td { font-weight: 700; }
.meta { color: #555; margin: 0.2em 0; }
.note { background: #fff5d6; border-left: 4px solid #e6c27a; padding: 0.3em 0.7em; margin: 0.5em 0; }
.failure { background: #fff; border: 1px solid #ddd; border-left: 4px solid #e05d44; border-radius: 4px;
           padding: 0.5em 0.8em; margin: 0.7em 0; }
.failure.errored { border-left-color: #9f9f9f; }
.failure h4 { margin: 0 0 0.3em; font-size: 1em; overflow-wrap: anywhere; }
.failure dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0.15em 0.8em; margin: 0; }
.failure dt { color: #555; }
.failure dd { margin: 0; min-width: 0; }
@media (max-width: 600px) {
  main { padding: 0.6em; }
  .failure dl { grid-template-columns: minmax(0, 1fr); }
  .failure dt { margin-top: 0.3em; font-size: 0.85em; }
}
"""


def _e(s: Any) -> str:
    return html_text(s)   # control characters (NUL, ESC, ...) shown as \x00, \x1b, then entities


def _named(zh: str | None, ident: str, lang: str) -> str:
    """An identifier: in English its id as code; in Chinese its Chinese name, the id beside it as a small label
    (the id alone, as code, when it has no Chinese name)."""
    if lang == "zh" and zh:
        return f"{_e(zh)}{_tr_id(ident)}"
    return f"<code>{_e(ident)}</code>"


def _tr_id(ident: str) -> str:
    """An id as the small label beside its Chinese name."""
    return f'<code class="tr-id">{_e(ident)}</code>'


def _op(op: str, lang: str) -> str:
    return _named(OPS_ZH.get(op), op, lang)


def _rate_cell(counts: dict, tag: str = "td", lang: str = "en") -> str:
    r = rate(counts)
    skipped = counts["skipped"]
    extra = texts(lang)["skip"].format(n=skipped) if skipped else ""
    style = f' style="background:{colour(r)}"' if r is not None else ""
    cls = "rate" if r is not None else "rate none"
    return f'<{tag} class="{cls}"{style}>{percent(r)}{extra}</{tag}>'


STOPPED = ("stopped_early", "interrupted", "engine_unavailable", "handshake_failed")
WORDS = {v: texts("en")[f"verdict.{v}"] for v in ("fail", "pass", "incomplete", "none")}


def _verdict_word(v: str, lang: str) -> str:
    return texts(lang)[f"verdict.{v}"]


def verdict(r: RunResult) -> str:
    """An engine's verdict: ``fail`` (any fail, errored case or known deviation now passing), else
    ``incomplete`` (the run stopped before its end), else ``none`` (no case judged), else ``pass``."""
    if r.failed:
        return "fail"
    if r.interrupted or any(e["kind"] in STOPPED for e in r.events):
        return "incomplete"
    return "pass" if rate(r.counts()) is not None else "none"


def overall(results: list[RunResult]) -> str:
    """The run's verdict: the worst of its engines' (fail, incomplete, nothing judged, pass)."""
    found = {verdict(r) for r in results}
    return next((v for v in ("fail", "incomplete", "none") if v in found), "pass" if found else "none")


def _engine_line(name: str, r: RunResult, lang: str = "en") -> str:
    T = texts(lang)
    t = r.counts()
    judged = sum(t[k] for k in ("pass", "fail", "errored", "xfail", "xpass"))
    bad = t["fail"] + t["errored"] + t["xpass"]
    parts = [T["line.part"].format(n=t[k], status=word(lang, k)) for k in ("fail", "errored", "xpass") if t[k]]
    head = (T["line.bad"].format(bad=bad, judged=judged, parts=T["line.sep"].join(parts)) if bad
            else T["line.good"].format(passed=t["pass"], judged=judged)
            + (T["line.xfail"].format(n=t["xfail"]) if t["xfail"] else ""))
    return T["line.tail"].format(head=head, skipped=t["skipped"], rate=percent(rate(t)))


def verdict_html(m: Matrix, results: list[RunResult], anchors: list[str], lang: str = "en") -> str:
    """The box at the top of the report: the verdict in words and colour, then each engine's figures."""
    T = texts(lang)
    v = overall(results)
    failing = sum(verdict(r) == "fail" for r in results)
    if v == "fail":
        cases = sum(r.counts()[k] for r in results for k in ("fail", "errored", "xpass"))
        say = T["say.fail"].format(cases=cases, failing=failing, engines=len(results))
    else:
        say = T[f"say.{v}"]
    items = "".join(f'<li><a href="#{_e(a)}" style="color:inherit">{_e(n)}</a>: '
                    f'<b>{_verdict_word(verdict(r), lang)}</b> — {_e(_engine_line(n, r, lang))}</li>'
                    for n, a, r in zip(m.engines, anchors, results))
    return (f'<div class="verdict {v}" role="status"><strong>{_verdict_word(v, lang)}</strong>{_e(say)}'
            f'<ul>{items}</ul></div>')


def matrix_html(m: Matrix, lang: str = "en") -> str:
    T = texts(lang)
    head = "".join(f"<th>{_e(e)}</th>" for e in m.engines)
    if lang == "zh":
        row_name = lambda rs, op: f"<code>{_e(rs)}</code> · {_op(op, lang)}"   # noqa: E731
    else:
        row_name = lambda rs, op: f"<code>{_e(rs)}.{_e(op)}</code>"   # noqa: E731
    rows = [f"<tr><td>{row_name(rs, op)}</td>" + "".join(_rate_cell(m.cells[(rs, op, e)], lang=lang)
                                                         for e in m.engines) + "</tr>"
            for rs, op in m.rows]
    for rs in m.rulesets if len(m.rulesets) > 1 else ():   # one ruleset: its row would repeat "all"
        rows.append(f'<tr class="total"><td>{_e(rs)}</td>'
                    + "".join(_rate_cell(m.per_ruleset[(rs, e)], lang=lang) for e in m.engines) + "</tr>")
    rows.append(f'<tr class="total"><td>{_e(T["all"])}</td>'
                + "".join(_rate_cell(m.totals[e], lang=lang) for e in m.engines) + "</tr>")
    return (f'<div class="scroll"><table class="matrix"><thead><tr><th>{_e(T["matrix.head"])}</th>{head}</tr>'
            f'</thead><tbody>{"".join(rows)}</tbody></table></div>')


def clause_table(result: RunResult, lang: str = "en") -> str:
    T = texts(lang)
    rows = []
    for clause, row in by_clause(result).items():
        cols = _cols(row)
        name = _e(word(lang, clause)) if clause in UNCLAUSED_ROWS else _named(clause_zh(clause), clause, lang)
        rows.append(f"<tr><td>{name}</td>" + "".join(f"<td>{cols[c]}</td>" for c in COLUMNS) + "</tr>")
    head = "".join(f"<th>{_e(T['col.' + c])}</th>" for c in COLUMNS)
    return (f'<div class="scroll"><table class="clauses"><thead><tr><th>{_e(T["clause.head"])}</th>{head}</tr>'
            f'</thead><tbody>{"".join(rows)}</tbody></table></div>')


def _code_zh(key: str, value: Any, document: str | None) -> str | None:
    """The Chinese of a reason code or a consequence in an answer (None: not one)."""
    if not isinstance(value, str):
        return None
    if key == "reason":
        return PLAY_ZH.get(value) or DECLARATION_ZH.get(value)
    if key == "consequence" and value in CONSEQUENCE_TEXTS:
        return consequence_zh(value, document)
    return None


def answer_html(v: Any, depth: int = 0, lang: str = "en", document: str | None = None) -> str:
    """An answer (expected or the engine's): fields as ``name=value``, lists of cards drawn as cards; in
    Chinese each field name is code and a reason code or a consequence shows its Chinese beside the code."""
    if depth > 8:
        return "…"
    if isinstance(v, dict):
        if lang == "zh":
            return " ".join(f"<code>{_e(k)}</code>=" + (_named(_code_zh(k, x, document), x, lang)
                                                         if _code_zh(k, x, document) else
                                                         answer_html(x, depth + 1, lang, document))
                            for k, x in v.items() if k not in ("clauses", "detail"))
        return " ".join(f"{_e(k)}={answer_html(x, depth + 1)}" for k, x in v.items() if k not in ("clauses", "detail"))
    if isinstance(v, list) and v and all(isinstance(x, str) for x in v):
        return cards_html(v)
    if isinstance(v, list):
        return "[" + ", ".join(answer_html(x, depth + 1, lang, document) for x in v) + "]"
    return f"<code>{_e(json.dumps(v, ensure_ascii=False))}</code>"


def clause_html(ruleset: str, clause: str, docs_url: str | None = None, lang: str = "en") -> str:
    """A clause id linked to its text in the rulebook site (:func:`conformance.reporting.names.clause_url`);
    in Chinese the clause's Chinese name, its id beside it."""
    return (f'<a href="{_e(clause_url(ruleset, clause, docs_url))}" title="{_e(texts(lang)["link.title"])}">'
            f'{_named(clause_zh(clause), clause, lang)}</a>')


def _document(ruleset: str) -> str | None:
    """The source document of a ruleset (``r003`` → ``003``), for the words of its consequences."""
    digits = ruleset[1:4] if ruleset[:1] == "r" else ""
    return digits if digits.isdigit() else None


def _case_title_zh(case: dict, lang: str) -> str:
    """A case's title in Chinese: its ruleset, operation and deciding clause by name (the English account of
    the position is left out: it is prose)."""
    clause = deciding_clause(case)
    parts = [f"<code>{_e(case['ruleset'])}</code>", _op(case["op"], lang)]
    if clause:
        parts.append(_named(clause_zh(clause), clause, lang))
    return " · ".join(parts)


def case_html(case: dict, o, report_dir: str | None = None, docs_url: str | None = None, lang: str = "en") -> str:
    """A failing (or errored) case: its position drawn as cards, what the rulebook says, what the engine said."""
    T = texts(lang)
    rs = case["ruleset"]
    doc = _document(rs)
    items = [(T["row.clauses"], ", ".join(clause_html(rs, c, docs_url, lang) for c in case.get("clauses", [])) or "—")]
    if o.charged:
        items.append((T["row.charged"], ", ".join(clause_html(rs, c, docs_url, lang) for c in o.charged)))
    for label, parts in input_rows(case["input"], INPUT_WORDS[lang]):
        items.append((label or T["row.position"], " ".join(cards_html(v) if kind == "cards" else _e(v)
                                                           for kind, v in parts)))
    items.append((T["row.expected"], answer_html(case["expected"], lang=lang, document=doc)))
    if o.status in ("fail", "xpass") and isinstance(o.answer, dict):
        items.append((T["row.engine"], answer_html(o.answer, lang=lang, document=doc)))
    else:
        items.append((T["row.engine"], _e(o.message) if lang == "en" else f"<code>{_e(o.message)}</code>"))
    items.append((T["row.explain"], f"<code>{_e(explain_command(case['id'], report_dir))}</code>"))
    body = "".join(f"<dt>{_e(k)}</dt><dd>{v}</dd>" for k, v in items)
    cls = "failure errored" if o.status == "errored" else "failure"
    if lang == "zh":
        kind = o.kind or "disagrees"
        kind_html = _e(T["disagrees"]) if kind == "disagrees" else f"<code>{_e(kind)}</code>"
        heading = f"{_e(word(lang, o.status))} {_case_title_zh(case, lang)}（{kind_html}）"
    else:
        heading = f"{_e(o.status.upper())} {_e(case_title(case))} ({_e(o.kind or 'disagrees')})"
    return (f'<div class="{cls}"><h4>{heading}</h4><p class="meta">{_e(T["id"])} <code>{_e(case["id"])}</code></p>'
            f'<dl>{body}</dl></div>')


def _cluster_html(c, lang: str = "en") -> str:
    """A finding beyond the alternatives: what differs, where, the minimal position and how far it reaches."""
    if lang == "zh":
        return _cluster_html_zh(c)
    what = "a difference in reason only" if c.kind == "reason_only" else cluster_kind(c)
    parts = [f"<li><code>{_e(c.op)}: {_e(', '.join(c.fields))}</code> ({what}; <code>{_e(c.clause)}</code>) — "
             f"{len(c.cases)} case(s) with {_e(c.signature)}: the spec answers {_e(c.spec)}, the engine "
             f"{_e(c.engine)}"]
    if c.rule is not None:
        parts.append(f"<br>rule: {_e(c.rule.text)}")
    if c.position is not None:
        parts.append(f"<br>{_e(c.position_label)}: <code>{_e(json.dumps(c.position, ensure_ascii=False))}</code>")
    if c.reach:
        parts.append(f"<br>reach: {_e(c.reach)}")
    if c.needs:
        parts.append(f"<br>needs: {_e(c.needs_text)}")
    if c.advice:
        parts.append(f"<br>advice: {_e(c.advice)}")
    return "".join(parts) + "</li>"


def _cluster_html_zh(c) -> str:
    """A cluster in Chinese from its structured fields: the operation, the fields, the clause, the count, the
    two answers and the position (the rule, reach and advice are English prose of the analysis: left out)."""
    what = cluster_kind(c, "zh")
    fields = "、".join(f"<code>{_e(f)}</code>" for f in c.fields)
    parts = [f"<li>{_op(c.op, 'zh')}：{fields}（{what}；{_named(clause_zh(c.clause), c.clause, 'zh')}）— "
             f"{len(c.cases)} 例：规则书答 <code>{_e(c.spec)}</code>，引擎答 <code>{_e(c.engine)}</code>"]
    if c.position is not None:
        label = "首个不合的局面（未缩小）" if c.not_shrunk else "最小局面"
        parts.append(f"<br>{label}：<code>{_e(json.dumps(c.position, ensure_ascii=False))}</code>")
    if c.needs:
        needed = "、".join(f"<code>{_e(n['part'])}</code>" for n in c.needs)
        parts.append(f"<br>缺一不可的部分：{needed}")
    return "".join(parts) + "</li>"


def _finding_html(f, r: RunResult, docs_url: str | None, lang: str) -> str:
    """A finding: the feature, its clause, the spec's value and the values that give the engine's answers."""
    if lang == "zh":
        values = "；".join(engine_zh(x, f.feature, escape=_e, ident=_tr_id) for x in f.engine)
        return (f"<li>{_named(feature_zh(f.feature), f.feature, lang)}（{_finding_clause(f, r, docs_url, lang)}）："
                + (f"规则书取 {spec_zh(f.feature, f.spec, escape=_e, ident=_tr_id)}；" if f.spec else "")
                + f"引擎的答案合于 {values} — {len(f.cases)} 例"
                + (f"；它改变 {len(f.broken)} 例原本一致的例子" if f.broken else "") + "</li>")
    return (f"<li><code>{_e(f.feature)}</code> ({_finding_clause(f, r, docs_url)}): "
            + (f"the spec says {_e(f.spec)}; " if f.spec else "")
            + f"the engine reads it as {_e('; '.join(f.engine))} — {len(f.cases)} case(s)"
            + (f"; it changes {len(f.broken)} passing case(s)" if f.broken else "") + "</li>")


def _stated_html_zh(r: RunResult) -> list[str]:
    """:func:`~conformance.reporting.report.stated_groups` in Chinese, each rule by its Chinese name."""
    out = []
    for head, groups in stated_groups(r, "zh", _e):
        out.append(head)
        out += ["　" + what + "：" + "、".join(_named(clause_zh(c), c, "zh") for c in ids) for what, ids in groups]
    return out


def engine_html(name: str, anchor: str, r: RunResult, show: int = SHOW, docs_url: str | None = None,
                lang: str = "en") -> str:
    T = texts(lang)
    hs = r.handshake or {}
    t = r.counts()
    v = verdict(r)
    code = (lambda x: f"<code>{_e(x)}</code>") if lang == "zh" else _e
    out = [f'<section id="{_e(anchor)}"><h2>{_e(name)} <span class="tag {v}">{_verdict_word(v, lang)}</span></h2>',
           f'<p class="meta">{T["eng.command"].format(v="<code>" + _e(" ".join(r.command)) + "</code>")}'
           + (T["eng.protocol"].format(v=code(hs.get("protocol"))) if hs else T["eng.nohandshake"])
           + T["eng.seconds"].format(v=r.duration)
           + (T["eng.restarts"].format(n=r.restarts) if r.restarts else "") + "</p>",
           f'<p class="meta">{T["eng.counts"].format(**t)}'
           + "".join(T["eng.extra"].format(n=t[k], status=word(lang, k)) for k in ("xfail", "xpass") if t[k])
           + "</p>"]
    out += [f'<p class="meta">{_e(line)}</p>' for line in decision_lines(r, lang)]
    if lang == "zh":
        out += [f'<p class="meta">{line}</p>' for line in _stated_html_zh(r)]
    else:
        out += [f'<p class="meta">{_e(line)}</p>' for line in stated_lines(r)]
    for e in r.events:
        if e["kind"] in STOPPED:
            out.append(f'<p class="note"><b>{_e(word(lang, e["kind"]))}</b>{T["colon"]}{code(e["message"])}</p>')
    out += [f'<p class="note"><b>{_e(T["not_finished"])}</b>{T["colon"]}{code(step)}</p>' for step in r.unfinished]
    out.append(f"<h3>{_e(T['findings'])}</h3>")
    if r.findings:
        out.append("<ul>" + "".join(_finding_html(f, r, docs_url, lang) for f in r.findings) + "</ul>")
    clusters = list(getattr(r, "clusters", []))
    if clusters:
        out.append("<ul>" + "".join(_cluster_html(c, lang) for c in clusters) + "</ul>")
    if not r.findings and not clusters:
        out.append(f"<p>{_e(T['no_finding' if r.failed else 'no_failure'])}</p>")
    if r.unexplained:
        out.append(f"<p>{_e(T['unexplained'].format(n=len(r.unexplained)))}</p>")
    out.append(f"<h3>{_e(T['clauses'])}</h3>")
    out.append(clause_table(r, lang))
    bad = [(c, o) for c, o in zip(r.cases, r.outcomes) if o and o.status in ("fail", "xpass", "errored")]
    out.append(f"<h3>{_e(T['failures'].format(n=len(bad)))}"
               + (_e(T["failures.first"].format(n=show)) if len(bad) > show else "")
               + ("）" if lang == "zh" else ")") + "</h3>")
    out += [case_html(c, o, r.report_dir, docs_url, lang) for c, o in bad[:show]]
    if not bad:
        out.append(f"<p>{_e(T['none'])}</p>")
    out.append("</section>")
    return "\n".join(out)


def _finding_clause(f, r: RunResult, docs_url: str | None, lang: str = "en") -> str:
    """A finding's clause, linked to its text in the rulebook of the finding's ruleset."""
    ruleset = f.cases[0].split(":", 1)[0] if f.cases else (r.rulesets[0] if r.rulesets else None)
    if ruleset and f.clause:
        return clause_html(ruleset, f.clause, docs_url, lang)
    return _named(clause_zh(f.clause) if f.clause else None, f.clause, lang)


def _rulesets_text(rulesets: list[str], lang: str) -> str:
    """The rulesets of the run: their ids; in Chinese each with its Chinese title."""
    if not rulesets:
        return "—"
    if lang != "zh":
        return _e(", ".join(rulesets))
    return "、".join(f"<code>{_e(rs)}</code>" + (f"（{_e(t)}）" if (t := ruleset_title(rs, lang)) else "")
                    for rs in rulesets)


def render(m: Matrix, results: list[RunResult], show: int = SHOW, docs_url: str | None = None,
           lang: str = "en") -> str:
    """The whole report, one HTML document in ``lang`` (``en`` or ``zh``: :mod:`conformance.reporting.labels`);
    clauses link to the rulebook site under ``docs_url`` (default: the site this checkout builds,
    :func:`conformance.reporting.names.default_docs_url`)."""
    T = texts(lang)
    first = results[0] if results else None
    anchors = ["engine-" + s for s in slugs(m.engines)]
    nav = " · ".join(f'<a href="#{a}">{_e(n)}</a>' for n, a in zip(m.engines, anchors))
    code = (lambda x: f"<code>{_e(x)}</code>") if lang == "zh" else _e
    meta = ""
    if first is not None:
        sep = T["meta.sep"]
        meta = (f'<p class="meta">{T["meta.rulesets"].format(v=_rulesets_text(first.rulesets, lang))}'
                + sep + T["meta.source"].format(v=code(first.source or "—"))
                + (sep + T["meta.seed"].format(v=_e(first.seed)) if first.seed is not None else "")
                + sep + T["meta.started"].format(v=_e(first.started))
                + sep + T["meta.cases"].format(n=len(first.cases)) + "</p>")
    body = "\n".join(engine_html(n, a, r, show, docs_url, lang) for n, a, r in zip(m.engines, anchors, results))
    return f"""<!DOCTYPE html>
<html lang="{HTML_LANG[lang]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_verdict_word(overall(results), lang)} · {_e(T["title"])}</title>
<style>{CARD_CSS}{PAGE_CSS}</style>
</head>
<body>
<main>
<h1>{_e(T["title"])}</h1>
{verdict_html(m, results, anchors, lang)}
{meta}
<p class="meta">{T["engines"].format(v=nav)}</p>
<h2>{_e(T["matrix.title"])}</h2>
<p>{_e(T["matrix.note"])}</p>
{matrix_html(m, lang)}
{body}
</main>
</body>
</html>
"""
