"""A whole hand (一盘): deal, declarations, kitty exchange, tricks, kitty capture, result.

Players are seats 0–3 in playing order; partners sit opposite (0 and 2 are one
team, 1 and 3 the other). Choices (what to declare, bury, lead, follow) are
made by *players* (:mod:`seats`), each seeing only its own seat's view and
choosing among plays the interpreter generates; by default random legal
ones. Every judgment is the interpreter's. A ``journal`` list, when given,
receives every judgment as ``(kind, question, answer)`` in the order asked.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .cards import card, format_cards, full_pack
from .combos import classify
from .leading import judge_lead
from .rules import Rules
from .legal import follow_options, lead_options
from .seats import SamplingPlayer, SeatView, declaration_candidates
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
    knocked_back: str | None = None   # level.knock_back: the level the banker's team goes back to

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


def redeal_for_contents(rules: Rules, level: str, hands, trace: list[str] | None = None) -> bool:
    """``deal.redeal_if``: whether some player's hand holds no point card, or no card trump in every suit
    (a joker, a level card, a fixed trump), as the ruleset names."""
    if not rules.checked.values.get("deal.redeal_if"):
        return False
    if trace is not None:
        trace.extend(rules.clauses_of("deal.redeal_if"))
    return poor_hand(rules, level, hands) is not None


def poor_hand(rules: Rules, level: str, hands) -> tuple[int, str] | None:
    """The first hand (its index) meeting a condition of ``deal.redeal_if``, with the condition, or None."""
    conditions = rules.checked.values.get("deal.redeal_if") or ()
    weak = rules.checked.values.get("deal.redeal_at_most") or {}   # H24: at most so many points or trumps
    limits = {"no_points": weak.get("points", 0), "no_trumps": weak.get("trumps", 0)}
    tests = {c: redeal_card(rules, level, c) for c in ("no_points", "no_trumps") if c in conditions}
    for seat, hand in enumerate(hands):
        for condition, test in tests.items():
            held = [c for c in hand if test(c)]
            amount = sum(rules.card_points[c] for c in held) if condition == "no_points" else len(held)
            if amount <= limits[condition]:
                return seat, condition
    return None


def redeal_card(rules: Rules, level: str, condition: str):
    """The cards a hand must hold one of not to meet ``condition`` of ``deal.redeal_if``: a point card
    (``no_points``), or a card trump in every suit, a joker, a level card or a fixed trump (``no_trumps``)."""
    from .cards import is_joker, rank_of
    if condition == "no_points":
        return lambda c: rules.card_points[c] > 0
    always = {level, *rules["trump.fixed_ranks"]}
    return lambda c: is_joker(c) or rank_of(c) in always


def dealt_pack(rules: Rules) -> list[int]:
    """The cards a hand of the ruleset deals: its decks, less the cards ``equipment.removed`` takes out (V05)."""
    pack = full_pack(rules.decks)
    for rank, suit in rules.checked.values.get("equipment.removed") or ():
        pack.remove(card(rank, suit))
    return pack


DEAL_REASONS = ("ok", "wrong_hand_size", "wrong_kitty_size", "not_the_pack", "no_points", "no_trumps")


def judge_deal(rules: Rules, level: str, hands: list[list[int]], kitty: list[int]):
    """The referee's question on a deal before any declaration: is it a proper deal of the ruleset, and must
    the cards be dealt again?

    *Proper*: every hand holds ``equipment.hand_size`` cards, the kitty ``equipment.kitty_size``, and together
    they are exactly the ruleset's pack (:func:`dealt_pack`: its decks less ``equipment.removed``, V05) — no
    card missing, none extra, none of the removed ones. *Redeal*: a proper deal whose hands meet a condition of
    ``deal.redeal_if`` (V82, :func:`poor_hand`); false when the deal is not proper or the ruleset has
    no such rule. The judgment's value is ``(proper, redeal)``; ``reason`` one of :data:`DEAL_REASONS` (the
    first thing wrong, or the condition that demands the redeal), ``detail`` says where."""
    from .rules import Judgment
    clauses = list(dict.fromkeys(rules.clause(k) for k in ("equipment.decks", "equipment.hand_size",
                                                            "equipment.kitty_size")))
    clauses += [c for c in rules.clauses_of("equipment.removed") if c not in clauses]
    n, k = rules.hand_size, rules.kitty_size
    for seat, hand in enumerate(hands):
        if len(hand) != n:
            return Judgment((False, False), tuple(clauses), "wrong_hand_size",
                            f"seat {seat} holds {len(hand)} card(s); a hand of {rules.name} holds {n}")
    if len(kitty) != k:
        return Judgment((False, False), tuple(clauses), "wrong_kitty_size",
                        f"the kitty holds {len(kitty)} card(s); a kitty of {rules.name} holds {k}")
    dealt = Counter(c for hand in hands for c in hand) + Counter(kitty)
    pack = Counter(dealt_pack(rules))
    if dealt != pack:
        extra, missing = dealt - pack, pack - dealt
        parts = []
        if extra:
            parts.append(f"{format_cards(sorted(extra.elements()))} not in the pack of {rules.name}")
        if missing:
            parts.append(f"{format_cards(sorted(missing.elements()))} missing")
        return Judgment((False, False), tuple(clauses), "not_the_pack", "; ".join(parts))
    clauses += [c for c in rules.clauses_of("deal.redeal_if") + rules.clauses_of("deal.redeal_at_most")
                if c not in clauses]   # V82, H24
    poor = poor_hand(rules, level, hands)
    if poor is not None:
        seat, condition = poor
        what = "point card" if condition == "no_points" else "card trump in every suit"
        limit = (rules.checked.values.get("deal.redeal_at_most") or {}).get(
            "points" if condition == "no_points" else "trumps", 0)
        held = f"no {what}" if limit == 0 else \
            (f"at most {limit} points" if condition == "no_points" else f"at most {limit} cards trump in every suit")
        return Judgment((True, True), tuple(clauses), condition, f"seat {seat} holds {held}: a redeal")
    return Judgment((True, False), tuple(clauses), "ok", "")


def deal_cards(rules: Rules, rng: random.Random, first_drawer: int) -> tuple[dict[int, list[int]], list[int]]:
    pack = dealt_pack(rules)
    rng.shuffle(pack)
    players = rules["equipment.players"]  # four: the schema allows no other number
    hands: dict[int, list[int]] = {s: [] for s in range(players)}
    drawn = len(pack) - rules.kitty_size
    for i in range(drawn):
        hands[(first_drawer + i) % players].append(pack[i])
    return hands, pack[drawn:]


def _declaration_options(rules: Rules, level: str, hand: list[int]) -> list[list[int]]:
    """What a hand could show to declare, joker pairs as pairs (the form :mod:`conformance.generation.stateful` uses)."""
    return [list(o) for o in declaration_candidates(rules, level, tuple(hand)) if not (o[0] >= 52 and len(o) > 2)]


def declare_phase(rules: Rules, level: str, hands, first_drawer: int, first_hand: bool, banker: int | None,
                  players, trace: list[str], levels=None, journal: list | None = None):
    """Players declare, overcall and reinforce in turn until a full round passes with nothing new."""
    from .declaring import Declaring
    declaring = Declaring(rules, level, first_hand, banker=banker)  # the sequence so far, judged
    sequence = declaring.sequence   # (seat, cards) of each declaration made, in order
    state = None
    quiet = 0
    seat = first_drawer
    rounds = 0
    team_levels = (levels[0], levels[1]) if levels else (level, level)
    held: dict[int, tuple] = {}   # seat -> (its hand, what it could show): no card moves while seats declare
    while quiet < 4 and rounds < 40:
        rounds += 1
        made = False
        if seat not in held:
            hand = tuple(sorted(hands[seat]))
            held[seat] = (hand, declaration_candidates(rules, level, hand))
        hand, candidates = held[seat]
        options, judged = [], {}
        for option in candidates:
            j = declaring.judge_next(seat, option)   # judge_declarations(sequence + [(seat, option)])
            if j.value.legal:
                options.append(option)
                judged[option] = j
        if journal is not None:
            journal.append(("declare_options", (seat, level, hand, _frozen(sequence), first_hand, banker),
                            tuple(options)))
        if options:
            view = SeatView(seat, rules, level, hand, first_hand, banker, team_levels, _frozen(sequence))
            choice = players[seat].declare(view, list(options))
            if choice is not None:
                choice = tuple(choice)
                if choice not in judged:
                    raise HandError(f"seat {seat} declared {format_cards(choice)}, which is not among its options")
                declaring.add(seat, choice)   # and so to the sequence
                state = judged[choice].value
                trace.extend(judged[choice].clauses)
                if journal is not None:
                    journal.append(("declare", (level, _frozen(sequence), first_hand, banker), state))
                made = True
        quiet = 0 if made else quiet + 1
        seat = (seat + 1) % 4
    return sequence, state


def _frozen(sequence) -> tuple:
    return tuple((s, tuple(c)) for s, c in sequence)


def play_hand(rules: Rules, rng: random.Random, number: int, levels: dict[int, str],
              banker: int | None, first_drawer: int = 0, players=None, journal: list | None = None) -> HandRecord:
    """Play one hand. ``levels`` maps team (0 or 1) to its level; ``banker`` is None in the first hand.

    ``rng`` deals the cards; ``players`` (four, by seat) make the choices,
    by default :class:`seats.SamplingPlayer` drawing from ``rng`` too.
    """
    from .declaring import judge_undeclared
    if players is None:
        players = [SamplingPlayer(rng)] * 4
    first_hand = banker is None
    trace: list[str] = []
    redeals = 0
    forced_level: str | None = None  # the level a smothered banker's redeal is played at (001:6)
    while True:
        drawer = first_drawer if banker is None else banker
        level = forced_level or (levels[team_of(banker)] if banker is not None else levels[0])
        hands, kitty = deal_cards(rules, rng, drawer)
        deal = {s: list(h) for s, h in hands.items()}
        if redeal_for_contents(rules, level, deal.values(), trace):   # deal.redeal_if (V82)
            redeals += 1
            if redeals > 50:
                raise HandError("fifty redeals in a row")
            continue
        sequence, state = declare_phase(rules, level, hands, drawer, first_hand, banker, players, trace, levels,
                                        journal)
        if state is not None:
            trump = state.trump if state.trump != "no_trump" else None
            # the declarations' banker: the first hand's, and any hand's under H31 (declare.overcall_moves_bank =
            # every_hand); otherwise state.banker is the standing banker given
            hand_banker = state.banker if state.banker is not None else banker
            break
        attackers_level = levels[1 - team_of(banker)] if banker is not None else level
        j = judge_undeclared(rules, kitty, first_hand, level, attackers_level)
        trace.extend(j.clauses)
        if journal is not None:
            journal.append(("undeclared", (tuple(kitty), first_hand, level, attackers_level), j.value))
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
    if banker is None or hand_banker == banker:
        level = forced_level or levels[team_of(hand_banker)]
    # else H31 moved the bank by declaring in a later hand: the hand is played at the level set before declaring,
    # whose level cards were declared (the interpretation of declare.overcall_moves_bank = every_hand, schema.py)
    ctx = context(rules, level, trump)
    if journal is not None:
        journal.append(("context", (level, trump), ctx))
    record = HandRecord(rules.name, number, level, hand_banker, trump, deal, list(kitty), sequence, [],
                        redeals=redeals)
    table = _Table(rules, ctx, level, hand_banker, first_hand, (levels[0], levels[1]), _frozen(sequence),
                   players, journal)
    # kitty exchange
    hands[hand_banker].extend(kitty)
    if journal is not None:
        journal.append(("exchange", (), (rules["kitty.exchange"], rules.kitty_size)))
    if rules["kitty.exchange"]:
        view = table.view(hand_banker, hands, kitty=tuple(kitty))
        buried = list(players[hand_banker].bury(view, rules.kitty_size))
        if len(buried) != rules.kitty_size or Counter(buried) - Counter(hands[hand_banker]):
            raise HandError(f"seat {hand_banker} buried {format_cards(buried)}: not {rules.kitty_size} of its cards")
    else:
        buried = list(kitty)
    for c in buried:
        hands[hand_banker].remove(c)
    record.buried = buried
    table.kitty, table.buried = tuple(kitty), tuple(buried)
    banker_team = team_of(hand_banker)
    leader = hand_banker
    while hands[leader]:
        trick = _play_trick(ctx, hands, leader, banker_team, table, trace)
        table.tricks += (trick,)
        record.tricks.append(trick)
        if team_of(trick.winner) != banker_team:
            record.trick_points += trick.points
        record.penalty_points += trick.penalty
        leader = trick.winner
    _finish(rules, ctx, record, trace, journal)
    return record


class _Table:
    """The public state of a hand under way, from which each seat's view is drawn."""

    def __init__(self, rules, ctx, level, banker, first_hand, levels, declarations, players, journal):
        self.rules, self.ctx, self.level, self.banker, self.first_hand = rules, ctx, level, banker, first_hand
        self.levels, self.declarations, self.players, self.journal = levels, declarations, players, journal
        self.tricks: tuple = ()
        self.kitty = self.buried = None

    def view(self, seat: int, hands, current: tuple = (), kitty=None) -> SeatView:
        mine = seat == self.banker
        return SeatView(seat, self.rules, self.level, tuple(hands[seat]), self.first_hand, self.banker, self.levels,
                        self.declarations, self.ctx, self.tricks, current,
                        kitty if kitty is not None else (self.kitty if mine else None),
                        self.buried if mine else None)


def _play_trick(ctx, hands, leader: int, banker_team: int, table: _Table, trace: list[str]) -> Trick:
    journal = table.journal
    options = lead_options(ctx, hands[leader])
    if journal is not None:
        journal.append(("leads", (ctx.level, ctx.trump, tuple(sorted(hands[leader]))), options))
    lead = list(table.players[leader].lead(table.view(leader, hands), options))
    if lead not in options:
        raise HandError(f"seat {leader} led {format_cards(lead)}, which is not among its options")
    others = [hands[(leader + k) % 4] for k in (1, 2, 3)]
    verdict = judge_lead(ctx, lead, others)
    if journal is not None:
        journal.append(("lead", (ctx.level, ctx.trump, tuple(sorted(lead)), tuple(tuple(sorted(h)) for h in others)),
                        verdict))
    attempted, penalty = None, 0
    if not verdict.value:
        if verdict.reason != "throw_beaten":
            raise HandError(f"a lead from the options judged illegal: {verdict.reason}")
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
        options = follow_options(ctx, combo, hands[seat])
        if journal is not None:
            journal.append(("follows", (ctx.level, ctx.trump, tuple(lead), tuple(sorted(hands[seat]))), options))
        current = tuple((s, tuple(p)) for s, p in plays)
        play = list(table.players[seat].follow(table.view(seat, hands, current), options))
        if not options.judge(play).value:   # judge_follow_combo, with what follow_options worked out
            raise HandError(f"seat {seat} followed with {format_cards(play)}, which is not a legal follow")
        plays.append((seat, play))
    for seat, play in plays:
        for c in play:
            hands[seat].remove(c)
    judged = judge_trick(ctx, [p for _, p in plays])
    trace.extend(judged.clauses)
    if journal is not None:
        journal.append(("trick", (ctx.level, ctx.trump, tuple(tuple(p) for _, p in plays)), judged))
    winner = plays[judged.value][0]
    return Trick(leader, plays, winner, judged.extra["points"], penalty, attempted)


def _finish(rules: Rules, ctx, record: HandRecord, trace: list[str], journal: list | None = None) -> None:
    from .kitty import judge_kitty
    from .scoring import judge_result, knock_back, last_trick_rule
    last = record.tricks[-1]
    winning_play = next(p for s, p in last.plays if s == last.winner)
    side = "banker" if team_of(last.winner) == record.banker_team else "attackers"
    k = judge_kitty(ctx, winning_play, side, record.buried)
    trace.extend(k.clauses)
    if journal is not None:
        journal.append(("kitty", (ctx.level, ctx.trump, tuple(winning_play), side, tuple(record.buried)), k))
    record.kitty_points = k.value
    record.attackers_points = record.trick_points + record.kitty_points + record.penalty_points
    result = judge_result(rules, record.attackers_points)
    trace.extend(result.clauses)
    if journal is not None:
        journal.append(("result", (record.attackers_points,), result.value))
    from .rules import Trace
    extra = Trace()
    value = last_trick_rule(rules, result.value, side == "banker", extra)
    record.knocked_back = knock_back(rules, record.level, winning_play, side, extra, record.attackers_points)
    trace.extend(extra.ids)
    record.next_banker_side = value.next_banker
    record.levels_gained = value.levels
    record.clauses = list(dict.fromkeys(trace))
