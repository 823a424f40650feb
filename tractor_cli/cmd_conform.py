"""``tractor conform``: check an engine against the rulebook through the engine protocol.

Whatever the engine does and whatever signals come, a run that gets past its
usage checks ends with its three report files written in full: SIGINT and
SIGTERM are caught from the start (:mod:`conformance.interrupts`), ``--report``
is checked before any case is generated, and the reports are written before
the summary is printed (a closed stdout cannot lose them). Engine text is
printed with control characters escaped.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

HELP = "run the conformance suite against an engine (any language) speaking the JSON-lines engine protocol"


def add_arguments(p):
    p.add_argument("--engine", required=True, metavar="CMD",
                   help='the engine command, split like a shell would but run without one (e.g. "tractor engine")')
    p.add_argument("--ruleset", action="append", default=[], metavar="R",
                   help="ruleset to check (repeatable, or comma-separated; 'all' for every ruleset); "
                        "required unless --vectors")
    p.add_argument("--ops", default=None, metavar="OP,...", help="only these operations (default: all)")
    p.add_argument("--seed", type=int, default=0, help="seed of the generated cases (default 0)")
    p.add_argument("--count", type=int, default=None, metavar="N",
                   help="cases per operation (default: a per-operation count, about 1,500 cases per ruleset)")
    p.add_argument("--vectors", nargs="?", const="", default=None, metavar="DIR",
                   help="replay the exported test vectors (default conformance/vectors/) instead of generating")
    p.add_argument("--timeout", type=float, default=5.0, metavar="SECONDS",
                   help="per-request timeout; a hung engine is killed and restarted (default 5)")
    p.add_argument("--handshake-timeout", type=float, default=None, metavar="SECONDS",
                   help="time allowed for the engine to start and answer the handshake (default max(30, --timeout))")
    p.add_argument("--generated", nargs="?", const="quick", default=None, metavar="PROFILE",
                   choices=("quick", "thorough"),
                   help="run the generated property-based suite (Hypothesis, shrinking through the engine) "
                        "instead of the seeded cases; profile quick (default) or thorough")
    p.add_argument("--expect", metavar="FILE", help="known deviations (JSON or TOML), each with a reason")
    p.add_argument("--report", metavar="DIR", default="reports/conform",
                   help="write report.json, junit.xml and summary.md here (default reports/conform; '' for none)")
    p.add_argument("--window", type=int, default=32, help="requests in flight before answers are read (default 32)")
    p.add_argument("--max-restarts", type=int, default=10,
                   help="restarts after crashes and timeouts before the rest of the run is given up (default 10)")
    p.add_argument("--show", type=int, default=3, metavar="N", help="disagreements to draw (default 3)")
    p.add_argument("--strict-schema", action="store_true",
                   help="also validate every answer with the JSON Schemas (slower)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="show progress on stderr: a bar on a terminal, plain lines elsewhere "
                        "(default: a bar when stderr is a terminal, nothing otherwise)")
    g.add_argument("--no-progress", dest="progress", action="store_false")


def _split(values) -> list[str]:
    out = []
    for v in values:
        out += [x.strip() for x in v.split(",") if x.strip()]
    return out


REPORT_FILES = ("report.json", "junit.xml", "summary.md")


def check_report_dir(path: str) -> str | None:
    """Why the reports cannot be written to ``path`` (None when they can): found before the run."""
    directory = Path(path)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if not directory.is_dir():
            return f"{directory} is not a folder"
        for name in REPORT_FILES:
            if (directory / name).is_dir():
                return f"{directory / name} is a folder, not a file"
        fd, probe = tempfile.mkstemp(prefix=".probe.", dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return f"cannot write reports to {directory}: {e.strerror or e}"
    return None


def _print(text: str = "", file=None) -> None:
    """Print engine-derived text with control characters escaped, line by line; a closed stdout
    is not an error (the reports are written already)."""
    from tractor_dsl.diagnostics import showable
    try:
        print("\n".join(showable(line) for line in text.split("\n")), file=file or sys.stdout, flush=True)
    except (BrokenPipeError, ValueError):
        pass


def run(args) -> int:
    from conformance.interrupts import Interrupts
    with Interrupts(keep=True) as interrupts:
        return _run(args, interrupts)


def _run(args, interrupts) -> int:
    from conformance import protocol
    from conformance.runner import (ExpectationError, RunResult, Runner, generated_cases, load_expectations,
                                    vector_cases)
    from reference_impl.rules import ruleset_names

    rulesets = _split(args.ruleset)
    known = ruleset_names()
    if "all" in rulesets:
        rulesets = known
    unknown = [r for r in rulesets if r not in known]
    if unknown:
        print(f"tractor conform: unknown ruleset(s) {', '.join(unknown)}; known: {', '.join(known)}", file=sys.stderr)
        return 2
    ops = _split([args.ops]) if args.ops else None
    bad_ops = [o for o in ops or [] if o not in protocol.OPERATIONS]
    if bad_ops:
        print(f"tractor conform: unknown operation(s) {', '.join(bad_ops)}; "
              f"known: {', '.join(protocol.OPERATIONS)}", file=sys.stderr)
        return 2
    if args.vectors is None and not rulesets:
        print("tractor conform: give --ruleset R (or 'all'), or --vectors", file=sys.stderr)
        return 2
    if args.generated:
        try:
            with interrupts.armed():
                return _run_generated(args, rulesets, ops)
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return interrupts.status or 130
    if args.report:
        problem = check_report_dir(args.report)
        if problem:
            print(f"tractor conform: --report: {problem}", file=sys.stderr)
            return 2
    deviations = []
    if args.expect:
        try:
            deviations = load_expectations(args.expect)
        except ExpectationError as e:
            print(f"tractor conform: {e}", file=sys.stderr)
            return 2

    from .progress import ConformProgress
    started = time.monotonic()
    bar = ConformProgress(args.progress)  # at once: preparing the cases can take seconds
    try:
        with interrupts.armed(), bar:
            if args.vectors is not None:
                bar.preparing("reading the vectors")
                try:
                    cases = vector_cases(args.vectors or None, rulesets or None, ops)
                except (OSError, ValueError) as e:
                    print(f"tractor conform: cannot read the vectors: {e}", file=sys.stderr)
                    return 2
                source, seed = f"vectors {args.vectors or 'conformance/vectors'}", None
                rulesets = rulesets or sorted({c["ruleset"] for c in cases})
            else:
                cases = []
                for i, ruleset in enumerate(rulesets, 1):
                    bar.preparing(f"preparing {ruleset} ({i}/{len(rulesets)})")
                    cases += generated_cases([ruleset], ops, args.seed, args.count)
                source, seed = "generated", args.seed
    except KeyboardInterrupt:  # before any case: a report that says so
        from datetime import datetime, timezone
        result = RunResult([], [], None, [args.engine], datetime.now(timezone.utc).isoformat(timespec="seconds"),
                           time.monotonic() - started, True, 0, 0, "",
                           [{"kind": "interrupted", "message": f"{interrupts.name} while the cases were prepared; "
                             "no case was run"}], [], rulesets=rulesets, ops=list(ops or protocol.OPERATIONS),
                           source="vectors" if args.vectors is not None else "generated", seed=args.seed)
        return _finish(args, result, interrupts)
    if not cases:
        print("tractor conform: no cases to run", file=sys.stderr)
        return 2

    try:
        runner = Runner(args.engine, timeout=args.timeout, window=args.window, max_restarts=args.max_restarts,
                        handshake_timeout=args.handshake_timeout, strict_schema=args.strict_schema, progress=bar,
                        interrupts=interrupts)
    except ValueError as e:
        print(f"tractor conform: {e}", file=sys.stderr)
        return 2
    with bar:
        bar.start(cases)
        result = runner.run(cases, deviations, rulesets=rulesets, ops=list(ops or protocol.OPERATIONS),
                            source=source, seed=seed)
    return _finish(args, result, interrupts)


def _finish(args, result, interrupts) -> int:
    """Write the reports (signals are only noted by now), then print the summary; the exit status."""
    from conformance import report, supervise
    left = supervise.end_children()  # the engines are stopped: any child left is something they left
    if left:
        result.events.append({"kind": "strays_killed", "message": f"{left} process(es) the engines left behind, "
                              "outside their sessions, were killed at the end of the run"})
    if not result.interrupted and interrupts.status is None:
        from conformance.attribution import attribute
        try:
            attribute(result)  # findings, and the clause each failure is charged to
        except Exception as e:  # the analysis must never cost the report
            result.events.append({"kind": "attribution_failed", "message": f"{e.__class__.__name__}: {e}"})
    written, problem = [], None
    if args.report:
        try:
            written = report.write_reports(result, args.report)
        except OSError as e:
            problem = f"cannot write the report to {args.report}: {e.strerror or e}"
    from .summary import print_summary
    print_summary(result, show=args.show)
    if written:
        _print(f"report: {', '.join(str(p) for p in written)}")
    if problem:
        print(f"tractor conform: {problem}", file=sys.stderr)
        return 2
    if interrupts.status is not None:
        return interrupts.status
    if result.interrupted:
        return 130
    return 1 if result.failed else 0


def _run_generated(args, rulesets: list[str], ops) -> int:
    """The Hypothesis suite through the protocol: one property per ruleset and operation."""
    import time

    from conformance.suite import EngineUnavailable, ProcessEngine, check_engine
    engine = ProcessEngine(args.engine, args.timeout)
    failures = []
    start = time.monotonic()
    try:
        for ruleset in rulesets:
            def show(o, ruleset=ruleset):
                from . import ui
                top = ", ".join(sorted(o.clauses, key=o.clauses.get, reverse=True)[:3])
                note = o.skipped_reason if o.status == "skipped" else f"{o.examples} positions; {top}"
                ui.echo(ui.styled(f"{ruleset}.{o.op:11} ", (f"{o.status:8}", o.status), f" {note}"))
            for o in check_engine(engine, ruleset, ops, args.generated, args.seed, show):
                if o.disagreement is not None:
                    failures.append(o.disagreement)
    except EngineUnavailable as e:
        print(f"tractor conform: {e}", file=sys.stderr)
        return 2
    finally:
        from conformance import supervise
        engine.close()
        supervise.end_children()
    for d in failures:
        print()
        _print(d.render())
    print(f"\n{len(failures)} disagreement(s) in {time.monotonic() - start:.1f} s "
          f"(profile {args.generated}, seed {args.seed}; rerun with the same seed to reproduce)")
    return 1 if failures else 0
