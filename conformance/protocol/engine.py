"""The reference engine: the interpreter answering each operation of the engine protocol.

:func:`judge` is the in-process path the runner, the case generator and
``tractor engine`` (:mod:`conformance.protocol.engine_io`, the request lines and answer
lines) share: one operation on one input to ``(result, clauses)``. Every input
is read strictly: a card, a seat or a field that is wrong is an
:class:`InputError` naming it.

Operations that need interpreter modules not written yet answer ``skipped``
and are left out of the handshake, so a runner never sends them.
"""
from __future__ import annotations

import importlib
import sys
from collections import Counter
from collections import _count_elements  # noqa: PLC2701 - the C counting loop behind Counter
from functools import lru_cache
from typing import Any

from conformance.protocol import messages as protocol
from conformance.protocol.messages import OPERATIONS, PROTOCOL_VERSION

ENGINE_NAME = "tractor-reference"

# operation -> interpreter modules it needs
NEEDS = {
    "classify": ("combos",),
    "lead": ("leading",),
    "follow": ("following",),
    "winner": ("trick",),
    "kitty": ("trick", "kitty"),
    "result": ("scoring",),
    "advance": ("levels",),
    "declare": ("declaring",),
    "undeclared": ("declaring",),
    "hand": ("trick", "leading", "kitty", "scoring"),
    "penalty": ("penalties",),
    "deal": ("hand",),
}


class InputError(ValueError):
    """A request whose input the engine cannot read (bad card, bad level, impossible cards)."""


_MODULES: dict = {}


def _interpreter(name: str):
    """The interpreter module ``reference_impl.<name>``, imported on first use (an ``import`` statement
    per request costs more than the dictionary look-up)."""
    try:
        return _MODULES[name]
    except KeyError:
        module = _MODULES[name] = importlib.import_module(f"reference_impl.{name}")
        return module


@lru_cache(maxsize=None)
def _module_ok(name: str) -> bool:
    """Whether the interpreter module ``reference_impl.<name>`` is there, found without importing it: an
    engine imports what the requests it gets need (:func:`_interpreter`), not every module at the handshake."""
    from importlib.util import find_spec
    try:
        return find_spec(f"reference_impl.{name}") is not None
    except ImportError:
        return False


def supported_operations() -> list[str]:
    return [op for op in OPERATIONS if all(_module_ok(m) for m in NEEDS[op])]


def engine_version() -> str:
    found = _installed_version()
    if found is not None:
        return found
    try:
        from importlib.metadata import version
        return version("tractor-rulebook")
    except Exception:  # not installed: running from a checkout
        return "0.0.0+checkout"


def _installed_version() -> str | None:
    """The version ``importlib.metadata`` gives, read from the one ``tractor_rulebook-*.dist-info`` of the
    first folder on ``sys.path`` that holds this distribution's metadata, or None (then importlib.metadata
    looks: it costs a tenth of an engine's start-up, in imports alone)."""
    import os
    for entry in sys.path:
        try:
            names = [n for n in os.listdir(entry or ".") if n.lower().startswith("tractor")
                     and n.lower().endswith((".dist-info", ".egg-info", ".egg"))]
        except OSError:
            continue
        if not names:
            continue
        if len(names) != 1 or not names[0].startswith("tractor_rulebook-") or not names[0].endswith(".dist-info"):
            return None
        try:
            with open(os.path.join(entry or ".", names[0], "METADATA"), encoding="utf-8") as f:
                for line in f:
                    if line.startswith("Version:"):
                        return line[len("Version:"):].strip()
                    if not line.strip():
                        return None
        except OSError:
            return None
        return None
    return None


def handshake_result() -> dict:
    from reference_impl.rules import ruleset_names
    return {"protocol": PROTOCOL_VERSION, "name": ENGINE_NAME, "version": engine_version(),
            "language": f"Python {sys.version_info.major}.{sys.version_info.minor}",
            "rulesets": sorted(set(ruleset_names()) | set(SERVED)), "operations": supported_operations()}


SERVED: dict = {}   # rulesets of users' files this engine serves (``tractor engine --rules FILE``), by name


def serve_files(paths, alias: str | None = None) -> list[str]:
    """Serve the rulesets of users' rule files, each under its own name, or the one file under ``alias``
    (``--rules mutant.tractor --as r003``: an engine that plays its own rules while it answers as r003).
    Problems in a file raise :class:`~tractor_dsl.diagnostics.SpecError`, as for the bundled rulesets."""
    from reference_impl.rules import load_file
    if alias is not None and len(paths) != 1:
        raise ValueError("--as names the ruleset of one --rules file")
    names = []
    for path in paths:
        rules = load_file(path, alongside=paths)   # a file may extend another one served (docs/protocol.md)
        name = alias or rules.name
        SERVED[name] = rules
        names.append(name)
    _known_rulesets.cache_clear()
    return names


# --------------------------------------------------------------------------- reading inputs

@lru_cache(maxsize=None)
def _tokens() -> dict[str, int]:
    from reference_impl.cards import DECK, text
    return {text(c): c for c in DECK}


def _cards(value, what: str) -> list[int]:
    if type(value) is not list:
        raise InputError(f"{what}: expected a list of card strings")
    tokens = _tokens()
    try:
        return [tokens[t] for t in value]
    except (KeyError, TypeError):
        pass
    from reference_impl.cards import CardError, parse_card
    for t in value:  # the slow path, for the message
        if not isinstance(t, str):
            raise InputError(f"{what}: expected a list of card strings, not {t!r}")
        try:
            parse_card(t)
        except CardError as e:
            raise InputError(f"{what}: {e}") from None
        if t not in tokens:
            raise InputError(f"{what}: {t!r} is not a card in canonical notation")
    raise InputError(f"{what}: cannot read the cards")


@lru_cache(maxsize=None)
def _known_rulesets() -> frozenset:
    """The names a request may give: the bundled rulesets, the house-rule catalogue's (found by name like
    every command finds them, though the handshake lists the bundled ones) and the files served."""
    from reference_impl.rules import catalogue_names, ruleset_names
    return frozenset(ruleset_names()) | frozenset(catalogue_names()) | frozenset(SERVED)


def _rules(name):
    """The ruleset a request names: one served (``--rules``), one read in this process from a user's file
    (which may bear a bundled name), or a bundled one. A request never makes the engine read a file."""
    if type(name) is str:
        if name in SERVED:
            return SERVED[name]
        rules = _interpreter("rules")
        found = rules._USER.get(name)
        if found is not None:
            return found
        if name in _known_rulesets():
            return rules._bundled(name)
    elif isinstance(name, str):  # a str subclass: the slow path, as before
        from reference_impl.rules import read_ruleset, rules_for
        if name in SERVED:
            return SERVED[name]
        if name in _known_rulesets():
            return rules_for(name)
        found = read_ruleset(name)
        if found is not None:
            return found
    raise InputError(f"unknown ruleset {name!r}")


_CONTEXTS: dict = {}  # (rules object, level, trump) -> trump context, for inputs already read once


def _ctx(rules, inp: dict):
    try:
        return _CONTEXTS[(rules, inp["level"], inp["trump"])]
    except (KeyError, TypeError):  # not seen yet, missing or unreadable: checked below
        pass
    from reference_impl.cards import CardError
    from reference_impl.trump import context
    if "level" not in inp or "trump" not in inp:
        raise InputError("the input needs a level and a trump (a suit letter or null)")
    trump = inp["trump"]
    if trump is not None and trump not in protocol.SUITS:
        raise InputError(f"trump: {trump!r} is not S, H, D, C or null")
    try:
        ctx = context(rules, inp["level"], trump)
    except CardError as e:
        raise InputError(str(e)) from None
    if len(_CONTEXTS) < 4096:
        _CONTEXTS[(rules, inp["level"], trump)] = ctx
    return ctx


def _check_copies(rules, cards: list[int], what: str) -> None:
    decks = rules.decks
    if len(cards) <= decks:  # no card can be held more often than there are cards
        return
    counts: dict[int, int] = {}
    _count_elements(counts, cards)
    if max(counts.values()) <= decks:
        return
    from reference_impl.cards import CardError, check_copies  # the message
    try:
        check_copies(cards, rules.decks, what)
    except CardError as e:
        raise InputError(str(e)) from None


def _number(value: int) -> str:
    return f"{value:,}" if abs(value) < 10 ** 30 else f"a number of {len(str(abs(value)))} digits"


def _points(rules, value, what: str) -> int:
    """Attackers' points as a hand of the ruleset can give them (see :mod:`reference_impl.domains`)."""
    from reference_impl.domains import point_step, points_bound
    if type(value) is not int:
        raise InputError(f"{what}: expected an integer")
    bound, step = points_bound(rules), point_step(rules)
    if abs(value) > bound:
        raise InputError(f"{what}: {_number(value)} points is more than any hand of {rules.name} can give "
                         f"(at most {bound:,} either way)")
    if value % step:
        raise InputError(f"{what}: {value} is not a multiple of {step}; every point card, kitty multiple and "
                         f"penalty of {rules.name} moves points in steps of {step}")
    return value


def _kitty_cards(rules, value, what: str) -> list[int]:
    """A kitty: exactly the ruleset's number of cards."""
    cards = _cards(value, what)
    if len(cards) != rules.kitty_size:
        raise InputError(f"{what}: {len(cards)} card(s), but a kitty of {rules.name} holds {rules.kitty_size}")
    return cards


def _seat(value, what: str) -> int:
    if type(value) is not int or not 0 <= value <= 3:
        raise InputError(f"{what}: expected a seat 0-3")
    return value


def _fmt(cards) -> list[str]:
    from reference_impl.cards import text
    return [text(c) for c in cards]


SUIT_OUT = ("S", "H", "D", "C", "trump")


# --------------------------------------------------------------------------- operations

def _classify(rules, inp):
    from reference_impl.combos import classify
    ctx = _ctx(rules, inp)
    cards = _cards(inp.get("cards"), "cards")
    _check_copies(rules, cards, "the cards")
    combo = classify(ctx, cards)
    comps = [{"kind": c.kind, "size": c.size, "length": c.length, "cards": _fmt(c.cards)} for c in combo.components]
    suit = None if combo.suit is None else SUIT_OUT[combo.suit]
    clauses = [rules.clause("trump.order"), rules.clause("trump.fixed_ranks")]
    if combo.kind in ("tractor", "throw"):
        clauses += [rules.clause("tractor.elements"), rules.clause("tractor.min_length"), *ctx.adjacency_clauses()]
    if combo.kind == "throw":
        clauses.append(rules.clause("throw.split"))
    return {"kind": combo.kind, "suit": suit, "components": comps}, tuple(dict.fromkeys(clauses))


def _lead(rules, inp):
    from reference_impl.leading import judge_lead
    ctx = _ctx(rules, inp)
    cards = _cards(inp.get("cards"), "cards")
    others_in = inp.get("others")
    if not isinstance(others_in, list) or len(others_in) != 3:
        raise InputError("others: expected the three other hands")
    others = [_cards(h, f"others[{i}]") for i, h in enumerate(others_in)]
    held = cards
    if "hand" in inp:  # optional: the leader's whole hand, which must hold the lead
        held = _cards(inp["hand"], "hand")
        if Counter(cards) - Counter(held):
            raise InputError("hand: the leader's hand does not hold every card of the lead")
    _check_copies(rules, held + [c for h in others for c in h], "the four hands")
    j = judge_lead(ctx, cards, others)
    out = {"legal": bool(j.value), "reason": j.reason}
    combo = j.extra.get("combo")
    if combo is not None and combo.kind not in ("mixed", "empty"):
        out["shape"] = combo.shape()  # informative: what the lead is
    if "failure" in j.extra:
        f = j.extra["failure"]
        out["failure"] = {"blocked": _fmt(f.blocked), "penalty": f.penalty, "forced": _fmt(f.forced)}
    return out, j.clauses


def _follow(rules, inp):
    following = _interpreter("following")
    ctx = _ctx(rules, inp)
    lead = _cards(inp.get("lead"), "lead")
    hand = _cards(inp.get("hand"), "hand")
    play = _cards(inp.get("play"), "play")
    held: dict[int, int] = {}
    _count_elements(held, hand)
    both = dict(held)
    _count_elements(both, lead)
    if both and max(both.values()) > rules.decks:
        _check_copies(rules, lead + hand, "the lead and the hand")  # raises, with the message
    if not lead:
        raise InputError("lead: a lead has at least one card")
    # judge_follow, with the hand counted once
    j = following.judge_follow_combo(ctx, _interpreter("combos").classify(ctx, lead), held, play)
    out = {"legal": bool(j.value), "reason": j.reason}
    if j.extra.get("required"):
        out["required"] = list(j.extra["required"])  # informative: the follow-order rungs that applied
    return out, j.clauses


def _trick(rules, ctx, trick: Any, what: str):
    """(leader, plays by seat) of a trick object, checked."""
    if not isinstance(trick, dict):
        raise InputError(f"{what}: expected an object with leader and plays")
    leader = _seat(trick.get("leader"), f"{what}.leader")
    plays_in = trick.get("plays")
    if not isinstance(plays_in, list) or len(plays_in) != 4:
        raise InputError(f"{what}.plays: expected four plays, indexed by seat")
    plays = [_cards(p, f"{what}.plays[{i}]") for i, p in enumerate(plays_in)]
    if not plays[leader]:
        raise InputError(f"{what}: the leader's play is empty")
    if any(len(p) != len(plays[leader]) for p in plays):
        raise InputError(f"{what}.plays: every play of a trick has as many cards as the lead")
    from reference_impl.combos import classify
    if classify(ctx, plays[leader]).kind == "mixed":
        raise InputError(f"{what}: the lead {' '.join(_fmt(plays[leader]))} is not of one suit "
                         "(trump counts as one suit)")
    return leader, plays


def _judge_trick(ctx, leader: int, plays: list[list[int]]):
    from reference_impl.trick import judge_trick
    order = [(leader + k) % 4 for k in range(4)]
    j = judge_trick(ctx, [plays[s] for s in order])
    return order[j.value], j


def _winner(rules, inp):
    ctx = _ctx(rules, inp)
    leader, plays = _trick(rules, ctx, inp, "input")
    _check_copies(rules, [c for p in plays for c in p], "the trick")
    seat, j = _judge_trick(ctx, leader, plays)
    return {"winner": seat, "points": j.extra["points"]}, j.clauses


def _kitty(rules, inp):
    from reference_impl.kitty import judge_kitty
    ctx = _ctx(rules, inp)
    banker = _seat(inp.get("banker"), "banker")
    leader, plays = _trick(rules, ctx, inp.get("last_trick"), "last_trick")
    kitty = _kitty_cards(rules, inp.get("kitty"), "kitty")
    _check_copies(rules, kitty + [c for p in plays for c in p], "the last trick and the kitty")
    seat, t = _judge_trick(ctx, leader, plays)
    side = "banker" if seat % 2 == banker % 2 else "attackers"
    j = judge_kitty(ctx, plays[seat], side, kitty)
    # informative: who won the last trick, the kitty's own points and the multiplier applied
    return ({"points": j.value, "winner": seat, "side": side, "kitty_points": j.extra["kitty_points"],
             "multiplier": j.extra["multiplier"] if j.extra.get("captured") else 0},
            tuple(dict.fromkeys(t.clauses + j.clauses)))


def _result(rules, inp):
    from reference_impl.scoring import judge_result
    points = _points(rules, inp.get("attackers_points"), "attackers_points")
    try:
        j = judge_result(rules, points)
    except ValueError as e:
        raise InputError(str(e)) from None
    out = {"next_banker": j.value.next_banker, "levels": j.value.levels}
    if j.value.rebid:
        out["rebid"] = True  # informative: the hand is void and both sides bid again
    return out, j.clauses


def _advance(rules, inp):
    from reference_impl.levels import advance
    level, gain, as_banker = inp.get("level"), inp.get("gain"), inp.get("as_banker")
    if type(gain) is not int or type(as_banker) is not bool or not isinstance(level, str):
        raise InputError("expected level (a rank), gain (an integer) and as_banker (a boolean)")
    try:
        j = advance(rules, level, gain, as_banker)
    except ValueError as e:
        raise InputError(str(e)) from None
    return {"level": j.value.level, "won": j.value.won}, j.clauses


def _suit_out(trump) -> str | None:
    """A trump from the interpreter (index, letter, name, 'no_trump' or None) as a protocol suit."""
    if trump is None or trump in ("no_trump", "none"):
        return None
    if isinstance(trump, int):
        return protocol.SUITS[trump]
    if trump in protocol.SUITS:
        return trump
    names = ("spades", "hearts", "diamonds", "clubs")
    if trump in names:
        return protocol.SUITS[names.index(trump)]
    raise InputError(f"cannot express trump {trump!r}")


def _declare(rules, inp):
    from reference_impl.declaring import judge_declarations
    level = inp.get("level")
    first_hand = inp.get("first_hand")
    kitty_taken = inp.get("kitty_taken", False)
    if type(first_hand) is not bool or type(kitty_taken) is not bool or level not in protocol.RANKS:
        raise InputError("expected level (a rank), first_hand and kitty_taken (booleans)")
    decls = inp.get("declarations")
    if not isinstance(decls, list) or not decls:
        raise InputError("declarations: expected a non-empty list")
    sequence = []
    for i, d in enumerate(decls):
        if not isinstance(d, dict):
            raise InputError(f"declarations[{i}]: expected an object with seat and cards")
        sequence.append((_seat(d.get("seat"), f"declarations[{i}].seat"),
                         _cards(d.get("cards"), f"declarations[{i}].cards")))
    banker = inp.get("banker")
    if banker is not None:
        banker = _seat(banker, "banker")
    wrong_in = inp.get("wrong", [])
    if not isinstance(wrong_in, list):
        raise InputError("wrong: expected a list of declarations")
    wrong = []
    for i, d in enumerate(wrong_in):
        if not isinstance(d, dict):
            raise InputError(f"wrong[{i}]: expected an object with seat and cards")
        wrong.append((_seat(d.get("seat"), f"wrong[{i}].seat"), _cards(d.get("cards"), f"wrong[{i}].cards")))
    try:
        j = judge_declarations(rules, level, sequence, first_hand, kitty_taken=kitty_taken, banker=banker,
                               wrong=wrong)
    except ValueError as e:
        raise InputError(str(e)) from None
    index = j.extra.get("index")
    if index is not None and index != len(sequence) - 1:
        raise InputError(f"declarations[{index}] is refused ({j.reason}); only the last may be")
    v = j.value
    out = {"legal": bool(v.legal), "reason": j.reason, "trump": _suit_out(v.trump), "declarer": v.declarer,
           "banker": v.banker}
    if j.extra.get("penalty_points"):
        out["penalty"] = j.extra["penalty_points"]  # informative: points a wrong declaration costs
    return out, j.clauses


def _undeclared(rules, inp):
    from reference_impl.declaring import judge_undeclared
    level, attackers_level = inp.get("level"), inp.get("attackers_level", inp.get("level"))
    first_hand = inp.get("first_hand")
    if type(first_hand) is not bool or level not in protocol.RANKS or attackers_level not in protocol.RANKS:
        raise InputError("expected level, attackers_level (ranks) and first_hand (a boolean)")
    kitty = _kitty_cards(rules, inp.get("kitty"), "kitty")
    _check_copies(rules, kitty, "the kitty")
    try:
        j = judge_undeclared(rules, kitty, first_hand, level, attackers_level)
    except ValueError as e:
        raise InputError(str(e)) from None
    v = j.value
    out = {"redeal": bool(v.redeal), "trump": None if v.redeal else _suit_out(v.trump),
           "banker_side": v.banker_side, "level": v.level}
    if v.kitty_index is not None:
        out["kitty_index"] = v.kitty_index  # informative: the kitty card (from 0) that named trump
    if v.first_hand_banker:
        out["first_hand_banker"] = v.first_hand_banker
    return out, j.clauses


def replay_hand(rules, transcript: dict) -> tuple[dict, tuple[str, ...]]:
    """Score a whole hand from its transcript: trick points, failed throws, kitty, result."""
    from reference_impl.kitty import judge_kitty
    from reference_impl.leading import judge_lead
    from reference_impl.scoring import judge_result
    if not isinstance(transcript, dict):
        raise InputError("transcript: expected an object")
    ctx = _ctx(rules, transcript)
    banker = _seat(transcript.get("banker"), "transcript.banker")
    deal = transcript.get("deal")
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list) or len(deal["hands"]) != 4:
        raise InputError("transcript.deal: expected four hands and a kitty")
    hands = [Counter(_cards(h, f"deal.hands[{i}]")) for i, h in enumerate(deal["hands"])]
    kitty = _kitty_cards(rules, deal.get("kitty"), "deal.kitty")
    _check_copies(rules, [c for h in hands for c in h.elements()] + kitty, "the deal")
    hands[banker].update(kitty)
    discard = _kitty_cards(rules, transcript.get("discard", deal.get("kitty")), "transcript.discard")
    if "discard" in transcript and not rules["kitty.exchange"] and Counter(discard) != Counter(kitty):
        raise InputError("transcript.discard: the banker exchanges no kitty in this ruleset (kitty.exchange), "
                         "so the kitty stays as dealt")
    _take(hands[banker], discard, "the banker's discard")
    tricks = transcript.get("tricks")
    early = transcript.get("ended_early")
    if not isinstance(tricks, list) or (not tricks and early is None):
        raise InputError("transcript.tricks: expected the tricks of the hand")
    banker_team = banker % 2
    clauses: list[str] = []
    trick_points = penalty = 0
    seat = None
    plays: list[list[int]] = []
    for i, t in enumerate(tricks):
        leader, plays = _trick(rules, ctx, t, f"tricks[{i}]")
        if "failed_throw" in t:
            attempted = _cards(t["failed_throw"], f"tricks[{i}].failed_throw")
            _held(hands[leader], attempted, f"tricks[{i}].failed_throw")
            others = [list(hands[(leader + k) % 4].elements()) for k in (1, 2, 3)]
            j = judge_lead(ctx, attempted, others)
            if j.value or "failure" not in j.extra:
                raise InputError(f"tricks[{i}]: the failed throw is not a failed throw ({j.reason})")
            clauses += j.clauses
            sign = -1 if leader % 2 != banker_team else 1
            penalty += sign * j.extra["failure"].penalty
        for s in range(4):
            _take(hands[s], plays[s], f"tricks[{i}].plays[{s}]")
        seat, j = _judge_trick(ctx, leader, plays)
        clauses += j.clauses
        if seat % 2 != banker_team:
            trick_points += j.extra["points"]
    if early is not None:   # the hand ended on a fault before its last trick
        return _ended_early(rules, early, banker, trick_points + penalty, len(tricks), clauses)
    side = "banker" if seat % 2 == banker_team else "attackers"
    left = [s for s in range(4) if sum(hands[s].values())]
    if left:
        raise InputError(f"transcript.tricks: seat {left[0]} still holds {sum(hands[left[0]].values())} card(s) "
                         "after the last trick: a transcript is a whole hand, played to its last card")
    if Counter(discard) != Counter(kitty):   # the kitty scored is the one the banker buried, not the dealt one
        clauses.append(rules.clause("kitty.exchange"))
    k = judge_kitty(ctx, plays[seat], side, discard)
    total = trick_points + penalty + k.value
    r = judge_result(rules, total)
    clauses += k.clauses + r.clauses
    from reference_impl.rules import Trace
    from reference_impl.scoring import knock_back, last_trick_rule
    extra = Trace()
    result = last_trick_rule(rules, r.value, side == "banker", extra)   # score.banker_needs_last_trick (V68)
    back = knock_back(rules, ctx.level, plays[seat], side, extra, total)  # level.knock_back (V67, H23)
    clauses += extra.ids
    out = {"attackers_points": total, "next_banker": result.next_banker, "levels": result.levels,
           "next_banker_seat": next_banker_seat(rules, banker, result.next_banker, seat)}
    clauses.append(rules.clause("bank.succession"))
    if back is not None:  # informative: the level the banker's team goes back to
        out["knocked_back"] = back
    return out, tuple(dict.fromkeys(clauses))


def next_banker_seat(rules, banker: int, side: str | None, last_winner: int | None = None) -> int | None:
    """The seat that banks the next hand (``bank.succession``; ``last_winner`` won the last trick); None when
    nobody banks by this hand."""
    from reference_impl.game import next_banker
    return None if side is None else next_banker(rules, banker, side, last_winner)


def _ended_early(rules, early, banker: int, points: int, played: int, clauses: list[str]):
    """A hand that a fault ended before its last trick (``ended_early``: the fault, the seat that committed
    it, in the trick after the ``played`` tricks given): its result is the fault's consequence (its ruleset
    must end the hand on it, e.g. 001:12.1 藏牌, penalty.revoke ends_hand), from the trick points so far."""
    from reference_impl.penalties import FAULTS, FOUND, Fault, judge_penalties
    if not isinstance(early, dict):
        raise InputError("transcript.ended_early: expected an object {fault, seat, count, found}")
    kind, count, found = early.get("fault"), early.get("count", 0), early.get("found", "at_once")
    if kind not in FAULTS:
        raise InputError(f"transcript.ended_early.fault: {kind!r} is not one of {', '.join(FAULTS)}")
    seat = _seat(early.get("seat"), "transcript.ended_early.seat")
    if type(count) is not int or count < 0:
        raise InputError("transcript.ended_early.count: expected a whole number, 0 or more")
    if found not in FOUND:
        raise InputError(f"transcript.ended_early.found: expected one of {', '.join(FOUND)}")
    offender = "banker" if seat % 2 == banker % 2 else "attackers"
    try:
        j = judge_penalties(rules, [Fault(kind, offender, count, found)], points)
    except ValueError as e:
        raise InputError(str(e)) from None
    v = j.value
    if not v.ends_hand:
        raise InputError(f"transcript.ended_early: in {rules.name} a {kind} does not end the hand "
                         f"({', '.join(j.clauses)}): the transcript goes on to the last card")
    out = {"attackers_points": points + v.points, "next_banker": v.result.next_banker, "levels": v.result.levels,
           "next_banker_seat": next_banker_seat(rules, banker, v.result.next_banker),
           "ended": {"fault": kind, "seat": seat, "trick": played, "consequence": v.consequence,
                     "clauses": list(j.clauses)}}
    return out, tuple(dict.fromkeys(clauses + list(j.clauses) + [rules.clause("bank.succession")]))


def _held(counts: Counter, cards: list[int], what: str) -> Counter:
    """The cards as a multiset, checked to be in ``counts`` (so never more copies than the decks)."""
    need = Counter(cards)
    if any(counts[c] < n for c, n in need.items()):
        raise InputError(f"{what}: plays cards that are not held")
    return need


def _take(counts: Counter, cards: list[int], what: str) -> None:
    counts.subtract(_held(counts, cards, what))


def _hand(rules, inp):
    return replay_hand(rules, inp.get("transcript"))


def _penalty(rules, inp):
    from reference_impl.penalties import FAULTS, FOUND, OFFENDERS, Fault, judge_penalties
    faults_in, points = inp.get("faults"), inp.get("attackers_points")
    if not isinstance(faults_in, list) or not faults_in:
        raise InputError("faults: expected a non-empty list of faults")
    points = _points(rules, points, "attackers_points")
    from reference_impl.domains import deck_cards
    deck = deck_cards(rules)
    faults = []
    for i, f in enumerate(faults_in):
        if not isinstance(f, dict):
            raise InputError(f"faults[{i}]: expected an object with fault and offender")
        kind, offender = f.get("fault"), f.get("offender")
        count, found, minutes = f.get("count", 0), f.get("found", "at_once"), f.get("minutes")
        if kind not in FAULTS:
            raise InputError(f"faults[{i}].fault: {kind!r} is not one of {', '.join(FAULTS)}")
        if offender not in OFFENDERS:
            raise InputError(f"faults[{i}].offender: expected one of {', '.join(OFFENDERS)}")
        if type(count) is not int or count < 0:
            raise InputError(f"faults[{i}].count: expected a whole number, 0 or more")
        if count > deck:
            raise InputError(f"faults[{i}].count: {_number(count)} is more than the {deck} cards of "
                             f"{rules.name}'s deck (a fault counts cards, or times, of one hand)")
        if found not in FOUND:
            raise InputError(f"faults[{i}].found: expected one of {', '.join(FOUND)}")
        if minutes is not None and (type(minutes) is not int or minutes < 0):
            raise InputError(f"faults[{i}].minutes: expected a whole number, 0 or more")
        blocked = f.get("blocked")
        if blocked is not None and blocked not in ("single", "pair", "triple", "tractor"):
            raise InputError(f"faults[{i}].blocked: expected one of single, pair, triple, tractor")
        faults.append(Fault(kind, offender, count, found, minutes, blocked))
    try:
        j = judge_penalties(rules, faults, points)
    except ValueError as e:
        raise InputError(str(e)) from None
    v = j.value
    return ({"points": v.points, "ends_hand": v.ends_hand, "consequence": v.consequence,
             "next_banker": v.result.next_banker, "levels": v.result.levels}, j.clauses)


def _deal(rules, inp):
    """Is this a proper deal of the ruleset (its pack, its hand and kitty sizes), and must it be dealt again
    (``deal.redeal_if``)? A deal that is not proper is an answer (``proper`` false), not an error; cards that
    are no cards, or not four hands, are."""
    from reference_impl.hand import judge_deal
    level = inp.get("level")
    if level not in protocol.LEVELS or level not in rules["level.ranks"]:
        raise InputError(f"level: expected one of the levels of {rules.name} "
                         f"({', '.join(rules['level.ranks'])}), not {level!r}")
    hands_in = inp.get("hands")
    if not isinstance(hands_in, list) or len(hands_in) != 4:
        raise InputError("hands: expected the four hands as dealt, indexed by seat")
    hands = [_cards(h, f"hands[{i}]") for i, h in enumerate(hands_in)]
    if "kitty" not in inp:
        raise InputError("kitty: expected the kitty as dealt (a list of card strings)")
    kitty = _cards(inp.get("kitty"), "kitty")
    banker = inp.get("banker")
    if banker is not None:
        banker = _seat(banker, "banker")
    j = judge_deal(rules, level, hands, kitty)
    proper, redeal = j.value
    out = {"proper": proper, "redeal": redeal, "reason": j.reason}   # reason, detail: informative
    # who takes up and buries the kitty: the banker where the kitty is exchanged (kitty.exchange), not known
    # before the first hand's declarations (banker absent), nobody on a redeal or where it stays as dealt
    out["buries"] = banker if proper and not redeal and rules["kitty.exchange"] else None
    buried = banker is not None and proper and not redeal
    clauses = tuple(dict.fromkeys(j.clauses + ((rules.clause("kitty.exchange"),) if buried else ())))
    if j.detail:
        out["detail"] = j.detail
    return out, clauses


HANDLERS = {"classify": _classify, "lead": _lead, "follow": _follow, "winner": _winner, "kitty": _kitty,
            "result": _result, "advance": _advance, "declare": _declare, "undeclared": _undeclared, "hand": _hand,
            "penalty": _penalty, "deal": _deal}


def judge(op: str, ruleset: str, inp: dict) -> tuple[dict, tuple[str, ...]]:
    """One operation in-process: the result (as the protocol sends it) and the deciding clauses."""
    if not isinstance(inp, dict):
        raise InputError("input: expected an object")
    return HANDLERS[op](_rules(ruleset), inp)
