"""The generated property-based suite: every operation, Hypothesis positions, an engine in the loop.

For each operation the suite draws positions from :mod:`conformance.generation.strategies`
(built from the ruleset's settings), asks the engine, and compares its answer
with the reference interpreter's. On a disagreement Hypothesis shrinks the
position *through the engine* to a minimal one (fewest cards, lowest ranks)
and the suite reports it with the deciding clause ids, the position drawn
with card glyphs, both answers and a vector line to paste into a regression
test. Runs are reproducible from the seed.

Engines:

* :class:`ProcessEngine` — any program speaking the JSON-lines protocol
  (``docs/protocol.md``), one persistent process, restarted after a crash or
  a hang;
* :class:`InProcessEngine` — the reference interpreter driven by any
  :class:`~reference_impl.rules.Rules` (used for mutants and fingerprints).

Profiles (:data:`PROFILES`): ``quick`` for CI (well under 2 minutes per
ruleset), ``thorough`` for a release.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from hypothesis import HealthCheck, Phase, given, seed as hyp_seed, settings

from conformance.protocol import messages as protocol
from conformance.protocol.engine import HANDLERS, InputError, judge

# Examples per operation; ``follow`` gets twice the share: its ladders hold most of the decision
# points of a ruleset (every rung, every pair of rungs, of every lead shape).
PROFILES = {
    "quick": {"max_examples": 500, "shrink": True, "weights": {"follow": 2}},
    "thorough": {"max_examples": 1000, "shrink": True, "weights": {"follow": 2}},
}


def examples(profile: str, op: str) -> int:
    """How many positions the generated suite draws for ``op`` under ``profile``."""
    conf = PROFILES[profile]
    return conf["max_examples"] * conf.get("weights", {}).get(op, 1)


class Engine(Protocol):
    name: str

    def ask(self, op: str, ruleset: str, inp: dict) -> tuple[str, Any]:
        """``("result", dict)``, ``("skipped", reason)`` or ``("errored", message)``."""

    def close(self) -> None: ...


class InProcessEngine:
    """The reference interpreter under a given ruleset object (e.g. a mutant)."""

    def __init__(self, rules, name: str = "in-process"):
        self.rules = rules
        self.name = name

    def ask(self, op: str, ruleset: str, inp: dict) -> tuple[str, Any]:
        try:
            result, _ = HANDLERS[op](self.rules, inp)
        except InputError as e:
            return ("errored", str(e))
        except Exception as e:  # a mutant may break on a position: an answer all the same
            return ("errored", f"{e.__class__.__name__}: {e}")
        return ("result", result)

    def close(self) -> None:
        pass


class ProcessEngine:
    """One engine subprocess behind the protocol, asked one request at a time."""

    def __init__(self, command: str | list[str], timeout: float = 10.0):
        from conformance.running.runner import engine_argv
        self.argv = engine_argv(command)
        self.name = " ".join(self.argv)
        self.timeout = timeout
        self.process = None
        self.handshake: dict | None = None
        self.fields: dict[str, tuple[str, ...]] = {}   # op -> the compared fields the engine answers
        self.seq = 0
        self.restarts = 0

    def _start(self) -> None:
        from conformance.protocol.engine import engine_version
        from conformance.running.runner import EngineProcess
        self.process = EngineProcess(self.argv)
        try:
            self.process.start()
        except OSError as e:   # no such program, not executable: the engine cannot start
            self.process = None
            raise EngineUnavailable(f"cannot start the engine {self.name!r}: {e.strerror or e}") from None
        self.seq += 1
        self.process.send(protocol.encode(protocol.handshake_request(self.seq, engine_version())))
        kind, data = self.process.next_line(time.monotonic() + max(self.timeout, 30.0))
        if kind != "line":
            raise EngineUnavailable(f"no handshake from {self.name} ({kind})")
        from conformance.protocol.jsonlines import BadMessage, decode, scrub
        try:
            msg = decode(data)
            if protocol.check_answer("handshake", msg) != "result":
                raise protocol.ProtocolError("invalid_answer", "the handshake is not a result")
        except (BadMessage, protocol.ProtocolError) as e:
            raise EngineUnavailable(f"no valid handshake from {self.name}: {scrub(str(e))}") from None
        try:
            self.fields = protocol.declared_fields(msg["result"])
        except protocol.ProtocolError as e:
            raise EngineUnavailable(f"no valid handshake from {self.name}: {scrub(str(e))}") from None
        self.handshake = scrub(msg["result"])

    def supports(self, op: str, ruleset: str) -> bool:
        if self.process is None:
            self._start()
        hs = self.handshake
        return op in hs["operations"] and (ruleset in hs["rulesets"] or "*" in hs["rulesets"])

    def ask(self, op: str, ruleset: str, inp: dict) -> tuple[str, Any]:
        if self.process is None or self.process.returncode() is not None:
            if self.process is not None:
                self.restarts += 1
                self.process.kill()
            self._start()
        self.seq += 1
        seq = self.seq
        self.process.send(protocol.encode(protocol.request(seq, op, ruleset, inp)))
        from conformance.protocol.jsonlines import decode, read_seq, scrub
        deadline = time.monotonic() + self.timeout
        while True:
            kind, data = self.process.next_line(deadline)
            if kind != "line":
                what = {"eof": "the engine exited", "timeout": f"no answer within {self.timeout:g} s",
                        "oversized": "the answer line is too long"}[kind]
                self.process.kill()
                self.process = None
                return ("errored", what)
            try:
                msg = decode(data)
            except ValueError as e:  # BadMessage
                if (read_seq(data) or seq) < seq:
                    continue
                return ("errored", f"invalid answer: {scrub(str(e))}")
            if isinstance(msg, dict) and type(msg.get("seq")) is int and msg["seq"] < seq:
                continue  # a late or repeated answer to an earlier request: not this one's
            break
        try:
            status = protocol.check_answer(op, msg, self.fields.get(op))
        except protocol.ProtocolError as e:
            return ("errored", f"invalid answer: {scrub(str(e))}")
        msg = scrub(msg)
        if msg.get("seq") != seq:
            return ("errored", f"wrong seq {msg.get('seq')} (expected {seq})")
        if status == "result":
            return ("result", msg["result"])
        if status == "skipped":
            return ("skipped", msg.get("skipped", {}).get("reason", "skipped")
                    if isinstance(msg.get("skipped"), dict) else "skipped")
        return ("errored", json.dumps(msg.get("errored"), ensure_ascii=False)[:500])

    def close(self) -> None:
        if self.process is not None:
            self.seq += 1
            self.process.stop(self.seq)
            self.process = None


class EngineUnavailable(Exception):
    pass


@dataclass
class Disagreement(Exception):
    op: str
    ruleset: str
    input: dict
    expected: dict
    got: Any
    status: str              # "fail" (a different result) or "errored"
    clauses: tuple[str, ...]
    differences: list[str] = field(default_factory=list)

    def vector_line(self) -> str:
        """A replayable vector line (the format of conformance/vectors)."""
        from conformance.generation.cases import case_id
        return json.dumps({"id": case_id(self.ruleset, self.op, self.input), "op": self.op, "ruleset": self.ruleset,
                           "input": self.input, "expected": self.expected, "clauses": list(self.clauses)},
                          ensure_ascii=False, sort_keys=True)

    def render(self) -> str:
        from conformance.protocol.inputs import draw_input
        lines = [f"{self.ruleset} {self.op}: {self.status} — decided by {', '.join(self.clauses) or '(no clause)'}"]
        lines += ["  " + line for line in draw_input(self.op, self.input)]
        lines.append(f"  reference: {json.dumps(self.expected, ensure_ascii=False)}")
        got = self.got if isinstance(self.got, str) else json.dumps(protocol.canonical(self.op, self.got),
                                                                      ensure_ascii=False)
        lines.append(f"  engine:    {got}")
        for d in self.differences:
            lines.append(f"  - {d}")
        lines.append(f"  vector: {self.vector_line()}")
        return "\n".join(lines)


@dataclass
class OpOutcome:
    op: str
    ruleset: str
    status: str                   # pass, fail, errored, skipped
    examples: int
    disagreement: Disagreement | None = None
    skipped_reason: str = ""
    clauses: dict[str, int] = field(default_factory=dict)   # clause id -> examples it decided


def _strategy(ruleset: str, op: str):
    from conformance.generation import strategies
    return getattr(strategies, f"{op}_inputs")(ruleset)


def check_operation(engine: Engine, ruleset: str, op: str, profile: str = "quick", seed: int = 0,
                    expected_of: Callable[[str, str, dict], tuple[dict, tuple]] = judge,
                    shrink: bool | None = None) -> OpOutcome:
    """Run one operation's property against ``engine``; shrink (unless ``shrink`` is False) and return the
    first disagreement."""
    conf = PROFILES[profile]
    outcome = OpOutcome(op, ruleset, "pass", 0)
    skipped: list[str] = []
    shrinking = conf["shrink"] if shrink is None else shrink
    phases = [Phase.explicit, Phase.reuse, Phase.generate, Phase.target] + ([Phase.shrink] if shrinking else [])

    @hyp_seed(seed)
    @settings(max_examples=examples(profile, op), deadline=None, database=None, phases=phases,
              suppress_health_check=list(HealthCheck), derandomize=False, report_multiple_bugs=False)
    @given(_strategy(ruleset, op))
    def prop(inp):
        outcome.examples += 1
        result, clauses = expected_of(op, ruleset, inp)
        for c in clauses:
            outcome.clauses[c] = outcome.clauses.get(c, 0) + 1
        why = _ask(engine, op, ruleset, inp, result, clauses)
        if why is not None:
            skipped.append(why)

    try:
        prop()
    except Disagreement as d:
        outcome.status = d.status
        outcome.disagreement = d
    if outcome.status == "pass" and skipped and len(skipped) == outcome.examples:
        outcome.status = "skipped"
        outcome.skipped_reason = skipped[0]
    return outcome


def _ask(engine: Engine, op: str, ruleset: str, inp: dict, result: dict, clauses) -> str | None:
    """Ask ``engine`` one position whose reference answer is ``result``: raises :class:`Disagreement` when
    it answers otherwise or errs; the reason when it skips it; None when it agrees."""
    status, got = engine.ask(op, ruleset, inp)
    if status == "skipped":
        return str(got)
    expected = protocol.canonical(op, result)
    if status == "errored":
        raise Disagreement(op, ruleset, inp, expected, got, "errored", tuple(clauses), [str(got)])
    diffs = protocol.compare(op, result, got, getattr(engine, "fields", {}).get(op))
    if diffs:
        raise Disagreement(op, ruleset, inp, expected, got, "fail", tuple(clauses), diffs)
    return None


class _Drawing:
    """An engine that skips every position: the property's draws, with no engine in the loop."""

    name = "drawing"

    def ask(self, op, ruleset, inp):
        return ("skipped", "drawing the positions")

    def close(self) -> None:
        pass


def drawn_positions(ruleset: str, op: str, profile: str = "quick", seed: int = 0,
                    expected_of: Callable[[str, str, dict], tuple[dict, tuple]] = judge) -> list[tuple]:
    """The positions :func:`check_operation` draws for ``op`` when no answer disagrees, in order, each as
    ``(input, reference result, clauses)``. Hypothesis's draws do not depend on the answers (a property that
    passes changes nothing of what is drawn next), and without shrinking it stops at the first disagreement:
    so an engine that first disagrees at the k-th of these positions is the engine check_operation (with
    ``shrink=False``) finds disagreeing there, and many engines (the mutants of a ruleset) are checked
    against one drawing (:func:`first_disagreement`) instead of a Hypothesis run each. (Within one process:
    Hypothesis also draws constants it finds in the modules loaded, so a process that has imported other
    modules may draw other positions, for this and for check_operation alike.)"""
    drawn: list[tuple] = []

    def recording(op_, ruleset_, inp):
        result, clauses = expected_of(op_, ruleset_, inp)
        drawn.append((inp, result, tuple(clauses)))
        return result, clauses
    check_operation(_Drawing(), ruleset, op, profile, seed, expected_of=recording, shrink=False)
    return drawn


def first_disagreement(engine: Engine, ruleset: str, op: str, drawn: list[tuple]) -> Disagreement | None:
    """The first of the ``drawn`` positions (:func:`drawn_positions`) ``engine`` answers otherwise, as
    check_operation without shrinking reports it; None when it agrees on all of them."""
    for inp, result, clauses in drawn:
        try:
            _ask(engine, op, ruleset, inp, result, clauses)
        except Disagreement as d:
            return d
    return None


def check_engine(engine: Engine, ruleset: str, ops: Sequence[str] | None = None, profile: str = "quick",
                 seed: int = 0, progress: Callable[[OpOutcome], None] | None = None) -> list[OpOutcome]:
    """The whole generated suite for one ruleset: one property per operation."""
    out = []
    for op in ops or protocol.OPERATIONS:
        supports = getattr(engine, "supports", None)
        if supports is not None and not supports(op, ruleset):
            o = OpOutcome(op, ruleset, "skipped", 0, skipped_reason="not supported by the engine")
        else:
            o = check_operation(engine, ruleset, op, profile, seed)
        out.append(o)
        if progress:
            progress(o)
    return out
