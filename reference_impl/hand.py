"""A whole hand (一盘): deal, declarations, kitty exchange, tricks, kitty capture, result.

Players are seats 0–3 in playing order; partners sit opposite (0 and 2 are one
team, 1 and 3 the other). Choices a player makes (what to declare, bury, lead,
follow) are random but always legal; every judgment is the interpreter's.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .cards import format_cards, full_pack
from .combos import classify
from .following import judge_follow_combo
from .leading import judge_lead
from .rules import Rules
from .sampling import random_follow, random_lead
from .trick import judge_trick, points_of
from .trump import TRUMP, context


def team_of(seat: int) -> int:
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % 4


@dataclass
class Trick:
    leader: int
    plays: list[tuple[int, list[int]]]
    winner: int
    points: int
    penalty: int = 0          # signed change to the attackers' points from a failed throw
    attempted: list[int] | None = None  # the throw that failed, if any

    def to_json(self) -> dict:
        out = {"leader": self.leader, "plays": [[s, format_cards(c)] for s, c in self.plays],
               "winner": self.winner, "points": self.points}
        if self.attempted is not None:
            out["failed_throw"] = format_cards(self.attempted)
            out["penalty"] = self.penalty
        return out


@dataclass
class HandRecord:
    ruleset: str
    number: int
    level: str
    banker: int
    trump: int | None
    deal: dict[int, list[int]]
    kitty: list[int]
    declarations: list[tuple[int, list[int]]]
    buried: list[int]
    tricks: list[Trick] = field(default_factory=list)
    trick_points: int = 0
    penalty_points: int = 0
    kitty_points: int = 0
    attackers_points: int = 0
    next_banker_side: str = ""
    levels_gained: int = 0
    clauses: list[str] = field(default_factory=list)
    redeals: int = 0

    @property
    def banker_team(self) -> int:
        return team_of(self.banker)

    def to_json(self) -> dict[str, Any]:
        suit = "none" if self.trump is None else "SHDC"[self.trump]
        return {
            "ruleset": self.ruleset, "hand": self.number, "level": self.level, "banker": self.banker,
            "trump": suit, "deal": {str(s): format_cards(c) for s, c in self.deal.items()},
            "kitty": format_cards(self.kitty),
            "declarations": [[s, format_cards(c)] for s, c in self.declarations],
            "buried": format_cards(self.buried), "tricks": [t.to_json() for t in self.tricks],
            "trick_points": self.trick_points, "penalty_points": self.penalty_points,
            "kitty_points": self.kitty_points, "attackers_points": self.attackers_points,
            "result": {"next_banker": self.next_banker_side, "levels": self.levels_gained},
        }


class HandError(RuntimeError):
    """The simulation reached a state the rules forbid (a bug in the interpreter or the rules)."""


def deal_cards(rules: Rules, rng: random.Random, first_drawer: int) -> tuple[dict[int, list[int]], list[int]]:
    pack = full_pack(rules.decks)
    rng.shuffle(pack)
    players = rules["equipment.players"]  # four: the schema allows no other number
    hands: dict[int, list[int]] = {s: [] for s in range(players)}
    drawn = len(pack) - rules.kitty_size
    for i in range(drawn):
        hands[(first_drawer + i) % players].append(pack[i])
    return hands, pack[drawn:]


def _declaration_options(rules: Rules, level: str, hand: list[int]) -> list[list[int]]:
    from .cards import BIG_JOKER, SMALL_JOKER, card
    counts = Counter(hand)
    options = []
    required = rules["declare.first_hand_card"]
    for s in "SHDC":
        c = card(level, s)
        for n in range(1, counts.get(c, 0) + 1):
            shown = [c] * n
            options.append(shown)
            if required is not None:
                extra = card(required[0], {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}[required[1]])
                if counts.get(extra, 0) > (n if extra == c else 0):
                    options.append(shown + [extra])
    for j in (SMALL_JOKER, BIG_JOKER):
        if counts.get(j, 0) >= 2:
            options.append([j, j])
    return options


def declare_phase(rules: Rules, level: str, hands, first_drawer: int, first_hand: bool, banker: int | None,
                  rng: random.Random, trace: list[str]):
    """Players declare, overcall and reinforce in turn until a full round passes with nothing new."""
    from .declaring import judge_declarations
    sequence: list[tuple[int, list[int]]] = []
    state = None
    quiet = 0
    seat = first_drawer
    rounds = 0
    while quiet < 4 and rounds < 40:
        rounds += 1
        made = False
        if rng.random() < 0.7:
            options = _declaration_options(rules, level, hands[seat])
            rng.shuffle(options)
            for option in options:
                j = judge_declarations(rules, level, sequence + [(seat, option)], first_hand, banker=banker)
                if j.value.legal:
                    sequence.append((seat, option))
                    state = j.value
                    trace.extend(j.clauses)
                    made = True
                    break
        quiet = 0 if made else quiet + 1
        seat = (seat + 1) % 4
    return sequence, state


def _bury(ctx, hand: list[int], n: int, rng: random.Random) -> list[int]:
    """The banker buries n cards, preferring low side cards without points."""
    ranked = sorted(hand, key=lambda c: (ctx.suit[c] == TRUMP, points_of(ctx.rules, [c]) > 0, ctx.key[c],
                                         rng.random()))
    return ranked[:n]


def play_hand(rules: Rules, rng: random.Random, number: int, levels: dict[int, str],
              banker: int | None, first_drawer: int = 0) -> HandRecord:
    """Play one hand. ``levels`` maps team (0 or 1) to its level; ``banker`` is None in the first hand."""
    from .declaring import judge_undeclared
    first_hand = banker is None
    trace: list[str] = []
    redeals = 0
    forced_level: str | None = None  # the level a smothered banker's redeal is played at (001:6)
    while True:
        drawer = first_drawer if banker is None else banker
        level = forced_level or (levels[team_of(banker)] if banker is not None else levels[0])
        hands, kitty = deal_cards(rules, rng, drawer)
        deal = {s: list(h) for s, h in hands.items()}
        sequence, state = declare_phase(rules, level, hands, drawer, first_hand, banker, rng, trace)
        if state is not None:
            trump = state.trump if state.trump != "no_trump" else None
            hand_banker = state.banker if first_hand else banker
            break
        attackers_level = levels[1 - team_of(banker)] if banker is not None else level
        j = judge_undeclared(rules, kitty, first_hand, level, attackers_level)
        trace.extend(j.clauses)
        outcome = j.value
        if not outcome.redeal:
            trump = outcome.trump
            hand_banker = banker if banker is not None else drawer
            break
        redeals += 1
        if outcome.banker_side == "attackers" and banker is not None:
            banker = (banker + 1) % 4
        if outcome.level_of is not None:  # smothered: the judgment names the level of the redeal
            forced_level = outcome.level
        if redeals > 50:
            raise HandError("fifty redeals in a row")
    if hand_banker is None:
        hand_banker = drawer
    level = forced_level or levels[team_of(hand_banker)]
    ctx = context(rules, level, trump)
    record = HandRecord(rules.name, number, level, hand_banker, trump, deal, list(kitty), sequence, [],
                        redeals=redeals)
    # kitty exchange
    hands[hand_banker].extend(kitty)
    buried = _bury(ctx, hands[hand_banker], rules.kitty_size, rng) if rules["kitty.exchange"] else list(kitty)
    for c in buried:
        hands[hand_banker].remove(c)
    record.buried = buried
    banker_team = team_of(hand_banker)
    leader = hand_banker
    while hands[leader]:
        trick = _play_trick(ctx, hands, leader, banker_team, rng, trace)
        record.tricks.append(trick)
        if team_of(trick.winner) != banker_team:
            record.trick_points += trick.points
        record.penalty_points += trick.penalty
        leader = trick.winner
    _finish(rules, ctx, record, trace)
    return record


def _play_trick(ctx, hands, leader: int, banker_team: int, rng, trace: list[str]) -> Trick:
    rules = ctx.rules
    lead = random_lead(ctx, hands[leader], rng, throw_chance=0.15)
    others = [hands[(leader + k) % 4] for k in (1, 2, 3)]
    verdict = judge_lead(ctx, lead, others)
    attempted, penalty = None, 0
    if not verdict.value:
        if verdict.reason != "throw_beaten":
            raise HandError(f"random lead judged illegal: {verdict.reason}")
        failure = verdict.extra["failure"]
        attempted = lead
        sign = -1 if team_of(leader) != banker_team else 1
        penalty = sign * failure.penalty
        lead = list(failure.forced)
        trace.extend(verdict.clauses)
    combo = classify(ctx, lead)
    plays = [(leader, lead)]
    for k in (1, 2, 3):
        seat = (leader + k) % 4
        play = random_follow(ctx, combo, hands[seat], rng)
        if not judge_follow_combo(ctx, combo, Counter(hands[seat]), play).value:
            raise HandError("the sampler produced an illegal follow")
        plays.append((seat, play))
    for seat, play in plays:
        for c in play:
            hands[seat].remove(c)
    judged = judge_trick(ctx, [p for _, p in plays])
    trace.extend(judged.clauses)
    winner = plays[judged.value][0]
    return Trick(leader, plays, winner, judged.extra["points"], penalty, attempted)


def _finish(rules: Rules, ctx, record: HandRecord, trace: list[str]) -> None:
    from .kitty import judge_kitty
    from .scoring import judge_result
    last = record.tricks[-1]
    winning_play = next(p for s, p in last.plays if s == last.winner)
    side = "banker" if team_of(last.winner) == record.banker_team else "attackers"
    k = judge_kitty(ctx, winning_play, side, record.buried)
    trace.extend(k.clauses)
    record.kitty_points = k.value
    record.attackers_points = record.trick_points + record.kitty_points + record.penalty_points
    result = judge_result(rules, record.attackers_points)
    trace.extend(result.clauses)
    record.next_banker_side = result.value.next_banker
    record.levels_gained = result.value.levels
    record.clauses = list(dict.fromkeys(trace))
