"""A whole game (一局): hands until a team passes the end level, or until time runs out.

Team 0 is seats 0 and 2, team 1 seats 1 and 3. After each hand the side the
score table names holds the bank and the gaining team climbs its levels
(``level.*``); which player holds the bank follows ``bank.succession``.

A timed game (``minutes``, by default ``match.minutes``) runs on a simulated
clock. The sources time games, not hands, so the pace is this module's own
and changes no judgment: :data:`DRAW_MINUTES` to shuffle, draw and declare,
:data:`KITTY_MINUTES` to bury the kitty, :data:`TRICK_SECONDS` a trick. The
rules decide the rest:

* ``match.no_new_deal_minutes``: no hand is dealt in the last so many minutes;
* ``match.at_time``: when time runs out during a hand, ``finish_hand_in_play``
  plays it out if its deal was complete (one still being dealt is abandoned),
  ``finish_after_first_card`` only if its first card had been played;
* then ``match.timeout_winner`` and ``match.tie`` name the winner
  (:func:`levels.timeout_winner`).

A hand that ends the game early (a penalty forfeit) does not arise here:
whole hands are played without faults.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .hand import HandRecord, play_hand, team_of
from .rules import Rules

DRAW_MINUTES = 3      # shuffling, drawing and declaring
KITTY_MINUTES = 1     # taking up and burying the kitty
TRICK_SECONDS = 20    # one trick


@dataclass
class GameRecord:
    ruleset: str
    seed: int
    hands: list[HandRecord] = field(default_factory=list)
    levels: list[dict[int, str]] = field(default_factory=list)  # team levels before each hand, then final
    winner: int | None = None  # the winning team; None if the hand limit came first
    minutes: int | None = None        # the time limit of a timed game
    clock: float = 0.0                # minutes played (simulated)
    ended_by: str = ""                # "end level", "time" or "hand limit"
    abandoned: int | None = None      # the hand abandoned when time ran out, if any
    clauses: list[str] = field(default_factory=list)  # what decided the end of a timed game

    def to_json(self) -> dict:
        out = {"ruleset": self.ruleset, "seed": self.seed, "winner": self.winner, "ended_by": self.ended_by,
               "levels": [{str(k): v for k, v in lv.items()} for lv in self.levels],
               "hands": [h.to_json() for h in self.hands]}
        if self.minutes is not None:
            out.update(minutes=self.minutes, clock=round(self.clock, 2), abandoned=self.abandoned,
                       clauses=self.clauses)
        return out


def next_banker(rules: Rules, banker: int, side: str, last_winner: int | None = None) -> int:
    """The seat that banks next (``bank.succession``) when ``side`` holds the bank; ``last_winner``: the seat
    that won the hand's last trick (None: a hand that ended before it)."""
    succession = rules["bank.succession"]
    if side == "attackers":
        # last_trick_winner (H22): the attacker who won the last trick takes the bank
        if succession == "last_trick_winner" and last_winner is not None and last_winner % 2 != banker % 2:
            return last_winner
        return (banker + 1) % 4
    if succession in ("same_player", "last_trick_winner"):   # H22: the banker keeps the bank himself
        return banker
    return (banker + 2) % 4


def _time_stops(rules: Rules, limit: float, start: float) -> str | None:
    """Why a hand starting at ``start`` is not played (None: it is played to the end).

    ``time_up``: the limit has passed; ``no_new_deal``: the last minutes allow
    no new deal; ``abandoned``: the hand is dealt but time runs out before the
    point ``match.at_time`` names (its deal complete, or its first card played).
    """
    if start >= limit:
        return "time_up"
    if limit - start <= rules["match.no_new_deal_minutes"]:
        return "no_new_deal"
    deal_done = start + DRAW_MINUTES
    point = deal_done if rules["match.at_time"] == "finish_hand_in_play" else deal_done + KITTY_MINUTES
    return "abandoned" if limit < point else None


def play_game(rules: Rules, seed: int, max_hands: int = 300, minutes: int | None = None,
              players=None) -> GameRecord:
    """Play a game from ``seed``; with ``minutes`` (a time limit), on the simulated clock described above.

    With ``players`` (four, by seat) they make every choice and each hand is dealt from its own generator
    seeded by ``seed`` and the hand's number, so two rulesets played with the same seed deal the same
    cards to the same hand numbers."""
    from .levels import advance, timeout_winner
    rng = random.Random(seed)
    start = rules["level.start"]
    levels = {0: start, 1: start}
    record = GameRecord(rules.name, seed, minutes=minutes)
    banker: int | None = None
    last_banker_team: int | None = None
    for number in range(1, max_hands + 1):
        stop = _time_stops(rules, minutes, record.clock) if minutes is not None else None
        if stop is not None:
            record.abandoned = number if stop == "abandoned" else None
            record.ended_by = "time"
            break
        record.levels.append(dict(levels))
        deal_rng = rng if players is None else random.Random(f"{seed}:{number}")
        hand = play_hand(rules, deal_rng, number, levels, banker, players=players)
        record.hands.append(hand)
        record.clock += DRAW_MINUTES + KITTY_MINUTES + len(hand.tricks) * TRICK_SECONDS / 60
        banker_team = team_of(hand.banker)
        last_banker_team = banker_team
        gaining = banker_team if hand.next_banker_side == "banker" else 1 - banker_team
        if hand.knocked_back is not None:  # level.knock_back (the jack rule): the banker's team goes back
            levels[banker_team] = hand.knocked_back
        if hand.levels_gained > 0:
            moved = advance(rules, levels[gaining], hand.levels_gained, gaining == banker_team).value
            if moved.won:
                record.winner = gaining
                record.ended_by = "end level"
                break
            levels[gaining] = moved.level
        banker = next_banker(rules, hand.banker, hand.next_banker_side, hand.tricks[-1].winner if hand.tricks else None)
    else:
        record.ended_by = "hand limit"
    if record.ended_by == "time" and record.hands:
        holder = team_of(banker) if banker is not None else last_banker_team
        names = {0: "team 0", 1: "team 1"}
        j = timeout_winner(rules, {names[t]: lv for t, lv in levels.items()}, names[holder], names[last_banker_team])
        record.winner = 0 if j.value == "team 0" else 1
        record.clauses = list(j.clauses) + [rules.clause("match.minutes"), rules.clause("match.at_time"),
                                             rules.clause("match.no_new_deal_minutes")]
    record.levels.append(dict(levels))
    return record
