"""The clauses a failing case is charged to: those whose alternative reading would change a field the engine
got wrong (they decide it), else the clauses the reference consulted."""
from __future__ import annotations

from dataclasses import dataclass

from conformance.generation.decisions import answer
from conformance.protocol import messages as protocol


@dataclass(frozen=True)
class Charge:
    clauses: tuple[str, ...]          # the clauses charged
    how: str                          # "finding", "cluster", "decides" or "consulted"
    finding: str | None = None        # the feature of the finding that explains it


def deciding(case: dict, engine: dict, alts, fields=None) -> Charge:
    op = case["op"]
    expected = protocol.normalize(op, case["expected"], fields)
    skip = protocol.unanswered(op, engine, fields)
    wrong = {k for k in (fields or protocol.COMPARED[op]) if expected.get(k) != engine.get(k) and k not in skip}
    clauses: list[str] = []
    for alt in alts:
        if op in alt.observers and alt.clause not in clauses:
            other = answer(alt.rules, op, case["input"])
            if "error" not in other and any(other.get(k) != expected.get(k) for k in wrong):
                clauses.append(alt.clause)
    if clauses:
        return Charge(tuple(clauses), "decides")
    return Charge(tuple(case.get("clauses", ())), "consulted")


def _deciding_chunk(items: list[tuple[dict, dict, object]], alts) -> list[Charge]:
    """On a worker: :func:`deciding` of each (case, the engine's answer, the fields compared)."""
    return [deciding(case, engine, alts, fields) for case, engine, fields in items]


DECIDING_CHUNK = 8   # failing cases per chunk of the executor: each is asked of every alternative


def deciding_all(items: list[tuple[dict, dict, object]], alts, executor=None) -> list[Charge]:
    """:func:`deciding` of each (case, the engine's answer, the fields compared), on the executor when one is
    given (in order; the chunks depend on the items alone)."""
    if executor is None or len(items) <= DECIDING_CHUNK:
        return _deciding_chunk(items, alts)
    from conformance.running.parallel import cut, map_chunks
    return [c for chunk in map_chunks(_deciding_chunk, cut(items, DECIDING_CHUNK), pool=executor,
                                      extra=(tuple(alts),)) for c in chunk]
