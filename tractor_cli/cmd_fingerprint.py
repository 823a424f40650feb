"""``tractor fingerprint --engine CMD --ruleset R``: which reading of each interpreted clause an engine follows."""
from __future__ import annotations

import json
import sys

HELP = "find which reading of each interpreted clause an engine follows"


POSITIONS_RANGE = (1, 1000)   # discriminating positions per clause: each is searched for and asked


def add_arguments(p):
    from .options import output_file, seconds, whole
    p.add_argument("--engine", required=True, help='the engine command, e.g. "tractor engine"')
    p.add_argument("--ruleset", required=True, help="the ruleset whose readings to probe, e.g. r001")
    p.add_argument("--positions", type=whole(*POSITIONS_RANGE), default=4, metavar="N",
                   help=f"discriminating positions per clause, {POSITIONS_RANGE[0]} to {POSITIONS_RANGE[1]:,} "
                        "(default 4)")
    p.add_argument("--seed", type=int, default=0,
                   help="random seed of the search for discriminating positions (default 0)")
    p.add_argument("--timeout", type=seconds(), default=10.0, metavar="SECONDS",
                   help="seconds per request, 0.01 to 86400 (default 10)")
    p.add_argument("--json", metavar="FILE", type=output_file,
                   help="also write the verdicts and their evidence as JSON")
    p.add_argument("--emit", metavar="FILE", type=output_file,
                   help="also run the seeded suite and write a ruleset extending R that overrides every reading "
                        "and feature the engine is seen to follow, with the evidence as each override's reason")
    p.add_argument("--name", type=ruleset_name,
                   help="the emitted ruleset's name: letters, digits and _, not a digit first (default: made from "
                        "the --emit file's name, letters outside ASCII left out, and said)")
    from conformance.running.parallel import add_arguments as add_parallel
    add_parallel(p)   # the search for discriminating positions; the engine is asked from this process


NAME = r"[A-Za-z_][A-Za-z0-9_]*"   # a ruleset's name in a rule file (tractor_dsl/tractor.lark, NAME)
KEYWORDS = ("ruleset", "extends")


def ruleset_name(text: str) -> str:
    """``--name``: a name the rule language takes for a ruleset, not one of the bundled rulesets (argparse type)."""
    import argparse
    import re
    if not re.fullmatch(NAME, text) or text in KEYWORDS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a ruleset name: letters A-Z, digits and _, "
                                         "not a digit first (e.g. my_rules)")
    if _taken(text):
        raise argparse.ArgumentTypeError(f"{text!r} is the name of a bundled ruleset: choose another")
    return text


def _taken(name: str) -> bool:
    from reference_impl.rules import catalogue_names, ruleset_names
    return name in ruleset_names() or name in catalogue_names()


def name_of_file(path: str) -> str:
    """The ruleset name made from a file's name: accents dropped, every other character outside A-Z, 0-9 and _
    a _ (runs of them one), ``r_`` before a digit, ``observed`` when nothing is left, ``_observed`` after the
    name of a bundled ruleset."""
    import re
    import unicodedata
    from pathlib import Path
    stem = unicodedata.normalize("NFKD", Path(path).name.split(".")[0])
    name = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_]", "_", stem.encode("ascii", "ignore").decode())).strip("_")
    if not name:
        return "observed"
    if name[0].isdigit():
        name = f"r_{name}"
    if name in KEYWORDS or _taken(name):
        name += "_observed"
    return name


def run(args) -> int:
    from conformance.analysis.fingerprint import fingerprint
    from conformance.generation.suite import EngineUnavailable, ProcessEngine
    from reference_impl.rules import rules_for
    from conformance.protocol import messages as protocol
    rules = rules_for(args.ruleset)
    if args.emit:   # the name is settled before the run, and said
        given = args.name is not None
        args.name = args.name or name_of_file(args.emit)
        if args.name == rules.name:
            print(f"tractor fingerprint: the emitted ruleset cannot be named {args.name}, as the ruleset it "
                  "extends: give --name", file=sys.stderr)
            return 2
        if not given:
            print(f"tractor fingerprint: the emitted ruleset will be named {args.name} (made from the file's "
                  "name; --name chooses another)", file=sys.stderr)
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
        from tractor_dsl.files import write_file
        write_file(args.json, json.dumps([{"clause": v.clause, "readings": v.readings, "chosen": v.chosen,
                                           "followed": v.followed, "positions": v.positions, "context": v.context,
                                           "evidence": v.evidence} for v in verdicts], ensure_ascii=False, indent=1))
    unobserved = [v.clause for v in verdicts if v.unobserved]
    print(f"\n{len(verdicts)} clause(s) with several readings; the engine departs from {rules.name} on {mismatches}"
          + (f"; {len(unobserved)} unobserved (only through operations it does not answer)" if unobserved else ""))
    if args.emit:
        return _emit(args, rules, verdicts, listed, engine.handshake.get("name") or engine.name)
    return 0


def _emit(args, rules, verdicts, listed: list[str], engine_name: str) -> int:
    """Run the seeded suite (listed operations only), and write what the engine follows as a ruleset."""
    from conformance.analysis.emit import (emit_text, observe, on_same_positions, readings_settled, summary,
                                           with_fixing_clusters)
    from conformance.running import supervise
    from reference_impl.rules import load_file
    from tractor_dsl.files import write_file
    name = args.name   # settled before the run (run)
    from .progress import ConformProgress
    try:
        result = observe(args.engine, rules.name, listed, args.timeout, jobs=args.jobs, scheduler=args.scheduler,
                         progress=ConformProgress(None))
    finally:
        supervise.end_children()
    stated = with_fixing_clusters(rules, result.findings, result.clusters)
    text = emit_text(rules, name, stated, verdicts, engine_name)
    try:
        write_file(args.emit, text)
    except OSError as e:
        print(f"tractor fingerprint: cannot write {args.emit}: {e.strerror or e}", file=sys.stderr)
        return 2
    emitted = load_file(args.emit)   # what it wrote must check (a SpecError otherwise, located in the file)
    print("\n" + "\n".join(summary(args.emit, name, rules, text, result, on_same_positions(result, emitted),
                                       len(stated) - len(result.findings))))
    settled = readings_settled(verdicts, emitted)   # the table's "none of them", judged again by the file
    if settled:
        print("\n".join(["", "the clauses whose readings the engine follows none of, judged again by the emitted file:",
                         *(f"  {line}" for line in settled)]))
    return 0
