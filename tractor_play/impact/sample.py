"""The work of one chunk: hands and games played under every ruleset, reduced to tallies.

Hand ``i`` of a run with seed ``S`` is the same under every ruleset: its
starting state (banker seat, both teams' levels, whether it is a game's first
hand) and its deal come from generators seeded by ``S`` and ``i`` alone, and
its four players are seeded the same way. So a chunk's tallies depend only on
the hands in it, whatever the worker that plays them.

* **Starting states.** One hand in ten is a game's first hand (each ruleset
  at its own ``level.start``, nobody banker yet); the others are later hands,
  with the banker seat and each team's level drawn uniformly, the levels
  from the ranks that are levels in every ruleset of the run.
* **Same deal.** Rulesets with the same pack get the same cards; rulesets
  with different packs cannot, and their pair is reported as not comparable.
* **Games.** Game ``j`` is played from the start under each ruleset, each
  hand dealt from ``S``, ``j`` and the hand's number, with the same players.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from tractor_play.players import make_players
from reference_impl.game import play_game
from reference_impl.hand import play_hand, team_of
from reference_impl.rules import rules_for

from tractor_play.impact.questions import Attributor, first_divergence
from tractor_play.impact.stats import Moments

FIRST_HAND_SHARE = 0.1
POINT_BIN = 10           # attackers' points histogram bins of 10 points


def common_levels(names: list[str]) -> list[str]:
    """The ranks every ruleset can play a hand at."""
    sets = []
    for n in names:
        r = rules_for(n)
        sets.append([x for x in r["level.ranks"] if x not in r["trump.fixed_ranks"]])
    return [x for x in sets[0] if all(x in s for s in sets[1:])]


def hand_state(seed: int, i: int, levels: list[str]) -> tuple[bool, int, str, str]:
    rng = random.Random(f"impact:{seed}:state:{i}")
    first = rng.random() < FIRST_HAND_SHARE
    return first, rng.randrange(4), rng.choice(levels), rng.choice(levels)


@dataclass
class RulesetTally:
    hands: int = 0
    bank_held: int = 0
    points: Moments = field(default_factory=Moments)
    histogram: Counter = field(default_factory=Counter)
    kitty_captures: int = 0
    kitty_value: Moments = field(default_factory=Moments)
    failed_throws: Moments = field(default_factory=Moments)       # per hand
    hands_with_failed_throw: int = 0
    levels: Moments = field(default_factory=Moments)
    games: int = 0
    games_finished: int = 0
    game_length: Moments = field(default_factory=Moments)
    errors: list = field(default_factory=list)

    def merge(self, o: "RulesetTally") -> None:
        for name in ("hands", "bank_held", "kitty_captures", "hands_with_failed_throw", "games", "games_finished"):
            setattr(self, name, getattr(self, name) + getattr(o, name))
        for name in ("points", "kitty_value", "failed_throws", "levels", "game_length"):
            getattr(self, name).merge(getattr(o, name))
        self.histogram.update(o.histogram)
        self.errors.extend(o.errors)


@dataclass
class PairTally:
    hands: int = 0
    judgment_differs: int = 0
    play_differs: int = 0
    result_differs: int = 0
    first_kind: Counter = field(default_factory=Counter)
    decided_by: Counter = field(default_factory=Counter)     # feature -> divergent hands it alone decides
    undecided: int = 0                                        # divergent hands no single feature decides
    games: int = 0
    winner_differs: int = 0

    def merge(self, o: "PairTally") -> None:
        for name in ("hands", "judgment_differs", "play_differs", "result_differs", "undecided", "games",
                     "winner_differs"):
            setattr(self, name, getattr(self, name) + getattr(o, name))
        self.first_kind.update(o.first_kind)
        self.decided_by.update(o.decided_by)


@dataclass
class Tally:
    rulesets: dict[str, RulesetTally]
    pairs: dict[tuple[str, str], PairTally]

    def merge(self, o: "Tally") -> None:
        for k, t in o.rulesets.items():
            self.rulesets[k].merge(t)
        for k, t in o.pairs.items():
            self.pairs[k].merge(t)


def empty_tally(names: list[str]) -> Tally:
    return Tally({n: RulesetTally() for n in names}, {p: PairTally() for p in comparable_pairs(names)})


def comparable_pairs(names: list[str]) -> list[tuple[str, str]]:
    """Pairs of rulesets with the same pack (so the same deals); the others cannot be compared hand by hand."""
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            ra, rb = rules_for(a), rules_for(b)
            if (ra.decks, ra.hand_size, ra.kitty_size) == (rb.decks, rb.hand_size, rb.kitty_size):
                out.append((a, b))
    return out


def _record_hand(t: RulesetTally, hand, journal: list) -> None:
    t.hands += 1
    banker_team = team_of(hand.banker)
    t.bank_held += hand.next_banker_side == "banker"
    t.points.add(hand.attackers_points)
    t.histogram[(hand.attackers_points // POINT_BIN) * POINT_BIN] += 1
    kitty = next(answer for kind, _, answer in reversed(journal) if kind == "kitty")
    if team_of(hand.tricks[-1].winner) != banker_team and kitty.extra.get("captured"):
        t.kitty_captures += 1          # the attackers win the last trick and the kitty counts for them (抠底)
        t.kitty_value.add(hand.kitty_points)
    failed = sum(1 for tr in hand.tricks if tr.attempted is not None)
    t.failed_throws.add(failed)
    t.hands_with_failed_throw += failed > 0
    t.levels.add(hand.levels_gained)


def play_hands(indices: range, names: list[str], seed: int, players: str) -> Tally:
    """Hands ``indices`` under every ruleset in ``names``: per-ruleset tallies and per-pair divergences."""
    tally = empty_tally(names)
    levels = common_levels(names)
    attributors = {p: Attributor(rules_for(p[0]), rules_for(p[1])) for p in tally.pairs}
    for i in indices:
        first, banker, banker_level, other_level = hand_state(seed, i, levels)
        played = {}
        for name in names:
            rules = rules_for(name)
            if first:
                team_levels = {0: rules["level.start"], 1: rules["level.start"]}
            else:
                team_levels = {team_of(banker): banker_level, 1 - team_of(banker): other_level}
            journal: list = []
            hand = play_hand(rules, random.Random(f"impact:{seed}:deal:{i}"), 1 if first else 2, team_levels,
                             None if first else banker, first_drawer=banker,
                             players=make_players(players, f"{seed}:{i}"), journal=journal)
            _record_hand(tally.rulesets[name], hand, journal)
            played[name] = (hand, journal)
        for (a, b), pt in tally.pairs.items():
            (ha, ja), (hb, jb) = played[a], played[b]
            pt.hands += 1
            pt.result_differs += (ha.next_banker_side, ha.levels_gained) != (hb.next_banker_side, hb.levels_gained)
            pt.play_differs += _transcript(ha) != _transcript(hb)
            d = first_divergence(ja, jb)
            if d is None:
                continue
            pt.judgment_differs += 1
            pt.first_kind[d.kind] += 1
            deciders = attributors[(a, b)].attribute(d)
            pt.decided_by.update(deciders)
            pt.undecided += not deciders
    return tally


def _transcript(hand) -> tuple:
    """What was played: declarations, the kitty buried, every trick's plays."""
    return (tuple((s, tuple(c)) for s, c in hand.declarations), tuple(hand.buried),
            tuple(tuple((s, tuple(p)) for s, p in t.plays) for t in hand.tricks))


def play_games(indices: range, names: list[str], seed: int, players: str, max_hands: int) -> Tally:
    """Games ``indices`` from the start under every ruleset: lengths, and whether the winners differ."""
    tally = empty_tally(names)
    for j in indices:
        winners = {}
        for name in names:
            game = play_game(rules_for(name), _game_seed(seed, j), max_hands, players=make_players(players, f"{seed}:g{j}"))
            t = tally.rulesets[name]
            t.games += 1
            t.games_finished += game.winner is not None
            t.game_length.add(len(game.hands))
            winners[name] = game.winner
        for (a, b), pt in tally.pairs.items():
            pt.games += 1
            pt.winner_differs += winners[a] != winners[b]
    return tally


def _game_seed(seed: int, j: int) -> int:
    return seed * 1_000_003 + j


def run_chunk(chunk: tuple, names: list[str], seed: int, players: str, max_hands: int) -> Tally:
    """One chunk: ``("hands", range)`` or ``("games", range)``."""
    what, indices = chunk
    if what == "hands":
        return play_hands(indices, names, seed, players)
    return play_games(indices, names, seed, players, max_hands)
