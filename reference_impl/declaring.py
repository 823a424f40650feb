"""Declaring trump (亮主 / 叫主), overcalling (反主), reinforcing (加固), and hands nobody declares.

A declaration is one act of one seat (0–3; seats of equal parity are
partners) showing cards:

* ``n`` identical level cards of one suit (``n >= 1``): that suit is trump;
* if ``declare.joker_pairs``, two or more identical jokers (a pair of small or
  of big jokers): the hand becomes ``declare.joker_trump``: ``no_trump``; or
  ``keep_suit`` (H34), where the pair wins the contest and the suit of the
  declaration it overcalls stays trump (a joker pair declared first has no
  suit to keep: no trump, an interpretation).

In the first hand, if ``declare.first_hand_card`` names a card, every
declaration must show that card too. Following spec 001 (clause
declare.first_hand: the declarer shows his level cards *and* the heart 2 as a
token), the token is one extra card among those shown and is set aside before
the rest is judged; when every card shown is that card (possible only if it
is itself a level card) it counts as one of the declared cards. A
reinforcement need not show the token again: it is already on the table.

The cards of a reinforcement are the copies it *adds*; its strength is the
declarer's total. An overcall shows its whole declaration.

Strength is ``(copies, rank)`` with rank 0 for level cards, 1 for small
jokers, 2 for big jokers. ``declare.overcall_by``: ``more_copies`` compares
copies only (strictly more wins); ``copies_then_jokers`` compares copies, then
rank. ``declare.after_overcall = jokers_only``: once a declaration has been
overcalled (reinforcements are not overcalls), only jokers may overcall.
``declare.self_overcall`` false: the standing declarer may not overcall his
own declaration with another card; ``declare.reinforce`` says whether he may
add copies of the same card. A declaration made after the kitty is taken up is
refused (``kitty_taken``) when ``declare.closes = kitty_taken`` (000:2.6,
003:6.5); under ``first_card_played`` declaring stays open until play starts.

The banker: in the first hand the first declaration makes its declarer
banker, and an overcall moves the bank to the overcaller exactly when
``declare.first_hand_banker = last_declarer`` — which must agree with
``declare.overcall_moves_bank`` being ``first_hand`` or ``every_hand`` (the
two settings say the same thing of the first hand; a ruleset where they
disagree is refused). In later hands the banker is given and declarations
change only trump, except under ``declare.overcall_moves_bank = every_hand``
(H31, the bank bid for in every hand): there a later hand's declarations move
the bank as the first hand's do — the first declaration makes its declarer
banker, each overcall moves it to the overcaller — and only a hand nobody
declares keeps the given banker.

Each refused declaration costs ``declare.wrong_points`` (003:6.3); the points
are reported in ``extra["penalty_points"]`` and scored by
:func:`penalties.judge_fault` with ``fault = "wrong_declaration"``. Under
``declare.wrong_bars_partner`` a wrong declaration also bars the offender's
partner from declaring the suit it showed (003:6.3 "他的同伴不能亮这门花色"):
the earlier wrong declarations of the hand are given as ``wrong``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from tractor_dsl.types import NO_TRUMP_LEVEL
from tractor_dsl.vocabulary import DECLARATION_REASONS, english

from .cards import BIG_JOKER, SMALL_JOKER, card, is_joker, rank_index, rank_of, suit_of, text
from .rules import Judgment, Rules, Trace

NO_TRUMP = "no_trump"

REASONS = english(DECLARATION_REASONS)  # code -> meaning; the Chinese in tractor_dsl.vocabulary

_JOKER_RANK = {SMALL_JOKER: 1, BIG_JOKER: 2}


@dataclass(frozen=True)
class DeclarationState:
    """The standing declaration after the judged sequence.

    ``trump`` is a suit index (0 ♠, 1 ♥, 2 ♦, 3 ♣), ``"no_trump"``, or None
    while nobody has declared. ``strength`` is ``(copies, rank)`` (see the
    module docstring). When ``legal`` is false the other fields describe the
    state before the refused declaration.
    """

    legal: bool
    trump: int | str | None
    declarer: int | None
    banker: int | None
    strength: tuple[int, int] | None
    card: int | None = None
    overcalls: int = 0

    def __init__(self, legal: bool, trump, declarer: int | None, banker: int | None,
                 strength: tuple[int, int] | None, card: int | None = None, overcalls: int = 0):
        # the generated __init__ without object.__setattr__ per field: players judge every option they hold
        d = self.__dict__
        d["legal"], d["trump"], d["declarer"], d["banker"] = legal, trump, declarer, banker
        d["strength"], d["card"], d["overcalls"] = strength, card, overcalls

    def __bool__(self) -> bool:
        return self.legal


@dataclass(frozen=True)
class Undeclared:
    """What happens when nobody declares.

    ``trump``: a suit index or ``"no_trump"`` when a kitty card names it, None
    on a redeal. ``banker_side``: ``"banker"`` (the banker keeps the bank),
    ``"attackers"`` (they take it), or None in the first hand, where there is
    no banker yet: ``first_hand_banker`` then names the player who banks
    (``bank.first_hand_undeclared``, e.g. ``"first_drawer"``) when a kitty card
    names trump. ``level_of``: whose level the hand is played at
    (``"banker"``/``"attackers"``; None on a first-hand redeal, where both
    sides stand at the start level); ``level`` that level.
    """

    trump: int | str | None
    redeal: bool
    banker_side: str | None
    level_of: str | None
    level: str | None
    kitty_index: int | None = None  # 0-based index of the kitty card that named trump
    first_hand_banker: str | None = None


def _strength_beats(rules: Rules, new: tuple[int, int], old: tuple[int, int]) -> bool:
    if rules["declare.overcall_by"] == "more_copies":
        return new[0] > old[0]
    return new > old  # copies_then_jokers


SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


def _precedes(rules: Rules, new: int, old: int, n_new: int, n_old: int) -> bool:
    """``declare.suit_precedence``: level cards of a suit listed higher overcall an equal count of a lower one."""
    order = rules.checked.values.get("declare.suit_precedence")
    if not order or n_new != n_old or is_joker(new) or is_joker(old):
        return False
    place = {s: i for i, s in enumerate(order)}
    far = len(order)
    return place.get(SUIT_NAMES[suit_of(new)], far) < place.get(SUIT_NAMES[suit_of(old)], far)


def judge_declarations(rules: Rules, level: str, sequence: Sequence[tuple[int, Iterable[int]]],
                       first_hand: bool, kitty_taken: bool = False, banker: int | None = None,
                       wrong: Sequence[tuple[int, Iterable[int]]] = ()) -> Judgment:
    """Judge the declarations in order; the value is the resulting :class:`DeclarationState`.

    ``kitty_taken`` says the kitty was taken up before the last declaration.
    ``banker`` is the banker's seat in a later hand (ignored in the first hand).
    ``wrong`` lists the wrong declarations made in the hand before the last
    declaration of ``sequence`` (seat, cards shown), already refused and
    fined; the bar they may put on a partner applies to that last declaration.
    The first refused declaration stops the judgment; ``extra["index"]`` is
    its position in ``sequence``.
    """
    declaring = Declaring(rules, level, first_hand, kitty_taken, banker, wrong)
    last = len(sequence) - 1
    for i, (seat, shown) in enumerate(sequence):
        refused = declaring.step(seat, shown, i == last)
        if refused is not None:
            return refused
    return declaring.judgment()


class Declaring:
    """The declarations of a hand judged one at a time (what :func:`judge_declarations` does in order).

    :meth:`judge_next` judges one more declaration after those already
    :meth:`add`-ed — the judgment :func:`judge_declarations` gives for the
    sequence with it appended — without judging the earlier ones again (a
    hand judges every declaration each seat could make, at every turn).
    """

    __slots__ = ("rules", "level", "first_hand", "kitty_taken", "barred", "token", "moves", "bids", "retake", "state",
                 "own", "trace", "sequence")

    def __init__(self, rules: Rules, level: str, first_hand: bool, kitty_taken: bool = False,
                 banker: int | None = None, wrong: Sequence[tuple[int, Iterable[int]]] = ()):
        self.rules, self.level, self.first_hand, self.kitty_taken = rules, level, first_hand, kitty_taken
        trace = self.trace = Trace()
        trace.add(rules.clause("declare.overcall_by"))
        self.barred: set[tuple[int, int]] = set()  # (seat, suit) a partner's wrong declaration closed
        if wrong:
            trace.add(rules.clause("declare.wrong_bars_partner"))
            if rules["declare.wrong_bars_partner"]:
                self.barred = {((seat + 2) % 4, suit_of(c)) for seat, cards in wrong for c in cards
                               if not is_joker(c)}
        self.moves = rules["declare.first_hand_banker"] == "last_declarer"
        if self.moves != (rules["declare.overcall_moves_bank"] != "never"):
            raise ValueError(f"{rules.name}: declare.first_hand_banker = {rules['declare.first_hand_banker']} "
                             f"contradicts declare.overcall_moves_bank = {rules['declare.overcall_moves_bank']}")
        # the declarations of this hand bid for the bank: the first hand's always, a later hand's under H31
        self.bids = first_hand or rules["declare.overcall_moves_bank"] == "every_hand"
        self.token = None
        if first_hand and rules["declare.first_hand_card"] is not None:
            self.token = card(*rules["declare.first_hand_card"])
        self.state = DeclarationState(True, None, None, None if first_hand else banker, None)
        self.retake = bool(rules.checked.values.get("declare.retake"))
        self.own: dict[int, tuple[int, int]] = {}   # seat -> (card, copies) of its own last declaration
        self.sequence: list[tuple[int, list[int]]] = []

    def judgment(self) -> Judgment:
        """The judgment of the declarations stepped through, every one legal."""
        return Judgment(self.state, self.trace.tuple(), "ok", "legal", {"index": None, "penalty_points": 0})

    def add(self, seat: int, shown: Iterable[int]) -> None:
        """Take one more declaration, judged legal, as made (it is not the last of a judged sequence)."""
        if self.step(seat, shown, False) is not None:
            raise ValueError(f"seat {seat}'s declaration {list(shown)} is refused: it cannot be added")

    def judge_next(self, seat: int, shown: Iterable[int]) -> Judgment:
        """:func:`judge_declarations` of the declarations added so far and then this one."""
        fork = Declaring.__new__(Declaring)
        fork.rules, fork.level, fork.first_hand, fork.kitty_taken = self.rules, self.level, self.first_hand, \
            self.kitty_taken
        fork.barred, fork.token, fork.moves, fork.retake = self.barred, self.token, self.moves, self.retake
        fork.bids = self.bids
        fork.state, fork.own, fork.sequence = self.state, dict(self.own), list(self.sequence)
        fork.trace = Trace()
        fork.trace.ids = list(self.trace.ids)
        refused = fork.step(seat, shown, True)   # a Judgment of a refusal is false: tested against None
        return fork.judgment() if refused is None else refused

    def _refuse(self, reason: str, detail: str) -> Judgment:
        rules, state = self.rules, self.state
        i = len(self.sequence) - 1
        self.trace.add(rules.clause("declare.wrong_points"))
        refused = DeclarationState(False, state.trump, state.declarer, state.banker, state.strength,
                                   state.card, state.overcalls)
        return Judgment(refused, self.trace.tuple(), reason, f"declaration {i} (seat {self.sequence[i][0]}): {detail}",
                        {"index": i, "penalty_points": rules["declare.wrong_points"]})

    def step(self, seat: int, shown: Iterable[int], last: bool) -> Judgment | None:
        """Judge one more declaration (``last`` when it ends the sequence judged): None when it stands, the
        refusal when it is refused (the state then stays that before it)."""
        rules, trace, state, own, level, refuse = self.rules, self.trace, self.state, self.own, self.level, \
            self._refuse
        first_hand, token = self.first_hand, self.token
        self.sequence.append((seat, list(shown)))
        values = rules.checked.values
        after_burial = values.get("declare.jokers_when") == "after_burial"
        if self.kitty_taken and last and rules["declare.closes"] == "kitty_taken" \
                and not (after_burial and shown and all(is_joker(x) for x in shown)):
            trace.add(rules.clause("declare.closes"))
            return refuse("kitty_taken", "the kitty has been taken up")
        declared = list(shown)
        reinforcing = (state.declarer == seat and bool(declared)
                       and declared.count(state.card) == len(declared))
        if token is not None:
            trace.add(rules.clause("declare.first_hand_card"))
            if token in declared:
                if not all(c == token for c in declared):
                    declared.remove(token)
            elif not reinforcing:
                return refuse("missing_first_hand_card", f"{text(token)} not shown")
        if not declared:
            return refuse("wrong_count", "no cards declared")
        c = declared[0]
        if declared.count(c) != len(declared):  # a card other than the first
            return refuse("mixed_cards", " ".join(text(d) for d in declared))
        n = len(declared)
        if is_joker(c):
            trace.add(rules.clause("declare.joker_pairs"))
            if not rules["declare.joker_pairs"]:
                return refuse("jokers_not_allowed", text(c))
            if n < 2:
                return refuse("wrong_count", "a joker declares only as a pair")
            if values.get("declare.joker_count") == "all_decks":   # H07: every copy the decks hold
                trace.add(rules.clause("declare.joker_count"))
                if n < rules.decks:
                    return refuse("wrong_count", f"a joker declares only with all {rules.decks} copies")
            if "declare.jokers_when" in values:   # H08: jokers only once the kitty is buried
                trace.add(rules.clause("declare.jokers_when"))
                if after_burial and not (self.kitty_taken and last):
                    return refuse("jokers_not_allowed", "jokers declare only after the burial")
        elif rank_of(c) != level:
            return refuse("not_level_card", f"{text(c)} is not a level card at level {level}")
        if level == NO_TRUMP_LEVEL:   # V66: no card is a level card, and a joker pair names nothing more
            trace.add(rules.clause("level.ranks"))
            return refuse("not_level_card", f"nothing is declared at the no-trump level {NO_TRUMP_LEVEL}: "
                                            f"the hand is played without a trump suit")
        elif last and (seat, suit_of(c)) in self.barred:
            return refuse("partner_barred", f"seat {seat}'s partner declared {text(c)[-1]} wrongly")
        if n > rules.decks:
            return refuse("wrong_count", f"{n} copies of {text(c)} with {rules.decks} decks")

        if self.retake and seat != state.declarer and own.get(seat, (None,))[0] == c and not is_joker(c):
            # declare.retake: an overcalled declarer adds copies of his card; an equal count takes trump back
            trace.add(*rules.clauses_of("declare.retake"))
            total = own[seat][1] + n
            if total > rules.decks:
                return refuse("wrong_count", f"{total} copies of {text(c)} with {rules.decks} decks")
            if total >= state.strength[0] and not is_joker(state.card):
                own[seat] = (c, total)
                self.state = DeclarationState(True, suit_of(c), seat, state.banker, (total, 0), c,
                                              state.overcalls + 1)
                return None
        if state.card is None:  # the first declaration: no suit declared for a joker pair to keep (H34)
            trump = NO_TRUMP if is_joker(c) else suit_of(c)
            if is_joker(c):
                trace.add(rules.clause("declare.joker_trump"))
            new_banker = seat if self.bids else state.banker
            if first_hand:
                trace.add(rules.clause("declare.first_hand_banker"))
            elif self.bids:   # H31: a later hand's first declaration takes the bank
                trace.add(rules.clause("declare.overcall_moves_bank"))
            self.state = DeclarationState(True, trump, seat, new_banker, (n, _JOKER_RANK.get(c, 0)), c, 0)
            own[seat] = (c, n)
            return None
        if seat == state.declarer and c == state.card:
            trace.add(rules.clause("declare.reinforce"))
            if not rules["declare.reinforce"]:
                return refuse("no_reinforce", f"seat {seat} adds {text(c)}")
            total = state.strength[0] + n
            if total > rules.decks:
                return refuse("wrong_count", f"{total} copies of {text(c)} with {rules.decks} decks")
            self.state = DeclarationState(True, state.trump, seat, state.banker, (total, state.strength[1]),
                                          c, state.overcalls)
            own[seat] = (c, total)
            return None
        if state.declarer is not None and seat == (state.declarer + 2) % 4 and "declare.overcall_partner" in values:
            trace.add(rules.clause("declare.overcall_partner"))
            if not values["declare.overcall_partner"]:   # H06: no overcall of one's partner
                return refuse("partner_overcall", f"seat {seat}'s partner declared {text(state.card)}")
        if seat == state.declarer:
            trace.add(rules.clause("declare.self_overcall"))
            if not rules["declare.self_overcall"]:
                return refuse("self_overcall", f"seat {seat} already declared {text(state.card)}")
        if state.overcalls >= 1:
            trace.add(rules.clause("declare.after_overcall"))
            if rules["declare.after_overcall"] == "jokers_only" and not is_joker(c):
                return refuse("jokers_only", f"{text(c)} after an overcall")
        strength = (n, _JOKER_RANK.get(c, 0))
        precedes = _precedes(rules, c, state.card, n, state.strength[0])
        if precedes:
            trace.add(*rules.clauses_of("declare.suit_precedence"))
        if not precedes and not _strength_beats(rules, strength, state.strength):
            return refuse("too_weak", f"{n} × {text(c)} does not beat {state.strength[0]} × {text(state.card)}")
        trump = suit_of(c)
        if is_joker(c):   # no trump, or (H34, keep_suit) the suit of the declaration it overcalls stays trump
            trump = state.trump if rules["declare.joker_trump"] == "keep_suit" else NO_TRUMP
            trace.add(rules.clause("declare.joker_trump"))
        new_banker = state.banker
        if self.bids:   # the first hand, or any hand under H31
            trace.add(rules.clause("declare.first_hand_banker"), rules.clause("declare.overcall_moves_bank"))
            if self.moves:
                new_banker = seat
        self.state = DeclarationState(True, trump, seat, new_banker, strength, c, state.overcalls + 1)
        own[seat] = (c, n)
        return None


def judge_undeclared(rules: Rules, kitty: Sequence[int], first_hand: bool,
                     banker_level: str, attackers_level: str) -> Judgment:
    """What happens when nobody declares (value :class:`Undeclared`).

    ``kitty`` is the kitty in the order it is turned, first card first.
    ``declare.fallback_first_hand`` / ``declare.fallback_later``:

    * ``kitty_card``: the ``declare.kitty_card``-th card (counted from the
      first) names trump; a joker there is skipped for the next card if
      ``declare.kitty_skip_jokers`` (jokers before it still count), else
      ``declare.kitty_joker`` decides (``next_card`` the same, ``no_trump``).
      If only jokers remain from that card on, the hand has no trump. The hand
      is played at the banker's level; in the first hand the banker is the
      player ``bank.first_hand_undeclared`` names;
    * ``redeal``: the cards are dealt again at the same level;
    * ``smothered`` (憋死): redeal with ``declare.smothered_banker`` as banker, at
      the level ``declare.smothered_level`` names;
    * ``no_trump`` (H01): the hand is played at the banker's level without a
      trump suit (in the first hand the banker ``bank.first_hand_undeclared``
      names); no kitty card is turned.
    """
    trace = Trace()
    if banker_level == NO_TRUMP_LEVEL:   # V66: the hand is no-trump by its level; no fallback applies
        trace.add(rules.clause("level.ranks"))
        return Judgment(Undeclared(NO_TRUMP, False, None if first_hand else "banker", "banker", banker_level),
                        trace.tuple(), "ok", f"the no-trump level {NO_TRUMP_LEVEL}: no trump suit, nothing to "
                                             f"declare")
    setting = "declare.fallback_first_hand" if first_hand else "declare.fallback_later"
    trace.add(rules.clause(setting))
    fallback = rules[setting]
    if fallback == "redeal":
        return Judgment(Undeclared(None, True, None, None, banker_level), trace.tuple(), "ok",
                        "nobody declared: redeal")
    if fallback == "first_level_card":
        return _first_level_card(rules, kitty, first_hand, banker_level, trace)
    if fallback == "no_trump":   # H01: the hand is played without a trump suit, the kitty turned for nothing
        first_banker = None
        if first_hand:
            trace.add(rules.clause("bank.first_hand_undeclared"))
            first_banker = rules["bank.first_hand_undeclared"]
        return Judgment(Undeclared(NO_TRUMP, False, None if first_hand else "banker", "banker", banker_level, None,
                                   first_banker), trace.tuple(), "ok", "nobody declared: the hand has no trump suit")
    if fallback == "smothered":
        trace.add(rules.clause("declare.smothered_banker"), rules.clause("declare.smothered_level"))
        side = "banker" if rules["declare.smothered_banker"] == "same_banker" else "attackers"
        level_of = "attackers" if rules["declare.smothered_level"] == "attackers_level" else "banker"
        level = attackers_level if level_of == "attackers" else banker_level
        return Judgment(Undeclared(None, True, side, level_of, level), trace.tuple(), "ok",
                        f"banker smothered: redeal, the {side} side banks at the {level_of} side's level {level}")
    # kitty_card
    trace.add(rules.clause("declare.kitty_card"))
    kitty = list(kitty)
    k = rules["declare.kitty_card"] - 1
    if k >= len(kitty):
        raise ValueError(f"declare.kitty_card = {k + 1} but the kitty has {len(kitty)} cards")
    side = None if first_hand else "banker"
    first_banker = None
    if first_hand:
        trace.add(rules.clause("bank.first_hand_undeclared"))
        first_banker = rules["bank.first_hand_undeclared"]
    i = k
    trump: int | str | None = None
    if is_joker(kitty[i]):
        trace.add(rules.clause("declare.kitty_skip_jokers"))
        skip = rules["declare.kitty_skip_jokers"]
        if not skip:
            trace.add(rules.clause("declare.kitty_joker"))
            if rules["declare.kitty_joker"] == "no_trump":
                trump = NO_TRUMP
        if trump is None:
            while i < len(kitty) and is_joker(kitty[i]):
                i += 1
            if i == len(kitty):
                trump, i = NO_TRUMP, None
    if trump is None:
        trump = suit_of(kitty[i])
    named = "no trump" if trump == NO_TRUMP else f"{text(kitty[i])} names trump"
    return Judgment(Undeclared(trump, False, side, "banker", banker_level, i, first_banker), trace.tuple(), "ok",
                    f"nobody declared: kitty card {k + 1}: {named}")


def _first_level_card(rules: Rules, kitty: Sequence[int], first_hand: bool, level: str, trace: Trace) -> Judgment:
    """``first_level_card``: the kitty turned in order; the first level card names its suit, else the highest
    card turned (the first of equals); only jokers: no trump."""
    kitty = list(kitty)
    side = None if first_hand else "banker"
    first_banker = None
    if first_hand:
        trace.add(rules.clause("bank.first_hand_undeclared"))
        first_banker = rules["bank.first_hand_undeclared"]
    suited = [(i, c) for i, c in enumerate(kitty) if not is_joker(c)]
    at = next((i for i, c in suited if rank_of(c) == level), None)
    how = f"the first level card, {text(kitty[at])}," if at is not None else None
    if at is None and suited:
        top = max(rank_index(c) for _, c in suited)
        at = next(i for i, c in suited if rank_index(c) == top)
        how = f"no level card turned: the highest card, {text(kitty[at])},"
    if at is None:
        return Judgment(Undeclared(NO_TRUMP, False, side, "banker", level, None, first_banker), trace.tuple(), "ok",
                        "nobody declared: the kitty holds only jokers: no trump")
    return Judgment(Undeclared(suit_of(kitty[at]), False, side, "banker", level, at, first_banker), trace.tuple(),
                    "ok", f"nobody declared: {how} names trump")
