"""The ``tractor`` command: one entry point, one module per subcommand.

Each subcommand lives in its own module of this package exposing
``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``. Bad input is
reported as a message and a non-zero exit status, never as a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import sys

# name -> module (in this package)
COMMANDS = {
    "check": "cmd_check",
    "show": "cmd_show",
    "export": "cmd_export",
    "fmt": "cmd_fmt",
    "explain": "cmd_explain",
    "play": "cmd_play",
    "engine": "cmd_engine",
    "conform": "cmd_conform",
    "vectors": "cmd_vectors",
    "mutate": "cmd_mutate",
    "fingerprint": "cmd_fingerprint",
    "diff": "cmd_diff",
    "impact": "cmd_impact",
}


def _available():
    for name, module in COMMANDS.items():
        try:
            yield name, importlib.import_module(f"tractor_cli.{module}")
        except ModuleNotFoundError as e:
            if e.name != f"tractor_cli.{module}":
                raise


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tractor", description="The executable rulebook of Tractor (拖拉机 / 升级).")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in _available():
        p = sub.add_parser(name, help=module.HELP, description=module.HELP, usage=getattr(module, "USAGE", None))
        module.add_arguments(p)
        p.set_defaults(_run=module.run, _parser=p)
    return parser


def main(argv: list[str] | None = None) -> int:
    from tractor_dsl.diagnostics import SpecError

    if (sys.argv[1:] if argv is None else argv)[:1] == ["conform"]:
        from conformance.running.interrupts import catch_early  # a signal from now on still ends with a report
        catch_early()
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and getattr(args, "_parser", None):  # a bad option of a command: that command's usage
        args._parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return args._run(args)
    except SpecError as e:
        for d in e.diagnostics:
            print(d.headline(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # last resort: a message, never a traceback
        print(f"tractor {args.command}: internal error: {e.__class__.__name__}: {e}", file=sys.stderr)
        return 70


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
