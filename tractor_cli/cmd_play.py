"""``tractor play RULESET --seed S``: whole games, as a readable transcript or JSON.

Game ``g`` is played from seed ``S + g``; with ``--games N`` the games run in
deterministic chunks on every core (``--jobs``) or a Dask cluster
(``--scheduler``) and are printed in order, the same whatever runs them.
"""
from __future__ import annotations

import json
from contextlib import contextmanager
import sys

from reference_impl.cards import show_cards

HELP = "play whole games under a ruleset (random legal or heuristic players) and print the transcript"


RULESET_MINUTES = 0   # --minutes with no value: the ruleset's match.minutes (a given M is 1 or more; argparse
                      # passes a const that is not a string through unchecked)


def add_arguments(p):
    from conformance.running.parallel import add_arguments as add_parallel
    from .options import whole
    p.add_argument("ruleset", help="ruleset name, e.g. r003")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--games", type=whole(1), default=1, metavar="N", help="number of games, 1 or more (default 1)")
    p.add_argument("--max-hands", type=whole(1), default=300, metavar="N",
                   help="stop a game after this many hands, 1 or more (default 300)")
    p.add_argument("--json", action="store_true", help="print JSON lines, one game per line")
    p.add_argument("--brief", action="store_true", help="one line per hand, no tricks")
    p.add_argument("--minutes", type=whole(1), nargs="?", const=RULESET_MINUTES, default=None, metavar="M",
                   help="play under a time limit on a simulated clock: M minutes, or the ruleset's match.minutes "
                        "when M is left out (the match.* settings decide what happens at time)")
    p.add_argument("--players", choices=("sampling", "random", "heuristic"), default="sampling",
                   help="sampling: random legal choices drawn with the deal (default); random: the random legal "
                        "player; heuristic: the baseline heuristic player")
    add_parallel(p)


def _cards(cards) -> str:
    return show_cards(cards)


def declaration_lines(declarations) -> list[str]:
    """The declarations of a hand, each said for what it is: the first declaration, a reinforcement (加固:
    the standing declarer adds copies of his card) or an overcall (反主)."""
    lines, seat_card, count = [], None, 0
    for seat, cards in declarations:
        cards = list(cards)
        if seat_card is not None and seat == seat_card[0] and cards and all(c == seat_card[1] for c in cards):
            count += len(cards)
            lines.append(f"seat {seat} reinforces (加固) with {_cards(cards)}: now {_cards([seat_card[1]] * count)}")
            continue
        verb = "declares" if seat_card is None else "overcalls (反主) with"
        seat_card, count = ((seat, cards[-1]) if cards else None), len(cards)
        lines.append(f"seat {seat} {verb} {_cards(cards)}")
    return lines


def outcome_line(rules, game) -> str:
    """The last line of a game: who won and why, with the levels after the last hand."""
    final = dict(game.levels[-1])
    why = ""
    if game.ended_by == "end level" and game.hands:
        from reference_impl.levels import advance
        hand = game.hands[-1]
        as_banker = hand.next_banker_side == "banker"
        before = final[game.winner]
        j = advance(rules, before, hand.levels_gained, as_banker)
        final[game.winner] = f"past {rules['level.end']}"
        side = "the banker side" if as_banker else "the attackers"
        why = (f": at {before} it gained {hand.levels_gained} level(s) as {side} in hand {hand.number} and passed "
               f"{rules['level.end']}, the end level ({', '.join(dict.fromkeys(j.clauses))})")
    outcome = f"team {game.winner} wins{why}" if game.winner is not None else "no winner within the hand limit"
    if game.ended_by == "time":
        outcome += (f" at time ({game.minutes} minutes, {game.clock:.0f} played"
                    + (f"; hand {game.abandoned} abandoned" if game.abandoned else "")
                    + f"; decided by {', '.join(dict.fromkeys(game.clauses))})")
    elif game.minutes is not None and game.winner is not None:
        outcome += f", after {game.clock:.0f} of {game.minutes} minutes"
    return f"== {outcome}; final levels team0 {final[0]} / team1 {final[1]} =="


def play_games(indices, ruleset: str, seed: int, max_hands: int, players: str, minutes: int | None = None) -> list:
    """Games ``seed + g`` for ``g`` in ``indices`` (a chunk: run by any worker, with the same result)."""
    from reference_impl.game import play_game
    from reference_impl.rules import rules_for
    rules = rules_for(ruleset)
    out = []
    for g in indices:
        chosen = None
        if players != "sampling":
            from tractor_play.players import make_players
            chosen = make_players(players, seed + g)
        out.append(play_game(rules, seed + g, max_hands, minutes, players=chosen))
    return out


@contextmanager
def _games_bar(games: int):
    """Several games: a bar of the games played on stderr while they run (a terminal only; the transcripts
    are printed once every game is over); the callback of :func:`map_chunks`, or None."""
    if games < 2:
        yield None
        return
    from rich.progress import Progress

    from . import ui
    from .progress import fitting_columns
    err = ui.console(stderr=True)
    if not err.is_terminal or err.is_dumb_terminal:
        yield None
        return
    with Progress(*fitting_columns(err.width, describe=12), console=err, transient=True) as bar:
        task = bar.add_task("games", total=games)
        yield lambda done, total: bar.update(task, completed=done, total=total)


def run(args) -> int:
    from conformance.running.parallel import cut, map_chunks
    from reference_impl.rules import rules_for
    rules = rules_for(args.ruleset)
    minutes = args.minutes
    if minutes == RULESET_MINUTES:
        minutes = rules["match.minutes"]
        if minutes is None:
            print(f"tractor play: {rules.name} sets no time limit (match.minutes); give --minutes M", file=sys.stderr)
            return 2
    if minutes is not None and minutes < 1:
        print("tractor play: --minutes must be at least 1", file=sys.stderr)
        return 2
    if args.games < 1:
        print("tractor play: --games must be at least 1", file=sys.stderr)
        return 2
    jobs = 1 if args.games == 1 and not args.scheduler else args.jobs
    try:
        with _games_bar(args.games) as show:
            chunks = map_chunks(play_games, cut(range(args.games), 1), jobs=jobs, scheduler=args.scheduler,
                                extra=(args.ruleset, args.seed, args.max_hands, args.players, minutes),
                                progress=show)
    except RuntimeError as e:
        print(f"tractor play: {e}", file=sys.stderr)
        return 2
    from .ui import echo
    games = [g for chunk in chunks for g in chunk]
    for game in games:
        seed = game.seed
        if args.json:
            echo(json.dumps(game.to_json(), ensure_ascii=False))
            continue
        lines = [f"== {rules.name}: game with seed {seed} =="]
        for hand, levels in zip(game.hands, game.levels):
            trump = "none" if hand.trump in (None, "no_trump") else "♠♥♦♣"[hand.trump]   # no_trump: nobody declared (H01, V66)
            lines.append(f"hand {hand.number}: levels team0 {levels[0]} / team1 {levels[1]}; banker seat {hand.banker} "
                         f"(team {hand.banker % 2}), level {hand.level}, trump {trump}"
                         + (f", {hand.redeals} redeal(s)" if hand.redeals else ""))
            if not args.brief:
                lines += [f"  {line}" for line in declaration_lines(hand.declarations)]
                lines.append(f"  buried: {_cards(hand.buried)}")
                for i, t in enumerate(hand.tricks, 1):
                    failed = f" [failed throw {_cards(t.attempted)}: {t.penalty:+d}]" if t.attempted else ""
                    plays = " | ".join(f"{s}: {_cards(c)}" for s, c in t.plays)
                    lines.append(f"  {i:2d}. {plays} -> seat {t.winner} (+{t.points}){failed}")
            lines.append(f"  attackers: {hand.trick_points} in tricks, {hand.kitty_points:+d} kitty, "
                         f"{hand.penalty_points:+d} penalties = {hand.attackers_points}; "
                         f"{hand.next_banker_side} +{hand.levels_gained}")
        lines.append(outcome_line(rules, game))
        echo("\n".join(lines))
    if len(games) > 1 and not args.json:
        echo(tally_line(rules.name, games))
    return 0


def tally_line(name: str, games) -> str:
    """The last line of several games: how many each team won, how many had no winner, hands in all."""
    wins = [sum(1 for g in games if g.winner == t) for t in (0, 1)]
    none = sum(1 for g in games if g.winner is None)
    hands = sum(len(g.hands) for g in games)
    return (f"== {name}: {len(games)} games: team0 won {wins[0]}, team1 won {wins[1]}"
            + (f", {none} without a winner" if none else "") + f"; {hands} hands in all ==")
