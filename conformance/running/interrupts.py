"""SIGINT and SIGTERM for a run that must always end with its report.

:class:`Interrupts` installs its handlers before any work starts. While it is
*armed* (generating cases, running them), the first signal raises
:class:`KeyboardInterrupt` where the program is, which the runner turns into
an interrupted run; any later signal, and every signal while disarmed
(stopping the engine, writing the report), is only remembered. So a second
Ctrl-C, or a SIGTERM while the report is written, never loses a file. The
exit status a signal asks for is :attr:`Interrupts.status`: 130 for SIGINT,
143 for SIGTERM (128 + the signal number, as a shell reports a process
killed by it).
"""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

SIGNALS = tuple(s for s in (getattr(signal, "SIGINT", None), getattr(signal, "SIGTERM", None)) if s is not None)

_early: list[int] = []   # signals noted by catch_early() before an Interrupts took over


def _note(signum, frame) -> None:
    _early.append(signum)


def catch_early() -> None:
    """Note SIGINT and SIGTERM from now on (the command line has not been read yet); the
    :class:`Interrupts` installed next finds them."""
    if threading.current_thread() is threading.main_thread():
        for s in SIGNALS:
            signal.signal(s, _note)


class Interrupts:
    """``keep``: on leaving the block, ignore the signals rather than restore the old handlers (for
    a command that ends with the block: its exit status is decided, and Python's own shutdown,
    which puts back the default handlers, would let a late signal kill it)."""

    def __init__(self, keep: bool = False):
        self.keep = keep
        self.received: int | None = None   # the first signal that came
        self.count = 0
        self._armed = False
        self._old: dict[int, object] = {}

    def __enter__(self) -> "Interrupts":
        if threading.current_thread() is threading.main_thread():
            for s in SIGNALS:
                old = signal.signal(s, self._handle)
                self._old[s] = signal.default_int_handler if s == signal.SIGINT and old is _note else (
                    signal.SIG_DFL if old is _note else old)
        if _early:
            self.received, self.count = _early[0], len(_early)
            _early.clear()
        return self

    def __exit__(self, *exc) -> None:
        for s, old in self._old.items():
            signal.signal(s, signal.SIG_IGN if self.keep else old)
        self._old.clear()

    def _handle(self, signum, frame) -> None:
        self.count += 1
        first = self.received is None
        if first:
            self.received = signum
        if first and self._armed:
            self._armed = False
            raise KeyboardInterrupt

    @contextmanager
    def armed(self):
        """Within this block the first signal interrupts; outside it signals are only noted."""
        if self.received is not None:  # a signal came while disarmed: stop before starting
            raise KeyboardInterrupt
        self._armed = True
        try:
            yield self
        finally:
            self._armed = False

    @property
    def status(self) -> int | None:
        """128 + the first signal's number, or None when no signal came."""
        return None if self.received is None else 128 + int(self.received)

    @property
    def name(self) -> str:
        return "" if self.received is None else signal.Signals(self.received).name
