"""One conform run from a :class:`~conformance.plan.RunPlan`: the rulesets resolved, the cases prepared, every
engine run, the failures analysed into findings, and the report files written.

:func:`conform` is the library's whole run, for ``tractor conform`` and for any Python caller::

    from conformance.conform import conform
    from conformance.plan import RunPlan

    done = conform(RunPlan(engines=["./my-engine"], rulesets=["r003"], report="reports/mine"))
    done.status          # 0 green, 1 a failing engine, 2 a usage problem (done.problem says which)
    done.results[0].counts()

It prints nothing by itself: ``echo`` receives the lines a person should see while the run goes (which
rulesets, the generated stage's properties), and ``progress`` an object with the interface of
:class:`Quiet`. Whatever the engine does and whatever signals come, a run that gets past
:meth:`RunPlan.problems` ends with its report files written in full.
"""
from __future__ import annotations

import os
import shlex
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from conformance.plan import RunPlan


class Quiet:
    """A progress display that shows nothing (the interface ``tractor conform``'s bar implements)."""

    mode = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def preparing(self, what: str) -> None:
        pass

    def start(self, cases: list[dict]) -> None:
        pass

    def __call__(self, done: int, total: int, tally: dict) -> None:
        pass


@dataclass
class Conformed:
    """What a run produced: one result per engine (empty when it never started), the files written, the
    problem that stopped it or its reports (None), and the exit status."""

    results: list = field(default_factory=list)
    written: list[Path] = field(default_factory=list)
    problem: str | None = None
    status: int = 0
    matrix: object | None = None
    names: list[str] = field(default_factory=list)
    drawn: list = field(default_factory=list)   # the generated stage's disagreements (suite.Disagreement)
    # the generated stage: per property (its suite.OpOutcome, the fields compared when the engine declared fewer
    # than all, else None); the command line words them in the run's language
    properties: list = field(default_factory=list)


class UsageProblem(Exception):
    """A plan that cannot run as given: one line, exit status 2."""


def _echo(line: str = "") -> None:
    print(line, flush=True)


def conform(plan: RunPlan, *, interrupts=None, progress=None, echo: Callable[[str], None] = _echo) -> Conformed:
    """Run ``plan``; never raises for what an engine does or for a usage problem (``Conformed.problem``)."""
    from conformance.running.interrupts import Interrupts
    if interrupts is None:
        with Interrupts(keep=True) as own:
            return conform(plan, interrupts=own, progress=progress, echo=echo)
    try:
        return _conform(plan, interrupts, progress or Quiet(), echo)
    except UsageProblem as e:
        return Conformed(problem=str(e), status=2)


def _conform(plan: RunPlan, interrupts, bar, echo) -> Conformed:
    from conformance.generation.cases import generated_cases, select_cases, vector_cases
    from conformance.protocol import messages as protocol
    from conformance.running.runner import ExpectationError, RunResult, load_expectations
    from reference_impl.rules import ruleset_names

    problems = plan.problems()
    if problems:
        raise UsageProblem("; ".join(problems))
    rulesets = list(plan.rulesets)
    known = ruleset_names()
    if "all" in rulesets:
        rulesets = known
    from tractor_dsl.diagnostics import SpecError
    try:
        rulesets, rule_files = resolve_rulesets(rulesets)  # files to their rulesets' names
    except SpecError as e:   # a broken or missing rule file: bad input, each problem at its file:line:column
        raise UsageProblem("\n".join(d.headline() for d in e.diagnostics if d.severity == "error")
                           or str(e)) from None
    problem = handshake_size_problem(rule_files)
    if problem:
        raise UsageProblem(problem)
    unknown = [r for r in rulesets if r not in known and r not in {f["name"] for f in rule_files}]
    if unknown:
        raise UsageProblem(f"unknown ruleset(s) {', '.join(unknown)}; known: {', '.join(known)}")
    engines = [engine_with_rules(e, rule_files) for e in plan.engines]
    ops = plan.ops
    bad_ops = [o for o in ops or [] if o not in protocol.OPERATIONS]
    if bad_ops:
        raise UsageProblem(f"unknown operation(s) {', '.join(bad_ops)}; known: {', '.join(protocol.OPERATIONS)}")
    deviations = []
    if plan.expect:
        try:
            deviations = load_expectations(plan.expect)
        except ExpectationError as e:
            raise UsageProblem(str(e)) from None
    wanted = list(ops or protocol.OPERATIONS)
    if plan.generated:   # its workers start their own engines; one that cannot start is a UsageProblem there
        if not rulesets:
            rulesets = rulesets_of_engines(engines, plan)
            echo(_said(plan, "run.rulesets", rulesets=", ".join(rulesets), option="--ruleset"))
        return _generated(plan, engines, rulesets, wanted, deviations, interrupts, echo)
    runners = start_engines(plan, engines, rule_files)   # before any case: a usage problem if not
    try:
        return _run_started(plan, runners, engines, rulesets, rule_files, ops, wanted, deviations, interrupts,
                            bar, echo)
    except BaseException:
        for r in runners:   # a problem or a signal before the run took them over
            r.release()
        raise


def _run_started(plan: RunPlan, runners, engines, rulesets, rule_files, ops, wanted, deviations, interrupts,
                 bar, echo) -> Conformed:
    """The seeded run (generated cases or vectors), its engines started already and greeted."""
    from conformance.generation.cases import generated_cases, select_cases, vector_cases
    from conformance.running.runner import RunResult
    if plan.vectors is None and not rulesets:
        rulesets = bundled_rulesets_listed([r.handshake for r in runners])
        echo(_said(plan, "run.rulesets", rulesets=", ".join(rulesets), option="--ruleset"))

    started = time.monotonic()
    meta = {"rulesets": rulesets, "ops": wanted}
    try:
        with interrupts.armed(), bar:
            if plan.vectors is not None:
                bar.preparing("reading the vectors")
                try:
                    cases = vector_cases(plan.vectors or None, rulesets or None, ops)
                except (OSError, ValueError) as e:
                    raise UsageProblem(f"cannot read the vectors: {e}") from None
                meta.update(source=f"vectors {plan.vectors or 'conformance/vectors'}", seed=None)
                meta["rulesets"] = rulesets = rulesets or sorted({c["ruleset"] for c in cases})
            else:
                cases = []
                for i, ruleset in enumerate(rulesets, 1):
                    bar.preparing(f"preparing {ruleset} ({i}/{len(rulesets)})")
                    try:   # the distinguishing positions of a ruleset without vectors: on the executor
                        cases += generated_cases([ruleset], ops, plan.seed, plan.count, jobs=plan.jobs,
                                                 scheduler=plan.scheduler)
                    except RuntimeError as e:   # the Dask scheduler cannot be reached
                        raise UsageProblem(str(e)) from None
                meta.update(source="generated", seed=plan.seed)
    except KeyboardInterrupt:  # before any case: a report that says so
        for r in runners:
            r.release()
        result = RunResult([], [], None, [engines[0]], datetime.now(timezone.utc).isoformat(timespec="seconds"),
                           time.monotonic() - started, True, 0, 0, "",
                           [{"kind": "interrupted", "message": f"{interrupts.name} while the cases were prepared; "
                             "no case was run"}], [], rulesets=rulesets, ops=wanted,
                           source="vectors" if plan.vectors is not None else "generated", seed=plan.seed)
        return finish(plan, [result], interrupts)
    if plan.select:
        cases = select_cases(cases, plan.select)
    if not cases:
        raise UsageProblem("no cases to run" + (f" (-k {' '.join(plan.select)} selects none)" if plan.select else ""))
    results = _run_engines(plan, runners, engines, cases, deviations, interrupts, bar, rule_files, meta)
    return finish(plan, results, interrupts, started=started, bar=bar)


def start_engines(plan: RunPlan, engines: list[str], rule_files: list[dict]) -> list:
    """One :class:`~conformance.running.runner.Runner` per engine, its engine started and greeted now, before
    any case is prepared or any report opened: an engine that cannot start or answer the handshake (a
    mistyped command) is a :class:`UsageProblem` — one line, exit status 2, nothing run. The run then asks
    these same processes (no engine is started twice)."""
    from concurrent.futures import ThreadPoolExecutor

    from conformance.running.runner import EXTENDS, HandshakeError, Runner
    runners = []
    for command in engines:
        runner = Runner(command, timeout=plan.timeout, window=plan.window, max_restarts=plan.max_restarts,
                        handshake_timeout=plan.handshake_timeout, strict_schema=plan.strict_schema,
                        max_fail=plan.max_fail,
                        engine_ruleset=EXTENDS if plan.engine_ruleset == "extends" else plan.engine_ruleset)
        runner.rule_files = list(rule_files)
        runners.append(runner)
    failed = []
    try:
        if len(runners) == 1:
            try:
                runners[0].start()
            except HandshakeError as e:
                failed.append((1, engines[0], e))
        else:   # all at once, as the run asks them (an engine may wait for the others)
            with ThreadPoolExecutor(max_workers=len(runners), thread_name_prefix="engine-start") as pool:
                futures = [pool.submit(r.start) for r in runners]
            for n, (command, f) in enumerate(zip(engines, futures), 1):
                if isinstance(f.exception(), HandshakeError):
                    failed.append((n, command, f.exception()))
                elif f.exception() is not None:
                    raise f.exception()
    except BaseException:
        for r in runners:
            r.release()
        raise
    if failed:
        for r in runners:
            r.release()
        raise UsageProblem("; ".join((f"engine {n} ({command})" if len(engines) > 1 else f"the engine ({command})")
                                     + f" did not start: {e}" for n, command, e in failed) + "; nothing was run")
    return runners


def bundled_rulesets_listed(handshakes: list[dict]) -> list[str]:
    """The bundled rulesets the engines' handshakes list, in the bundled order (a UsageProblem when none)."""
    from reference_impl.rules import ruleset_names
    known = ruleset_names()
    listed = {str(r) for hs in handshakes for r in hs.get("rulesets", [])}
    if not listed & set(known):
        raise UsageProblem(f"the engine's handshake lists no bundled ruleset (it lists: "
                           f"{', '.join(sorted(listed)) or 'none'}); give --ruleset R, a bundled name or your "
                           "rule file")
    return [r for r in known if r in listed]


def _run_engines(plan: RunPlan, runners, engines, cases, deviations, interrupts, bar, rule_files, meta) -> list:
    from conformance.reporting import matrix
    try:
        if len(engines) == 1:
            runner = runners[0]
            runner.progress, runner.interrupts = bar, interrupts
            runner.keep_engine = True   # the analysis of its failures asks the same engine process
            with bar:
                bar.start(cases)
                return [runner.run(cases, deviations, **meta)]
        with bar:
            bar.start(list(cases) * len(engines))   # one bar: the cases answered by all the engines
            return matrix.run_engines(engines, cases, deviations, interrupts=interrupts,
                                      progress=_Shared(bar, len(engines)) if bar.mode else None,
                                      meta=meta, runners=runners)
    except ValueError as e:
        raise UsageProblem(str(e)) from None


class _Shared:
    """One progress display for every engine: the cases answered by all of them."""

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


# --------------------------------------------------------------------------- rulesets and engines

def resolve_rulesets(specs: list[str]) -> tuple[list[str], list[dict]]:
    """Ruleset arguments (bundled names or paths of users' rule files) as names, and each file's ruleset
    as the handshake announces it to the engine: name, what it extends, path and text (docs/protocol.md)."""
    from reference_impl.rules import catalogue_names, is_rule_file, library_file, load_file
    names, files = [], []
    catalogue = set(catalogue_names())
    specs = [library_file(spec) if spec in catalogue else spec for spec in specs]   # a house-rule file of
    paths = [spec for spec in specs if is_rule_file(spec)]                           # the catalogue, by name
    for spec in specs:
        if not is_rule_file(spec):
            names.append(spec)
            continue
        rules = load_file(spec, alongside=paths)   # extends is followed through the run's other files
        path = str(Path(spec).resolve())
        lineage = rules.checked.lineage
        files.append({"name": rules.name, "extends": lineage[1] if len(lineage) > 1 else None, "path": path,
                      "source": Path(path).read_text(encoding="utf-8")})
        names.append(rules.name)
    return names, files


def handshake_size_problem(rule_files: list[dict]) -> str | None:
    """Why the handshake request cannot carry the run's rule files (None when it can): it gives each file's
    whole text (docs/protocol.md), in one line an engine reads at most :data:`~tractor_dsl.limits.LINE_BYTES`
    of. Found before any engine starts, rather than every case ``handshake_failed``."""
    if not rule_files:
        return None
    from conformance.protocol import messages as protocol
    from conformance.protocol.engine import engine_version
    from tractor_dsl.limits import LINE_BYTES
    size = len(protocol.encode({**protocol.handshake_request(1, engine_version()), "rulesets": rule_files}))
    if size <= LINE_BYTES:
        return None
    largest = max(rule_files, key=lambda f: len(f["source"].encode("utf-8", "surrogatepass")))
    return (f"the handshake request gives the engine the text of each rule file of the run in one line, here "
            f"{size:,} bytes: over the protocol's line limit of {LINE_BYTES:,} bytes, which an engine reads no "
            f"further than (largest file: {largest['path']}, "
            f"{len(largest['source'].encode('utf-8', 'surrogatepass')):,} bytes); shorten the files (comments "
            "count too), or check them in several runs")


def rulesets_of_engines(engines: list[str], plan: RunPlan) -> list[str]:
    """With no rulesets given: the bundled rulesets the engines' handshakes list (each engine is started,
    greets and is stopped). An engine whose handshake fails adds every bundled ruleset, so the run itself
    reports the failure as it would with ``all``."""
    from conformance.running.runner import HandshakeError, Runner
    from reference_impl.rules import ruleset_names
    known = ruleset_names()
    found: set[str] = set()
    listed: set[str] = set()
    for command in engines:
        try:
            hs = Runner(command, timeout=plan.timeout, handshake_timeout=plan.handshake_timeout).probe()
        except (HandshakeError, ValueError):
            found.update(known)
            continue
        listed.update(str(r) for r in hs.get("rulesets", []))
        found.update(r for r in hs.get("rulesets", []) if r in known)
    if not found:
        raise UsageProblem(f"the engine's handshake lists no bundled ruleset (it lists: "
                           f"{', '.join(sorted(listed)) or 'none'}); give --ruleset R, a bundled name or your "
                           "rule file")
    return [r for r in known if r in found]


def engine_with_rules(command: str, rule_files: list[dict]) -> str:
    """The engine command, with ``--rules FILE`` for each user's file when the engine is ``tractor engine``
    given no ``--rules`` of its own (any other engine learns of them from the handshake)."""
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


# --------------------------------------------------------------------------- the end of a run

def finish(plan: RunPlan, results: list, interrupts, analyse: bool = True, started: float | None = None,
           bar=None) -> Conformed:
    """The end of every run: the processes the engines left killed, the failures analysed (``analyse=False``
    for the generated stage, whose one shrunk position per operation findings cannot use) on the run's
    executor (``--jobs``, ``--scheduler``) with the progress display ``bar``, the expectations written, then
    the report files; the exit status. With ``started`` (a ``time.monotonic()``), each result's duration is
    the whole run's: preparing the cases, running them and analysing the failures."""
    from conformance.reporting import matrix
    kept = [r.runner for r in results if getattr(r, "runner", None) is not None and r.runner.kept_pid]
    end_children(results, spare={runner.kept_pid for runner in kept})
    try:
        if analyse:
            analyse_results(results, interrupts, jobs=plan.jobs, scheduler=plan.scheduler, bar=bar)
    finally:   # the engine a run kept for its analysis is stopped, however the analysis ended, and then
        for runner in kept:   # what it left behind
            runner.release()
        if kept:
            end_children(results)
    if started is not None:
        for r in results:
            r.duration = time.monotonic() - started
    for r in results:   # the command ends with the signal's status: its reports say it was interrupted too
        r.signalled = r.signalled or interrupts.status is not None
    done = Conformed(results=results)
    if plan.write_expect and results:
        done.problem = write_expect(plan.write_expect, results[0])
    names = matrix.engine_names(results) if len(results) > 1 else []
    done.names = names
    if plan.report:   # each result knows its folder: the explain commands the reports print name it
        folders = [plan.report] if len(results) == 1 else [str(Path(plan.report) / s) for s in matrix.slugs(names)]
        for r, folder in zip(results, folders):
            r.report_dir = folder
        try:
            done.written += write_report_files(plan.report, results, names, plan.lang)
        except OSError as e:
            done.problem = f"cannot write the report to {plan.report}: {e.strerror or e}"
    if done.problem is None and (plan.html or plan.badges or len(results) > 1):
        done.matrix = matrix.build(results, names or None)
        extra, done.problem = write_extras(plan, results, done.matrix)
        done.written += extra
    done.status = exit_status(results, interrupts, done.problem)
    return done


def write_report_files(folder: str, results: list, names: list[str], lang: str = "en") -> list[Path]:
    """The report files: one engine's in ``folder``; several engines' in one folder each, beside the matrix.
    The files of the folder that an earlier run wrote and this one did not are removed, and the files written
    listed in the folder's manifest (:func:`conformance.reporting.report.settle_folder`), so a reused folder
    never holds one run's report beside another's matrix."""
    from conformance.reporting import matrix, report
    base = Path(folder)
    written: list[Path] = []
    whole = False

    def summary(result) -> str | None:   # summary.md in Chinese, or None: the English one
        if lang != "zh":
            return None
        from conformance.reporting.summary_zh import markdown_zh
        return markdown_zh(result)
    try:
        if len(results) == 1:
            written += report.write_reports(results[0], base, summary=summary(results[0]))
        else:
            m = matrix.build(results, names)
            if lang == "zh":
                from conformance.reporting.summary_zh import matrix_markdown_zh as matrix_md
            else:
                matrix_md = matrix.markdown
            for s, r in zip(matrix.slugs(names), results):
                written += report.write_reports(r, base / s, summary=summary(r))
            written += report.write_set({base / name: text for name, text in zip(
                report.MATRIX_FILES, (matrix.to_json(m, results), matrix_md(m, results)))})
        whole = True
    finally:   # what the folder's earlier runs left of the files a run owns is cleared, however this one ended
        report.settle_folder(base, written, whole)
    return written


def write_extras(plan: RunPlan, results: list, m) -> tuple[list[Path], str | None]:
    """The HTML report and the badges the plan asks for: the paths written, and a problem or None."""
    written: list[Path] = []
    try:
        if plan.html:
            from conformance.reporting.html_report import render
            from tractor_dsl.files import write_file
            path = write_file(plan.html, render(m, results, show=max(plan.show, 40), docs_url=plan.docs_url,
                                                 lang=plan.lang))
            written.append(path)
        if plan.badges:
            from conformance.reporting.badges import write_badges
            written += write_badges(m, plan.badges)
    except OSError as e:
        return written, f"cannot write {e.filename or 'the report'}: {e.strerror or e}"
    return written, None


def write_expect(path: str, result) -> str | None:
    """Write the run's failures as an expectation file; why it could not be (None when written)."""
    from conformance.running.expectations import expectations_text, written_expectations
    from tractor_dsl.files import write_file
    try:
        write_file(path, expectations_text(written_expectations(result), path.endswith(".toml")))
    except OSError as e:
        return f"--write-expect: cannot write {path}: {e.strerror or e}"
    return None


def end_children(results, spare=frozenset()) -> None:
    """Kill what the engines left behind outside their sessions, and say so in the (first) report; ``spare``:
    the process ids of engines kept running for the analysis."""
    from conformance.running import supervise
    left = supervise.end_children(spare)
    if left and results:
        results[0].events.append({"kind": "strays_killed", "message": f"{left} process(es) the engines left "
                                  "behind, outside their sessions, were killed at the end of the run"})


def analyse_results(results, interrupts, jobs: int | None = 1, scheduler: str | None = None, bar=None) -> None:
    """Group each finished run's failures into findings, charge each failure to its clause, and apply the
    expectations that select by finding, on the executor of ``jobs`` / ``scheduler``, saying each step on
    ``bar`` (the run's progress display). The analysis never costs the report: a failure of it is an event."""
    from conformance.analysis.attribution import attribute
    from conformance.running.expectations import apply_finding_expectations
    wanting = [r for r in results if not r.interrupted
               and any(o is not None and o.status in ("fail", "xfail", "xpass") for o in r.outcomes)]
    todo = wanting if interrupts.status is None else []
    with (bar if bar is not None and todo else nullcontext()):
        for n, r in enumerate(results, 1):
            if r.interrupted or interrupts.status is not None:
                if any(r is w for w in wanting):   # a signal before this engine's analysis: said, never hidden
                    r.unfinished.append("the analysis of the failures (findings, clusters): not begun")
                continue
            who = f"engine {n} of {len(results)}: " if len(results) > 1 else ""
            say = (lambda text, who=who: bar.preparing(who + text)) if bar is not None else None
            try:
                attribute(r, jobs=jobs, scheduler=scheduler, progress=say,
                          stop=lambda: interrupts.status is not None)
                apply_finding_expectations(r)
            except Exception as e:  # noqa: BLE001 — any bug of the analysis is reported, not raised
                analysis_failed(r, e)


def analysis_failed(result, error: BaseException) -> None:
    """A run whose analysis failed loses no failure: every failing case that no finding or cluster holds is
    listed as unexplained, and the event (printed by the summary, first in the findings) says the analysis
    did not finish."""
    held = {cid for f in result.findings for cid in f.cases}
    held |= {cid for c in getattr(result, "clusters", []) for cid in c.cases}
    failing = [c["id"] for c, o in zip(result.cases, result.outcomes) if o is not None and o.status == "fail"]
    result.unexplained = sorted(set(result.unexplained) | {cid for cid in failing if cid not in held})
    result.events.append({"kind": "attribution_failed", "message": (
        f"the analysis of the failures failed ({error.__class__.__name__}: {error}): the findings are "
        f"incomplete, and {len(result.unexplained)} failing case(s) in none are listed as unexplained")[:2000]})


def exit_status(results, interrupts, problem: str | None) -> int:
    """2 when the reports could not be written, the signal's status when one stopped the run, 130 when it
    was interrupted, 1 when any engine failed or had no case judged (never a silent green), else 0."""
    if problem:
        return 2
    if interrupts.status is not None:
        return interrupts.status
    if any(r.interrupted for r in results):
        return 130
    return 1 if any(r.failed or r.nothing_judged for r in results) else 0


def nothing_judged_lines(results) -> list[str]:
    """Why a run that judged no case of an engine is not green: one line per such engine."""
    out = []
    for r in results:
        if r.nothing_judged:
            why = next((e["message"] for e in r.events if e["kind"] == "nothing_judged"), "no case was judged")
            out.append(f"{' '.join(r.command)}: {why}")
    return out


# --------------------------------------------------------------------------- the generated stage

def _generated(plan: RunPlan, engines, rulesets, wanted, deviations, interrupts, echo) -> Conformed:
    """The Hypothesis suite through the protocol: one property per ruleset and operation, reported as the
    seeded run is (one case per property: its shrunk disagreement, or how many positions passed)."""
    from conformance.generation.generated_parallel import run_generated
    from conformance.generation.suite import EngineUnavailable
    from conformance.protocol import messages as protocol
    from conformance.running import supervise
    from conformance.running.expectations import apply_expectations
    from conformance.running.runner import RunResult
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    start = time.monotonic()
    echo(_said(plan, "run.properties", n=len(rulesets) * len(wanted), profile=plan.generated,
               workers=_workers(plan)))
    try:
        with interrupts.armed():
            engine = run_generated(engines[0], plan.timeout, rulesets, wanted, plan.generated, plan.seed,
                                   jobs=plan.jobs, scheduler=plan.scheduler)
    except KeyboardInterrupt:
        supervise.end_children()
        return Conformed(problem=None, status=interrupts.status or 130)
    except (EngineUnavailable, RuntimeError) as e:   # no engine, or the Dask scheduler cannot be reached
        raise UsageProblem(str(e)) from None
    finally:
        supervise.end_children()
    outcomes = engine.outcomes
    narrowed = protocol.narrowed(engine.fields)   # partial answers, declared: said beside the property
    lines = [(o, engine.fields[o.op] if o.op in narrowed else None) for o in outcomes]
    cases, results = generated_outcomes(outcomes)
    apply_expectations(cases, results, deviations)
    events = [{"kind": "stale_expectation", "message": f"no case matched the expected deviation ({d.label()})"}
              for d in deviations if d.matched == 0]
    result = RunResult(cases, results, engine.handshake, list(engine.argv), started, time.monotonic() - start,
                       False, engine.restarts, 0, "", events, list(deviations), rulesets=rulesets,
                       ops=wanted, source=f"generated ({plan.generated})", seed=plan.seed)
    done = finish(plan, [result], interrupts, analyse=False)
    done.drawn = [o.disagreement for o in outcomes if o.disagreement is not None]
    done.properties = lines
    return done


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


def _said(plan: RunPlan, key: str, **values) -> str:
    """A line the run prints, in the run's language (``--lang``: labels.TEXTS)."""
    from conformance.reporting.labels import texts
    return texts(plan.lang)[key].format(**values)


def _workers(plan: RunPlan) -> str:
    """Where the generated properties run, in the run's language."""
    from conformance.reporting.labels import texts
    from conformance.running.parallel import describe
    return describe(plan.jobs, plan.scheduler, texts(plan.lang))
