"""``tractor play RULESET --seed S``: whole games, as a readable transcript or JSON.

Game ``g`` is played from seed ``S + g``; with ``--games N`` the games run in
deterministic chunks on every core (``--jobs``) or a Dask cluster
(``--scheduler``) and are printed in order, the same whatever runs them.
"""
from __future__ import annotations

import json
import sys

from reference_impl.cards import glyph

HELP = "play whole games under a ruleset (random legal or heuristic players) and print the transcript"


def add_arguments(p):
    from parallel import add_arguments as add_parallel
    p.add_argument("ruleset", help="ruleset name, e.g. r003")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--games", type=int, default=1, help="number of games (default 1)")
    p.add_argument("--max-hands", type=int, default=300, help="stop a game after this many hands")
    p.add_argument("--json", action="store_true", help="print JSON lines, one game per line")
    p.add_argument("--brief", action="store_true", help="one line per hand, no tricks")
    p.add_argument("--minutes", type=int, nargs="?", const=-1, default=None, metavar="M",
                   help="play under a time limit on a simulated clock: M minutes, or the ruleset's match.minutes "
                        "when M is left out (the match.* settings decide what happens at time)")
    p.add_argument("--players", choices=("sampling", "random", "heuristic"), default="sampling",
                   help="sampling: random legal choices drawn with the deal (default); random: the random legal "
                        "player; heuristic: the baseline heuristic player")
    add_parallel(p)


def _cards(cards) -> str:
    return " ".join(glyph(c) for c in cards)


def play_games(indices, ruleset: str, seed: int, max_hands: int, players: str, minutes: int | None = None) -> list:
    """Games ``seed + g`` for ``g`` in ``indices`` (a chunk: run by any worker, with the same result)."""
    from reference_impl.game import play_game
    from reference_impl.rules import rules_for
    rules = rules_for(ruleset)
    out = []
    for g in indices:
        chosen = None
        if players != "sampling":
            from players import make_players
            chosen = make_players(players, seed + g)
        out.append(play_game(rules, seed + g, max_hands, minutes, players=chosen))
    return out


def run(args) -> int:
    from parallel import cut, map_chunks
    from reference_impl.rules import rules_for
    rules = rules_for(args.ruleset)
    minutes = args.minutes
    if minutes == -1:
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
        chunks = map_chunks(play_games, cut(range(args.games), 1), jobs=jobs, scheduler=args.scheduler,
                            extra=(args.ruleset, args.seed, args.max_hands, args.players, minutes))
    except RuntimeError as e:
        print(f"tractor play: {e}", file=sys.stderr)
        return 2
    for game in (g for chunk in chunks for g in chunk):
        seed = game.seed
        if args.json:
            print(json.dumps(game.to_json(), ensure_ascii=False))
            continue
        print(f"== {rules.name}: game with seed {seed} ==")
        for hand, levels in zip(game.hands, game.levels):
            trump = "none" if hand.trump is None else "♠♥♦♣"[hand.trump]
            print(f"hand {hand.number}: levels team0 {levels[0]} / team1 {levels[1]}; banker seat {hand.banker} "
                  f"(team {hand.banker % 2}), level {hand.level}, trump {trump}"
                  + (f", {hand.redeals} redeal(s)" if hand.redeals else ""))
            if not args.brief:
                for seat, cards in hand.declarations:
                    print(f"  seat {seat} declares {_cards(cards)}")
                print(f"  buried: {_cards(hand.buried)}")
                for i, t in enumerate(hand.tricks, 1):
                    failed = f" [failed throw {_cards(t.attempted)}: {t.penalty:+d}]" if t.attempted else ""
                    plays = " | ".join(f"{s}: {_cards(c)}" for s, c in t.plays)
                    print(f"  {i:2d}. {plays} -> seat {t.winner} (+{t.points}){failed}")
            print(f"  attackers: {hand.trick_points} in tricks, {hand.kitty_points:+d} kitty, "
                  f"{hand.penalty_points:+d} penalties = {hand.attackers_points}; "
                  f"{hand.next_banker_side} +{hand.levels_gained}")
        final = game.levels[-1]
        outcome = f"team {game.winner} wins" if game.winner is not None else "no winner within the hand limit"
        if game.ended_by == "time":
            outcome += (f" at time ({game.minutes} minutes, {game.clock:.0f} played"
                        + (f"; hand {game.abandoned} abandoned" if game.abandoned else "")
                        + f"; decided by {', '.join(dict.fromkeys(game.clauses))})")
        elif game.minutes is not None:
            outcome += f" by passing the end level after {game.clock:.0f} of {game.minutes} minutes"
        print(f"== {outcome}; final levels team0 {final[0]} / team1 {final[1]} ==")
        sys.stdout.flush()
    return 0
