"""The generated suite on the parallel executor: one chunk per ruleset and operation, each with its own engine.

``tractor conform --generated`` checks one Hypothesis property per ruleset and
operation. Each property depends only on its ruleset, operation, profile and
seed, so the properties are independent chunks (:mod:`parallel`): a worker
starts its own engine process, checks its properties and stops the engine.
The outcomes come back in chunk order, the same on one core, on every core or
on a Dask cluster (whose workers must be able to start the engine command).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

from conformance.generation.suite import Disagreement, EngineUnavailable, OpOutcome, ProcessEngine, check_operation


@dataclass
class GeneratedRun:
    """What the parent needs of the engines the workers ran: their outcomes and one handshake."""

    outcomes: list[OpOutcome]
    handshake: dict | None = None
    fields: dict = field(default_factory=dict)
    argv: list[str] = field(default_factory=list)
    restarts: int = 0


def _plain(o: OpOutcome) -> dict:
    return asdict(o)           # a Disagreement is a dataclass too: it becomes a dict (it does not pickle)


def _outcome(d: dict) -> OpOutcome:
    dis = d.pop("disagreement")
    return OpOutcome(**d, disagreement=Disagreement(**dis) if dis is not None else None)


def _chunk(pairs: list[tuple[str, str]], command: str, timeout: float, profile: str, seed: int) -> dict:
    """On a worker: the properties of ``pairs`` against a fresh engine process."""
    from conformance.running import supervise
    engine = ProcessEngine(command, timeout)
    out = []
    try:
        for ruleset, op in pairs:
            if not engine.supports(op, ruleset):
                out.append(_plain(OpOutcome(op, ruleset, "skipped", 0, skipped_reason="not supported by the engine")))
            else:
                out.append(_plain(check_operation(engine, ruleset, op, profile, seed)))
    except EngineUnavailable as e:
        return {"unavailable": str(e)}
    except OSError as e:       # the command cannot be run at all
        return {"unavailable": f"cannot start the engine {command!r}: {e.strerror or e}"}
    finally:
        engine.close()
        supervise.end_children()
    return {"outcomes": out, "handshake": engine.handshake, "fields": {k: list(v) for k, v in engine.fields.items()},
            "argv": list(engine.argv), "restarts": engine.restarts}


def run_generated(command: str, timeout: float, rulesets: list[str], ops: list[str], profile: str, seed: int,
                  jobs: int | None = None, scheduler: str | None = None, progress=None) -> GeneratedRun:
    """Every property of ``rulesets`` × ``ops`` against the engine ``command``, on the executor.

    Raises :class:`EngineUnavailable` when an engine cannot be started or gives no valid handshake."""
    from conformance.running.parallel import cut, map_chunks
    pairs = [(rs, op) for rs in rulesets for op in ops]
    chunks = map_chunks(_chunk, cut(pairs, 1), jobs=jobs, scheduler=scheduler,
                        extra=(command, timeout, profile, seed), progress=progress)
    run = GeneratedRun([])
    for chunk in chunks:
        if "unavailable" in chunk:
            raise EngineUnavailable(chunk["unavailable"])
        run.outcomes += [_outcome(d) for d in chunk["outcomes"]]
        run.handshake = run.handshake or chunk["handshake"]
        run.fields = run.fields or {k: tuple(v) for k, v in chunk["fields"].items()}
        run.argv = run.argv or chunk["argv"]
        run.restarts += chunk["restarts"]
    return run
