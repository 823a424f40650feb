"""Players: what they see (never another hand), that they play legally, and that the heuristic beats random."""
import dataclasses
import random
from collections import Counter

import pytest

from tractor_play.impact.stats import wilson
from tractor_play.players import HeuristicPlayer, RandomPlayer, make_players
from reference_impl.hand import play_hand, team_of
from reference_impl.legal import Follows, Leads
from reference_impl.rules import Rules, rules_for
from reference_impl.seats import SeatView
from reference_impl.trump import Context

PUBLIC_FIELDS = {"seat", "rules", "level", "hand", "first_hand", "banker", "levels", "declarations", "ctx",
                 "tricks", "current", "kitty", "buried"}


class Spy:
    """Wraps a player; checks every view and every set of options it is given against the true deal."""

    def __init__(self, inner, seat: int, table: dict):
        self.inner, self.seat, self.table, self.calls = inner, seat, table, 0

    def _check(self, view: SeatView, options=None) -> None:
        self.calls += 1
        assert isinstance(view, SeatView) and view.seat == self.seat
        assert {f.name for f in dataclasses.fields(view)} == PUBLIC_FIELDS
        hands = self.table["hands"]
        assert Counter(view.hand) == Counter(hands[self.seat]), "the view's hand is the seat's own"
        if view.seat != view.banker:
            assert view.kitty is None and view.buried is None, "only the banker sees the kitty"
        on_table = {s: Counter(p) for s, p in view.current}   # played this trick, still in the driver's hands
        others = [Counter(hands[s]) - on_table.get(s, Counter()) for s in range(4) if s != self.seat]
        own = Counter(hands[self.seat])
        others = [h for h in others if sum(h.values()) >= 2 and h != own]  # with 3 decks two hands can coincide
        for cards in _card_collections((view, options)):
            assert Counter(cards) not in others, f"seat {self.seat} was shown another seat's hand"
        if options is not None:
            assert Counter(options.hand) == Counter(hands[self.seat])

    def declare(self, view, options):
        self._check(view)
        return self.inner.declare(view, options)

    def bury(self, view, n):
        self._check(view)
        assert view.kitty is not None, "the banker sees the kitty it picked up"
        return self.inner.bury(view, n)

    def lead(self, view, options):
        self._check(view, options)
        assert isinstance(options, Leads)
        return self.inner.lead(view, options)

    def follow(self, view, options):
        self._check(view, options)
        assert isinstance(options, Follows)
        return self.inner.follow(view, options)


def _card_collections(obj, seen=None):
    """Every list, tuple or Counter of cards reachable from ``obj`` (rules and trump tables aside)."""
    seen = set() if seen is None else seen
    if id(obj) in seen or isinstance(obj, (Rules, Context, str, int, float, bool, type(None))):
        return
    seen.add(id(obj))
    if isinstance(obj, dict):
        if obj and all(isinstance(k, int) and isinstance(v, int) for k, v in obj.items()):
            yield Counter(obj).elements()
        for v in obj.values():
            yield from _card_collections(v, seen)
    elif isinstance(obj, (list, tuple)):
        if obj and all(isinstance(c, int) and 0 <= c < 54 for c in obj):
            yield obj
        for v in obj:
            yield from _card_collections(v, seen)
    elif dataclasses.is_dataclass(obj) or hasattr(obj, "__dict__"):
        for v in vars(obj).values():
            yield from _card_collections(v, seen)


@pytest.mark.parametrize("name", ["r000", "r003"])
@pytest.mark.parametrize("kind", ["heuristic", "random"])
def test_a_player_sees_only_its_own_hand_and_the_table(name, kind, monkeypatch):
    import reference_impl.hand as hand_mod
    rules = rules_for(name)
    table: dict = {}
    real_deal = hand_mod.deal_cards

    def deal(rules_, rng, first):  # keep a reference to the live hands, which the driver updates as cards go
        hands, kitty = real_deal(rules_, rng, first)
        table["hands"] = hands
        return hands, kitty
    monkeypatch.setattr(hand_mod, "deal_cards", deal)
    for seed in range(3):
        spies = [Spy(p, s, table) for s, p in enumerate(make_players(kind, seed))]
        start = rules["level.start"]
        play_hand(rules, random.Random(seed), 2, {0: start, 1: start}, banker=seed % 4, players=spies)
        assert all(s.calls > 0 for s in spies)


def test_players_are_deterministic_from_their_seed():
    rules = rules_for("r003")

    def transcript(seed):
        h = play_hand(rules, random.Random(5), 2, {0: "2", 1: "2"}, banker=1, players=make_players("heuristic", seed))
        return [(t.leader, t.plays) for t in h.tricks]
    assert transcript(7) == transcript(7)
    assert make_players(["heuristic", "random", "heuristic", "random"], 1)[1].__class__ is RandomPlayer
    with pytest.raises(ValueError):
        make_players("clever", 1)


@pytest.mark.parametrize("name", ["r000", "r003"])
def test_the_heuristic_player_beats_the_random_player(name):
    """Over many hands, a heuristic team against a random team (seats swapped half the time) holds or takes
    the bank far more often than not: the lower end of the 95 % Wilson interval is above 60 %."""
    rules = rules_for(name)
    start = rules["level.start"]
    wins = hands = 0
    for i in range(40):
        heuristic_team = i % 2
        players = [HeuristicPlayer(f"{i}:{s}") if s % 2 == heuristic_team else RandomPlayer(f"{i}:{s}")
                   for s in range(4)]
        h = play_hand(rules, random.Random(i // 2), 2, {0: start, 1: start}, banker=(i // 2) % 4, players=players)
        next_bank_team = team_of(h.banker) if h.next_banker_side == "banker" else 1 - team_of(h.banker)
        wins += next_bank_team == heuristic_team
        hands += 1
    assert wilson(wins, hands).low > 0.6, f"heuristic team won {wins} of {hands} hands"


def test_the_heuristic_player_gives_points_to_a_winning_partner():
    from reference_impl.cards import parse_cards
    from reference_impl.combos import classify
    from reference_impl.legal import follow_options
    from reference_impl.trump import context
    rules = rules_for("r000")
    ctx = context(rules, "2", "S")
    lead = parse_cards("AH")                      # the partner (seat 2) led the top heart: nobody can beat it
    hand = parse_cards("KH 3H 4C")                # seat 0 follows in hearts: the king's 10 points go to the partner
    view = SeatView(0, rules, "2", tuple(hand), False, 2, ("2", "2"), ctx=ctx,
                    current=((2, tuple(lead)), (3, tuple(parse_cards("5H")))))
    options = follow_options(ctx, classify(ctx, lead), hand)
    assert HeuristicPlayer(1).follow(view, options) == parse_cards("KH")


def _banker_view(hand: str, level: str = "5", trump: str = "S") -> SeatView:
    from reference_impl.cards import parse_cards
    from reference_impl.trump import context
    rules = rules_for("r000")
    cards = parse_cards(hand)
    return SeatView(seat=0, rules=rules, level=level, hand=cards, first_hand=False, banker=0, levels=(level, level),
                    ctx=context(rules, level, trump), kitty=cards[-8:])


def test_the_banker_voids_a_short_suit_points_and_all():
    """A two-card heart holding (10H 4H: no pair, not the top rank) is buried whole, its 10 points too (扣分);
    the diamond suit, which holds its ace, is kept."""
    from reference_impl.cards import format_cards, parse_cards
    view = _banker_view("10H 4H AD 3D 6D 7C 7C 8C 9C JC 2S 3S 4S 6S 7S 8S 9S 10S JS QS KS AS J+ J- 5S 5H "
                        "3C 4C 2C 6C 8D")
    buried = HeuristicPlayer(0).bury(view, 8)
    assert len(buried) == 8 and not (Counter(buried) - Counter(view.hand))
    assert Counter(parse_cards("10H 4H")) <= Counter(buried), format_cards(buried)
    assert parse_cards("AD")[0] not in buried and parse_cards("7C")[0] not in buried   # a top card, a pair
    assert not any(view.ctx.suit[c] == view.ctx.suit[parse_cards("2S")[0]] for c in buried)   # no trump


def test_a_weak_banker_keeps_points_out_of_the_kitty_a_strong_one_buries_a_five():
    """The same side cards (no void possible: every side suit holds a pair), and 8 to bury from nine side
    singles: a banker with few trumps keeps its 5 (its only point card) out of the kitty; one with a
    third of its hand in trumps buries the 5 as readily as its 9s."""
    from reference_impl.cards import parse_cards
    five = parse_cards("5D")[0]
    side = "5D 9D JD 3D 3D 9C JC QC 3C 3C 9H JH QH 3H 3H "
    weak = _banker_view(side + "2S 3S J+", level="7")
    strong = _banker_view(side + "2S 3S 4S 6S 8S 9S 10S JS QS KS J+ J-", level="7")
    assert five not in HeuristicPlayer(0).bury(weak, 8)
    assert five in HeuristicPlayer(0).bury(strong, 8)
    assert not any(c in parse_cards("3D 3C 3H") for c in HeuristicPlayer(0).bury(weak, 8))   # pairs kept


@pytest.mark.parametrize("check", ["components_unbeatable", "singles", "smallest_vs_largest"])
@pytest.mark.parametrize("base", ["r000", "r003"])
def test_the_heuristic_player_judges_a_throw_by_the_rulesets_own_throw_check(base, check):
    """It throws only what passes ``throw.check`` against every card it has not seen, so none of its throws
    fails, whichever reading the ruleset takes; and it still throws (the check is not vacuous)."""
    from conformance.generation.features import changed
    from reference_impl.combos import classify
    from reference_impl.trump import context
    rules = changed(rules_for(base), {"throw.check": check})
    failed = thrown = 0
    for seed in range(12):
        h = play_hand(rules, random.Random(seed), 2, {0: "2", 1: "2"}, banker=seed % 4,
                      players=make_players("heuristic", seed))
        ctx = context(rules, h.level, h.trump)
        failed += sum(1 for t in h.tricks if t.attempted)
        thrown += sum(1 for t in h.tricks if classify(ctx, t.plays[0][1]).kind == "throw")
    assert failed == 0 and thrown > 0, (failed, thrown)
