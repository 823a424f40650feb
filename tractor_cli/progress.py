"""What ``tractor conform`` shows on stderr while it runs.

On a terminal, a rich progress display appears at once: a spinner while the
cases are prepared (generating them can take seconds), then a bar with the
ruleset and operation of the case being answered, the tally so far, the rate
and the time left. Anywhere else (a file, a pipe, ``TERM=dumb``) there is no
bar and no escape code: with ``--progress`` the same facts are written as plain
lines, every few seconds and at the end; without it, nothing.
"""
from __future__ import annotations

import time

from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TaskProgressColumn, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)

from . import ui

LINE_EVERY = 2.0   # seconds between two plain progress lines


def fitting_columns(width: int, *, tally: bool = False, describe: int = 22) -> list:
    """Columns of a rich :class:`~rich.progress.Progress` that fit a terminal ``width`` columns wide: rich
    gives a bar what the other columns leave, so at 80 columns the full set left the bar one glyph and an
    ellipsis. Wide: everything; 80 columns: the description, a bar of 12 or more, count, percentage, the
    failures and the time left; 40: count, percentage and time left (issue 33)."""
    tally_col = [TextColumn("{task.fields[tally]}")] if tally else []
    short = [TextColumn("{task.fields[short]}")] if tally else []
    if width >= 130:
        return [SpinnerColumn(), TextColumn(f"{{task.description:<{describe}}}"), BarColumn(), MofNCompleteColumn(),
                TaskProgressColumn(), *tally_col, TextColumn("eta"), TimeRemainingColumn(),
                TextColumn("elapsed"), TimeElapsedColumn()]
    if width >= 70:
        rest = 2 + 12 + 5 + (17 if tally else 0) + 8   # spinner, count, percentage, failures, time left
        text = min(describe, max(8, width - rest - 18))
        bar = max(10, width - rest - text - 2)
        return [SpinnerColumn(), TextColumn(f"{{task.description:<{text}.{text}}}"), BarColumn(bar_width=bar),
                MofNCompleteColumn(), TaskProgressColumn(), *short, TimeRemainingColumn()]
    return [MofNCompleteColumn(), TaskProgressColumn(), *(short if width >= 50 else []), TimeRemainingColumn()]


def short_tally(tally: dict) -> str:
    """The failures alone, for a narrow terminal: what a reader watches for."""
    return f"fail {tally['fail'] + tally['xpass']} err {tally['errored']}"
BAR_EVERY = 0.05   # seconds between two updates of the bar (the runner reports every case)


def tally_text(tally: dict) -> str:
    bad = tally["fail"] + tally["xpass"]
    return (f"pass {tally['pass']} fail {bad} skip {tally['skipped'] + tally['xfail']} err {tally['errored']}")


class ConformProgress:
    """A context manager; ``preparing(...)`` while cases are made, ``start(cases)``, then the runner's callback.

    ``wanted``: True (``--progress``), False (``--no-progress``) or None (when stderr is a terminal).
    """

    def __init__(self, wanted: bool | None, console=None):
        self.console = console or ui.console(stderr=True)
        terminal = self.console.is_terminal and not self.console.is_dumb_terminal
        self.mode = None if wanted is False else "bar" if terminal else "lines" if wanted else None
        self.progress: Progress | None = None
        self.task = None
        self.cases: list[dict] = []
        self.start_time = time.monotonic()
        self.last = 0.0

    def __enter__(self):
        if self.mode == "bar":
            self.progress = Progress(*fitting_columns(self.console.width, tally=True), console=self.console,
                                     transient=True, refresh_per_second=10)
            self.progress.start()
            self.task = self.progress.add_task("preparing the cases", total=None, tally="", short="")
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None

    def preparing(self, what: str) -> None:
        """Say what is being prepared (a spinner on a terminal, a line elsewhere)."""
        if self.progress is not None:
            self.progress.update(self.task, description=what)
        elif self.mode == "lines":
            self.console.print(what + " …", soft_wrap=True)

    def start(self, cases: list[dict]) -> None:
        self.cases = cases
        self.start_time = self.last = time.monotonic()  # the first plain line after LINE_EVERY, with an ETA
        if self.progress is not None:
            zero = dict.fromkeys(("pass", "fail", "xpass", "skipped", "xfail", "errored"), 0)
            self.progress.reset(self.task, total=len(cases), description=self._where(0), tally=tally_text(zero),
                                short=short_tally(zero))

    def _where(self, done: int) -> str:
        if not self.cases:
            return ""
        case = self.cases[min(done, len(self.cases) - 1)]
        return f"{case.get('ruleset', '?')} {case.get('op', '?')}"

    def __call__(self, done: int, total: int, tally: dict) -> None:
        """The runner's callback after each answered case."""
        now = time.monotonic()
        if self.progress is not None:
            if now - self.last >= BAR_EVERY or done >= total:
                self.last = now
                self.progress.update(self.task, completed=done, description=self._where(done), tally=tally_text(tally),
                                     short=short_tally(tally))
        elif self.mode == "lines" and (now - self.last >= LINE_EVERY or done >= total) and done:
            self.last = now
            elapsed = now - self.start_time
            eta = (total - done) * elapsed / done if done else 0.0
            self.console.print(f"{done}/{total} {tally_text(tally)}  {self._where(done)}  "
                               f"{elapsed:.0f} s, about {eta:.0f} s left", soft_wrap=True)
