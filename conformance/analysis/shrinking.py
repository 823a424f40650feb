"""Shrinking a failing position through the protocol: drop or lower cards while the engine still disagrees.

A position is a request's ``input``. :func:`moves` lists the smaller
positions one step away — one card dropped (from every card list holding it,
so a play stays inside its hand), one column of a trick dropped (every play
loses the card at one place), one card lowered by a rank (everywhere it
appears), a point count brought 5 nearer to 0 — each kept only when the
reference can judge it. :func:`shrink` asks the engine about a batch of them
at a time (:class:`EngineSession`, the engine driven over the protocol) and
takes the first whose disagreement persists, until none does: the
ClusterFuzz way of minimising a testcase, with the reference as the oracle
of what the position means.

:func:`neighbours` then makes one or two positions next to the minimal one
(a card raised, two side suits exchanged, a count moved) to probe how far
the difference reaches.
"""
from __future__ import annotations

import json
import re
import time
from typing import Callable, Iterator

from conformance.protocol import messages as protocol
from conformance.protocol.jsonlines import BadMessage, decode

CARD = re.compile(r"^(10|[2-9JQKA])[SHDC]$|^J[+-]$")
MAX_ROUNDS = 2000      # shrinking steps per position: each step makes it strictly smaller (size), so a position
                       # stops long before (issue 31, item 4: 40 left 20 of 105 clusters unminimised); a
                       # position stopped by it says so (``limited``)
BATCH = 24             # smaller positions asked at once


def _is_cards(v) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, str) and CARD.match(x) for x in v)


def size(inp) -> tuple[int, int]:
    """How big a position is: its cards, then their ranks (what shrinking lowers)."""
    cards = list(_tokens(inp))
    return len(cards), sum(_rank(c) for c in cards) + sum(abs(v) for v in _counts(inp))


def _tokens(v) -> Iterator[str]:
    if isinstance(v, str) and CARD.match(v):
        yield v
    elif isinstance(v, list):
        for x in v:
            yield from _tokens(x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from _tokens(x)


def _counts(inp) -> list[int]:
    return [inp[k] for k in ("attackers_points", "gain") if isinstance(inp.get(k), int)]


def _rank(card: str) -> int:
    return 13 if card.startswith("J") and card[1:] in "+-" else protocol.RANKS.index(card[:-1])


def _map_lists(v, fn: Callable[[list], list | None]):
    """``v`` with every card list replaced by ``fn(list)`` (None: unchanged)."""
    if _is_cards(v):
        out = fn(v)
        return v if out is None else out
    if isinstance(v, list):
        return [_map_lists(x, fn) for x in v]
    if isinstance(v, dict):
        return {k: _map_lists(x, fn) for k, x in v.items()}
    return v


def _map_cards(v, fn: Callable[[str], str]):
    if isinstance(v, str) and CARD.match(v):
        return fn(v)
    if isinstance(v, list):
        return [_map_cards(x, fn) for x in v]
    if isinstance(v, dict):
        return {k: _map_cards(x, fn) for k, x in v.items()}
    return v


def _drop_one(card: str):
    def fn(cards: list) -> list | None:
        if card not in cards:
            return None
        i = cards.index(card)
        return cards[:i] + cards[i + 1:]
    return fn


def _shifted(card: str, by: int) -> str | None:
    if card.startswith("J") and card[1:] in "+-":
        return None
    i = protocol.RANKS.index(card[:-1]) + by
    return protocol.RANKS[i] + card[-1] if 0 <= i < len(protocol.RANKS) else None


def moves(inp: dict) -> Iterator[tuple[str, dict]]:
    """(what changed, the smaller position) for each one-step shrink of ``inp``."""
    seen = set()
    for card in sorted(set(_tokens(inp)), key=lambda c: (-_rank(c), c)):
        if card not in seen:
            seen.add(card)
            yield f"{card} dropped", _map_lists(inp, _drop_one(card))
    plays = inp.get("plays")
    if isinstance(plays, list) and plays and all(_is_cards(p) for p in plays) and len(plays[0]) > 1:
        for j in range(len(plays[0])):
            yield f"card {j + 1} of every play dropped", {**inp, "plays": [p[:j] + p[j + 1:] for p in plays]}
    lead, play = inp.get("lead"), inp.get("play")
    if _is_cards(lead) and _is_cards(play) and len(lead) == len(play) > 1:   # a follow: as many cards as led
        for a in sorted(set(lead), key=lambda c: (-_rank(c), c)):
            for b in sorted(set(play), key=lambda c: (-_rank(c), c)):
                yield f"{a} dropped from the lead, {b} from the play", {
                    **inp, "lead": _drop_one(a)(lead), "play": _drop_one(b)(play),
                    **({"hand": _drop_one(b)(inp["hand"]) or inp["hand"]} if _is_cards(inp.get("hand")) else {})}
    for k in ("attackers_points", "gain"):
        v = inp.get(k)
        if isinstance(v, int) and v != 0:
            step = 5 if k == "attackers_points" else 1
            yield f"{k} {v} -> {v - step if v > 0 else v + step}", {**inp, k: v - step if v > 0 else v + step}
    for card in sorted(set(_tokens(inp)), key=lambda c: (-_rank(c), c)):
        lower = _shifted(card, -1)
        if lower:
            yield f"{card} lowered to {lower}", _map_cards(inp, lambda c, a=card, b=lower: b if c == a else c)


def neighbours(inp: dict) -> list[tuple[str, dict]]:
    """One or two positions next to ``inp``: a card raised and two side suits exchanged (or a count moved)."""
    out: list[tuple[str, dict]] = []
    cards = sorted(set(_tokens(inp)), key=lambda c: (_rank(c), c))
    raise_ = next(((c, _shifted(c, 1)) for c in cards if _shifted(c, 1) and _shifted(c, 1) not in cards), None)
    if raise_:
        a, b = raise_
        out.append((f"{a} raised to {b}", _map_cards(inp, lambda c: b if c == a else c)))
    trump = inp.get("trump")
    side = [s for s in protocol.SUITS if s != trump]
    present = {c[-1] for c in cards if c[-1] in protocol.SUITS}
    pair = next(((x, y) for x in side for y in side if x < y and (x in present or y in present)), None)
    if pair:
        x, y = pair
        swap = {x: y, y: x}
        out.append((f"suits {x} and {y} exchanged",
                    _map_cards(inp, lambda c: c[:-1] + swap[c[-1]] if c[-1] in swap else c)))
    for k in ("attackers_points", "gain"):
        if isinstance(inp.get(k), int) and len(out) < 2:
            step = 5 if k == "attackers_points" else 1
            out.append((f"{k} {inp[k]} -> {inp[k] + step}", {**inp, k: inp[k] + step}))
    return out[:2]


MAX_PARTS = 12         # parts of a minimal position taken out one at a time (its keys first)


def parts(inp: dict) -> Iterator[tuple[str, dict]]:
    """(the part, the position without it) for each part of ``inp`` that can be taken out: a key of the input
    or of an object inside it (``wrong``, the wrong declarations; a transcript's ``declarations``), a hand's kitty
    exchange, then one entry of a list of two objects or more (``tricks[3]``). Whether the position still
    means something is the reference's to say."""
    def keys(v: dict, path: str, put) -> Iterator[tuple[str, dict]]:
        for k in v:
            yield f"{path}{k}", put({x: y for x, y in v.items() if x != k})
        for k, x in v.items():
            if isinstance(x, dict):
                yield from keys(x, f"{path}{k}.", lambda new, k=k: put({**v, k: new}))

    def entries(v: dict, path: str, put) -> Iterator[tuple[str, dict]]:
        for k, x in v.items():
            if isinstance(x, list) and len(x) > 1 and all(isinstance(e, dict) for e in x):   # one: the key's
                for i in range(len(x)):
                    yield f"{path}{k}[{i}]", put({**v, k: x[:i] + x[i + 1:]})
            elif isinstance(x, dict):
                yield from entries(x, f"{path}{k}.", lambda new, k=k: put({**v, k: new}))

    yield from keys(inp, "", lambda new: new)
    undone = _exchange_undone(inp.get("transcript"))
    if undone is not None:
        yield "the kitty exchange", {**inp, "transcript": undone}
    yield from entries(inp, "", lambda new: new)


def _exchange_undone(t) -> dict | None:
    """A hand's transcript with its kitty exchange taken out: the kitty dealt as the banker buried it (his
    dealt hand the one he played from), so every trick stays as it was; None when there is no exchange."""
    from collections import Counter
    try:
        banker, hands, kitty, discard = t["banker"], t["deal"]["hands"], t["deal"]["kitty"], t["discard"]
        held = Counter(hands[banker]) + Counter(kitty) - Counter(discard)
        if Counter(discard) == Counter(kitty) or sum(held.values()) != len(hands[banker]):
            return None
    except (TypeError, KeyError, IndexError):
        return None
    order = {c: i for i, c in enumerate(hands[banker] + kitty)}
    dealt = sorted(held.elements(), key=lambda c: order[c])
    return {**t, "deal": {**t["deal"], "hands": [dealt if s == banker else h for s, h in enumerate(hands)],
                          "kitty": list(discard)}}


def needs(rules, session: "EngineSession", ruleset: str, op: str, inp: dict, fields=None) -> list[dict]:
    """The parts of ``inp`` (a minimal position) its disagreement needs: taken out, the engine agrees with
    the spec. Each with the clauses the reference cites with that part and not without it, the rules the
    part brings in (``wrong``: declare.wrong), which are then the rules the engine reads otherwise:
    ``{"part", "clauses"}``, in the order of :func:`parts`."""
    from conformance.generation.decisions import judged
    asked = []
    for what, p in parts(inp):
        s, without = judged(rules, op, p)
        if "error" not in s:
            asked.append((what, p, s, without))
        if len(asked) >= MAX_PARTS:
            break
    here = judged(rules, op, inp)[1]
    out = []
    for (what, p, s, without), g in zip(asked, session.ask(ruleset, op, [p for _, p, _, _ in asked])):
        if differing(op, s, g, fields) == ():
            out.append({"part": what, "clauses": [c for c in here if c not in without]})
    return out


ENGINE_OPTIONS = ("timeout", "handshake_timeout", "line_cap", "env", "cwd", "engine_ruleset")


def engine_spec(runner) -> dict:
    """How to start ``runner``'s engine again elsewhere (on a worker): its command and options, picklable."""
    spec = {k: getattr(runner, k) for k in ENGINE_OPTIONS}
    return {**spec, "command": list(runner.argv), "rule_files": list(runner.rule_files)}


def runner_of(spec: dict):
    """A :class:`~conformance.running.runner.Runner` of the engine :func:`engine_spec` describes."""
    from conformance.running.runner import Runner
    runner = Runner(spec["command"], **{k: spec[k] for k in ENGINE_OPTIONS})
    runner.rule_files = list(spec["rule_files"])
    return runner


class EngineSession:
    """One engine, started once, asked batches of positions over the protocol (the runner's handshake).

    ``spec`` (:func:`engine_spec`) says how to start the same engine on a worker; ``start_seconds`` is how
    long this one took to start and shake hands."""

    def __init__(self, runner):
        self.runner = runner
        self.alive = False
        self.spec = engine_spec(runner)
        self.start_seconds = 0.0

    def __enter__(self):
        r = self.runner
        if r.engine is not None and r.engine.returncode() is None:   # the run's own engine, kept for this
            self.alive = True
            self.start_seconds = r.handshake_seconds / (1 + r.restarts)
            return self
        if r.engine is not None:   # kept for this, but it has exited since
            r._stop(graceful=False)
        t0 = time.monotonic()
        try:
            self.runner._start()
            self.alive = True
        except Exception:  # noqa: BLE001 — an engine that will not start again: nothing is shrunk
            self.runner._stop(graceful=False)
        self.start_seconds = time.monotonic() - t0
        return self

    def __exit__(self, *exc):
        if self.runner.engine is not None:
            # ending on an error or a signal: killed (with what it started), not asked to shut down
            self.runner._stop(graceful=self.alive and exc[0] is None)

    def ask(self, ruleset: str, op: str, inputs: list[dict]) -> list[dict | None]:
        """The engine's answers (compared fields, normalised; None when it gave no result)."""
        out: list[dict | None] = [None] * len(inputs)
        if not self.alive or not inputs:
            return out
        r = self.runner
        name = r.engine_name(ruleset)
        seqs = []
        for inp in inputs:
            seqs.append(r._next_seq())
        r.engine.send(b"".join(protocol.encode(protocol.request(s, op, name, inp)) for s, inp in zip(seqs, inputs)))
        index = {s: i for i, s in enumerate(seqs)}
        left = set(seqs)
        deadline = time.monotonic() + r.timeout * max(1, len(inputs)) / 4 + r.timeout
        while left:
            kind, data = r.engine.next_line(deadline)
            if kind != "line":
                self.alive = False   # dead or hung: what is left stays unanswered
                break
            try:
                msg = decode(data)
            except BadMessage:
                continue
            if not isinstance(msg, dict) or msg.get("seq") not in left:
                continue
            left.discard(msg["seq"])
            res = msg.get("result")
            if isinstance(res, dict):
                try:
                    out[index[msg["seq"]]] = protocol.normalize(op, res, r.fields.get(op))
                except Exception:  # noqa: BLE001 — a malformed answer is no answer
                    pass
        return out


def differing(op: str, spec: dict, engine: dict | None, fields=None) -> tuple[str, ...] | None:
    """The compared fields ``engine`` answers otherwise than ``spec`` (None: no answer to compare)."""
    if engine is None or "error" in spec:
        return None
    skip = protocol.unanswered(op, engine, fields)
    return tuple(k for k in (fields or protocol.COMPARED[op]) if spec.get(k) != engine.get(k) and k not in skip)


def shrink(rules, session: EngineSession, ruleset: str, op: str, inp: dict, wanted: tuple[str, ...],
           fields=None, keeps: tuple[str, ...] = (), differs_as: str = "") -> tuple[dict, dict, dict, int]:
    """The smallest position found from ``inp`` on which the engine still differs on exactly ``wanted``, both
    answering there what they answer at ``inp`` (the answers the cluster shows), and whose shape (:func:`conformance.analysis.shapes.shape`) still holds every part of ``keeps`` (the parts
    its cluster's signature says every case has: a ruffed cluster's minimal position has a ruff), the answers
    differing as ``differs_as`` says every case's do (:func:`conformance.analysis.shapes.difference`):
    (position, the spec's answer there, the engine's, shrinking steps taken; :data:`MAX_ROUNDS` steps: it was
    stopped there)."""
    from conformance.analysis.shapes import difference, shape
    wanted_shape = set(keeps)
    from conformance.generation.decisions import answer
    spec = answer(rules, op, inp)
    engine = session.ask(ruleset, op, [inp])[0]
    if differing(op, spec, engine, fields) != wanted:
        return inp, spec, engine or {}, 0
    held = ({k: spec.get(k) for k in wanted}, {k: engine.get(k) for k in wanted})   # the answers it shows

    def same(s: dict, g: dict | None) -> bool:   # the same answers on the fields it differs in
        return g is not None and held == ({k: s.get(k) for k in wanted}, {k: g.get(k) for k in wanted})
    steps = 0
    tried: set[str] = set()
    for _ in range(MAX_ROUNDS):
        smaller = []
        for _, cand in moves(inp):
            key = json.dumps(cand, sort_keys=True)
            if key in tried or size(cand) >= size(inp):
                continue
            tried.add(key)
            s = answer(rules, op, cand)
            if "error" not in s and {k: s.get(k) for k in wanted} == held[0] and \
                    (not wanted_shape or wanted_shape <= set(shape(rules, op, cand))):
                smaller.append((cand, s))
            if len(smaller) >= BATCH:
                break
        if not smaller:
            break
        got = session.ask(ruleset, op, [c for c, _ in smaller])
        pick = next(((c, s, g) for (c, s), g in zip(smaller, got)
                     if differing(op, s, g, fields) == wanted and same(s, g) and
                     (not differs_as or difference(op, c, s, g) == differs_as)), None)
        if pick is None:
            break
        inp, spec, engine = pick
        steps += 1
    return inp, spec, engine, steps
