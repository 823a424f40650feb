"""Questions to the interpreter, in the protocol's own vocabulary, and their answers.

A :class:`Question` is an operation and its input: one of the protocol's
operations (``classify``, ``lead``, ``follow``, ``winner``, ``kitty``,
``result``, ``advance``, ``declare``, ``undeclared``, ``hand``, ``penalty``,
``deal``) with exactly the input a request carries — or one of the few
questions only the rulebook asks (:data:`DOC_OPS`: how cards rank, how many
points cards hold, how the pack is dealt (``pack``: the protocol's ``deal``
judges one deal), whether a hand as dealt is dealt again, what a setting is, who
banks next, who wins at time, where a game starts). :func:`ask` answers it under a ruleset: the
result, the deciding clauses, and whether two answers are the same
(:attr:`Outcome.answer`, the compared fields of the protocol).
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

from reference_impl.cards import CardError, check_copies, full_pack, parse_cards, text
from reference_impl.rules import Rules
from reference_impl.trick import points_of
from reference_impl.trump import TRUMP, context

from conformance.protocol import messages as protocol
from conformance.protocol.engine import HANDLERS, InputError
from conformance.generation.features import features, value_text


@dataclass(frozen=True)
class Question:
    """An operation and its input (kept as canonical JSON, so questions hash and compare by content)."""

    op: str
    input_json: str

    @classmethod
    def of(cls, op: str, inp: dict | None = None) -> "Question":
        return cls(op, json.dumps(inp or {}, sort_keys=True, ensure_ascii=False, separators=(",", ":")))

    @property
    def input(self) -> dict:
        return json.loads(self.input_json)

    @property
    def kind(self) -> str:
        return self.op

    def to_dict(self) -> dict:
        return {"op": self.op, "input": self.input}

    @classmethod
    def from_dict(cls, d: dict) -> "Question":
        return cls.of(d["op"], d.get("input") or {})


class InvalidQuestion(ValueError):
    """A question that cannot arise under a ruleset (a fixed rank as level, too many copies, ...)."""


@dataclass(frozen=True)
class Outcome:
    """The interpreter's answer: the result (as the protocol sends it) and the clauses that decided it."""

    op: str
    result: dict
    clauses: tuple[str, ...]

    @property
    def answer(self) -> str:
        """What two answers are compared by: the protocol's compared fields (all of a docs-only result)."""
        fields = protocol.normalize(self.op, self.result) if self.op in protocol.COMPARED else self.result
        return json.dumps(fields, sort_keys=True, ensure_ascii=False)

    # how an outcome reads (in English and Chinese) is render's: answer_parts, answer_text, outcome_dict


IMPOSSIBLE = "impossible"


def ask(rules: Rules, q: Question) -> Outcome:
    """The answer to ``q`` under ``rules``. Raises :class:`InvalidQuestion`."""
    handler = HANDLERS.get(q.op) or DOC_OPS.get(q.op)
    if handler is None:
        raise InvalidQuestion(f"unknown question '{q.op}'")
    try:
        result, clauses = handler(rules, q.input)
    except (InputError, CardError, ValueError) as e:
        raise InvalidQuestion(str(e)) from None
    return Outcome(q.op, result, tuple(dict.fromkeys(clauses)))  # each clause once, in the order consulted


def try_ask(rules: Rules, q: Question, lenient: bool = False) -> Outcome | None:
    """The answer, or None when the question cannot arise under ``rules``.

    ``lenient`` also swallows any error, for counterfactual rules (one feature
    changed) that may be inconsistent in ways no checked ruleset is.
    """
    try:
        return ask(rules, q)
    except (InvalidQuestion, KeyError):
        return None
    except Exception:
        if lenient:
            return None
        raise


def outcome_or_impossible(rules: Rules, q: Question) -> Outcome | None:
    """The answer; for a question the ruleset cannot reach for want of cards, an answer saying so."""
    try:
        return ask(rules, q)
    except InvalidQuestion as e:
        if "deck(s) have only" not in str(e) and "copies" not in str(e):
            return None
        return Outcome(IMPOSSIBLE, {"impossible": rules.decks}, (rules.clause("equipment.decks"),))
    except KeyError:
        return None


# --------------------------------------------------------------------------- questions only the rulebook asks

def _cards(inp: dict, key: str = "cards") -> list[int]:
    return parse_cards(" ".join(inp.get(key) or []))


def _order(rules: Rules, inp: dict):
    """How the cards rank: trump high to low with equal cards marked, then the rest."""
    level = inp["level"]
    if level in rules["trump.fixed_ranks"]:
        raise InputError(f"{level} is a fixed trump rank in {rules.name}, not a level")
    ctx = context(rules, level, inp.get("trump"))
    cards = _cards(inp)
    check_copies(cards, rules.decks)
    trumps = sorted({c for c in cards if ctx.suit[c] == TRUMP}, key=lambda c: -ctx.key[c])
    ranked: list[list[str]] = []
    for c in trumps:
        if ranked and ctx.key[c] == ctx.key[parse_cards(ranked[-1][0])[0]]:
            ranked[-1].append(text(c))
        else:
            ranked.append([text(c)])
    side = [text(c) for c in sorted({c for c in cards if ctx.suit[c] != TRUMP}, key=lambda c: (ctx.suit[c], -ctx.key[c]))]
    return {"trump": ranked, "side": side}, ctx.order_clauses()


def _points(rules: Rules, inp: dict):
    cards = _cards(inp)
    check_copies(cards, rules.decks)
    return {"points": points_of(rules, cards)}, (rules.clause("equipment.points"),)


def _pack(rules: Rules, inp: dict):
    players = rules["equipment.players"]
    clauses = tuple(dict.fromkeys(rules.clause(k) for k in ("equipment.decks", "equipment.players",
                                                             "equipment.hand_size", "equipment.kitty_size",
                                                             "equipment.points")))
    return ({"players": players, "hand": rules.hand_size, "kitty": rules.kitty_size, "decks": rules.decks,
             "points": points_of(rules, full_pack(rules.decks))}, clauses)


def _value(rules: Rules, inp: dict):
    """The value of one or more settings (``keys``)."""
    rs = rules.checked
    values, clauses = {}, []
    table = None
    for key in inp.get("keys") or []:
        if key.startswith("follow ") or key == "score.bands":
            table = table or features(rs)
            feat = table.get(key)
            values[key] = feat.text if feat else "none"
            clause = feat.clause if feat else None
        else:
            if key not in rs.values:
                raise InputError(f"{rules.name} does not set {key}")
            values[key] = value_text(rs.values[key])
            clause = rs.origins[key].clause.id if key in rs.origins else None
        if clause and clause not in clauses:
            clauses.append(clause)
    return {"values": values}, tuple(clauses)


def _next_banker(rules: Rules, inp: dict):
    from reference_impl.game import next_banker
    return {"seat": next_banker(rules, 0, inp["side"])}, (rules.clause("bank.succession"),)


def _timeout(rules: Rules, inp: dict):
    from reference_impl.levels import timeout_winner
    team = f"team {inp['banker_team']}"
    j = timeout_winner(rules, {"team 0": inp["levels"][0], "team 1": inp["levels"][1]}, team, team)
    return {"winner": j.value}, j.clauses


def _first_hand(rules: Rules, inp: dict):
    from reference_impl.game import play_game
    g = play_game(rules, inp.get("seed", 0), max_hands=1)
    level = g.hands[0].level if g.hands else None
    return {"start": g.levels[0][0], "level": level}, (rules.clause("level.start"),)


def _redeal(rules: Rules, inp: dict):
    """Whether the cards are dealt again for what one player was dealt (``deal.redeal_if``, V82): ``hand``, the
    cards he holds after the deal, at ``level``."""
    from reference_impl.hand import redeal_for_contents
    hand = _cards(inp, "hand")
    check_copies(hand, rules.decks)
    if len(hand) != rules.hand_size:
        raise InputError(f"a hand as dealt holds {rules.hand_size} cards in {rules.name}, not {len(hand)}")
    trace: list[str] = []
    redeal = redeal_for_contents(rules, inp["level"], [hand], trace)
    return {"redeal": redeal}, (rules.clause("equipment.hand_size"), *trace)


DOC_OPS: dict[str, Callable[[Rules, dict], tuple[dict, tuple]]] = {
    "order": _order, "points": _points, "pack": _pack, "value": _value, "next_banker": _next_banker,
    "timeout": _timeout, "first_hand": _first_hand, "redeal": _redeal,
}


def cards_of(q: Question) -> list[list[int]]:
    """Every card list a question holds, for copy checks."""
    inp = q.input
    out = []
    for key in ("cards", "lead", "hand", "play", "kitty"):
        if isinstance(inp.get(key), list):
            out.append(parse_cards(" ".join(inp[key])))
    for h in inp.get("others") or []:
        out.append(parse_cards(" ".join(h)))
    for p in inp.get("plays") or (inp.get("last_trick") or {}).get("plays") or []:
        out.append(parse_cards(" ".join(p)))
    return out


def copies(q: Question) -> int:
    """The most copies of one card the question needs."""
    total: Counter = Counter()
    inp = q.input
    if q.op == "follow":
        total = Counter(parse_cards(" ".join(inp["lead"]))) + Counter(parse_cards(" ".join(inp["hand"])))
    else:
        for cards in cards_of(q):
            total.update(cards)
    return max(total.values(), default=0)
