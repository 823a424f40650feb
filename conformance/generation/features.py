"""A ruleset's features, and rulesets with some of them changed.

A ruleset's *features* are its settings (``tractor_dsl.schema.PARAMS``), its
follow ladders (one feature per lead shape, ``"follow LEAD"``) and its score
table (``"score.bands"``). Two rulesets *differ* on a feature when its
canonical text differs. :func:`changed` makes the counterfactual ruleset
with some features replaced — what the comparison of rulesets, the
alternatives of the seeded suite, mutation and findings all reason with.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Iterable

from reference_impl.rules import Rules
from tractor_dsl import model as m
from tractor_dsl.checker import CheckedRuleset
from tractor_dsl.render import band_text
from tractor_dsl.schema import PARAMS, PARAMS_BY_NAME
from tractor_dsl.types import BoolType, EnumType, Formula, OptionalType

# (prefix, English, Chinese), in reading order.
TOPICS: tuple[tuple[str, str, str], ...] = (
    ("equipment", "Equipment and points", "牌具与分牌"),
    ("level", "Levels", "级别"),
    ("trump", "Card order", "牌序"),
    ("tractor", "Tractors", "拖拉机"),
    ("compare", "Comparing plays", "比大小"),
    ("throw", "Leading and throws", "出牌与甩牌"),
    ("follow", "Following", "跟牌"),
    ("ruff", "Trumping", "枪毙"),
    ("kitty", "The kitty", "底牌"),
    ("score", "Scoring", "计分"),
    ("declare", "Declaring trump", "叫主"),
    ("bank", "The bank", "坐庄"),
    ("penalty", "Penalties", "处罚"),
    ("deal", "The deal", "抓牌"),
    ("match", "The match", "比赛时间"),
    ("tournament", "The tournament", "赛制"),
)
TOPIC_NAMES = {p: (en, zh) for p, en, zh in TOPICS}


def topic_of(key: str) -> str:
    prefix = key.split(".", 1)[0].split(" ", 1)[0]
    return prefix if prefix in TOPIC_NAMES else "other"


def topic_title(topic: str, lang: str = "en") -> str:
    en, zh = TOPIC_NAMES.get(topic, ("Other", "其他"))
    return zh if lang == "zh" else en


def value_text(v: Any) -> str:
    """Canonical text of a checked setting value."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Formula):
        return str(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value_text(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {value_text(x)}" for k, x in v.items()) + "}"
    return str(v)


@dataclass(frozen=True)
class Feature:
    key: str                  # a setting, "follow LEAD" or "score.bands"
    text: str                 # canonical text of its value
    clause: str | None        # id of the clause that states it
    reading: str | None = None

    @property
    def topic(self) -> str:
        return topic_of(self.key)


def _ladder_key(lead: str) -> str:
    return f"follow {lead}"


def features(rs: CheckedRuleset) -> dict[str, Feature]:
    out: dict[str, Feature] = {}
    for p in PARAMS:
        if p.name in ("follow.ladders", "score.bands"):
            continue
        if p.name in rs.values:
            o = rs.origins[p.name]
            out[p.name] = Feature(p.name, value_text(rs.values[p.name]), o.clause.id, o.reading)
    for lead, (_shape, ladder, origin) in sorted(rs.ladders.items()):
        out[_ladder_key(lead)] = Feature(_ladder_key(lead), " / ".join(str(p) for p in ladder),
                                         origin.clause.id, origin.reading)
    if rs.bands:
        bands = sorted(rs.bands, key=lambda b: float("-inf") if b.low is None else b.low)
        o = rs.band_origin
        out["score.bands"] = Feature("score.bands", "; ".join(band_text(b)[5:] for b in bands),
                                     o.clause.id if o else None, o.reading if o else None)
    return out


def feature_order(keys: Iterable[str]) -> list[str]:
    order = {p.name: i for i, p in enumerate(PARAMS)}
    topics = [t[0] for t in TOPICS]

    def sort_key(k: str):
        t = topic_of(k)
        ti = topics.index(t) if t in topics else len(topics)
        if k.startswith("follow "):
            return (ti, order.get("follow.ladders", 0), k)
        return (ti, order.get(k, 10_000), k)
    return sorted(keys, key=sort_key)


def changed(rules: Rules, changes: dict[str, Any], clause: str | None = None) -> Rules:
    """``rules`` with features replaced: setting names map to checked values,
    ``"follow LEAD"`` to ``(shape, ladder)`` (or None to remove the ladder),
    ``"score.bands"`` to a tuple of bands. A setting the ruleset leaves unset (a house rule) is stated, in
    the changed rules, by ``clause`` (the clause whose statement it joins), when given."""
    checked = rules.checked
    values = dict(checked.values)
    origins = checked.origins
    joins = next((o for o in checked.origins.values() if o.clause.id == clause), None) if clause else None
    if joins is not None and any(k not in origins and not k.startswith("follow ") and k != "score.bands"
                                 for k in changes):
        origins = dict(origins)
        for k in changes:
            if k not in origins and not k.startswith("follow ") and k != "score.bands":
                origins[k] = joins
    ladders = dict(checked.ladders)
    bands = checked.bands
    for key, value in changes.items():
        if key.startswith("follow "):
            lead = key[len("follow "):]
            if value is None:
                ladders.pop(lead, None)
            else:
                origin = ladders[lead][2] if lead in ladders else checked.origins.get("follow.suit")
                ladders[lead] = (value[0], value[1], origin)
        elif key == "score.bands":
            bands = tuple(value)
        else:
            values[key] = value
    new = dataclasses.replace(checked, values=values, ladders=ladders, bands=bands, origins=origins)
    out = Rules(new)
    out.name = f"{rules.name}*"
    return out


def reading_changes(clause: m.Clause, reading: str) -> dict[str, Any]:
    """The features a reading of ``clause`` sets, as :func:`changed` takes them."""
    out: dict[str, Any] = {}
    bands = []
    for r in clause.readings:
        if r.name != reading:
            continue
        for rule in r.rules:
            if isinstance(rule, m.Setting):
                param = PARAMS_BY_NAME.get(rule.path)
                if param is not None:
                    out[rule.path] = param.type.convert(rule.value)
            elif isinstance(rule, m.Follow):
                out[_ladder_key(str(rule.lead))] = (rule.lead, rule.ladder)
            elif isinstance(rule, m.Band):
                bands.append(rule)
    if bands:
        out["score.bands"] = tuple(bands)
    return out


def feature_value(rs: CheckedRuleset, key: str) -> Any:
    """The value of a feature in the form :func:`changed` takes."""
    if key.startswith("follow "):
        lead = key[len("follow "):]
        return rs.ladders[lead][:2] if lead in rs.ladders else None
    if key == "score.bands":
        return rs.bands
    return rs.values.get(key)


def schema_alternatives(key: str, value: Any) -> list[Any]:
    """Other values the schema allows for a setting, where they are few (enums, booleans)."""
    param = PARAMS_BY_NAME.get(key)
    if param is None:
        return []
    t = param.type
    if isinstance(t, OptionalType):
        t = t.inner
    if isinstance(t, BoolType):
        return [not value]
    if isinstance(t, EnumType):
        return [c for c in t.choices if c != value]
    return []
