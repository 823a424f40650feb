"""A baseline heuristic player: plays as a person who counts cards would, without search.

* **Declaring:** declares (or overcalls, or reinforces) with the option that
  makes the most of its cards trump, when at least a third of its hand would
  be trump; never overcalls its partner.
* **Burying:** voids its shortest side suits that hold no pair and not the
  suit's top rank, points and all (扣分: a lone 10 there is lost anyway), then
  buries its lowest side singles; a banker with a third of its hand in
  trumps buries a 5 as readily as an 8, a weaker one keeps points out of the
  kitty. Keeps pairs and trumps.
* **Leading:** tractors first; then a safe throw (units that pass the
  ruleset's own throw check, ``throw.check``, against every unseen card, in a
  side suit no opponent is known to be void in); then a safe unit
  (a top pair, a top single); the banker side draws trumps with a long trump
  holding; otherwise a low card without points from its shortest side suit.
* **Following:** when the partner is winning safely, gives it points; when an
  opponent is winning, wins as cheaply as it can (ruffing only for points or
  as last player: trumps are kept for ruffing); otherwise plays its cheapest
  cards, points last.

Card order, suits and what wins come from the trick's context and from
:func:`reference_impl.trick.standing` (the winner :func:`~reference_impl.trick.judge_trick` names); the
player never sees another hand.
Ties are broken by the cards themselves, so its choices do not depend on the
order in which the interpreter lists the options.
"""
from __future__ import annotations

import random
from collections import Counter

from reference_impl.cards import RANKS
from reference_impl.legal import Follows, Leads, _placements
from reference_impl.seats import SeatView
from reference_impl.trick import points_of, standing
from reference_impl.trump import TRUMP


_TABLES: dict = {}   # trump context -> what _card_tables works out: the same for every player of a hand


def _card_tables(ctx) -> tuple:
    """(cost per card, the cards by strength, each card's place in the orders of :meth:`HeuristicPlayer._orders`)
    in a trump context, worked out once for all the players of its hands."""
    found = _TABLES.get(ctx)
    if found is None:
        points = ctx.rules.card_points
        cost = tuple((20 + (k - 100) if k >= 100 else k) + 3 * points[c] + (15 if ctx.suit[c] == TRUMP else 0)
                     for c, k in enumerate(ctx.key))

        def places(key) -> tuple[int, ...]:
            out = [0] * 54
            for i, c in enumerate(sorted(range(54), key=key)):
                out[c] = i
            return tuple(out)
        orders = (places(lambda c: (cost[c], c)), places(lambda c: (-points[c], cost[c], c)),
                  places(lambda c: (points[c], cost[c], c)), places(lambda c: (points[c], -cost[c], c)))
        if len(_TABLES) >= 64:   # contexts of many levels and trumps: keep a few
            _TABLES.clear()
        found = _TABLES[ctx] = (cost, tuple(sorted(range(54), key=lambda c: -ctx.key[c])), orders)
    return found


class HeuristicPlayer:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self._seen: tuple = (None, 0, None)   # (first trick, tricks counted, copies per card not seen in them)
        self._void_cache: tuple = (None, 0, {})    # (first trick, tricks counted, voids seen)

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _points(rules, c: int) -> int:
        return rules.card_points[c]

    @staticmethod
    def _rank(ctx, c: int) -> int:
        """How strong a card is, side cards 0–12, trumps above them all."""
        k = ctx.key[c]
        return 20 + (k - 100) if k >= 100 else k

    def _cost(self, ctx, c: int) -> int:
        """What playing ``c`` away gives up: its strength, and its points (which an opponent may take)."""
        return self._costs(ctx)[c]

    @staticmethod
    def _by_strength(ctx) -> tuple[int, ...]:
        """The cards 0–53 from the highest order key down."""
        return _card_tables(ctx)[1]

    @staticmethod
    def _orders(ctx) -> tuple[tuple[int, ...], ...]:
        """Per card 0–53, its place in the orders the player picks cards by: (cheap: cost, card), (rich: most
        points, cost, card), (dull: points, cost, card), (giving: points, dearest, card). Each order is total,
        so the card with the least (or most) place is the one min (or max) over the same key finds."""
        return _card_tables(ctx)[2]

    @staticmethod
    def _costs(ctx) -> tuple[int, ...]:
        """:meth:`_cost` of every card 0–53 in ``ctx`` (the player weighs every card of every option)."""
        return _card_tables(ctx)[0]

    def _unseen(self, view: SeatView) -> list[int]:
        """Copies of each card (0–53) that some other hand may still hold."""
        first = view.tricks[0] if view.tricks else None
        cached_first, counted, left = self._seen
        if cached_first is not first or counted > len(view.tricks) or left is None:
            counted, left = 0, [view.rules.decks] * 54
        for t in view.tricks[counted:]:
            for _, p in t.plays:
                for c in p:
                    left[c] -= 1
        self._seen = (first, len(view.tricks), left)
        out = left.copy()
        for _, p in view.current:
            for c in p:
                out[c] -= 1
        for c in view.hand:
            out[c] -= 1
        for c in view.buried or ():
            out[c] -= 1
        return out

    def _voids(self, view: SeatView) -> dict[int, set[int]]:
        """Seats known to hold no card of a suit: they did not follow it.

        Counted on from the tricks already counted in this hand, as :meth:`_unseen` is (the hand is told
        apart by its first trick); the caller reads the answer and does not keep it."""
        first = view.tricks[0] if view.tricks else None
        cached_first, counted, voids = self._void_cache
        if cached_first is not first or counted > len(view.tricks):
            counted, voids = 0, {}
        suit_of = view.ctx.suit
        for t in view.tricks[counted:]:
            led = suit_of[t.plays[0][1][0]]
            for seat, play in t.plays[1:]:
                for c in play:
                    if suit_of[c] != led:
                        voids.setdefault(seat, set()).add(led)
                        break
        self._void_cache = (first, len(view.tricks), voids)
        return voids

    # ------------------------------------------------------------------ declaring and burying

    def declare(self, view: SeatView, options: list) -> tuple | None:
        declarer = view.declarations[-1][0] if view.declarations else None
        if declarer == view.partner:
            return None
        jokers = sum(1 for c in view.hand if c >= 52)
        level_cards = sum(1 for c in view.hand if c < 52 and c % 13 == RANKS.index(view.level))
        best, best_n = None, 0
        suited: dict[int, int] = {}   # shown card -> the other cards of its suit held (options share cards)
        for option in options:
            # the trumps this declaration would make: its suit, the level cards and the jokers
            n = jokers + level_cards
            if option[0] < 52:
                shown = option[0]
                if shown not in suited:
                    suited[shown] = sum(1 for c in view.hand if c < 52 and c // 13 == shown // 13
                                        and c % 13 != shown % 13)
                n += suited[shown]
            if declarer == view.seat:
                n += len(option)  # reinforcing: the same trump, made safer
            if best is None or (n, len(option)) > (best_n, len(best)):
                best, best_n = option, n
        if best is not None and best_n * 3 >= len(view.hand):
            return best
        return None

    def bury(self, view: SeatView, n: int) -> list[int]:
        """Void the shortest side suits that hold no pair and not the suit's top rank, points and all
        (a lone 10 or K there falls to the first lead of the suit anyway, so it is buried: 扣分); fill
        the rest with the cheapest side singles, a point card counted dearer unless a third of the hand
        is trump. Trumps and pairs are kept."""
        ctx = view.ctx
        hand = Counter(view.hand)
        length = Counter(ctx.suit[c] for c in view.hand)
        top = {}
        for d in range(52):
            if ctx.suit[d] != TRUMP and top.get(ctx.suit[d], -1) < ctx.key[d]:
                top[ctx.suit[d]] = ctx.key[d]
        chosen: Counter = Counter()
        for suit in sorted((s for s in length if s != TRUMP), key=lambda s: (length[s], s)):
            cards = [c for c in view.hand if ctx.suit[c] == suit]
            if any(hand[c] >= 2 or ctx.key[c] == top[suit] for c in cards):
                continue
            if sum(chosen.values()) + len(cards) <= n:
                chosen.update(cards)

        # a banker holding many trumps expects to win the last trick, and buries a low point card (a 5)
        # as readily as a middling card; a weaker one keeps its points out of the kitty
        confident = length[TRUMP] * 3 >= len(view.hand)
        weight = 0.6 if confident else 3.0

        def cost(c: int) -> tuple:
            return (ctx.suit[c] == TRUMP, hand[c] >= 2,
                    self._rank(ctx, c) + weight * self._points(ctx.rules, c), length[ctx.suit[c]],
                    self.rng.random())
        rest = sorted((Counter(view.hand) - chosen).elements(), key=cost)
        return (sorted(chosen.elements()) + rest)[:n]

    # ------------------------------------------------------------------ leading

    def lead(self, view: SeatView, options: Leads) -> list[int]:
        ctx = view.ctx
        unseen = self._unseen(view)
        voids = self._voids(view)
        opponents = [(view.seat + 1) % 4, (view.seat + 3) % 4]
        ruffable = {s for o in opponents for s in voids.get(o, ())}
        key = ctx.key
        units = options.units
        tractors = [u for u in units if u[0] != u[-1]]  # units of more than one kind of card (units are sorted)
        if tractors:
            return list(max(tractors, key=lambda u: (len(u), ctx.suit[u[0]] != TRUMP, -key[u[0]], u)))

        # the highest unseen card of each suit held in at least 1, 2, 3 copies
        tops: dict[tuple[int, int], int] = {}
        most: dict[int, int] = {}   # suit -> the most copies of one card met so far: those sizes have their top
        suit_of = ctx.suit
        for d in self._by_strength(ctx):  # the strongest first: the first card met of a suit and size is its top
            m = unseen[d]
            if m > 0:
                sd = suit_of[d]
                had = most.get(sd, 0)
                if m > had:
                    most[sd] = m
                    for size in range(had + 1, m + 1):
                        tops[(sd, size)] = key[d]

        def safe(unit: tuple) -> bool:
            if unit.count(unit[0]) != len(unit):  # cards of more than one kind
                return True  # a tractor: rarely beaten
            return tops.get((ctx.suit[unit[0]], len(unit)), -1) <= key[unit[0]]

        check = ctx.rules["throw.check"]

        def safe_in_throw(unit: tuple) -> bool:
            """Whether ``unit`` passes the ruleset's own throw check (``throw.check``) against every unseen
            card: each component unbeaten by the same shape, or (``singles``, ``smallest_vs_largest``) every
            card at least the highest unseen card of its suit, whatever its shape."""
            if check == "components_unbeatable":
                return safe(unit)
            if check == "unchecked":   # H28: every throw stands as led, though it may be beaten in its trick
                return safe(unit)
            for c in unit:
                if tops.get((suit_of[c], 1), -1) > key[c]:
                    return False
            return True

        side = [u for u in units if ctx.suit[u[0]] != TRUMP and ctx.suit[u[0]] not in ruffable]
        if options.throws_allowed:
            by_suit: dict[int, list[tuple]] = {}
            for u in side:
                if safe_in_throw(u):
                    by_suit.setdefault(ctx.suit[u[0]], []).append(u)
            for suit, safe_units in sorted(by_suit.items(), key=lambda kv: -len(kv[1])):
                cards = Counter()
                for u in safe_units:
                    cards |= Counter(u)
                if len(safe_units) >= 2:
                    throws = list(options.throws(min(4, len(safe_units)), within=cards.elements()))
                    if throws:
                        return list(max(throws, key=lambda t: (len(t), t)))
        safe_side = [u for u in side if safe(u)]
        if safe_side:
            return list(max(safe_side, key=lambda u: (len(u), key[u[0]], u)))
        trumps = sum(1 for c in view.hand if ctx.suit[c] == TRUMP)
        if view.is_banker_side and trumps * 5 >= 2 * len(view.hand):
            trump_units = [u for u in units if ctx.suit[u[0]] == TRUMP]
            return list(min(trump_units, key=lambda u: (-len(u), key[u[0]], u)))
        length = Counter(ctx.suit[c] for c in view.hand)
        singles = [u for u in units if len(u) == 1]

        points = ctx.rules.card_points

        def dull(u: tuple) -> tuple:
            c = u[0]
            return (ctx.suit[c] == TRUMP, points[c] > 0, length[ctx.suit[c]], key[c], c)
        return list(min(singles, key=dull))

    # ------------------------------------------------------------------ following

    def follow(self, view: SeatView, options: Follows) -> list[int]:
        ctx = view.ctx
        plays = [p for _, p in view.current]
        last = len(plays) == 3
        trick_points = points_of(ctx.rules, [c for p in plays for c in p])
        if options.n == 1:
            return self._follow_single(view, options, plays, last, trick_points)
        now = standing(ctx, plays)
        winner = now.winner
        partner_winning = view.current[winner][0] == view.partner
        candidates = self._candidates(ctx, options)
        if partner_winning and (last or winner == 0 and len(plays) == 2):
            return list(max(candidates, key=lambda p: (points_of(ctx.rules, p) - self._spend(ctx, p) / 50, p)))
        if not partner_winning:
            winners = [p for p in candidates if now.taken_by(p)]
            if winners and (trick_points > 0 or last or not self._is_ruff(ctx, options, winners[0])):
                return list(min(winners, key=lambda p: (self._spend(ctx, p), p)))
        return list(min(candidates, key=lambda p: (points_of(ctx.rules, p), self._spend(ctx, p), p)))

    def _spend(self, ctx, play) -> int:
        return sum(map(self._costs(ctx).__getitem__, play))

    @staticmethod
    def _is_ruff(ctx, options: Follows, play) -> bool:
        return options.lead.suit != TRUMP and all(ctx.suit[c] == TRUMP for c in play)

    def _candidates(self, ctx, options: Follows) -> list[tuple]:
        """A few plays worth weighing: each placement of the required units with the cheapest free cards
        and with the richest, and, when void in a side suit, ruffs in the lead's structure."""
        out = set()
        cheap, rich_first = self._orders(ctx)[:2]
        placements = options.placements()[:24]
        for placed in placements:
            # what the placement leaves of the pool, and the extra cards: counted in a plain dict (the order
            # they come in is the sort's alone: cards of equal place are the same card)
            rest = dict(options.pool)
            for c in placed:
                rest[c] -= 1
            for c, k in options.extra.items():
                rest[c] = rest.get(c, 0) + k
            pool = sorted([c for c, k in rest.items() for _ in range(k)], key=cheap.__getitem__)
            base = options.forced + placed
            out.add(tuple(sorted(base + tuple(pool[:options.free]))))
            rich = sorted(pool, key=rich_first.__getitem__)
            out.add(tuple(sorted(base + tuple(rich[:options.free]))))
        lead = options.lead
        if not options.pool and not options.forced and lead.suit != TRUMP:
            trumps = Counter({c: m for c, m in options.hand.items() if ctx.suit[c] == TRUMP})
            units = tuple(sorted(lead.units, key=lambda u: (-u[1], -u[0])))
            ruffs = []
            for placed in _placements(ctx, TRUMP, units, trumps):
                ruffs.append(placed)
                if len(ruffs) >= 12:
                    break
            if ruffs:
                out.add(tuple(sorted(min(ruffs, key=lambda p: (self._spend(ctx, p), sorted(p))))))
        return sorted(out)

    def _follow_single(self, view: SeatView, options: Follows, plays, last: bool, trick_points: int) -> list[int]:
        ctx = view.ctx
        key, suit = ctx.key, ctx.suit
        led = suit[plays[0][0]]
        best, best_rank, best_ruff = 0, key[plays[0][0]], False
        for i, p in enumerate(plays[1:], start=1):
            c = p[0]
            ruff = suit[c] == TRUMP and led != TRUMP
            if suit[c] != led and not ruff:
                continue
            if (ruff, key[c]) > (best_ruff, best_rank):
                best, best_rank, best_ruff = i, key[c], ruff
        mine = list(options.forced) if options.forced else sorted(set(options.pool) | set(options.extra))
        cheap, _, dull, giving = self._orders(ctx)
        partner_winning = view.current[best][0] == view.partner
        if partner_winning:
            unseen = self._unseen(view)
            top = best_ruff or not any(m > 0 and suit[d] == led and key[d] > best_rank for d, m in enumerate(unseen))
            if last or top:
                return [max(mine, key=giving.__getitem__)]
            return [min(mine, key=dull.__getitem__)]

        # the cards that beat the best play so far: of the led suit and higher, or a ruff of a side suit
        winners = []
        for c in mine:
            ruff = suit[c] == TRUMP and led != TRUMP
            if (suit[c] == led or ruff) and (ruff, key[c]) > (best_ruff, best_rank):
                winners.append(c)
        if winners:
            cheapest = min(winners, key=cheap.__getitem__)
            ruff = suit[cheapest] == TRUMP and led != TRUMP
            if trick_points > 0 or last or not ruff:
                return [cheapest]
        return [min(mine, key=dull.__getitem__)]
