"""``tractor impact A B [C ...]``: how much rule differences change real hands and games.

The same deals, with the same players, under each ruleset: per ruleset how
often the bank is held, the attackers' points, kitty captures, failed throws,
levels per hand and game length; per pair how often any judgment, the play,
a hand's result or a game's winner differs, and which differing feature
decides each hand's first divergence. Every figure has a 95 % interval.
Work is cut into deterministic chunks (:mod:`parallel`): the figures for a
seed are the same on one core, every core (``--jobs``) or a Dask cluster
(``--scheduler``).
"""
from __future__ import annotations

import sys

HELP = "play the same deals under several rulesets and measure how often their differences change the game"


def add_arguments(p):
    from conformance.running.parallel import add_arguments as add_parallel
    from .options import output_file, whole
    p.add_argument("rulesets", nargs="*", metavar="RULESET", help="two or more rulesets, e.g. r001 r001_literal")
    p.add_argument("--bundled", action="store_true", help="every bundled ruleset (instead of naming them)")
    p.add_argument("--hands", type=whole(0), default=2000, metavar="N", help="hands played under each ruleset (default 2000)")
    p.add_argument("--games", type=whole(0), default=None, metavar="N",
                   help="whole games played under each ruleset (default: one per 20 hands)")
    p.add_argument("--seed", type=int, default=1, help="random seed of the deals and players (default 1)")
    p.add_argument("--players", choices=("heuristic", "random"), default="heuristic",
                   help="who plays all four seats (default heuristic)")
    p.add_argument("--max-hands", type=whole(1), default=300, metavar="N",
                   help="stop a game after this many hands, 1 or more (default 300)")
    p.add_argument("--json", metavar="FILE", type=output_file, help="write the figures as JSON")
    p.add_argument("--plots", metavar="DIR", help="write SVG and PNG plots into DIR")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_parallel(p)


def run(args) -> int:
    from importlib.util import find_spec
    from tractor_play.impact.report import print_tables, write_json, write_plots
    from tractor_play.impact.run import default_command, default_games, run_impact
    from reference_impl.rules import ruleset_names, rules_for

    if args.plots and find_spec("matplotlib") is None:
        print("tractor impact: --plots needs matplotlib: pip install 'tractor-rulebook[impact]'", file=sys.stderr)
        return 2
    names = ruleset_names() if args.bundled else list(args.rulesets)
    if len(names) < 2:
        print("tractor impact: name two or more rulesets (or --bundled)", file=sys.stderr)
        return 2
    if args.hands < 0 or (args.games is not None and args.games < 0):
        print("tractor impact: --hands and --games cannot be negative", file=sys.stderr)
        return 2
    for n in names:
        rules_for(n)  # an unknown name is reported with the known ones
    games = default_games(args.hands) if args.games is None else args.games
    command = default_command(names, args.hands, args.seed, games, args.players) if not args.bundled else \
        default_command(["--bundled"], args.hands, args.seed, games, args.players)
    if args.json:
        command += f" --json {args.json}"
    if args.plots:
        command += f" --plots {args.plots}"
    try:
        if args.quiet:
            data = _run(run_impact, names, args, games, command, None)
        else:
            from rich.progress import Progress

            from . import ui
            from .progress import fitting_columns
            err = ui.console(stderr=True)
            with Progress(*fitting_columns(err.width, describe=12), console=err, transient=True,
                          disable=not err.is_terminal) as bar:
                task = bar.add_task("chunks", total=None)
                data = _run(run_impact, names, args, games, command,
                            lambda done, total: bar.update(task, completed=done, total=total))
    except (ValueError, RuntimeError) as e:
        print(f"tractor impact: {e}", file=sys.stderr)
        return 2
    print_tables(data)
    if args.json:
        write_json(data, args.json)
    if args.plots:
        for path in write_plots(data, args.plots):
            print(f"wrote {path}")
    return 0


def _run(run_impact, names, args, games, command, progress):
    return run_impact(names, args.hands, args.seed, games=games, players=args.players, max_hands=args.max_hands,
                      jobs=args.jobs, scheduler=args.scheduler, progress=progress, command=command)
