"""A whole game (一局): hands until a team passes the end level.

Team 0 is seats 0 and 2, team 1 seats 1 and 3. After each hand the side the
score table names holds the bank and the gaining team climbs its levels
(``level.*``); which player holds the bank follows ``bank.succession``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .hand import HandRecord, play_hand, team_of
from .rules import Rules


@dataclass
class GameRecord:
    ruleset: str
    seed: int
    hands: list[HandRecord] = field(default_factory=list)
    levels: list[dict[int, str]] = field(default_factory=list)  # team levels before each hand, then final
    winner: int | None = None  # team that passed the end level, None if the hand limit came first

    def to_json(self) -> dict:
        return {"ruleset": self.ruleset, "seed": self.seed, "winner": self.winner,
                "levels": [{str(k): v for k, v in lv.items()} for lv in self.levels],
                "hands": [h.to_json() for h in self.hands]}


def next_banker(rules: Rules, banker: int, side: str) -> int:
    if side == "attackers":
        return (banker + 1) % 4
    if rules["bank.succession"] == "rotate":
        return (banker + 2) % 4
    return banker


def play_game(rules: Rules, seed: int, max_hands: int = 300, players=None) -> GameRecord:
    """Play a game from ``seed``. With ``players`` (four, by seat) they make every choice and each hand
    is dealt from its own generator seeded by ``seed`` and the hand's number, so two rulesets played
    with the same seed deal the same cards to the same hand numbers."""
    from .levels import advance
    rng = random.Random(seed)
    start = rules["level.start"]
    levels = {0: start, 1: start}
    record = GameRecord(rules.name, seed)
    banker: int | None = None
    for number in range(1, max_hands + 1):
        record.levels.append(dict(levels))
        deal_rng = rng if players is None else random.Random(f"{seed}:{number}")
        hand = play_hand(rules, deal_rng, number, levels, banker, players=players)
        record.hands.append(hand)
        banker_team = team_of(hand.banker)
        gaining = banker_team if hand.next_banker_side == "banker" else 1 - banker_team
        if hand.levels_gained > 0:
            moved = advance(rules, levels[gaining], hand.levels_gained, gaining == banker_team).value
            if moved.won:
                record.winner = gaining
                break
            levels[gaining] = moved.level
        banker = next_banker(rules, hand.banker, hand.next_banker_side)
    record.levels.append(dict(levels))
    return record
