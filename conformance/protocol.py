"""The Tractor engine protocol: messages, their schemas, and how answers are compared.

JSON lines over an engine's stdin/stdout, one request per line, one answer per
line, in order. The runner opens with a ``handshake`` request; every later
request is one operation (``classify``, ``lead``, ...) on one self-contained
input. Every answer echoes the request's ``seq`` and carries exactly one of
``result``, ``skipped`` or ``errored``. docs/protocol.md is the prose version
of this module; conformance/schemas/ holds a JSON Schema for every message.

Validation has two paths that agree (tests/conformance/test_protocol.py
checks it): a fast structural check written out by hand, used on every
answer, and the JSON Schemas (``jsonschema``), used to explain a rejection
and by ``strict`` callers.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

PROTOCOL_VERSION = 1
SCHEMA_DIR = Path(__file__).parent / "schemas"
SCHEMA_BASE = "https://tractor-rulebook.invalid/protocol/1/"

# Operations, in the order the docs and reports list them.
OPERATIONS = ("classify", "lead", "follow", "winner", "kitty", "result", "advance", "declare", "undeclared", "hand",
              "penalty")
CONTROL = ("handshake", "shutdown")

# The fields of each result that decide pass or fail; anything else an engine
# sends (clauses, detail, ...) is informative.
COMPARED = {
    "classify": ("kind", "suit", "components"),
    "lead": ("legal", "reason", "failure"),
    "follow": ("legal", "reason"),
    "winner": ("winner", "points"),
    "kitty": ("points",),
    "result": ("next_banker", "levels"),
    "advance": ("level", "won"),
    "declare": ("legal", "reason", "trump", "declarer", "banker"),
    "undeclared": ("redeal", "trump", "banker_side", "level"),
    "hand": ("attackers_points", "next_banker", "levels"),
    "penalty": ("points", "ends_hand", "consequence", "next_banker", "levels"),
}

_CARD = re.compile(r"^((10|[2-9JQKA])[SHDC]|J[+-])$")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
REASON_CODES = ("ok", "wrong_card_count", "cards_not_held", "must_follow_suit", "must_play_tractor",
                "must_play_triple", "must_play_pair", "mixed_suits", "throw_not_allowed", "throw_beaten",
                "empty_play")
DECLARE_REASON_CODES = ("ok", "kitty_taken", "missing_first_hand_card", "wrong_count", "mixed_cards", "not_level_card",
                        "jokers_not_allowed", "no_reinforce", "self_overcall", "jokers_only", "too_weak",
                        "partner_barred")
CONSEQUENCES = ("none", "attackers_take_stage", "attackers_take_stage_by_points", "stage_change_plus_one",
                "banker_up_one", "opponents_up_two", "count_as_threshold", "count_below_threshold",
                "hand_void_rebid", "banker_keeps", "opponents_up_one", "forfeit_game")


class ProtocolError(ValueError):
    """A message that breaks the protocol; ``kind`` names how."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


# --------------------------------------------------------------------------- schemas

@lru_cache(maxsize=None)
def schema(name: str) -> dict:
    """The schema document ``name`` (e.g. ``follow.request``, ``answer``)."""
    path = SCHEMA_DIR / (name if name.endswith(".json") else name + ".json")
    return json.loads(path.read_text(encoding="utf-8"))


def schema_names() -> list[str]:
    return sorted(p.name[:-5] for p in SCHEMA_DIR.glob("*.json"))


@lru_cache(maxsize=None)
def _registry():
    from referencing import Registry, Resource
    resources = []
    for name in schema_names():
        doc = schema(name)
        resources.append((doc["$id"], Resource.from_contents(doc)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=None)
def validator(name: str):
    from jsonschema import Draft202012Validator
    return Draft202012Validator(schema(name), registry=_registry(), format_checker=None)


def schema_errors(name: str, instance: Any, limit: int = 3) -> list[str]:
    """Messages of the JSON Schema ``name``'s errors on ``instance`` (empty when valid)."""
    out = []
    errors = sorted(validator(name).iter_errors(instance), key=lambda e: (len(e.absolute_path), str(e.absolute_path)))
    for e in errors[:limit]:
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        out.append(f"{where}: {e.message[:300]}")
    return out


# --------------------------------------------------------------------------- building messages

def handshake_request(seq: int = 0, runner_version: str = "") -> dict:
    return {"seq": seq, "op": "handshake", "protocol": PROTOCOL_VERSION,
            "runner": {"name": "tractor conform", "version": runner_version}}


def request(seq: int, op: str, ruleset: str, input: dict) -> dict:
    return {"seq": seq, "op": op, "ruleset": ruleset, "input": input}


def shutdown_request(seq: int) -> dict:
    return {"seq": seq, "op": "shutdown"}


def result_answer(seq: int, result: dict) -> dict:
    return {"seq": seq, "result": result}


def skipped_answer(seq: int, reason: str, issue: str | None = None) -> dict:
    s = {"reason": reason}
    if issue:
        s["issue"] = issue
    return {"seq": seq, "skipped": s}


def errored_answer(seq: int, message: str, context: Any = None) -> dict:
    e: dict = {"message": message}
    if context is not None:
        e["context"] = context
    return {"seq": seq, "errored": e}


def encode(message: dict) -> bytes:
    """One message as one line of compact JSON (UTF-8, no newline inside)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


# --------------------------------------------------------------------------- fast validation

def _is_int(v) -> bool:
    return type(v) is int


def _is_cards(v) -> bool:
    return type(v) is list and all(type(c) is str and _CARD.match(c) for c in v)


def _is_seat(v) -> bool:
    return type(v) is int and 0 <= v <= 3


def _is_trump(v) -> bool:
    return v is None or v in SUITS


def _check_result(op: str, r: dict) -> str | None:
    """A short complaint when ``r`` is not a valid result of ``op`` (mirrors <op>.result.json)."""
    if op != "handshake" and "clauses" in r and not (type(r["clauses"]) is list and all(type(c) is str for c in r["clauses"])):
        return "clauses: must be a list of strings"
    if op != "handshake" and "detail" in r and type(r["detail"]) is not str:
        return "detail: must be a string"
    if op == "follow":
        if type(r.get("legal")) is not bool:
            return "legal: must be a boolean"
        if r.get("reason") not in REASON_CODES:
            return "reason: must be a reason code"
        return None
    if op == "lead":
        if type(r.get("legal")) is not bool:
            return "legal: must be a boolean"
        if r.get("reason") not in REASON_CODES:
            return "reason: must be a reason code"
        if "failure" in r:
            f = r["failure"]
            if type(f) is not dict:
                return "failure: must be an object"
            if not _is_cards(f.get("blocked")) or not _is_cards(f.get("forced")):
                return "failure: blocked and forced must be card lists"
            if not _is_int(f.get("penalty")) or f["penalty"] < 0:
                return "failure: penalty must be a non-negative integer"
        return None
    if op == "classify":
        if r.get("kind") not in ("single", "pair", "triple", "tractor", "throw", "mixed", "empty"):
            return "kind: not a combination kind"
        if r.get("suit", 0) not in ("S", "H", "D", "C", "trump", None):
            return "suit: must be a suit letter, trump or null"
        comps = r.get("components")
        if type(comps) is not list:
            return "components: must be a list"
        for c in comps:
            if type(c) is not dict:
                return "components: each must be an object"
            if not (_is_int(c.get("size")) and 1 <= c["size"] <= 3):
                return "components: size must be 1, 2 or 3"
            if not (_is_int(c.get("length")) and c["length"] >= 1):
                return "components: length must be a positive integer"
            if not _is_cards(c.get("cards")):
                return "components: cards must be a card list"
            if "kind" in c and c["kind"] not in ("single", "pair", "triple", "tractor"):
                return "components: kind must be single, pair, triple or tractor"
        return None
    if op == "winner":
        if not _is_seat(r.get("winner")):
            return "winner: must be a seat 0-3"
        if not (_is_int(r.get("points")) and r["points"] >= 0):
            return "points: must be a non-negative integer"
        return None
    if op == "kitty":
        return None if _is_int(r.get("points")) else "points: must be an integer"
    if op == "result":
        if r.get("next_banker") not in ("banker", "attackers"):
            return "next_banker: must be banker or attackers"
        return None if _is_int(r.get("levels")) and r["levels"] >= 0 else "levels: must be a non-negative integer"
    if op == "advance":
        if "level" not in r or not (r["level"] is None or r["level"] in RANKS):
            return "level: must be a rank or null"
        return None if type(r.get("won")) is bool else "won: must be a boolean"
    if op == "declare":
        if type(r.get("legal")) is not bool:
            return "legal: must be a boolean"
        if r.get("reason") not in DECLARE_REASON_CODES:
            return "reason: must be a declaration reason code"
        if "trump" not in r or not _is_trump(r["trump"]):
            return "trump: must be a suit letter or null"
        for k in ("declarer", "banker"):
            if k not in r or not (r[k] is None or _is_seat(r[k])):
                return f"{k}: must be a seat or null"
        return None
    if op == "undeclared":
        if type(r.get("redeal")) is not bool:
            return "redeal: must be a boolean"
        if "trump" not in r or not _is_trump(r["trump"]):
            return "trump: must be a suit letter or null"
        if "banker_side" not in r or r["banker_side"] not in ("banker", "attackers", None):
            return "banker_side: must be banker, attackers or null"
        return None if r.get("level") in RANKS else "level: must be a rank"
    if op == "hand":
        if not _is_int(r.get("attackers_points")):
            return "attackers_points: must be an integer"
        if r.get("next_banker") not in ("banker", "attackers"):
            return "next_banker: must be banker or attackers"
        return None if _is_int(r.get("levels")) and r["levels"] >= 0 else "levels: must be a non-negative integer"
    if op == "penalty":
        if not _is_int(r.get("points")):
            return "points: must be an integer"
        if type(r.get("ends_hand")) is not bool:
            return "ends_hand: must be a boolean"
        if r.get("consequence") not in CONSEQUENCES:
            return "consequence: must be a consequence code"
        if "next_banker" not in r or r["next_banker"] not in ("banker", "attackers", None):
            return "next_banker: must be banker, attackers or null"
        return None if _is_int(r.get("levels")) and r["levels"] >= 0 else "levels: must be a non-negative integer"
    if op == "handshake":
        if not (_is_int(r.get("protocol")) and r["protocol"] >= 1):
            return "protocol: must be a positive integer"
        if type(r.get("name")) is not str or not r["name"]:
            return "name: must be a non-empty string"
        if type(r.get("version")) is not str:
            return "version: must be a string"
        for k in ("language", "homepage"):
            if k in r and type(r[k]) is not str:
                return f"{k}: must be a string"
        rs = r.get("rulesets")
        if type(rs) is not list or not all(type(x) is str for x in rs) or len(set(rs)) != len(rs):
            return "rulesets: must be a list of distinct strings"
        ops = r.get("operations")
        if type(ops) is not list or not all(o in OPERATIONS for o in ops) or len(set(ops)) != len(ops):
            return "operations: must be a list of distinct operation names"
        return None
    return None


def check_answer(op: str, msg: Any) -> str:
    """Validate an answer envelope and its result; return its status ``result``/``skipped``/``errored``.

    Raises :class:`ProtocolError` (kind ``invalid_answer``) with the schema's
    explanation when the answer is not valid.
    """
    status = _fast_envelope(msg)
    if status is None:
        raise ProtocolError("invalid_answer", "; ".join(schema_errors("answer", msg)) or "not a valid answer")
    if status == "result":
        problem = _check_result(op, msg["result"])
        if problem:
            errs = schema_errors(f"{op}.result", msg["result"])
            raise ProtocolError("invalid_answer", "; ".join(errs) or problem)
    return status


def _fast_envelope(msg: Any) -> str | None:
    if type(msg) is not dict or not (_is_int(msg.get("seq")) and msg["seq"] >= 0):
        return None
    keys = [k for k in msg if k != "seq"]
    if len(keys) != 1 or keys[0] not in ("result", "skipped", "errored"):
        return None
    k = keys[0]
    v = msg[k]
    if type(v) is not dict:
        return None
    if k == "skipped":
        if type(v.get("reason")) is not str or ("issue" in v and type(v["issue"]) is not str):
            return None
    elif k == "errored":
        if type(v.get("message")) is not str:
            return None
        if "context" in v and not (v["context"] is None or type(v["context"]) in (dict, str)):
            return None
    return k


# --------------------------------------------------------------------------- comparing answers

def _card_key(token: str) -> tuple:
    if token == "J+":
        return (5, 1)
    if token == "J-":
        return (5, 0)
    return (SUITS.index(token[-1]), RANKS.index(token[:-1]))


def norm_cards(cards) -> list[str]:
    return sorted(cards, key=_card_key)


def normalize(op: str, result: dict) -> dict:
    """The compared fields of a result, with card lists in a canonical order."""
    out = {}
    for k in COMPARED[op]:
        if k not in result:
            continue
        v = result[k]
        if op == "classify" and k == "components":
            v = sorted(({"size": c["size"], "length": c["length"], "cards": norm_cards(c["cards"])} for c in v),
                       key=lambda c: (-c["size"] * c["length"], -c["size"], [_card_key(x) for x in c["cards"]]))
        elif op == "lead" and k == "failure" and isinstance(v, dict):
            v = {"blocked": norm_cards(v["blocked"]), "penalty": v["penalty"], "forced": norm_cards(v["forced"])}
        out[k] = v
    return out


def compare(op: str, expected: dict, got: dict) -> list[str]:
    """The differences between an expected and an engine's result (empty when they agree)."""
    e, g = normalize(op, expected), normalize(op, got)
    diffs = []
    for k in COMPARED[op]:
        if e.get(k, _MISSING) != g.get(k, _MISSING):
            diffs.append(f"{k}: expected {_show(e.get(k, _MISSING))}, got {_show(g.get(k, _MISSING))}")
    return diffs


class _Missing:
    def __repr__(self):
        return "(absent)"


_MISSING = _Missing()


def _show(v) -> str:
    if v is _MISSING:
        return "(absent)"
    return json.dumps(v, ensure_ascii=False)
