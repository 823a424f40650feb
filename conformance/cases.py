"""Conformance cases: seeded random positions with the reference interpreter's answers.

A case is ``{"id", "op", "ruleset", "input", "expected", "clauses"}``:
``input`` is what a request carries, ``expected`` the reference result's
compared fields (:data:`protocol.COMPARED`), ``clauses`` the ids of the
clauses that decided it. The id is ``<ruleset>:<op>:<hash of the input>``, so
the same position has the same id whatever the seed that produced it (an
expectation file can name it).

Generation uses one ``random.Random`` per (seed, ruleset, operation), seeded
with a string, so a seed gives the same cases on every platform and Python
version. The samplers here are this module's own (not the interpreter's), so
the checked-in vectors change only when the rules' answers change.

What each operation's positions look like:

* classify — units, tractors built along the ruleset's runs (across tiers,
  bridges and junctions), near-tractors, throws, mixed suits;
* lead — units and throws (of the leader's strongest cards and of random
  ones) against the other three hands, and mixed leads;
* follow — legal follows, one-card perturbations of them, random plays, short
  and void holdings, wrong counts and cards not held;
* winner — whole tricks of legal follows, with voids forced so ruffs happen;
* kitty — last tricks of one to four cards with point-rich kitties;
* result — every band edge of the score table, and random points;
* advance — every level × gain 0–5 × banker or not;
* declare — legal prefixes of declarations from dealt hands, then a last
  declaration that is legal or broken in each way the rules refuse;
* undeclared — kitties with jokers around the card that names trump;
* hand — whole hands played out (declarations, kitty exchange, failed throws);
* penalty — one to three faults of one hand (every kind, either side or both,
  found at once or late, lateness around every step) at every band edge.
"""
from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from typing import Callable, Iterable, Iterator

from . import protocol
from .engine import _judge_trick, judge, supported_operations

DEFAULT_COUNTS = {"classify": 200, "lead": 200, "follow": 300, "winner": 200, "kitty": 120, "result": 80,
                  "advance": 160, "declare": 160, "undeclared": 120, "hand": 8, "penalty": 160}
VECTOR_COUNTS = {"classify": 80, "lead": 60, "follow": 100, "winner": 60, "kitty": 50, "result": 80,
                 "advance": 160, "declare": 60, "undeclared": 50, "hand": 4, "penalty": 60}
SUIT_LETTERS = ("S", "H", "D", "C")


def case_id(ruleset: str, op: str, inp: dict) -> str:
    digest = hashlib.sha1(json.dumps(inp, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:12]
    return f"{ruleset}:{op}:{digest}"


def make_case(ruleset: str, op: str, inp: dict) -> dict:
    """A case for ``inp``, with the reference interpreter's answer."""
    result, clauses = judge(op, ruleset, inp)
    expected = {k: result[k] for k in protocol.COMPARED[op] if k in result}
    return {"id": case_id(ruleset, op, inp), "op": op, "ruleset": ruleset, "input": inp,
            "expected": expected, "clauses": list(clauses)}


def available_operations() -> list[str]:
    return supported_operations()


def generate(ruleset: str, ops: Iterable[str] | None = None, seed: int = 0,
             counts: dict | int | None = None) -> Iterator[dict]:
    """Cases for ``ruleset``: for each operation, ``counts[op]`` distinct positions (fewer if fewer exist)."""
    from reference_impl.rules import rules_for
    rules = rules_for(ruleset)
    supported = set(available_operations())
    for op in (ops or protocol.OPERATIONS):
        if op not in supported:
            continue
        if isinstance(counts, int):
            n = counts
        else:
            n = (counts or DEFAULT_COUNTS).get(op, DEFAULT_COUNTS[op])
        rng = random.Random(f"tractor-conformance:{seed}:{ruleset}:{op}")
        gen = Positions(rules, rng)
        seen: set[str] = set()
        producer: Callable[[], Iterator[dict]] = getattr(gen, op)
        misses = 0
        for inp in producer():
            if len(seen) >= n or misses > 50 * n + 100:
                break
            cid = case_id(ruleset, op, inp)
            if cid in seen:
                misses += 1
                continue
            seen.add(cid)
            yield make_case(ruleset, op, inp)


# --------------------------------------------------------------------------- positions

def fmt(cards: Iterable[int]) -> list[str]:
    from reference_impl.cards import text
    return [text(c) for c in cards]


def _take(counts: Counter, cards: Iterable[int]) -> None:
    for c in cards:
        counts[c] -= 1
        if counts[c] <= 0:
            del counts[c]


class Positions:
    """Random positions for one ruleset; each operation is an endless generator of inputs."""

    def __init__(self, rules, rng: random.Random):
        self.rules = rules
        self.rng = rng
        fixed = set(rules["trump.fixed_ranks"])
        self.levels = [r for r in rules["level.ranks"] if r not in fixed]

    # ----- shared pieces

    def level(self) -> str:
        return self.rng.choice(self.levels)

    def trump(self) -> str | None:
        return None if self.rng.random() < 0.15 else self.rng.choice(SUIT_LETTERS)

    def ctx(self):
        from reference_impl.trump import context
        level, trump = self.level(), self.trump()
        return level, trump, context(self.rules, level, trump)

    def deal(self) -> tuple[list[list[int]], list[int]]:
        from reference_impl.cards import full_pack
        pack = full_pack(self.rules.decks)
        self.rng.shuffle(pack)
        n = self.rules.hand_size
        return [pack[i * n:(i + 1) * n] for i in range(4)], pack[4 * n:]

    def dealt_hands(self, size: int | None = None) -> list[list[int]]:
        """Four hands of ``size`` cards (as if the rest had been played), default a random size."""
        hands, _ = self.deal()
        if size is None:
            size = self.rng.choice([self.rules.hand_size, self.rng.randint(4, self.rules.hand_size)])
        return [h[:size] for h in hands]

    def units(self, ctx, counts: Counter, suit: int) -> list[list[int]]:
        """Every single, pair, triple and (longest) tractor ``counts`` holds in ``suit``."""
        from reference_impl.combos import tractor_candidates, unit_sizes
        held = Counter({c: n for c, n in counts.items() if ctx.suit[c] == suit})
        options: list[list[int]] = [[c] for c in held]
        for size in unit_sizes(ctx):
            options += [[c] * size for c, n in held.items() if n >= size]
        for size in (3, 2):
            if size <= ctx.rules.decks:
                for cards in tractor_candidates(ctx, held, suit, size):
                    options.append([c for c in cards for _ in range(size)])
        return options

    def sample_lead(self, ctx, hand: list[int], throw_chance: float = 0.2) -> list[int]:
        """A unit of a random suit of ``hand``, sometimes grown into a throw of that suit."""
        rng = self.rng
        counts = Counter(hand)
        suits = sorted({ctx.suit[c] for c in hand})
        suit = rng.choice(suits)
        options = self.units(ctx, counts, suit)
        weights = [1 + 2 * (len(o) > 1) for o in options]
        lead = list(rng.choices(options, weights)[0])
        if rng.random() < throw_chance:
            rest = Counter(counts)
            _take(rest, lead)
            for _ in range(rng.randint(1, 3)):
                more = self.units(ctx, rest, suit)
                if not more:
                    break
                if rng.random() < 0.5:  # the strongest: throws that may stand
                    pick = max(more, key=lambda o: (len(o) > 1, max(ctx.key[c] for c in o)))
                else:
                    pick = rng.choice(more)
                lead += pick
                _take(rest, pick)
        return lead

    def sample_follow(self, ctx, lead_cards: list[int], hand: list[int]) -> list[int]:
        """A random legal follow (meets the obligation, then random filler)."""
        from reference_impl.combos import classify
        from reference_impl.following import judge_follow_combo, obligation
        from reference_impl.rules import Trace
        rng = self.rng
        lead = classify(ctx, lead_cards)
        hand_counts = Counter(hand)
        n = lead.n
        in_suit = Counter({c: k for c, k in hand_counts.items() if ctx.suit[c] == lead.suit})
        held = sum(in_suit.values())
        if held <= n:
            play = list(in_suit.elements())
            rest = Counter(hand_counts)
            _take(rest, play)
            play += rng.sample(sorted(rest.elements()), n - len(play))
            return play
        for _ in range(10):
            required, _ = obligation(ctx, lead, in_suit, Trace())
            play = self._realize(ctx, required, lead.suit, in_suit)
            if play is None:
                continue
            rest = Counter(in_suit)
            _take(rest, play)
            play += rng.sample(sorted(rest.elements()), n - len(play))
            if judge_follow_combo(ctx, lead, hand_counts, play).value:
                return play
        suit_cards = sorted(in_suit.elements())
        for _ in range(300):
            play = rng.sample(suit_cards, n)
            if judge_follow_combo(ctx, lead, hand_counts, play).value:
                return play
        raise RuntimeError("no legal follow found")

    def _realize(self, ctx, units, suit, holding: Counter) -> list[int] | None:
        from reference_impl.combos import tractor_candidates
        counts = Counter(holding)
        chosen: list[int] = []
        for size, length in sorted(units, key=lambda u: (-u[1], -u[0])):
            if length > 1:
                options = list(tractor_candidates(ctx, counts, suit, size, length))
                if not options:
                    return None
                cards = [c for c in self.rng.choice(options) for _ in range(size)]
            else:
                options = sorted(c for c, k in counts.items() if k >= size)
                if not options:
                    return None
                exact = [c for c in options if counts[c] == size]
                c = self.rng.choice(exact if exact and self.rng.random() < 0.7 else options)
                cards = [c] * size
            _take(counts, cards)
            chosen += cards
        return chosen

    # ----- operations

    def classify(self) -> Iterator[dict]:
        rng = self.rng
        while True:
            level, trump, ctx = self.ctx()
            r = rng.random()
            if r < 0.08:
                c = rng.randrange(54)
                cards = [c] * rng.randint(1, self.rules.decks)
            elif r < 0.35:
                cards = self._run_cards(ctx)
            elif r < 0.75:
                hand = self.deal()[0][0]
                cards = self.sample_lead(ctx, hand, throw_chance=0.4)
            elif r < 0.9:
                hand = self.deal()[0][0]
                suit = rng.choice(sorted({ctx.suit[c] for c in hand}))
                pool = [c for c in hand if ctx.suit[c] == suit]
                cards = rng.sample(pool, rng.randint(1, min(len(pool), 8)))
            else:
                hand = self.deal()[0][0]
                cards = rng.sample(hand, rng.randint(2, 5))
            yield {"level": level, "trump": trump, "cards": fmt(cards)}

    def _run_cards(self, ctx) -> list[int]:
        """Cards along one of the trump context's runs: tractors, near-tractors, mixed sizes."""
        rng = self.rng
        decks = self.rules.decks
        runs = [run for suit_runs in ctx.runs for run in suit_runs if len(run) >= 2]
        run = rng.choice(runs)
        length = rng.randint(2, min(len(run), 5))
        start = rng.randint(0, len(run) - length)
        positions = list(run[start:start + length])
        if rng.random() < 0.2 and len(positions) > 2:  # a gap: not a tractor
            del positions[rng.randrange(1, len(positions) - 1)]
        size = rng.choice([s for s in (2, 3) if s <= decks])
        cards = []
        for pos in positions:
            c = rng.choice(pos)
            k = size if rng.random() < 0.85 else rng.choice([s for s in (1, 2, 3) if s <= decks])
            cards += [c] * k
        if rng.random() < 0.15:  # an extra card of the same suit
            suit = ctx.suit[cards[0]]
            extra = [c for c in range(54) if ctx.suit[c] == suit and cards.count(c) < decks]
            cards.append(rng.choice(extra))
        return cards

    def lead(self) -> Iterator[dict]:
        rng = self.rng
        while True:
            level, trump, ctx = self.ctx()
            hands = self.dealt_hands()
            r = rng.random()
            if r < 0.08:
                pool = hands[0]
                cards = rng.sample(pool, min(len(pool), rng.randint(2, 4)))
            else:
                cards = self.sample_lead(ctx, hands[0], throw_chance=0.55 if r < 0.8 else 0.0)
            yield {"level": level, "trump": trump, "cards": fmt(cards), "others": [fmt(h) for h in hands[1:]]}

    def follow(self) -> Iterator[dict]:
        rng = self.rng
        while True:
            level, trump, ctx = self.ctx()
            hands = self.dealt_hands()
            lead = self._structured_lead(ctx, hands[1]) if rng.random() < 0.3 else None
            lead = lead or self.sample_lead(ctx, hands[0], throw_chance=0.25)
            hand = list(hands[1])
            lead_suit = ctx.suit[lead[0]]
            if rng.random() < 0.3:  # short or void in the led suit
                in_suit = [c for c in hand if ctx.suit[c] == lead_suit]
                keep = rng.randint(0, min(len(in_suit), len(lead) + 1))
                drop = Counter(in_suit[keep:])
                kept = []
                for c in hand:
                    if drop[c]:
                        drop[c] -= 1
                    else:
                        kept.append(c)
                hand = kept
            n = len(lead)
            if len(hand) < n:
                continue
            r = rng.random()
            if r < 0.45:
                play = self.sample_follow(ctx, lead, hand)
            elif r < 0.8:
                play = self.sample_follow(ctx, lead, hand)
                rest = Counter(hand)
                _take(rest, play)
                same = sorted(c for c in rest if ctx.suit[c] == lead_suit)
                pool = same if same and rng.random() < 0.75 else sorted(rest)
                if pool:  # swap one card: often breaks a pair, a tractor or the suit
                    i = rng.randrange(len(play))
                    play[i] = rng.choice(pool)
            elif r < 0.94:
                in_suit = [c for c in hand if ctx.suit[c] == lead_suit]
                pool = in_suit if len(in_suit) >= n and rng.random() < 0.6 else hand
                play = rng.sample(pool, n)
            elif r < 0.97:
                play = rng.sample(hand, max(1, min(len(hand), n + rng.choice([-1, 1]))))
                if len(play) == n:
                    continue
            else:
                play = self.sample_follow(ctx, lead, hand)
                missing = [c for c in range(54) if c not in hand]
                if not missing:
                    continue
                play[rng.randrange(n)] = rng.choice(missing)
            yield {"level": level, "trump": trump, "lead": fmt(lead), "hand": fmt(hand), "play": fmt(play)}

    def _structured_lead(self, ctx, hand: list[int]) -> list[int] | None:
        """A lead shaped like a pair, triple or tractor ``hand`` holds, from cards outside the hand.

        Such leads put the follower under the structural obligations
        (must_play_tractor / triple / pair), which random leads rarely do.
        """
        from reference_impl.cards import full_pack
        from reference_impl.combos import tractor_candidates
        rng = self.rng
        counts = Counter(hand)
        units = []
        for suit in sorted({ctx.suit[c] for c in hand}):
            units += [u for u in self.units(ctx, counts, suit) if len(u) > 1]
        if not units:
            return None
        unit = max(units, key=lambda u: (len(set(u)), rng.random()))
        size, length, suit = unit.count(unit[0]), len(set(unit)), ctx.suit[unit[0]]
        if rng.random() < 0.4 and length > 1:
            length = rng.randint(2, length)
        pool = Counter(full_pack(self.rules.decks))
        _take(pool, hand)
        if length == 1:
            options = [[c] for c, n in sorted(pool.items()) if n >= size and ctx.suit[c] == suit]
        else:
            options = [list(t) for t in tractor_candidates(ctx, pool, suit, size, length)]
        if not options:
            return None
        lead = [c for c in rng.choice(options) for _ in range(size)]
        if rng.random() < 0.2:  # and a single on top: a throw with a structured part
            extra = [c for c, n in sorted(pool.items()) if ctx.suit[c] == suit and n > lead.count(c)]
            if extra:
                lead.append(rng.choice(extra))
        return lead

    def trick(self, ctx, hands: list[list[int]], leader: int) -> list[list[int]]:
        """A realistic trick: a lead (a failed throw replaced by its forced play) and legal follows."""
        from reference_impl.leading import judge_lead
        rng = self.rng
        lead = self.sample_lead(ctx, hands[leader], throw_chance=0.3)
        others = [hands[(leader + k) % 4] for k in (1, 2, 3)]
        j = judge_lead(ctx, lead, others)
        if not j.value and "failure" in j.extra:
            lead = list(j.extra["failure"].forced)
        plays: list[list[int]] = [[] for _ in range(4)]
        plays[leader] = lead
        lead_suit = ctx.suit[lead[0]]
        for k in (1, 2, 3):
            seat = (leader + k) % 4
            hand = hands[seat]
            in_suit = [c for c in hand if ctx.suit[c] == lead_suit]
            trumps = [c for c in hand if ctx.is_trump(c)]
            if not in_suit and len(trumps) >= len(lead) and rng.random() < 0.7:
                plays[seat] = self._trump_answer(ctx, lead, trumps)
            else:
                plays[seat] = self.sample_follow(ctx, lead, hand)
        return plays

    def _trump_answer(self, ctx, lead: list[int], trumps: list[int]) -> list[int]:
        """A void player's trump play: the lead's shape where possible (a ruff that can win)."""
        from reference_impl.combos import classify
        from reference_impl.trump import TRUMP
        combo = classify(ctx, lead)
        play = self._realize(ctx, combo.units, TRUMP, Counter(trumps)) if self.rng.random() < 0.7 else None
        return play if play is not None else self.rng.sample(trumps, len(lead))

    def _void_hands(self, ctx, hands: list[list[int]], leader: int) -> list[list[int]]:
        """Empty some followers' hands of one suit (replacing the cards from the others' pool) so ruffs happen."""
        rng = self.rng
        suit = rng.choice(sorted({ctx.suit[c] for c in hands[leader]}))
        out = [list(h) for h in hands]
        for k in (1, 2, 3):
            seat = (leader + k) % 4
            if rng.random() < 0.35:
                out[seat] = [c for c in out[seat] if ctx.suit[c] != suit] or out[seat]
        return out

    def _equalize(self, hands: list[list[int]]) -> list[list[int]]:
        n = min(len(h) for h in hands)
        return [h[:n] for h in hands]

    def winner(self) -> Iterator[dict]:
        rng = self.rng
        while True:
            level, trump, ctx = self.ctx()
            hands = self.dealt_hands()
            leader = rng.randrange(4)
            hands = self._equalize(self._void_hands(ctx, hands, leader))
            plays = self.trick(ctx, hands, leader)
            if any(len(p) != len(plays[leader]) for p in plays):
                continue
            yield {"level": level, "trump": trump, "leader": leader, "plays": [fmt(p) for p in plays]}

    def kitty(self) -> Iterator[dict]:
        from reference_impl.cards import full_pack
        rng = self.rng
        points = self.rules.points
        while True:
            level, trump, ctx = self.ctx()
            hands = self.dealt_hands(size=rng.randint(1, 4))
            leader = rng.randrange(4)
            hands = self._equalize(self._void_hands(ctx, hands, leader))
            plays = self.trick(ctx, hands, leader)
            if any(len(p) != len(plays[leader]) for p in plays):
                continue
            pool = Counter(full_pack(self.rules.decks))
            for p in plays:
                _take(pool, p)
            remaining = sorted(pool.elements())
            rng.shuffle(remaining)
            if rng.random() < 0.7:  # point-rich
                remaining.sort(key=lambda c: -(points.get(_rank(c), 0) > 0) * rng.random())
            kitty = remaining[:self.rules.kitty_size]
            yield {"level": level, "trump": trump, "banker": rng.randrange(4),
                   "last_trick": {"leader": leader, "plays": [fmt(p) for p in plays]}, "kitty": fmt(kitty)}

    def result(self) -> Iterator[dict]:
        rng = self.rng
        edges: list[int] = [0]
        for band in self.rules.bands:
            for end in (band.low, band.high):
                if end is not None:
                    edges += [end - 5, end, end + 5]
            if band.step and band.low is not None:
                for m in range(1, 5):
                    edges += [band.low + m * band.step - 5, band.low + m * band.step]
        top = 100 * self.rules.decks
        edges += [top, top + 5]
        values = sorted({e for e in edges if e >= -20})
        values = [v for v in values if self._covered(v)]
        for v in values:
            yield {"attackers_points": v}
        while True:
            v = 5 * rng.randint(-4, (top * 3) // 10)
            if self._covered(v):
                yield {"attackers_points": v}

    def _covered(self, points: int) -> bool:
        return any((b.low is None or points >= b.low) and (b.high is None or points <= b.high)
                   for b in self.rules.bands)

    def advance(self) -> Iterator[dict]:
        for level in self.rules["level.ranks"]:
            for gain in range(6):
                for as_banker in (True, False):
                    yield {"level": level, "gain": gain, "as_banker": as_banker}

    # declarations
    def _declaration_options(self, level: str, hand: list[int], first_hand: bool) -> list[list[int]]:
        from reference_impl.cards import card
        counts = Counter(hand)
        token = None
        if first_hand and self.rules["declare.first_hand_card"] is not None:
            token = card(*self.rules["declare.first_hand_card"])
        options = []
        for s in SUIT_LETTERS:
            c = card(level, s)
            for n in range(1, counts.get(c, 0) + 1):
                options.append([c] * n)
                if token is not None and counts.get(token, 0) > (n if token == c else 0):
                    options.append([c] * n + [token])
        for j in (52, 53):
            for n in range(2, counts.get(j, 0) + 1):
                options.append([j] * n)
        return options

    def _broken_declaration(self, level: str, hand: list[int], state) -> list[int] | None:
        """A declaration the rules are likely to refuse: not a level card, mixed, a lone joker, too few."""
        from reference_impl.cards import rank_of
        rng = self.rng
        r = rng.random()
        if r < 0.3:
            others = [c for c in hand if c < 52 and rank_of(c) != level]
            return [rng.choice(others)] if others else None
        if r < 0.5:
            levels = [c for c in hand if rank_of(c) == level]
            others = [c for c in hand if rank_of(c) != level]
            return [rng.choice(levels), rng.choice(others)] if levels and others else None
        if r < 0.7:
            jokers = [c for c in hand if c >= 52]
            return [rng.choice(jokers)] if jokers else None
        if state is not None and state.card is not None:  # the standing card again, by someone else
            return [state.card] * max(1, state.strength[0] if state.strength else 1)
        return None

    def declaration_sequence(self, level: str, hands: list[list[int]], first_hand: bool, banker: int | None,
                             prefix_max: int = 4):
        """A legal prefix of declarations from the hands, and the state after it."""
        from reference_impl.declaring import judge_declarations
        rng = self.rng
        sequence: list[tuple[int, list[int]]] = []
        state = None
        seat = rng.randrange(4)
        for _ in range(rng.randint(0, prefix_max) * 3):
            if len(sequence) >= prefix_max:
                break
            options = self._declaration_options(level, hands[seat], first_hand)
            rng.shuffle(options)
            for option in options[:6]:
                j = judge_declarations(self.rules, level, sequence + [(seat, option)], first_hand, banker=banker)
                if j.value.legal:
                    sequence.append((seat, option))
                    state = j.value
                    break
            seat = (seat + 1) % 4
        return sequence, state

    def declare(self) -> Iterator[dict]:
        from reference_impl.declaring import judge_declarations
        rng = self.rng
        while True:
            level = self.level()
            hands, _ = self.deal()
            first_hand = rng.random() < 0.5
            banker = None if first_hand else rng.randrange(4)
            sequence, state = self.declaration_sequence(level, hands, first_hand, banker)
            seat = rng.randrange(4)
            if rng.random() < 0.55:
                options = self._declaration_options(level, hands[seat], first_hand)
                rng.shuffle(options)
                last = options[0] if options else None
                for option in options[:8]:  # prefer one the rules accept
                    j = judge_declarations(self.rules, level, sequence + [(seat, option)], first_hand, banker=banker)
                    if j.value.legal:
                        last = option
                        break
            else:
                last = self._broken_declaration(level, hands[seat], state)
            if not last:
                continue
            inp = {"level": level, "first_hand": first_hand, "banker": banker,
                   "declarations": [{"seat": s, "cards": fmt(c)} for s, c in sequence + [(seat, last)]]}
            if rng.random() < 0.08:
                inp["kitty_taken"] = True
            yield inp

    def undeclared(self) -> Iterator[dict]:
        rng = self.rng
        k = self.rules["declare.kitty_card"] - 1
        while True:
            hands, kitty = self.deal()
            kitty = list(kitty)
            if rng.random() < 0.5:  # jokers at and around the card that names trump
                jokers = [c for h in hands for c in h if c >= 52]
                for i in range(max(0, k - 1), min(len(kitty), k + 3)):
                    if jokers and rng.random() < 0.6:
                        kitty[i] = jokers.pop()
                if rng.random() < 0.1:
                    kitty = [52 + (i % 2) for i in range(len(kitty))][:2 * self.rules.decks] + kitty[2 * self.rules.decks:]
            from reference_impl.cards import check_copies, CardError
            try:
                check_copies(kitty, self.rules.decks)
            except CardError:
                continue
            yield {"level": self.level(), "attackers_level": self.level(), "first_hand": rng.random() < 0.5,
                   "kitty": fmt(kitty)}

    def hand(self) -> Iterator[dict]:
        while True:
            t = self.play_hand()
            if t is not None:
                yield {"transcript": t}

    def play_hand(self) -> dict | None:
        """Play one whole hand with random legal choices; its transcript (None after too many redeals)."""
        from reference_impl.declaring import judge_undeclared
        from reference_impl.leading import judge_lead
        from reference_impl.trump import context
        rng = self.rng
        rules = self.rules
        first_hand = rng.random() < 0.4
        levels = [self.level(), self.level()]
        banker = None if first_hand else rng.randrange(4)
        for _ in range(10):
            hands, kitty = self.deal()
            level = levels[0] if banker is None else levels[banker % 2]
            sequence, state = self.declaration_sequence(level, hands, first_hand, banker, prefix_max=3)
            if state is not None:
                trump = state.trump if isinstance(state.trump, int) else None
                hand_banker = state.banker if first_hand else banker
                break
            attackers_level = levels[0] if banker is None else levels[1 - banker % 2]
            u = judge_undeclared(rules, kitty, first_hand, level, attackers_level).value
            if not u.redeal:
                trump = u.trump if isinstance(u.trump, int) else None
                hand_banker = banker if banker is not None else rng.randrange(4)
                break
        else:
            return None
        level = levels[hand_banker % 2]
        ctx = context(rules, level, trump)
        dealt = [list(h) for h in hands]
        # kitty exchange: the banker buries low side cards, with some randomness
        hands[hand_banker] = hands[hand_banker] + list(kitty)
        ranked = sorted(hands[hand_banker], key=lambda c: (ctx.is_trump(c), rules.points.get(_rank(c), 0) > 0,
                                                           ctx.key[c], rng.random()))
        discard = ranked[:rules.kitty_size] if rules["kitty.exchange"] else list(kitty)
        held = Counter(hands[hand_banker])
        _take(held, discard)
        hands[hand_banker] = sorted(held.elements())
        tricks = []
        leader = hand_banker
        while hands[leader]:
            lead = self.sample_lead(ctx, hands[leader], throw_chance=0.15)
            others = [hands[(leader + k) % 4] for k in (1, 2, 3)]
            trick: dict = {"leader": leader}
            j = judge_lead(ctx, lead, others)
            if not j.value:
                trick["failed_throw"] = fmt(lead)
                lead = list(j.extra["failure"].forced)
            plays: list[list[int]] = [[] for _ in range(4)]
            plays[leader] = lead
            for k in (1, 2, 3):
                seat = (leader + k) % 4
                plays[seat] = self.sample_follow(ctx, lead, hands[seat])
            for s in range(4):
                held = Counter(hands[s])
                _take(held, plays[s])
                hands[s] = sorted(held.elements())
            leader, _ = _judge_trick(ctx, trick["leader"], plays)
            trick["plays"] = [fmt(p) for p in plays]
            tricks.append(trick)
        return {"level": level, "trump": None if trump is None else SUIT_LETTERS[trump], "banker": hand_banker,
                "first_hand": first_hand, "deal": {"hands": [fmt(h) for h in dealt], "kitty": fmt(kitty)},
                "declarations": [{"seat": s, "cards": fmt(c)} for s, c in sequence],
                "discard": fmt(discard), "tricks": tricks}

    def penalty(self) -> Iterator[dict]:
        """Faults of one hand: one to three of every kind, by either side (or both, where the ruleset names a
        consequence for it), found at once or late, with counts 0-6, lateness just at and past every step, and
        the attackers' points at every band edge or anywhere between -20 and 345."""
        from reference_impl.penalties import FAULTS, RECORDS
        rules, rng = self.rules, self.rng
        values = rules.checked.values
        both = [k for k, s in RECORDS.items() if s in values and "both_sides" in values[s]]
        points = sorted({e for b in rules.bands for e in (b.low, b.high) if e is not None} | {0})
        steps = values.get("penalty.lateness") or ()
        minutes = sorted({m for s in steps for m in (s["over"], s["over"] + 1)} | {0, 3, 20})

        def fault() -> dict:
            kind = rng.choice(FAULTS)
            if kind == "wrong_kitty":
                offender = "banker"
            elif kind in both and rng.random() < 0.3:
                offender = "both"
            else:
                offender = rng.choice(("banker", "attackers"))
            f = {"fault": kind, "offender": offender}
            if rng.random() < 0.9:
                f["count"] = rng.randrange(0, 7)
            if rng.random() < 0.6:
                f["found"] = rng.choice(("at_once", "late"))
            if kind == "lateness":
                f["minutes"] = rng.choice(minutes)
            return f

        while True:
            n = 1 if rng.random() < 0.6 else rng.randrange(2, 4)
            pts = rng.choice(points) if rng.random() < 0.6 else 5 * rng.randrange(-4, 70)
            yield {"faults": [fault() for _ in range(n)], "attackers_points": pts}


def _rank(c: int) -> str | None:
    from reference_impl.cards import rank_of
    return rank_of(c)


# --------------------------------------------------------------------------- test vectors

VECTOR_SEED = 0
VECTOR_DIR = __import__("pathlib").Path(__file__).parent / "vectors"


def vector_files(rulesets: Iterable[str] | None = None, ops: Iterable[str] | None = None) -> dict[str, str]:
    """The vector files' contents, by path relative to the vectors directory (``<ruleset>/<op>.jsonl``).

    Deterministic: the same spec and interpreter give the same bytes.
    Also ``index.json``: the files, their case counts and how they were made.
    """
    from reference_impl.rules import ruleset_names
    rulesets = list(rulesets or ruleset_names())
    files: dict[str, str] = {}
    index = {"protocol": protocol.PROTOCOL_VERSION, "seed": VECTOR_SEED, "format": "docs/protocol.md#test-vectors",
             "schema": "conformance/schemas/vector.json", "files": {}}
    for rs in rulesets:
        by_op: dict[str, list[str]] = {}
        for case in generate(rs, ops, seed=VECTOR_SEED, counts=VECTOR_COUNTS):
            by_op.setdefault(case["op"], []).append(json.dumps(case, ensure_ascii=False, separators=(",", ":")))
        for op, lines in by_op.items():
            path = f"{rs}/{op}.jsonl"
            files[path] = "\n".join(lines) + "\n"
            index["files"][path] = {"ruleset": rs, "op": op, "cases": len(lines)}
    files["index.json"] = json.dumps(index, indent=1, sort_keys=True) + "\n"
    return files


def export_vectors(directory=None) -> list[str]:
    """Write the vectors under ``directory`` (default conformance/vectors/), removing stale files."""
    from pathlib import Path
    directory = Path(directory) if directory else VECTOR_DIR
    files = vector_files()
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.glob("*/*.jsonl"):
        if str(old.relative_to(directory)) not in files:
            old.unlink()
    for rel, text in files.items():
        path = directory / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
    for d in directory.iterdir():
        if d.is_dir() and not any(d.iterdir()):
            d.rmdir()
    return sorted(files)


def vector_drift(directory=None) -> list[str]:
    """How the files under ``directory`` differ from what the spec gives now (empty: no drift)."""
    from pathlib import Path
    directory = Path(directory) if directory else VECTOR_DIR
    files = vector_files()
    problems = []
    present = {str(p.relative_to(directory)) for p in directory.glob("*/*.jsonl")}
    if (directory / "index.json").exists():
        present.add("index.json")
    for rel in sorted(set(files) | present):
        if rel not in present:
            problems.append(f"{rel}: missing")
        elif rel not in files:
            problems.append(f"{rel}: no longer produced")
        else:
            old = (directory / rel).read_text(encoding="utf-8")
            if old != files[rel]:
                problems.append(f"{rel}: {_first_difference(old, files[rel])}")
    return problems


def _first_difference(old: str, new: str) -> str:
    a, b = old.splitlines(), new.splitlines()
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            try:
                cx, cy = json.loads(x), json.loads(y)
                if cx.get("input") == cy.get("input"):
                    return f"line {i + 1} ({cy.get('id')}): the answer or clauses changed: {cx.get('expected')} -> {cy.get('expected')}"
            except (ValueError, AttributeError):
                pass
            return f"line {i + 1} differs"
    return f"{len(a)} line(s) checked in, {len(b)} now"
