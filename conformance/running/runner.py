"""The conformance runner: drive an engine through the protocol and judge its answers.

An :class:`~conformance.running.process.EngineProcess` is one engine subprocess
(started without a shell, in a session of its own, ended with everything it
started) read and written without blocking and within bounds: a line longer
than ``line_cap`` is discarded as it streams in and reported as
``line_too_long``. Every answer is decoded strictly
(:mod:`conformance.protocol.jsonlines`).

:class:`Runner` pipelines requests (up to ``window`` unanswered) and reads
answers in order, resynchronising by ``seq``: a line whose ``seq`` is not
the oldest unanswered request's is held until the next line shows what it was
(a duplicate, a stray line, an answer with a wrong ``seq``, or the sign that
the engine skipped a request), so that one bad line costs at most one case.
Each case ends in exactly one outcome:

* ``pass`` / ``fail`` — the engine answered with a result that agrees, or not;
* ``skipped`` — the engine said ``skipped``, or does not support the ruleset
  or operation (kinds ``engine_skipped``, ``ruleset_not_supported``,
  ``op_not_supported``), or the run ended before the case (``not_run``);
* ``errored`` — kinds ``engine_errored`` (the engine answered ``errored``),
  ``invalid_json``, ``not_utf8``, ``too_deep``, ``invalid_answer`` (schema),
  ``wrong_seq``, ``no_answer`` (later requests were answered, this one never),
  ``line_too_long``, ``timeout``, ``crash``, ``closed_stdout`` (stdout closed,
  process alive), ``handshake_failed``, ``engine_unavailable`` (restart budget
  spent).

After a crash or a timeout the engine is restarted (new handshake) and the
unanswered requests are sent again; the request blamed is the oldest
unanswered one, which a sequential engine was working on.
"""
from __future__ import annotations

import json
import shlex
import signal
import time
from collections import deque
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from tractor_dsl import limits

from conformance.protocol import messages as protocol
from conformance.protocol.jsonlines import BadMessage, LineSplitter, clean_text, decode, read_seq, scrub  # noqa: F401 (LineSplitter
from conformance.running.process import EngineProcess, engine_argv  # and these: imported from here elsewhere)
from conformance.running.expectations import Deviation, ExpectationError, apply_expectations, load_expectations  # noqa: F401
from conformance.protocol.messages import ProtocolError

LINE_CAP = limits.LINE_BYTES          # longer answer lines are discarded
STDERR_KEEP = limits.STDERR_KEEP      # the last bytes of stderr kept
STDERR_FLOOD = limits.STDERR_FLOOD    # more than this on stderr is reported as a flood
ANSWER_KEEP = limits.ANSWER_KEEP      # characters of a bad answer kept in the report
STOP_REQUESTED = "stopped on request"   # Runner.stopped when another thread asked (the caller says why)
HELD = 8                              # stray lines held at once while resynchronising
EXTENDS = "extends"                   # Runner(engine_ruleset=EXTENDS): users' rulesets asked as the ruleset they extend


# --------------------------------------------------------------------------- the engine process

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
    findings: list = field(default_factory=list)     # conformance.analysis.attribution.Finding, by ruleset order
    unexplained: list[str] = field(default_factory=list)   # failing cases in no finding and no cluster
    clusters: list = field(default_factory=list)     # conformance.analysis.clusters.Cluster: beyond the alternatives
    nothing_judged: bool = False                     # every case was skipped: the run says nothing of the engine
    asked_as: dict[str, str] = field(default_factory=dict)   # ruleset judged -> the name the engine was asked
    runner: Any = field(default=None, repr=False, compare=False)   # the Runner (to ask the engine again)
    report_dir: str | None = None   # where this result's report files are written (the explain command reads it)
    unfinished: list[str] = field(default_factory=list)   # steps of the analysis a signal stopped, in words
    signalled: bool = False         # a signal came before the reports were written (the command exits with it)

    @property
    def stopped(self) -> bool:
        """Whether a signal stopped the run: before its last case (``interrupted``), during its analysis
        (``unfinished`` says which steps did not finish), or after it, before the reports."""
        return self.interrupted or self.signalled or bool(self.unfinished)

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
                 env: dict | None = None, cwd: str | None = None, interrupts=None, max_fail: int | None = None,
                 stop=None, engine_ruleset: str | dict[str, str] | None = None):
        self.argv = engine_argv(command)
        # The name the engine is asked under, for a user's ruleset it does not know by name: a dict (ruleset ->
        # name), one name for every user's ruleset of the run (``--engine-ruleset r000``), or EXTENDS: each
        # user's ruleset asked under the bundled ruleset it extends (its ``extends`` in the handshake request).
        self.engine_ruleset = engine_ruleset
        self.max_fail = max_fail       # stop sending after this many failures (fail or errored, not expected)
        self.stop = stop               # a threading.Event: set by another thread, the run ends like --max-fail
        self.stopped = ""              # why the run ended early ("" when it ran every case)
        self.timeout = timeout
        self.window = max(1, window)
        self.max_restarts = max_restarts
        self.handshake_timeout = handshake_timeout if handshake_timeout is not None else max(timeout, 30.0)
        self.strict_schema = strict_schema
        self.line_cap = line_cap
        self.progress = progress
        self.env = env
        self.cwd = cwd
        self.interrupts = interrupts   # an Interrupts: signals interrupt only the loop itself
        self.rule_files: list[dict] = []   # users' rulesets, announced in the handshake request
        self.seq = 0
        self.restarts = 0
        self.events: list[dict] = []
        self.engine: EngineProcess | None = None
        self.handshake: dict | None = None
        self.fields: dict[str, tuple[str, ...]] = {}   # op -> the compared fields the engine answers
        self._stderr_bytes = 0
        self._stderr_tail = ""
        self.handshake_seconds = 0.0   # time spent starting engines and shaking hands
        self.keep_engine = False       # a run with failures leaves its engine running, for the analysis to ask

    # ----- the names rulesets are asked under
    def engine_name(self, ruleset: str) -> str:
        """The name a case of ``ruleset`` is asked under (see ``engine_ruleset``): its own unless the run maps
        a user's ruleset to the bundled one the engine knows."""
        return self._asked_as().get(ruleset, ruleset)

    def _asked_as(self) -> dict[str, str]:
        mapping = self.engine_ruleset
        if not mapping:
            return {}
        if isinstance(mapping, dict):
            return dict(mapping)
        files = {f["name"]: f.get("extends") for f in self.rule_files}
        if mapping != EXTENDS:
            return {name: mapping for name in files}
        out = {}
        for name in files:
            base, seen = files[name], {name}
            while base in files and base not in seen:   # a file extending another file of the run
                seen.add(base)
                base = files[base]
            if base:
                out[name] = base
        return out

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
        from conformance.protocol.engine import engine_version
        request = protocol.handshake_request(seq, engine_version())
        if self.rule_files:  # the users' rulesets of the run, for an engine to read (docs/protocol.md)
            request["rulesets"] = self.rule_files
        self.engine.send(protocol.encode(request))
        kind, data = self.engine.next_line(time.monotonic() + self.handshake_timeout)
        if kind == "eof":
            rc = self.engine.wait_exit(1.0)
            what = (f"the engine exited during the handshake (exit status {rc})" if rc is not None else
                    "the engine closed its stdout during the handshake but is still running")
            raise HandshakeError("handshake_failed", what + self._stderr_note())
        if kind == "timeout":
            raise HandshakeError("handshake_failed", f"no handshake answer within {self.handshake_timeout:g} s")
        if kind == "oversized":
            raise HandshakeError("handshake_failed", f"the handshake answer is a line of {data} bytes "
                                 f"(the limit is {self.line_cap})")
        try:
            msg = decode(data, duplicate="invalid_answer")
        except BadMessage as e:
            raise HandshakeError("handshake_failed", f"the handshake answer is not valid JSON ({e}): "
                                 f"{_clip(data)}") from None
        try:
            status = protocol.check_answer("handshake", msg)
        except ProtocolError as e:
            raise HandshakeError("handshake_failed", f"invalid handshake answer: {scrub(str(e))}") from None
        if msg["seq"] != seq:
            raise HandshakeError("handshake_failed", f"the handshake answer has seq {msg['seq']}, not {seq}")
        if status != "result":
            raise HandshakeError("handshake_failed", f"the engine answered the handshake with {status}: "
                                 + _clip(json.dumps(scrub(msg[status]), ensure_ascii=False), 500))
        result = scrub(msg["result"])
        if result["protocol"] != protocol.PROTOCOL_VERSION:
            raise HandshakeError("handshake_failed", f"the engine speaks protocol {result['protocol']}, "
                                 f"the runner {protocol.PROTOCOL_VERSION}")
        try:  # partial answers, declared: the fields each operation is compared on
            self.fields = protocol.declared_fields(result)
        except ProtocolError as e:
            raise HandshakeError("handshake_failed", f"invalid handshake answer: {e}") from None
        return result

    def start(self) -> dict:
        """Start the engine and shake hands now, ahead of :meth:`run`, which then asks this same process (a
        run checks every engine this way before it prepares a case: an engine that cannot start is a usage
        problem, not a report of errored cases). Raises :class:`HandshakeError`, the engine stopped."""
        try:
            self.handshake = self._start()
        except HandshakeError:
            self._stop(graceful=False)
            raise
        return self.handshake

    def probe(self) -> dict:
        """Start the engine, shake hands and stop it: its handshake result (raises :class:`HandshakeError`).
        How a run given no ruleset learns which rulesets the engine plays."""
        try:
            return self._start()
        finally:
            self._stop()

    def _keeps(self, interrupted: bool, outcomes) -> bool:
        """Whether the run's engine stays running for the analysis (:attr:`keep_engine`, a failure to analyse,
        the engine alive and not interrupted): the analysis then asks the same process, not a new one."""
        return (self.keep_engine and not interrupted and self.engine is not None
                and self.engine.returncode() is None and any(o is not None and o.status == "fail" for o in outcomes))

    def release(self) -> None:
        """Stop the engine a run kept for its analysis, if it is still running (asked to shut down)."""
        if self.engine is not None:
            self._stop(graceful=self.engine.returncode() is None)

    @property
    def kept_pid(self) -> int | None:
        """The process id of the engine a run kept running, if any."""
        return self.engine.pid if self.engine is not None else None

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
        if self.engine.strays:
            self._event("strays_killed", f"{self.engine.strays} process(es) the engine left outside its process "
                                         "group were found and killed")
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
        if len(self.events) < limits.EVENTS:
            self.events.append({"kind": kind, "message": scrub(message)})

    # ----- running
    def run(self, cases: list[dict], deviations: list[Deviation] | None = None, **meta) -> RunResult:
        from datetime import datetime, timezone
        started = datetime.now(timezone.utc).isoformat(timespec="seconds")
        t0 = time.monotonic()
        outcomes: list[Outcome | None] = [None] * len(cases)
        interrupted = False
        self._done = 0
        self._tally = dict.fromkeys(STATUSES, 0)
        self._failures = 0
        self._deviations = list(deviations or [])
        try:
            with self.interrupts.armed() if self.interrupts else nullcontext():
                self._run(cases, outcomes)
        except KeyboardInterrupt:
            interrupted = True
            self._event("interrupted", "the run was interrupted; cases not run are reported as skipped (not_run)")
        finally:  # no interrupt may stop the engine's end: with Interrupts they are only noted now
            old = signal.signal(signal.SIGINT, signal.SIG_IGN) if _main_thread() and not self.interrupts else None
            try:
                if self._keeps(interrupted, outcomes):
                    self._account_stderr()   # the run's stderr is the run's; the analysis's is counted at release
                else:
                    self._stop(graceful=not interrupted)
            finally:
                if old is not None:
                    signal.signal(signal.SIGINT, old)
        if self.stopped and not interrupted and None in outcomes and self.stopped != STOP_REQUESTED:
            ran = sum(o is not None and o.kind not in ("ruleset_not_supported", "op_not_supported") for o in outcomes)
            self._event("stopped_early", f"{self.stopped}: {ran} of {len(cases)} cases ran; the rest are "
                                         "reported as skipped (not_run)")
        for i, o in enumerate(outcomes):
            if o is None:
                outcomes[i] = Outcome("skipped", "not_run", "the run was interrupted before this case"
                                      if interrupted else f"the run ended before this case ({self.stopped})"
                                      if self.stopped else "the run ended before this case")
        deviations = list(deviations or [])
        apply_expectations(cases, outcomes, deviations)
        if self._stderr_bytes > STDERR_FLOOD:
            self._event("stderr_flood", f"the engine wrote {self._stderr_bytes} bytes to stderr "
                        f"(kept the last {STDERR_KEEP})")
        for d in deviations:
            if d.matched == 0 and d.finding is None:   # finding entries are applied after the analysis
                self._event("stale_expectation", f"no case matched the expected deviation ({d.label()})")
        asked_as = {rs: self.engine_name(rs) for rs in sorted({c["ruleset"] for c in cases})
                    if self.engine_name(rs) != rs}
        for rs, name in asked_as.items():
            self._event("asked_as", f"the cases of {rs} were asked as {name}, the ruleset the engine knows")
        nothing = not interrupted and all(o.status == "skipped" for o in outcomes)
        if nothing:
            self._event("nothing_judged", _nothing_judged(outcomes, len(cases)))
        return RunResult(cases, outcomes, self.handshake, self.argv, started, time.monotonic() - t0, interrupted,
                         self.restarts, self._stderr_bytes, self._stderr_tail, self.events, deviations,
                         nothing_judged=nothing, asked_as=asked_as, runner=self, **meta)

    def _record(self, outcomes, index: int, outcome: Outcome) -> None:
        outcomes[index] = outcome
        self._done += 1
        self._tally[outcome.status] += 1
        if outcome.status in ("fail", "errored") and not any(d.matches(self._cases[index])
                                                              for d in self._deviations):
            self._failures += 1
            if self.max_fail is not None and self._failures >= self.max_fail and not self.stopped:
                self.stopped = f"stopped after {self._failures} failure(s) (--max-fail {self.max_fail})"
        if self.progress:
            self.progress(self._done, len(outcomes), self._tally)

    def _run(self, cases: list[dict], outcomes: list) -> None:
        self._cases = cases
        try:
            if self.engine is None or self.handshake is None:   # not started ahead (start)
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
        self._outstanding: deque[_Sent] = deque()
        self._held: list[tuple] = []          # lines that were not the oldest request's answer (yet)
        self._early: dict[int, tuple] = {}    # answers that came before an older request's
        self._answered: set[int] = set()      # seqs answered in this run
        self._cases = cases
        self._last_answer = time.monotonic()
        outstanding = self._outstanding
        while todo or outstanding:
            if todo and self._should_stop():
                todo.clear()   # no more requests: the answers in flight are still read, then the engine stops
                if not outstanding:
                    break
            engine = self.engine
            if todo and len(outstanding) <= self.window // 2:
                # refill the window in one write: the engine then reads many requests per read
                batch = []
                now = time.monotonic()
                while todo and len(outstanding) < self.window:
                    i = todo.popleft()
                    seq = self._next_seq()
                    c = cases[i]
                    batch.append(protocol.encode(protocol.request(seq, c["op"], self.engine_name(c["ruleset"]),
                                                                  c["input"])))
                    outstanding.append(_Sent(i, seq, now))
                engine.send(b"".join(batch))
            head = outstanding[0]
            deadline = max(head.sent, self._last_answer) + self.timeout
            kind, data = engine.next_line(deadline)
            if kind == "line":
                self._line(cases, outcomes, data)
                continue
            if kind == "oversized":
                self._settle_held(cases, outcomes)
                if outstanding:
                    self._answer(outcomes, outstanding[0], Outcome(
                        "errored", "line_too_long",
                        f"the answer is a line of {data} bytes (the limit is {self.line_cap}); discarded"))
                else:
                    self._event("unexpected_line", f"a line of {data} bytes after the last answer")
                continue
            if self._held:  # the engine said something after all: the oldest held line was the answer
                self._settle_held(cases, outcomes)
                continue
            # the engine died or hangs: blame the oldest unanswered request, restart, resend the rest
            if kind == "eof":
                rc = engine.wait_exit(1.0)
                if rc is None:
                    msg = "the engine closed its stdout but is still running; it was killed" + self._stderr_note()
                    o = Outcome("errored", "closed_stdout", msg)
                    self._event("closed_stdout", f"seq {head.seq}: {msg}")
                else:
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
            self._early.clear()
            self._stop(graceful=False)
            if not todo or self._should_stop():
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
            self._last_answer = time.monotonic()
        for line in self._held:
            self._stray(line, "after the last answer")
        self._held.clear()

    def _should_stop(self) -> bool:
        if not self.stopped and self.stop is not None and self.stop.is_set():
            self.stopped = STOP_REQUESTED
        return bool(self.stopped)

    # ----- resynchronising by seq

    def _answer(self, outcomes, sent: _Sent, o: Outcome) -> None:
        """Record the outcome of the oldest unanswered request ``sent``."""
        now = time.monotonic()
        o.seconds = now - max(sent.sent, self._last_answer)
        self._last_answer = now
        self._outstanding.remove(sent)
        self._answered.add(sent.seq)
        self._record(outcomes, sent.index, o)
        while self._outstanding and self._outstanding[0].seq in self._early:  # answered already, out of order
            head = self._outstanding[0]
            line = self._early.pop(head.seq)
            self._answer(outcomes, head, self._judge(self._cases[head.index], head.seq, line))

    def _line(self, cases, outcomes, data: bytes) -> None:
        """One answer line: the oldest request's answer when its seq says so, else held until the
        next line shows what it was."""
        try:
            msg, bad = decode(data, duplicate="invalid_answer"), None
        except BadMessage as e:
            msg, bad = None, e
        if isinstance(msg, dict) and type(msg.get("seq")) is int:
            seq = msg["seq"]
        else:
            seq = read_seq(data) if bad is not None else None
        line = (data, seq, msg, bad)
        if not self._outstanding:  # every request is answered: whatever comes now answers nothing
            self._stray(line, "after the last answer")
            return
        head = self._outstanding[0]
        if seq == head.seq:
            later = {s.seq for s in self._outstanding}
            for held in self._held:
                if held[1] in later and held[1] != head.seq and held[1] not in self._early:
                    self._early[held[1]] = held  # out of order: judged when its request's turn comes
                    self._event("out_of_order", f"the answer to seq {held[1]} came before the answer to "
                                                f"seq {head.seq}")
                else:
                    self._stray(held, f"before the answer to seq {head.seq}")
            self._held.clear()
            self._answer(outcomes, head, self._judge(cases[head.index], head.seq, line))
            return
        if self._held:
            first = self._held[0][1]
            later = {s.seq: n for n, s in enumerate(self._outstanding)}
            if first in later and seq in later and later[seq] > later[first]:
                # the engine answered requests after the oldest one and goes on: it skipped some
                self._never_answered(outcomes, later[first], first)
                self._settle_held(cases, outcomes)
                self._line(cases, outcomes, data)
                return
            if seq in later and first not in later:
                # the engine has gone on to a later request: held lines repeating an answered seq were
                # duplicates; the first other one was the oldest request's answer, and with none, the
                # requests before this line's got no answer
                for held in [h for h in self._held if h[1] in self._answered]:
                    self._stray(held, f"before the answer to seq {seq}")
                self._held = [h for h in self._held if h[1] not in self._answered]
                if not self._held:
                    self._never_answered(outcomes, later[seq], seq)
                self._settle_held(cases, outcomes)
                self._line(cases, outcomes, data)
                return
            if seq == first or len(self._held) >= HELD:
                # the same seq again, or too many lines held: the first was the oldest request's answer
                self._settle_held(cases, outcomes)
                self._line(cases, outcomes, data)
                return
        self._held.append(line)

    def _never_answered(self, outcomes, count: int, later_seq: int) -> None:
        """The oldest ``count`` requests in flight are never answered: the engine answered from ``later_seq`` on."""
        for sent in list(self._outstanding)[:count]:
            self._answer(outcomes, sent, Outcome(
                "errored", "no_answer", f"the engine answered later requests (seq {later_seq} on) "
                                        "but never this one"))
            self._event("no_answer", f"seq {sent.seq}: never answered")

    def _settle_held(self, cases, outcomes) -> None:
        """Nothing showed the held lines to be stray: the first of them was the oldest request's
        answer (with a wrong seq); the others go back to be looked at again."""
        if not self._held:
            return
        first, *rest = self._held
        self._held = []
        head = self._outstanding[0]
        self._answer(outcomes, head, self._judge(cases[head.index], head.seq, first))
        for line in rest:
            if self._outstanding:
                self._line(cases, outcomes, line[0])
            else:
                self._stray(line, "after the last answer")

    def _stray(self, line: tuple, when: str) -> None:
        """A held line that turned out to answer nothing asked: an event, not a case."""
        data, seq, _, _ = line
        if seq is None:
            self._event("unexpected_line", f"a line that is no answer, {when}: {_clip(data, 200)}")
        elif seq in self._answered:
            self._event("duplicate_answer", f"a second answer to seq {seq}, {when}")
        elif any(s.seq == seq for s in self._outstanding):
            self._event("duplicate_answer", f"another answer to seq {seq}, {when}")
        else:
            self._event("unexpected_seq", f"an answer to seq {seq}, which was never sent, {when}")

    def _unsupported(self, case: dict) -> tuple[str, str] | None:
        hs = self.handshake
        name = self.engine_name(case["ruleset"])
        if name not in hs["rulesets"] and "*" not in hs["rulesets"]:
            asked = f" (asked as {name})" if name != case["ruleset"] else ""
            return ("ruleset_not_supported", f"the engine does not support ruleset {case['ruleset']}{asked}")
        if case["op"] not in hs["operations"]:
            return ("op_not_supported", f"the engine does not support the operation {case['op']}")
        return None

    def _judge(self, case: dict, seq: int, line: tuple) -> Outcome:
        data, _, msg, bad = line
        if bad is not None:
            what = "the answer is not strict JSON" if bad.kind == "invalid_answer" else "the answer is not valid JSON"
            return Outcome("errored", bad.kind, f"{what}: {bad}", _clip(data))
        return self._judge_message(case, seq, msg)

    def _judge_line(self, case: dict, seq: int, line: bytes) -> Outcome:
        try:
            msg = decode(line, duplicate="invalid_answer")
        except BadMessage as e:
            return Outcome("errored", e.kind, f"the answer is not valid JSON: {e}", _clip(line))
        return self._judge_message(case, seq, msg)

    def _judge_message(self, case: dict, seq: int, msg: Any) -> Outcome:
        op = case["op"]
        if isinstance(msg, dict) and type(msg.get("seq")) is int and msg["seq"] != seq:  # it answers another
            return Outcome("errored", "wrong_seq", f"the answer has seq {_clip(json.dumps(scrub(msg['seq'])), 60)}, "
                                                   f"the request {seq}", _keep(msg))
        fields = self.fields.get(op)
        try:
            status = protocol.check_answer(op, msg, fields)
        except ProtocolError as e:
            return Outcome("errored", e.kind, scrub(str(e)), _keep(msg))
        if self.strict_schema:
            errs = protocol.schema_errors("answer", msg)
            if not errs and status == "result":
                errs = protocol.schema_errors(f"{op}.result", msg["result"])
            if errs:
                return Outcome("errored", "invalid_answer", scrub("; ".join(errs)), _keep(msg))
        if status == "skipped":
            s = msg["skipped"]
            note = s["reason"] + (f" ({s['issue']})" if s.get("issue") else "")
            return Outcome("skipped", "engine_skipped", _clip(scrub(note), 1000))
        if status == "errored":
            return Outcome("errored", "engine_errored", _clip(scrub(msg["errored"]["message"]), 1000), _keep(msg))
        result = msg["result"]
        diffs = protocol.compare(op, case["expected"], result, fields)
        if diffs:
            return Outcome("fail", "disagrees", scrub("; ".join(diffs)), _keep(result))
        return Outcome("pass")


def _nothing_judged(outcomes, total: int) -> str:
    """Why no case of the run was judged, in one line."""
    if not total:
        return "the run had no case to judge"
    kinds: dict[str, int] = {}
    for o in outcomes:
        kinds[o.kind or "skipped"] = kinds.get(o.kind or "skipped", 0) + 1
    why = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]))
    hint = ("; an engine that knows a user's ruleset only by the name of the ruleset it extends can be asked "
            "under that name (--engine-ruleset)") if "ruleset_not_supported" in kinds else ""
    return f"no case was judged: all {total} were skipped ({why}){hint}"


def _main_thread() -> bool:
    import threading
    return threading.current_thread() is threading.main_thread()


def _clip(data: bytes | str, limit: int = 300) -> str:
    """At most ``limit`` characters of an engine's text (lone surrogates replaced), its length noted."""
    text = clean_text(data[:4 * limit].decode("utf-8", "replace") if isinstance(data, bytes) else data)
    if len(text) > limit or (isinstance(data, bytes) and len(data) > 4 * limit):
        unit = "bytes" if isinstance(data, bytes) else "characters"
        return text[:limit] + f"… ({len(data)} {unit})"
    return text


def _keep(value: Any) -> Any:
    """A decoded answer as a report keeps it: scrubbed, and cut to a string when it is long."""
    value = scrub(value)
    s = json.dumps(value, ensure_ascii=False)
    return value if len(s) <= ANSWER_KEEP else s[:ANSWER_KEEP] + f"… ({len(s)} characters)"
