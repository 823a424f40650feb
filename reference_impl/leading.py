"""Leading (出牌) and throws (甩牌).

A lead is one combination of one effective suit, or a throw of several. A
throw must be unbeatable; ``throw.check`` says how that is judged against the
other three hands:

* ``components_unbeatable`` — no other hand holds, in the suit, a unit of the
  same shape as a component and higher than it;
* ``singles`` — every card is compared as a single: a card is blocked when
  another hand holds a higher card of the suit;
* ``smallest_vs_largest`` — the throw's smallest card must be at least every
  other hand's largest card of the suit;
* ``unchecked`` (H28) — not at all: a throw of one suit stands as led, no other
  hand is looked at, so no throw fails. It is still played out as its trick.

Under ``throw.ruff_blocks`` (H35) a side-suit throw is also beaten by a hand
void in its suit that holds trumps of a component's shape (a ruff counts as
beating it when it is judged).

On failure: the blocked cards, the penalty (``throw.penalty_points`` per card
counted by ``throw.penalty_per``, or once under ``attempt``) and the forced play
(``throw.forced_play``; ``first_blocker`` - the smallest component the first
opponent after the thrower can beat; ``singles_first`` - the smallest of the
components with the fewest cards; ``blocked_fewest`` - of the blocked
components, the one with the fewest cards, the lowest of equals). ``throw.banned_in`` refuses a throw of
trumps or of a side suit (H04).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from .combos import Combo, Component, classify, component_key, tractor_candidates
from .rules import Judgment, Trace
from .trump import TRUMP, Context


@dataclass(frozen=True)
class ThrowFailure:
    blocked: tuple[int, ...]
    penalty: int
    forced: tuple[int, ...]


def judge_lead(ctx: Context, cards: Iterable[int], others: Sequence[Iterable[int]] = ()) -> Judgment:
    """Whether ``cards`` may be led, given the other three hands (needed for throws).

    ``others`` are the other hands in playing order after the leader: the next
    player (an opponent), the partner, the previous player (an opponent).
    """
    combo = classify(ctx, cards)
    rules = ctx.rules
    trace = Trace()
    if combo.kind == "empty":
        return Judgment(False, (), "empty_play", "a lead needs at least one card")
    if combo.kind == "mixed":
        trace.add(rules.clause("follow.suit"))
        return Judgment(False, trace.tuple(), "mixed_suits", "the cards are of more than one suit",
                        {"combo": combo})
    if combo.kind != "throw":
        trace.add(*_shape_clauses(ctx, combo))
        return Judgment(True, trace.tuple(), "ok", combo.shape(), {"combo": combo})
    trace.add(rules.clause("throw.allowed"), *(_mixed_clause(ctx)))
    if not rules["throw.allowed"]:
        return Judgment(False, trace.tuple(), "throw_not_allowed", combo.shape(), {"combo": combo})
    banned = rules.checked.values.get("throw.banned_in")
    if banned:   # H04: no throw in trump, or in a side suit
        trace.add(rules.clause("throw.banned_in"))
        where = "trump" if combo.suit == TRUMP else "side_suits"
        if where in banned:
            return Judgment(False, trace.tuple(), "throw_not_allowed",
                            f"{combo.shape()}: no throw of {'trumps' if where == 'trump' else 'a side suit'}",
                            {"combo": combo})
    if rules["throw.check"] == "unchecked":   # H28: no other hand is looked at; the throw stands as led
        trace.add(rules.clause("throw.check"))
        return Judgment(True, trace.tuple(), "ok", combo.shape(), {"combo": combo})
    trace.add(rules.clause("throw.check"), rules.clause("throw.split"), rules.clause("throw.judged_against"))
    if "throw.ruff_blocks" in rules.checked.values:
        trace.add(rules.clause("throw.ruff_blocks"))
    hands = [Counter(h) for h in others]
    if rules["throw.judged_against"] == "opponents" and len(hands) == 3:
        hands = [hands[0], hands[2]]  # others are in seat order after the leader: opponent, partner, opponent
    blocked = blocked_cards(ctx, combo, hands)
    if not blocked:
        return Judgment(True, trace.tuple(), "ok", combo.shape(), {"combo": combo})
    trace.add(rules.clause("throw.penalty_points"), rules.clause("throw.penalty_per"),
              rules.clause("throw.forced_play"))
    if "throw.penalty_by_blocked" in rules.checked.values:
        trace.add(rules.clause("throw.penalty_by_blocked"))
    first = None
    if rules["throw.forced_play"] == "first_blocker":  # the opponents after the thrower, in playing order
        order = [Counter(h) for h in others]
        order = order[0::2] + order[1:2] if len(order) == 3 else hands
        first = next((b for b in (blocked_cards(ctx, combo, [h]) for h in order) if b), blocked)
    failure = _failure(ctx, combo, blocked, first)
    return Judgment(False, trace.tuple(), "throw_beaten",
                    f"{len(blocked)} card(s) can be beaten", {"combo": combo, "failure": failure})


def _mixed_clause(ctx: Context) -> list[str]:
    """A throw of pairs and triples side by side (88999) is one because ``tractor.mixed`` says no."""
    return [ctx.rules.clause("tractor.mixed")] if ctx.rules.decks >= 3 and not ctx.rules["tractor.mixed"] else []


def _shape_clauses(ctx: Context, combo: Combo) -> list[str]:
    r = ctx.rules
    mixed = [r.clause("tractor.mixed")] if r.decks >= 3 else []  # 88999: pairs and triples chaining
    if combo.kind == "tractor":
        return [r.clause("tractor.elements"), *mixed, *ctx.adjacency_clauses()]
    return []


def blocked_cards(ctx: Context, combo: Combo, others: list[Counter]) -> tuple[int, ...]:
    method = ctx.rules["throw.check"]
    if method == "unchecked":   # H28: nothing blocks a throw
        return ()
    suit = combo.suit
    other_suit = [Counter({c: n for c, n in h.items() if ctx.suit[c] == suit}) for h in others]
    # H35: the trumps of the hands void in the suit beat a side-suit throw too
    ruffing = [Counter({c: n for c, n in h.items() if ctx.suit[c] == TRUMP}) for h, mine in zip(others, other_suit)
               if not mine] if suit != TRUMP and ctx.rules.checked.values.get("throw.ruff_blocks") else []
    ruffing = [h for h in ruffing if h]
    key = ctx.key
    if method in ("singles", "smallest_vs_largest") and ruffing:
        return tuple(combo.cards)   # any trump beats every card taken as a single
    if method == "singles":
        top = max((key[c] for h in other_suit for c in h), default=None)
        return tuple(c for c in combo.cards if top is not None and key[c] < top)
    if method == "smallest_vs_largest":
        top = max((key[c] for h in other_suit for c in h), default=None)
        smallest = min(key[c] for c in combo.cards)
        if top is None or smallest >= top:
            return ()
        return tuple(c for c in combo.cards if key[c] < top)
    out: list[int] = []
    for comp in combo.components:
        if any(_beats_component(ctx, comp, h, suit) for h in other_suit) or \
                any(_ruffs_component(ctx, comp, h) for h in ruffing):
            out.extend(comp.cards)
    return tuple(out)


def _ruffs_component(ctx: Context, comp: Component, trumps: Counter) -> bool:
    """Whether ``trumps`` (a void hand's trumps) hold a unit of ``comp``'s shape, of any rank (H35)."""
    if comp.length == 1:
        return any(n >= comp.size for n in trumps.values())
    return any(True for _ in tractor_candidates(ctx, trumps, TRUMP, comp.size, comp.length))


def _beats_component(ctx: Context, comp: Component, holding: Counter, suit: int) -> bool:
    """Whether ``holding`` has a unit of ``comp``'s shape ranking above it."""
    if comp.length == 1:
        return any(n >= comp.size and ctx.key[c] > comp.key for c, n in holding.items())
    for cards in tractor_candidates(ctx, holding, suit, comp.size, comp.length):
        if component_key(ctx, cards) > comp.key:
            return True
    return False


def _failure(ctx: Context, combo: Combo, blocked: tuple[int, ...],
             first: tuple[int, ...] | None = None) -> ThrowFailure:
    rules = ctx.rules
    per = rules["throw.penalty_per"]
    forced_rule = rules["throw.forced_play"]
    key = ctx.key
    if forced_rule == "smallest_card":
        forced: tuple[int, ...] = (min(combo.cards, key=lambda c: key[c]),)
    elif forced_rule == "singles_first":   # H03: the smallest of the components with the fewest cards
        fewest = min(c.n for c in combo.components)
        forced = min((c for c in combo.components if c.n == fewest), key=lambda c: c.key).cards
    elif forced_rule == "blocked_fewest":  # H27: of the blocked components, the fewest cards, then the lowest
        hit = Counter(blocked)
        candidates = [c for c in combo.components if any(hit[x] for x in c.cards)] or list(combo.components)
        forced = min(candidates, key=lambda c: (c.n, c.key)).cards
    else:
        candidates = list(combo.components)
        if forced_rule in ("blocked_component", "first_blocker"):
            blocked_set = Counter(first if forced_rule == "first_blocker" and first else blocked)
            candidates = [c for c in combo.components if any(blocked_set[x] for x in c.cards)] or candidates
        smallest = min(candidates, key=lambda c: (c.key, c.n))
        forced = smallest.cards
    if per == "card_thrown":
        counted = combo.n
    elif per == "card_blocked":
        counted = len(blocked)
    elif per == "attempt":  # the points once, however many cards
        counted = 1
    else:  # card_taken_back
        counted = combo.n - len(forced)
    return ThrowFailure(tuple(blocked), counted * points_per_card(rules, blocked_kind(ctx, combo, blocked)),
                        tuple(forced))


KIND_ORDER = ("single", "pair", "triple", "tractor")   # what blocks a throw, least to most


def blocked_kind(ctx: Context, combo: Combo, blocked: Sequence[int]) -> str:
    """What blocks a failed throw: the kind of its largest component holding a blocked card (a tractor before a
    triple, a pair, a single); under throw.check = singles or smallest_vs_largest every block is a single's."""
    if ctx.rules["throw.check"] != "components_unbeatable":
        return "single"
    hit = Counter(blocked)
    kinds = [c.kind for c in combo.components if any(hit[x] for x in c.cards)] or ["single"]
    return max(kinds, key=KIND_ORDER.index)


def points_per_card(rules, kind: str | None) -> int:
    """The points a failed throw costs per counted card: ``throw.penalty_by_blocked`` of what blocks it (H05),
    else ``throw.penalty_points``."""
    table = rules.checked.values.get("throw.penalty_by_blocked")
    if table is None:
        return rules["throw.penalty_points"]
    if kind is None:
        raise ValueError(f"{rules.name} prices a failed throw by what blocks it (throw.penalty_by_blocked): "
                         "say which (single, pair, triple or tractor)")
    if kind not in table:
        raise ValueError(f"{rules.name}'s throw.penalty_by_blocked names no price for a {kind}")
    return table[kind]

