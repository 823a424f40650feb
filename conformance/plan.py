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

REPORT_FILES = ("report.json", "junit.xml", "summary.md")
MATRIX_FILES = ("matrix.json", "matrix.md")
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
        out += _number("--timeout", self.timeout, TIMEOUT_RANGE)
        if self.handshake_timeout is not None:
            out += _number("--handshake-timeout", self.handshake_timeout, TIMEOUT_RANGE)
        out += _whole("--window", self.window, WINDOW_RANGE)
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
        if self.report:
            problem = report_dir_problem(self.report, MATRIX_FILES if len(self.engines) > 1 else REPORT_FILES)
            if problem:
                out.append(f"--report: {problem}")
        for option, path in (("--html", self.html), ("--write-expect", self.write_expect)):
            if path:
                problem = file_problem(path)
                if problem:
                    out.append(f"{option}: {problem}")
        if self.badges:
            problem = report_dir_problem(self.badges, ())
            if problem:
                out.append(f"--badges: {problem}")
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
    the folder is made if need be and a probe file written and removed."""
    directory = Path(path)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if not directory.is_dir():
            return f"{directory} is not a folder"
        for name in files:
            if (directory / name).is_dir():
                return f"{directory / name} is a folder, not a file"
        fd, probe = tempfile.mkstemp(prefix=".probe.", dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return f"cannot write to {directory}: {e.strerror or e}"
    return None


def file_problem(path: str) -> str | None:
    """Why one file cannot be written at ``path`` (None when it can): its folder must exist or be made, and
    take a probe file; the path itself must not be a folder."""
    target = Path(path)
    if target.is_dir():
        return f"{target} is a folder, not a file"
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
