"""The Tractor engine protocol: messages, their schemas, and how answers are compared.

JSON lines over an engine's stdin/stdout, one request per line, one answer per
line, in order. The runner opens with a ``handshake`` request; every later
request is one operation (``classify``, ``lead``, ...) on one self-contained
input. Every answer echoes the request's ``seq`` and carries exactly one of
``result``, ``skipped`` or ``errored``. docs/protocol.md is the prose version
of this module; conformance/protocol/schemas/ holds a JSON Schema for every message.

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
              "penalty", "deal")
CONTROL = ("handshake", "shutdown")
FAILURE_FIELDS = ("blocked", "penalty", "forced")   # lead's compared fields inside its ``failure`` object

# The fields of each result that decide pass or fail; anything else an engine
# sends (clauses, detail, ...) is informative. A handshake may declare that the
# engine answers an operation on some of them only (``fields``). lead's
# ``failure`` object is compared as three fields, blocked, penalty and forced.
# hand's ``knocked_back`` (the jack rule, V67) is sent only when the rule sends
# the banker's team back: its absence says "no knock-back" and is compared so.
COMPARED = {
    "classify": ("kind", "suit", "components"),
    "lead": ("legal", "reason", "blocked", "penalty", "forced"),
    "follow": ("legal", "reason"),
    "winner": ("winner", "points"),
    "kitty": ("points",),
    "result": ("next_banker", "levels"),
    "advance": ("level", "won"),
    "declare": ("legal", "reason", "trump", "declarer", "banker"),
    "undeclared": ("redeal", "trump", "banker_side", "level"),
    "hand": ("attackers_points", "next_banker", "levels", "knocked_back", "next_banker_seat"),
    "penalty": ("points", "ends_hand", "consequence", "next_banker", "levels"),
    "deal": ("proper", "redeal", "buries"),
}

_CARD = re.compile(r"^((10|[2-9JQKA])[SHDC]|J[+-])$")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
LEVELS = RANKS + ("NT",)   # NT: the no-trump level a ruleset may put above its ranks (V66)
SUITS = ("S", "H", "D", "C")
REASON_CODES = ("ok", "wrong_card_count", "cards_not_held", "must_follow_suit", "must_play_tractor",
                "must_play_triple", "must_play_pair", "mixed_suits", "throw_not_allowed", "throw_beaten",
                "empty_play")
DECLARE_REASON_CODES = ("ok", "kitty_taken", "missing_first_hand_card", "wrong_count", "mixed_cards", "not_level_card",
                        "jokers_not_allowed", "no_reinforce", "self_overcall", "jokers_only", "too_weak",
                        "partner_barred", "partner_overcall")
DEAL_REASON_CODES = ("ok", "wrong_hand_size", "wrong_kitty_size", "not_the_pack", "no_points", "no_trumps")
CONSEQUENCES = ("none", "attackers_take_stage", "attackers_take_stage_by_points", "stage_change_plus_one",
                "banker_up_one", "opponents_up_two", "count_as_threshold", "count_below_threshold",
                "hand_void_rebid", "banker_keeps", "opponents_up_one", "forfeit_game")


# Compared fields whose absence is an answer (besides lead's failure fields): never missing.
OPTIONAL_COMPARED = {("hand", "knocked_back")}
# Compared fields added to protocol 1 after its first engines were written (issue 32): hand's next_banker_seat
# (the seat that banks next, bank.succession) and deal's buries (who takes up and buries the kitty). An engine
# that does not declare `fields` for the operation may leave them out: an answer without one is not compared
# on it (:func:`unanswered`); an engine that declares them must send them.
ADDED_COMPARED = {("hand", "next_banker_seat"), ("deal", "buries")}


def result_keys(op: str) -> tuple[str, ...]:
    """The top-level keys of a result that hold its compared fields (lead's failure fields are in ``failure``)."""
    keys = COMPARED[op]
    if op == "lead":
        return tuple(k for k in keys if k not in FAILURE_FIELDS) + ("failure",)
    return keys


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


def _is_bool(v) -> bool:
    return type(v) is bool


def _is_count(v) -> bool:
    return _is_int(v) and v >= 0


def _is_next_banker(v) -> bool:
    return type(v) is str and v in ("banker", "attackers")


def _check_components(comps) -> str | None:
    if type(comps) is not list:
        return "components: must be a list"
    for c in comps:
        if type(c) is not dict:
            return "components: each must be an object"
        if not (_is_int(c.get("size")) and 1 <= c["size"] <= 4):
            return "components: size must be 1, 2, 3 or 4"
        if not (_is_int(c.get("length")) and c["length"] >= 1):
            return "components: length must be a positive integer"
        if not _is_cards(c.get("cards")):
            return "components: cards must be a card list"
        if "kind" in c and c["kind"] not in ("single", "pair", "triple", "quad", "tractor"):
            return "components: kind must be single, pair, triple, quad or tractor"
    return None


def _check_failure(f) -> str | None:
    if type(f) is not dict:
        return "failure: must be an object"
    if any(k in f and not _is_cards(f[k]) for k in ("blocked", "forced")):
        return "failure: blocked and forced must be card lists"
    if "penalty" in f and not _is_count(f["penalty"]):
        return "failure: penalty must be a non-negative integer"
    return None


def _kinds(*names):
    return lambda v: type(v) is str and v in names


# op -> field -> (test, complaint). A field need not be present (which ones must is the handshake's
# ``fields``, checked by :func:`missing_fields`); a field present must be of its type. Mirrors <op>.result.json.
_FIELD_CHECKS: dict[str, dict[str, tuple]] = {
    "follow": {"legal": (_is_bool, "must be a boolean"), "reason": (_kinds(*REASON_CODES), "must be a reason code")},
    "lead": {"legal": (_is_bool, "must be a boolean"), "reason": (_kinds(*REASON_CODES), "must be a reason code")},
    "classify": {"kind": (_kinds("single", "pair", "triple", "quad", "tractor", "throw", "mixed", "empty"),
                          "not a combination kind"),
                 "suit": (lambda v: v is None or _kinds("S", "H", "D", "C", "trump")(v),
                          "must be a suit letter, trump or null")},
    "winner": {"winner": (_is_seat, "must be a seat 0-3"), "points": (_is_count, "must be a non-negative integer")},
    "kitty": {"points": (_is_int, "must be an integer")},
    "result": {"next_banker": (_is_next_banker, "must be banker or attackers"),
               "levels": (_is_count, "must be a non-negative integer")},
    "advance": {"level": (lambda v: v is None or _kinds(*LEVELS)(v), "must be a level or null"),
                "won": (_is_bool, "must be a boolean")},
    "declare": {"legal": (_is_bool, "must be a boolean"),
                "reason": (_kinds(*DECLARE_REASON_CODES), "must be a declaration reason code"),
                "trump": (_is_trump, "must be a suit letter or null"),
                "declarer": (lambda v: v is None or _is_seat(v), "must be a seat or null"),
                "banker": (lambda v: v is None or _is_seat(v), "must be a seat or null")},
    "undeclared": {"redeal": (_is_bool, "must be a boolean"), "trump": (_is_trump, "must be a suit letter or null"),
                   "banker_side": (lambda v: v is None or _is_next_banker(v), "must be banker, attackers or null"),
                   "level": (_kinds(*LEVELS), "must be a level")},
    "hand": {"attackers_points": (_is_int, "must be an integer"),
             "next_banker": (_is_next_banker, "must be banker or attackers"),
             "levels": (_is_count, "must be a non-negative integer"),
             "next_banker_seat": (lambda v: v is None or _is_seat(v), "must be a seat 0-3 or null")},
    "penalty": {"points": (_is_int, "must be an integer"), "ends_hand": (_is_bool, "must be a boolean"),
                "consequence": (_kinds(*CONSEQUENCES), "must be a consequence code"),
                "next_banker": (lambda v: v is None or _is_next_banker(v), "must be banker, attackers or null"),
                "levels": (_is_count, "must be a non-negative integer")},
    "deal": {"proper": (_is_bool, "must be a boolean"), "redeal": (_is_bool, "must be a boolean"),
             "reason": (_kinds(*DEAL_REASON_CODES), "must be a deal reason code"),
             "buries": (lambda v: v is None or _is_seat(v), "must be a seat 0-3 or null")},
}


def _check_result(op: str, r: dict) -> str | None:
    """A short complaint when ``r`` is not a valid result of ``op`` (mirrors <op>.result.json)."""
    if op == "handshake":
        return _check_handshake(r)
    if "clauses" in r and not (type(r["clauses"]) is list and all(type(c) is str for c in r["clauses"])):
        return "clauses: must be a list of strings"
    if "detail" in r and type(r["detail"]) is not str:
        return "detail: must be a string"
    for k, (test, complaint) in _FIELD_CHECKS.get(op, {}).items():
        if k in r and not test(r[k]):
            return f"{k}: {complaint}"
    if op == "lead" and "failure" in r:
        return _check_failure(r["failure"])
    if op == "classify" and "components" in r:
        return _check_components(r["components"])
    return None


def _check_handshake(r: dict) -> str | None:
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
    if "fields" in r:
        fields = r["fields"]
        if type(fields) is not dict:
            return "fields: must be an object, operation -> list of compared fields"
        for op, names in fields.items():
            if op not in COMPARED:
                return f"fields: {op!r} is not an operation"
            if type(names) is not list or not names or len(set(map(repr, names))) != len(names):
                return f"fields/{op}: must be a non-empty list of distinct field names"
            for n in names:
                if n not in COMPARED[op] or type(n) is not str:
                    return (f"fields/{op}: {n!r} is not a compared field of {op} "
                            f"(its compared fields: {', '.join(COMPARED[op])})")
    return None


def declared_fields(handshake: dict) -> dict[str, tuple[str, ...]]:
    """The compared fields the engine answers, by operation: those ``fields`` declares, else all of them.

    Raises :class:`ProtocolError` (kind ``handshake_failed``) when ``fields`` names an operation the
    handshake's ``operations`` does not list (a valid handshake is assumed otherwise).
    """
    declared = handshake.get("fields") or {}
    unlisted = [op for op in declared if op not in handshake["operations"]]
    if unlisted:
        raise ProtocolError("handshake_failed", f"fields declares the compared fields of {', '.join(unlisted)}, "
                            "which operations does not list")
    return {op: tuple(n for n in COMPARED[op] if n in declared[op]) if op in declared else AllFields(COMPARED[op])
            for op in handshake["operations"]}


class AllFields(tuple):
    """The compared fields of an operation the handshake's ``fields`` does not name: all of them, of which the
    ones added later (:data:`ADDED_COMPARED`) may be left out of an answer."""


def narrowed(fields: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """The operations compared on fewer than all their fields, with the fields they are compared on."""
    return {op: fs for op, fs in fields.items() if tuple(fs) != COMPARED[op]}


def coverage_note(op: str, fields) -> str:
    """``follow compared on legal only (not reason)``: how a report says an operation's comparison was narrowed."""
    left = [f for f in COMPARED[op] if f not in fields]
    return f"{op} compared on {', '.join(fields)} only (not {', '.join(left)})"


def missing_fields(op: str, result: dict, fields=None) -> list[str]:
    """The compared fields an answer must carry and does not: every compared field (or the declared ones),
    except lead's failure fields, whose absence says "no failed throw" and is compared as such."""
    need = COMPARED[op] if fields is None else fields
    return [k for k in need if k not in result and not (op == "lead" and k in FAILURE_FIELDS)
            and not (op, k) in OPTIONAL_COMPARED and not (_lenient(fields) and (op, k) in ADDED_COMPARED)]


def _lenient(fields) -> bool:
    """Whether the engine declared no fields for the operation (so the added ones may be left out)."""
    return fields is None or isinstance(fields, AllFields)


def unanswered(op: str, got: dict, fields=None) -> tuple[str, ...]:
    """The added compared fields (:data:`ADDED_COMPARED`) an engine that declared no ``fields`` for ``op`` left
    out of its answer: not compared."""
    if not _lenient(fields):
        return ()
    return tuple(k for k in COMPARED[op] if (op, k) in ADDED_COMPARED and k not in got)


def check_answer(op: str, msg: Any, fields=None) -> str:
    """Validate an answer envelope and its result; return its status ``result``/``skipped``/``errored``.

    ``fields`` are the compared fields the engine declared it answers for ``op``
    (default: all of them); each must be present in a result. Raises
    :class:`ProtocolError` (kind ``invalid_answer``) with the schema's
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
        if op != "handshake":
            missing = missing_fields(op, msg["result"], fields)
            if missing:
                need = COMPARED[op] if fields is None else fields
                raise ProtocolError("invalid_answer", f"{', '.join(missing)}: missing (the engine answers {op} on "
                                    f"{', '.join(need)}{'' if fields is not None else ', all its compared fields'})")
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


def normalize(op: str, result: dict, fields=None) -> dict:
    """The compared fields of a result (all, or ``fields``), with card lists in a canonical order.

    lead's ``failure`` object becomes three fields, ``blocked``, ``penalty`` and
    ``forced``, each absent when the result has no failure (a legal lead).
    """
    if op == "lead" and isinstance(result.get("failure"), dict):
        result = {**{k: v for k, v in result.items() if k != "failure"}, **result["failure"]}
    out = {}
    for k in (COMPARED[op] if fields is None else fields):
        if k not in result:
            continue
        v = result[k]
        if op == "classify" and k == "components":
            v = sorted(({"size": c["size"], "length": c["length"], "cards": norm_cards(c["cards"])} for c in v),
                       key=lambda c: (-c["size"] * c["length"], -c["size"], [_card_key(x) for x in c["cards"]]))
        elif op == "lead" and k in ("blocked", "forced"):
            v = norm_cards(v)
        out[k] = v
    return out


def canonical(op: str, result: dict, fields=None) -> dict:
    """:func:`normalize` in the shape of a result: lead's failure fields back inside ``failure``."""
    out = normalize(op, result, fields)
    if op == "lead" and any(k in out for k in FAILURE_FIELDS):
        out["failure"] = {k: out.pop(k) for k in FAILURE_FIELDS if k in out}
    return out


def compare(op: str, expected: dict, got: dict, fields=None) -> list[str]:
    """The differences between an expected and an engine's result on the compared fields (all, or the
    ``fields`` the engine declared it answers); empty when they agree."""
    e, g = normalize(op, expected, fields), normalize(op, got, fields)
    diffs = []
    skip = unanswered(op, got, fields)
    for k in (COMPARED[op] if fields is None else fields):
        if k not in skip and e.get(k, _MISSING) != g.get(k, _MISSING):
            diffs.append(f"{k}: expected {_show(e.get(k, _MISSING))}, got {_show(g.get(k, _MISSING))}")
    return diffs


def agrees(op: str, expected: dict, got: dict, fields=None) -> bool:
    """Whether :func:`compare` finds no difference (without writing the differences out: the analysis asks
    this of tens of thousands of answers)."""
    e, g = normalize(op, expected, fields), normalize(op, got, fields)
    skip = unanswered(op, got, fields)
    return all(e.get(k, _MISSING) == g.get(k, _MISSING) for k in (COMPARED[op] if fields is None else fields)
               if k not in skip)


class _Missing:
    def __repr__(self):
        return "(absent)"


_MISSING = _Missing()


def _show(v) -> str:
    if v is _MISSING:
        return "(absent)"
    return json.dumps(v, ensure_ascii=False)
