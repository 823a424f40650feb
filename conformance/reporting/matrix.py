"""Several engines against the same cases: the matrix ruleset × operation × engine, and the runs behind it.

:func:`run_engines` runs one :class:`~conformance.running.runner.Runner` per engine,
each engine in its own process and all of them at once (one thread each: the
work is the engines', the runner only waits on pipes). :class:`Matrix` tallies
their results; it is written as a terminal table, markdown and JSON.

The *compliance rate* of a cell is ``pass / judged``, where the judged cases
are those the engine was asked and answered or failed to answer: pass, fail,
errored, and the known deviations (xfail and xpass). Skipped cases (an
operation or ruleset the engine does not support, a case it declined, a case
not run after ``--max-fail``) are left out of the rate and counted beside it;
a cell with no judged case has no rate (``—``).
"""
from __future__ import annotations

import json
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace

from tractor_dsl.diagnostics import showable

from conformance.protocol import messages as protocol
from conformance.reporting.escape import md_code, md_text
from conformance.reporting.labels import cluster_kind
from conformance.running.runner import STATUSES, Deviation, RunResult, Runner

JUDGED = ("pass", "fail", "errored", "xfail", "xpass")


# --------------------------------------------------------------------------- running several engines

def run_engines(commands: list[str], cases: list[dict], deviations: list[Deviation] | None = None,
                interrupts=None, progress=None, runners: list | None = None, **runner_options) -> list[RunResult]:
    """Every engine against ``cases``, in parallel; the results in the order of ``commands``.

    ``progress(engine_index, done, total, tally)`` is called from the engines' threads. A signal
    (with ``interrupts``) stops every engine as ``--max-fail`` would, after the answers in flight;
    the results then say they were interrupted. ``runners``: one :class:`Runner` per command, already started
    (:meth:`Runner.start`), whose engines the run asks instead of starting new ones."""
    meta = runner_options.pop("meta", {})
    rule_files = runner_options.pop("rule_files", [])
    stop = threading.Event()
    if runners is None:
        runners = [Runner(cmd, **runner_options) for cmd in commands]
        for r in runners:   # users' rulesets, announced in each engine's handshake
            r.rule_files = rule_files
    for i, r in enumerate(runners):
        r.stop = stop
        r.progress = (lambda d, t, tally, i=i: progress(i, d, t, tally)) if progress else None
    # each thread gets its own copy of the known deviations: they count their matches
    with ThreadPoolExecutor(max_workers=len(runners), thread_name_prefix="engine") as pool:
        futures = [pool.submit(r.run, cases, [replace(d, matched=0) for d in deviations or []], **meta)
                   for r in runners]
        interrupted = False
        try:
            if interrupts is not None:
                with interrupts.armed():
                    _wait(futures)
            else:
                _wait(futures)
        except KeyboardInterrupt:
            interrupted = True
            stop.set()
        results = [f.result() for f in futures]
    if interrupted:   # the engines that had cases left were interrupted; those done before the signal were not
        for r in [r for r in results if any(o.kind == "not_run" for o in r.outcomes)]:
            r.interrupted = True
            r.events.append({"kind": "interrupted", "message": "the run was interrupted; cases not run are "
                             "reported as skipped (not_run)"})
    return results


def _wait(futures) -> None:
    for f in futures:
        while not f.done():       # short waits: the main thread stays free to take a signal
            try:
                f.result(timeout=0.2)
            except TimeoutError:
                pass
            except Exception:
                return


# --------------------------------------------------------------------------- names

def engine_names(results: list[RunResult]) -> list[str]:
    """Each engine's name: its handshake ``name`` (and ``version``), else its command; a name that
    recurs gets ``#2``, ``#3``... in the order given."""
    base = []
    for r in results:
        hs = r.handshake or {}
        name = f"{hs.get('name', '')} {hs.get('version', '')}".strip() if hs.get("name") else _short(r.command)
        base.append(_printable(name) or "engine")
    # the same name twice: the commands tell them apart, else their order does
    base = [f"{n} ({_short(r.command)})" if base.count(n) > 1 and r.handshake and r.handshake.get("name")
            and [_short(x.command) for x in results].count(_short(r.command)) == 1 else n
            for n, r in zip(base, results)]
    out, seen = [], {}
    for name in base:
        if base.count(name) > 1:
            seen[name] = seen.get(name, 0) + 1
            name = f"{name} #{seen[name]}"
        out.append(name)
    return out


def _short(argv: list[str]) -> str:
    """A command as a name: each word's last path component (``python3 wrong_answers.py``)."""
    return " ".join(a.rstrip("/").rsplit("/", 1)[-1] or a for a in argv)


def slug(name: str) -> str:
    """A file name for an engine's name: letters, digits, dots, dashes."""
    s = re.sub(r"[^A-Za-z0-9.]+", "-", name).strip("-.")
    return s[:60] or "engine"


# The files a run with several engines writes beside the engines' folders: no folder may take their names.
RUN_FILES = frozenset({"matrix.json", "matrix.md", "report.json", "junit.xml", "summary.md"})


def slugs(names: list[str]) -> list[str]:
    """A folder name per engine, all different, none the name of a file the run writes beside them (an engine
    that calls itself ``matrix.json`` gets ``engine-matrix.json``)."""
    out: list[str] = []
    for n in names:
        s = slug(n)
        if s.lower() in RUN_FILES:
            s = f"engine-{s}"
        while s in out:
            s += "-"
        out.append(s)
    return out


def _printable(s: str) -> str:
    return "".join(ch for ch in s if ch.isprintable())[:80]


# --------------------------------------------------------------------------- the matrix

def rate(counts: dict) -> float | None:
    judged = sum(counts.get(k, 0) for k in JUDGED)
    return counts.get("pass", 0) / judged if judged else None


def percent(r: float | None) -> str:
    """A rate as people read it: 100 % only when every judged case passed, 0 % only when none did."""
    if r is None:
        return "—"
    p = 100 * r
    if 99.95 <= p < 100:
        return "99.9 %"
    if 0 < p < 0.05:
        return "0.1 %"
    return f"{p:.0f} %" if p in (0, 100) else f"{p:.1f} %"


@dataclass
class Matrix:
    engines: list[str]
    rows: list[tuple[str, str]]                                  # (ruleset, operation)
    cells: dict[tuple[str, str, str], dict]                     # (ruleset, op, engine) -> counts by status
    per_ruleset: dict[tuple[str, str], dict] = field(default_factory=dict)   # (ruleset, engine) -> counts
    totals: dict[str, dict] = field(default_factory=dict)        # engine -> counts

    @property
    def rulesets(self) -> list[str]:
        return list(dict.fromkeys(rs for rs, _ in self.rows))

    def to_dict(self) -> dict:
        def entry(c):
            return {**c, "rate": None if rate(c) is None else round(rate(c), 6)}
        return {"engines": list(self.engines),
                "rows": [{"ruleset": rs, "op": op, "engines": {e: entry(self.cells[(rs, op, e)])
                                                               for e in self.engines}}
                         for rs, op in self.rows],
                "rulesets": {rs: {e: entry(self.per_ruleset[(rs, e)]) for e in self.engines}
                             for rs in self.rulesets},
                "totals": {e: entry(self.totals[e]) for e in self.engines}}


def build(results: list[RunResult], names: list[str] | None = None) -> Matrix:
    names = names or engine_names(results)
    order = {op: i for i, op in enumerate(protocol.OPERATIONS)}
    keys = {(c["ruleset"], c["op"]) for r in results for c in r.cases}
    ruleset_order = list(dict.fromkeys(rs for r in results for rs in r.rulesets))
    rows = sorted(keys, key=lambda k: (ruleset_order.index(k[0]) if k[0] in ruleset_order else 99, k[0],
                                       order.get(k[1], 99)))
    m = Matrix(names, rows, {})
    for name, r in zip(names, results):
        m.totals[name] = dict.fromkeys(STATUSES, 0)
        for rs, op in rows:
            m.cells[(rs, op, name)] = dict.fromkeys(STATUSES, 0)
            m.per_ruleset.setdefault((rs, name), dict.fromkeys(STATUSES, 0))
        for c, o in zip(r.cases, r.outcomes):
            status = o.status if o else "skipped"
            for counts in (m.cells[(c["ruleset"], c["op"], name)], m.per_ruleset[(c["ruleset"], name)],
                           m.totals[name]):
                counts[status] += 1
    return m


# --------------------------------------------------------------------------- as text

def _cell_text(counts: dict, skip: str = " ({n} skip)") -> str:
    skipped = counts["skipped"]
    return percent(rate(counts)) + (skip.format(n=skipped) if skipped else "")


WIDTH = 100   # the terminal table fits this many columns


def short_names(names: list[str]) -> list[str]:
    """Engine names for a column head: the handshake name without its version; two alike are told apart by
    the last word of their commands (``tie_last.py``); the full names when even that leaves two alike."""
    def bare(n: str) -> str:
        return re.sub(r" \d[\w.+-]*$", "", re.sub(r" \(.*\)$", "", n))
    short = [bare(n) for n in names]
    short = [(re.search(r"\(([^()]*)\)$", n).group(1).split()[-1] if short.count(b) > 1 and
              re.search(r"\(([^()]*)\)$", n) else b) for n, b in zip(names, short)]
    return short if len(set(short)) == len(short) else names


def table_text(m: Matrix, width: int = WIDTH, head_word: str = "ruleset.operation", total: str = "all",
               row_name=None, skip: str = " ({n} skip)") -> str:
    """The matrix for a terminal: a row per ruleset and operation, a column per engine, then the totals.
    Columns are headed by short engine names; when the table would still be wider than ``width``, by E1, E2...
    with a legend beneath. ``head_word``, ``total`` and ``row_name(ruleset, op)``: the words of another
    language (columns are measured in terminal cells, so Chinese aligns)."""
    from rich.cells import cell_len
    name = row_name or (lambda rs, op: f"{rs}.{op}")
    body = [[name(rs, op)] for rs, op in m.rows] + [[total]]
    for row, key in zip(body, [(rs, op) for rs, op in m.rows] + [None]):
        row += [_cell_text(m.cells[(key[0], key[1], e)] if key else m.totals[e], skip) for e in m.engines]
    legend: list[str] = []
    for heads in (short_names(m.engines), [f"E{i}" for i in range(1, len(m.engines) + 1)]):
        head = [head_word] + heads
        widths = [max(cell_len(r[i]) for r in [head] + body) for i in range(len(head))]
        if sum(widths) + 2 * (len(widths) - 1) <= width or heads[0] == "E1":
            break
    if heads[0] == "E1":
        legend = [f"E{i} = {n}" for i, n in enumerate(m.engines, 1)]
    pad = lambda c, w: " " * (w - cell_len(c))   # noqa: E731
    lines = ["  ".join(c + pad(c, w) if i == 0 else pad(c, w) + c for i, (c, w) in enumerate(zip(r, widths)))
             for r in [head] + body]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.insert(len(lines) - 1, "  ".join("-" * w for w in widths))
    return "\n".join(lines + legend)


def markdown(m: Matrix, results: list[RunResult] | None = None) -> str:
    out = ["# Conformance matrix", "",
           "Compliance rate: passed / judged cases (skipped cases are left out and counted beside the rate).", "",
           "| ruleset.operation | " + " | ".join(_md(e) for e in m.engines) + " |",
           "|---|" + "---:|" * len(m.engines)]
    for rs, op in m.rows:
        out.append(f"| {md_code(f'{rs}.{op}')} | " + " | ".join(_cell_text(m.cells[(rs, op, e)]) for e in m.engines) + " |")
    out.append("| **all** | " + " | ".join(f"**{_cell_text(m.totals[e])}**" for e in m.engines) + " |")
    out.append("")
    if results is not None:
        out += ["## Findings", ""]
        for name, r in zip(m.engines, results):
            out.append(f"### {_md(name)}")
            out.append("")
            out += findings_lines(r, markdown=True) or ["- no finding"]
            out.append("")
    return "\n".join(out)


def findings_lines(r: RunResult, markdown: bool = False) -> list[str]:
    """An engine's findings (conformance.analysis.attribution), one line each, then its unexplained failures
    (``markdown``: every text escaped, :mod:`conformance.reporting.escape`)."""
    text = md_text if markdown else showable
    code = md_code if markdown else (lambda s: f"`{showable(s)}`")
    lines = []
    for f in r.findings:
        spec = f"the spec says {text(f.spec)}; " if f.spec else ""
        lines.append(f"- {code(f.feature)} ({text(f.clause)}): {spec}the engine reads it as "
                     f"{text('; '.join(f.engine))} ({len(f.cases)} case(s))")   # joined as a single run joins them
    for c in getattr(r, "clusters", []):
        what = cluster_kind(c)
        lines.append(f"- {code(f'{c.op}: ' + ', '.join(c.fields))} ({text(c.clause)}; {what}): the spec answers "
                     f"{text(str(c.spec))}, the engine {text(str(c.engine))} ({len(c.cases)} case(s); "
                     f"{text(str(c.signature))})")
    if r.unexplained:
        lines.append(f"- {len(r.unexplained)} failure(s) in no finding")
    for e in r.events:
        if e["kind"] in ("stopped_early", "interrupted", "engine_unavailable", "handshake_failed"):
            first = e["message"].strip().split("\n")[0]
            lines.append(f"- note: {text(e['kind'])}: {text(first[:300])}" + ("…" if len(first) > 300 or "\n" in
                                                                               e["message"].strip() else ""))
    return lines


def _md(s: str) -> str:
    """An engine's name as a heading or a column head of matrix.md: text, never markup."""
    return md_text(s)


def to_json(m: Matrix, results: list[RunResult]) -> str:
    doc = m.to_dict()
    doc["runs"] = [{"engine": name, "command": list(r.command), "handshake": r.handshake,
                    "duration": round(r.duration, 3), "interrupted": r.stopped, "unfinished": list(r.unfinished), "failed": r.failed,
                    "findings": [f.to_dict() for f in r.findings], "unexplained": list(r.unexplained),
                    "clusters": [c.to_dict() for c in getattr(r, "clusters", [])],
                    "events": [e for e in r.events if e["kind"] in ("stopped_early", "interrupted",
                                                                      "engine_unavailable", "handshake_failed")]}
                   for name, r in zip(m.engines, results)]
    return json.dumps(doc, ensure_ascii=False, indent=1, allow_nan=False) + "\n"
