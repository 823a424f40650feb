"""The shape of a position, as clustering reads it: the lead's kind and suit, ties, ruffs, voids, holdings.

A cluster's signature is the shape its cases have in common (:func:`common_shape`); naming and shrinking
keep what every case has (:func:`every_part`). Its own module so that clustering, naming and shrinking
read it without importing one another.
"""
from __future__ import annotations

from collections import Counter


def _cls(rules, inp: dict, cards) -> tuple[str, str]:
    from conformance.generation.decisions import answer
    got = answer(rules, "classify", {"level": inp.get("level"), "trump": inp.get("trump"), "cards": list(cards)})
    if "error" in got:
        return "?", "?"
    return got.get("kind", "?"), "trump" if got.get("suit") == "trump" else "side"


def _holding(rules, inp: dict, cards) -> str:
    level = inp.get("level")
    if cards and all(c in ("J+", "J-") for c in cards):
        return "jokers only"
    if cards and all(c[:-1] == level for c in cards if c not in ("J+", "J-")) and \
            any(c not in ("J+", "J-") for c in cards):
        return "level cards" + ("" if all(c not in ("J+", "J-") for c in cards) else " and jokers")
    return ""


def signature(rules, op: str, inp: dict) -> str:
    """The shape of a position, as clustering reads it."""
    return ", ".join(shape(rules, op, inp)) or op


def shape(rules, op: str, inp: dict) -> list[str]:
    """The parts of a position's shape: the lead's kind and suit, ties, ruffs, voids, holdings."""
    parts: list[str] = []
    try:
        if op in ("classify", "lead"):
            kind, suit = _cls(rules, inp, inp["cards"])
            parts.append(f"{kind} of {suit}")
            h = _holding(rules, inp, inp["cards"])
            if h:
                parts.append(h)
        elif op == "follow":
            kind, suit = _cls(rules, inp, inp["lead"])
            parts.append(f"{kind} of {suit} led")
            same = _same_suit(rules, inp, inp["hand"], inp["lead"])
            parts.append("void in the suit led" if same == 0 else
                         "short in the suit led" if same < len(inp["lead"]) else "holding the suit led")
            h = _holding(rules, inp, inp["lead"])
            if h:
                parts.append(f"lead of {h}")
        elif op in ("winner", "kitty"):
            trick = inp if op == "winner" else inp["last_trick"]
            plays = trick["plays"]
            lead = plays[trick["leader"]]
            kind, suit = _cls(rules, inp, lead)
            parts.append(f"{kind} of {suit} led")
            keys = [tuple(sorted(p)) for p in plays]
            parts.append("equal plays" if len(set(keys)) < len(keys) else "no equal plays")
            ruffs = sum(1 for i, p in enumerate(plays) if i != trick["leader"]
                        and suit == "side" and _cls(rules, inp, p)[1] == "trump")
            parts.append("ruffed" if ruffs else "not ruffed")
            h = _holding(rules, inp, lead)
            if h:
                parts.append(f"lead of {h}")
            if op == "kitty":
                parts.append("points in the kitty" if any(c[:-1] in ("5", "10", "K") for c in inp["kitty"])
                             else "no points in the kitty")
        elif op == "declare":
            decl = inp.get("declarations", [])
            parts.append(f"{len(decl)} declaration(s)")
            seats = [d.get("seat") for d in decl]
            parts.append("a seat declares twice" if len(seats) != len(set(seats)) else "each seat once")
        elif op == "result":
            parts.append("attackers below 0" if inp["attackers_points"] < 0 else "attackers at 0 or more")
        elif op == "penalty":
            parts.append(" + ".join(sorted({f.get("fault", "?") for f in inp.get("faults", [])})))
        elif op == "advance":
            parts.append("as banker" if inp.get("as_banker") else "as attackers")
    except (KeyError, TypeError, IndexError, AttributeError):
        parts.append("unusual position")
    return parts


def common_shape(shapes: list[list[str]]) -> str:
    """What every position of a cluster has in common (``in every case``), then what most have."""
    n = len(shapes)
    counts = Counter(p for sh in shapes for p in set(sh))
    every = [p for p, k in counts.most_common() if k == n]
    most = [f"{p} ({k} of {n})" for p, k in counts.most_common() if n > 1 and 0.6 * n <= k < n]
    return "; ".join(x for x in (", ".join(every) + (" in every case" if every and n > 1 else ""),
                                 ", ".join(most)) if x) or "no shape in common"


def every_part(shapes: list[list[str]]) -> tuple[str, ...]:
    """The shape parts every position of a cluster has (what its signature says holds ``in every case``)."""
    if not shapes:
        return ()
    common = set(shapes[0]).intersection(*shapes[1:])
    return tuple(p for p in shapes[0] if p in common)


def _same_suit(rules, inp, hand, lead) -> int:
    _, suit = _cls(rules, inp, lead[:1])
    if suit == "trump":
        return sum(1 for c in hand if _cls(rules, inp, [c])[1] == "trump")
    led = lead[0][-1]
    return sum(1 for c in hand if c[-1] == led and _cls(rules, inp, [c])[1] == "side")


TIE_GIVEN_OTHERWISE = "the engine's winner played the same cards as the spec's"
REFUSES = "the engine refuses what the spec allows"
ALLOWS = "the engine allows what the spec refuses"


def difference(op: str, inp: dict, spec: dict, engine: dict) -> str:
    """How the engine's answer differs from the spec's, where that tells two rules apart whatever the
    position's shape: a trick the engine gives to another of the equal plays (the rule on equal plays, which
    of them wins) is not one it gives to other cards (the card order, ruffing); a play or declaration the
    engine refuses though the spec allows it (a rule the engine adds: an offender barred from his suit) is not
    one it allows though the spec refuses it (a rule it leaves out: a reinforcement forgotten); "" otherwise.
    Clustering keeps failures that differ so apart (two deviations of one operation are two findings)."""
    mine, theirs = spec.get("legal"), engine.get("legal")
    if isinstance(mine, bool) and isinstance(theirs, bool) and mine != theirs:
        return REFUSES if mine else ALLOWS
    if op != "winner":
        return ""
    try:
        plays, mine, theirs = inp["plays"], spec.get("winner"), engine.get("winner")
        if isinstance(mine, int) and isinstance(theirs, int) and mine != theirs and \
                sorted(plays[mine]) == sorted(plays[theirs]):
            return TIE_GIVEN_OTHERWISE
    except (KeyError, TypeError, IndexError):
        pass
    return ""


def with_difference(signature: str, diff: str) -> str:
    """A cluster's signature, with how its answers differ when that is part of what its cases share."""
    return f"{signature}; {diff} in every case" if diff else signature
