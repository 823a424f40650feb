"""``tractor engine``: the reference interpreter as an engine speaking the conformance protocol."""
from __future__ import annotations

HELP = "run the reference interpreter as a protocol engine: JSON-lines requests on stdin, answers on stdout"


def add_arguments(p):
    p.add_argument("--handshake", action="store_true",
                   help="print the handshake answer (name, version, rulesets, operations) and exit")
    p.add_argument("--rules", action="append", default=[], metavar="FILE",
                   help="also serve the ruleset of this rule file (repeatable), under its own name")
    p.add_argument("--as", dest="alias", metavar="NAME",
                   help="serve the one --rules file under NAME instead (e.g. a mutant of r003 answering as r003)")


def run(args) -> int:
    from conformance.protocol import engine
    from conformance.protocol import messages as protocol
    if args.alias and len(args.rules) != 1:
        import sys
        print("tractor engine: --as needs exactly one --rules FILE", file=sys.stderr)
        return 2
    if args.rules:
        engine.serve_files(args.rules, args.alias)
    if args.handshake:
        import sys
        sys.stdout.buffer.write(protocol.encode(protocol.result_answer(0, engine.handshake_result())))
        return 0
    try:
        from conformance.protocol.engine_io import serve
        status = serve()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    if getattr(args, "_whole_process", False):
        end_process(status)
    return status


def end_process(status: int) -> None:
    """End an engine process once its answers are out, without the interpreter's teardown: freeing the
    checked library, the caches and every module one by one cost an eighth of a run of 20,000 requests.
    The engine holds no file but stdout and stderr, flushed here, and starts no process."""
    import os
    import sys
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:   # the runner is gone: nothing left to tell it
        pass
    os._exit(status)
