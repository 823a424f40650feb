"""``tractor conform`` with several engines, and the reports that compare them.

``--engine`` given more than once runs every engine, each in its own process
and all at once, against the same cases (:func:`conformance.reporting.matrix.run_engines`);
the result is the matrix ruleset × operation × engine and, per engine, its
findings. ``--report DIR`` then holds ``matrix.json``, ``matrix.md`` and one
folder of reports per engine; ``--html FILE`` and ``--badges DIR`` work with
one engine as with several. The exit status is 1 when any engine fails.
"""
from __future__ import annotations

import sys
import threading
from pathlib import Path


def add_report_arguments(p) -> None:
    p.add_argument("-k", action="append", default=[], metavar="GLOB",
                   help="only the cases whose id matches this shell-style pattern, e.g. 'r001:follow:*' "
                        "(repeatable: any of them)")
    p.add_argument("--max-fail", type=_at_least_one, default=None, metavar="N",
                   help="stop an engine after N failures (fail or errored, known deviations aside): the answers "
                        "in flight are read, the engine is shut down, and the report says how many cases ran")
    p.add_argument("--html", metavar="FILE",
                   help="also write the report as one self-contained HTML file (the matrix, the clauses, the "
                        "failures drawn as cards)")
    p.add_argument("--badges", metavar="DIR",
                   help="also write SVG badges of the compliance rate, one per engine and ruleset")


def _at_least_one(text: str) -> int:
    import argparse
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {n}")
    return n


def write_extras(args, results) -> tuple[list[Path], str | None]:
    """The HTML report and the badges the options ask for: the paths written, and a problem or None."""
    from conformance.reporting import matrix
    if not (args.html or args.badges):
        return [], None
    m = matrix.build(results)
    written: list[Path] = []
    try:
        if args.html:
            from conformance.reporting.html_report import render
            from conformance.reporting.report import _atomic_write
            path = Path(args.html)
            _atomic_write(path, render(m, results, show=max(args.show, 40)))
            written.append(path)
        if args.badges:
            from conformance.reporting.badges import write_badges
            written += write_badges(m, args.badges)
    except OSError as e:
        return written, f"cannot write {e.filename or 'the report'}: {e.strerror or e}"
    return written, None


class _Progress:
    """One progress bar for every engine: the cases answered by all of them."""

    def __init__(self, bar, engines: int):
        self.bar = bar
        self.lock = threading.Lock()
        self.done = [0] * engines
        self.tallies: list[dict] = [{} for _ in range(engines)]

    def __call__(self, i: int, done: int, total: int, tally: dict) -> None:
        with self.lock:
            self.done[i], self.tallies[i] = done, dict(tally)
            summed = {k: sum(t.get(k, 0) for t in self.tallies) for k in tally}
            self.bar(sum(self.done), total * len(self.done), summed)


def run_many(args, cases, deviations, interrupts, rule_files=(), **meta) -> int:
    from conformance.reporting import matrix
    from conformance.reporting import report
    from .cmd_conform import _print
    from .conform_end import analyse, end_children, exit_status
    from .progress import ConformProgress

    bar = ConformProgress(args.progress)
    try:
        with bar:
            bar.start(list(cases) * len(args.engine))   # one bar: the cases answered by all the engines
            results = matrix.run_engines(args.engine, cases, deviations, interrupts=interrupts,
                                         progress=_Progress(bar, len(args.engine)) if bar.mode else None,
                                         timeout=args.timeout, window=args.window, max_restarts=args.max_restarts,
                                         handshake_timeout=args.handshake_timeout, strict_schema=args.strict_schema,
                                         max_fail=args.max_fail, meta=meta, rule_files=list(rule_files))
    except ValueError as e:
        print(f"tractor conform: {e}", file=sys.stderr)
        return 2
    end_children(results)
    analyse(results, interrupts)
    names = matrix.engine_names(results)
    m = matrix.build(results, names)
    written, problem = [], None
    if args.report:
        base = Path(args.report)
        try:
            for s, r in zip(matrix.slugs(names), results):
                written += report.write_reports(r, base / s)
            report._atomic_write(base / "matrix.json", matrix.to_json(m, results))
            report._atomic_write(base / "matrix.md", matrix.markdown(m, results))
            written += [base / "matrix.json", base / "matrix.md"]
        except OSError as e:
            problem = f"cannot write the report to {args.report}: {e.strerror or e}"
    if problem is None:
        extra, problem = write_extras(args, results)
        written += extra
    _print(matrix.table_text(m))
    for name, r in zip(names, results):
        t = r.counts()
        _print(f"\n{name}: {t['pass']} pass, {t['fail'] + t['xpass']} fail, {t['skipped'] + t['xfail']} skipped, "
               f"{t['errored']} errored in {r.duration:.1f} s" + (" — FAILS" if r.failed else ""))
        for line in matrix.findings_lines(r):
            _print("  " + line)
    shown = [str(p) for p in written if args.report and p.parent == Path(args.report)]
    shown += [f"one folder per engine in {args.report}"] if args.report else []
    shown += [args.html] if args.html and args.html not in shown else []
    shown += [f"{sum(p.suffix == '.svg' for p in written)} badge(s) in {args.badges}"] if args.badges else []
    if written:
        _print(f"\nreport: {', '.join(shown)}")
    return exit_status(results, interrupts, problem)
