"""Where to look for a question that shows a feature: curated questions, then the shared builders.

For a feature (a setting, a follow ladder, the score table) :func:`families`
names the operations whose answers it can change; :func:`candidates` yields
questions of those operations — the curated ones first (the examples a
reader expects: 5577 with 6 as level, 88999, the heart 2233 of 001 10.1 ...),
then positions drawn by the builders of :mod:`conformance.generation.positions` (the
same ones the seeded suite and Hypothesis use), for each ruleset compared in
turn, from a :class:`random.Random` seeded by the feature.
"""
from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from typing import Iterator, Sequence

from reference_impl.cards import RANKS
from reference_impl.rules import Rules

from conformance.generation.positions import OPERATIONS as BUILT, RandomDraw, Rejected, build, draw_scenario
from conformance.analysis.variants.questions import Question

SUITS = ("S", "H", "D", "C")


def Q(op: str, **inp) -> Question:
    return Question.of(op, inp)


def _c(s: str) -> list[str]:
    return s.split()


def _discards(count: int, avoid: set[str], level: str, skip: int = 0) -> list[str]:
    """``count`` low cards (3-10, not the level) of the suits not in ``avoid``, after the first ``skip``:
    plays that cannot win (2s are left out: some rulesets make them trump)."""
    pool = [r + s for r in RANKS[1:9] if r != level for s in SUITS if s not in avoid]
    return pool[skip:skip + count]


def _trick(level, trump, leader, *plays_in_turn) -> dict:
    """A whole trick from the plays in turn (the followers not given discard low cards of other suits)."""
    plays = [_c(p) for p in plays_in_turn]
    n = len(plays[0])
    avoid = {trump} | {c[-1] for p in plays for c in p if not c.startswith("J")}
    taken = 0
    while len(plays) < 4:
        plays.append(_discards(n, avoid, level, taken))
        taken += n
    by_seat: list[list[str]] = [[] for _ in range(4)]
    for k, p in enumerate(plays):
        by_seat[(leader + k) % 4] = p
    return {"level": level, "trump": trump, "leader": leader, "plays": by_seat}


def _declarations(ds) -> list[dict]:
    """``("0: 5H", "1: 5S 5S")`` -> the declarations in turn: seat and cards."""
    return [{"seat": int(d.split(":")[0]), "cards": _c(d.split(":")[1])} for d in ds]


# The first hand's declarations, written at level 5 and asked at the ruleset's own first level
# (level.start): "5" stands for the level card, "6" for a card that is not one.
FIRST_HAND_DECLARATIONS = (
    ("0: 5H", "1: 5S 5S"), ("0: 5H 2H", "1: 5S 5S 2H"), ("0: 5H", "1: J- J-"), ("0: 5H 5H", "1: J- J-"),
    ("0: 5H", "1: 5S 5S", "2: J- J-"), ("0: 5H", "1: 5S 5S", "2: 5C 5C 5C"), ("0: 5H", "0: 5H"),
    ("0: 5H", "0: 5S 5S"), ("0: 5H", "1: 5S"), ("0: 6H",))
FIRST_HAND_KITTIES = ("J- 7H 9S 3C 4D KC", "7H 9S J- 3C 4D KC")


def first_hand_questions(rules: Rules, fam: str) -> Iterator[Question]:
    """The questions of family ``fam`` ("declare", "undeclared") about the first hand, at the first level of
    ``rules`` (level.start): a first hand is never played at another level."""
    start = rules["level.start"]
    other = next(r for r in ("6", "7", "8") if r != start)
    if fam == "declare":
        for ds in FIRST_HAND_DECLARATIONS:
            ds = tuple(d.split(":")[0] + ":" + " ".join(
                start + c[1:] if c[:-1] == "5" else other + c[1:] if c[:-1] == "6" else c
                for c in d.split(":")[1].split()) for d in ds)
            yield Q("declare", level=start, first_hand=True, banker=None, declarations=_declarations(ds))
    elif fam == "undeclared":
        for k in FIRST_HAND_KITTIES:
            kitty = " ".join(start + c[-1] if c[:-1] == "9" else c for c in k.split())
            yield Q("undeclared", level=start, attackers_level=start, kitty=_c(kitty), first_hand=True)


def _kitty(level, trump, play, kitty, side) -> Question:
    """The attackers (or the banker side) win the last trick with ``play``, led by seat 1; the others discard."""
    trick = _trick(level, trump, 1, play)
    return Q("kitty", level=level, trump=trump, banker=0 if side == "attackers" else 1,
             last_trick={"leader": 1, "plays": trick["plays"]}, kitty=_c(kitty))


CURATED: dict[str, list[Question]] = {
    "classify": [Q("classify", level=lv, trump=t, cards=_c(cs)) for lv, t, cs in (
        ("6", "S", "5H 5H 7H 7H"), ("6", "S", "8H 8H 9H 9H 9H"), ("6", "S", "7H 7H 8H 8H"),
        ("6", "S", "8H 8H 8H 9H 9H 9H"), ("3", "C", "2H 2H 3H 3H"), ("5", "H", "J+ J+ J- J-"),
        ("5", "H", "J- J- 5H 5H"), ("5", "H", "5H 5H 5S 5S"), ("5", "H", "5S 5S AH AH"), ("6", "H", "AH AH 2H 2H"),
        ("5", "H", "4H 4H 6H 6H"), ("6", "S", "7H 7H 8H 8H 9H 9H"), ("6", "H", "2S 2S 2C 2C"),
        ("6", "S", "6H 6H 7H 7H"), ("5", None, "J- J- 5H 5H"), ("5", None, "5H 5H 5S 5S"))],
    "order": [Q("order", level=lv, trump=t, cards=_c(cs)) for lv, t, cs in (
        ("5", "H", "J+ J- 5H 5S 5C AH KH 2H 2S AS"), ("6", "H", "2H 2S 2C AH 6H 6S 3H"),
        ("5", None, "J+ J- 5H 5S 2H AH"))],
    "winner": [Q("winner", **_trick(lv, t, 0, *plays)) for lv, t, plays in (
        ("6", "S", ("QH QH KH KH AH AH", "8H 8H 8H 9H 9H 9H")), ("5", "H", ("5S", "5C")), ("6", "H", ("2S", "2C")),
        ("6", "H", ("2S", "2H")), ("6", "S", ("AH AH 9H 8H", "3S 3S 4S 4S")), ("6", "H", ("KH KH QH QH", "AH AH 2H 2H")),
        ("6", "S", ("AH KH KH", "9S 9S 3S", "4S 4S AS")), ("6", "S", ("5H", "10H", "KH", "3H")),
        ("5", "H", ("4H 4H 6H 6H", "J- J- 5H 5H")), ("6", "S", ("AH AH KH KH", "3S 3S 4S 4S")),
        ("6", "S", ("KH KH KH QH QH QH", "3S 3S 3S 4S 4S 4S")), ("6", "S", ("7H 7H 8H 8H", "5S 5S 5D 5D")))],
    "lead": [Q("lead", level="6", trump="S", cards=_c(cs), others=[_c(o) for o in others]) for cs, others in (
        ("KH KH AH", ("AH 3D", "QH QH", "2C")), ("AH AH 9H", ("KH", "", "")), ("QH QH AH", ("KH", "", "")),
        ("AH KH", ("", "KH", "")), ("AH AH KH KH 9H", ("10H", "", "JH")), ("AH AH 9H", ("", "KH", "")),
        ("KH KH AH", ("QH QH", "AH", "")))],
    "follow": [Q("follow", level="6", trump="S", lead=_c(lead), hand=_c(hand), play=_c(play)) for lead, hand, play in (
        ("8H 8H", "QH QH QH 3H 4H 5D", "3H 4H"), ("8H 8H 9H 9H", "JH JH 4H 3H 5H 7D", "4H 3H 5H JH"),
        ("8H 8H 9H 9H", "JH JH 4H 3H 5H 7D", "4H 3H 5H 7D"), ("8H 8H 8H", "QH QH 3H 4H", "QH 3H 4H"),
        ("7H 7H 8H 8H 9H 9H", "QH QH QH JH JH JH 3H", "QH QH QH JH JH 3H"),
        ("8H 8H 8H 9H 9H 9H", "QH QH QH JH JH 4H 4H 3H", "QH QH QH JH JH 4H"),
        ("AH AH KH", "QH QH 3H 4H", "3H 4H QH"), ("8H 8H", "QH QH JH JH 3H 4H", "QH 3H"))],
    "kitty": [_kitty("6", "S", play, "5H 10H KD 2C 4C 7C", side) for play, side in (
        ("3S", "attackers"), ("3S 3S", "attackers"), ("AH", "attackers"), ("3S 3S 3S", "attackers"),
        ("3S 3S 4S 4S", "attackers"), ("3S 3S 3S 4S 4S 4S", "attackers"), ("AH AH KH", "attackers"),
        ("3S 3S", "banker"), ("3S", "banker"), ("AH AH", "attackers"))],
    "points": [Q("points", cards=_c("5H 10S KD 3C 5C"))],
    "pack": [Q("pack")],
    "result": [Q("result", attackers_points=p) for p in (
        -10, 0, 5, 35, 40, 55, 60, 75, 80, 85, 90, 100, 115, 120, 145, 150, 155, 160, 175, 180, 195, 200, 205, 210,
        235, 240, 280, 295, 300, 330, 360, 400)],
    "advance": [Q("advance", level=lv, gain=n, as_banker=b) for lv, n, b in (
        ("J", 3, True), ("Q", 2, False), ("K", 1, True), ("Q", 3, True), ("K", 1, False), ("10", 2, True),
        ("A", 1, False), ("A", 1, True), ("2", 2, True))],
    # a later hand, at a level any later hand may be played at (the first hand's are first_hand_questions')
    "declare": [Q("declare", level="5", first_hand=False, banker=0, declarations=_declarations(ds)) for ds in (
                    ("1: 5H", "2: 5S 5S"), ("1: 5H", "3: J+ J+"), ("1: 5H", "2: 5S"), ("1: 5H", "2: 5S 5S", "1: 5H"))] + [
        Q("declare", level="5", first_hand=False, banker=0, declarations=[{"seat": s, "cards": _c(cs)}],
          wrong=[{"seat": w, "cards": _c(wc)}]) for s, cs, w, wc in ((3, "5S", 1, "6S"), (2, "5S", 1, "6S"))],
    "undeclared": [Q("undeclared", level="9", attackers_level="6", kitty=_c(k), first_hand=False) for k in (
        "J- 7H 9S 3C 4D KC", "7H 9S J- 3C 4D KC", "J- J+ J- J+ J- J+")],
    "penalty": [Q("penalty", faults=[{"fault": f, "offender": sd, "count": n, "found": found,
                                      **({"minutes": n} if f == "lateness" else {})}], attackers_points=p)
                for f, sd, n, found, p in (
        ("revoke", "attackers", 2, "at_once", 100), ("revoke", "banker", 2, "at_once", 100),
        ("wrong_count", "banker", 1, "at_once", 100), ("wrong_count", "attackers", 1, "at_once", 100),
        ("wrong_count", "banker", 1, "at_once", 150), ("wrong_count", "both", 1, "at_once", 100),
        ("played_count", "attackers", 1, "at_once", 100), ("wrong_kitty", "banker", 0, "at_once", 150),
        ("wrong_kitty", "banker", 0, "at_once", 100), ("exposed_card", "attackers", 1, "at_once", 100),
        ("wrong_declaration", "attackers", 1, "at_once", 100), ("failed_throw", "attackers", 3, "at_once", 100),
        ("looking_back", "attackers", 1, "at_once", 100), ("signals", "banker", 1, "at_once", 100),
        ("lateness", "attackers", 7, "at_once", 100), ("lateness", "attackers", 12, "at_once", 100),
        ("revoke", "banker", 2, "late", 100), ("revoke", "attackers", 2, "late", 100),
        ("failed_throw", "banker", 2, "late", 150))],
    "next_banker": [Q("next_banker", side="banker"), Q("next_banker", side="attackers")],
    "first_hand": [Q("first_hand", seed=1)],
    "timeout": [Q("timeout", levels=[a, b], banker_team=t) for a, b, t in (("9", "9", 1), ("9", "7", 1), ("J", "J", 0))],
}

# Questions that show a feature best, tried before the rest of its families.
PREFERRED: dict[str, list[Question]] = {
    "tractor.bridge_level": [Q("classify", level="6", trump="S", cards=_c("5H 5H 7H 7H"))],
    "tractor.mixed": [Q("classify", level="6", trump="S", cards=_c("8H 8H 9H 9H 9H"))],
    "tractor.min_length": [Q("classify", level="6", trump="S", cards=_c("7H 7H 8H 8H"))],
    "tractor.elements": [Q("classify", level="6", trump="S", cards=_c("8H 8H 8H 9H 9H 9H"))],
    "tractor.junctions": [Q("classify", level="5", trump="H", cards=_c(cs)) for cs in
                          ("J+ J+ J- J-", "J- J- 5H 5H", "5H 5H 5S 5S", "5S 5S AH AH")],
    "trump.equal_cards": [CURATED["winner"][1]],
    # off-suit level cards ranked by suit (H32): a lower suit's level card led, a higher one's after it; pairs of
    # neighbouring suits, which then chain
    "trump.off_suit_order": [Q("winner", **_trick("5", "H", 0, "5C", "5S")),
                             Q("classify", level="5", trump="H", cards=_c("5S 5S 5D 5D"))],
    "equipment.points": [Q("points", cards=_c("5H 10S KD 3C 5C"))],
    "level.end": [Q("advance", level="K", gain=1, as_banker=True), Q("advance", level="Q", gain=3, as_banker=True)],
    # the game won on reaching the end level (H36): a climb that lands on A, and one that would pass it
    "level.end_on": [Q("advance", level="K", gain=1, as_banker=True), Q("advance", level="Q", gain=2, as_banker=False)],
    "level.must_play": [Q("advance", level="K", gain=3, as_banker=False), Q("advance", level="Q", gain=3, as_banker=True)],
    "level.ranks": [Q("advance", level="A", gain=1, as_banker=True)],
    # attackers at a level to defend take the bank and stay (H20, H21); a climb stops at one
    "level.must_defend": [Q("advance", level="A", gain=1, as_banker=False), Q("advance", level="K", gain=1, as_banker=False),
                          Q("advance", level="4", gain=2, as_banker=True)],
    # a tractor led, a triple broken for a pair while a pair held stays in the hand (V29; three decks)
    "follow.pairs_before_triples": [Q("follow", level="J", trump="S", lead=_c("5H 5H 6H 6H"),
                                      hand=_c("3H 3H 3H 7H 7H 9H 9H 4C"), play=_c("3H 3H 7H 7H"))],
}

_UNDECLARED_KEYS = ("declare.fallback_first_hand", "declare.fallback_later", "declare.kitty_card",
                    "declare.kitty_skip_jokers", "declare.kitty_joker", "declare.smothered_banker",
                    "declare.smothered_level", "bank.first_hand_undeclared")


def families(key: str) -> list[str]:
    """Which questions can show a feature."""
    if key.startswith("follow "):
        return ["follow"]
    if key.startswith("equipment."):
        return ["points", "winner"] if key == "equipment.points" else ["pack"]
    if key in ("trump.order", "trump.fixed_ranks", "trump.named_cards", "trump.off_suit_order"):
        return ["order", "winner", "classify"]
    if key == "trump.equal_cards":
        return ["winner"]
    if key.startswith("tractor."):
        return ["classify", "winner"]
    if key.startswith(("compare.", "ruff.")):
        return ["winner"]
    if key == "throw.wins_trick":   # a throw ruffed: who wins the trick (H02)
        return ["winner"]
    if key.startswith("throw."):
        return ["lead"]
    if key.startswith("follow."):
        return ["follow"]
    if key.startswith("kitty.") and key != "kitty.exchange":
        return ["kitty"]
    if key in ("score.bands", "score.cap"):
        return ["result"]
    if key == "score.threshold":
        return ["penalty", "result"]
    if key == "throw.late":
        return ["penalty"]
    if key in ("level.ranks", "level.end", "level.must_play", "level.wrap", "level.must_defend"):
        return ["advance"]
    if key in ("level.knock_back", "score.banker_needs_last_trick"):   # seen on a whole hand (V67, V68)
        return ["hand"]
    if key in ("deal.redeal_if", "deal.redeal_at_most"):   # what a player is dealt (V82, H24)
        return ["redeal"]
    if key == "level.start":
        return ["first_hand"]
    if key in _UNDECLARED_KEYS:
        return ["undeclared"]
    if key == "declare.wrong_points":
        return ["declare", "penalty"]
    if key.startswith("declare."):
        return ["declare"]
    if key == "bank.succession":   # the side and the seat; a whole hand for the last trick's winner (H22)
        return ["next_banker", "hand"]
    if key.startswith("penalty."):
        return ["penalty"]
    if key in ("match.timeout_winner", "match.tie"):
        return ["timeout"]
    return []


@dataclass(frozen=True)
class Space:
    """The rulesets whose questions are searched together, and the feature searched for."""

    rulesets: tuple[Rules, ...]
    key: str

    @classmethod
    def of(cls, rulesets: Sequence[Rules], key: str) -> "Space":
        return cls(tuple(rulesets), key)


def _seed(*parts: str) -> int:
    return zlib.crc32("|".join(parts).encode("utf-8"))


def candidates(key: str, space: Space, n_random: int = 250) -> Iterator[Question]:
    """Questions that may show ``key``: the preferred and curated ones, then positions the builders draw."""
    fams = families(key)
    yield from PREFERRED.get(key, ())
    for fam in fams:
        for rules in space.rulesets:
            yield from first_hand_questions(rules, fam)
        yield from CURATED.get(fam, ())
    if "redeal" in fams:
        for rules in space.rulesets:
            yield from redeal_questions(rules)
    drawn = [f for f in fams if f in BUILT]
    if not drawn:
        return
    d = RandomDraw(random.Random(_seed(key, *(r.name for r in space.rulesets))))
    aimed = {r.name: _aimed(key, r) for r in space.rulesets}
    for i in range(n_random):
        op = drawn[i % len(drawn)]
        rules = space.rulesets[(i // len(drawn)) % len(space.rulesets)]
        pool = aimed[rules.name]
        try:
            sc = d.pick(pool) if pool and d.bool() else draw_scenario(d, rules, op)
            q = Question.of(sc.op, build(d, rules, sc))
        except Rejected:
            continue
        if at_its_level(q, rules):
            yield q


def at_its_level(q: Question, rules: Rules) -> bool:
    """Whether a position's first hand (if it is one) is played at the first level of ``rules``: the
    builders draw any level, which the suite wants, but an example of a rulebook shows a first hand at
    level 5 only if the rulebook starts there."""
    if q.input.get("first_hand") is not True:
        return True
    start = rules["level.start"]
    return q.input.get("level") == start and q.input.get("attackers_level", start) == start


def redeal_questions(rules: Rules) -> Iterator[Question]:
    """Hands as dealt at the start level of ``rules``: one without a point card, one without a card that is
    trump in every suit (no joker, level card or fixed trump), one with both (``deal.redeal_if``, V82)."""
    level = rules["level.start"]
    always = {level, *rules["trump.fixed_ranks"]}
    pointed = set(rules.points)

    def hand(ranks) -> list[str]:
        pool = [r + s for r in RANKS if r in ranks for s in SUITS]
        out = [c for c in pool for _ in range(rules.decks)]
        return out[:rules.hand_size]

    plain = [r for r in RANKS if r not in always]
    no_points = hand([r for r in plain if r not in pointed])
    no_trumps = hand(plain)
    rich = ["J+"] + hand(plain)[:rules.hand_size - 1]
    for cards in (no_points, no_trumps, rich):
        if len(cards) == rules.hand_size:
            yield Q("redeal", level=level, hand=cards)


def _aimed(key: str, rules: Rules) -> tuple:
    """The scenarios aimed at a follow ladder's lead unit (every rung and pair of rungs), for "follow LEAD";
    the whole hands at the jack rule's level, for level.knock_back."""
    if key == "level.knock_back" and rules.checked.values.get("level.knock_back"):
        from conformance.generation.positions.hands import hands_at
        return hands_at(rules["level.knock_back"]["level"])
    if not key.startswith("follow "):
        return ()
    from conformance.generation.positions import scenarios
    from conformance.generation.positions.scenario import unit_text
    lead = key[len("follow "):]
    return tuple(sc for sc in scenarios(rules, "follow")
                 if sc.kind in ("rung", "rungs") and unit_text(sc.args[0]) == lead)
