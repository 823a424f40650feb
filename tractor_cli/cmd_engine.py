"""``tractor engine``: the reference interpreter as an engine speaking the conformance protocol."""
from __future__ import annotations

HELP = "run the reference interpreter as a protocol engine: JSON-lines requests on stdin, answers on stdout"


def add_arguments(p):
    p.add_argument("--handshake", action="store_true",
                   help="print the handshake answer (name, version, rulesets, operations) and exit")


def run(args) -> int:
    from conformance import engine, protocol
    if args.handshake:
        import sys
        sys.stdout.buffer.write(protocol.encode(protocol.result_answer(0, engine.handshake_result())))
        return 0
    try:
        return engine.serve()
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
