"""Players for whole hands and games: a baseline heuristic player and the random legal player.

Both implement :class:`reference_impl.seats.Player`: they see only a
:class:`reference_impl.seats.SeatView` (their own hand, the tricks played,
the declarations, their own kitty when they bank) and choose among the plays
the interpreter generates (:mod:`reference_impl.legal`). Both are
deterministic from a seed.

This package depends only on ``reference_impl``.
"""
from tractor_play.players.heuristic import HeuristicPlayer
from tractor_play.players.random_player import RandomPlayer

KINDS = {"heuristic": HeuristicPlayer, "random": RandomPlayer}


def make_players(kinds, seed: int) -> list:
    """Four players by seat from ``kinds`` (one name for all, or four names), each seeded from ``seed``."""
    if isinstance(kinds, str):
        kinds = [kinds] * 4
    if len(kinds) != 4 or any(k not in KINDS for k in kinds):
        raise ValueError(f"players: four of {', '.join(KINDS)} (got {kinds!r})")
    return [KINDS[k](f"{seed}:{seat}") for seat, k in enumerate(kinds)]


__all__ = ["HeuristicPlayer", "RandomPlayer", "KINDS", "make_players"]
