"""Positions for ``deal``: four hands and a kitty as dealt, before any declaration.

The referee's question is whether the deal is a proper one of the ruleset (its
pack, less the cards ``equipment.removed`` takes out, V05; its hand and kitty
sizes) and whether it must be dealt again (``deal.redeal_if``, V82). The
scenarios:

* ``proper``: the ruleset's pack shuffled and dealt;
* ``poor``: a proper deal where one hand holds no point card (``no_points``) or
  no card trump in every suit — no joker, level card or fixed trump
  (``no_trumps``): what ``deal.redeal_if`` asks about, which a shuffle almost
  never deals;
* ``improper``: a deal that is not the ruleset's — a kitty card short
  (``kitty_short``) or one too many (``kitty_long``), a kitty card in a hand
  (``hand_long``), a card missing and another in its place (``missing``), a
  removed card dealt (``removed``, where the ruleset removes some), the pack
  less two cards and the kitty two short (``smaller_pack``: V05's deal seen by a
  ruleset that removes none), the removed cards put back in the kitty
  (``whole_pack``, where the ruleset removes some);
* ``later``: a proper deal of a later hand, whose banker (a seat) is known
  before the declarations: who takes up and buries the kitty (``buries``).
"""
from __future__ import annotations

from reference_impl.cards import card, full_pack
from reference_impl.hand import dealt_pack, redeal_card

from conformance.generation.positions.draw import Draw
from conformance.generation.positions.scenario import Scenario
from conformance.generation.positions.suits import fmt, levels

IMPROPER = ("kitty_short", "kitty_long", "hand_long", "missing", "removed", "smaller_pack", "whole_pack")


def deal_scenarios(rules) -> tuple[Scenario, ...]:
    removes = bool(rules.get("equipment.removed"))
    kinds = [k for k in IMPROPER if removes or k not in ("removed", "whole_pack")]
    if rules.kitty_size < 2:
        kinds = [k for k in kinds if k not in ("kitty_short", "hand_long", "smaller_pack")]
    return ((Scenario("deal", "proper"),)
            + tuple(Scenario("deal", "poor", (c,)) for c in ("no_points", "no_trumps"))
            + tuple(Scenario("deal", "improper", (k,)) for k in kinds))


def later_scenarios(rules) -> tuple[Scenario, ...]:
    """A proper deal of a later hand, its banker given: who buries the kitty (``buries``)."""
    return (Scenario("deal", "later"),)


def weak_scenarios(rules) -> tuple[Scenario, ...]:
    """Proper deals with a hand that is weak but not empty (H24, ``deal.redeal_at_most``): at most 15 points with
    some point card (``no_points``), or one to three cards trump in every suit (``no_trumps``) - hands V82's
    redeal (none at all) deals as they are. Aimed at by the alternative alone, not in :func:`deal_scenarios`."""
    return tuple(Scenario("deal", "weak", (c,)) for c in ("no_points", "no_trumps"))


def poor_scenarios(rules) -> tuple[Scenario, ...]:
    """The proper deals with a hand ``deal.redeal_if`` asks about (V82)."""
    return tuple(sc for sc in deal_scenarios(rules) if sc.kind == "poor")


def build_deal(d: Draw, rules, sc: Scenario) -> dict:
    level = d.pick(levels(rules))
    n, k = rules.hand_size, rules.kitty_size
    pack = d.permutation(dealt_pack(rules))
    what = sc.args[0] if sc.args else None
    if sc.kind == "improper" and what == "smaller_pack":   # two cards out, the kitty two short
        clubs3 = card("3", "clubs")
        if pack.count(clubs3) >= 2 and d.bool():
            out = [clubs3, clubs3]   # V05's two 3s of clubs
        else:
            out = [pack[i] for i in d.sample(range(len(pack)), 2)]
        for c in out:
            pack.remove(c)
    hands = [pack[i * n:(i + 1) * n] for i in range(4)]
    kitty = pack[4 * n:]
    if sc.kind in ("poor", "weak"):
        bad = redeal_card(rules, level, what)   # the cards a hand lacking them may not hold
        seat = d.int(0, 3)
        mine = [i for i, c in enumerate(hands[seat]) if bad(c)]
        spare = [(s, i) for s in range(4) if s != seat for i, c in enumerate(hands[s]) if not bad(c)]
        spare += [(4, i) for i, c in enumerate(kitty) if not bad(c)]
        d.require(len(spare) >= len(mine))
        places = hands + [kitty]
        for i, j in zip(mine, d.sample(spare, len(mine))):
            s, at = j
            hands[seat][i], places[s][at] = places[s][at], hands[seat][i]
        if sc.kind == "weak":   # H24: some of them back, within the limits (15 points, 3 trumps)
            _weaken(d, rules, hands, seat, bad, what)
    elif sc.kind == "improper":
        seat = d.int(0, 3)
        if what == "kitty_short":
            kitty.pop(d.int(0, len(kitty) - 1))
        elif what == "kitty_long":
            kitty.append(d.pick(sorted(set(full_pack(1)))))
        elif what == "hand_long":
            hands[seat].append(kitty.pop(d.int(0, len(kitty) - 1)))
        elif what == "missing":   # a card missing, a second copy of another in its place
            i = d.int(0, n - 1)
            others = sorted(set(pack) - {hands[seat][i]})
            hands[seat][i] = d.pick(others)
        elif what == "removed":
            removed = [card(rank, suit) for rank, suit in rules["equipment.removed"]]
            hands[seat][d.int(0, n - 1)] = d.pick(removed)
        elif what == "whole_pack":
            kitty += [card(rank, suit) for rank, suit in rules["equipment.removed"]]
    out = {"level": level, "hands": [fmt(h) for h in hands], "kitty": fmt(kitty)}
    if sc.kind == "later":
        out["banker"] = d.int(0, 3)
    return out


def _weaken(d: Draw, rules, hands: list, seat: int, bad, what: str) -> None:
    """Give the poor hand at ``seat`` back some of the cards it lacked, exchanged for others of another hand: one
    to three cards trump in every suit (``no_trumps``), or point cards worth 5 to 15 (``no_points``)."""
    worth = (lambda c: rules.card_points[c]) if what == "no_points" else (lambda c: 1)
    limit = 15 if what == "no_points" else 3
    theirs = [(s, i) for s in range(4) if s != seat for i, c in enumerate(hands[s]) if bad(c)]
    d.require(bool(theirs))
    budget, given = d.int(1, limit) if what == "no_trumps" else limit, 0
    for s, i in d.sample(theirs, min(len(theirs), 6)):
        c = hands[s][i]
        if given + worth(c) > budget:
            continue
        mine = [k for k, x in enumerate(hands[seat]) if not bad(x)]
        k = d.pick(mine)
        hands[seat][k], hands[s][i] = c, hands[seat][k]
        given += worth(c)
    d.require(given > 0)
