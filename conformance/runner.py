"""The conformance runner: drive an engine through the protocol and judge its answers.

An :class:`EngineProcess` is one engine subprocess (started without a shell,
in its own process group) with non-blocking pipes watched by one selector:
requests are written as the pipe accepts them, stdout is split into lines by
a bounded reader (a line longer than ``line_cap`` is discarded as it streams
in and reported as ``line_too_long``), stderr is drained into a bounded ring
buffer. Nothing the engine prints can make the runner block or grow without
bound.

:class:`Runner` pipelines requests (up to ``window`` unanswered) and reads
answers in order. Each case ends in exactly one outcome:

* ``pass`` / ``fail`` — the engine answered with a result that agrees, or not;
* ``skipped`` — the engine said ``skipped``, or does not support the ruleset
  or operation (kinds ``engine_skipped``, ``ruleset_not_supported``,
  ``op_not_supported``), or the run ended before the case (``not_run``);
* ``errored`` — kinds ``engine_errored`` (the engine answered ``errored``),
  ``invalid_json``, ``invalid_answer`` (schema), ``wrong_seq``,
  ``line_too_long``, ``timeout``, ``crash``, ``handshake_failed``,
  ``engine_unavailable`` (restart budget spent).

After a crash or a timeout the engine is restarted (new handshake) and the
unanswered requests are sent again; the request blamed is the oldest
unanswered one, which a sequential engine was working on.
"""
from __future__ import annotations

import fnmatch
import json
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from . import protocol
from .protocol import ProtocolError

LINE_CAP = 1 << 20          # 1 MiB: longer answer lines are discarded
STDERR_KEEP = 64 << 10      # the last 64 KiB of stderr are kept
STDERR_FLOOD = 1 << 20      # more than this on stderr is reported as a flood
ANSWER_KEEP = 4000          # characters of a bad answer kept in the report


# --------------------------------------------------------------------------- the engine process

class LineSplitter:
    """Split a byte stream into lines, holding at most ``cap`` bytes of an unfinished line.

    Complete lines go to ``lines`` as ``("line", bytes)``; a line longer than
    ``cap`` is dropped as it streams in and recorded as ``("oversized", n)``
    with its length. Blank lines are ignored.
    """

    def __init__(self, cap: int = LINE_CAP):
        self.cap = cap
        self.partial = bytearray()
        self.discarding = 0      # >0: inside an oversized line, bytes so far
        self.lines: deque = deque()

    def feed(self, data: bytes) -> None:
        start = 0
        cap = self.cap
        while True:
            i = data.find(b"\n", start)
            if i < 0:
                rest = len(data) - start
                if self.discarding:
                    self.discarding += rest
                elif rest:
                    self.partial += data[start:]
                    if len(self.partial) > cap:
                        self.discarding = len(self.partial)
                        self.partial = bytearray()
                return
            if self.discarding:
                self.lines.append(("oversized", self.discarding + i - start))
                self.discarding = 0
            else:
                if self.partial:
                    self.partial += data[start:i]
                    piece = bytes(self.partial)
                    self.partial = bytearray()
                else:
                    piece = data[start:i]
                if len(piece) > cap:
                    self.lines.append(("oversized", len(piece)))
                elif piece.strip():
                    self.lines.append(("line", piece))
            start = i + 1

    def close(self) -> None:
        """End of stream: a last line without its newline still counts."""
        if self.partial or self.discarding:
            self.feed(b"\n")


class EngineProcess:
    """One engine subprocess with bounded, non-blocking I/O."""

    def __init__(self, argv: list[str], line_cap: int = LINE_CAP, stderr_keep: int = STDERR_KEEP,
                 env: dict | None = None, cwd: str | None = None):
        self.argv = argv
        self.line_cap = line_cap
        self.stderr_keep = stderr_keep
        self.env = env
        self.cwd = cwd
        self.proc: subprocess.Popen | None = None
        self.stderr_bytes = 0
        self._stderr = bytearray()

    def start(self) -> None:
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, bufsize=0, start_new_session=True,
                                     env=self.env, cwd=self.cwd)
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
        return self.proc.poll() if self.proc else None

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
            rc = self.proc.poll()
            if rc is not None:
                return rc
            self.lines.clear()
            self.poll(min(0.05, deadline - time.monotonic()))
        return self.proc.poll()

    def kill(self) -> int | None:
        """End the engine (its whole process group) and release the pipes."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                try:
                    self.proc.kill()
                except ProcessLookupError:
                    pass
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
        """Ask the engine to shut down, then close its stdin, then kill it."""
        if self.proc is None or self.proc.poll() is not None:
            self.kill()
            return
        self.send(protocol.encode(protocol.shutdown_request(seq)))
        self.close_stdin()
        self.wait_exit(grace)
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


# --------------------------------------------------------------------------- outcomes and expectations

STATUSES = ("pass", "fail", "skipped", "errored", "xfail", "xpass")


@dataclass
class Outcome:
    status: str
    kind: str = ""
    message: str = ""
    answer: Any = None
    seconds: float = 0.0
    charged: tuple[str, ...] = ()    # a failure: the clauses that decided the answer it differs on


@dataclass
class Deviation:
    reason: str
    case: str | None = None
    op: str | None = None
    ruleset: str | None = None
    clause: str | None = None
    issue: str | None = None
    matched: int = 0

    def matches(self, case: dict) -> bool:
        if self.case is not None and not fnmatch.fnmatchcase(case["id"], self.case):
            return False
        if self.op is not None and case["op"] != self.op:
            return False
        if self.ruleset is not None and case["ruleset"] != self.ruleset:
            return False
        if self.clause is not None and self.clause not in case.get("clauses", ()):
            return False
        return True

    def label(self) -> str:
        parts = [f"{k}={v}" for k, v in (("case", self.case), ("op", self.op), ("ruleset", self.ruleset),
                                          ("clause", self.clause)) if v is not None]
        return ", ".join(parts)


class ExpectationError(ValueError):
    pass


def load_expectations(path: str | Path) -> list[Deviation]:
    """Read an expectation file (JSON, or TOML by its .toml suffix) of known deviations."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ExpectationError(f"{path}: {e.strerror or e}") from None
    try:
        if path.suffix == ".toml":
            import tomllib
            data = tomllib.loads(text)
        else:
            data = json.loads(text)
    except ValueError as e:
        raise ExpectationError(f"{path}: not valid {'TOML' if path.suffix == '.toml' else 'JSON'}: {e}") from None
    errors = protocol.schema_errors("expectations", data)
    if errors:
        raise ExpectationError(f"{path}: " + "; ".join(errors))
    return [Deviation(**d) for d in data["deviations"]]


# --------------------------------------------------------------------------- the run

@dataclass
class RunResult:
    cases: list[dict]
    outcomes: list[Outcome | None]
    handshake: dict | None
    command: list[str]
    started: str
    duration: float
    interrupted: bool
    restarts: int
    stderr_bytes: int
    stderr_tail: str
    events: list[dict] = field(default_factory=list)
    deviations: list[Deviation] = field(default_factory=list)
    rulesets: list[str] = field(default_factory=list)
    ops: list[str] = field(default_factory=list)
    source: str = ""
    seed: int | None = None
    findings: list = field(default_factory=list)     # conformance.attribution.Finding, by ruleset order
    unexplained: list[str] = field(default_factory=list)

    def counts(self, indices: Iterable[int] | None = None) -> dict:
        c = dict.fromkeys(STATUSES, 0)
        for i in (range(len(self.cases)) if indices is None else indices):
            o = self.outcomes[i]
            c[o.status if o else "skipped"] += 1
        return c

    @property
    def failed(self) -> bool:
        """Whether the run found a failure: a fail, an errored case, or a known deviation that now passes."""
        return any(o.status in ("fail", "errored", "xpass") for o in self.outcomes)


class _Sent:
    __slots__ = ("index", "seq", "sent")

    def __init__(self, index: int, seq: int, sent: float):
        self.index, self.seq, self.sent = index, seq, sent


class HandshakeError(Exception):
    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


class Runner:
    """Run cases against one engine command."""

    def __init__(self, command: str | list[str], timeout: float = 5.0, window: int = 32,
                 max_restarts: int = 10, handshake_timeout: float | None = None, strict_schema: bool = False,
                 line_cap: int = LINE_CAP, progress: Callable[[int, int, dict], None] | None = None,
                 env: dict | None = None, cwd: str | None = None):
        self.argv = engine_argv(command)
        self.timeout = timeout
        self.window = max(1, window)
        self.max_restarts = max_restarts
        self.handshake_timeout = handshake_timeout if handshake_timeout is not None else max(timeout, 30.0)
        self.strict_schema = strict_schema
        self.line_cap = line_cap
        self.progress = progress
        self.env = env
        self.cwd = cwd
        self.seq = 0
        self.restarts = 0
        self.events: list[dict] = []
        self.engine: EngineProcess | None = None
        self.handshake: dict | None = None
        self._stderr_bytes = 0
        self._stderr_tail = ""
        self.handshake_seconds = 0.0   # time spent starting engines and shaking hands

    # ----- engine lifetime
    def _next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def _start(self) -> dict:
        """Start the engine and shake hands; the handshake result (raises HandshakeError)."""
        t0 = time.monotonic()
        try:
            return self._shake_hands()
        finally:
            self.handshake_seconds += time.monotonic() - t0

    def _shake_hands(self) -> dict:
        self.engine = EngineProcess(self.argv, self.line_cap, env=self.env, cwd=self.cwd)
        try:
            self.engine.start()
        except OSError as e:
            self.engine = None
            raise HandshakeError("handshake_failed", f"cannot start {shlex.join(self.argv)}: {e}") from None
        seq = self._next_seq()
        from .engine import engine_version
        self.engine.send(protocol.encode(protocol.handshake_request(seq, engine_version())))
        kind, data = self.engine.next_line(time.monotonic() + self.handshake_timeout)
        if kind == "eof":
            rc = self.engine.wait_exit(1.0)
            raise HandshakeError("handshake_failed", f"the engine exited during the handshake (exit status {rc})"
                                 + self._stderr_note())
        if kind == "timeout":
            raise HandshakeError("handshake_failed", f"no handshake answer within {self.handshake_timeout:g} s")
        if kind == "oversized":
            raise HandshakeError("handshake_failed", f"the handshake answer is a line of {data} bytes")
        try:
            msg = json.loads(data)
        except ValueError:
            raise HandshakeError("handshake_failed", f"the handshake answer is not JSON: {_clip(data)}") from None
        try:
            status = protocol.check_answer("handshake", msg)
        except ProtocolError as e:
            raise HandshakeError("handshake_failed", f"invalid handshake answer: {e}") from None
        if msg["seq"] != seq:
            raise HandshakeError("handshake_failed", f"the handshake answer has seq {msg['seq']}, not {seq}")
        if status != "result":
            raise HandshakeError("handshake_failed", f"the engine answered the handshake with {status}: "
                                 + json.dumps(msg[status], ensure_ascii=False)[:500])
        result = msg["result"]
        if result["protocol"] != protocol.PROTOCOL_VERSION:
            raise HandshakeError("handshake_failed", f"the engine speaks protocol {result['protocol']}, "
                                 f"the runner {protocol.PROTOCOL_VERSION}")
        return result

    def _stderr_note(self) -> str:
        tail = self.engine.stderr_tail(600).strip() if self.engine else ""
        return f"; stderr: {tail}" if tail else ""

    def _stop(self, graceful: bool = True) -> None:
        if self.engine is None:
            return
        if graceful:
            self.engine.stop(self._next_seq())
        else:
            self.engine.kill()
        self._account_stderr()
        self.engine = None

    def _account_stderr(self) -> None:
        e = self.engine
        if e is None:
            return
        self._stderr_bytes += e.stderr_bytes
        tail = e.stderr_tail(4000)
        if tail:
            self._stderr_tail = tail
        e.stderr_bytes = 0

    def _event(self, kind: str, message: str) -> None:
        if len(self.events) < 1000:
            self.events.append({"kind": kind, "message": message})

    # ----- running
    def run(self, cases: list[dict], deviations: list[Deviation] | None = None, **meta) -> RunResult:
        from datetime import datetime, timezone
        started = datetime.now(timezone.utc).isoformat(timespec="seconds")
        t0 = time.monotonic()
        outcomes: list[Outcome | None] = [None] * len(cases)
        interrupted = False
        self._done = 0
        self._tally = dict.fromkeys(STATUSES, 0)
        try:
            self._run(cases, outcomes)
        except KeyboardInterrupt:
            interrupted = True
            self._event("interrupted", "the run was interrupted; cases not run are reported as skipped (not_run)")
        finally:
            old = signal.signal(signal.SIGINT, signal.SIG_IGN) if _main_thread() else None
            try:
                self._stop(graceful=not interrupted)
            finally:
                if old is not None:
                    signal.signal(signal.SIGINT, old)
        for i, o in enumerate(outcomes):
            if o is None:
                outcomes[i] = Outcome("skipped", "not_run", "the run was interrupted before this case"
                                      if interrupted else "the run ended before this case")
        deviations = list(deviations or [])
        apply_expectations(cases, outcomes, deviations)
        if self._stderr_bytes > STDERR_FLOOD:
            self._event("stderr_flood", f"the engine wrote {self._stderr_bytes} bytes to stderr "
                        f"(kept the last {STDERR_KEEP})")
        for d in deviations:
            if d.matched == 0:
                self._event("stale_expectation", f"no case matched the expected deviation ({d.label()})")
        return RunResult(cases, outcomes, self.handshake, self.argv, started, time.monotonic() - t0, interrupted,
                         self.restarts, self._stderr_bytes, self._stderr_tail, self.events, deviations, **meta)

    def _record(self, outcomes, index: int, outcome: Outcome) -> None:
        outcomes[index] = outcome
        self._done += 1
        self._tally[outcome.status] += 1
        if self.progress:
            self.progress(self._done, len(outcomes), self._tally)

    def _run(self, cases: list[dict], outcomes: list) -> None:
        try:
            self.handshake = self._start()
        except HandshakeError as e:
            self._event(e.kind, str(e))
            self._stop(graceful=False)
            for i in range(len(cases)):
                self._record(outcomes, i, Outcome("errored", e.kind, str(e)))
            return
        todo: deque[int] = deque()
        for i, case in enumerate(cases):
            why = self._unsupported(case)
            if why:
                self._record(outcomes, i, Outcome("skipped", why[0], why[1]))
            else:
                todo.append(i)
        outstanding: deque[_Sent] = deque()
        last_answer = time.monotonic()
        while todo or outstanding:
            engine = self.engine
            if todo and len(outstanding) <= self.window // 2:
                # refill the window in one write: the engine then reads many requests per read
                batch = []
                now = time.monotonic()
                while todo and len(outstanding) < self.window:
                    i = todo.popleft()
                    seq = self._next_seq()
                    c = cases[i]
                    batch.append(protocol.encode(protocol.request(seq, c["op"], c["ruleset"], c["input"])))
                    outstanding.append(_Sent(i, seq, now))
                engine.send(b"".join(batch))
            head = outstanding[0]
            deadline = max(head.sent, last_answer) + self.timeout
            kind, data = engine.next_line(deadline)
            now = time.monotonic()
            if kind in ("line", "oversized"):
                outstanding.popleft()
                spent = now - max(head.sent, last_answer)
                last_answer = now
                case = cases[head.index]
                if kind == "oversized":
                    o = Outcome("errored", "line_too_long",
                                f"the answer is a line of {data} bytes (the limit is {self.line_cap}); discarded")
                else:
                    o = self._judge_line(case, head.seq, data)
                o.seconds = spent
                self._record(outcomes, head.index, o)
                continue
            # the engine died or hangs: blame the oldest unanswered request, restart, resend the rest
            if kind == "eof":
                rc = engine.wait_exit(1.0)
                msg = f"the engine exited (status {rc}) while answering this request" + self._stderr_note()
                o = Outcome("errored", "crash", msg)
                self._event("crash", f"seq {head.seq}: {msg}")
            else:
                o = Outcome("errored", "timeout", f"no answer within {self.timeout:g} s; the engine was killed")
                self._event("timeout", f"seq {head.seq}: no answer within {self.timeout:g} s")
            outstanding.popleft()
            self._record(outcomes, head.index, o)
            for s in reversed(outstanding):
                todo.appendleft(s.index)
            outstanding.clear()
            self._stop(graceful=False)
            if not todo:
                break
            if self.restarts >= self.max_restarts:
                msg = f"the engine was restarted {self.restarts} times; giving up"
                self._event("engine_unavailable", msg)
                for i in todo:
                    self._record(outcomes, i, Outcome("errored", "engine_unavailable", msg))
                return
            self.restarts += 1
            try:
                self._start()
            except HandshakeError as e:
                msg = f"restart failed: {e}"
                self._event("engine_unavailable", msg)
                self._stop(graceful=False)
                for i in todo:
                    self._record(outcomes, i, Outcome("errored", "engine_unavailable", msg))
                return
            last_answer = time.monotonic()

    def _unsupported(self, case: dict) -> tuple[str, str] | None:
        hs = self.handshake
        if case["ruleset"] not in hs["rulesets"] and "*" not in hs["rulesets"]:
            return ("ruleset_not_supported", f"the engine does not support ruleset {case['ruleset']}")
        if case["op"] not in hs["operations"]:
            return ("op_not_supported", f"the engine does not support the operation {case['op']}")
        return None

    def _judge_line(self, case: dict, seq: int, line: bytes) -> Outcome:
        try:
            msg = json.loads(line)
        except ValueError as e:
            return Outcome("errored", "invalid_json", f"the answer is not JSON ({e})", _clip(line))
        op = case["op"]
        try:
            status = protocol.check_answer(op, msg)
        except ProtocolError as e:
            return Outcome("errored", e.kind, str(e), _keep(msg))
        if self.strict_schema:
            errs = protocol.schema_errors("answer", msg)
            if not errs and status == "result":
                errs = protocol.schema_errors(f"{op}.result", msg["result"])
            if errs:
                return Outcome("errored", "invalid_answer", "; ".join(errs), _keep(msg))
        if msg["seq"] != seq:
            return Outcome("errored", "wrong_seq", f"the answer has seq {msg['seq']}, the request {seq}", _keep(msg))
        if status == "skipped":
            s = msg["skipped"]
            note = s["reason"] + (f" ({s['issue']})" if s.get("issue") else "")
            return Outcome("skipped", "engine_skipped", note)
        if status == "errored":
            return Outcome("errored", "engine_errored", msg["errored"]["message"][:1000], _keep(msg))
        result = msg["result"]
        diffs = protocol.compare(op, case["expected"], result)
        if diffs:
            return Outcome("fail", "disagrees", "; ".join(diffs), _keep(result))
        return Outcome("pass")


def apply_expectations(cases: list[dict], outcomes: list[Outcome], deviations: list[Deviation]) -> None:
    """Known deviations: a matching failure becomes ``xfail``; a matching pass is an ``xpass`` (a failure)."""
    if not deviations:
        return
    for i, case in enumerate(cases):
        for d in deviations:
            if d.matches(case):
                d.matched += 1
                o = outcomes[i]
                if o.status in ("fail", "errored"):
                    o.message = f"known deviation ({d.reason}): {o.message}"
                    o.status = "xfail"
                elif o.status == "pass":
                    o.status, o.kind = "xpass", "fixed"
                    o.message = (f"listed as a known deviation ({d.reason}) but passes: "
                                 f"remove it from the expectation file")
                break


def _main_thread() -> bool:
    import threading
    return threading.current_thread() is threading.main_thread()


def _clip(data: bytes | str, limit: int = 300) -> str:
    s = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return s if len(s) <= limit else s[:limit] + f"… ({len(s)} characters)"


def _keep(value: Any) -> Any:
    s = json.dumps(value, ensure_ascii=False)
    return value if len(s) <= ANSWER_KEEP else s[:ANSWER_KEEP] + f"… ({len(s)} characters)"


# --------------------------------------------------------------------------- sources of cases

def generated_cases(rulesets: list[str], ops: list[str] | None, seed: int, count: int | None) -> list[dict]:
    from .cases import suite
    out: list[dict] = []
    for rs in rulesets:
        out.extend(suite(rs, ops, seed=seed, counts=count))
    return out


VECTOR_DIR = Path(__file__).parent / "vectors"


def vector_cases(directory: str | Path | None = None, rulesets: list[str] | None = None,
                 ops: list[str] | None = None) -> list[dict]:
    """The checked-in (or exported) vectors, filtered by ruleset and operation."""
    directory = Path(directory) if directory else VECTOR_DIR
    out: list[dict] = []
    for path in sorted(directory.glob("*/*.jsonl")):
        rs, op = path.parent.name, path.stem
        if rulesets and rs not in rulesets:
            continue
        if ops and op not in ops:
            continue
        with path.open(encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    out.append(json.loads(line))
    return out
