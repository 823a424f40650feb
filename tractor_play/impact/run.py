"""A whole impact run: chunks of hands and games through the executor, tallies merged into figures.

:func:`run_impact` returns plain data (what ``--json`` writes): per ruleset
and per pair, every figure as an estimate with its 95 % interval (Wilson for
shares, the normal approximation for means), and the attribution of divergent
hands to the features that decide them.
"""
from __future__ import annotations

import time
from typing import Callable

from conformance.running.parallel import cut, describe, map_chunks
from reference_impl.rules import rules_for

from tractor_play.impact.diffing import feature_order, features
from tractor_play.impact.questions import KIND_NAMES, differing_features
from tractor_play.impact.sample import FIRST_HAND_SHARE, POINT_BIN, comparable_pairs, common_levels, empty_tally, run_chunk
from tractor_play.impact.stats import MEAN_INTERVAL, PROPORTION_INTERVAL, wilson

HAND_CHUNK = 20   # hands per chunk: a chunk's content depends on the run, never on the workers
GAME_CHUNK = 1    # games per chunk
GAMES_PER_HANDS = 20


def default_games(hands: int) -> int:
    return max(1, hands // GAMES_PER_HANDS)


def chunks_for(hands: int, games: int) -> list[tuple]:
    """Games first (they are the longest chunks), then hands; fixed by the run's size alone."""
    return [("games", r) for r in cut(range(games), GAME_CHUNK)] + [("hands", r) for r in cut(range(hands), HAND_CHUNK)]


def run_impact(names: list[str], hands: int, seed: int, games: int | None = None, players: str = "heuristic",
               max_hands: int = 300, jobs: int | None = None, scheduler: str | None = None,
               progress: Callable[[int, int], object] | None = None, command: str | None = None) -> dict:
    if len(names) < 2:
        raise ValueError("impact compares at least two rulesets")
    if len(set(names)) != len(names):
        raise ValueError("a ruleset is named twice")
    labels = [rules_for(n).name for n in names]  # unknown names fail here, with the known ones
    if len(set(labels)) != len(labels):
        raise ValueError(f"two of {', '.join(names)} define the same ruleset name")
    if not common_levels(names):
        raise ValueError(f"no rank is a level in every one of {', '.join(names)}")
    games = default_games(hands) if games is None else games
    start = time.perf_counter()
    results = map_chunks(run_chunk, chunks_for(hands, games), jobs=jobs, scheduler=scheduler,
                         extra=(names, seed, players, max_hands), progress=progress)
    elapsed = time.perf_counter() - start
    tally = empty_tally(names)
    for r in results:
        tally.merge(r)
    out = summarize(tally, names, hands, games, seed, players, max_hands)
    out["command"] = command or default_command(names, hands, seed, games, players)
    played = sum(t.hands + int(t.game_length.total) for t in tally.rulesets.values())
    out["timing"] = {"seconds": round(elapsed, 2), "hands_played": played, "executor": describe(jobs, scheduler),
                     "hands_per_second": round(played / elapsed, 1) if elapsed else None}
    return out


def default_command(names, hands, seed, games, players) -> str:
    cmd = f"tractor impact {' '.join(names)} --hands {hands} --seed {seed}"
    if games != default_games(hands):
        cmd += f" --games {games}"
    if players != "heuristic":
        cmd += f" --players {players}"
    return cmd


def summarize(tally, names, hands, games, seed, players, max_hands) -> dict:
    """The figures, keyed by each ruleset's name (a user's rule file by the name it defines, its path kept as
    ``file``; the command keeps the paths, which reproduce the run)."""
    label = {n: rules_for(n).name for n in names}
    per = {}
    for n in names:
        t = tally.rulesets[n]
        per[label[n]] = {
            **({"file": n} if label[n] != n else {}),
            "title": rules_for(n).checked.title,
            "hands": t.hands,
            "bank_held": wilson(t.bank_held, t.hands).to_dict(),
            "attackers_points": t.points.estimate().to_dict(),
            "points_histogram": {str(k): v for k, v in sorted(t.histogram.items())},
            "kitty_captures": wilson(t.kitty_captures, t.hands).to_dict(),
            "kitty_value": t.kitty_value.estimate().to_dict(),
            "failed_throws_per_hand": t.failed_throws.estimate().to_dict(),
            "hands_with_failed_throw": wilson(t.hands_with_failed_throw, t.hands).to_dict(),
            "levels_per_hand": t.levels.estimate().to_dict(),
            "games": t.games,
            "games_finished": wilson(t.games_finished, t.games).to_dict(),
            "game_length": t.game_length.estimate().to_dict(),
        }
    pairs = []
    comparable = set(comparable_pairs(names))
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            ra, rb = rules_for(a), rules_for(b)
            if (a, b) not in comparable:
                pairs.append({"a": label[a], "b": label[b], "comparable": False,
                              "reason": f"different packs ({ra.decks} and {rb.decks} decks, {ra.hand_size} and "
                                        f"{rb.hand_size} cards a hand): no hand is dealt the same"})
                continue
            pt = tally.pairs[(a, b)]
            fa, fb = features(ra.checked), features(rb.checked)
            keys = feature_order(differing_features(ra, rb))
            attribution = [{"feature": k, "clause_a": fa[k].clause if k in fa else None,
                            "clause_b": fb[k].clause if k in fb else None,
                            "decided": wilson(pt.decided_by.get(k, 0), pt.judgment_differs).to_dict()}
                           for k in keys]
            pairs.append({
                "a": label[a], "b": label[b], "comparable": True, "hands": pt.hands, "games": pt.games,
                "features_differing": keys,
                "judgment_differs": wilson(pt.judgment_differs, pt.hands).to_dict(),
                "play_differs": wilson(pt.play_differs, pt.hands).to_dict(),
                "result_differs": wilson(pt.result_differs, pt.hands).to_dict(),
                "winner_differs": wilson(pt.winner_differs, pt.games).to_dict(),
                "first_divergence": {k: pt.first_kind[k] for k in KIND_NAMES if pt.first_kind.get(k)},
                "attribution": attribution,
                "undecided": wilson(pt.undecided, pt.judgment_differs).to_dict(),
            })
    return {
        "rulesets": [label[n] for n in names], "hands": hands, "games": games, "seed": seed, "players": players,
        "max_hands": max_hands,
        "intervals": {"proportion": PROPORTION_INTERVAL, "mean": MEAN_INTERVAL},
        "design": {"first_hand_share": FIRST_HAND_SHARE, "levels": common_levels(names), "point_bin": POINT_BIN},
        "per_ruleset": per, "pairs": pairs,
    }
