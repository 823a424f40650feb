"""``tractor conform``: check an engine against the rulebook through the engine protocol.

Whatever the engine does and whatever signals come, a run that gets past its
usage checks ends with its three report files written in full: SIGINT and
SIGTERM are caught from the start (:mod:`conformance.running.interrupts`), ``--report``
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
                   help="per-request timeout; a hung engine is killed and restarted (default 5)")
    p.add_argument("--handshake-timeout", type=float, default=None, metavar="SECONDS",
                   help="time allowed for the engine to start and answer the handshake (default max(30, --timeout))")
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
    p.add_argument("--window", type=int, default=32, help="requests in flight before answers are read (default 32)")
    p.add_argument("--max-restarts", type=int, default=10,
                   help="restarts after crashes and timeouts before the rest of the run is given up (default 10)")
    p.add_argument("--show", type=int, default=3, metavar="N", help="disagreements to draw (default 3)")
    from .conform_many import add_report_arguments
    add_report_arguments(p)
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


def resolve_rulesets(specs: list[str]) -> tuple[list[str], list[dict]]:
    """Ruleset arguments (bundled names or paths of users' rule files) as names, and each file's ruleset
    as the handshake announces it to the engine: name, what it extends, path and text (docs/protocol.md)."""
    from reference_impl.rules import is_rule_file, load_file
    names, files = [], []
    for spec in specs:
        if not is_rule_file(spec):
            names.append(spec)
            continue
        rules = load_file(spec)
        path = str(Path(spec).resolve())
        lineage = rules.checked.lineage
        files.append({"name": rules.name, "extends": lineage[1] if len(lineage) > 1 else None, "path": path,
                      "source": Path(path).read_text(encoding="utf-8")})
        names.append(rules.name)
    return names, files


def rulesets_of_engines(args) -> tuple[list[str], str | None]:
    """With no ``--ruleset``: the bundled rulesets the engines' handshakes list (each engine is started,
    greets and is stopped), said on stdout. An engine whose handshake fails adds every bundled ruleset,
    so the run itself reports the failure as it would with ``--ruleset all``."""
    from conformance.running.runner import HandshakeError, Runner
    from reference_impl.rules import ruleset_names
    known = ruleset_names()
    found: set[str] = set()
    listed: set[str] = set()
    for command in args.engine:
        try:
            hs = Runner(command, timeout=args.timeout, handshake_timeout=args.handshake_timeout).probe()
        except (HandshakeError, ValueError):
            found.update(known)
            continue
        listed.update(str(r) for r in hs.get("rulesets", []))
        found.update(r for r in hs.get("rulesets", []) if r in known)
    if not found:
        return [], (f"the engine's handshake lists no bundled ruleset (it lists: "
                    f"{', '.join(sorted(listed)) or 'none'}); give --ruleset R, a bundled name or your rule file")
    rulesets = [r for r in known if r in found]
    _print(f"rulesets: {', '.join(rulesets)} (those the engine's handshake lists; --ruleset chooses)")
    return rulesets, None


def engine_with_rules(command: str, rule_files: list[dict]) -> str:
    """The engine command, with ``--rules FILE`` for each user's file when the engine is ``tractor engine``
    given no ``--rules`` of its own (any other engine learns of them from the handshake)."""
    import shlex
    if not rule_files:
        return command
    try:
        argv = shlex.split(command)
    except ValueError:
        return command
    tractor = [i for i, a in enumerate(argv[:-1]) if os.path.basename(a) in ("tractor", "tractor_cli.main")]
    if not tractor or argv[tractor[0] + 1] != "engine" or "--rules" in argv:
        return command   # another engine, or one told its rules already
    extra = []
    for f in rule_files:
        if f["path"] not in argv:
            extra += ["--rules", f["path"]]
    return shlex.join(argv + extra)


def write_expect(path: str, result) -> str | None:
    """Write the run's failures as an expectation file; why it could not be (None when written)."""
    from conformance.running.expectations import expectations_text, written_expectations
    try:
        Path(path).write_text(expectations_text(written_expectations(result), path.endswith(".toml")),
                              encoding="utf-8")
    except OSError as e:
        return f"cannot write {path}: {e.strerror or e}"
    return None


def run(args) -> int:
    from conformance.running.interrupts import Interrupts
    with Interrupts(keep=True) as interrupts:
        return _run(args, interrupts)


def _run(args, interrupts) -> int:
    from conformance.protocol import messages as protocol
    from conformance.running.runner import ExpectationError, RunResult, Runner, load_expectations
    from conformance.generation.cases import generated_cases, vector_cases
    from reference_impl.rules import ruleset_names

    rulesets = _split(args.ruleset)
    known = ruleset_names()
    if "all" in rulesets:
        rulesets = known
    rulesets, rule_files = resolve_rulesets(rulesets)  # files to their rulesets' names (a SpecError if broken)
    unknown = [r for r in rulesets if r not in known and r not in {f["name"] for f in rule_files}]
    if unknown:
        print(f"tractor conform: unknown ruleset(s) {', '.join(unknown)}; known: {', '.join(known)}", file=sys.stderr)
        return 2
    args.engine = [engine_with_rules(e, rule_files) for e in args.engine]
    ops = _split([args.ops]) if args.ops else None
    bad_ops = [o for o in ops or [] if o not in protocol.OPERATIONS]
    if bad_ops:
        print(f"tractor conform: unknown operation(s) {', '.join(bad_ops)}; "
              f"known: {', '.join(protocol.OPERATIONS)}", file=sys.stderr)
        return 2
    if args.vectors is None and not rulesets:
        rulesets, problem = rulesets_of_engines(args)
        if problem:
            print(f"tractor conform: {problem}", file=sys.stderr)
            return 2
    if args.generated and len(args.engine) > 1:
        print("tractor conform: --generated takes one --engine", file=sys.stderr)
        return 2
    if args.write_expect and len(args.engine) > 1:
        print("tractor conform: --write-expect writes one engine's expectations: give one --engine",
              file=sys.stderr)
        return 2
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
    if args.generated:
        try:
            with interrupts.armed():
                return _run_generated(args, rulesets, ops, deviations, interrupts)
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return interrupts.status or 130

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
        result = RunResult([], [], None, [args.engine[0]], datetime.now(timezone.utc).isoformat(timespec="seconds"),
                           time.monotonic() - started, True, 0, 0, "",
                           [{"kind": "interrupted", "message": f"{interrupts.name} while the cases were prepared; "
                             "no case was run"}], [], rulesets=rulesets, ops=list(ops or protocol.OPERATIONS),
                           source="vectors" if args.vectors is not None else "generated", seed=args.seed)
        return _finish(args, result, interrupts)
    if args.k:
        from conformance.generation.cases import select_cases
        cases = select_cases(cases, args.k)
    if not cases:
        print("tractor conform: no cases to run" + (f" (-k {' '.join(args.k)} selects none)" if args.k else ""),
              file=sys.stderr)
        return 2
    if len(args.engine) > 1:
        from .conform_many import run_many
        return run_many(args, cases, deviations, interrupts, rule_files, rulesets=rulesets,
                        ops=list(ops or protocol.OPERATIONS),
                        source=source, seed=seed)

    try:
        runner = Runner(args.engine[0], timeout=args.timeout, window=args.window, max_restarts=args.max_restarts,
                        handshake_timeout=args.handshake_timeout, strict_schema=args.strict_schema, progress=bar,
                        max_fail=args.max_fail,
                        interrupts=interrupts)
        runner.rule_files = rule_files
    except ValueError as e:
        print(f"tractor conform: {e}", file=sys.stderr)
        return 2
    with bar:
        bar.start(cases)
        result = runner.run(cases, deviations, rulesets=rulesets, ops=list(ops or protocol.OPERATIONS),
                            source=source, seed=seed)
    return _finish(args, result, interrupts)


def _finish(args, result, interrupts, analyse: bool = True) -> int:
    """Write the reports (signals are only noted by now), then print the summary; the exit status.
    ``analyse=False``: no findings (the generated suite has one shrunk position per operation and no
    passing positions to keep, which findings need)."""
    from conformance.reporting import report
    from .conform_end import analyse as analyse_run, end_children, exit_status
    end_children([result])
    if analyse:
        analyse_run([result], interrupts)
    if getattr(args, "write_expect", None):
        problem = write_expect(args.write_expect, result)
        if problem:
            print(f"tractor conform: --write-expect: {problem}", file=sys.stderr)
    written, problem = [], None
    if args.report:
        try:
            written = report.write_reports(result, args.report)
        except OSError as e:
            problem = f"cannot write the report to {args.report}: {e.strerror or e}"
    if problem is None:
        from .conform_many import write_extras
        extra, problem = write_extras(args, [result])
        written += extra
    from .summary import print_summary
    print_summary(result, show=args.show)
    if written:
        _print(f"report: {', '.join(str(p) for p in written)}")
    return exit_status([result], interrupts, problem)


def _run_generated(args, rulesets: list[str], ops, deviations, interrupts) -> int:
    """The Hypothesis suite through the protocol: one property per ruleset and operation, reported as the
    seeded run is (one case per property: its shrunk disagreement, or how many positions passed)."""
    from datetime import datetime, timezone

    from conformance.protocol import messages as protocol
    from conformance.running.expectations import apply_expectations
    from conformance.running.runner import RunResult
    from conformance.generation.generated_parallel import run_generated
    from conformance.generation.suite import EngineUnavailable
    from conformance.running.parallel import describe
    from . import ui
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    start = time.monotonic()
    wanted = list(ops or protocol.OPERATIONS)
    ui.echo(f"{len(rulesets) * len(wanted)} properties (profile {args.generated}) on "
            f"{describe(args.jobs, args.scheduler)}, each worker with its own engine process")
    try:
        engine = run_generated(args.engine[0], args.timeout, rulesets, wanted, args.generated, args.seed,
                               jobs=args.jobs, scheduler=args.scheduler)
    except EngineUnavailable as e:
        print(f"tractor conform: {e}", file=sys.stderr)
        return 2
    except RuntimeError as e:   # the Dask scheduler cannot be reached
        print(f"tractor conform: {e}", file=sys.stderr)
        return 2
    finally:
        from conformance.running import supervise
        supervise.end_children()
    outcomes = engine.outcomes
    for o in outcomes:
        top = ", ".join(sorted(o.clauses, key=o.clauses.get, reverse=True)[:3])
        note = o.skipped_reason if o.status == "skipped" else f"{o.examples} positions; {top}"
        if o.op in protocol.narrowed(engine.fields):   # partial answers, declared: say so
            note += "; " + protocol.coverage_note(o.op, engine.fields[o.op])
        ui.echo(ui.styled(f"{o.ruleset}.{o.op:11} ", (f"{o.status:8}", o.status), f" {note}"))
    cases, results = generated_outcomes(outcomes)
    apply_expectations(cases, results, deviations)
    events = [{"kind": "stale_expectation", "message": f"no case matched the expected deviation ({d.label()})"}
              for d in deviations if d.matched == 0]
    result = RunResult(cases, results, engine.handshake, list(engine.argv), started, time.monotonic() - start,
                       False, engine.restarts, 0, "", events, list(deviations), rulesets=rulesets,
                       ops=list(ops or protocol.OPERATIONS), source=f"generated ({args.generated})", seed=args.seed)
    for o in outcomes:
        if o.disagreement is not None:
            print()
            _print(o.disagreement.render())
    print(f"\n(profile {args.generated}, seed {args.seed}; rerun with the same seed to reproduce)\n")
    args.show = 0   # the disagreements are drawn above, with their vector lines
    return _finish(args, result, interrupts, analyse=False)


def generated_outcomes(op_outcomes) -> tuple[list[dict], list]:
    """The properties of a generated run as cases and outcomes of a report: a disagreement is the case of
    its shrunk position; a property that held is one case listing the clauses its positions consulted."""
    from conformance.generation.cases import case_id
    from conformance.running.runner import Outcome
    cases, results = [], []
    for o in op_outcomes:
        d = o.disagreement
        if d is not None:
            cases.append({"id": case_id(d.ruleset, d.op, d.input), "op": d.op, "ruleset": d.ruleset,
                          "input": d.input, "expected": d.expected, "clauses": list(d.clauses)})
            results.append(Outcome(d.status, "disagrees" if d.status == "fail" else "errored",
                                   "; ".join(d.differences), d.got if isinstance(d.got, dict) else None))
            continue
        clauses = sorted(o.clauses, key=o.clauses.get, reverse=True)
        cases.append({"id": f"{o.ruleset}:{o.op}:generated", "op": o.op, "ruleset": o.ruleset, "input": {},
                      "expected": {}, "clauses": clauses})
        results.append(Outcome("skipped", "not_supported", o.skipped_reason) if o.status == "skipped" else
                       Outcome("pass", "", f"{o.examples} generated positions agree"))
    return cases, results
