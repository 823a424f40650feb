"""Positions for ``declare`` (a sequence of declarations) and ``undeclared`` (nobody declared).

``declare`` scenarios (``prefix``, ``last``): a legal prefix of moves — a
first declaration, an overcall, a reinforcement, a joker pair — then a last
declaration that is legal or broken in each way the rules refuse: a joker
pair, a lone joker, a card that is not a level card, mixed cards, no
``declare.first_hand_card``, an overcall, one of equal copies, a
reinforcement, a self-overcall with another suit, or the overcalled first
declarer adding copies of his own card (``retake``). No seat shows more copies
than the pack holds; sometimes the kitty was taken before the last.

``undeclared``: kitties with jokers at and around the card that names trump
(``declare.kitty_card``), sometimes on every card from it on.
"""
from __future__ import annotations

from collections import Counter

from reference_impl.cards import BIG_JOKER, RANKS, SMALL_JOKER, card, text

from conformance.generation.positions.draw import Draw
from conformance.generation.positions.scenario import Scenario
from conformance.generation.positions.suits import SUIT_LETTERS, fmt, levels

PLANS: tuple[tuple[tuple[str, ...], str], ...] = (
    ((), "declare"), ((), "joker"), ((), "lone_joker"), ((), "not_level"), ((), "mixed"), ((), "no_token"),
    (("declare",), "overcall"), (("declare",), "equal"), (("declare",), "reinforce"),
    (("declare",), "self_other"), (("declare",), "joker"),
    (("declare", "overcall"), "overcall"), (("declare", "overcall"), "joker"),
    (("declare", "overcall"), "equal"), (("declare", "overcall"), "reinforce"),
    (("joker",), "joker"), (("joker",), "overcall"), (("joker",), "equal"),
    (("declare", "reinforce"), "overcall"), (("declare", "reinforce"), "self_other"),
    (("declare", "joker"), "joker"), (("random",), "random"),
)
LAST_MOVES = ("declare", "joker", "lone_joker", "not_level", "mixed", "no_token", "overcall", "equal",
              "reinforce", "self_other")
ANY_MOVE = ("declare", "overcall", "reinforce", "joker", "equal", "self_other")


def declare_scenarios(rules) -> tuple[Scenario, ...]:
    moves = tuple(Scenario("declare", "moves", (prefix, last, first)) for prefix, last in PLANS
                  for first in (True, False))
    after_wrong = tuple(Scenario("declare", "after_wrong", (who, first)) for who in ("partner", "other")
                        for first in (True, False))
    return moves + after_wrong


# The overcalled first declarer adds copies of his card: aimed at declare.retake alone, not among
# declare_scenarios, so that the positions drawn for every other alternative stay as they were.
RETAKE = tuple(Scenario("declare", "moves", (("declare", "overcall"), "retake", first)) for first in (True, False))


def undeclared_scenarios(rules) -> tuple[Scenario, ...]:
    return tuple(Scenario("undeclared", "kitty", (tail, first)) for tail in (False, True) for first in (True, False))


def declaration(d: Draw, rules, level: str, token: int | None, state, move: str, room: bool = False):
    """One (seat, cards) declaration of the kind ``move`` after ``state`` (None if it makes no sense here).

    ``room``: a first declaration shows one copy, leaving copies for overcalls.
    """
    decks = rules.decks
    jokers = [SMALL_JOKER, BIG_JOKER] if rules["declare.joker_pairs"] or not room else []
    level_cards = [card(level, s) for s in SUIT_LETTERS]
    declarer = state.declarer if state is not None else None
    current = state.strength[0] if state is not None and state.strength else 0
    others = [s for s in range(4) if s != declarer]
    if move in ("overcall", "equal", "reinforce", "self_other") and declarer is None:
        return None
    if move in ("declare", "no_token"):
        seat = d.int(0, 3)
        cards = [d.pick(level_cards)] * (1 if room else d.int(1, decks))
    elif move == "overcall":
        seat = d.pick(others)
        copies = current + (1 if room else d.pick((1, 1, 2)))
        if copies > decks:
            return None
        cards = [d.pick(level_cards + (jokers if copies >= 2 else []))] * copies
    elif move == "equal":
        seat = d.pick(others)
        cards = [d.pick([c for c in level_cards if c != state.card] + (jokers if current >= 2 else []))] * current
    elif move == "reinforce":
        return declarer, [state.card] * d.int(1, max(1, decks - current))
    elif move == "self_other":
        seat = declarer
        copies = min(decks, current + d.int(0, 1))
        cards = [d.pick([c for c in level_cards if c != state.card] + (jokers if copies >= 2 else []))] * copies
    elif move in ("joker", "lone_joker"):
        if not jokers:
            return None
        seat = d.int(0, 3)
        copies = 1 if move == "lone_joker" else d.int(2, max(2, decks))
        cards = [d.pick(jokers)] * copies
    elif move == "not_level":
        seat = d.int(0, 3)
        cards = [card(d.pick([r for r in RANKS if r != level]), d.pick(SUIT_LETTERS))] * d.int(1, 2)
    else:  # mixed
        seat = d.int(0, 3)
        first = d.pick(level_cards)
        cards = [first, d.pick([c for c in level_cards + jokers if c != first])]
    if token is not None and move != "no_token" and token not in cards:
        cards = cards + [token]
    return seat, cards


def _holds(holdings: list[Counter], seat: int, cards: list[int], reinforcing: bool, decks: int):
    """The cards each seat must hold once it has shown ``cards`` (None when the pack cannot have them)."""
    new = [Counter(h) for h in holdings]
    for c, k in Counter(cards).items():
        new[seat][c] = new[seat][c] + k if reinforcing else max(new[seat][c], k)
    total = sum(new, Counter())
    return None if any(k > decks for k in total.values()) else new


def build_declare(d: Draw, rules, sc: Scenario) -> dict:
    from reference_impl.declaring import judge_declarations
    if sc.kind == "after_wrong":
        return _after_wrong(d, rules, *sc.args)
    prefix, last, first_hand = sc.args
    level = d.pick(levels(rules))
    banker = None if first_hand else d.int(0, 3)
    token = None
    if first_hand and rules["declare.first_hand_card"] is not None:
        token = card(*rules["declare.first_hand_card"])
    if prefix == ("random",):
        prefix = tuple(d.pick(ANY_MOVE) for _ in range(d.int(0, 3)))
        last = d.pick(LAST_MOVES)
    sequence: list[tuple[int, list[int]]] = []
    holdings = [Counter() for _ in range(4)]
    state = None

    def shown(step):
        reinforcing = state is not None and step[0] == state.declarer and set(step[1]) == {state.card}
        return _holds(holdings, step[0], step[1], reinforcing, rules.decks)

    for move in prefix:
        step = declaration(d, rules, level, token, state, move, room=True)
        held = None if step is None else shown(step)
        if held is None:
            continue
        j = judge_declarations(rules, level, sequence + [step], first_hand, banker=banker)
        if j.value.legal:
            sequence.append(step)
            holdings, state = held, j.value
    if last == "retake":   # the first declarer, overcalled, adds copies of his own card
        d.require(len(sequence) >= 2 and state is not None and state.declarer != sequence[0][0])
        first_seat, first_cards = sequence[0]
        adds = max(1, state.strength[0] - sum(1 for c in first_cards if c == first_cards[0]))
        step = (first_seat, [first_cards[0]] * adds)
        held = _holds(holdings, first_seat, step[1], True, rules.decks)
        d.require(held is not None)
    else:
        step = declaration(d, rules, level, token, state, last)
        d.require(step is not None and shown(step) is not None)
    sequence.append(step)
    inp = {"level": level, "first_hand": first_hand, "banker": banker,
           "declarations": [{"seat": s, "cards": fmt(c)} for s, c in sequence]}
    if d.chance(1, 4):
        inp["kitty_taken"] = True
    return inp


def _after_wrong(d: Draw, rules, who: str, first_hand: bool) -> dict:
    """A wrong declaration (a card that is not the level) earlier in the hand, then a declaration of the
    same suit by the offender's partner (barred where ``declare.wrong_bars_partner``), by another player, or
    (``who`` "offender", an aimed position) by the offender himself."""
    level = d.pick(levels(rules))
    seat = d.int(0, 3)
    suit = d.pick(SUIT_LETTERS)
    wrong = [card(d.pick([r for r in RANKS if r != level and r not in rules["trump.fixed_ranks"]]), suit)]
    declarer = (seat + 2) % 4 if who == "partner" else seat if who == "offender" else (seat + d.pick((1, 3))) % 4
    cards = [card(level, suit)] * d.int(1, rules.decks)
    if first_hand and rules["declare.first_hand_card"] is not None:
        token = card(*rules["declare.first_hand_card"])
        if token not in cards:
            cards.append(token)
    return {"level": level, "first_hand": first_hand, "banker": None if first_hand else d.int(0, 3),
            "declarations": [{"seat": declarer, "cards": fmt(cards)}],
            "wrong": [{"seat": seat, "cards": fmt(wrong)}]}


def build_undeclared(d: Draw, rules, sc: Scenario) -> dict:
    tail, first_hand = sc.args
    decks = rules.decks
    k = rules["declare.kitty_card"] - 1
    size = max(rules.kitty_size, k + 1)
    used: Counter = Counter()
    kitty: list[int] = []
    for i in range(size):
        if (i >= k and tail) or (i <= k + 1 and d.bool()):
            options = [j for j in (SMALL_JOKER, BIG_JOKER) if used[j] < decks]
            if options:
                c = d.pick(options)
                used[c] += 1
                kitty.append(c)
                continue
        c = d.pick([c for c in range(52) if used[c] < decks])
        used[c] += 1
        kitty.append(c)
    ls = levels(rules)
    return {"level": d.pick(ls), "attackers_level": d.pick(ls), "kitty": [text(c) for c in kitty],
            "first_hand": first_hand}
