"""Positions for ``follow``: a lead, the follower's whole hand and the play.

Scenarios (:class:`~conformance.generation.positions.scenario.Scenario` ``args``):

* ``("rung", unit, k, mode)`` — a lead of ``unit`` and a holding whose first
  suppliable rung of the lead's follow ladder is ``k`` (the ruleset's own
  ladder, or the one ``follow.unlisted`` derives). ``mode``: ``meet`` plays
  what rung k requires (legal); ``later`` plays a later rung the holding can
  also supply (the next one first), not rung k (illegal — legal where the
  ladder puts that rung before rung k, or drops rung k); ``miss`` swaps one card; ``off_suit`` plays a card of another
  suit; ``random`` plays random cards of the suit; ``wrong`` has a wrong
  count or a card not held;
* ``("rungs", unit, i, j)`` — a holding that can supply rungs ``i`` and
  ``j`` (i before j, i first), and a play that meets rung j and not rung i:
  illegal, but legal wherever rung j comes before rung i — it tells any
  reorder, drop or merge of the two rungs from the ladder;
* ``("throw", plan)`` — a throw of ``plan``'s units, a rung drawn per
  component;
* ``("short", plan)`` — a follower with as many cards of the led suit as the
  lead or fewer (void included);
* ``("random", plan)`` — a holding of a random shape of as many cards;
* ``("protect", plan)`` — a pair led, a follower whose only pairs are those of a
  tractor he holds, and a play of one of its cards and a single (legal only
  where ``follow.protect_tractors`` spares the tractor); aimed at that setting
  alone (:data:`PROTECT`), not among :func:`scenarios`.

Holdings are built from rung units on the led suit (tractors on windows of
the context's runs, pairs and triples apart), checked against the obligation
the interpreter computes (:func:`reference_impl.following.obligation`).
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from reference_impl.combos import classify
from reference_impl.following import derived_ladder, obligation
from reference_impl.rules import Trace
from reference_impl.trump import Context
from tractor_dsl.patterns import can_form, units_as_holding

from conformance.generation.positions.draw import Draw
from conformance.generation.positions.scenario import Scenario
from conformance.generation.positions.suits import (Unit, draw_context, draw_suit, fill, fits, fmt, listed_units, miss, place, shapes_of,
                    singles, suits, throw_plans, unit_plans, unlisted_units, view)

MODES = ("meet", "later", "miss", "off_suit", "random", "wrong")


def ladder(ctx: Context, unit: Unit) -> list[tuple[Unit, ...]]:
    """The follow ladder of a lead component: the ruleset's own, or the derived one."""
    rules = ctx.rules
    if unit in rules.ladders:
        return [tuple(e) for e in rules.ladders[unit]]
    return list(derived_ladder(unit, rules["follow.unlisted"] == "component_ladders"))


def ladder_units(rules) -> tuple[Unit, ...]:
    """Every lead unit whose ladder a position can decide: listed ones, then unlisted ones."""
    return listed_units(rules) + tuple(u for u in unlisted_units(rules) if u != (1, 1))


def first_rung(ctx: Context, unit: Unit, rungs: Sequence, units: Sequence[Unit]) -> int | None:
    """The first rung of ``rungs`` that ``units``, held apart from each other, can supply."""
    runs, counts = units_as_holding(units)
    if unit[0] == 2 and not ctx.rules["follow.break_triple_for_pair"]:
        counts = {key: (1 if n == 3 else n) for key, n in counts.items()}
    for i, entry in enumerate(rungs):
        if can_form(list(entry), runs, counts):
            return i
    return None


def scenarios(rules) -> tuple[Scenario, ...]:
    """Every rung of every ladder in every mode, rung pairs, throws, short and random holdings."""
    from reference_impl.trump import context
    ctx = context(rules, _any_level(rules), "S")
    out: list[Scenario] = []
    for unit in ladder_units(rules):
        rungs = ladder(ctx, unit)
        for k in range(len(rungs)):
            for mode in MODES:
                out.append(Scenario("follow", "rung", (unit, k, mode)))
        for i in range(len(rungs)):
            for j in range(i + 1, len(rungs)):
                out.append(Scenario("follow", "rungs", (unit, i, j)))
    out += [Scenario("follow", "throw", (plan,)) for plan in throw_plans(rules)]
    out += [Scenario("follow", "short", (plan,)) for plan in unit_plans(rules)[:3]]
    out += [Scenario("follow", "random", (plan,)) for plan in unit_plans(rules)[:3]]
    return tuple(out)


# Aimed only at the alternative it tells (follow.protect_tractors), not drawn among the scenarios above, so
# that the positions drawn for every other alternative stay as they were.
PROTECT = Scenario("follow", "protect", (((2, 1),),))


def _any_level(rules) -> str:
    from conformance.generation.positions.suits import levels
    return levels(rules)[0]


# Aimed only at the alternative it tells (follow.pairs_before_triples, V29): a tractor of pairs led, a follower
# holding a triple and two pairs of the suit, playing a pair broken from the triple and one held pair.
STAND_IN = Scenario("follow", "stand_in", (((2, 2),),))


def _stand_in(d: Draw, rules, level, trump, ctx) -> dict:
    d.require(rules.decks >= 3)
    suit = draw_suit(d, ctx)
    v = view(ctx, suit)
    d.require(2 in v.windows)
    lead_positions = list(d.pick(v.windows[2]))
    lead = [d.pick(pos) for pos in lead_positions]
    rest = [c for c in v.cards if c not in lead]
    d.require(len(rest) >= 3)
    triple, pair_a, pair_b = d.sample(rest, 3)
    other_pool = [c for s in suits(ctx) if s != suit for c in view(ctx, s).cards]
    d.require(bool(other_pool))
    hand = [triple] * 3 + [pair_a] * 2 + [pair_b] * 2 + [d.pick(other_pool)]
    play = [triple] * 2 + [d.pick((pair_a, pair_b))] * 2
    return {"level": level, "trump": trump, "lead": fmt([c for c in lead for _ in range(2)]), "hand": fmt(hand),
            "play": fmt(play)}


def build(d: Draw, rules, sc: Scenario) -> dict:
    level, trump, ctx = draw_context(d, rules)
    if sc.kind == "stand_in":
        return _stand_in(d, rules, level, trump, ctx)
    decks = rules.decks
    kind = sc.kind
    plan = (sc.args[0],) if kind in ("rung", "rungs") else sc.args[0]
    suit = draw_suit(d, ctx)
    v = view(ctx, suit)
    d.require(fits(v, plan))
    placed = place(d, v, plan, Counter({c: decks for c in v.cards}))
    d.require(placed is not None)
    lead_cards = list(placed.elements())
    lead = classify(ctx, lead_cards)
    d.require(lead.suit == suit and (kind not in ("rung", "rungs") or len(lead.components) == 1))
    n = lead.n
    avail = Counter({c: decks - placed[c] for c in v.cards})
    other_pool = Counter({c: decks for s in suits(ctx) if s != suit for c in view(ctx, s).cards})

    if kind == "short":  # as many led-suit cards as the lead or fewer (void included)
        m = d.int(0, n)
        in_suit = Counter(singles(d, avail, m) or [])
        off = Counter(singles(d, other_pool, n - m + d.int(0, 3)) or [])
        play = list(in_suit.elements()) + (singles(d, off, n - m) or [])
        if d.bool() and m and off - Counter(play[m:]):  # one led-suit card kept back
            instead = singles(d, off - Counter(play[m:]), 1)[0]   # drawn before the place, as the suite's
            kept = d.int(0, m - 1)                                 # vectors were
            d.require(kept < len(play))   # a suit too short for m cards (level cards in their suits, V06)
            play[kept] = instead
        return _input(level, trump, lead_cards, in_suit + off, play)

    rungs: list = []
    unit = lead.components[0].unit
    if kind == "rung":
        _, k, mode = sc.args
        rungs = ladder(ctx, unit)
        d.require(k < len(rungs))
        units = list(rungs[k])
        # held apart from the rung: one more unit of any rung, or the whole next rung, where k stays first
        nxt = [tuple(rungs[k + 1])] if k + 1 < len(rungs) else []
        extras = [e for e in [()] + [(u,) for u in sorted({u for e in rungs for u in e}, reverse=True)] + nxt
                  if first_rung(ctx, unit, rungs, units + list(e)) == k]
        units += list(d.pick(extras))
    elif kind == "rungs":
        _, i, j = sc.args
        rungs = ladder(ctx, unit)
        d.require(j < len(rungs))
        units = list(rungs[i]) + list(rungs[j])
        d.require(first_rung(ctx, unit, rungs, units) == i)
        mode = "rungs"
    elif kind == "throw":
        units = []
        for comp in lead.components:
            comp_rungs = ladder(ctx, comp.unit)
            units += list(comp_rungs[d.int(0, len(comp_rungs) - 1)])
        mode = d.pick(MODES)
    elif kind == "protect":  # a pair led; the only pairs held are a tractor's (follow.protect_tractors)
        units = [(2, 2)]
        mode = "protect"
    else:
        units = list(d.pick(shapes_of(rules, n)))
        mode = d.pick(("meet", "miss", "random", "off_suit"))
    if decks >= 3 and any(c.size == 2 for c in lead.components):  # pairs held as triples
        units = [(3, 1) if u == (2, 1) and d.chance(1, 3) else u for u in units]
    holding = place(d, v, units, avail, spread=kind in ("rung", "rungs") or d.chance(2, 3))
    d.require(holding is not None)
    spare = Counter({c: a for c, a in (avail - holding).items() if c not in holding})
    filler = singles(d, spare, d.int(1, 3))
    d.require(filler is not None)
    holding.update(filler)
    d.require(sum(holding.values()) > n)
    required, _ = obligation(ctx, lead, holding, Trace())
    if kind == "rung":
        d.require(sorted(required) == sorted(rungs[sc.args[1]]))
    elif kind == "rungs":
        d.require(sorted(required) == sorted(rungs[sc.args[1]]))
    off = Counter(singles(d, other_pool, d.int(1 if mode == "off_suit" else 0, 3)) or [])
    hand = holding + off
    play = None
    if mode == "protect":  # one card of the tractor and a single: a broken pair avoided
        play = [d.pick(sorted(c for c in holding if c not in filler)), d.pick(sorted(filler))]
    elif mode == "rungs":
        play = fill(d, v, holding, rungs[sc.args[2]], n, avoid=rungs[sc.args[1]])
        d.require(play is not None)
    elif mode == "later" and kind == "rung":  # a later rung the holding can supply (the next first), not this one
        k = sc.args[1]
        later = [e for e in rungs[k + 1:] if can_form(list(e), v.runs, dict(holding))]
        d.require(later)
        play = fill(d, v, holding, d.pick(later), n, avoid=rungs[k])
    elif mode == "random":
        play = singles(d, holding, n)
    elif mode == "wrong":
        if d.bool():
            play = singles(d, hand, n + d.pick((-1, 1)))
        else:
            play = fill(d, v, holding, required, n)
            missing = [c for c in range(54) if hand[c] == 0]
            if play:
                play[d.int(0, n - 1)] = d.pick(missing)
    if play is None:
        play = fill(d, v, holding, required, n)
        d.require(play is not None)
        if mode == "miss":
            play = miss(d, holding, play)
        elif mode == "off_suit":
            d.require(off)
            play[d.int(0, n - 1)] = d.pick(sorted(off))
    d.require(len(play) > 0)
    return _input(level, trump, lead_cards, hand, play)


def _input(level, trump, lead, hand: Counter, play) -> dict:
    return {"level": level, "trump": trump, "lead": fmt(lead), "hand": fmt(hand.elements()), "play": fmt(play)}
