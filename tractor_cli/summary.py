"""The summary ``tractor conform`` prints: rich tables with coloured pass and fail counts.

The facts are those of :func:`conformance.reporting.report.summary_text` (the plain text
the reports are built from), laid out for a terminal; on a file or a pipe the
same tables come without escape codes. Engine text is shown escaped
(:func:`tractor_dsl.diagnostics.showable`).
"""
from __future__ import annotations

from rich.text import Text

from . import ui

NOTED = ("stderr_flood", "stale_expectation", "engine_unavailable", "handshake_failed", "interrupted",
         "strays_killed", "stopped_early", "nothing_judged", "asked_as", "attribution_failed")


def tally_table(title: str, rows: dict[str, dict]):
    from conformance.reporting.report import COLUMNS, _cols
    table = ui.table(title, *COLUMNS)
    for key, row in rows.items():
        cols = _cols(row)
        table.add_row(ui.shown(key), *(Text(str(cols[c]), style=ui.status_style(c, cols[c])) for c in COLUMNS))
    return table


def totals_line(result) -> Text:
    t = result.counts()
    rate = len(result.cases) / result.duration if result.duration > 0 else 0.0
    pieces: list = [f"{len(result.cases)} cases: "]
    for i, (k, word) in enumerate((("pass", "pass"), ("fail", "fail"), ("skipped", "skipped"),
                                   ("errored", "errored"), ("xfail", "xfail"), ("xpass", "xpass"))):
        if k in ("xfail", "xpass") and not t[k]:
            continue
        pieces += [", " if i else "", (f"{t[k]} {word}", ui.status_style(k, t[k]))]
    pieces.append(f" in {result.duration:.1f} s ({rate:.0f} cases/s)"
                  + (f", {result.restarts} restart(s)" if result.restarts else ""))
    if result.stopped:
        pieces.append((" — INTERRUPTED", "fail"))
    return ui.styled(*pieces)


# Events of the protocol itself, counted on one line of the terminal summary (they were only in summary.md and
# report.json, so an engine that printed 169 stray lines looked clean).
PROTOCOL_EVENTS = ("unexpected_line", "unexpected_seq", "duplicate_answer", "out_of_order", "no_answer",
                   "timeout", "crash", "closed_stdout")


def protocol_events_line(result) -> str:
    """One line: how many of each protocol event the run saw, restarts too, with the first example."""
    from tractor_dsl.diagnostics import showable
    counts: dict[str, int] = {}
    first = None
    for e in result.events:
        if e["kind"] in PROTOCOL_EVENTS:
            counts[e["kind"]] = counts.get(e["kind"], 0) + 1
            first = first or e
    if result.restarts:
        counts["restarts"] = result.restarts
    if not counts:
        return ""
    parts = ", ".join(f"{k.replace('_', ' ')} {n}" for k, n in counts.items())
    example = f"; first: {first['kind']}: {showable(first['message'][:160])}" if first else ""
    return f"protocol: {parts}{example} (every event in summary.md and report.json)"


def print_summary(result, show: int = 3) -> None:
    """The summary on stdout; a closed stdout is not an error (the reports are written already)."""
    from conformance.reporting.report import (by_clause, by_op, coverage_notes, decision_lines, draw_case, findings_lines,
                                              stated_lines)
    showable = ui.shown     # every line by the one policy, case ids and inputs from a vector file too
    out = ui.console()
    hs = result.handshake or {}
    name = f"{hs.get('name', '?')} {hs.get('version', '')}".strip() if hs else "(no handshake)"
    try:
        out.print(showable(f"engine: {name} — {' '.join(result.command)}"), soft_wrap=True)
        for note in coverage_notes(result):      # partial answers, declared: never narrowed silently
            out.print(showable(f"partial answers: {note}"), soft_wrap=True)
        out.print()
        found = findings_lines(result)           # findings first: what the engine reads differently
        if found:
            head, *rest = found
            out.print(Text(showable(head), style="bold"), soft_wrap=True)
            for line in rest:
                out.print(showable(line), soft_wrap=True)
            out.print()
        out.print(tally_table("ruleset.operation", by_op(result)))
        out.print()
        out.print(tally_table("clause", by_clause(result)))
        bad = [(c, o) for c, o in zip(result.cases, result.outcomes) if o.status in ("fail", "xpass")]
        errored = [(c, o) for c, o in zip(result.cases, result.outcomes) if o.status == "errored"]
        if bad and show:
            out.print()
            out.print(f"disagreements ({len(bad)}; showing {min(show, len(bad))}):", style="bold")
            for c, o in bad[:show]:
                head, _, rest = draw_case(c, o, result.report_dir).partition("\n")
                out.print(Text(showable(head), style=ui.STYLES["fail"]), soft_wrap=True)
                out.print(showable(rest), soft_wrap=True)
        if errored:
            kinds: dict[str, int] = {}
            for _, o in errored:
                kinds[o.kind] = kinds.get(o.kind, 0) + 1
            out.print()
            out.print(Text("errored: ", style=ui.STYLES["errored"]) + Text(showable(", ".join(
                f"{k} {n}" for k, n in sorted(kinds.items())))), soft_wrap=True)
            for c, o in errored[:max(show, 1)]:
                out.print(showable(f"  {c['id']}: {o.kind}: {o.message[:300]}"), soft_wrap=True)
        protocol_line = protocol_events_line(result)
        if protocol_line:
            out.print()
            out.print(Text(showable(protocol_line), style=ui.STYLES["errored"]), soft_wrap=True)
        for e in result.events:
            if e["kind"] in NOTED:
                out.print(showable(f"note: {e['kind']}: {e['message']}"), soft_wrap=True)
        for step in result.unfinished:          # the analysis a signal stopped: never a report that looks whole
            out.print(Text(showable(f"not finished (interrupted): {step}"), style=ui.STYLES["fail"]), soft_wrap=True)
        out.print()
        for line in decision_lines(result) + stated_lines(result):     # what a green verdict covers
            out.print(showable(line), soft_wrap=True)
        out.print(totals_line(result), soft_wrap=True)
    except (BrokenPipeError, ValueError):
        pass


def print_summary_zh(result, show: int = 3) -> None:
    """:func:`print_summary` in Chinese (``tractor conform --lang zh``): the fixed texts from
    :data:`conformance.reporting.labels.TERMINAL_ZH`, each clause, operation and reason code by its Chinese name
    with its id beside it (:mod:`conformance.reporting.summary_zh`); the engine's own text as it is."""
    from conformance.reporting.labels import OPS_ZH, TERMINAL_ZH as T, word
    from conformance.reporting.report import COLUMNS, _cols, by_clause, by_op
    from conformance.reporting.summary_zh import case_lines, clause, coverage_lines, findings_lines, named, partial_lines
    showable = ui.shown
    out = ui.console()
    hs = result.handshake or {}
    name = f"{hs.get('name', '?')} {hs.get('version', '')}".strip() if hs else T["nohandshake"]

    def table(title, rows, row_name):
        t = ui.table(title, *(word("zh", c) for c in COLUMNS))
        for key, row in rows.items():
            cols = _cols(row)
            t.add_row(ui.shown(row_name(key)), *(Text(str(cols[c]), style=ui.status_style(c, cols[c])) for c in COLUMNS))
        return t

    def op_row(key):
        rs, _, op = key.partition(".")
        return f"{rs} · {named(OPS_ZH.get(op), op, md=False)}" if op else key
    try:
        out.print(showable(T["engine"].format(name=name, command=" ".join(result.command))), soft_wrap=True)
        for line in partial_lines(result, md=False):   # partial answers, declared: never narrowed silently
            out.print(showable(line), soft_wrap=True)
        out.print()
        for line in findings_lines(result, md=False):
            out.print(showable(line), soft_wrap=True)
        out.print()
        out.print(table(T["by_op"], by_op(result), op_row))
        out.print()
        out.print(table(T["by_clause"], by_clause(result), lambda k: clause(k, md=False)))
        bad = [(c, o) for c, o in zip(result.cases, result.outcomes) if o.status in ("fail", "xpass", "errored")]
        if bad and show:
            out.print()
            out.print(T["disagreements"].format(n=len(bad), shown=min(show, len(bad))), style="bold")
            for c, o in bad[:show]:
                head, *rest = case_lines(c, o, result.report_dir, md=False)
                out.print(Text(showable(head), style=ui.STYLES["fail"]), soft_wrap=True)
                for line in rest:
                    out.print(showable(line), soft_wrap=True)
        for e in result.events:
            if e["kind"] in NOTED:
                out.print(showable(T["note"].format(kind=word("zh", e["kind"]), message=e["message"])), soft_wrap=True)
        for step in result.unfinished:
            out.print(Text(showable(T["not_finished"].format(step=step)), style=ui.STYLES["fail"]), soft_wrap=True)
        out.print()
        for line in coverage_lines(result, md=False):
            out.print(showable(line), soft_wrap=True)
        t = result.counts()
        rate = len(result.cases) / result.duration if result.duration > 0 else 0.0
        pieces: list = [T["totals"].format(n=len(result.cases))]
        shown = [k for k in ("pass", "fail", "skipped", "errored", "xfail", "xpass")
                 if k not in ("xfail", "xpass") or t[k]]
        for i, k in enumerate(shown):
            pieces += ["，" if i else "", (f"{word('zh', k)} {t[k]}", ui.status_style(k, t[k]))]
        pieces.append(T["in"].format(seconds=result.duration, rate=rate)
                      + (T["restarts"].format(n=result.restarts) if result.restarts else ""))
        if result.stopped:
            pieces.append((T["interrupted"], "fail"))
        out.print(ui.styled(*pieces), soft_wrap=True)
    except (BrokenPipeError, ValueError):
        pass
