"""Shared helpers of the rule-language tests: a minimal valid ruleset, and positions in text.

The minimal ruleset is generated from the schema (every required setting gets
a value of its type, with the few values the cross-checks constrain given
explicitly), so it stays valid when settings are added.
"""
from __future__ import annotations

from tractor_dsl import types as t
from tractor_dsl.checker import Library, check_text
from tractor_dsl.diagnostics import Diagnostic
from tractor_dsl.schema import PARAMS

FILE = "t.tractor"
COVERAGE = ("E601", "E602")
# a user's file (outside spec/) need not be bilingual: W119 for prose without Chinese is expected there
UNTRANSLATED = ("W119",)

# Values the cross-checks (equipment, levels, trump order, junctions) constrain.
FIXED = {
    "equipment.decks": "2",
    "equipment.players": "4",
    "equipment.hand_size": "25",
    "equipment.kitty_size": "8",
    "equipment.points": "{ 5: 5, 10: 10, K: 10 }",
    "level.ranks": "[2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K, A]",
    "level.start": "2",
    "level.end": "A",
    "level.must_play": "[]",
    "trump.fixed_ranks": "[]",
    "trump.order": "[big_joker, small_joker, trump_level, off_level, trump_suit]",
    "tractor.junctions": "[]",
    "tractor.mixed": "false",   # true would warn (W311): a 2-deck ruleset has no triples to mix
    "kitty.multiplier": "{ trump: { single: 2, pair: 4, tractor: 2 * cards }, "
                        "side: { single: 1, pair: 2, tractor: cards } }",
    "score.threshold": "80",
}

BANDS = ("band ..35 -> banker +2", "band 40..75 -> banker +1", "band 80.. -> attackers +0 step 40")


def sample(vt: t.ValueType) -> str:
    """A value text of the type ``vt`` (the simplest one)."""
    if isinstance(vt, t.OptionalType):
        return "none"
    if isinstance(vt, t.IntType):
        return str(vt.low if vt.low is not None else 0)
    if isinstance(vt, t.BoolType):
        return "true"
    if isinstance(vt, t.TextType):
        return '"x"'
    if isinstance(vt, t.EnumType):
        return vt.choices[0]
    if isinstance(vt, t.RankType):
        return "2"
    if isinstance(vt, t.FormulaType):
        return "cards"
    if isinstance(vt, t.CardType):
        return "{ rank: 2, suit: hearts }"
    if isinstance(vt, t.ListType):
        if vt.min_items == 0:
            return "[]"
        if isinstance(vt.item, t.EnumType):
            return "[" + ", ".join(vt.item.choices[:vt.min_items]) + "]"
        if isinstance(vt.item, t.RankType):
            return "[" + ", ".join(t.RANKS[:vt.min_items]) + "]"
        return "[" + ", ".join([sample(vt.item)] * vt.min_items) + "]"
    if isinstance(vt, t.RecordType):
        fields = [f"{k}: {sample(v)}" for k, v in vt.fields.items() if k not in vt.optional]
        return "{ " + ", ".join(fields) + " }" if fields else "{}"
    if isinstance(vt, t.MapType):
        return "{}"
    raise TypeError(f"no sample for {vt!r}")


def settings(**changes: str | None) -> dict[str, str]:
    """Every required setting with a valid value; ``name__sub=value`` changes ``name.sub`` (None drops it)."""
    out = {p.name: FIXED.get(p.name, sample(p.type)) for p in PARAMS if p.required}
    for key, value in changes.items():
        name = key.replace("__", ".")
        if value is None:
            out.pop(name, None)
        else:
            out[name] = value
    return out


def minimal(extra: str = "", *, name: str = "rmin", values: dict[str, str] | None = None,
            bands=BANDS, head: str = 'title "Minimal" "最小"\n  document "003"', base_extra: str = "",
            tail: str = "") -> str:
    """A small ruleset that checks clean apart from coverage (E601/E602).

    ``extra`` is inserted as further clauses after the clause ``base`` (which
    holds every setting and the score bands); ``base_extra`` goes inside
    ``base``; ``tail`` after the ruleset's closing brace.
    """
    values = settings() if values is None else values
    body = "\n".join(f"    set {k} = {v}" for k, v in values.items())
    band_lines = "\n".join(f"    {b}" for b in bands)
    return (
        f"ruleset {name} {{\n"
        f"  {head}\n"
        f"\n"
        f"  clause base {{\n"
        f"    cites 003:1\n"
        f"    status stated\n"
        f"    says \"Everything.\"\n"
        f"    zh \"一切。\"\n"
        f"{body}\n"
        f"{band_lines}\n"
        f"{base_extra}"
        f"  }}\n"
        f"{extra}"
        f"}}\n"
        f"{tail}"
    )


def clause(cid: str, body: str, cites: str = "003:2", status: str | None = "stated") -> str:
    """An extra clause for :func:`minimal` (``body`` lines indented by the caller or not)."""
    lines = [f"  clause {cid} {{", f"    cites {cites}" if cites else None,
             f"    status {status}" if status else None, '    says "S."', '    zh "中。"']
    lines += [f"    {line.strip()}" for line in body.strip("\n").split("\n") if line.strip()]
    return "\n".join(x for x in lines if x is not None) + "\n  }\n"


def check(text: str, extra: dict[str, str] | None = None) -> Library:
    return check_text(text, FILE, extra=extra)


def problems(lib: Library) -> list[Diagnostic]:
    """Every diagnostic but the coverage ones and the untranslated-prose warnings of a user's file."""
    return [d for d in lib.diagnostics if d.code not in COVERAGE + UNTRANSLATED]


def locate(text: str, needle: str, nth: int = 0, offset: int = 0) -> tuple[int, int]:
    """1-based (line, column) of the ``nth`` occurrence of ``needle`` (plus ``offset`` characters)."""
    pos = -1
    for _ in range(nth + 1):
        pos = text.index(needle, pos + 1)
    pos += offset
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, column
