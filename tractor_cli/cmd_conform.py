"""``tractor conform``: check an engine against the rulebook through the engine protocol.

The options become one :class:`conformance.plan.RunPlan`, which
:func:`conformance.conform.conform` runs; this module only parses, draws the
progress and prints the summary. Whatever the engine does and whatever signals
come, a run that gets past the plan's checks (every value and every path it
will write, before the first case) ends with its report files written in full:
SIGINT and SIGTERM are caught from the start (:mod:`conformance.running.interrupts`),
and the reports are written before the summary is printed (a closed stdout
cannot lose them). Engine text is printed with control characters escaped.
"""
from __future__ import annotations

import sys
from pathlib import Path

HELP = "run the conformance suite against an engine (any language) speaking the JSON-lines engine protocol"


def add_arguments(p):
    # the numbers and lists are checked with the plan (RunPlan.problems, one line each, as for a Python caller)
    from .options import language, whole
    p.add_argument("--engine", required=True, action="append", metavar="CMD",
                   help='the engine command, split like a shell would but run without one (e.g. "tractor engine"); '
                        "repeat it to run several engines at once, each in its own process, against the same cases")
    p.add_argument("--ruleset", action="append", default=[], metavar="R", 
                   help="ruleset to check: a bundled name or a rule file (repeatable, or comma-separated; "
                        "'all' for every bundled ruleset; default: the bundled rulesets the engine's handshake "
                        "lists)")
    p.add_argument("--ops", default=None, metavar="OP,...", help="only these operations (default: all)")
    p.add_argument("--seed", type=int, default=0, help="seed of the generated cases (default 0)")
    p.add_argument("--count", type=int, default=None, metavar="N",
                   help="random positions per operation, added to the decision positions, which do not "
                        "depend on it (default: a count per operation, conformance.generation.cases.DEFAULT_COUNTS)")
    p.add_argument("--vectors", nargs="?", const="", default=None, metavar="DIR",
                   help="replay the exported test vectors (default conformance/vectors/) instead of generating")
    p.add_argument("--timeout", type=float, default=5.0, metavar="SECONDS",
                   help="per-request timeout, 0.01 to 86400; a hung engine is killed and restarted (default 5)")
    p.add_argument("--handshake-timeout", type=float, default=None, metavar="SECONDS",
                   help="time allowed for the engine to start and answer the handshake, 0.01 to 86400 "
                        "(default max(30, --timeout))")
    p.add_argument("--generated", nargs="?", const="quick", default=None, metavar="PROFILE",
                   choices=("quick", "thorough"),
                   help="run the generated property-based suite (Hypothesis, shrinking through the engine) "
                        "instead of the seeded cases; profile quick (default) or thorough")
    from conformance.running.parallel import add_arguments as add_parallel
    add_parallel(p)   # --jobs, --scheduler: the generated suite's properties on every core or a Dask cluster
    p.add_argument("--expect", metavar="FILE", help="known deviations (JSON or TOML), each with a reason")
    p.add_argument("--write-expect", metavar="FILE",
                   help="write the run's failures as an expectation file (TOML by a .toml suffix, else JSON): "
                        "one entry per finding, the rest by case id")
    p.add_argument("--report", metavar="DIR", default="reports/conform",
                   help="write report.json, junit.xml and summary.md here (default reports/conform; '' for none)")
    p.add_argument("--window", type=int, default=32, metavar="N",
                   help="requests in flight before answers are read, 1 to 10000 (default 32)")
    p.add_argument("--max-restarts", type=int, default=10, metavar="N",
                   help="restarts after crashes and timeouts before the rest of the run is given up, 0 to 10000 "
                        "(default 10)")
    p.add_argument("--show", type=int, default=3, metavar="N", help="disagreements to draw, 0 to 10000 (default 3)")
    p.add_argument("--engine-ruleset", metavar="NAME", default=None,
                   help="ask the engine a user's rule file's cases under this bundled name (e.g. r000), or "
                        "'extends' for the bundled ruleset the file extends: for an engine that knows only "
                        "bundled names (default: the file's own name, announced in the handshake)")
    p.add_argument("-k", action="append", default=[], metavar="GLOB",
                   help="only the cases whose id matches this shell-style pattern, e.g. 'r001:follow:*' "
                        "(repeatable: any of them)")
    p.add_argument("--max-fail", type=whole(1), default=None, metavar="N",
                   help="stop an engine after N failures (fail or errored, known deviations aside): the answers "
                        "in flight are read, the engine is shut down, and the report says how many cases ran")
    p.add_argument("--html", metavar="FILE",
                   help="also write the report as one self-contained HTML file (the matrix, the clauses, the "
                        "failures drawn as cards)")
    p.add_argument("--docs-url", metavar="URL", default=None,
                   help="the rulebook site the HTML report links each clause to (its page rulebooks/RULESET.html, "
                        "anchor clause-ID); default: the site this checkout builds, docs/_build/html")
    p.add_argument("--lang", type=language, default="en", metavar="LANG",
                   help="the language of the HTML report, summary.md, matrix.md and the printed summary: en (default) or zh (Chinese: every text, each clause by "
                        "its Chinese name with its id beside it); report.json and junit.xml are language-neutral")
    p.add_argument("--badges", metavar="DIR",
                   help="also write SVG badges of the compliance rate, one per engine and ruleset")
    p.add_argument("--strict-schema", action="store_true",
                   help="also validate every answer with the JSON Schemas (slower)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="show progress on stderr: a bar on a terminal, plain lines elsewhere "
                        "(default: a bar when stderr is a terminal, nothing otherwise)")
    g.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress display, even on a terminal")


def plan_of(args):
    """The run the options describe, as plain data (:class:`conformance.plan.RunPlan`)."""
    from conformance.plan import RunPlan
    from .options import split_names
    return RunPlan(engines=list(args.engine), rulesets=split_names(args.ruleset, "--ruleset"),
                   ops=split_names([args.ops], "--ops") if args.ops is not None else None, seed=args.seed, count=args.count,
                   vectors=args.vectors, select=list(args.k), expect=args.expect, write_expect=args.write_expect,
                   report=args.report or None, html=args.html, badges=args.badges, docs_url=args.docs_url, lang=args.lang, timeout=args.timeout,
                   handshake_timeout=args.handshake_timeout, window=args.window, max_restarts=args.max_restarts,
                   max_fail=args.max_fail, strict_schema=args.strict_schema, show=args.show,
                   progress=args.progress, generated=args.generated, jobs=args.jobs, scheduler=args.scheduler,
                   engine_ruleset=args.engine_ruleset)


def _print(text: str = "", file=None) -> None:
    """Print engine-derived text with control characters escaped, line by line; a closed stdout
    is not an error (the reports are written already)."""
    from tractor_dsl.diagnostics import showable
    try:
        print("\n".join(showable(line) for line in text.split("\n")), file=file or sys.stdout, flush=True)
    except (BrokenPipeError, ValueError):
        pass


def run(args) -> int:
    from conformance.conform import conform
    from conformance.running.interrupts import Interrupts
    from .progress import ConformProgress
    try:
        plan = plan_of(args)
    except ValueError as e:   # an empty list (--ops ,): one line, as every problem of the plan
        print(f"tractor conform: {e}", file=sys.stderr)
        return 2
    with Interrupts(keep=True) as interrupts:
        bar = ConformProgress(plan.progress)   # at once: preparing the cases can take seconds
        done = conform(plan, interrupts=interrupts, progress=bar, echo=_print)
    if done.problem and not done.results:     # a usage problem, or an interrupt before a report
        if done.status == 2:
            print(f"tractor conform: {done.problem}", file=sys.stderr)
        return done.status
    if not done.results:
        print("interrupted", file=sys.stderr)
        return done.status
    if plan.generated:
        _print_generated(plan, done)
    elif len(done.results) > 1:
        _print_matrix(plan, done)
    else:
        if plan.lang == "zh":
            from conformance.reporting.labels import TERMINAL_ZH
            from .summary import print_summary_zh
            print_summary_zh(done.results[0], show=plan.show)
            if done.written:
                _print(TERMINAL_ZH["report"].format(paths="、".join(str(p) for p in done.written)))
        else:
            from .summary import print_summary
            print_summary(done.results[0], show=plan.show)
            if done.written:
                _print(f"report: {', '.join(str(p) for p in done.written)}")
    from conformance.conform import nothing_judged_lines
    for line in nothing_judged_lines(done.results):   # never a silent green
        _print(f"tractor conform: {line}", file=sys.stderr)
    if done.problem:
        print(f"tractor conform: {done.problem}", file=sys.stderr)
    return done.status


def property_note(o, fields, lang: str = "en") -> str:
    """What a property of a generated run covered: how many positions it asked and the three clauses they
    consulted most (or why it was skipped), and the fields compared when the engine declared fewer than all."""
    from conformance.protocol import messages as protocol
    top = sorted(o.clauses, key=o.clauses.get, reverse=True)[:3]
    if lang != "zh":
        note = o.skipped_reason if o.status == "skipped" else f"{o.examples} positions; {', '.join(top)}"
        return note + ("; " + protocol.coverage_note(o.op, fields) if fields is not None else "")
    from conformance.reporting.labels import TERMINAL_ZH as T, word
    from conformance.reporting.summary_zh import clause
    note = word("zh", o.skipped_reason) if o.status == "skipped" else \
        T["positions"].format(n=o.examples, clauses="、".join(clause(c, md=False) for c in top))
    if fields is not None:
        note += T["partial"].format(fields="、".join(fields),
                                    rest="、".join(f for f in protocol.COMPARED[o.op] if f not in fields))
    return note


def _print_generated(plan, done) -> None:
    if plan.lang == "zh":
        return _print_generated_zh(plan, done)
    from . import ui
    from .summary import print_summary
    for o, fields in done.properties:
        ui.echo(ui.styled(f"{o.ruleset}.{o.op:11} ", (f"{o.status:8}", o.status), f" {property_note(o, fields)}"))
    for d in done.drawn:
        print()
        _print(d.render())
    print(f"\n(profile {plan.generated}, seed {plan.seed}; rerun with the same seed to reproduce)\n")
    print_summary(done.results[0], show=0)   # the disagreements are drawn above, with their vector lines
    if done.written:
        _print(f"report: {', '.join(str(p) for p in done.written)}")


def _print_generated_zh(plan, done) -> None:
    """:func:`_print_generated` in Chinese (``--lang zh``): each property by its operation's Chinese name, each
    disagreement drawn as the Chinese summary draws a case, with its vector line; the summary of
    :func:`~tractor_cli.summary.print_summary_zh`."""
    from rich.cells import cell_len
    from conformance.generation.cases import case_id
    from conformance.reporting.labels import OPS_ZH, TERMINAL_ZH as T, word
    from conformance.reporting.summary_zh import case_lines, named
    from . import ui
    from .summary import print_summary_zh
    pad = lambda s, w: s + " " * (w - cell_len(s))   # noqa: E731  (a Chinese character is two columns wide)
    heads = [f"{o.ruleset} · {named(OPS_ZH.get(o.op), o.op, md=False)}" for o, _ in done.properties]
    width = max(map(cell_len, heads), default=0)
    for (o, fields), head in zip(done.properties, heads):
        ui.echo(ui.styled(pad(head, width) + " ", (pad(word("zh", o.status), 4), o.status),
                          f" {property_note(o, fields, 'zh')}"))
    result = done.results[0]
    vectors = {case_id(d.ruleset, d.op, d.input): d.vector_line() for d in done.drawn}
    for c, o in zip(result.cases, result.outcomes):
        if c["id"] in vectors:
            print()
            _print("\n".join(case_lines(c, o, result.report_dir, md=False) + [T["vector"].format(v=vectors[c["id"]])]))
    print("\n" + T["profile"].format(profile=plan.generated, seed=plan.seed) + "\n")
    print_summary_zh(result, show=0)   # the disagreements are drawn above, with their vector lines
    if done.written:
        _print(T["report"].format(paths="、".join(str(p) for p in done.written)))


def _print_matrix(plan, done) -> None:
    from conformance.reporting import matrix
    if plan.lang == "zh":
        return _print_matrix_zh(plan, done)
    _print(matrix.table_text(done.matrix))
    for name, r in zip(done.names, done.results):
        t = r.counts()
        _print(f"\n{name}: {t['pass']} pass, {t['fail'] + t['xpass']} fail, {t['skipped'] + t['xfail']} skipped, "
               f"{t['errored']} errored in {r.duration:.1f} s" + (" — FAILS" if r.failed else ""))
        for line in matrix.findings_lines(r):
            _print("  " + line)
    report = plan.report
    shown = [str(p) for p in done.written if report and p.parent == Path(report)]
    shown += [f"one folder per engine in {report}"] if report else []
    shown += [plan.html] if plan.html and plan.html not in shown else []
    shown += [f"{sum(p.suffix == '.svg' for p in done.written)} badge(s) in {plan.badges}"] if plan.badges else []
    if done.written:
        _print(f"\nreport: {', '.join(shown)}")


def _print_matrix_zh(plan, done) -> None:
    """:func:`_print_matrix` in Chinese (``--lang zh``): the texts of labels.TERMINAL_ZH, each operation and
    clause by its Chinese name with its id beside it."""
    from conformance.reporting import matrix
    from conformance.reporting.labels import OPS_ZH, TERMINAL_ZH as T
    from conformance.reporting.summary_zh import findings_lines, named
    _print(matrix.table_text(done.matrix, head_word=T["by_op"], total=T["all"], skip=T["skip"],
                             row_name=lambda rs, op: f"{rs} · {named(OPS_ZH.get(op), op, md=False)}"))
    for name, r in zip(done.names, done.results):
        t = r.counts()
        _print("\n" + T["engine_line"].format(name=name, p=t["pass"], f=t["fail"] + t["xpass"],
                                              s=t["skipped"] + t["xfail"], e=t["errored"], seconds=r.duration)
               + (T["fails"] if r.failed else ""))
        if r.findings or getattr(r, "clusters", None) or r.unexplained:
            for line in findings_lines(r, md=False):
                _print("  " + line)
    shown = [str(p) for p in done.written if plan.report and p.parent == Path(plan.report)]
    shown += [T["folders"].format(folder=plan.report)] if plan.report else []
    shown += [plan.html] if plan.html and plan.html not in shown else []
    shown += [T["badges"].format(n=sum(p.suffix == ".svg" for p in done.written), folder=plan.badges)] \
        if plan.badges else []
    if done.written:
        _print("\n" + T["report"].format(paths="、".join(shown)))
