"""Comparing rulesets: what they set differently, and a position that tells them apart.

A ruleset's *features* are its settings (``schema.PARAMS``), its follow
ladders (one feature per lead shape) and its score table. Two rulesets
*differ* on a feature when its canonical text differs.

A *position* is one concrete question the interpreter answers — what a set of
cards is, how cards rank, whether a lead or a follow is legal, who wins a
trick, what the kitty is worth, and so on — and an *outcome* is the answer
with the ids of the clauses that decided it. For each difference,
:func:`compare` searches for a *distinguishing position*: one the two
rulesets answer differently. It prefers a position whose answers that
difference alone accounts for — giving one ruleset the other's value for that
feature gives it the other's answer (:attr:`Difference.alone`) — and then one
where that change at least changes an answer (:attr:`Difference.attributed`).

The same machinery finds the examples of the generated rulebooks
(:func:`examples_for_clause`): a position where the clause decides the answer,
preferably one whose answer would change under another reading.

Positions are plain data (:meth:`Position.to_dict`), so a recorded example
can be recomputed and checked later. Searches are deterministic: curated
positions first, then positions drawn by a random generator seeded from the
question.
"""
from __future__ import annotations

import dataclasses
import itertools
import random
import re
import zlib
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, Sequence

from tractor_dsl import model as m
from tractor_dsl.checker import CheckedRuleset
from tractor_dsl.render import band_text
from tractor_dsl.schema import PARAMS, PARAMS_BY_NAME
from tractor_dsl.types import BoolType, EnumType, Formula, OptionalType

from .cards import RANKS, SUIT_LETTERS, CardError, check_copies, full_pack, parse_cards, text
from .combos import classify
from .following import judge_follow
from .leading import judge_lead
from .rules import REASONS, Rules, rules_for
from .trick import judge_trick, points_of
from .trump import TRUMP, context


from . import declaring as declaring_mod
from . import game as game_mod
from . import kitty as kitty_mod
from . import levels as levels_mod
from . import penalties as penalties_mod
from . import scoring as scoring_mod


# --------------------------------------------------------------------------
# topics and features
# --------------------------------------------------------------------------

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


# --------------------------------------------------------------------------
# counterfactual rules: a ruleset with some features changed
# --------------------------------------------------------------------------

def changed(rules: Rules, changes: dict[str, Any]) -> Rules:
    """``rules`` with features replaced: setting names map to checked values,
    ``"follow LEAD"`` to ``(shape, ladder)`` (or None to remove the ladder),
    ``"score.bands"`` to a tuple of bands."""
    checked = rules.checked
    values = dict(checked.values)
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
    new = dataclasses.replace(checked, values=values, ladders=ladders, bands=bands)
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


# --------------------------------------------------------------------------
# positions and outcomes
# --------------------------------------------------------------------------

KINDS = ("shape", "order", "lead", "follow", "trick", "kitty", "deal", "points", "value")


@dataclass(frozen=True)
class Position:
    """One question for the interpreter. ``hands`` holds card strings in the
    notation of :mod:`reference_impl.cards`; what each is depends on ``kind``:

    * ``shape``: the cards; ``order``: the cards to rank;
    * ``lead``: the lead, then the other three hands in seat order;
    * ``follow``: the lead, the follower's hand, the play;
    * ``trick``: the plays in turn, the lead first;
    * ``kitty``: the play that wins the last trick, then the kitty;
      ``side`` says which side won it;
    * ``points``: the cards whose points are counted;
    * ``deal``: nothing; ``value``: the setting ``key``;
    * ``score``: ``points`` are the attackers' points at the end of a hand;
    * ``advance``: a team at ``level`` gains ``points`` levels, as the side ``side``;
    * ``declare``: ``hands`` are declarations ``"SEAT: CARDS"`` in turn, at ``level``
      (the banker is seat 0 in a later hand);
    * ``undeclared``: nobody declared; ``hands[0]`` is the kitty, the banker is at
      ``level``, the attackers at ``other_level``;
    * ``fault``: the side ``side`` commits the fault ``key`` involving ``points``
      cards (times; for ``lateness`` minutes late), the attackers holding
      ``other_level`` (a number) points; ``key`` ``"revoke:late"`` is a fault
      found only later;
    * ``next_banker``: seat 0 was banker and the side ``side`` holds the stage next;
    * ``timeout``: time runs out with team 0 at ``level``, team 1 at
      ``other_level``, and team ``side`` holding the bank;
    * ``first_hand``: a whole game begins, its deal drawn with the seed ``points``.
    """

    kind: str
    level: str | None = None
    trump: str | None = None          # S, H, D, C, or None for no trump
    hands: tuple[str, ...] = ()
    side: str | None = None
    key: str | None = None
    points: int | None = None         # attackers' points, a gain of levels, a card count
    first_hand: bool | None = None
    other_level: str | None = None

    def to_dict(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in dataclasses.asdict(self).items()
                if v is not None and v != ()}

    @classmethod
    def from_dict(cls, d: dict) -> "Position":
        d = dict(d)
        if "hands" in d:
            d["hands"] = tuple(d["hands"])
        return cls(**d)

    def cards(self, i: int) -> list[int]:
        return parse_cards(self.hands[i]) if self.hands[i].strip() else []

    def all_cards(self) -> list[list[int]]:
        return [self.cards(i) for i in range(len(self.hands))]


@dataclass(frozen=True)
class Outcome:
    """The interpreter's answer: text parts in English and Chinese, and the deciding clauses.

    Each part is ``("text", str)`` or ``("cards", notation)``.
    """

    verdict: Any
    clauses: tuple[str, ...]
    parts_en: tuple[tuple[str, str], ...]
    parts_zh: tuple[tuple[str, str], ...]

    def parts(self, lang: str = "en") -> tuple[tuple[str, str], ...]:
        return self.parts_zh if lang == "zh" else self.parts_en

    def text(self, lang: str = "en") -> str:
        return "".join(s for _, s in self.parts(lang))

    @property
    def answer(self) -> str:
        return self.text("en")

    def to_dict(self) -> dict:
        return {"answer": self.answer, "answer_zh": self.text("zh"), "clauses": list(self.clauses)}


class InvalidPosition(ValueError):
    """A position that cannot arise under a ruleset (a fixed rank as level, too many copies, ...)."""


SUIT_EN = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_ZH = {"S": "黑桃", "H": "红桃", "D": "方块", "C": "梅花"}
SHAPE_ZH = {"single": "单张", "pair": "对子", "triple": "三条"}

REASONS_ZH = {
    "ok": "合规",
    "wrong_card_count": "张数不对",
    "cards_not_held": "出了手中没有的牌",
    "must_follow_suit": "手中有首家花色，必须跟出",
    "must_play_tractor": "按跟牌顺序必须出手中的拖拉机",
    "must_play_triple": "按跟牌顺序必须出手中的三条",
    "must_play_pair": "按跟牌顺序必须出手中的对子",
    "mixed_suits": "出牌必须是同一花色（主牌算一门）",
    "throw_not_allowed": "本规则不许甩牌",
    "throw_beaten": "甩牌可被拦",
    "empty_play": "出牌至少一张",
}


def setting_label(key: str, lang: str = "en") -> str:
    return key


def shape_text(shape: str, lang: str) -> str:
    """'tractor(pair, 2)' -> 'a tractor of 2 pairs' / '2对拖拉机'; throws and units likewise."""
    shape = shape.strip()
    if shape.startswith("throw(") and shape.endswith(")"):
        inner = [shape_text(s, lang) for s in _split_top(shape[6:-1])]
        return ("甩牌（" + "＋".join(inner) + "）") if lang == "zh" else "a throw of " + " + ".join(inner)
    if shape.startswith("tractor("):
        element, length = [s.strip() for s in shape[8:-1].split(",")]
        if lang == "zh":
            return f"{length}对拖拉机" if element == "pair" else f"{length}个三条的拖拉机"
        return f"a tractor of {length} {element}s"
    if lang == "zh":
        return SHAPE_ZH.get(shape, shape)
    return {"single": "a single", "pair": "a pair", "triple": "a triple"}.get(shape, shape)


def pattern_zh(pattern: str) -> str:
    """A follow entry in Chinese: 'tractor(pair, 2) + pair + 2 single' -> '2对拖拉机＋对子＋2张散牌'."""
    out = []
    for term in _split_top(pattern):
        m = re.match(r"^(\d+)\s+(.*)$", term)
        n, shape = (int(m.group(1)), m.group(2)) if m else (1, term)
        if shape == "single":
            out.append(f"{n}张散牌" if n > 1 else "散牌")
        elif shape == "pair":
            out.append(f"{n}个对子" if n > 1 else "对子")
        elif shape == "triple":
            out.append(f"{n}个三条" if n > 1 else "三条")
        else:
            t = shape_text(shape, "zh")
            out.append(f"{n}个{t}" if n > 1 else t)
    return "＋".join(out)


def _split_top(s: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "+" and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _ctx(rules: Rules, pos: Position):
    if pos.level in rules["trump.fixed_ranks"]:
        raise InvalidPosition(f"{pos.level} is a fixed trump rank in {rules.name}, not a level")
    try:
        ctx = context(rules, pos.level, pos.trump)
    except CardError as e:
        raise InvalidPosition(str(e)) from None
    hands = pos.all_cards()
    total = Counter(c for h in hands for c in h)
    if pos.kind == "follow" and len(hands) == 3:
        total = Counter(hands[0]) + Counter(hands[1])  # the play comes out of the hand
    try:
        check_copies(total.elements(), rules.decks, "the cards of this position")
    except CardError as e:
        raise InvalidPosition(str(e)) from None
    return ctx, hands


def _order_parts(ctx, cards: list[int], lang: str) -> list[tuple[str, str]]:
    trumps = sorted({c for c in cards if ctx.suit[c] == TRUMP}, key=lambda c: -ctx.key[c])
    side = sorted({c for c in cards if ctx.suit[c] != TRUMP}, key=lambda c: (ctx.suit[c], -ctx.key[c]))
    parts: list[tuple[str, str]] = []
    if trumps:
        parts.append(("text", "主牌由大到小：" if lang == "zh" else "trump, high to low: "))
        prev = None
        for c in trumps:
            if prev is not None:
                parts.append(("text", " = " if ctx.key[c] == ctx.key[prev] else " > "))
            parts.append(("cards", text(c)))
            prev = c
    if side:
        if parts:
            parts.append(("text", "；" if lang == "zh" else "; "))
        parts.append(("text", "副牌：" if lang == "zh" else "not trump: "))
        parts.append(("cards", " ".join(text(c) for c in side)))
    return parts


IMPOSSIBLE = "impossible"


def outcome_or_impossible(rules: Rules, pos: Position) -> Outcome | None:
    """The outcome; for a position the ruleset cannot reach for want of cards, an outcome saying so."""
    try:
        return evaluate(rules, pos)
    except InvalidPosition as e:
        msg = str(e)
        if "deck(s) have only" not in msg:
            return None
        n = rules.decks
        en = (("text", f"cannot arise: {n} decks hold only {n} of each card"),)
        zh = (("text", f"不可能出现：{n}副牌每张只有{n}张"),)
        return Outcome(IMPOSSIBLE, (rules.clause("equipment.decks"),), en, zh)
    except (CardError, KeyError):
        return None


def _both(fn: Callable[[str], list[tuple[str, str]]]) -> tuple[tuple, tuple]:
    return tuple(fn("en")), tuple(fn("zh"))


def evaluate(rules: Rules, pos: Position) -> Outcome:
    """Ask the interpreter ``pos`` under ``rules``. Raises :class:`InvalidPosition`."""
    fn = _EVALUATORS.get(pos.kind)
    if fn is None:
        raise InvalidPosition(f"unknown position kind '{pos.kind}'")
    return fn(rules, pos)


def _eval_shape(rules: Rules, pos: Position) -> Outcome:
    ctx, hands = _ctx(rules, pos)
    combo = classify(ctx, hands[0])
    r = rules
    clauses = tuple(dict.fromkeys((r.clause("tractor.elements"), r.clause("tractor.min_length"),
                                   r.clause("tractor.mixed"), *ctx.adjacency_clauses(), *ctx.order_clauses())))
    if combo.kind == "mixed":
        def parts(lang):
            return [("text", "不是同一花色" if lang == "zh" else "not of one suit")]
        verdict = "mixed"
    else:
        shape = combo.shape()
        verdict = shape

        def parts(lang):
            t = shape_text(shape, lang)
            if combo.kind == "throw":
                t = ("不是一个牌型：" if lang == "zh" else "not one combination: ") + t
            return [("text", t)]
    en, zh = _both(parts)
    return Outcome(verdict, clauses, en, zh)


def _eval_order(rules: Rules, pos: Position) -> Outcome:
    ctx, hands = _ctx(rules, pos)
    cards = hands[0]
    verdict = tuple((text(c), ctx.suit[c] == TRUMP, ctx.key[c]) for c in sorted(set(cards)))
    en, zh = _both(lambda lang: _order_parts(ctx, cards, lang))
    return Outcome(str(verdict), ctx.order_clauses(), en, zh)


def _eval_lead(rules: Rules, pos: Position) -> Outcome:
    ctx, hands = _ctx(rules, pos)
    j = judge_lead(ctx, hands[0], hands[1:])
    combo = j.extra.get("combo")
    shape = combo.shape() if combo is not None and combo.kind not in ("mixed", "empty") else None
    failure = j.extra.get("failure")

    def parts(lang):
        zh = lang == "zh"
        if j.value:
            return [("text", ("可以出：" if zh else "legal: ") + shape_text(shape, lang))]
        if failure is not None:
            out = [("text", "甩牌失败：被拦 " if zh else "the throw fails: blocked "),
                   ("cards", " ".join(text(c) for c in failure.blocked)),
                   ("text", f"；罚{failure.penalty}分；改出 " if zh else f"; penalty {failure.penalty} points; "
                                                                        "must play instead "),
                   ("cards", " ".join(text(c) for c in failure.forced))]
            return out
        return [("text", ("不可以出：" + REASONS_ZH.get(j.reason, j.reason)) if zh
                 else "not legal: " + REASONS.get(j.reason, j.reason))]
    en, zh = _both(parts)
    verdict = (bool(j.value), j.reason, tuple(failure.blocked) if failure else (),
               failure.penalty if failure else 0, tuple(failure.forced) if failure else ())
    return Outcome(str(verdict), j.clauses, en, zh)


def _eval_follow(rules: Rules, pos: Position) -> Outcome:
    ctx, hands = _ctx(rules, pos)
    j = judge_follow(ctx, hands[0], hands[1], hands[2])
    required = j.extra.get("required")

    def parts(lang):
        zh = lang == "zh"
        if j.value:
            t = "合规" if zh else "legal"
        else:
            t = ("不合规：" + REASONS_ZH.get(j.reason, j.reason)) if zh else "not legal: " + REASONS.get(j.reason, j.reason)
        if required:
            if zh:
                t += "（跟牌顺序要求：" + "；".join(pattern_zh(r) for r in required) + "）"
            else:
                t += " (the follow order asks for: " + "; ".join(required) + ")"
        return [("text", t)]
    en, zh = _both(parts)
    return Outcome(str((bool(j.value), j.reason, tuple(required or ()))), j.clauses, en, zh)


def _eval_trick(rules: Rules, pos: Position) -> Outcome:
    ctx, hands = _ctx(rules, pos)
    lead = classify(ctx, hands[0])
    if lead.kind in ("mixed", "empty") or any(len(h) != lead.n for h in hands[1:]):
        raise InvalidPosition("a trick starts with a lead of one suit and every play has as many cards")
    j = judge_trick(ctx, hands)
    points = j.extra.get("points", 0)
    w = j.value

    def parts(lang):
        if lang == "zh":
            who = "首家（第1手）大" if w == 0 else f"第{w + 1}手大"
            return [("text", f"{who}，本轮{points}分")]
        who = "the lead (play 1) wins" if w == 0 else f"play {w + 1} wins"
        return [("text", f"{who}; {points} points in the trick")]
    en, zh = _both(parts)
    return Outcome(str((w, points)), j.clauses, en, zh)


def _eval_kitty(rules: Rules, pos: Position) -> Outcome:
    ctx, hands = _ctx(rules, pos)
    try:
        j = kitty_mod.judge_kitty(ctx, hands[0], pos.side, hands[1])
    except ValueError as e:
        raise InvalidPosition(str(e)) from None
    v = j.value
    mult = j.extra.get("multiplier", 0)
    kp = j.extra.get("kitty_points", 0)

    def parts(lang):
        zh = lang == "zh"
        if not j.extra.get("captured"):
            return [("text", f"不扣底：攻庄方得分不变（底牌{kp}分）" if zh
                     else f"no capture: the attackers' points do not change (kitty {kp} points)")]
        if zh:
            return [("text", f"底分{kp}×{mult}：攻庄方" + (f"加{v}分" if v >= 0 else f"减{-v}分"))]
        return [("text", f"kitty {kp} points × {mult}: the attackers " + (f"gain {v}" if v >= 0 else f"lose {-v}"))]
    en, zh = _both(parts)
    return Outcome(str(v), j.clauses, en, zh)


def _eval_deal(rules: Rules, pos: Position) -> Outcome:
    players = rules["equipment.players"]
    hand, kitty, decks = rules.hand_size, rules.kitty_size, rules.decks
    total = points_of(rules, full_pack(decks))
    clauses = tuple(dict.fromkeys((rules.clause("equipment.decks"), rules.clause("equipment.players"),
                                   rules.clause("equipment.hand_size"), rules.clause("equipment.kitty_size"),
                                   rules.clause("equipment.points"))))

    def parts(lang):
        if lang == "zh":
            return [("text", f"{players}家各{hand}张＋底牌{kitty}张＝{players * hand + kitty}张（{decks}副牌），"
                             f"共{total}分")]
        return [("text", f"{players} hands of {hand} cards + a kitty of {kitty} = {players * hand + kitty} cards "
                         f"({decks} decks); {total} points in the pack")]
    en, zh = _both(parts)
    return Outcome(str((players, hand, kitty, decks, total)), clauses, en, zh)


def _eval_points(rules: Rules, pos: Position) -> Outcome:
    cards = pos.all_cards()[0]
    try:
        check_copies(cards, rules.decks)
    except CardError as e:
        raise InvalidPosition(str(e)) from None
    p = points_of(rules, cards)
    en, zh = _both(lambda lang: [("text", f"{p}分" if lang == "zh" else f"{p} points")])
    return Outcome(p, (rules.clause("equipment.points"),), en, zh)


def _eval_value(rules: Rules, pos: Position) -> Outcome:
    """The value of one or more settings (``key`` may list several, separated by ``", "``)."""
    rs = rules.checked
    texts, clauses = [], []
    feats = None
    for key in (pos.key or "").split(", "):
        if key.startswith("follow ") or key == "score.bands":
            feats = feats or features(rs)
            feat = feats.get(key)
            t = feat.text if feat else "none"
            clause = feat.clause if feat and feat.clause else None
        else:
            if key not in rs.values:
                raise InvalidPosition(f"{rules.name} does not set {key}")
            t = value_text(rs.values[key])
            clause = rs.origins[key].clause.id if key in rs.origins else None
        texts.append(f"{key} = {t}")
        if clause and clause not in clauses:
            clauses.append(clause)
    answer = "; ".join(texts)
    en, zh = _both(lambda lang: [("text", answer)])
    return Outcome(answer, tuple(clauses), en, zh)


_EVALUATORS: dict[str, Callable[[Rules, Position], Outcome]] = {
    "shape": _eval_shape, "order": _eval_order, "lead": _eval_lead, "follow": _eval_follow,
    "trick": _eval_trick, "kitty": _eval_kitty, "deal": _eval_deal, "points": _eval_points,
    "value": _eval_value,
}


def register(kind: str, evaluator: Callable[[Rules, Position], Outcome], question=None) -> None:
    """Add a kind of position (for interpreter modules added later)."""
    _EVALUATORS[kind] = evaluator
    if question is not None:
        _QUESTIONS[kind] = question


def try_evaluate(rules: Rules, pos: Position, lenient: bool = False) -> Outcome | None:
    """The outcome, or None when the position cannot arise under ``rules``.

    ``lenient`` also swallows any error, for counterfactual rules (one feature
    changed) that may be inconsistent in ways no checked ruleset is.
    """
    try:
        return evaluate(rules, pos)
    except (InvalidPosition, CardError, KeyError):
        return None
    except Exception:
        if lenient:
            return None
        raise


# --------------------------------------------------------------------------
# questions, as text parts
# --------------------------------------------------------------------------

_CARD_KINDS = ("shape", "order", "lead", "follow", "trick", "kitty")


def _setting_parts(pos: Position, lang: str) -> list[tuple[str, str]]:
    if pos.level is None or pos.kind not in _CARD_KINDS:
        return []
    zh = lang == "zh"
    if pos.trump is None:
        t = "无主" if zh else "no trump suit"
    else:
        t = f"{SUIT_ZH[pos.trump]}为主" if zh else f"{SUIT_EN[pos.trump]} trump"
    return [("text", f"打{pos.level}，{t}：" if zh else f"Level {pos.level}, {t}: ")]


def _cards_or_none(s: str, lang: str) -> list[tuple[str, str]]:
    if s.strip():
        return [("cards", s)]
    return [("text", "（无牌）" if lang == "zh" else "(nothing)")]


def _q_shape(pos, lang):
    if lang == "zh":
        return [("cards", pos.hands[0]), ("text", " 是什么牌型？")]
    return [("text", "what is "), ("cards", pos.hands[0]), ("text", "?")]


def _q_order(pos, lang):
    if lang == "zh":
        return [("text", "这些牌的大小顺序？"), ("cards", pos.hands[0])]
    return [("text", "how do these cards rank? "), ("cards", pos.hands[0])]


def _q_lead(pos, lang):
    out = [("text", "能否出 " if lang == "zh" else "may the leader play "), ("cards", pos.hands[0])]
    out.append(("text", "？其他三家依次持有：" if lang == "zh" else "? The other hands, in turn, hold: "))
    for i, h in enumerate(pos.hands[1:]):
        if i:
            out.append(("text", " ｜ " if lang == "zh" else " | "))
        out.extend(_cards_or_none(h, lang))
    return out


def _q_follow(pos, lang):
    if lang == "zh":
        return [("text", "首家出 "), ("cards", pos.hands[0]), ("text", "；跟牌者持有 "), ("cards", pos.hands[1]),
                ("text", "；能否跟 "), ("cards", pos.hands[2]), ("text", "？")]
    return [("text", "lead "), ("cards", pos.hands[0]), ("text", "; the follower holds "), ("cards", pos.hands[1]),
            ("text", "; may he play "), ("cards", pos.hands[2]), ("text", "?")]


def _q_trick(pos, lang):
    out = [("text", "依次出牌 " if lang == "zh" else "plays in turn ")]
    for i, h in enumerate(pos.hands):
        if i:
            out.append(("text", "，" if lang == "zh" else ", "))
        out.append(("cards", h))
    out.append(("text", "：谁大？" if lang == "zh" else ": who wins?"))
    return out


def _q_kitty(pos, lang):
    side_zh = {"attackers": "攻庄方", "banker": "守庄方"}.get(pos.side or "", pos.side or "")
    if lang == "zh":
        return [("text", f"{side_zh}以 "), ("cards", pos.hands[0]), ("text", " 赢得最后一轮，底牌为 "),
                ("cards", pos.hands[1]), ("text", "：底牌算多少分？")]
    side = {"attackers": "the attackers", "banker": "the banker side"}.get(pos.side or "", pos.side or "")
    return [("text", f"{side} win the last trick with "), ("cards", pos.hands[0]), ("text", "; the kitty is "),
            ("cards", pos.hands[1]), ("text", ": what is it worth?")]


def _q_deal(pos, lang):
    return [("text", "如何发牌？" if lang == "zh" else "how are the cards dealt?")]


def _q_points(pos, lang):
    if lang == "zh":
        return [("cards", pos.hands[0]), ("text", " 共多少分？")]
    return [("text", "how many points are in "), ("cards", pos.hands[0]), ("text", "?")]


def _q_value(pos, lang):
    return [("text", f"规则对 {pos.key} 的设定？" if lang == "zh" else f"what does the rulebook set for {pos.key}?")]


_QUESTIONS: dict[str, Callable] = {
    "shape": _q_shape, "order": _q_order, "lead": _q_lead, "follow": _q_follow, "trick": _q_trick,
    "kitty": _q_kitty, "deal": _q_deal, "points": _q_points, "value": _q_value,
}


def question_parts(pos: Position, lang: str = "en") -> list[tuple[str, str]]:
    """The question a position asks, as ``("text", s)`` and ``("cards", notation)`` parts."""
    q = _QUESTIONS.get(pos.kind)
    body = q(pos, lang) if q else [("text", pos.kind)]
    return _setting_parts(pos, lang) + body


def question_text(pos: Position, lang: str = "en") -> str:
    return "".join(s for _, s in question_parts(pos, lang))


# --------------------------------------------------------------------------
# candidate positions, by feature
# --------------------------------------------------------------------------

def _P(kind, level=None, trump=None, *hands, side=None, key=None) -> Position:
    return Position(kind, level, trump, tuple(hands), side, key)


CURATED: dict[str, list[Position]] = {
    "shape": [
        _P("shape", "6", "S", "5H 5H 7H 7H"),            # either side of the level rank
        _P("shape", "6", "S", "8H 8H 9H 9H 9H"),         # a pair next to a triple
        _P("shape", "6", "S", "7H 7H 8H 8H"),
        _P("shape", "6", "S", "8H 8H 8H 9H 9H 9H"),
        _P("shape", "3", "C", "2H 2H 3H 3H"),            # 001 10.1: off-suit 2s and 3s at level 3
        _P("shape", "5", "H", "J+ J+ J- J-"),
        _P("shape", "5", "H", "J- J- 5H 5H"),
        _P("shape", "5", "H", "5H 5H 5S 5S"),
        _P("shape", "5", "H", "5S 5S AH AH"),
        _P("shape", "6", "H", "AH AH 2H 2H"),
        _P("shape", "5", "H", "4H 4H 6H 6H"),
        _P("shape", "6", "S", "7H 7H 8H 8H 9H 9H"),
        _P("shape", "6", "H", "2S 2S 2C 2C"),
        _P("shape", "6", "S", "6H 6H 7H 7H"),
    ],
    "order": [
        _P("order", "5", "H", "J+ J- 5H 5S 5C AH KH 2H 2S AS"),
        _P("order", "6", "H", "2H 2S 2C AH 6H 6S 3H"),
        _P("order", "5", None, "J+ J- 5H 5S 2H AH"),
    ],
    "trick": [
        _P("trick", "6", "S", "QH QH KH KH AH AH", "8H 8H 8H 9H 9H 9H"),
        _P("trick", "5", "H", "5S", "5C"),
        _P("trick", "6", "H", "2S", "2C"),
        _P("trick", "6", "H", "2S", "2H"),
        _P("trick", "6", "S", "AH AH 9H 8H", "3S 3S 4S 4S"),
        _P("trick", "6", "H", "KH KH QH QH", "AH AH 2H 2H"),
        _P("trick", "6", "S", "AH KH KH", "9S 9S 3S", "4S 4S AS"),
        _P("trick", "6", "S", "5H", "10H", "KH", "3H"),
        _P("trick", "5", "H", "4H 4H 6H 6H", "J- J- 5H 5H"),
        _P("trick", "6", "S", "AH AH KH KH", "3S 3S 4S 4S"),
        _P("trick", "6", "S", "KH KH KH QH QH QH", "3S 3S 3S 4S 4S 4S"),
        _P("trick", "6", "S", "7H 7H 8H 8H", "5S 5S 5D 5D"),
    ],
    "lead": [
        _P("lead", "6", "S", "KH KH AH", "AH 3D", "QH QH", "2C"),
        _P("lead", "6", "S", "AH AH 9H", "KH", "", ""),
        _P("lead", "6", "S", "QH QH AH", "KH", "", ""),
        _P("lead", "6", "S", "AH KH", "", "KH", ""),
        _P("lead", "6", "S", "AH AH KH KH 9H", "10H", "", "JH"),
        _P("lead", "6", "S", "AH AH 9H", "", "KH", ""),
        _P("lead", "6", "S", "KH KH AH", "QH QH", "AH", ""),
    ],
    "follow": [
        _P("follow", "6", "S", "8H 8H", "QH QH QH 3H 4H 5D", "3H 4H"),
        _P("follow", "6", "S", "8H 8H 9H 9H", "JH JH 4H 3H 5H 7D", "4H 3H 5H JH"),
        _P("follow", "6", "S", "8H 8H 9H 9H", "JH JH 4H 3H 5H 7D", "4H 3H 5H 7D"),
        _P("follow", "6", "S", "8H 8H 8H", "QH QH 3H 4H", "QH 3H 4H"),
        _P("follow", "6", "S", "7H 7H 8H 8H 9H 9H", "QH QH QH JH JH JH 3H", "QH QH QH JH JH 3H"),
        _P("follow", "6", "S", "8H 8H 8H 9H 9H 9H", "QH QH QH JH JH 4H 4H 3H", "QH QH QH JH JH 4H"),
        _P("follow", "6", "S", "AH AH KH", "QH QH 3H 4H", "3H 4H QH"),
    ],
    "kitty": [
        _P("kitty", "6", "S", "3S", "5H 10H KD 2C 4C 7C", side="attackers"),
        _P("kitty", "6", "S", "3S 3S", "5H 10H KD 2C 4C 7C", side="attackers"),
        _P("kitty", "6", "S", "AH", "5H 10H KD 2C 4C 7C", side="attackers"),
        _P("kitty", "6", "S", "3S 3S 3S", "5H 10H KD 2C 4C 7C", side="attackers"),
        _P("kitty", "6", "S", "3S 3S 4S 4S", "5H 10H KD 2C 4C 7C", side="attackers"),
        _P("kitty", "6", "S", "3S 3S 3S 4S 4S 4S", "5H 10H KD 2C 4C 7C", side="attackers"),
        _P("kitty", "6", "S", "AH AH KH", "5H 10H KD 2C 4C 7C", side="attackers"),
        _P("kitty", "6", "S", "3S 3S", "5H 10H KD 2C 4C 7C", side="banker"),
        _P("kitty", "6", "S", "3S", "5H 10H KD 2C 4C 7C", side="banker"),
        _P("kitty", "6", "S", "AH AH", "5H 10H KD 2C 4C 7C", side="attackers"),
    ],
    "points": [_P("points", None, None, "5H 10S KD 3C 5C")],
    "deal": [_P("deal")],
}


# Positions that show a feature best, tried before the rest of its families.
PREFERRED: dict[str, list[Position]] = {
    "tractor.bridge_level": [_P("shape", "6", "S", "5H 5H 7H 7H")],
    "tractor.mixed": [_P("shape", "6", "S", "8H 8H 9H 9H 9H")],
    "tractor.min_length": [_P("shape", "6", "S", "7H 7H 8H 8H")],
    "tractor.elements": [_P("shape", "6", "S", "8H 8H 8H 9H 9H 9H")],
    "tractor.junctions": [_P("shape", "5", "H", "J+ J+ J- J-"), _P("shape", "5", "H", "J- J- 5H 5H"),
                          _P("shape", "5", "H", "5H 5H 5S 5S"), _P("shape", "5", "H", "5S 5S AH AH")],
    "trump.equal_cards": [_P("trick", "5", "H", "5S", "5C")],
    "equipment.points": [_P("points", None, None, "5H 10S KD 3C 5C")],
    "level.end": [Position("advance", level="K", points=1, side="banker"),
                  Position("advance", level="Q", points=3, side="banker")],
    "level.must_play": [Position("advance", level="K", points=3, side="attackers"),
                        Position("advance", level="Q", points=3, side="banker")],
}


def families(key: str) -> list[str]:
    """Which kinds of position can show a feature."""
    if key.startswith("follow "):
        return ["follow"]
    if key.startswith("equipment."):
        return ["points", "trick"] if key == "equipment.points" else ["deal"]
    if key in ("trump.order", "trump.fixed_ranks"):
        return ["order", "trick", "shape"]
    if key == "trump.equal_cards":
        return ["trick"]
    if key.startswith("tractor."):
        return ["shape", "trick"]
    if key.startswith("compare.") or key.startswith("ruff."):
        return ["trick"]
    if key == "throw.late":
        return ["fault"]
    if key.startswith("throw."):
        return ["lead"]
    if key.startswith("follow."):
        return ["follow"]
    if key.startswith("kitty.") and key != "kitty.exchange":
        return ["kitty"]
    game = _game_families(key)
    if game:
        return game
    return [k for k, keys in _EXTRA_FAMILIES.items() if key in keys or any(key.startswith(p) for p in keys
                                                                           if p.endswith("."))]


# kind -> settings (or "prefix.") it shows; filled by register_family
_EXTRA_FAMILIES: dict[str, tuple[str, ...]] = {}
_EXTRA_GENERATORS: dict[str, Callable[[random.Random, "Space"], Position]] = {}


def register_family(kind: str, keys: Sequence[str], curated: Sequence[Position] = (),
                    generator: Callable[[random.Random, "Space"], Position] | None = None) -> None:
    _EXTRA_FAMILIES[kind] = tuple(keys)
    CURATED.setdefault(kind, []).extend(curated)
    if generator is not None:
        _EXTRA_GENERATORS[kind] = generator


@dataclass(frozen=True)
class Space:
    """What the positions may use so that every ruleset compared can play them."""

    levels: tuple[str, ...]
    decks: int
    key: str
    kitty: int | None = None      # the kitty size, when all share one

    @classmethod
    def of(cls, rulesets: Sequence[Rules], key: str) -> "Space":
        levels = None
        for r in rulesets:
            ok = [x for x in r["level.ranks"] if x not in r["trump.fixed_ranks"]]
            levels = ok if levels is None else [x for x in levels if x in ok]
        decks = min(r.decks for r in rulesets)
        kitties = {r.kitty_size for r in rulesets}
        return cls(tuple(levels or ("6",)), decks, key, kitties.pop() if len(kitties) == 1 else None)


def _suit_cards(suit: str, ranks: Sequence[str]) -> list[str]:
    return [r + suit for r in ranks]


def _rand_setting(rng: random.Random, space: Space) -> tuple[str, str | None]:
    level = rng.choice(space.levels)
    trump = rng.choice(SUIT_LETTERS + ((None,) if rng.random() < 0.1 else ()))
    return level, trump


def _rand_cluster(rng: random.Random, space: Space, level: str, trump: str | None, n_ranks: int,
                  sizes: Sequence[int], suit: str | None = None) -> list[str]:
    """Cards of a few neighbouring ranks of one suit, each repeated ``size`` times."""
    suit = suit or rng.choice(SUIT_LETTERS)
    start = rng.randrange(0, 13 - n_ranks + 1)
    ranks = list(RANKS[start:start + n_ranks + (1 if rng.random() < 0.4 else 0)])
    rng.shuffle(ranks)
    ranks = ranks[:n_ranks]
    out = []
    for r in ranks:
        size = min(rng.choice(sizes), space.decks)
        out.extend([r + suit] * size)
    return out


def _gen_shape(rng: random.Random, space: Space) -> Position:
    level, trump = _rand_setting(rng, space)
    if rng.random() < 0.25:
        specials = ["J+", "J-"] + [level + s for s in SUIT_LETTERS] + (["A" + trump, "2" + trump] if trump else [])
        picks = rng.sample(specials, 2)
        size = min(rng.choice((2, 3)), space.decks)
        cards = [c for c in picks for _ in range(size)]
    else:
        cards = _rand_cluster(rng, space, level, trump, rng.choice((2, 2, 3)), (2, 3))
    return _P("shape", level, trump, " ".join(cards))


def _gen_order(rng: random.Random, space: Space) -> Position:
    level, trump = _rand_setting(rng, space)
    pool = ["J+", "J-"] + [r + s for r in (level, "2", "A", "K", "3") for s in SUIT_LETTERS]
    return _P("order", level, trump, " ".join(rng.sample(pool, 6)))


def _gen_trick(rng: random.Random, space: Space) -> Position:
    level, trump = _rand_setting(rng, space)
    side = rng.choice([s for s in SUIT_LETTERS if s != trump])
    lead = _rand_cluster(rng, space, level, trump, rng.choice((1, 2, 3)), (1, 2, 3), side)
    n = len(lead)
    plays = [" ".join(lead)]
    used = Counter(lead)
    for _ in range(rng.choice((1, 2, 3))):
        suit = rng.choice([side, trump or side])
        for _attempt in range(5):
            play = _rand_cluster(rng, space, level, trump, rng.choice((1, 2, 3)), (1, 2, 3), suit)
            if len(play) >= n:
                play = play[:n]
                break
        else:
            continue
        if len(play) != n or any(used[c] + k > space.decks for c, k in Counter(play).items()):
            continue
        used.update(play)
        plays.append(" ".join(play))
    return Position("trick", level, trump, tuple(plays))


def _deal_suit(rng: random.Random, space: Space, suit: str, level: str, n: int, used: Counter) -> list[str]:
    ranks = [r for r in RANKS if r != level]
    out = []
    for _ in range(n * 3):
        if len(out) >= n:
            break
        c = rng.choice(ranks[-8:]) + suit
        if used[c] < space.decks:
            used[c] += 1
            out.append(c)
    return out


def _gen_lead(rng: random.Random, space: Space) -> Position:
    level, trump = _rand_setting(rng, space)
    suit = rng.choice([s for s in SUIT_LETTERS if s != trump])
    used: Counter = Counter()
    lead = _rand_cluster(rng, space, level, trump, rng.choice((2, 3)), (1, 2, 2, 3), suit)
    lead = [c for c in lead if c[:-1] != level]
    used.update(lead)
    others = [" ".join(_deal_suit(rng, space, suit, level, rng.choice((0, 1, 2)), used)) for _ in range(3)]
    return Position("lead", level, trump, (" ".join(lead),) + tuple(others))


_LEAD_SHAPES = {
    "single": [1], "pair": [2], "triple": [3],
    "tractor(pair, 2)": [2, 2], "tractor(pair, 3)": [2, 2, 2], "tractor(triple, 2)": [3, 3],
    "tractor(pair, 4)": [2, 2, 2, 2], "tractor(triple, 3)": [3, 3, 3],
}


def _gen_follow(rng: random.Random, space: Space) -> Position:
    level, trump = "6", "S"
    suit = "H"
    key = space.key
    shape = key[len("follow "):] if key.startswith("follow ") else rng.choice(list(_LEAD_SHAPES)[:6])
    sizes = _LEAD_SHAPES.get(shape, [2, 2])
    if max(sizes) > space.decks:
        sizes = [min(s, space.decks) for s in sizes]
    ranks = ["7", "8", "9", "10"][:len(sizes)] if len(sizes) > 1 else [rng.choice(["8", "9"])]
    if key == "follow.unlisted" and rng.random() < 0.5:  # a throw: a pair and a single
        lead = ["AH", "AH", "KH"] if space.decks >= 2 else ["AH", "KH"]
    else:
        lead = [r + suit for r, s in zip(ranks, sizes) for _ in range(s)]
    used = Counter(lead)
    hand: list[str] = []
    pool = [r for r in RANKS if r not in (level, "2")]
    n_hand = len(lead) + rng.choice((1, 2, 3, 4))
    while len(hand) < n_hand:
        r = rng.choice(pool)
        k = min(rng.choice((1, 1, 2, 3)), n_hand - len(hand))
        for _ in range(k):
            c = r + suit
            if used[c] < space.decks:
                used[c] += 1
                hand.append(c)
    hand += ["7D", "3C"][:rng.choice((0, 1, 2))]
    n = len(lead)
    hearts = sorted(c for c in hand if c.endswith(suit))
    plays = sorted({tuple(sorted(p)) for p in itertools.combinations(hearts, n)})
    play = list(rng.choice(plays)) if plays else hand[:n]
    return Position("follow", level, trump, (" ".join(lead), " ".join(hand), " ".join(play)))


def _gen_kitty(rng: random.Random, space: Space) -> Position:
    level, trump = _rand_setting(rng, space)
    suit = rng.choice(SUIT_LETTERS)
    play = _rand_cluster(rng, space, level, trump, rng.choice((1, 2)), (1, 2, 3), suit)
    kitty = ["5H", "10C", "KD", "3S", "4S", "7D"][:6]
    return Position("kitty", level, trump, (" ".join(play), " ".join(kitty)),
                    side=rng.choice(("attackers", "attackers", "banker")))


_GENERATORS: dict[str, Callable[[random.Random, Space], Position]] = {
    "shape": _gen_shape, "order": _gen_order, "trick": _gen_trick, "lead": _gen_lead,
    "follow": _gen_follow, "kitty": _gen_kitty,
}


def _seed(*parts: str) -> int:
    return zlib.crc32("|".join(parts).encode("utf-8"))


def candidates(key: str, space: Space, n_random: int = 250) -> Iterator[Position]:
    """Positions that may show ``key``: the curated ones of each family, then random ones."""
    fams = families(key)
    for pos in PREFERRED.get(key, ()):
        if pos.level is None or pos.level in space.levels or pos.kind == "advance":
            yield pos
    for fam in fams:
        for pos in CURATED.get(fam, ()):
            if pos.level is None or pos.level in space.levels or fam == "advance":
                yield pos
    rng = random.Random(_seed(key, str(space.levels), str(space.decks)))
    gens = [(_GENERATORS.get(f) or _EXTRA_GENERATORS.get(f)) for f in fams]
    gens = [g for g in gens if g is not None]
    if not gens:
        return
    for i in range(n_random):
        gen = gens[i % len(gens)]
        try:
            yield gen(rng, space)
        except (IndexError, ValueError):
            continue


# --------------------------------------------------------------------------
# positions of the whole hand and game: score, levels, declaring, faults
# --------------------------------------------------------------------------


SIDE_EN = {"banker": "the banker side", "attackers": "the attackers"}
SIDE_ZH = {"banker": "守庄方", "attackers": "攻庄方"}
FAULT_EN = {"failed_throw": "a failed throw", "revoke": "a revoke (藏牌)", "wrong_count": "a wrong card count (劳改)",
            "wrong_kitty": "a wrong kitty (埋底张数不对)", "exposed_card": "an exposed card (罚张)",
            "wrong_declaration": "a wrong declaration", "played_count": "a play of too many or too few cards",
            "looking_back": "a look at played cards", "signals": "a signal to a partner", "lateness": "lateness"}
FAULT_ZH = {"failed_throw": "甩牌失败", "revoke": "藏牌", "wrong_count": "劳改（牌数不对）",
            "wrong_kitty": "埋底张数不对", "exposed_card": "罚张", "wrong_declaration": "亮错牌",
            "played_count": "出多牌或出少牌", "looking_back": "查阅已出的牌", "signals": "示意对家", "lateness": "迟到"}
DECLARE_REASONS_ZH = {
    "kitty_taken": "底牌已拿起，不能再亮主或反主",
    "missing_first_hand_card": "首盘亮主须同时亮出规定的牌",
    "wrong_count": "张数不对（无牌、单张王或超过牌副数）",
    "mixed_cards": "亮出的牌不相同",
    "not_level_card": "亮出的不是本盘级牌",
    "jokers_not_allowed": "本规则王不能亮主",
    "no_reinforce": "不能加固",
    "self_overcall": "不能反自己",
    "jokers_only": "已被反过，只能用王再反",
    "too_weak": "不够大，反不了",
}


def _result_parts(result, lang: str) -> list[tuple[str, str]]:
    zh = lang == "zh"
    if result.rebid:
        return [("text", "该盘作废，双方在原级上抢庄" if zh else "the hand is void: both sides bid for the bank")]
    n = result.levels
    if result.next_banker == "banker":
        return [("text", f"守庄方保庄，升{n}级" if zh else
                 f"the banker side keeps the bank and rises {n} level{'s' if n != 1 else ''}")]
    if n == 0:
        return [("text", "攻庄方上台，不升级" if zh else "the attackers take the stage, no level")]
    return [("text", f"攻庄方上台并升{n}级" if zh else
             f"the attackers take the stage and rise {n} level{'s' if n != 1 else ''}")]


def _eval_score(rules: Rules, pos: Position) -> Outcome:
    try:
        j = scoring_mod.judge_result(rules, pos.points)
    except ValueError as e:
        raise InvalidPosition(str(e)) from None
    r = j.value
    en, zh = _both(lambda lang: _result_parts(r, lang))
    return Outcome(str((r.next_banker, r.levels, r.rebid)), j.clauses, en, zh)


def _q_score(pos, lang):
    return [("text", f"攻庄方本盘得{pos.points}分：结果如何？" if lang == "zh"
             else f"the attackers end the hand with {pos.points} points: what follows?")]


def _eval_advance(rules: Rules, pos: Position) -> Outcome:
    try:
        j = levels_mod.advance(rules, pos.level, pos.points, pos.side == "banker")
    except ValueError as e:
        raise InvalidPosition(str(e)) from None
    a = j.value
    end = rules["level.end"]

    def parts(lang):
        if a.won:
            return [("text", f"打过{end}，赢得本局" if lang == "zh" else f"it passes {end}: the game is won")]
        return [("text", f"打到{a.level}" if lang == "zh" else f"it reaches {a.level}")]
    en, zh = _both(parts)
    return Outcome(str((a.level, a.won)), j.clauses, en, zh)


def _q_advance(pos, lang):
    if lang == "zh":
        return [("text", f"打{pos.level}的一方作为{SIDE_ZH.get(pos.side, pos.side)}升{pos.points}级：打到几？")]
    return [("text", f"a team at level {pos.level} gains {pos.points} level{'s' if pos.points != 1 else ''} as "
                     f"{SIDE_EN.get(pos.side, pos.side)}: where does it stand?")]


def _declarations(pos: Position, wrong: bool = False) -> list[tuple[int, list[int]]]:
    """The declarations (``"SEAT: CARDS"``), or with ``wrong`` the earlier wrong ones (``"SEAT!: CARDS"``)."""
    out = []
    for h in pos.hands:
        seat, _, cards = h.partition(":")
        if seat.endswith("!") == wrong:
            out.append((int(seat.rstrip("!")), parse_cards(cards)))
    return out


def _trump_words(trump, lang: str) -> str:
    if trump is None:
        return "无主" if lang == "zh" else "none"
    if trump == "no_trump":
        return "无主" if lang == "zh" else "no trump"
    letter = SUIT_LETTERS[trump]
    return f"{SUIT_ZH[letter]}为主" if lang == "zh" else f"{SUIT_EN[letter]} trump"


def _eval_declare(rules: Rules, pos: Position) -> Outcome:
    if pos.level in rules["trump.fixed_ranks"]:
        raise InvalidPosition(f"{pos.level} is a fixed trump rank in {rules.name}")
    seq, wrong = _declarations(pos), _declarations(pos, wrong=True)
    try:
        check_copies([c for _, cs in seq for c in cs], rules.decks, "the declarations")
        j = declaring_mod.judge_declarations(rules, pos.level, seq, bool(pos.first_hand),
                                             banker=None if pos.first_hand else 0, wrong=wrong)
    except (ValueError, CardError) as e:
        raise InvalidPosition(str(e)) from None
    st = j.value
    pen = j.extra.get("penalty_points", 0)

    def parts(lang):
        zh = lang == "zh"
        if st.legal:
            t = (f"合规：{_trump_words(st.trump, lang)}，{st.declarer}号位亮主，{st.banker}号位坐庄" if zh else
                 f"legal: {_trump_words(st.trump, lang)}, declared by seat {st.declarer}; seat {st.banker} is banker")
            return [("text", t)]
        i = j.extra.get("index", 0) + 1
        why = (DECLARE_REASONS_ZH.get(j.reason, j.reason) if zh else
               getattr(declaring_mod, "REASONS", {}).get(j.reason, j.reason))
        t = f"第{i}次亮牌不成立：{why}" if zh else f"declaration {i} is refused: {why}"
        if pen:
            t += f"；罚{pen}分" if zh else f"; penalty {pen} points"
        return [("text", t)]
    en, zh = _both(parts)
    return Outcome(str((st.legal, j.reason, st.trump, st.declarer, st.banker, pen)), j.clauses, en, zh)


def _q_declare(pos, lang):
    zh = lang == "zh"
    if pos.first_hand:
        head = f"首盘，打{pos.level}，依次亮牌：" if zh else f"First hand, level {pos.level}; declarations in turn: "
    else:
        head = (f"非首盘（0号位坐庄），打{pos.level}，依次亮牌：" if zh else
                f"A later hand (seat 0 is banker), level {pos.level}; declarations in turn: ")
    out = [("text", head)]
    for i, h in enumerate(pos.hands):
        seat, _, cards = h.partition(":")
        if i:
            out.append(("text", "；" if zh else "; "))
        if seat.endswith("!"):
            seat = seat.rstrip("!")
            out.append(("text", f"{seat}号位亮错 " if zh else f"seat {seat} wrongly shows "))
        else:
            out.append(("text", f"{seat}号位亮 " if zh else f"seat {seat} shows "))
        out.append(("cards", cards.strip()))
    out.append(("text", "。结果？" if zh else ". What stands?"))
    return out


def _eval_undeclared(rules: Rules, pos: Position) -> Outcome:
    kitty = pos.cards(0)
    if len(kitty) > rules.kitty_size:
        raise InvalidPosition(f"the kitty of {rules.name} has {rules.kitty_size} cards")
    try:
        check_copies(kitty, rules.decks)
        j = declaring_mod.judge_undeclared(rules, kitty, bool(pos.first_hand), pos.level, pos.other_level)
    except (ValueError, CardError) as e:
        raise InvalidPosition(str(e)) from None
    u = j.value

    def parts(lang):
        zh = lang == "zh"
        if u.redeal:
            if u.banker_side is None:
                return [("text", "重新摸牌" if zh else "the cards are redealt")]
            who = SIDE_ZH[u.banker_side] if zh else SIDE_EN[u.banker_side]
            return [("text", f"庄家憋死，重新摸牌：{who}坐庄，打{u.level}" if zh else
                     f"the banker is smothered: redeal, {who} bank, at level {u.level}")]
        out = []
        if u.kitty_index is not None:
            out += [("text", f"底牌第{u.kitty_index + 1}张 " if zh else f"kitty card {u.kitty_index + 1}, "),
                    ("cards", text(kitty[u.kitty_index])), ("text", "，" if zh else ", ")]
        out.append(("text", ("定主：" if zh else "names trump: ") + _trump_words(u.trump, lang)))
        if u.first_hand_banker:
            who_zh = {"first_drawer": "先摸牌者"}.get(u.first_hand_banker, u.first_hand_banker)
            who_en = u.first_hand_banker.replace("_", " ")
            out.append(("text", f"；由{who_zh}坐庄" if zh else f"; the {who_en} is banker"))
        return out
    en, zh = _both(parts)
    return Outcome(str((u.trump, u.redeal, u.banker_side, u.level_of, u.level, u.kitty_index)), j.clauses, en, zh)


def _q_undeclared(pos, lang):
    if lang == "zh":
        when = "首盘" if pos.first_hand else "非首盘"
        return [("text", f"{when}无人亮主（庄家打{pos.level}，攻庄方打{pos.other_level}）；底牌从第一张起依次为 "),
                ("cards", pos.hands[0]), ("text", "：怎么办？")]
    when = "the first hand" if pos.first_hand else "a later hand"
    return [("text", f"nobody declares in {when} (banker at {pos.level}, attackers at {pos.other_level}); "
                     "the kitty begins, from its first card, "), ("cards", pos.hands[0]),
            ("text", ": what happens?")]


def _eval_fault(rules: Rules, pos: Position) -> Outcome:
    points = int(pos.other_level or 0)
    fault, _, found = (pos.key or "").partition(":")
    try:
        j = penalties_mod.judge_fault(rules, fault, pos.side, pos.points or 0, found=found or "at_once",
                                      minutes=pos.points if fault == "lateness" else None)
        f = j.value
        clauses = list(j.clauses)
        result = None
        if f.consequence != "none":
            r = penalties_mod.apply_consequence(rules, f.consequence, pos.side, points + f.points_delta,
                                                j.extra.get("setting"))
            result = r.value
            clauses += [c for c in r.clauses if c not in clauses]
    except ValueError as e:
        raise InvalidPosition(str(e)) from None

    def parts(lang):
        zh = lang == "zh"
        t = f"攻庄方得分{f.points_delta:+d}" if zh else f"the attackers' points {f.points_delta:+d}"
        if f.ends_hand:
            t += "，该盘即结束" if zh else ", and the hand ends at once"
        out = [("text", t)]
        if result is not None:
            out.append(("text", "；然后：" if zh else "; then "))
            out += _result_parts(result, lang)
        return out
    en, zh = _both(parts)
    return Outcome(str((f.points_delta, f.ends_hand, f.consequence, result)), tuple(clauses), en, zh)


def _q_fault(pos, lang):
    n = pos.points or 0
    fault, _, found = (pos.key or "").partition(":")
    if lang == "zh":
        count = f"{n}分钟" if fault == "lateness" else f"{n}张"
        return [("text", f"{SIDE_ZH.get(pos.side, pos.side)}{FAULT_ZH.get(fault, fault)}（{count}）"
                         + ("，过后才发现" if found == "late" else "") + f"，攻庄方已得{pos.other_level}分：如何处理？")]
    verb = "commits" if pos.side == "banker" else "commit"
    count = f"{n} minute{'s' if n != 1 else ''}" if fault == "lateness" else f"{n} card{'s' if n != 1 else ''}"
    return [("text", f"{SIDE_EN.get(pos.side, pos.side)} {verb} {FAULT_EN.get(fault, fault)} ({count})"
                     + (", found only later," if found == "late" else "")
                     + f" when the attackers hold {pos.other_level} points: what follows?")]


def _eval_next_banker(rules: Rules, pos: Position) -> Outcome:
    seat = game_mod.next_banker(rules, 0, pos.side)
    clauses = (rules.clause("bank.succession"),)

    def parts(lang):
        return [("text", f"{seat}号位坐庄" if lang == "zh" else f"seat {seat} is the next banker")]
    en, zh = _both(parts)
    return Outcome(seat, clauses, en, zh)


def _q_next_banker(pos, lang):
    if lang == "zh":
        return [("text", f"0号位坐庄，本盘后由{SIDE_ZH.get(pos.side, pos.side)}坐庄：下一盘谁是庄家？")]
    verb = "holds" if pos.side == "banker" else "hold"
    return [("text", f"seat 0 was banker and {SIDE_EN.get(pos.side, pos.side)} {verb} the bank next: "
                     "which seat is the next banker?")]


def _eval_timeout(rules: Rules, pos: Position) -> Outcome:
    try:
        j = levels_mod.timeout_winner(rules, {"team 0": pos.level, "team 1": pos.other_level},
                                      f"team {pos.side}", f"team {pos.side}")
    except ValueError as e:
        raise InvalidPosition(str(e)) from None
    w = j.value

    def parts(lang):
        return [("text", f"{w.replace('team ', '')}队胜" if lang == "zh" else f"{w} wins")]
    en, zh = _both(parts)
    return Outcome(w, j.clauses, en, zh)


def _q_timeout(pos, lang):
    if lang == "zh":
        return [("text", f"时间到：0队打{pos.level}，1队打{pos.other_level}，{pos.side}队坐庄：谁胜？")]
    return [("text", f"time runs out with team 0 at {pos.level} and team 1 at {pos.other_level}; "
                     f"team {pos.side} holds the bank: who wins?")]


def _eval_first_hand(rules: Rules, pos: Position) -> Outcome:
    g = game_mod.play_game(rules, pos.points or 0, max_hands=1)
    start = g.levels[0]
    level = g.hands[0].level if g.hands else None
    clauses = (rules.clause("level.start"),)

    def parts(lang):
        if lang == "zh":
            return [("text", f"双方都从{start[0]}打起；第一盘打{level}")]
        return [("text", f"both teams start at {start[0]}; the first hand is played at level {level}")]
    en, zh = _both(parts)
    return Outcome(str((start[0], start[1], level)), clauses, en, zh)


def _q_first_hand(pos, lang):
    return [("text", "一局开始（随机种子%d）：第一盘打几？" % (pos.points or 0) if lang == "zh"
             else f"a game begins (deal seed {pos.points or 0}): at which level is the first hand played?")]


for _kind, _ev, _q in (("first_hand", _eval_first_hand, _q_first_hand), ("score", _eval_score, _q_score), ("advance", _eval_advance, _q_advance),
                       ("declare", _eval_declare, _q_declare), ("undeclared", _eval_undeclared, _q_undeclared),
                       ("fault", _eval_fault, _q_fault), ("next_banker", _eval_next_banker, _q_next_banker),
                       ("timeout", _eval_timeout, _q_timeout)):
    register(_kind, _ev, _q)

_EDGES = (-10, 0, 5, 35, 40, 55, 60, 75, 80, 85, 90, 100, 115, 120, 145, 150, 155, 160, 175, 180, 195, 200,
          205, 210, 235, 240, 280, 295, 300, 330, 360, 400)


def _gen_score(rng: random.Random, space: Space) -> Position:
    return Position("score", points=5 * rng.randrange(-2, 90))


def _gen_advance(rng: random.Random, space: Space) -> Position:
    return Position("advance", level=rng.choice(space.levels), points=rng.randrange(0, 5),
                    side=rng.choice(("banker", "attackers")))


def _gen_declare(rng: random.Random, space: Space) -> Position:
    level = rng.choice(space.levels)
    seq = []
    for _ in range(rng.choice((1, 2, 2, 3))):
        seat = rng.randrange(4)
        c = rng.choice([level + s for s in SUIT_LETTERS] + ["J-", "J+"])
        n = rng.choice((1, 2, 2, 3))
        n = min(n, space.decks)
        cards = [c] * n
        if rng.random() < 0.3:
            cards.append("2H")
        seq.append(f"{seat}: {' '.join(cards)}")
    return Position("declare", level=level, hands=tuple(seq), first_hand=rng.random() < 0.6)


def _gen_undeclared(rng: random.Random, space: Space) -> Position:
    pool = ["J-", "J+"] + [r + s for r in ("3", "7", "9", "Q") for s in SUIT_LETTERS]
    size = min(space.kitty or 6, 6)
    kitty = [rng.choice(pool) for _ in range(size)]
    levels = list(space.levels)
    return Position("undeclared", level=rng.choice(levels), other_level=rng.choice(levels),
                    hands=(" ".join(kitty),), first_hand=rng.random() < 0.5)


_FAULTS = ("revoke", "wrong_count", "wrong_kitty", "exposed_card", "wrong_declaration", "failed_throw",
           "played_count", "looking_back", "signals", "lateness", "revoke:late", "failed_throw:late")


def _gen_fault(rng: random.Random, space: Space) -> Position:
    fault = rng.choice(_FAULTS)
    side = "banker" if fault == "wrong_kitty" else rng.choice(("banker", "attackers"))
    if fault == "lateness":
        return Position("fault", key=fault, side=side, points=rng.randrange(0, 20),
                        other_level=str(5 * rng.randrange(0, 50)))
    return Position("fault", key=fault, side=side, points=rng.choice((1, 2, 3)),
                    other_level=str(5 * rng.randrange(0, 50)))


CURATED.update({
    "score": [Position("score", points=p) for p in _EDGES],
    "advance": [Position("advance", level=lv, points=n, side=side)
                for lv, n, side in (("J", 3, "banker"), ("Q", 2, "attackers"), ("K", 1, "banker"),
                                    ("Q", 3, "banker"), ("K", 1, "attackers"), ("10", 2, "banker"),
                                    ("A", 1, "attackers"), ("A", 1, "banker"), ("2", 2, "banker"))],
    "declare": [Position("declare", level=lv, hands=hs, first_hand=fh) for lv, fh, hs in (
        ("5", True, ("0: 5H", "1: 5S 5S")),
        ("5", True, ("0: 5H 2H", "1: 5S 5S 2H")),
        ("5", True, ("0: 5H", "1: J- J-")),
        ("5", True, ("0: 5H 5H", "1: J- J-")),
        ("5", True, ("0: 5H", "1: 5S 5S", "2: J- J-")),
        ("5", True, ("0: 5H", "1: 5S 5S", "2: 5C 5C 5C")),
        ("5", True, ("0: 5H", "0: 5H")),
        ("5", True, ("0: 5H", "0: 5S 5S")),
        ("5", True, ("0: 5H", "1: 5S")),
        ("5", True, ("0: 6H",)),
        ("5", False, ("1: 5H", "2: 5S 5S")),
        ("5", False, ("1: 5H", "3: J+ J+")),
        ("5", False, ("1: 5H", "2: 5S")),
        ("5", True, ("0!: 6H", "2: 5H")),
        ("5", False, ("1!: 6S", "3: 5S")),
    )],
    "undeclared": [Position("undeclared", level=lv, other_level=ol, hands=(k,), first_hand=fh)
                   for lv, ol, k, fh in (
                       ("9", "6", "J- 7H 9S 3C 4D KC", False), ("9", "6", "J- 7H 9S 3C 4D KC", True),
                       ("9", "6", "7H 9S J- 3C 4D KC", False), ("9", "6", "7H 9S J- 3C 4D KC", True),
                       ("9", "6", "J- J+ J- J+ J- J+", False))],
    "fault": [Position("fault", key=f, side=sd, points=n, other_level=str(p)) for f, sd, n, p in (
        ("revoke", "attackers", 2, 100), ("revoke", "banker", 2, 100), ("wrong_count", "banker", 1, 100),
        ("wrong_count", "attackers", 1, 100), ("wrong_count", "banker", 1, 150), ("wrong_kitty", "banker", 0, 150),
        ("wrong_kitty", "banker", 0, 100), ("exposed_card", "attackers", 1, 100),
        ("wrong_declaration", "attackers", 1, 100), ("failed_throw", "attackers", 3, 100),
        ("played_count", "attackers", 1, 100), ("looking_back", "attackers", 1, 100), ("signals", "banker", 0, 100),
        ("lateness", "attackers", 7, 100), ("lateness", "attackers", 12, 100), ("revoke:late", "banker", 2, 100),
        ("revoke:late", "attackers", 2, 100), ("failed_throw:late", "banker", 2, 150))],
    "next_banker": [Position("next_banker", side="banker"), Position("next_banker", side="attackers")],
    "first_hand": [Position("first_hand", points=1)],
    "timeout": [Position("timeout", level=a, other_level=b, side=t)
                for a, b, t in (("9", "9", "1"), ("9", "7", "1"), ("J", "J", "0"))],
})
_GENERATORS.update({"score": _gen_score, "advance": _gen_advance, "declare": _gen_declare,
                    "undeclared": _gen_undeclared, "fault": _gen_fault})

_UNDECLARED_KEYS = ("declare.fallback_first_hand", "declare.fallback_later", "declare.kitty_card",
                    "declare.kitty_skip_jokers", "declare.kitty_joker", "declare.smothered_banker",
                    "declare.smothered_level", "bank.first_hand_undeclared")


def _game_families(key: str) -> list[str]:
    if key in ("score.bands", "score.cap"):
        return ["score"]
    if key == "score.threshold":
        return ["fault", "score"]
    if key in ("level.ranks", "level.end", "level.must_play"):
        return ["advance"]
    if key == "level.start":
        return ["first_hand"]
    if key in _UNDECLARED_KEYS:
        return ["undeclared"]
    if key == "declare.wrong_points":
        return ["declare", "fault"]
    if key.startswith("declare."):
        return ["declare"]
    if key == "bank.succession":
        return ["next_banker"]
    if key.startswith("penalty."):
        return ["fault"]
    if key in ("match.timeout_winner", "match.tie"):
        return ["timeout"]
    return []


# --------------------------------------------------------------------------
# comparing two rulesets
# --------------------------------------------------------------------------

@dataclass
class Difference:
    key: str
    a: Feature | None
    b: Feature | None
    position: Position | None = None
    outcome_a: Outcome | None = None
    outcome_b: Outcome | None = None
    attributed: bool = False      # changing this feature alone changes an answer
    alone: bool = False           # ... and makes it the other ruleset's answer
    searched: int = 0             # positions tried

    @property
    def topic(self) -> str:
        return topic_of(self.key)

    def to_dict(self) -> dict:
        return {
            "key": self.key, "topic": self.topic,
            "a": dataclasses.asdict(self.a) if self.a else None,
            "b": dataclasses.asdict(self.b) if self.b else None,
            "position": self.position.to_dict() if self.position else None,
            "question": question_text(self.position) if self.position else None,
            "outcome_a": self.outcome_a.to_dict() if self.outcome_a else None,
            "outcome_b": self.outcome_b.to_dict() if self.outcome_b else None,
            "attributed": self.attributed, "alone": self.alone,
        }


@dataclass
class Comparison:
    a: str
    b: str
    differences: list[Difference]
    same: list[str]

    def topics(self) -> list[str]:
        return list(dict.fromkeys(d.topic for d in self.differences))

    def to_dict(self) -> dict:
        return {"a": self.a, "b": self.b, "differences": [d.to_dict() for d in self.differences],
                "same": self.same}


_changed_cache: dict[tuple, Rules] = {}


def _with(rules: Rules, changes: dict[str, Any]) -> Rules:
    ck = (id(rules), tuple((k, repr(v)) for k, v in sorted(changes.items())))
    hit = _changed_cache.get(ck)
    if hit is None:
        hit = _changed_cache[ck] = changed(rules, changes)
    return hit


def distinguish(key: str, ra: Rules, rb: Rules, n_random: int = 250) -> Difference:
    """Search a position that ``ra`` and ``rb`` answer differently, turning on ``key`` if possible."""
    fa, fb = features(ra.checked).get(key), features(rb.checked).get(key)
    diff = Difference(key, fa, fb)
    va, vb = feature_value(ra.checked, key), feature_value(rb.checked, key)
    a_swapped = _with(ra, {key: vb})
    b_swapped = _with(rb, {key: va})
    fallback = one_sided = None
    space = Space.of([ra, rb], key)
    for pos in candidates(key, space, n_random):
        diff.searched += 1
        oa, ob = try_evaluate(ra, pos), try_evaluate(rb, pos)
        if oa is None or ob is None or oa.answer == ob.answer:
            continue
        oa2, ob2 = try_evaluate(a_swapped, pos, True), try_evaluate(b_swapped, pos, True)
        if (oa2 is not None and oa2.answer == ob.answer) or (ob2 is not None and ob2.answer == oa.answer):
            # taking the other's value makes one answer like the other's: this difference accounts for it
            diff.position, diff.outcome_a, diff.outcome_b = pos, oa, ob
            diff.attributed = diff.alone = True
            return diff
        if one_sided is None and ((oa2 is not None and oa2.answer != oa.answer) or
                                  (ob2 is not None and ob2.answer != ob.answer)):
            one_sided = (pos, oa, ob)
        if fallback is None:
            fallback = (pos, oa, ob)
    if one_sided is not None:
        diff.position, diff.outcome_a, diff.outcome_b = one_sided
        diff.attributed = True
        return diff
    # a position only one of them can reach (e.g. three copies of a card where the other has two decks)
    wide = dataclasses.replace(space, decks=max(ra.decks, rb.decks))
    if wide.decks != space.decks:
        wide_fallback = None
        for pos in candidates(key, wide, n_random):
            diff.searched += 1
            oa, ob = outcome_or_impossible(ra, pos), outcome_or_impossible(rb, pos)
            if oa is None or ob is None or (oa.verdict == IMPOSSIBLE) == (ob.verdict == IMPOSSIBLE):
                continue
            # the ruleset that can reach the position, its outcome, and itself with the other's value
            feat, live, swapped = (fa, oa, a_swapped) if ob.verdict == IMPOSSIBLE else (fb, ob, b_swapped)
            if feat is not None and feat.clause not in live.clauses:
                continue
            other = try_evaluate(swapped, pos, True)
            if other is not None and other.answer != live.answer:
                diff.position, diff.outcome_a, diff.outcome_b = pos, oa, ob
                return diff
            if wide_fallback is None:
                wide_fallback = (pos, oa, ob)
        if wide_fallback is not None:
            diff.position, diff.outcome_a, diff.outcome_b = wide_fallback
            return diff
    if fallback is not None:
        diff.position, diff.outcome_a, diff.outcome_b = fallback
        return diff
    # no play tells them apart: ask for the setting itself
    pos = Position("value", key=key)
    oa, ob = try_evaluate(ra, pos), try_evaluate(rb, pos)
    diff.position, diff.outcome_a, diff.outcome_b = pos, oa, ob
    return diff


@lru_cache(maxsize=None)
def compare(a: str, b: str) -> Comparison:
    """The differences between the bundled rulesets ``a`` and ``b``, each with a distinguishing position."""
    ra, rb = rules_for(a), rules_for(b)
    fa, fb = features(ra.checked), features(rb.checked)
    keys = feature_order(set(fa) | set(fb))
    diffs, same = [], []
    for key in keys:
        x, y = fa.get(key), fb.get(key)
        if x is not None and y is not None and x.text == y.text:
            same.append(key)
            continue
        diffs.append(distinguish(key, ra, rb))
    return Comparison(a, b, diffs, same)


# --------------------------------------------------------------------------
# examples for the rulebooks
# --------------------------------------------------------------------------

@dataclass
class Example:
    ruleset: str
    clause: str
    key: str
    position: Position
    outcome: Outcome
    decisive: bool                       # another reading or value would answer differently
    readings: list[tuple[str, Outcome]] = field(default_factory=list)   # other readings' answers

    def to_dict(self) -> dict:
        return {"ruleset": self.ruleset, "clause": self.clause, "key": self.key,
                "position": self.position.to_dict(), **self.outcome.to_dict(),
                "readings": [{"reading": n, **o.to_dict()} for n, o in self.readings]}


def clause_features(rs: CheckedRuleset, clause_id: str) -> list[str]:
    """The features the clause (with its chosen reading) states in ``rs``."""
    keys = [k for k, o in rs.origins.items() if o.clause.id == clause_id and k not in ("follow.ladders",
                                                                                        "score.bands")]
    keys += [_ladder_key(lead) for lead, (_s, _l, o) in rs.ladders.items() if o.clause.id == clause_id]
    if rs.band_origin is not None and rs.band_origin.clause.id == clause_id:
        keys.append("score.bands")
    return feature_order(keys)


def _alternatives(rs: CheckedRuleset, clause: m.Clause, key: str) -> list[tuple[str, dict]]:
    """Counterfactuals for one feature: other readings of the clause, else other schema values,
    else what the other bundled rulesets state."""
    chosen = rs.choices.get(clause.id)
    out = []
    for r in clause.readings:
        if r.name != chosen:
            ch = reading_changes(clause, r.name)
            if key in ch:
                out.append((r.name, ch))
    if out:
        return out
    value = feature_value(rs, key)
    for alt in schema_alternatives(key, value):
        out.append((f"{key} = {value_text(alt)}", {key: alt}))
    if out:
        return out
    seen = {repr(value)}
    for name in _bundled_names():
        other = rules_for(name).checked
        v = feature_value(other, key)
        if repr(v) not in seen:
            seen.add(repr(v))
            out.append((name, {key: v}))
    return out


@lru_cache(maxsize=1)
def _bundled_names() -> tuple[str, ...]:
    from .rules import ruleset_names
    return tuple(ruleset_names())


@lru_cache(maxsize=None)
def examples_for_clause(ruleset: str, clause_id: str, limit: int = 3) -> tuple[Example, ...]:
    """Examples computed by the interpreter for one clause of a bundled ruleset.

    For each feature the clause states: a position whose answer the clause
    decides (its id is among the deciding clauses), preferring one that another
    reading (or another value) would answer differently. A feature no position
    shows is shown by its value. At most ``limit`` examples, none repeated.
    """
    rules = rules_for(ruleset)
    rs = rules.checked
    clause = rs.clause(clause_id)
    keys = clause_features(rs, clause_id)
    out: list[Example] = []
    seen: set[Position] = set()
    chosen = rs.choices.get(clause_id)
    others = [(r.name, _with(rules, reading_changes(clause, r.name))) for r in clause.readings if r.name != chosen]

    def reading_answers(pos: Position) -> list[tuple[str, Outcome]]:
        answers = []
        for name, rr in others:
            ro = try_evaluate(rr, pos, True)
            if ro is not None:
                answers.append((name, ro))
        return answers

    if others:
        # first, a position the readings answer differently: what the interpretation decides
        changed_keys = feature_order({k for r in clause.readings for k in reading_changes(clause, r.name)})
        for key in changed_keys + [k for k in keys if k not in changed_keys]:
            found = None
            for pos in candidates(key, Space.of([rules], key), n_random=150):
                o = try_evaluate(rules, pos)
                if o is None or clause_id not in o.clauses:
                    continue
                answers = reading_answers(pos)
                if any(a.answer != o.answer for _, a in answers):
                    found = Example(ruleset, clause_id, key, pos, o, True, answers)
                    break
            if found is not None:
                out.append(found)
                seen.add(found.position)
                break
    found: list[tuple[int, int, Example]] = []
    value_keys: list[str] = []
    for i, key in enumerate(keys):
        alts = _alternatives(rs, clause, key)
        alt_rules = [(label, _with(rules, ch)) for label, ch in alts]
        best = None
        space = Space.of([rules], key)
        for pos in candidates(key, space, n_random=150):
            if pos in seen:
                continue
            o = try_evaluate(rules, pos)
            if o is None or clause_id not in o.clauses:
                continue
            decisive = False
            for _label, ar in alt_rules:
                oa = try_evaluate(ar, pos, True)
                if oa is not None and oa.answer != o.answer:
                    decisive = True
                    break
            if decisive:
                best = (pos, o, True)
                break
            if best is None:
                best = (pos, o, False)
        if best is None:
            value_keys.append(key)
            continue
        pos, o, decisive = best
        found.append((0 if decisive else 1, i, Example(ruleset, clause_id, key, pos, o, decisive)))
    if value_keys and not found:
        # no position of play shows these settings: one example gives their values
        pos = Position("value", key=", ".join(value_keys))
        o = try_evaluate(rules, pos)
        if o is not None:
            found.append((2, len(keys), Example(ruleset, clause_id, value_keys[0], pos, o, False)))
    found.sort(key=lambda t: t[:2])
    answers = {(e.position.kind, e.outcome.answer) for e in out}
    for _, _, ex in found:
        if len(out) >= limit:
            break
        kind_answer = (ex.position.kind, ex.outcome.answer)
        if ex.position in seen or kind_answer in answers:
            continue
        seen.add(ex.position)
        answers.add(kind_answer)
        ex.readings = reading_answers(ex.position)
        out.append(ex)
    return tuple(out)


def is_executable(rs: CheckedRuleset, clause_id: str) -> bool:
    """Whether the clause states rules the interpreter executes (settings, ladders or bands)."""
    return bool(clause_features(rs, clause_id))


def evaluate_recorded(key: str, pos: Position) -> Outcome | None:
    """Recompute an outcome recorded under ``key``: a ruleset name, or ``RULESET#CLAUSE#READING``
    for the answer the clause's other reading would give (what the docs record)."""
    if "#" in key:
        ruleset, clause_id, reading = key.split("#", 2)
        rules = rules_for(ruleset)
        clause = rules.checked.clause(clause_id)
        return try_evaluate(_with(rules, reading_changes(clause, reading)), pos, True)
    return outcome_or_impossible(rules_for(key), pos)
