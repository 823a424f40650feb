"""The conformance report as one static HTML file: no server, no internet, nothing outside the file.

It opens with the verdict (red FAIL when any engine failed a case, green PASS when
every judged case agreed), then holds the matrix ruleset × operation × engine (each cell coloured by its
compliance rate: green at 100 % alone), then for each engine its findings, its table of clauses and
its failures, each position drawn with the cards of the rulebook site
(:mod:`conformance.reporting.cards_html`, whose style is inlined here). Everything an
engine said is escaped. The page is laid out for a phone as for a desktop:
tables scroll in their own box and long words wrap.
"""
from __future__ import annotations

import json
from typing import Any

from conformance.reporting.badges import colour
from conformance.protocol.inputs import input_rows
from conformance.reporting.cards_html import CARD_CSS, cards_html
from conformance.reporting.escape import html_text
from conformance.reporting.matrix import Matrix, percent, rate, slugs
from conformance.reporting.names import case_title, clause_url
from conformance.reporting.report import explain_command
from conformance.reporting.report import COLUMNS, UNCLAUSED_ROWS, _cols, by_clause, decision_lines, stated_lines
from conformance.running.runner import RunResult

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


def _rate_cell(counts: dict, tag: str = "td") -> str:
    r = rate(counts)
    skipped = counts["skipped"]
    extra = f' <small>({skipped} skip)</small>' if skipped else ""
    style = f' style="background:{colour(r)}"' if r is not None else ""
    cls = "rate" if r is not None else "rate none"
    return f'<{tag} class="{cls}"{style}>{percent(r)}{extra}</{tag}>'


STOPPED = ("stopped_early", "interrupted", "engine_unavailable", "handshake_failed")
WORDS = {"fail": "FAIL", "pass": "PASS", "incomplete": "INCOMPLETE", "none": "NOTHING JUDGED"}


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


def _engine_line(name: str, r: RunResult) -> str:
    t = r.counts()
    judged = sum(t[k] for k in ("pass", "fail", "errored", "xfail", "xpass"))
    bad = t["fail"] + t["errored"] + t["xpass"]
    parts = [f"{t[k]} {k}" for k in ("fail", "errored", "xpass") if t[k]]
    head = (f"{bad} failing case(s) of {judged} judged ({', '.join(parts)})" if bad
            else f"{t['pass']} of {judged} judged case(s) pass" + (f", {t['xfail']} known deviation(s)"
                                                                  if t["xfail"] else ""))
    return f"{head}; {t['skipped']} skipped; {percent(rate(t))} pass"


def verdict_html(m: Matrix, results: list[RunResult], anchors: list[str]) -> str:
    """The box at the top of the report: the verdict in words and colour, then each engine's figures."""
    v = overall(results)
    failing = sum(verdict(r) == "fail" for r in results)
    if v == "fail":
        cases = sum(r.counts()[k] for r in results for k in ("fail", "errored", "xpass"))
        say = f"{cases} failing case(s) (fail, errored or xpass) in {failing} of {len(results)} engine(s)"
    elif v == "incomplete":
        say = "no case failed, but a run stopped before its end"
    elif v == "none":
        say = "no case was judged"
    else:
        say = "every judged case agrees with the rulebook"
    items = "".join(f'<li><a href="#{_e(a)}" style="color:inherit">{_e(n)}</a>: '
                    f'<b>{WORDS[verdict(r)]}</b> — {_e(_engine_line(n, r))}</li>'
                    for n, a, r in zip(m.engines, anchors, results))
    return (f'<div class="verdict {v}" role="status"><strong>{WORDS[v]}</strong>{_e(say)}'
            f'<ul>{items}</ul></div>')


def matrix_html(m: Matrix) -> str:
    head = "".join(f"<th>{_e(e)}</th>" for e in m.engines)
    rows = [f"<tr><td><code>{_e(rs)}.{_e(op)}</code></td>" + "".join(_rate_cell(m.cells[(rs, op, e)])
                                                                 for e in m.engines) + "</tr>"
            for rs, op in m.rows]
    for rs in m.rulesets if len(m.rulesets) > 1 else ():   # one ruleset: its row would repeat "all"
        rows.append(f'<tr class="total"><td>{_e(rs)}</td>'
                    + "".join(_rate_cell(m.per_ruleset[(rs, e)]) for e in m.engines) + "</tr>")
    rows.append('<tr class="total"><td>all</td>' + "".join(_rate_cell(m.totals[e]) for e in m.engines) + "</tr>")
    return (f'<div class="scroll"><table class="matrix"><thead><tr><th>ruleset.operation</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def clause_table(result: RunResult) -> str:
    rows = []
    for clause, row in by_clause(result).items():
        cols = _cols(row)
        name = _e(clause) if clause in UNCLAUSED_ROWS else f"<code>{_e(clause)}</code>"
        rows.append(f"<tr><td>{name}</td>" + "".join(f"<td>{cols[c]}</td>" for c in COLUMNS) + "</tr>")
    head = "".join(f"<th>{c}</th>" for c in COLUMNS)
    return (f'<div class="scroll"><table class="clauses"><thead><tr><th>clause</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>')


def answer_html(v: Any, depth: int = 0) -> str:
    """An answer (expected or the engine's): fields as ``name=value``, lists of cards drawn as cards."""
    if depth > 8:
        return "…"
    if isinstance(v, dict):
        return " ".join(f"{_e(k)}={answer_html(x, depth + 1)}" for k, x in v.items() if k not in ("clauses", "detail"))
    if isinstance(v, list) and v and all(isinstance(x, str) for x in v):
        return cards_html(v)
    if isinstance(v, list):
        return "[" + ", ".join(answer_html(x, depth + 1) for x in v) + "]"
    return f"<code>{_e(json.dumps(v, ensure_ascii=False))}</code>"


def clause_html(ruleset: str, clause: str, docs_url: str | None = None) -> str:
    """A clause id linked to its text in the rulebook site (:func:`conformance.reporting.names.clause_url`)."""
    return (f'<a href="{_e(clause_url(ruleset, clause, docs_url))}" title="the clause in the rulebook">'
            f'<code>{_e(clause)}</code></a>')


def case_html(case: dict, o, report_dir: str | None = None, docs_url: str | None = None) -> str:
    """A failing (or errored) case: its position drawn as cards, what the rulebook says, what the engine said."""
    rs = case["ruleset"]
    items = [("clauses", ", ".join(clause_html(rs, c, docs_url) for c in case.get("clauses", [])) or "—")]
    if o.charged:
        items.append(("charged to", ", ".join(clause_html(rs, c, docs_url) for c in o.charged)))
    for label, parts in input_rows(case["input"]):
        items.append((label or "position", " ".join(cards_html(v) if kind == "cards" else _e(v)
                                                    for kind, v in parts)))
    items.append(("expected", answer_html(case["expected"])))
    if o.status in ("fail", "xpass") and isinstance(o.answer, dict):
        items.append(("engine", answer_html(o.answer)))
    else:
        items.append(("engine", _e(o.message)))
    items.append(("explain", f"<code>{_e(explain_command(case['id'], report_dir))}</code>"))
    body = "".join(f"<dt>{_e(k)}</dt><dd>{v}</dd>" for k, v in items)
    cls = "failure errored" if o.status == "errored" else "failure"
    return (f'<div class="{cls}"><h4>{_e(o.status.upper())} {_e(case_title(case))} '
            f'({_e(o.kind or "disagrees")})</h4><p class="meta">id <code>{_e(case["id"])}</code></p>'
            f'<dl>{body}</dl></div>')


def _cluster_html(c) -> str:
    """A finding beyond the alternatives: what differs, where, the minimal position and how far it reaches."""
    import json
    what = "a difference in reason only" if c.kind == "reason_only" else "beyond the alternatives"
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


def engine_html(name: str, anchor: str, r: RunResult, show: int = SHOW, docs_url: str | None = None) -> str:
    hs = r.handshake or {}
    t = r.counts()
    v = verdict(r)
    out = [f'<section id="{_e(anchor)}"><h2>{_e(name)} <span class="tag {v}">{WORDS[v]}</span></h2>',
           f'<p class="meta">command <code>{_e(" ".join(r.command))}</code>'
           + (f' · protocol {_e(hs.get("protocol"))}' if hs else " · no handshake")
           + f" · {r.duration:.1f} s"
           + (f" · {r.restarts} restart(s)" if r.restarts else "") + "</p>",
           f'<p class="meta">{t["pass"]} pass, {t["fail"]} fail, {t["skipped"]} skipped, {t["errored"]} errored'
           + "".join(f", {t[k]} {k}" for k in ("xfail", "xpass") if t[k]) + "</p>"]
    out += [f'<p class="meta">{_e(line)}</p>' for line in decision_lines(r) + stated_lines(r)]
    for e in r.events:
        if e["kind"] in ("stopped_early", "interrupted", "engine_unavailable", "handshake_failed"):
            out.append(f'<p class="note"><b>{_e(e["kind"])}</b>: {_e(e["message"])}</p>')
    out += [f'<p class="note"><b>not finished (interrupted)</b>: {_e(step)}</p>' for step in r.unfinished]
    out.append("<h3>Findings</h3>")
    if r.findings:
        out.append("<ul>" + "".join(
            f"<li><code>{_e(f.feature)}</code> ({_finding_clause(f, r, docs_url)}): "
            + (f"the spec says {_e(f.spec)}; " if f.spec else "")
            + f"the engine reads it as {_e('; '.join(f.engine))} — {len(f.cases)} case(s)"
            + (f"; it changes {len(f.broken)} passing case(s)" if f.broken else "") + "</li>"
            for f in r.findings) + "</ul>")
    clusters = list(getattr(r, "clusters", []))
    if clusters:
        out.append("<ul>" + "".join(_cluster_html(c) for c in clusters) + "</ul>")
    if not r.findings and not clusters:
        out.append("<p>No finding: no feature of the spec, read another way, explains a failure.</p>")
    if r.unexplained:
        out.append(f"<p>{len(r.unexplained)} failure(s) in no finding.</p>")
    out.append("<h3>Clauses</h3>")
    out.append(clause_table(r))
    bad = [(c, o) for c, o in zip(r.cases, r.outcomes) if o and o.status in ("fail", "xpass", "errored")]
    out.append(f"<h3>Failures ({len(bad)}" + (f"; the first {show} drawn" if len(bad) > show else "") + ")</h3>")
    out += [case_html(c, o, r.report_dir, docs_url) for c, o in bad[:show]]
    if not bad:
        out.append("<p>None.</p>")
    out.append("</section>")
    return "\n".join(out)


def _finding_clause(f, r: RunResult, docs_url: str | None) -> str:
    """A finding's clause, linked to its text in the rulebook of the finding's ruleset."""
    ruleset = f.cases[0].split(":", 1)[0] if f.cases else (r.rulesets[0] if r.rulesets else None)
    return clause_html(ruleset, f.clause, docs_url) if ruleset and f.clause else f"<code>{_e(f.clause)}</code>"


def render(m: Matrix, results: list[RunResult], show: int = SHOW, docs_url: str | None = None) -> str:
    """The whole report, one HTML document; clauses link to the rulebook site under ``docs_url`` (default: the
    site this checkout builds, :func:`conformance.reporting.names.default_docs_url`)."""
    first = results[0] if results else None
    anchors = ["engine-" + s for s in slugs(m.engines)]
    nav = " · ".join(f'<a href="#{a}">{_e(n)}</a>' for n, a in zip(m.engines, anchors))
    meta = ""
    if first is not None:
        meta = (f'<p class="meta">rulesets {_e(", ".join(first.rulesets) or "—")} '
                f'· source {_e(first.source or "—")}'
                + (f" · seed {_e(first.seed)}" if first.seed is not None else "")
                + f" · started {_e(first.started)} · {len(first.cases)} cases per engine</p>")
    body = "\n".join(engine_html(n, a, r, show, docs_url) for n, a, r in zip(m.engines, anchors, results))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{WORDS[overall(results)]} · Tractor conformance report</title>
<style>{CARD_CSS}{PAGE_CSS}</style>
</head>
<body>
<main>
<h1>Tractor conformance report</h1>
{verdict_html(m, results, anchors)}
{meta}
<p class="meta">engines: {nav}</p>
<h2>Compliance by ruleset and operation</h2>
<p>Each cell is the share of judged cases the engine answered as the rulebook does; skipped cases (not
supported, declined, or not run) are left out and counted beside the rate.</p>
{matrix_html(m)}
{body}
</main>
</body>
</html>
"""
