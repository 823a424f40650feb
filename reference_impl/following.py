"""Following (跟牌): is a follower's play legal, and what obligation decided it.

1. The play has as many cards as the lead, all held.
2. Suit (``follow.suit``): holding at least as many cards of the led suit as
   the lead, all the play is of that suit; holding fewer, the play contains
   all of them.
3. Structure: each component of the lead, largest first, has a follow ladder
   — the ruleset's own (``follow`` statements) or, for shapes it does not
   list, one derived by ``follow.unlisted``. For each component the first
   entry the follower's suit holding can still supply (together with what
   earlier components already require) is required; the play must contain
   all required units.

The check never enumerates subsets: it asks whether a multiset of units can be
taken from a holding (:func:`tractor_dsl.patterns.can_form`), whose cost
depends on the distinct cards of one suit.
"""
from __future__ import annotations

from collections import Counter
from collections import _count_elements  # noqa: PLC2701 - Counter's own counting loop, in C
from functools import lru_cache
from typing import Iterable

from tractor_dsl.ladders import derived_ladder
from tractor_dsl.patterns import can_form

from .cards import text
from .combos import Combo, classify, tractor_candidates
from .rules import Judgment, Trace
from .trump import Context

Unit = tuple[int, int]


def ladder_for(ctx: Context, unit: Unit, trace: Trace) -> list:
    rules = ctx.rules
    if unit in rules.ladders:
        trace.add(rules.ladder_clause[unit])
        return rules.ladders[unit]
    trace.add(rules.clause("follow.unlisted"))
    return list(derived_ladder(unit, rules["follow.unlisted"] == "component_ladders"))


def _ladder(rules, unit: Unit) -> tuple[str, tuple[tuple[list[Unit], str], ...]]:
    """What :func:`ladder_for` gives for ``unit``, once per ruleset: the clause it adds, and each entry with
    its description (:func:`describe_units`)."""
    ladders = rules.memo.get("follow ladders")
    if ladders is None:
        ladders = rules.memo["follow ladders"] = {}
    found = ladders.get(unit)
    if found is None:
        if unit in rules.ladders:
            clause, entries = rules.ladder_clause[unit], rules.ladders[unit]
        else:
            clause = rules.clause("follow.unlisted")
            entries = derived_ladder(unit, rules["follow.unlisted"] == "component_ladders")
        found = ladders[unit] = (clause, tuple((list(e), describe_units(e)) for e in entries))
    return found


def _holding_counts(counts: Counter | dict, lead_size: int, protect_triples: bool) -> dict:
    if protect_triples and lead_size == 2:
        # a triple need not be broken to follow a pair: it cannot supply one
        return {c: (1 if n == 3 else n) for c, n in counts.items()}
    return dict(counts)


def obligation(ctx: Context, lead: Combo, suit_holding: Counter | dict, trace: Trace) -> tuple[list[Unit], list[str]]:
    """The units the follower must play, and the ladder entries that required them."""
    rules = ctx.rules
    runs = ctx.runs[lead.suit]
    where = ctx.where  # every card of the holding is of the lead's suit: its positions are in ``runs``
    values = rules.values
    protect = not values["follow.break_triple_for_pair"]
    components = lead.components
    if rules.decks >= 3:
        for c in components:
            if c.size == 2:
                trace.add(rules.clause("follow.break_triple_for_pair"))
                break
    required: list[Unit] = []
    chosen: list[str] = []
    in_tractors = _tractor_cards(ctx, lead, suit_holding, trace) if values.get("follow.protect_tractors") else ()
    for comp in components:
        size = comp.size
        # can_form never changes the counts it is given: the holding itself serves, but for the pair rule
        counts = _holding_counts(suit_holding, 2, True) if protect and size == 2 else suit_holding
        if in_tractors and comp.length == 1 and size > 1:
            # follow.protect_tractors: the pairs and triples of a tractor held do not count for a pair or triple
            counts = {c: (1 if c in in_tractors else n) for c, n in counts.items()}
        clause, entries = _ladder(rules, (size, comp.length))
        trace.add(clause)
        for entry, name in entries:
            if can_form(required + entry, runs, counts, where):
                required.extend(entry)
                chosen.append(name)
                break
    return required, chosen


def _triple_for_pair(ctx: Context, lead: Combo, in_suit: dict, played: dict, trace: Trace) -> str | None:
    """``follow.pairs_before_triples``: with a tractor led, a triple broken for a pair while a pair held stays in
    the hand (the obligation is met, but by the wrong cards): what is wrong, or None."""
    rules = ctx.rules
    if not rules.checked.values.get("follow.pairs_before_triples") or not any(c.length > 1 for c in lead.components):
        return None
    trace.add(*rules.clauses_of("follow.pairs_before_triples"))
    broken = [c for c, n in played.items() if n == 2 and in_suit.get(c, 0) >= 3]
    kept = [c for c, n in in_suit.items() if n == 2 and played.get(c, 0) < 2]
    if broken and kept:
        return (f"a triple broken for a pair ({text(broken[0])}) while the pair {text(kept[0])} is held: "
                "the pairs held come first")
    return None


def _tractor_cards(ctx: Context, lead: Combo, suit_holding, trace: Trace) -> set[int]:
    """The cards of the tractors the follower holds, when ``follow.protect_tractors`` spares them."""
    rules = ctx.rules
    if not rules.checked.values.get("follow.protect_tractors") or \
            not any(c.length == 1 and c.size > 1 for c in lead.components):
        return set()
    trace.add(*rules.clauses_of("follow.protect_tractors"))
    held = dict(suit_holding)
    out: set[int] = set()
    for size in rules.tractor_sizes:
        for cards in tractor_candidates(ctx, held, lead.suit, size):
            out.update(cards)
    return out


def describe_units(units: Iterable[Unit]) -> str:
    return _describe(tuple(units))


@lru_cache(maxsize=4096)
def _describe(units: tuple[Unit, ...]) -> str:
    names = {1: "single", 2: "pair", 3: "triple", 4: "quad"}
    counted = Counter(units)
    parts = []
    for (size, length), n in sorted(counted.items(), key=lambda kv: (-kv[0][1], -kv[0][0])):
        name = f"tractor({names[size]}, {length})" if length > 1 else names[size]
        parts.append(f"{n} {name}" if n > 1 else name)
    return " + ".join(parts)


def judge_follow(ctx: Context, lead_cards: Iterable[int], hand: Iterable[int], play: Iterable[int]) -> Judgment:
    """Whether ``play`` from ``hand`` legally follows ``lead_cards``."""
    lead = classify(ctx, lead_cards)
    return judge_follow_combo(ctx, lead, _count(hand), list(play))


def _count(cards: Iterable[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    _count_elements(counts, cards)  # the C helper behind Counter, into a plain dict
    return counts


def judge_follow_combo(ctx: Context, lead: Combo, hand: Counter | dict, play: list[int],
                       obliged: tuple | None = None, in_suit: dict | None = None) -> Judgment:
    """Whether ``play`` from ``hand`` (card -> copies) legally follows ``lead``. ``obliged``, when given, is what
    :func:`obligation` gives for this hand's holding of the led suit, as (required, chosen, the clause ids it
    consulted), and ``in_suit`` that holding (card -> copies, as ``hand`` lists them): a caller that worked
    them out already (:func:`reference_impl.legal.follow_options`) is not made to work them out again."""
    rules = ctx.rules
    n = len(lead.cards)
    if len(play) != n:
        return Judgment(False, (), "wrong_card_count", f"the lead has {n} cards, the play {len(play)}")
    played: dict[int, int] = {}
    _count_elements(played, play)
    get = hand.get
    for c, k in played.items():
        if get(c, 0) < k:
            return Judgment(False, (), "cards_not_held", "the play uses cards the hand does not hold")
    suit = lead.suit
    trace = Trace()
    trace.ids.append(rules.clause("follow.suit"))
    suit_of = ctx.suit
    if in_suit is None:
        in_suit = {c: k for c, k in hand.items() if suit_of[c] == suit}
    held = sum(in_suit.values())
    play_in_suit = {c: k for c, k in played.items() if suit_of[c] == suit}
    followed = sum(play_in_suit.values())
    if rules.values["follow.suit"]:
        if held >= n and followed < n:
            return Judgment(False, trace.tuple(), "must_follow_suit",
                            f"holds {held} card(s) of {ctx.suit_name(suit)}, so all {n} must be of that suit")
        if held < n and followed < held:
            return Judgment(False, trace.tuple(), "must_follow_suit",
                            f"holds {held} card(s) of {ctx.suit_name(suit)} and must play them all")
    if held <= n:
        return Judgment(True, trace.tuple(), "ok", "all cards of the led suit are played")
    fill = lowest_fill(ctx, lead, in_suit)
    if fill is not None:   # H37: the follower of a tractor he cannot match plays the fill it dictates
        trace.add(*rules.clauses_of("follow.fill"))
        if Counter(play_in_suit) == fill and followed == n:
            return Judgment(True, trace.tuple(), "ok", "the lowest fill of the tractor led")
        return Judgment(False, trace.tuple(), "must_play_tractor",
                        "the fill of the tractor led: " + " ".join(text(c) for c in sorted(fill.elements())))
    if obliged is None:
        required, chosen = obligation(ctx, lead, in_suit, trace)
    else:
        required, chosen = list(obliged[0]), list(obliged[1])
        trace.add(*obliged[2])
    runs = ctx.runs[suit]
    where = ctx.where  # the cards of the play in the led suit: their positions are in ``runs``
    if can_form(required, runs, play_in_suit, where):
        standing_in = _triple_for_pair(ctx, lead, in_suit, play_in_suit, trace)
        if standing_in:
            return Judgment(False, trace.tuple(), "must_play_pair", standing_in, {"required": chosen})
        return Judgment(True, trace.tuple(), "ok", "; ".join(chosen), {"required": chosen})
    reason = "must_play_pair"
    tractors = [u for u in required if u[1] > 1]
    triples = [u for u in required if u == (3, 1)]
    pairs_first = rules.values.get("follow.reason_order") == "pairs_first"   # H38
    short = sum(k // 2 for k in play_in_suit.values()) < sum(length for size, length in required if size > 1)
    if not (short and pairs_first):   # too few pairs (two equal cards a pair) is named first under H38
        if tractors and not can_form(tractors, runs, play_in_suit, where):
            reason = "must_play_tractor"
        elif triples and not can_form(tractors + triples, runs, play_in_suit, where):
            reason = "must_play_triple"
    if short and (pairs_first or reason != "must_play_pair"):   # the pairs short and a larger obligation broken:
        trace.add(*rules.clauses_of("follow.reason_order"))     # follow.reason_order named one of them
    return Judgment(False, trace.tuple(), reason, "required: " + "; ".join(chosen), {"required": chosen})


def lowest_fill(ctx: Context, lead: Combo, in_suit: dict) -> Counter | None:
    """Under ``follow.fill = lowest_first`` (H37), the one play of the led suit that follows a tractor of pairs from a
    holding (card -> copies, more cards than the lead) that holds pairs but no tractor as long: its longest run of
    pairs (the lowest of equally long runs), then its lowest pairs, then its lowest cards, to the lead's count.
    None where the rule does not dictate the play: another setting, another lead, a full tractor held (the
    ladder's first rung asks for it) or no pair held (any cards of the suit follow)."""
    if ctx.rules.checked.values.get("follow.fill") != "lowest_first" or lead.kind != "tractor" or \
            lead.components[0].size != 2:
        return None
    if not any(k >= 2 for k in in_suit.values()):
        return None
    key = ctx.key
    runs = list(tractor_candidates(ctx, in_suit, lead.suit, 2, None))
    longest = max(map(len, runs), default=0)
    if longest >= lead.components[0].length:
        return None
    left = Counter(in_suit)
    fill: Counter = Counter()
    if runs:
        for c in min((r for r in runs if len(r) == longest), key=lambda r: max(key[c] for c in r)):
            fill[c] += 2
            left[c] -= 2
    count, n = sum(fill.values()), len(lead.cards)
    for c in sorted((c for c, k in left.items() if k >= 2), key=lambda c: (key[c], c)):
        if count + 2 > n:
            break
        fill[c] += 2
        left[c] -= 2
        count += 2
    for c in sorted(left.elements(), key=lambda c: (key[c], c))[:n - count]:
        fill[c] += 1
    return fill
