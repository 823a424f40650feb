"""The verdict step (issue 31, item 7): how long the analysis of a failing run takes — findings (alternatives
judged field by field, ranked by failures explained minus passes broken), clusters, their naming by search —
on the wrapper engines of the test suite, in process, without the engine (no shrinking: that is the
protocol's, benchmarks/bench_shrinking.py), and what each finding is named by.

    .venv/bin/python benchmarks/bench_verdicts.py [--only NAME,...] [--repeat N]

Each engine of ``tests/conformance/engines`` that rewrites the reference's answers (its ``tamper`` hook) is
asked every vector case of its ruleset in process; the failures and passes are then analysed as ``tractor
conform`` analyses them (:func:`conformance.analysis.attribution.analyse`, then
:func:`conformance.analysis.clusters.cluster`). A benchmark on a shared machine (the load is printed), not a
test.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
ENGINES = os.path.join(ROOT, "tests", "conformance", "engines")
sys.path.insert(0, ROOT)
sys.path.insert(0, ENGINES)

# engine -> (ruleset, arguments, the clauses a reader should be sent to)
SUITE = {
    "tie_last": ("r001", (), ("trump.order", "compare.multi", "trick.compare")),
    "level_suits": ("r001", (), ("trump.order", "trick.compare")),
    "joker_suit": ("r001", (), ("follow.suit",)),
    "tier_pairs": ("r001", (), ("follow.pairs", "follow.suit", "tractor.shape")),
    "reason_swap": ("r001", (), ("follow.pairs", "follow.suit")),
    "offender_barred": ("r001", (), ("declare.wrong",)),
    "overcall_original": ("r001", (), ("declare.own", "declare.overcall")),
    "kitty_dealt": ("r000", (), ("kitty.exchange", "kitty.capture")),
    "wrong_answers": ("r001", (), ("follow.suit",)),
    "flat_penalty": ("r001", (), ("lead.throw_fail",)),
    "trump_triple": ("r001", (), ("follow.triple",)),
    "ruff_first": ("r001", (), ("trick.ruff", "compare.multi")),
    "kitty_pair": ("r001", (), ("kitty.capture",)),
    "altered": ("r001", ('{"trump.fixed_ranks": []}',), ("trump.order",)),
}


def answers(name: str, ruleset: str, args: tuple):
    """(failures, passes) of the engine over the vector cases of ``ruleset``."""
    from conformance.generation.cases import vector_cases
    from conformance.protocol import engine_io, messages as protocol
    from several import tamper_of   # the wrapper engines' hooks, taken as several.py takes them
    tamper = tamper_of(name, args)
    fails, passes = [], []
    for i, case in enumerate(vector_cases(None, [ruleset], None)):
        msg = {"seq": i, "op": case["op"], "ruleset": ruleset, "input": case["input"]}
        ans = engine_io.answer(msg)
        data = tamper(msg, ans)
        if data is not None:
            ans = json.loads(data)
        res = ans.get("result")
        if isinstance(res, dict):
            (passes.append(case) if protocol.agrees(case["op"], case["expected"], res) else
             fails.append((case, res)))
    return fails, passes


def verdicts(ruleset: str, fails, passes):
    from reference_impl.rules import rules_for
    from conformance.analysis import clusters as clustering
    from conformance.analysis.attribution import _alternatives, analyse
    from conformance.protocol import messages as protocol
    rules = rules_for(ruleset)
    t0 = time.perf_counter()
    a = analyse(rules, fails, passes, charge_unexplained=False)
    t1 = time.perf_counter()
    case_of = {c["id"]: c for c, _ in fails}
    engine_of = {c["id"]: protocol.normalize(c["op"], g) for c, g in fails}
    found = clustering.cluster(rules, ruleset, [(case_of[i], engine_of[i]) for i in a.unexplained],
                               _alternatives(rules), {}, constant=a.constant, passes=passes)
    t2 = time.perf_counter()
    return a, found, t1 - t0, t2 - t1


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", default="", help="comma-separated engine names")
    p.add_argument("--repeat", type=int, default=1, help="runs per engine (the best time is kept)")
    args = p.parse_args(argv)
    from reference_impl.rules import rules_for
    from conformance.analysis.attribution import _alternatives
    for rs in sorted({v[0] for v in SUITE.values()}):   # warm: the rules and their alternatives, once
        _alternatives(rules_for(rs))
    print(f"{os.cpu_count()} cores; load {os.getloadavg()[0]:.2f} at the start")
    print(f"{'engine':18} {'rs':5} {'fail':>5} {'pass':>5} {'findings s':>10} {'clusters s':>10} {'total s':>8} "
          f"{'alt':>3} {'clu':>3} {'largest named by':24} right")
    for name, (ruleset, extra, clauses) in SUITE.items():
        if args.only and name not in args.only.split(","):
            continue
        fails, passes = answers(name, ruleset, extra)
        best = None
        for _ in range(max(1, args.repeat)):
            got = verdicts(ruleset, fails, passes)
            if best is None or got[2] + got[3] < best[2] + best[3]:
                best = got
        a, found, t_find, t_clu = best
        every = [(len(f.cases), f.clause) for f in a.findings] + [(len(c.cases), c.clause) for c in found]
        largest = max(every)[1] if every else "-"
        print(f"{name:18} {ruleset:5} {len(fails):5d} {len(passes):5d} {t_find:10.2f} {t_clu:10.2f} "
              f"{t_find + t_clu:8.2f} {len(a.findings):3d} {len(found):3d} {largest:24} "
              f"{'yes' if largest in clauses else 'no'}")
    print(f"load {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
