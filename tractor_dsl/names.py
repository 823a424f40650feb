"""The Chinese name of every identifier a reader meets: clause ids, settings, their values, the fields of
record settings and the readings of interpreted clauses (issue 33).

One table, ``spec/names_zh.tsv`` (kind, id, name), read by the Chinese site, the reports and the tests:
a Chinese page shows the name first and the id beside it as a small label. :func:`unnamed` lists the
identifiers of the bundled rulesets and of the schema that the table does not name, so that whoever adds
a clause, a setting or a value is told (tests/dsl/test_names.py).
"""
from __future__ import annotations

import re
from functools import lru_cache

from .bundled import table_rows

TABLE = "names_zh.tsv"
KINDS = ("clause", "setting", "value", "field", "reading", "word", "text")


@lru_cache(maxsize=1)
def table() -> dict[tuple[str, str], str]:
    """(kind, id) -> Chinese name; a repeated (kind, id) or an unknown kind is a ValueError."""
    out: dict[tuple[str, str], str] = {}
    for kind, ident, name in table_rows(TABLE, 3):
        if kind not in KINDS:
            raise ValueError(f"{TABLE}: unknown kind {kind!r} (kinds: {', '.join(KINDS)})")
        if (kind, ident) in out:
            raise ValueError(f"{TABLE}: {kind} {ident} is named twice")
        out[(kind, ident)] = name.strip()
    return out


def name(kind: str, ident: str) -> str | None:
    return table().get((kind, ident))


def clause_zh(clause_id: str) -> str | None:
    return name("clause", clause_id)


def setting_zh(setting: str) -> str | None:
    return name("setting", setting)


def reading_zh(clause_id: str, reading: str) -> str | None:
    return name("reading", f"{clause_id}#{reading}")


# --------------------------------------------------------------------------
# a feature of the comparison (conformance.generation.features) and its canonical text, in Chinese
# --------------------------------------------------------------------------

_TRACTOR = re.compile(r"tractor\((pair|triple), (\d+)\)")
_UNIT_ZH = {"single": "单张", "pair": "对子", "triple": "三条", "quad": "四条"}
_COUNTED = re.compile(r"\b(\d+) (single|pair|triple|quad|T\d+)\b")
_BAND = re.compile(r"^(\d*)\.\.(\d*) -> (banker|attackers) ([+-]\d+)(?: step (\d+))?$")
_WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_]*[a-z_][A-Za-z0-9_]*")


def shape_text_zh(text: str) -> str:
    """A lead shape or a ladder entry as the canonical text writes it (``tractor(pair, 2)``, ``2 pair +
    single``), in Chinese as tractor_dsl.ladders writes ladders: 2连对, 2个对子 + 单张."""
    text = _TRACTOR.sub(lambda m: f"T{m.group(2)}{m.group(1)}", text)
    tractor = lambda m: f"{m.group(1)}连对" if m.group(2) == "pair" else f"{m.group(1)}连三条"   # noqa: E731

    def counted(m: re.Match) -> str:
        n, unit = m.group(1), m.group(2)
        if unit == "single":
            return f"{n}张单牌"
        return f"{n}个" + (_UNIT_ZH[unit] if unit in _UNIT_ZH else unit)
    text = _COUNTED.sub(counted, text)
    text = re.sub(r"T(\d+)(pair|triple)", tractor, text)
    return re.sub(r"\b(single|pair|triple|quad)\b", lambda m: _UNIT_ZH[m.group(1)], text)


def feature_zh(key: str) -> str | None:
    """A feature's name: a setting's, or 跟… for the follow ladder of a lead (``follow pair``)."""
    if key.startswith("follow "):
        return "跟" + shape_text_zh(key[len("follow "):]) + "的顺序"
    if key.startswith("reading "):   # the reading chosen of an interpreted clause
        clause = clause_zh(key[len("reading "):])
        return f"{clause}的读法" if clause else None
    return setting_zh(key)


def _band_zh(band: str) -> str:
    m = _BAND.match(band.strip())
    if m is None:
        return words_zh(band)
    low, high, side, levels, step = m.groups()
    span = (f"{low}–{high}分" if low and high else f"{low}分及以上" if low else f"{high}分及以下" if high
            else "任何分数")
    n = int(levels)
    result = f"{name('word', side)}{'升' + str(n) + '级' if n > 0 else '不升级' if n == 0 else '降' + str(-n) + '级'}"
    more = f"，此后每{step}分再升一级" if step else ""
    return f"{span}：{result}{more}"


def words_zh(text: str) -> str:
    """Every identifier of a setting's canonical text replaced by its Chinese name (a value's, else a
    field's, else a word's); an identifier without one is left as it is."""
    def one(m: re.Match) -> str:
        w = m.group(0)
        return name("value", w) or name("field", w) or name("word", w) or w
    return _WORD.sub(one, text)


def value_text_zh(key: str, text: str) -> str:
    """The canonical text of a feature's value (conformance.generation.features.value_text) in Chinese:
    ladders as ladders are written, score bands one by one, identifiers by their names; numbers, ranks
    and formulas' operators as they are."""
    if key.startswith("follow "):
        return " / ".join(shape_text_zh(p) for p in text.split(" / "))
    if key == "score.bands":
        return "；".join(_band_zh(b) for b in text.split("; "))
    return name("text", text) or words_zh(text)


def english_words(text: str) -> list[str]:
    """The identifiers left in a text (a test's measure of what is still English)."""
    return _WORD.findall(text)


# --------------------------------------------------------------------------
# what must be named
# --------------------------------------------------------------------------

def identifiers() -> dict[str, set[str]]:
    """Every identifier a reader meets, by kind: the clause ids and readings of every bundled ruleset
    (the three rulebooks, the derived rulesets, the house-rule catalogue), the settings of the schema,
    the values of its enumerations (with true, false and none), the fields of its records, and the free
    text a ruleset gives a text setting."""
    from . import types as t
    from .checker import load
    from .schema import PARAMS
    out: dict[str, set[str]] = {k: set() for k in KINDS}
    lib = load()
    for rs in lib.rulesets.values():
        for c in rs.clauses:
            out["clause"].add(c.id)
            out["reading"].update(f"{c.id}#{r.name}" for r in c.readings)
    out["value"].update(("true", "false", "none"))

    def walk(ty) -> None:
        if isinstance(ty, t.EnumType):
            out["value"].update(ty.choices)
        if isinstance(ty, t.RecordType):
            out["field"].update(ty.fields)
            for v in ty.fields.values():
                walk(v)
        for attr in ("inner", "item", "key", "value"):
            sub = getattr(ty, attr, None)
            if isinstance(sub, t.ValueType):
                walk(sub)
    for p in PARAMS:
        out["setting"].add(p.name)
        walk(p.type)
        if isinstance(p.type, t.TextType):   # free text a ruleset states (tournament.tie_break)
            out["text"].update(rs.values[p.name] for rs in lib.rulesets.values() if p.name in rs.values)
    return out


def unnamed() -> dict[str, list[str]]:
    """The identifiers of :func:`identifiers` without a Chinese name (or with one holding no Chinese)."""
    han = re.compile(r"[\u4e00-\u9fff]")
    out = {}
    for kind, ids in identifiers().items():
        missing = sorted(i for i in ids if not han.search(name(kind, i) or ""))
        if missing:
            out[kind] = missing
    return out
