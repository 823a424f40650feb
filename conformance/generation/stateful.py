"""Whole hands through an engine: a Hypothesis state machine that deals, declares, buries and plays.

:func:`hand_machine` builds a :class:`~hypothesis.stateful.RuleBasedStateMachine`
that drives whole hands of one ruleset through an engine (any
:class:`conformance.generation.suite.Engine`: a :class:`~conformance.generation.suite.ProcessEngine`
speaking the protocol or an :class:`~conformance.generation.suite.InProcessEngine`) and
compares **every judgment** the engine makes with the reference interpreter's:

1. ``deal`` (the first hand of a run) / ``next_deal`` -- a permutation of the
   pack (drawn by Hypothesis), the level, the first hand or a later one (and
   then the banker);
2. ``declare_option`` / ``declare_cards`` -- a declaration from the seat's level
   cards and joker pairs (a legal one when there is one) or any cards of the
   seat's hand (mostly illegal): ``declare``; legal ones stand;
3. ``end_declaring`` -- the standing declaration decides trump and banker; with
   none, ``undeclared`` (a redeal goes back to step 1); the banker takes up the
   kitty (maybe a late declaration: ``declare`` with ``kitty_taken``) and
   buries cards of its choice;
4. ``play_trick`` / ``play_throw`` -- a lead chosen by the reference's sampler
   (for ``play_throw`` a throw when the hand has one): ``lead``, and ``lead``
   for another set of the leader's cards; each follow: ``follow`` for the play
   made and for an alternative; then ``winner``;
5. after the last trick: ``kitty``, ``result``, ``hand`` (the whole transcript)
   and ``advance`` for the side that gains.

The choices (what to declare, bury, lead and follow) are the reference's legal
moves, picked by Hypothesis-drawn values, so every step is replayable: on a
disagreement the machine raises :class:`HandDisagreement` (an ``AssertionError``
whose message is :meth:`~conformance.generation.suite.Disagreement.render`), Hypothesis
shrinks the run and prints the program of steps. To replay it::

    HandMachine = hand_machine(engine, "r003")
    state = HandMachine()
    state.deal(pack=[...], first_hand=..., seat=..., level=..., attackers_level=...)
    state.declare_option(seat=..., choice=...)
    ...
    state.teardown()

An operation the engine does not support (its handshake does not list it, or
it answers ``skipped``) is counted in :attr:`skipped` and otherwise ignored.

Run it in a test::

    from hypothesis import settings
    from hypothesis.stateful import run_state_machine_as_test
    run_state_machine_as_test(hand_machine(ProcessEngine("./my-engine"), "r003"),
                              settings=settings(max_examples=5, stateful_step_count=60, deadline=None))

or expose ``hand_machine(...).TestCase`` to pytest or unittest.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from conformance.protocol import messages as protocol
from conformance.protocol.engine import judge
from conformance.generation.suite import Disagreement


MAX_DECLARATIONS = 8   # declarations tried per deal, so declaring cannot take up every step


class HandDisagreement(AssertionError):
    """The engine judged a step of the hand differently from the reference interpreter."""

    def __init__(self, disagreement: Disagreement, where: str):
        self.disagreement = disagreement
        self.where = where
        super().__init__(f"{where}\n{disagreement.render()}")


class MachineError(RuntimeError):
    """The machine reached a state the reference forbids: a bug in the machine or the interpreter."""


@lru_cache(maxsize=None)
def _tokens() -> tuple[dict[str, int], tuple[str, ...]]:
    from reference_impl.cards import DECK, text
    names = tuple(text(c) for c in DECK)
    return {t: c for c, t in enumerate(names)}, names


def _fmt(cards) -> list[str]:
    names = _tokens()[1]
    return [names[c] for c in cards]


def _parse(tokens) -> list[int]:
    index = _tokens()[0]
    return [index[t] for t in tokens]


def _remove(hand: list[int], cards) -> None:
    for c in cards:
        hand.remove(c)


def hand_machine(engine, ruleset: str) -> type[RuleBasedStateMachine]:
    """A state machine class that plays whole hands of ``ruleset`` through ``engine`` (see the module doc)."""
    from reference_impl.combos import classify
    from reference_impl.hand import _declaration_options, dealt_pack
    from reference_impl.rules import rules_for
    from reference_impl.sampling import random_follow, random_lead
    from reference_impl.trump import context

    rules = rules_for(ruleset)
    pack_tokens = tuple(_fmt(sorted(dealt_pack(rules))))   # the removed cards (V05) out
    fixed = set(rules["trump.fixed_ranks"])
    levels = tuple(r for r in rules["level.ranks"] if r not in fixed and r != "NT")   # NT (V66): no rank
    start = rules["level.start"] if rules["level.start"] in levels else levels[0]
    supports = getattr(engine, "supports", None)
    deal_args = dict(pack=st.permutations(pack_tokens), first_hand=st.booleans(), seat=st.integers(0, 3),
                level=st.sampled_from(levels), attackers_level=st.sampled_from(levels))

    class HandMachine(RuleBasedStateMachine):
        """Whole hands of one ruleset through one engine, every judgment compared with the reference."""

        history: list[dict] = []   # one entry per run (example): hands played, questions asked and skipped

        def __init__(self):
            super().__init__()
            self.engine = engine
            self.ruleset = ruleset
            self.phase = "deal"
            self.hands_played = 0
            self.asked: Counter = Counter()     # op -> questions the engine answered with a result
            self.skipped: Counter = Counter()   # op -> questions it did not answer (unsupported, skipped)

        # ----------------------------------------------------------------- asking

        def ask(self, op: str, inp: dict, what: str) -> dict:
            """The reference's answer to ``op`` on ``inp``, after checking the engine agrees with it."""
            expected, clauses = judge(op, ruleset, inp)
            if supports is not None and not supports(op, ruleset):
                self.skipped[op] += 1
                return expected
            status, got = self.engine.ask(op, ruleset, inp)
            where = f"hand {self.hands_played + 1}, {what}: the engine's {op} disagrees with the reference"
            if status == "skipped":
                self.skipped[op] += 1
                return expected
            norm = protocol.canonical(op, expected)
            if status == "errored":
                raise HandDisagreement(Disagreement(op, ruleset, inp, norm, got, "errored", tuple(clauses),
                                                    [str(got)]), where)
            diffs = protocol.compare(op, expected, got, getattr(self.engine, "fields", {}).get(op))
            if diffs:
                raise HandDisagreement(Disagreement(op, ruleset, inp, norm, got, "fail", tuple(clauses), diffs),
                                       where)
            self.asked[op] += 1
            return expected

        def ctx_input(self) -> dict:
            return {"level": self.level, "trump": None if self.trump is None else "SHDC"[self.trump]}

        # ----------------------------------------------------------------- the deal

        def _deal(self, pack, first_hand, seat, level, attackers_level):
            cards = _parse(pack)
            self.first_hand = first_hand
            self.banker = None if first_hand else seat
            self.drawer = seat
            self.level = start if first_hand else level
            self.attackers_level = self.level if first_hand else attackers_level
            drawn = len(cards) - rules.kitty_size
            self.hands = [[] for _ in range(4)]
            for i in range(drawn):
                self.hands[(seat + i) % 4].append(cards[i])
            self.kitty = cards[drawn:]
            self.dealt = [list(h) for h in self.hands]
            self.declarations: list[tuple[int, list[int]]] = []
            self.attempts = 0                          # declarations tried in this deal (legal or not)
            self.standing = None                       # the reference's DeclarationState
            self.phase = "declare"

        @initialize(**deal_args)
        def deal(self, pack, first_hand, seat, level, attackers_level):
            """Deal a hand: ``seat`` draws first (and is the banker of a later hand).

            A first hand is played at ``level.start`` (``level`` and ``attackers_level`` are then unused).
            """
            self._deal(pack, first_hand, seat, level, attackers_level)

        @precondition(lambda self: self.phase in ("deal", "over"))
        @rule(**deal_args)
        def next_deal(self, pack, first_hand, seat, level, attackers_level):
            """Deal again: after a hand, or a redeal when nobody declared."""
            self._deal(pack, first_hand, seat, level, attackers_level)

        # ----------------------------------------------------------------- declaring

        def _declare_input(self, cards: list[int], seat: int, kitty_taken: bool = False) -> dict:
            inp = {"level": self.level, "first_hand": self.first_hand, "banker": self.banker,
                   "declarations": [{"seat": s, "cards": _fmt(c)} for s, c in self.declarations]
                   + [{"seat": seat, "cards": _fmt(cards)}]}
            if kitty_taken:
                inp["kitty_taken"] = True
            return inp

        def _declare(self, seat: int, cards: list[int], what: str) -> None:
            from reference_impl.declaring import judge_declarations
            inp = self._declare_input(cards, seat)
            self.attempts += 1
            verdict = self.ask("declare", inp, what)
            if verdict["legal"]:
                self.declarations.append((seat, list(cards)))
                self.standing = judge_declarations(rules, self.level, self.declarations, self.first_hand,
                                                   banker=self.banker).value

        def _legal_options(self, seat: int) -> tuple[list[list[int]], list[list[int]]]:
            from reference_impl.declaring import judge_declarations
            options = _declaration_options(rules, self.level, self.hands[seat])
            legal = [o for o in options
                     if judge_declarations(rules, self.level, self.declarations + [(seat, o)], self.first_hand,
                                           banker=self.banker).value.legal]
            return options, legal

        @precondition(lambda self: self.phase == "declare" and self.attempts < MAX_DECLARATIONS)
        @rule(seat=st.integers(0, 3), choice=st.integers(0, 63))
        def declare_option(self, seat, choice):
            """A declaration from the seat's level cards or joker pairs: a legal one when there is one."""
            options, legal = self._legal_options(seat)
            pool = legal or options
            if pool:
                self._declare(seat, pool[choice % len(pool)], f"seat {seat} declares")

        @precondition(lambda self: self.phase == "declare" and self.attempts < MAX_DECLARATIONS)
        @rule(seat=st.integers(0, 3), picks=st.lists(st.integers(0, 63), min_size=1, max_size=4))
        def declare_cards(self, seat, picks):
            """A declaration of any cards of the seat's hand (mostly an illegal one)."""
            hand = sorted(self.hands[seat])
            self._declare(seat, [hand[p % len(hand)] for p in picks], f"seat {seat} shows cards")

        @precondition(lambda self: self.phase == "declare")
        @rule(bury=st.lists(st.integers(0, 255), min_size=rules.kitty_size, max_size=rules.kitty_size),
              late=st.none() | st.tuples(st.integers(0, 3), st.integers(0, 63)))
        def end_declaring(self, bury, late):
            """Declaring ends: trump and banker (or ``undeclared``); the banker takes up the kitty and buries.

            ``late``: (seat, choice) of a declaration made after the kitty is taken up, or None.
            """
            if self.standing is not None and self.standing.declarer is not None:
                trump = self.standing.trump
                # the declarations' banker (the first hand's; any hand's under H31), else the standing one
                self.hand_banker = self.standing.banker if self.standing.banker is not None else self.banker
            else:
                inp = {"level": self.level, "attackers_level": self.attackers_level,
                       "first_hand": self.first_hand, "kitty": _fmt(self.kitty)}
                out = self.ask("undeclared", inp, "nobody declared")
                if out["redeal"]:
                    self.phase = "deal"
                    return
                trump = out["trump"]
                trump = "SHDC".index(trump) if trump is not None else None
                self.level = out["level"] or self.level
                self.hand_banker = self.banker if not self.first_hand else self.drawer
            if self.hand_banker is None:
                self.hand_banker = self.drawer
            self.trump = trump if isinstance(trump, int) else None
            self.ctx = context(rules, self.level, self.trump)
            # the kitty exchange
            hand = self.hands[self.hand_banker]
            hand.extend(self.kitty)
            if late is not None:
                seat, choice = late
                options = _declaration_options(rules, self.level, self.hands[seat])
                if options:
                    cards = options[choice % len(options)]
                    self.ask("declare", self._declare_input(cards, seat, kitty_taken=True),
                             f"seat {seat} declares after the kitty is taken")
            if rules["kitty.exchange"]:
                pool = sorted(hand)
                self.buried = [pool.pop(p % len(pool)) for p in bury]
            else:
                self.buried = list(self.kitty)
            _remove(hand, self.buried)
            self.leader = self.hand_banker
            self.tricks: list[dict] = []
            self.trick_points = 0
            self.penalty = 0
            self.phase = "play"

        # ----------------------------------------------------------------- tricks

        @precondition(lambda self: self.phase == "play")
        @rule(seed=st.integers(0, 2 ** 32 - 1))
        def play_trick(self, seed):
            """One trick: a lead, three follows, the winner; the last one ends the hand.

            ``seed`` drives the reference's samplers of legal leads and follows.
            """
            self._trick(seed, throw=False)

        @precondition(lambda self: self.phase == "play")
        @rule(seed=st.integers(0, 2 ** 32 - 1))
        def play_throw(self, seed):
            """One trick whose leader tries a throw when the hand allows one."""
            self._trick(seed, throw=True)

        def _trick(self, seed: int, throw: bool) -> None:
            rng = random.Random(seed)
            ctx, hands, leader = self.ctx, self.hands, self.leader
            order = [(leader + k) % 4 for k in range(4)]
            others = [_fmt(hands[s]) for s in order[1:]]
            lead = random_lead(ctx, hands[leader], rng, throw_chance=0.9 if throw else 0.0)
            held = _fmt(hands[leader])
            verdict = self.ask("lead", {**self.ctx_input(), "cards": _fmt(lead), "hand": held, "others": others},
                               f"seat {leader} leads")
            alternative = rng.sample(hands[leader], min(len(hands[leader]), rng.randint(1, 4)))
            self.ask("lead", {**self.ctx_input(), "cards": _fmt(alternative), "hand": held, "others": others},
                     f"seat {leader} might lead")
            trick: dict[str, Any] = {"leader": leader}
            if not verdict["legal"]:
                if verdict["reason"] != "throw_beaten":
                    raise MachineError(f"the sampler led an illegal play ({verdict['reason']})")
                trick["failed_throw"] = _fmt(lead)
                sign = -1 if leader % 2 != self.hand_banker % 2 else 1
                self.penalty += sign * verdict["failure"]["penalty"]
                lead = _parse(verdict["failure"]["forced"])
            combo = classify(ctx, lead)
            plays = {leader: lead}
            for seat in order[1:]:
                hand = hands[seat]
                play = random_follow(ctx, combo, hand, rng)
                base = {**self.ctx_input(), "lead": _fmt(lead), "hand": _fmt(hand)}
                if not self.ask("follow", {**base, "play": _fmt(play)}, f"seat {seat} follows")["legal"]:
                    raise MachineError("the sampler produced an illegal follow")
                self.ask("follow", {**base, "play": _fmt(self._alternative(hand, play, rng))},
                         f"seat {seat} might follow")
                plays[seat] = play
            for seat, play in plays.items():
                _remove(hands[seat], play)
            trick["plays"] = [_fmt(plays[s]) for s in range(4)]
            won = self.ask("winner", {**self.ctx_input(), "leader": leader, "plays": trick["plays"]},
                           f"trick {len(self.tricks) + 1}")
            self.tricks.append(trick)
            if won["winner"] % 2 != self.hand_banker % 2:
                self.trick_points += won["points"]
            self.leader = won["winner"]
            if not hands[self.leader]:
                self._finish(trick)

        @staticmethod
        def _alternative(hand: list[int], play: list[int], rng: random.Random) -> list[int]:
            """Another play of the same size: one card swapped for another of the hand, or any cards."""
            rest = Counter(hand)
            rest.subtract(play)
            spare = list(rest.elements())
            if spare and rng.random() < 0.7:
                alt = list(play)
                alt[rng.randrange(len(alt))] = rng.choice(spare)
                return alt
            return rng.sample(hand, len(play))

        def _finish(self, last: dict) -> None:
            banker = self.hand_banker
            kitty = self.ask("kitty", {**self.ctx_input(), "banker": banker,
                                       "last_trick": {"leader": last["leader"], "plays": last["plays"]},
                                       "kitty": _fmt(self.buried)}, "the last trick takes the kitty")
            total = self.trick_points + self.penalty + kitty["points"]
            outcome = self.ask("result", {"attackers_points": total}, "the hand's result")
            transcript = {**self.ctx_input(), "banker": banker, "first_hand": self.first_hand,
                          "deal": {"hands": [_fmt(h) for h in self.dealt], "kitty": _fmt(self.kitty)},
                          "declarations": [{"seat": s, "cards": _fmt(c)} for s, c in self.declarations],
                          "discard": _fmt(self.buried), "tricks": self.tricks}
            scored = self.ask("hand", {"transcript": transcript}, "the whole hand")
            if (scored["attackers_points"], scored["next_banker"], scored["levels"]) != \
                    (total, outcome["next_banker"], outcome["levels"]):
                raise MachineError(f"the hand scores {scored}, its steps {total} {outcome}")
            if outcome["levels"] > 0:
                as_banker = outcome["next_banker"] == "banker"
                self.ask("advance", {"level": self.level if as_banker else self.attackers_level,
                                     "gain": outcome["levels"], "as_banker": as_banker},
                         f"the {'banker side' if as_banker else 'attackers'} climb")
            self.hands_played += 1
            self.phase = "over"

        def teardown(self):
            type(self).history.append({"hands": self.hands_played, "asked": dict(self.asked),
                                       "skipped": dict(self.skipped)})

        # ----------------------------------------------------------------- invariants

        @invariant()
        def cards_are_conserved(self):
            if self.phase not in ("declare", "play"):
                return
            held = sum(len(h) for h in self.hands)
            played = sum(len(p) for t in getattr(self, "tricks", ()) for p in t["plays"]) \
                if self.phase == "play" else 0
            aside = len(self.buried) if self.phase == "play" else len(self.kitty)
            assert held + played + aside == len(pack_tokens), "cards appeared or vanished"

    HandMachine.__name__ = HandMachine.__qualname__ = "HandMachine"
    HandMachine.history = []
    return HandMachine


def run_hands(engine, ruleset: str, max_examples: int = 10, steps: int = 60, seed: int | None = 0,
              shrink: bool = True) -> type[RuleBasedStateMachine]:
    """Run :func:`hand_machine` as a test; returns the machine class (its ``history`` says what was asked).

    Raises :class:`HandDisagreement` on the first disagreement (after shrinking,
    unless ``shrink`` is false: a whole hand can take minutes to shrink when
    only its final score differs).
    """
    from hypothesis import HealthCheck, Phase, settings
    from hypothesis.stateful import run_state_machine_as_test
    machine = hand_machine(engine, ruleset)
    phases = [Phase.explicit, Phase.generate] + ([Phase.shrink] if shrink else [])
    conf = settings(max_examples=max_examples, stateful_step_count=steps, deadline=None, database=None,
                    phases=phases, suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    if seed is not None:
        machine._hypothesis_internal_use_seed = seed   # what @hypothesis.seed(seed) sets on a test
    run_state_machine_as_test(machine, settings=conf)
    return machine
