"""A request's input for people: rows of labelled cards and text (the HTML report draws the cards) and the same
rows as lines of glyphs (the terminal, the markdown summary, a Hypothesis failure)."""
from __future__ import annotations

import json

SUIT_NAMES = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", None: "none"}
FLAGS = ("attackers_points", "gain", "as_banker", "first_hand", "banker", "leader", "attackers_level", "kitty_taken")


# The labels of the input rows in English: the one table the other languages' tables
# (conformance.reporting.labels.INPUT_WORDS) give the same keys of; a key a table lacks stays English.
WORDS_EN: dict[str, str] = {
    "level": "level", "trump": "trump", "none": SUIT_NAMES[None], "sep": ", ",
    **{k: k.replace("_", " ") for k in FLAGS},
    **{k: k for k in ("cards", "lead", "hand", "play", "kitty")},
    "other": "other {i}", "seat": "seat {s}", "leads": "(leads)", "declares": "seat {s} declares",
    "transcript": "level {level}, trump {trump}, banker seat {banker}, {n} tricks",
}


def input_rows(inp: dict, words: dict | None = None) -> list[tuple[str, list[tuple[str, object]]]]:
    """The input of a case as rows ``(label, parts)``, each part ``("text", str)`` or ``("cards", tokens)``:
    the text report joins them with glyphs, the HTML report draws the cards. ``words``: the labels in another
    language (:data:`conformance.reporting.labels.INPUT_WORDS`) over :data:`WORDS_EN`; English when None or empty."""
    w = {**WORDS_EN, **(words or {})}
    suit = lambda x: w["none"] if x is None else SUIT_NAMES.get(x, x)   # noqa: E731
    value = lambda x: w.get(str(x), str(x)) if isinstance(x, bool) else str(x)   # noqa: E731
    rows: list[tuple[str, list[tuple[str, object]]]] = []
    head = []
    if "level" in inp:
        head.append(f"{w['level']} {inp['level']}")
    if "trump" in inp:
        head.append(f"{w['trump']} {suit(inp['trump'])}")
    head += [f"{w[k]} {value(inp[k])}" for k in FLAGS if k in inp and inp[k] is not None]
    if head:
        rows.append(("", [("text", w["sep"].join(head))]))
    for k in ("cards", "lead", "hand", "play", "kitty"):
        if k in inp:
            rows.append((w[k], [("cards", inp[k])]))
    for i, h in enumerate(inp.get("others") or [], 1):
        rows.append((w["other"].format(i=i), [("cards", h)]))
    trick = inp.get("last_trick") if "last_trick" in inp else (inp if "plays" in inp else None)
    if trick:
        for s, p in enumerate(trick["plays"]):
            rows.append((w["seat"].format(s=s), [("cards", p)] + ([("text", w["leads"])] if s == trick["leader"] else [])))
    for d in inp.get("declarations") or []:
        rows.append((w["declares"].format(s=d["seat"]), [("cards", d["cards"])]))
    if "transcript" in inp:
        t = inp["transcript"]
        rows.append(("", [("text", w["transcript"].format(level=t.get("level"), trump=suit(t.get("trump")),
                                                          banker=t.get("banker"), n=len(t.get("tricks", []))))]))
    return rows


def glyphs(tokens: list[str]) -> str:
    from reference_impl.cards import show_cards  # an engine's non-string "card" is shown as it is
    return show_cards([t if isinstance(t, str) else json.dumps(t, ensure_ascii=False) for t in tokens])


def draw_input(op: str, inp: dict) -> list[str]:
    """The input of a case as lines of cards (glyphs), for people (the rows of
    :func:`input_rows`, which the HTML report draws as cards)."""
    lines = []
    for label, parts in input_rows(inp):
        text = " ".join(glyphs(v) if kind == "cards" else str(v) for kind, v in parts)
        lines.append(f"{label:<6} {text}" if label else text)
    return lines
