"""A checked ruleset as JSON, for engines that configure themselves from the spec (``tractor export R``).

Everything an engine reads from a ruleset, each item with the clause that
decides it: every setting (its value, the clause and, for an interpreted
clause, the reading chosen), every follow ladder, every score band, every
kitty multiplier row, and every reading of every interpreted clause (the
chosen one and the others, with the rules each would set). The follow
ladders include the derived ones (``"derived": true``: the ladders
``follow.unlisted`` gives leads the ruleset lists none for, see
:mod:`tractor_dsl.ladders`), and ``codes`` defines every reason code and
penalty consequence an engine answers with, in English and Chinese
(:mod:`tractor_dsl.vocabulary`). The output is
deterministic: the same spec gives the same bytes (keys in a fixed order,
no spans, no file paths). ``conformance/protocol/schemas/export.json``, beside the
protocol's schemas, is its JSON Schema.

Values are plain JSON: enums are strings, lists are arrays, records are
objects, and a formula over ``cards`` and ``pairs`` (a kitty multiplier such as
``3 * cards``) is ``{"formula": "3 * cards", "expr": TREE}``, where TREE is
``{"op": "const", "value": 3}``, ``{"op": "cards"}``, ``{"op": "pairs"}`` or
``{"op": "*", "left": TREE, "right": TREE}`` (ops ``+ - * ^``).
"""
from __future__ import annotations

import json
from typing import Any

from . import model as m
from .checker import CheckedRuleset
from .ladders import derived_follows
from .render import rule_text
from .schema import PARAMS_BY_NAME
from .types import Formula
from .vocabulary import CONSEQUENCES, DECLARATION_REASONS, PLAY_REASONS

EXPORT_FORMAT = "tractor-ruleset-export"
EXPORT_VERSION = 1


def json_value(v: Any) -> Any:
    """A checked setting's value as JSON (formulas as ``{"formula", "expr"}``)."""
    if isinstance(v, Formula):
        return {"formula": str(v), "expr": _expr(v)}
    if isinstance(v, dict):
        return {str(k): json_value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [json_value(x) for x in v]
    if v is None or isinstance(v, (bool, int, str)):
        return v
    raise TypeError(f"no JSON form for a setting value of type {type(v).__name__}")


def _expr(f: Formula) -> dict:
    if f.op == "const":
        return {"op": "const", "value": f.value}
    if f.op in ("cards", "pairs"):
        return {"op": f.op}
    return {"op": f.op, "left": _expr(f.left), "right": _expr(f.right)}


def _pattern(p: m.Pattern) -> list[dict]:
    """One rung of a ladder: its terms, e.g. ``pair + single`` -> two terms."""
    return [{"count": t.count, "shape": _shape(t.shape)} for t in p.terms]


def _shape(s: m.Shape) -> dict:
    out: dict[str, Any] = {"unit": s.unit}
    if s.element is not None:
        out["element"] = s.element
    if s.length is not None:
        out["length"] = s.length
    return out


def _band(b: m.Band) -> dict:
    return {"low": b.low, "high": b.high, "side": b.side, "levels": b.levels, "step": b.step}


def _rule(r: m.Rule) -> dict:
    """A rule a reading would set, as text (the rule language's own) and as data."""
    if isinstance(r, m.Setting):
        return {"text": rule_text(r), "setting": r.path}
    if isinstance(r, m.Follow):
        return {"text": rule_text(r), "follow": str(r.lead)}
    return {"text": rule_text(r), "band": _band(r)}


def export(rs: CheckedRuleset) -> dict:
    """The export of the checked ruleset ``rs`` (see the module's docstring)."""
    settings = {}
    for name in sorted(rs.values):
        origin = rs.origins[name]
        param = PARAMS_BY_NAME.get(name)
        settings[name] = {"value": json_value(rs.values[name]), "clause": origin.clause.id,
                          "reading": origin.reading, "doc": param.doc if param else ""}
    follow = []
    for key in sorted(rs.ladders):
        shape, ladder, origin = rs.ladders[key]
        follow.append(_follow(shape, ladder, origin.clause.id, origin.reading, False))
    unlisted = rs.origins["follow.unlisted"]
    for f in derived_follows(rs):
        follow.append(_follow(f.lead, f.ladder, unlisted.clause.id, unlisted.reading, True))
    band_origin = rs.band_origin
    bands = {"clause": band_origin.clause.id if band_origin else None,
             "reading": band_origin.reading if band_origin else None,
             "rows": [_band(b) for b in rs.bands]}
    kitty = []
    for setting, by_key in (("kitty.multiplier", True), ("kitty.banker_multiplier", False)):
        value = rs.values.get(setting)
        if not value:
            continue
        clause = rs.origins[setting].clause.id
        tables = value.items() if by_key else [(None, value)]
        for won_by, table in tables:
            for unit, f in table.items():
                row = {"setting": setting, "won_by": won_by, "unit": unit, "formula": str(f), "expr": _expr(f),
                       "clause": clause}
                kitty.append(row)
    readings = []
    for clause in rs.clauses:
        if not clause.readings:
            continue
        chosen = rs.choices.get(clause.id)
        readings.append({
            "clause": clause.id, "cites": list(clause.cites), "chosen": chosen,
            "reason": clause.reason,
            "readings": [{"name": r.name, "chosen": r.name == chosen, "description": r.description,
                          "rules": [_rule(x) for x in r.rules]} for r in clause.readings],
            "alternatives": list(clause.alternatives)})
    return {
        "format": EXPORT_FORMAT, "version": EXPORT_VERSION,
        "ruleset": {"name": rs.name, "title": rs.title, "document": rs.document,
                    "extends": rs.lineage[1] if len(rs.lineage) > 1 else None, "lineage": list(rs.lineage),
                    "variants": list(rs.variants)},
        "settings": settings, "follow": follow, "bands": bands, "kitty": kitty, "readings": readings,
        "overrides": {cid: o.because for cid, o in sorted(rs.overrides.items())},
        "codes": codes(),
    }


def _follow(shape: m.Shape, ladder, clause: str, reading: str | None, derived: bool) -> dict:
    return {"lead": _shape(shape), "text": str(shape), "clause": clause, "reading": reading, "derived": derived,
            "ladder": [{"text": str(p), "terms": _pattern(p)} for p in ladder]}


def codes() -> dict:
    """Every code an engine answers with, defined: play and declaration reasons, penalty consequences."""
    def table(t):
        return {code: {"en": en, "zh": zh} for code, (en, zh) in t.items()}
    return {"reasons": table(PLAY_REASONS), "declaration_reasons": table(DECLARATION_REASONS),
            "consequences": table(CONSEQUENCES)}


def export_json(rs: CheckedRuleset) -> str:
    """The export as text: indented JSON, keys in a fixed order, UTF-8 (Chinese as itself), a final newline."""
    return json.dumps(export(rs), ensure_ascii=False, indent=2) + "\n"
