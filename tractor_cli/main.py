"""The ``tractor`` command: one entry point, one module per subcommand.

Each subcommand lives in its own module of this package exposing
``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``. Bad input is
reported as a message and a non-zero exit status, never as a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import os
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


def _available(only: str | None = None):
    for name, module in COMMANDS.items():
        if only is not None and name != only:
            continue
        try:
            yield name, importlib.import_module(f"tractor_cli.{module}")
        except ModuleNotFoundError as e:
            if e.name != f"tractor_cli.{module}":
                raise


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of the one command ``only`` (what a run of that command needs: a
    short-lived process such as ``tractor engine`` then imports its own module, not every command's)."""
    parser = argparse.ArgumentParser(prog="tractor", description="The executable rulebook of Tractor (拖拉机 / 升级).")
    parser.add_argument("--version", action=_Version, nargs=0, help="print the installed version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in _available(only):
        p = sub.add_parser(name, help=module.HELP, description=module.HELP, usage=getattr(module, "USAGE", None))
        module.add_arguments(p)
        p.set_defaults(_run=module.run, _parser=p)
    return parser


class _Version(argparse.Action):
    """``--version``, read from the distribution only when asked (importlib.metadata costs every start)."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"{parser.prog} {version()}")
        parser.exit()


def version() -> str:
    """The installed distribution's version (``tractor-rulebook``)."""
    from importlib.metadata import PackageNotFoundError, version as dist_version
    try:
        return dist_version("tractor-rulebook")
    except PackageNotFoundError:   # a checkout used without installing it
        return "unknown (not installed)"


def main(argv: list[str] | None = None) -> int:
    from tractor_dsl.diagnostics import SpecError
    from tractor_dsl.files import WriteError

    if (sys.argv[1:] if argv is None else argv)[:1] == ["conform"]:
        from conformance.running.interrupts import catch_early  # a signal from now on still ends with a report
        catch_early()
    else:
        _end_on_sigterm()
    first = (sys.argv[1:] if argv is None else argv)[:1]
    parser = build_parser(first[0] if first and first[0] in COMMANDS else None)
    args, extra = parser.parse_known_args(argv)
    if extra and getattr(args, "_parser", None):  # a bad option of a command: that command's usage
        args._parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    if getattr(args, "scheduler", None):
        from conformance.running.parallel import missing_cluster
        if missing_cluster(args.scheduler):
            print(f"tractor {args.command}: {missing_cluster(args.scheduler)}", file=sys.stderr)
            return 2
    from reference_impl import announce
    from tractor_dsl.diagnostics import showable
    announce.TELL = lambda line: print(showable(f"tractor {args.command}: {line}"), file=sys.stderr)
    args._whole_process = argv is None   # the console script (or python -m): the command is the process
    try:
        return args._run(args)
    except SystemExit as e:   # a command that exits with a status
        return e.code if isinstance(e.code, int) else 1
    except SpecError as e:   # a rule file that does not check, an unknown ruleset: bad input, as for conform
        for d in e.diagnostics:
            print(d.headline(), file=sys.stderr)
        return 2
    except WriteError as e:   # a file refused or not written (tractor_dsl.files): the target is as it was
        print(f"tractor {args.command}: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # last resort: a message, never a traceback
        print(f"tractor {args.command}: internal error: {e.__class__.__name__}: {e}", file=sys.stderr)
        return 70
    finally:
        if "conformance.running.supervise" in sys.modules:   # engines this command started, with their groups
            sys.modules["conformance.running.supervise"].kill_child_groups()


def _end_on_sigterm() -> None:
    """SIGTERM ends a command at once, and takes along every process it started: its pool workers get SIGTERM
    (each ends its own engines first), its engines are killed with their process groups. A handler that
    raised instead could be swallowed by whatever was running (a finalizer ignores the exception)."""
    import signal

    def end(signum, frame):
        from conformance.running.supervise import end_started
        end_started()
        os._exit(128 + signum)
    try:
        signal.signal(signal.SIGTERM, end)
    except ValueError:   # not the main thread (main() called from a test's thread)
        pass


if __name__ == "__main__":
    sys.exit(main())
