"""``tractor fingerprint --engine CMD --ruleset R``: which reading of each interpreted clause an engine follows."""
from __future__ import annotations

import json
import sys

HELP = "find which reading of each interpreted clause an engine follows"


def add_arguments(p):
    p.add_argument("--engine", required=True, help='the engine command, e.g. "tractor engine"')
    p.add_argument("--ruleset", required=True, help="the ruleset whose readings to probe, e.g. r001")
    p.add_argument("--positions", type=int, default=4, help="discriminating positions per clause (default 4)")
    p.add_argument("--seed", type=int, default=0,
                   help="random seed of the search for discriminating positions (default 0)")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per request")
    p.add_argument("--json", metavar="FILE", help="also write the verdicts and their evidence as JSON")
    p.add_argument("--emit", metavar="FILE",
                   help="also run the seeded suite and write a ruleset extending R that overrides every reading "
                        "and feature the engine is seen to follow, with the evidence as each override's reason")
    p.add_argument("--name", help="the emitted ruleset's name (default: the --emit file's name)")
    from conformance.running.parallel import add_arguments as add_parallel
    add_parallel(p)   # the search for discriminating positions; the engine is asked from this process


def run(args) -> int:
    from conformance.analysis.fingerprint import fingerprint
    from conformance.generation.suite import EngineUnavailable, ProcessEngine
    from reference_impl.rules import rules_for
    from conformance.protocol import messages as protocol
    rules = rules_for(args.ruleset)
    engine = ProcessEngine(args.engine, args.timeout)
    try:
        engine.supports("classify", rules.name)   # starts the engine: its handshake lists what it answers
        listed = [op for op in protocol.OPERATIONS if op in engine.handshake["operations"]]
        if rules.name not in engine.handshake["rulesets"] and "*" not in engine.handshake["rulesets"]:
            print(f"tractor fingerprint: the engine does not list ruleset {rules.name} in its handshake",
                  file=sys.stderr)
            return 2
        from .progress import ConformProgress
        with ConformProgress(None) as bar:   # a spinner on a terminal, nothing elsewhere
            verdicts = fingerprint(engine, rules.checked, args.positions, args.seed,
                                   lambda what: bar.preparing(f"probing {what}"), ops=listed, jobs=args.jobs,
                                   scheduler=args.scheduler, ruleset=args.ruleset)
    except (EngineUnavailable, RuntimeError) as e:   # RuntimeError: the Dask scheduler cannot be reached
        print(f"tractor fingerprint: {e}", file=sys.stderr)
        return 2
    finally:
        engine.close()
    print(f"{engine.name} on {rules.name}: readings followed\n")
    print(f"{'clause':26} {'spec chooses':20} {'engine follows':22} positions")
    mismatches = 0
    for v in verdicts:
        mark = "" if v.chosen in v.followed or not v.positions or v.unobserved else "  <- differs from the spec"
        if mark:
            mismatches += 1
        print(f"{v.clause:26} {v.chosen:20} {v.verdict:22} {v.positions:>9}{mark}")
    for v in verdicts:
        for note in v.notes() if v.positions and not v.unobserved else ():   # the positions beside the verdict
            print(f"  {note}")
        if v.context:   # judged again among the engine's other departures (see fingerprint.in_context)
            print(f"  {v.clause}: judged with the engine's other readings chosen ("
                  + ", ".join(f"{c} {r}" for c, r in v.context.items()) + ")")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([{"clause": v.clause, "readings": v.readings, "chosen": v.chosen, "followed": v.followed,
                        "positions": v.positions, "context": v.context, "evidence": v.evidence} for v in verdicts], f,
                      ensure_ascii=False, indent=1)
    unobserved = [v.clause for v in verdicts if v.unobserved]
    print(f"\n{len(verdicts)} clause(s) with several readings; the engine departs from {rules.name} on {mismatches}"
          + (f"; {len(unobserved)} unobserved (only through operations it does not answer)" if unobserved else ""))
    if args.emit:
        return _emit(args, rules, verdicts, listed, engine.handshake.get("name") or engine.name)
    return 0


def _emit(args, rules, verdicts, listed: list[str], engine_name: str) -> int:
    """Run the seeded suite (listed operations only), and write what the engine follows as a ruleset."""
    import re
    from pathlib import Path

    from conformance.analysis.emit import emit_text, observe, on_same_positions, summary
    from conformance.running import supervise
    from reference_impl.rules import load_file
    name = args.name or re.sub(r"\W", "_", Path(args.emit).stem) or "seen"
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        name = f"r_{name}"
    from .progress import ConformProgress
    try:
        result = observe(args.engine, rules.name, listed, args.timeout, jobs=args.jobs, scheduler=args.scheduler,
                         progress=ConformProgress(None))
    finally:
        supervise.end_children()
    text = emit_text(rules, name, result.findings, verdicts, engine_name)
    try:
        Path(args.emit).write_text(text, encoding="utf-8")
    except OSError as e:
        print(f"tractor fingerprint: cannot write {args.emit}: {e.strerror or e}", file=sys.stderr)
        return 2
    emitted = load_file(args.emit)   # what it wrote must check (a SpecError otherwise, located in the file)
    print("\n" + "\n".join(summary(args.emit, name, rules, text, result, on_same_positions(result, emitted))))
    return 0
