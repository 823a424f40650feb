"""Positions for ``hand``: a whole hand played out, as a transcript.

A deal drawn card by card; declarations (a legal prefix drawn from the dealt
hands) or, when nobody declares, trump from the kitty; the banker's kitty
exchange (low side cards buried, with some choice); then every trick: a lead
of a unit, sometimes grown into a throw (a failed throw is replaced by its
forced play and recorded), and legal follows drawn by meeting the follow
obligation and then choosing the rest. Every choice goes through the
:class:`~conformance.generation.positions.draw.Draw`, so Hypothesis can generate and
shrink whole hands as well as the seeded suite.
"""
from __future__ import annotations

from collections import Counter

from reference_impl.cards import rank_of
from reference_impl.combos import classify, tractor_candidates, unit_sizes
from reference_impl.following import judge_follow_combo, obligation
from reference_impl.hand import dealt_pack
from reference_impl.rules import Trace
from reference_impl.sampling import realize
from reference_impl.trump import context

from conformance.generation.positions.draw import Draw
from conformance.generation.positions.scenario import Scenario
from conformance.generation.positions.suits import SUIT_LETTERS, fmt, levels

REDRAWN_LEADS = 20   # leads drawn again where the ruleset refuses one outright before the position is given up


def hand_scenarios(rules) -> tuple[Scenario, ...]:
    return (Scenario("hand", "play", (True,)), Scenario("hand", "play", (False,)))


def ended_scenarios(rules) -> tuple[Scenario, ...]:
    """Later hands that a fault ends before the last trick, one for each fault whose record in the ruleset
    ends the hand (001:12.1 藏牌: penalty.revoke ends_hand): the transcript's ``ended_early``."""
    from reference_impl.penalties import RECORDS
    values = rules.checked.values
    return tuple(Scenario("hand", "ended", (fault,)) for fault, key in RECORDS.items()
                 if (values.get(key) or {}).get("ends_hand"))


def hands_at(level: str) -> tuple[Scenario, ...]:
    """Later hands played at ``level`` (the jack rule's level, V67): where a single card of that rank may win
    the last trick."""
    return (Scenario("hand", "play", (False, "at", level)),)


def _take(counts: Counter, cards) -> None:
    for c in cards:
        counts[c] -= 1
        if counts[c] <= 0:
            del counts[c]


def units_held(ctx, counts: Counter, suit: int) -> list[list[int]]:
    """Every single, pair, triple and (longest) tractor ``counts`` holds in ``suit``."""
    held = Counter({c: n for c, n in counts.items() if ctx.suit[c] == suit})
    options: list[list[int]] = [[c] for c in sorted(held)]
    for size in unit_sizes(ctx):
        options += [[c] * size for c, n in sorted(held.items()) if n >= size]
    for size in (3, 2):
        if size <= ctx.rules.decks:
            for cards in tractor_candidates(ctx, held, suit, size):
                options.append([c for c in cards for _ in range(size)])
    return options


def draw_lead(d: Draw, ctx, hand: list[int], throw_chance: tuple[int, int] = (1, 5)) -> list[int]:
    """A unit of a random suit of ``hand``, sometimes grown into a throw of that suit."""
    counts = Counter(hand)
    suit = d.pick(sorted({ctx.suit[c] for c in hand}))
    options = units_held(ctx, counts, suit)
    lead = list(d.pick(sorted(options, key=lambda o: -len(o)) if d.chance(2, 3) else options))
    if d.chance(*throw_chance):
        rest = Counter(counts)
        _take(rest, lead)
        for _ in range(d.int(1, 3)):
            more = units_held(ctx, rest, suit)
            if not more:
                break
            if d.bool():  # the strongest: throws that may stand
                pick = max(more, key=lambda o: (len(o) > 1, max(ctx.key[c] for c in o)))
            else:
                pick = d.pick(more)
            lead += pick
            _take(rest, pick)
    return lead


def draw_follow(d: Draw, ctx, lead_cards: list[int], hand: list[int]) -> list[int]:
    """A legal follow: the obligation met, then the rest chosen."""
    lead = classify(ctx, lead_cards)
    hand_counts = Counter(hand)
    n = lead.n
    in_suit = Counter({c: k for c, k in hand_counts.items() if ctx.suit[c] == lead.suit})
    if sum(in_suit.values()) <= n:
        play = list(in_suit.elements())
        rest = Counter(hand_counts)
        _take(rest, play)
        return play + d.sample(sorted(rest.elements()), n - len(play))
    required, _ = obligation(ctx, lead, in_suit, Trace())
    for turn in range(4):
        play = realize(ctx, required, lead.suit, in_suit, d.pick, lambda: d.chance(2, 3))
        if play is None:
            continue
        rest = Counter(in_suit)
        _take(rest, play)
        play += d.sample(sorted(rest.elements()), n - len(play))
        if judge_follow_combo(ctx, lead, hand_counts, play).value:
            return play
    suit_cards = sorted(in_suit.elements())
    for _ in range(200):
        play = d.sample(suit_cards, n)
        if judge_follow_combo(ctx, lead, hand_counts, play).value:
            return play
    d.require(False)
    return []


def build_hand(d: Draw, rules, sc: Scenario) -> dict:
    from conformance.protocol.engine import _judge_trick
    from reference_impl.declaring import judge_undeclared
    from reference_impl.leading import judge_lead
    first_hand = sc.args[0] if sc.kind == "play" else False   # a hand a fault ends ("ended"): a later hand
    bury_points = len(sc.args) > 1 and sc.args[1] == "points"   # an aimed hand: the banker buries points
    at = sc.args[2] if len(sc.args) > 2 and sc.args[1] == "at" else None   # aimed: played at this level
    ls = levels(rules)
    team_levels = [d.pick(ls), d.pick(ls)]
    banker = None if first_hand else d.int(0, 3)
    if at is not None and banker is not None:   # the banker's team plays the level aimed at (level.knock_back)
        team_levels[banker % 2] = at
    pack = d.permutation(dealt_pack(rules))
    n = rules.hand_size
    hands = [pack[i * n:(i + 1) * n] for i in range(4)]
    kitty = pack[4 * n:]
    level = team_levels[0] if banker is None else team_levels[banker % 2]
    sequence, state = _declarations(d, rules, level, hands, first_hand, banker)
    if state is not None:
        trump = state.trump if isinstance(state.trump, int) else None
        hand_banker = state.banker if state.banker is not None else banker   # moved by declaring: first hand, H31
    else:
        attackers_level = team_levels[0] if banker is None else team_levels[1 - banker % 2]
        u = judge_undeclared(rules, kitty, first_hand, level, attackers_level).value
        d.require(not u.redeal)
        trump = u.trump if isinstance(u.trump, int) else None
        hand_banker = banker if banker is not None else d.int(0, 3)
    if banker is None or hand_banker == banker:   # H31 moving the bank in a later hand: the level declared at
        level = team_levels[hand_banker % 2]
    ctx = context(rules, level, trump)
    dealt = [list(h) for h in hands]
    hands[hand_banker] = hands[hand_banker] + list(kitty)
    ranked = sorted(hands[hand_banker], key=lambda c: (ctx.is_trump(c), rules.points.get(rank_of(c), 0) > 0,
                                                       ctx.key[c], c))
    if rules["kitty.exchange"] and bury_points:   # point cards of the side suits among the buried
        side = [c for c in ranked if not ctx.is_trump(c)]
        pointed = [c for c in side if rules.points.get(rank_of(c), 0) > 0]
        d.require(pointed and len(side) >= rules.kitty_size)
        first = d.pick(pointed)
        rest = list(side)
        rest.remove(first)
        discard = [first] + d.sample(rest[:rules.kitty_size + 4], rules.kitty_size - 1)
    elif rules["kitty.exchange"]:
        spare = d.int(0, 2)
        low = ranked[:rules.kitty_size + spare]
        discard = d.sample(low, rules.kitty_size)
    else:
        discard = list(kitty)
        d.require(not bury_points or any(rules.points.get(rank_of(c), 0) > 0 for c in discard))
    held = Counter(hands[hand_banker])
    _take(held, discard)
    hands[hand_banker] = sorted(held.elements())
    tricks = []
    leader = hand_banker
    while hands[leader]:
        lead = draw_lead(d, ctx, hands[leader], (1, 7))
        others = [hands[(leader + k) % 4] for k in (1, 2, 3)]
        trick: dict = {"leader": leader}
        j = judge_lead(ctx, lead, others)
        for _ in range(REDRAWN_LEADS):   # a lead refused outright, not a failed throw (H04: no throw of trumps)
            if j.value or "failure" in j.extra:
                break
            lead = draw_lead(d, ctx, hands[leader], (1, 7))
            j = judge_lead(ctx, lead, others)
        d.require(j.value or "failure" in j.extra)
        if not j.value:
            trick["failed_throw"] = fmt(lead)
            lead = list(j.extra["failure"].forced)
        plays: list[list[int]] = [[] for _ in range(4)]
        plays[leader] = lead
        for k in (1, 2, 3):
            seat = (leader + k) % 4
            plays[seat] = draw_follow(d, ctx, lead, hands[seat])
        for s in range(4):
            held = Counter(hands[s])
            _take(held, plays[s])
            hands[s] = sorted(held.elements())
        leader, _ = _judge_trick(ctx, trick["leader"], plays)
        trick["plays"] = [fmt(p) for p in plays]
        tricks.append(trick)
    out = {
        "level": level, "trump": None if trump is None else SUIT_LETTERS[trump], "banker": hand_banker,
        "first_hand": first_hand, "deal": {"hands": [fmt(h) for h in dealt], "kitty": fmt(kitty)},
        "declarations": [{"seat": s, "cards": fmt(c)} for s, c in sequence],
        "discard": fmt(discard), "tricks": tricks}
    if sc.kind == "ended":   # the fault ends the hand in the trick after the kept ones
        out["tricks"] = tricks[:d.int(0, len(tricks) - 1)]
        out["ended_early"] = {"fault": sc.args[0], "seat": d.int(0, 3), "count": d.int(1, 2)}
    return {"transcript": out}


def _declarations(d: Draw, rules, level, hands, first_hand, banker):
    """A legal prefix of declarations the dealt hands can make, and the state after it."""
    from reference_impl.cards import card
    from reference_impl.declaring import judge_declarations
    sequence: list[tuple[int, list[int]]] = []
    state = None
    seat = d.int(0, 3)
    token = None
    if first_hand and rules["declare.first_hand_card"] is not None:
        token = card(*rules["declare.first_hand_card"])
    for _ in range(d.int(0, 3) * 2):
        counts = Counter(hands[seat])
        options = []
        for s in SUIT_LETTERS:
            c = card(level, s)
            for k in range(1, counts.get(c, 0) + 1):
                cards = [c] * k
                if token is not None and token != c:
                    if counts.get(token, 0) == 0:
                        continue
                    cards = cards + [token]
                options.append(cards)
        for j_card in (52, 53):
            options += [[j_card] * k for k in range(2, counts.get(j_card, 0) + 1)]
        if options:
            step = (seat, d.pick(options))
            j = judge_declarations(rules, level, sequence + [step], first_hand, banker=banker)
            if j.value.legal:
                sequence.append(step)
                state = j.value
        seat = (seat + 1) % 4
    return sequence, state
