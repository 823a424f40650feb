"""One engine subprocess: started without a shell in a session of its own, read and written
without blocking and within bounds, and ended with everything it started.

Requests are written as the pipe accepts them, stdout is split into lines by a
bounded reader (:class:`~conformance.protocol.jsonlines.LineSplitter`: a line longer
than ``line_cap`` is discarded as it streams in), stderr is drained into a
bounded ring buffer, so nothing the engine prints can make the runner block or
grow without bound. :meth:`EngineProcess.kill` ends the engine's process
group, session and tagged descendants (:mod:`conformance.running.supervise`) whether
or not the engine itself is still running.
"""
from __future__ import annotations

import os
import selectors
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tractor_dsl import limits

from conformance.protocol import messages as protocol
from conformance.running import supervise
from conformance.protocol.jsonlines import LineSplitter


class EngineProcess:
    """One engine subprocess with bounded, non-blocking I/O."""

    def __init__(self, argv: list[str], line_cap: int = limits.LINE_BYTES, stderr_keep: int = limits.STDERR_KEEP,
                 env: dict | None = None, cwd: str | None = None):
        self.argv = argv
        self.line_cap = line_cap
        self.stderr_keep = stderr_keep
        self.env = env
        self.cwd = cwd
        self.proc: subprocess.Popen | None = None
        self.stderr_bytes = 0
        self._stderr = bytearray()
        self.tag = supervise.new_tag()
        self.strays = 0   # processes found and killed outside the engine's process group

    def start(self) -> None:
        supervise.become_subreaper()
        env = dict(os.environ if self.env is None else self.env)
        env[supervise.TAG_VARIABLE] = self.tag
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, bufsize=0, start_new_session=True,
                                     env=env, cwd=self.cwd)
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        self._err = self.proc.stderr.fileno()
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self._out, selectors.EVENT_READ, "out")
        self.sel.register(self._err, selectors.EVENT_READ, "err")
        self._pending = bytearray()      # bytes not yet written to stdin
        self._writing = False
        self._stdin_open = True
        self.splitter = LineSplitter(self.line_cap)
        self.lines = self.splitter.lines
        self.eof = False

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def returncode(self) -> int | None:
        """The leader's exit status, without reaping it (its id then stays its group's until
        :meth:`kill`, so that killing the group can never hit a process that reused the id)."""
        if self.proc is None:
            return None
        if self.proc.returncode is not None or not hasattr(os, "waitid"):
            return self.proc.poll()
        try:
            info = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return self.proc.poll()
        if info is None:
            return None
        return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status

    # ----- writing
    def send(self, data: bytes) -> None:
        if not self._stdin_open:
            return
        self._pending += data
        self._flush()

    def _flush(self) -> None:
        while self._pending and self._stdin_open:
            try:
                n = os.write(self._in, self._pending)
            except BlockingIOError:
                break
            except (BrokenPipeError, OSError):
                self._stdin_open = False
                self._pending.clear()
                break
            del self._pending[:n]
        want = bool(self._pending) and self._stdin_open
        if want != self._writing:
            if want:
                self.sel.register(self._in, selectors.EVENT_WRITE, "in")
            else:
                self.sel.unregister(self._in)
            self._writing = want

    def close_stdin(self) -> None:
        if self._writing:
            self.sel.unregister(self._in)
            self._writing = False
        self._stdin_open = False
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    # ----- reading
    def _drain_stderr(self) -> None:
        try:
            data = os.read(self._err, 1 << 16)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self.sel.unregister(self._err)
            return
        self.stderr_bytes += len(data)
        self._stderr += data
        if len(self._stderr) > self.stderr_keep:
            del self._stderr[:len(self._stderr) - self.stderr_keep]

    def poll(self, timeout: float) -> None:
        """Wait up to ``timeout`` for I/O; read what is there, write what the pipe takes."""
        if not self.sel.get_map():
            time.sleep(max(0.0, min(timeout, 0.05)))
            return
        for key, _ in self.sel.select(max(0.0, timeout)):
            what = key.data
            if what == "out":
                try:
                    data = os.read(self._out, 1 << 16)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.eof = True
                    self.sel.unregister(self._out)
                    self.splitter.close()
                else:
                    self.splitter.feed(data)
            elif what == "err":
                self._drain_stderr()
            elif what == "in":
                self._flush()

    def next_line(self, deadline: float) -> tuple[str, Any]:
        """``("line", bytes)``, ``("oversized", n)``, ``("eof", None)`` or ``("timeout", None)``."""
        while True:
            if self.lines:
                return self.lines.popleft()
            if self.eof:
                return ("eof", None)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return ("timeout", None)
            self.poll(min(remaining, 0.25))

    def stderr_tail(self, limit: int = 2000) -> str:
        return bytes(self._stderr[-limit:]).decode("utf-8", "replace")

    def wait_exit(self, timeout: float) -> int | None:
        """Keep draining output until the process exits or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            rc = self.returncode()
            if rc is not None:
                return rc
            self.lines.clear()
            self.poll(min(0.05, deadline - time.monotonic()))
        return self.returncode()

    def wait_done(self, timeout: float) -> None:
        """Keep draining output until stdout closes and the leader exits, or ``timeout`` passes."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not (self.eof and self.returncode() is not None):
            self.lines.clear()
            self.poll(min(0.05, deadline - time.monotonic()))

    def kill(self) -> int | None:
        """End the engine and everything it started (its process group, its session, whatever
        carries its tag), whether or not the leader is still running, and release the pipes."""
        if self.proc is None:
            return None
        if self.proc.returncode is None:
            self.strays += supervise.kill_tree(self.proc.pid, self.tag)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        try:
            self.sel.close()
        except Exception:
            pass
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                f.close()
            except OSError:
                pass
        return self.proc.returncode

    def stop(self, seq: int, grace: float = 2.0) -> None:
        """Ask the engine to shut down, then close its stdin, wait for it to finish (stdout closed,
        leader gone) at most ``grace`` seconds, then kill whatever of it is left."""
        if self.proc is None:
            return
        if not self.eof:  # someone still holds stdout: maybe a child the leader handed over to
            self.send(protocol.encode(protocol.shutdown_request(seq)))
            self.close_stdin()
            self.wait_done(grace)
        self.kill()


def engine_argv(command: str | list[str]) -> list[str]:
    """The argv for an engine command (split like a shell would, run without one).

    ``tractor ...`` falls back to this Python's ``-m tractor_cli.main`` when no
    ``tractor`` executable is on PATH (e.g. in an un-activated venv).
    """
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    if not argv:
        raise ValueError("the engine command is empty")
    if argv[0] == "tractor" and shutil.which("tractor") is None:
        sibling = Path(sys.executable).with_name("tractor")
        argv = ([str(sibling)] if sibling.exists() else [sys.executable, "-m", "tractor_cli.main"]) + argv[1:]
    return argv
