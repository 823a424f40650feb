"""A conform run described in plain data: what ``tractor conform`` parses its options into, what the pytest
plugin builds from its options, and what a Python caller hands to :func:`conformance.conform.conform`.

:meth:`RunPlan.problems` checks every value before anything starts — finite, positive numbers in range, and
every path the run will write — so a bad value is one line and exit 2, never a run that hangs or a report
lost after the last case.
"""
from __future__ import annotations

import math
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from conformance.running.parallel import max_jobs

from conformance.reporting.report import MANIFEST, MATRIX_FILES, REPORT_FILES
from tractor_dsl.files import target_problem
# The limits of the numbers a plan takes (said in --help): wide enough for any real run, narrow enough that
# no value hangs a run or starts more processes than the machine can serve.
TIMEOUT_RANGE = (0.01, 86_400.0)
WINDOW_RANGE = (1, 10_000)
RESTARTS_RANGE = (0, 10_000)
SHOW_RANGE = (0, 10_000)
COUNT_RANGE = (0, 1_000_000)


@dataclass
class RunPlan:
    """Everything one conform run needs, as plain values (no argparse namespace).

    ``rulesets`` are bundled names or paths of rule files (``all``: every bundled ruleset; empty: those the
    engine's handshake lists). ``vectors`` is None to generate the cases, ``""`` for the bundled vectors, or a
    folder. ``report`` is the folder of the report files (None or ``""``: none). ``generated`` names a profile
    of the property-based stage instead of the seeded cases. ``engine_ruleset`` is the name an engine that
    knows only bundled names is asked a user's ruleset under: a bundled name, or ``extends`` for the bundled
    ruleset each file extends (None: the file's own name, announced in the handshake).
    """

    engines: list[str]
    rulesets: list[str] = field(default_factory=list)
    ops: list[str] | None = None
    seed: int = 0
    count: int | None = None
    vectors: str | None = None
    select: list[str] = field(default_factory=list)
    expect: str | None = None
    write_expect: str | None = None
    report: str | None = "reports/conform"
    html: str | None = None
    badges: str | None = None
    docs_url: str | None = None      # the rulebook site the HTML report links clauses to (None: this checkout's)
    lang: str = "en"                 # the language of the HTML report (conformance.reporting.labels.LANGS)
    timeout: float = 5.0
    handshake_timeout: float | None = None
    window: int = 32
    max_restarts: int = 10
    max_fail: int | None = None
    strict_schema: bool = False
    show: int = 3
    progress: bool | None = None
    generated: str | None = None
    jobs: int | None = None
    scheduler: str | None = None
    engine_ruleset: str | None = None

    def problems(self) -> list[str]:
        """Why this plan cannot run, one line each (empty when it can): every value and every path it writes."""
        out: list[str] = []
        if not self.engines:
            out.append("no engine: give --engine CMD")
        if any(not e.strip() for e in self.engines):
            out.append("--engine: an empty command")
        if self.ops is not None and (not self.ops or not all(isinstance(o, str) and o.strip() for o in self.ops)):
            out.append(f"--ops: an empty operation name in {self.ops!r} (leave ops out for every operation)")
        if not all(isinstance(r, str) and r.strip() for r in self.rulesets):
            out.append(f"--ruleset: an empty ruleset name in {self.rulesets!r}")
        out += _number("--timeout", self.timeout, TIMEOUT_RANGE)
        if self.handshake_timeout is not None:
            out += _number("--handshake-timeout", self.handshake_timeout, TIMEOUT_RANGE)
        out += _whole("--window", self.window, WINDOW_RANGE)
        from conformance.reporting.labels import LANGS
        if self.lang not in LANGS:
            out.append(f"--lang: unknown language {self.lang!r}; languages: {', '.join(LANGS)}")
        out += _whole("--max-restarts", self.max_restarts, RESTARTS_RANGE)
        out += _whole("--show", self.show, SHOW_RANGE)
        if self.count is not None:
            out += _whole("--count", self.count, COUNT_RANGE)
        if self.max_fail is not None:
            out += _whole("--max-fail", self.max_fail, (1, 10**9))
        if self.jobs is not None:
            out += _whole("--jobs", self.jobs, (1, max_jobs()))
        if self.generated and len(self.engines) > 1:
            out.append("--generated takes one --engine")
        if self.write_expect and len(self.engines) > 1:
            out.append("--write-expect writes one engine's expectations: give one --engine")
        out += output_problems(self)
        if self.engine_ruleset is not None:
            from reference_impl.rules import ruleset_names
            known = ruleset_names()
            if self.engine_ruleset != "extends" and self.engine_ruleset not in known:
                out.append(f"--engine-ruleset: {self.engine_ruleset!r} is no bundled ruleset "
                           f"(known: {', '.join(known)}, or 'extends')")
        if self.expect:
            problem = readable_problem(self.expect)
            if problem:
                out.append(f"--expect: {problem}")
        return out


@dataclass(frozen=True)
class Output:
    """One output of a run: a file (``--html``, ``--write-expect``) or a folder (``--report``, ``--badges``) with
    the ``names`` of the files it writes there that are known before the run, and the ``patterns`` of those
    known only after it (the engines' folders of a report, the engines' badges)."""

    option: str
    path: str
    folder: bool = False
    names: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()


def outputs(plan: RunPlan) -> list[Output]:
    """Every output of the run ``plan`` describes, computed once, before anything runs."""
    out = []
    if plan.report:
        several = len(plan.engines) > 1
        out.append(Output("--report", plan.report, True, (MATRIX_FILES if several else REPORT_FILES) + (MANIFEST,),
                          tuple(f"*/{n}" for n in REPORT_FILES) if several else ()))
    for option, path in (("--html", plan.html), ("--write-expect", plan.write_expect)):
        if path:
            out.append(Output(option, path))
    if plan.badges:
        out.append(Output("--badges", plan.badges, True, (), ("*.svg",)))
    return out


def _same(path) -> str:
    """A path as the file system names it: its folder resolved, its own name kept (a link is not followed)."""
    p = os.path.abspath(path)
    return os.path.join(os.path.realpath(os.path.dirname(p)), os.path.basename(p))


def output_problems(plan: RunPlan) -> list[str]:
    """Why the run's outputs cannot be written as given (empty when they can), before any case runs: two
    options naming one file, or a file in a name another option's folder writes (``--html DIR/report.json``
    with ``--report DIR``), found before any folder is made; then a folder that cannot be made or written, and
    a target that is not a regular file (a link, a pipe, a device, a folder:
    :func:`tractor_dsl.files.target_problem`)."""
    import fnmatch
    outs = outputs(plan)
    files = [(o.option, os.path.join(o.path, n)) for o in outs if o.folder for n in o.names]
    files += [(o.option, o.path) for o in outs if not o.folder]   # (option, path) of every file known up front
    problems: list[str] = []
    seen: dict[str, str] = {}
    for option, path in files:
        first = seen.setdefault(_same(path), option)
        if first != option:
            problems.append(f"{first} and {option} both name the file {path}: give them different paths")
    for o in (o for o in outs if o.folder):
        for option, path in files:
            mine = os.path.relpath(_same(path), _same(o.path))
            if option == o.option or mine.startswith(".."):
                continue
            if mine == ".":
                problems.append(f"{option} names {path}, the {o.option} folder: give them different paths")
            elif any(fnmatch.fnmatchcase(mine, p) and mine.count(os.sep) == p.count("/") for p in o.patterns):
                problems.append(f"{option} names {path}, a file the {o.option} folder {o.path} writes: "
                                "give it another path")
    if problems:
        return problems
    for o in outs:
        problem = report_dir_problem(o.path, o.names) if o.folder else file_problem(o.path)
        if problem:
            problems.append(f"{o.option}: {problem}")
    return problems


def _number(option: str, value, bounds: tuple[float, float]) -> list[str]:
    lo, hi = bounds
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        return [f"{option} must be a finite number of seconds, not {value!r}"]
    if not lo <= value <= hi:
        return [f"{option} must be between {lo:g} and {hi:g} seconds, not {value:g}"]
    return []


def _whole(option: str, value, bounds: tuple[int, int]) -> list[str]:
    lo, hi = bounds
    if not isinstance(value, int) or isinstance(value, bool):
        return [f"{option} must be a whole number, not {value!r}"]
    if not lo <= value <= hi:
        return [f"{option} must be between {lo:,} and {hi:,}, not {value:,}"]
    return []


def report_dir_problem(path: str, files: tuple[str, ...]) -> str | None:
    """Why a folder of report files cannot be written at ``path`` (None when it can), found before the run:
    the folder is made if need be and a probe file written and removed; each of ``files`` in it must be a
    regular file or not exist (:func:`tractor_dsl.files.target_problem`)."""
    directory = Path(path)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if not directory.is_dir():
            return f"{directory} is not a folder"
        for name in files:
            problem = target_problem(directory / name)
            if problem:
                return f"cannot write {directory / name}: {problem}"
        fd, probe = tempfile.mkstemp(prefix=".probe.", dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return f"cannot write to {directory}: {e.strerror or e}"
    return None


def file_problem(path: str) -> str | None:
    """Why one file cannot be written at ``path`` (None when it can): it must be a regular file or not exist
    (:func:`tractor_dsl.files.target_problem`: no link, folder, pipe or device), and its folder must exist or
    be made, and take a probe file."""
    target = Path(path)
    problem = target_problem(target)
    if problem:
        return f"cannot write {target}: {problem}"
    return report_dir_problem(str(target.parent if str(target.parent) else "."), ())


def readable_problem(path: str) -> str | None:
    """Why ``path`` cannot be read as a file (None when it can): a missing path, a folder, or no regular file
    (a device such as /dev/zero would be read forever)."""
    p = Path(path)
    try:
        if not p.exists():
            return f"no such file: {path}"
        if p.is_dir():
            return f"{path} is a folder, not a file"
        if not p.is_file():
            return f"{path} is not a regular file"
        with open(p, "rb"):
            pass
    except OSError as e:
        return f"cannot read {path}: {e.strerror or e}"
    return None
