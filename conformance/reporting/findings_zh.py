"""A finding's two sides in Chinese: the spec's value and the alternatives the engine's answers agree with.

The analysis writes them as English text (``conformance.analysis.attribution``: ``ruff.structure: same_shape``,
``follow.reason_order: pairs_first, a follow with too few pairs ... (H38)``, ``level.progression: reading
play_to_ace -> defend_ace``, ``not set: largest``). A Chinese report shows them in Chinese, each identifier by
its name (``spec/names_zh.tsv``), a catalogued reading (``V48``, ``H38``) by its Chinese text, with the id
beside it; a part with no Chinese name is left as it is (an identifier, a number, a card).
"""
from __future__ import annotations

import re

from tractor_dsl.names import feature_zh, name, reading_zh, shape_text_zh, value_text_zh, words_zh

_CATALOGUED = re.compile(r"^(?P<head>.*?) \((?P<id>[VH]\d\d)\)$")
_READING = re.compile(r"^(?P<clause>[a-z_.]+): reading (?P<a>\w+) -> (?P<b>\w+)$")
_BAND = re.compile(r"^band (?P<band>\S+) gains (?P<n>-?\d+)$")
_SWAPPED = re.compile(r"^rungs (\d+) and (\d+) swapped$")
_MOVED = re.compile(r"^rung (\d+) \((.*)\) moved to place (\d+)$")
_DROPPED = re.compile(r"^rung (\d+) \((.*)\) dropped$")
_JUNCTION = re.compile(r"^(drop|add) junction \[(.*)\]$")
_SWAP = re.compile(r"^swap (\w+) and (\w+)$")


def _plain_id(ident: str) -> str:
    return f"（{ident}）"


class _Style:
    """How a text is written: ``text`` escapes Chinese prose for its medium, ``ident`` sets an identifier
    beside its Chinese name (in parentheses on a terminal, as code in Markdown and HTML)."""

    def __init__(self, text=lambda s: s, ident=_plain_id):
        self.text, self.ident = text, ident

    def named(self, ident: str, zh: str | None) -> str:
        return f"{self.text(zh)}{self.ident(ident)}" if zh else self.ident(ident)


def engine_zh(text: str, feature: str | None = None, *, escape=lambda s: s, ident=_plain_id) -> str:
    """One alternative the engine's answers agree with, in Chinese; without its setting's name where that is
    ``feature``, the finding's, which the line names already. ``escape`` writes prose for the medium, ``ident``
    an identifier."""
    st = _Style(escape, ident)
    head, rest = _engine_zh(text, st)
    return rest if head is None or head == feature else f"{st.named(head, feature_zh(head))}{st.text('：')}{rest}"


def _engine_zh(text: str, st: _Style) -> tuple[str | None, str]:
    """(the feature an alternative changes, when it names one - a setting, a follow ladder, ``reading`` a clause;
    what it makes of it)."""
    m = _CATALOGUED.match(text)
    if m:
        from tractor_dsl.variants import by_id
        variant = by_id().get(m["id"])
        if variant is not None:
            feature, _, rest = m["head"].partition(": ")
            value = rest.split(", ", 1)[0]
            if re.fullmatch(r"\w+", value) and name("value", value):   # the value the alternative sets: the
                # catalogue's text may say more than it changes (H27 frees a failed throw too)
                return feature, st.text(value_text_zh(feature, value)) + st.ident(m["id"])
            return feature, st.text(variant.zh) + st.ident(m["id"])
    m = _READING.match(text)
    if m:
        clause = m["clause"]
        return f"reading {clause}", \
            f"{st.named(m['a'], reading_zh(clause, m['a']))} → {st.named(m['b'], reading_zh(clause, m['b']))}"
    m = _BAND.match(text)
    if m:
        n = int(m["n"])
        gain = f"升{n}级" if n > 0 else "不升级" if n == 0 else f"降{-n}级"
        return None, st.text(f"计分表 {m['band']} 分这一档改为{gain}")
    feature, sep, value = text.partition(": ")
    if not sep:
        return None, st.text(words_zh(text))
    feature = feature.replace(" (derived)", "")
    return feature, st.text(_change_zh(feature, value))


def _change_zh(feature: str, value: str) -> str:
    if (m := _SWAPPED.match(value)):
        return f"第{m[1]}项与第{m[2]}项对调"
    if (m := _MOVED.match(value)):
        return f"第{m[1]}项（{shape_text_zh(m[2])}）移到第{m[3]}位"
    if (m := _DROPPED.match(value)):
        return f"去掉第{m[1]}项（{shape_text_zh(m[2])}）"
    if (m := _JUNCTION.match(value)):
        return f"{'去掉' if m[1] == 'drop' else '加上'}相连处 [{words_zh(m[2])}]"
    if (m := _SWAP.match(value)):
        return f"{words_zh(m[1])} 与 {words_zh(m[2])} 对调"
    return value_text_zh(feature, value)


def spec_zh(feature: str, text: str, *, escape=lambda s: s, ident=_plain_id) -> str:
    """The spec's value of a finding's feature, in Chinese (``escape``, ``ident``: as :func:`engine_zh`)."""
    st = _Style(escape, ident)
    if text.startswith("not set: "):
        unset = text[len("not set: "):]   # an identifier, or the schema's English prose: then the word alone
        return st.text("未设定：" + value_text_zh(feature, unset) if re.fullmatch(r"\w+", unset) else "未设定")
    if feature.startswith("reading ") and text.startswith("reading "):
        clause, reading = feature[len("reading "):], text[len("reading "):]
        return st.text("读法 ") + st.named(reading, reading_zh(clause, reading))
    return st.text(value_text_zh(feature, text))
