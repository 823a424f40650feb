"""Shrinking clusters here or on the workers: what pays on this machine, for engines of several speeds.

    .venv/bin/python benchmarks/bench_shrinking.py [--spins 0,0.001,0.003] [--jobs 2]

The engine is ``tests/conformance/engines/several.py`` with five narrow bugs (ties, jokers, level cards,
declarations: about eight clusters on r001), made slower by ``spin=SECONDS`` of computing per answer. For
each speed the clusters of its run are described three ways, timed on the wall clock
(:func:`conformance.analysis.clusters.describe` alone, the engine already started as a run has it):
every cluster here, one after another (``here``); as a run does it, the rest on the workers while the
first is shrunk here when :func:`~conformance.analysis.clusters.farm_out` says it pays, from the run's time
per case (``auto``); and the rest always on the workers (``workers``). The minimal positions must be the same all three ways (checked, not
timed). A benchmark on a shared machine (the load is printed), not a test.
"""
from __future__ import annotations

import argparse
import copy
import os
import shlex
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, ROOT)
BUGS = ["tie_last", "joker_suit", "level_suits", "offender_barred", "overcall_original"]


def main(argv=None) -> int:
    from conformance.analysis import clusters as clustering
    from conformance.analysis.attribution import attribute
    from conformance.analysis.shrinking import EngineSession, runner_of
    from conformance.generation.cases import vector_cases
    from conformance.protocol import messages as protocol
    from conformance.running.parallel import executor
    from conformance.running.runner import Runner
    from reference_impl.rules import rules_for
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--spins", default="0,0.001,0.003")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--bugs", default=",".join(BUGS), help="the wrapper engines several.py combines")
    args = p.parse_args(argv)
    bugs = args.bugs.split(",")
    cases = vector_cases(None, ["r001"], ["winner", "follow", "declare"])
    rules = rules_for("r001")
    print(f"{os.cpu_count()} cores, {args.jobs} workers; clusters of r001 against several.py ({', '.join(bugs)})")
    print(f"{'spin s':>7} {'clusters':>8} {'start s':>7} {'here s':>7} {'auto s':>7} {'workers s':>9} {'same':>5} "
          f"{'load':>5}")
    for spin in [float(x) for x in args.spins.split(",")]:
        engine = shlex.join([sys.executable, os.path.join(ROOT, "tests", "conformance", "engines", "several.py"),
                             f"spin={spin}", *bugs])
        result = Runner(engine).run(cases, rulesets=["r001"])
        attribute(result, shrink=False)
        case_of = {c["id"]: c for c in result.cases}
        engine_of = {c["id"]: protocol.normalize(c["op"], o.answer) for c, o in zip(result.cases, result.outcomes)
                     if o.status == "fail"}
        times, got = {}, {}
        with executor(args.jobs) as ex:
            ex.submit(int).result()   # the pool's workers up, as they are once the alternatives were judged
            for mode, parallel in (("here", False), ("auto", None), ("workers", True)):
                found = copy.deepcopy(result.clusters)
                with EngineSession(runner_of(EngineSession(result.runner).spec)) as session:
                    t0 = time.perf_counter()
                    clustering.describe(rules, found, case_of, engine_of, session, executor=ex, workers=args.jobs,
                                        parallel=parallel, per_answer=result.duration / len(cases))
                    times[mode] = time.perf_counter() - t0
                    start = session.start_seconds
                got[mode] = [(c.position, c.steps, c.neighbours) for c in found]
        same = got["here"] == got["auto"] == got["workers"]
        print(f"{spin:7.3f} {min(len(result.clusters), clustering.SHRUNK):8d} {start:7.2f} {times['here']:7.2f} "
              f"{times['auto']:7.2f} {times['workers']:9.2f} {str(same):>5} {os.getloadavg()[0]:5.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
