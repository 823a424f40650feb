"""Questions and answers as text, in English and Chinese.

Every text is a list of parts, ``("text", s)`` or ``("cards", notation)``,
so the docs can draw cards as cards and the terminal as glyphs. The Chinese takes the words of one source
document (``doc``, e.g. ``"003"``: 非庄家方, 抠底, 做庄), from its glossary (``spec/glossary.tsv``); without
one, the glossary's defaults.
"""
from __future__ import annotations

import re

from reference_impl.rules import REASONS
from tractor_dsl.glossary import words
from tractor_dsl.vocabulary import PLAY_REASONS, chinese

from conformance.analysis.variants.questions import IMPOSSIBLE, Outcome, Question

SUIT_EN = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_ZH = {"S": "黑桃", "H": "红桃", "D": "方块", "C": "梅花"}
SHAPE_ZH = {"single": "{single}", "pair": "{pair}", "triple": "{triple}", "quad": "四条"}   # the document's words
SIDE_EN = {"banker": "the banker side", "attackers": "the attackers"}


def side_zh(side: str, doc: str | None) -> str:
    """The banker side or the attackers in the words of document ``doc``."""
    return words(doc)["banker_side" if side == "banker" else "attackers"]


REASONS_ZH = {**chinese(PLAY_REASONS),   # the shapes in the document's words (003: 对牌, 三张)
              "must_play_pair": "按跟牌顺序必须出手中的{pair}", "must_play_triple": "按跟牌顺序必须出手中的{triple}"}
DECLARE_REASONS_EN = {
    "kitty_taken": "the kitty has been taken: no more declarations or overcalls",
    "missing_first_hand_card": "a first-hand declaration must show the required card",
    "wrong_count": "the wrong number of cards (none, a lone joker, or more than the decks hold)",
    "mixed_cards": "the cards shown are not all the same", "not_level_card": "the card is not this hand's level card",
    "jokers_not_allowed": "jokers may not declare in this ruleset", "no_reinforce": "reinforcing is not allowed",
    "self_overcall": "a player may not overcall himself", "jokers_only": "after an overcall only jokers may overcall",
    "too_weak": "not strong enough to overcall", "partner_overcall": "a player may not overcall his partner",
    "partner_barred": "his partner wrongly declared this suit before",
}
DECLARE_REASONS_ZH = {
    "kitty_taken": "底牌已拿起，不能再{declare}或反主", "missing_first_hand_card": "{first_hand}{declare}须同时{show}出规定的牌",
    "wrong_count": "张数不对（无牌、单张王或超过牌副数）", "mixed_cards": "{show}出的牌不相同",
    "not_level_card": "{show}出的不是本{hand}{level_card}", "jokers_not_allowed": "本规则王不能{declare}", "no_reinforce": "不能加固", "self_overcall": "不能反自己",
    "jokers_only": "已被反过，只能用王再反", "too_weak": "不够大，反不了", "partner_overcall": "不能反对家",
    "partner_barred": "对家此前{show}错过这门花色",
}
FAULT_EN = {"failed_throw": "a failed throw", "revoke": "a revoke (藏牌)", "wrong_count": "a wrong card count (劳改)",
            "wrong_kitty": "a wrong kitty (埋底张数不对)", "exposed_card": "an exposed card (罚张)",
            "wrong_declaration": "a wrong declaration", "played_count": "a play of too many or too few cards",
            "looking_back": "a look at played cards", "signals": "a signal to a partner", "lateness": "lateness"}
# a fault in Chinese: the glossary's concept (the document's word), or the same words in every document
FAULT_ZH = {"failed_throw": "{failed_throw}", "revoke": "{revoke}", "wrong_count": "{wrong_count}",
            "wrong_kitty": "{wrong_kitty}", "exposed_card": "{exposed_card}", "wrong_declaration": "{show}错牌",
            "played_count": "出多牌或出少牌", "looking_back": "查阅已出的牌", "signals": "示意对家", "lateness": "迟到"}
OFFENDER_EN = {"banker": "the banker side", "attackers": "the attackers", "both": "both sides"}
CONSEQUENCE_EN = {"none": "", "hand_void_rebid": "the hand is void and both sides bid for the bank",
                  "forfeit_game": "the game is forfeited"}
CONSEQUENCE_ZH = {"none": "", "hand_void_rebid": "该{hand}作废，双方抢庄", "forfeit_game": "判该{game}弃权"}


def zh_words(template: str, doc: str | None) -> str:
    """``template`` with each ``{concept}`` of the glossary in the words of document ``doc``."""
    return template.format_map(words(doc))


def offender_zh(who: str, doc: str | None) -> str:
    return "双方" if who == "both" else side_zh(who, doc)


def _z(lang: str) -> bool:
    return lang == "zh"


def _cards(cards: list[str] | str, lang: str) -> list[tuple[str, str]]:
    s = cards if isinstance(cards, str) else " ".join(cards)
    if s.strip():
        return [("cards", s)]
    return [("text", "（无牌）" if _z(lang) else "(nothing)")]


def trump_words(trump, lang: str) -> str:
    if trump is None:
        return "无主" if _z(lang) else "no trump suit"
    return f"{SUIT_ZH[trump]}为主" if _z(lang) else f"{SUIT_EN[trump]} trump"


def shape_text(shape: str, lang: str, doc: str | None = None) -> str:
    """'tractor(pair, 2)' -> 'a tractor of 2 pairs' / '2对拖拉机'; throws and units likewise (the Chinese in
    the words of source document ``doc``)."""
    shape = shape.strip()
    w = words(doc)
    if shape.startswith("throw(") and shape.endswith(")"):
        inner = [shape_text(s, lang, doc) for s in _split_top(shape[6:-1])]
        return ("甩牌（" + "＋".join(inner) + "）") if _z(lang) else "a throw of " + " + ".join(inner)
    if shape.startswith("tractor("):
        element, length = [s.strip() for s in shape[8:-1].split(",")]
        if element == "mixed":
            return (f"{length}组{w['pair']}与{w['triple']}相连的拖拉机" if _z(lang)
                    else f"a mixed tractor: {length} adjacent pairs and triples")
        if _z(lang):
            return f"{length}对拖拉机" if element == "pair" else f"{length}个{w['triple']}的拖拉机"
        return f"a tractor of {length} {element}s"
    if _z(lang):
        return zh_words(SHAPE_ZH[shape], doc) if shape in SHAPE_ZH else shape
    return {"single": "a single", "pair": "a pair", "triple": "a triple", "quad": "a quad"}.get(shape, shape)


def pattern_zh(pattern: str, doc: str | None = None) -> str:
    """A follow rung in Chinese: 'tractor(pair, 2) + pair + 2 single' -> '2对拖拉机＋对子＋2张散牌' (001's words;
    003's: '2对拖拉机＋对牌＋2张单张')."""
    w = words(doc)
    out = []
    for term in _split_top(pattern):
        m = re.match(r"^(\d+)\s+(.*)$", term)
        n, shape = (int(m.group(1)), m.group(2)) if m else (1, term)
        if shape == "single":
            out.append(f"{n}张{w['single']}" if n > 1 else w["single"])
        elif shape == "pair":
            out.append(f"{n}个{w['pair']}" if n > 1 else w["pair"])
        elif shape == "triple":
            out.append(f"{n}个{w['triple']}" if n > 1 else w["triple"])
        else:
            t = shape_text(shape, "zh", doc)
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


DEAL_REASONS_EN = {"wrong_hand_size": "a hand of the wrong size", "wrong_kitty_size": "a kitty of the wrong size",
                   "not_the_pack": "not the ruleset's pack"}
DEAL_REASONS_ZH = {"wrong_hand_size": "有一家张数不对", "wrong_kitty_size": "底牌张数不对", "not_the_pack": "牌不是本规则的那副牌"}


def _shape_of(components: list[dict]) -> str:
    def one(c):
        name = {1: "single", 2: "pair", 3: "triple", 4: "quad"}[c["size"]]
        if c["length"] > 1 and len(c.get("cards", ())) not in (0, c["size"] * c["length"]):
            name = "mixed"  # pairs and triples side by side (88999): more cards than size x length
        return f"tractor({name}, {c['length']})" if c["length"] > 1 else name
    if len(components) == 1:
        return one(components[0])
    return "throw(" + " + ".join(one(c) for c in components) + ")"


# --------------------------------------------------------------------------- questions

def _setting(inp: dict, lang: str) -> list[tuple[str, str]]:
    if "level" not in inp or "trump" not in inp:
        return []
    return [("text", f"打{inp['level']}，{trump_words(inp['trump'], lang)}：" if _z(lang)
             else f"Level {inp['level']}, {trump_words(inp['trump'], lang)}: ")]


def _plays_in_turn(plays: list, leader: int, lang: str) -> list[tuple[str, str]]:
    out = []
    for k in range(4):
        seat = (leader + k) % 4
        if k:
            out.append(("text", "，" if _z(lang) else ", "))
        out.append(("text", f"{seat}号位 " if _z(lang) else f"seat {seat} "))
        out += _cards(plays[seat], lang)
    return out


def question_parts(q: Question, lang: str = "en", doc: str | None = None) -> list[tuple[str, str]]:
    """The question ``q`` asks, as text and card parts (in Chinese, in the words of source document ``doc``)."""
    inp, zh, w = q.input, _z(lang), words(doc)
    op = q.op
    if op == "classify":
        body = ([("cards", " ".join(inp["cards"])), ("text", " 是什么牌型？")] if zh
                else [("text", "what is "), ("cards", " ".join(inp["cards"])), ("text", "?")])
    elif op == "order":
        body = [("text", "这些牌的大小顺序？" if zh else "how do these cards rank? "), ("cards", " ".join(inp["cards"]))]
    elif op == "lead":
        body = [("text", "能否出 " if zh else "may the leader play "), ("cards", " ".join(inp["cards"])),
                ("text", "？其他三家依次持有：" if zh else "? The other hands, in turn, hold: ")]
        for i, h in enumerate(inp["others"]):
            if i:
                body.append(("text", " ｜ " if zh else " | "))
            body += _cards(h, lang)
    elif op == "follow":
        body = ([("text", "首家出 "), ("cards", " ".join(inp["lead"])), ("text", "；跟牌者持有 "),
                 ("cards", " ".join(inp["hand"])), ("text", "；能否跟 "), ("cards", " ".join(inp["play"])),
                 ("text", "？")] if zh else
                [("text", "lead "), ("cards", " ".join(inp["lead"])), ("text", "; the follower holds "),
                 ("cards", " ".join(inp["hand"])), ("text", "; may he play "), ("cards", " ".join(inp["play"])),
                 ("text", "?")])
    elif op == "winner":
        body = ([("text", "依次出牌：")] if zh else [("text", "plays in turn: ")])
        body += _plays_in_turn(inp["plays"], inp["leader"], lang)
        body.append(("text", "。谁大？" if zh else ". Who wins?"))
    elif op == "kitty":
        trick = inp["last_trick"]
        body = [("text", f"{inp['banker']}号位{w['hold']}；{w['last_trick']}依次出牌：" if zh else
                 f"seat {inp['banker']} is banker; the last trick, in turn: ")]
        body += _plays_in_turn(trick["plays"], trick["leader"], lang)
        body += [("text", "；底牌为 " if zh else "; the kitty is "), *_cards(inp["kitty"], lang),
                 ("text", "：底牌算多少分？" if zh else ": what is it worth?")]
    elif op == "points":
        body = ([("cards", " ".join(inp["cards"])), ("text", " 共多少分？")] if zh
                else [("text", "how many points are in "), ("cards", " ".join(inp["cards"])), ("text", "?")])
    elif op == "pack":
        body = [("text", "如何发牌？" if zh else "how are the cards dealt?")]
    elif op == "redeal":
        body = ([("text", f"打{inp['level']}，一家发到 "), ("cards", " ".join(inp["hand"])), ("text", "：是否重新发牌？")]
                if zh else [("text", f"level {inp['level']}; a player is dealt "), ("cards", " ".join(inp["hand"])),
                            ("text", ": are the cards dealt again?")])
    elif op == "hand":
        body = _hand_question(inp["transcript"], lang, doc)
    elif op == "value":
        keys = ", ".join(inp["keys"])
        body = [("text", f"规则对 {keys} 的设定？" if zh else f"what does the rulebook set for {keys}?")]
    else:
        body = _game_question(op, inp, lang, doc)
    return _setting(inp, lang) + body if op in ("classify", "order", "lead", "follow", "winner", "kitty") else body


def _hand_question(t: dict, lang: str, doc: str | None) -> list[tuple[str, str]]:
    """A whole hand, told by its setting and its last trick (the transcript holds every trick)."""
    zh, n, w = _z(lang), len(t["tricks"]), words(doc)
    last = t["tricks"][-1]
    trump = trump_words(t["trump"], lang)
    if zh:
        out = [("text", f"打{t['level']}，{trump}，{t['banker']}号位{w['hold']}，整{w['hand']}{n}轮；{w['last_trick']}依次出牌：")]
    else:
        out = [("text", f"a whole hand at level {t['level']}, {trump}, seat {t['banker']} banker, {n} tricks; "
                        "the last trick, in turn: ")]
    out += _plays_in_turn(last["plays"], last["leader"], lang)
    out.append(("text", "。结果如何？" if zh else ". What follows?"))
    return out


def _game_question(op: str, inp: dict, lang: str, doc: str | None) -> list[tuple[str, str]]:
    zh, w = _z(lang), words(doc)
    if op == "result":
        p = inp["attackers_points"]
        return [("text", f"{w['attackers']}本{w['hand']}得{p}分：结果如何？" if zh else f"the attackers end the hand with {p} points: what follows?")]
    if op == "advance":
        side = "banker" if inp["as_banker"] else "attackers"
        n = inp["gain"]
        if zh:
            return [("text", f"打{inp['level']}的一方作为{side_zh(side, doc)}升{n}{w['level']}：打到几？")]
        return [("text", f"a team at level {inp['level']} gains {n} level{'s' if n != 1 else ''} as {SIDE_EN[side]}: "
                         "where does it stand?")]
    if op == "declare":
        if inp["first_hand"]:
            head = f"{w['first_hand']}，打{inp['level']}，依次{w['show']}牌：" if zh else f"First hand, level {inp['level']}; declarations in turn: "
        else:
            b = inp["banker"]
            head = (f"非{w['first_hand']}（{b}号位{w['hold']}），打{inp['level']}，依次{w['show']}牌：" if zh else
                    f"A later hand (seat {b} is banker), level {inp['level']}; declarations in turn: ")
        out = [("text", head)]
        for i, d in enumerate(inp["declarations"]):
            if i:
                out.append(("text", "；" if zh else "; "))
            out.append(("text", f"{d['seat']}号位{w['show']} " if zh else f"seat {d['seat']} shows "))
            out += _cards(d["cards"], lang)
        if inp.get("kitty_taken"):
            out.append(("text", "（此时底牌已拿起）" if zh else " (the kitty has been taken by then)"))
        for wr in inp.get("wrong") or []:
            out.append(("text", f"（此前{wr['seat']}号位{w['show']}错 " if zh else f" (earlier, seat {wr['seat']} wrongly showed "))
            out += _cards(wr["cards"], lang)
            out.append(("text", "）" if zh else ")"))
        out.append(("text", "。结果？" if zh else ". What stands?"))
        return out
    if op == "undeclared":
        if zh:
            when = w["first_hand"] if inp["first_hand"] else "非" + w["first_hand"]
            return [("text", f"{when}无人{w['declare']}（{w['banker']}打{inp['level']}，{w['attackers']}打{inp['attackers_level']}）；"
                             "底牌从第一张起依次为 "),
                    *_cards(inp["kitty"], lang), ("text", "：怎么办？")]
        when = "the first hand" if inp["first_hand"] else "a later hand"
        return [("text", f"nobody declares in {when} (banker at {inp['level']}, attackers at "
                         f"{inp['attackers_level']}); the kitty begins, from its first card, "),
                *_cards(inp["kitty"], lang), ("text", ": what happens?")]
    if op == "next_banker":
        side = inp["side"]
        if zh:
            return [("text", f"0号位{w['hold']}，本{w['hand']}后由{side_zh(side, doc)}{w['hold']}：下一{w['hand']}谁是{w['banker']}？")]
        verb = "holds" if side == "banker" else "hold"
        return [("text", f"seat 0 was banker and {SIDE_EN[side]} {verb} the bank next: which seat is the next banker?")]
    if op == "timeout":
        a, b = inp["levels"]
        t = inp["banker_team"]
        if zh:
            return [("text", f"时间到：0队打{a}，1队打{b}，{t}队{w['hold']}：谁胜？")]
        return [("text", f"time runs out with team 0 at {a} and team 1 at {b}; team {t} holds the bank: who wins?")]
    if op == "first_hand":
        seed = inp.get("seed", 0)
        return [("text", f"{w['game']}开始（随机种子{seed}）：{w['first_hand']}打几？" if zh else
                 f"a game begins (deal seed {seed}): at which level is the first hand played?")]
    if op == "deal":
        sizes = "、".join(str(len(h)) for h in inp["hands"]) if zh else ", ".join(str(len(h)) for h in inp["hands"])
        k = len(inp["kitty"])
        if zh:
            return [("text", f"打{inp['level']}，四家依次发到{sizes}张，底牌{k}张：这副牌发得合规吗？要重新发牌吗？")]
        return [("text", f"level {inp['level']}; the four hands are dealt {sizes} cards, the kitty {k}: "
                         "is this a proper deal, and are the cards dealt again?")]
    if op == "penalty":
        p = inp["attackers_points"]
        faults = [_fault_text(f, lang, doc) for f in inp["faults"]]
        if zh:
            return [("text", f"本{w['hand']}：" + "；".join(faults) + f"；{w['attackers']}得{p}分：如何处理？")]
        return [("text", "in one hand, " + "; then ".join(faults) + f"; the attackers hold {p} points: what follows?")]
    return [("text", op)]


def _fault_text(f: dict, lang: str, doc: str | None = None) -> str:
    kind, who, n = f["fault"], f["offender"], f.get("count", 0)
    late = f.get("found") == "late"
    if _z(lang):
        count = f"{f.get('minutes', 0)}分钟" if kind == "lateness" else f"{n}张" if kind not in (
            "wrong_declaration", "looking_back", "signals") else f"{n}次"
        return (offender_zh(who, doc) + zh_words(FAULT_ZH.get(kind, kind), doc) + f"（{count}）"
                + ("，过后才发现" if late else ""))
    if kind == "lateness":
        count = f"{f.get('minutes', 0)} minutes"
    elif kind in ("wrong_declaration", "looking_back", "signals"):
        count = f"{n} time{'s' if n != 1 else ''}"
    else:
        count = f"{n} card{'s' if n != 1 else ''}"
    return f"{OFFENDER_EN[who]}: {FAULT_EN.get(kind, kind)} ({count})" + (", found only later" if late else "")


def question_text(q: Question, lang: str = "en", doc: str | None = None) -> str:
    return "".join(s for _, s in question_parts(q, lang, doc))


# --------------------------------------------------------------------------- answers

def result_parts(r: dict, lang: str, doc: str | None = None) -> list[tuple[str, str]]:
    zh, w = _z(lang), words(doc)
    if r.get("rebid"):
        return [("text", f"该{w['hand']}作废，双方在原{w['level']}上抢庄" if zh else
                 "the hand is void: both sides bid for the bank")]
    n = r["levels"]
    if r["next_banker"] == "banker" and n == 0:
        return [("text", f"{w['banker_side']}继续{w['hold']}，不升{w['level']}" if zh else
                 "the banker side keeps the bank, no level")]
    if r["next_banker"] == "banker":
        return [("text", f"{w['banker_side']}继续{w['hold']}，升{n}{w['level']}" if zh else
                 f"the banker side keeps the bank and rises {n} level{'s' if n != 1 else ''}")]
    if n == 0:
        return [("text", f"{w['attackers']}{w['take_stage']}，不升{w['level']}" if zh else
                 "the attackers take the stage, no level")]
    return [("text", f"{w['attackers']}{w['take_stage']}并升{n}{w['level']}" if zh else
             f"the attackers take the stage and rise {n} level{'s' if n != 1 else ''}")]


def answer_parts(o: Outcome, lang: str = "en", doc: str | None = None) -> list[tuple[str, str]]:
    """The answer ``o`` as text and card parts (in Chinese, in the words of source document ``doc``)."""
    r, zh, w = o.result, _z(lang), words(doc)
    op = o.op
    if op == IMPOSSIBLE:
        n = r["impossible"]
        return [("text", f"不可能出现：{n}副牌每张只有{n}张" if zh else f"cannot arise: {n} decks hold only {n} of each card")]
    if op == "classify":
        if r["kind"] == "mixed":
            return [("text", "不是同一花色" if zh else "not of one suit")]
        t = shape_text(_shape_of(r["components"]), lang, doc)
        if r["kind"] == "throw":
            t = ("不是一个牌型：" if zh else "not one combination: ") + t
        return [("text", t)]
    if op == "order":
        parts: list[tuple[str, str]] = []
        if r["trump"]:
            parts.append(("text", "主牌由大到小：" if zh else "trump, high to low: "))
            for i, group in enumerate(r["trump"]):
                if i:
                    parts.append(("text", " > "))
                for j, c in enumerate(group):
                    if j:
                        parts.append(("text", " = "))
                    parts.append(("cards", c))
        if r["side"]:
            if parts:
                parts.append(("text", "；" if zh else "; "))
            parts += [("text", "副牌：" if zh else "not trump: "), ("cards", " ".join(r["side"]))]
        return parts
    if op == "lead":
        if r["legal"]:
            return [("text", ("可以出：" if zh else "legal: ") + shape_text(r.get("shape", ""), lang, doc))]
        f = r.get("failure")
        if f is not None:
            return [("text", f"{w['failed_throw']}：被拦 " if zh else "the throw fails: blocked "),
                    ("cards", " ".join(f["blocked"])),
                    ("text", f"；{w['penalty']}{f['penalty']}分；改出 " if zh else
                     f"; penalty {f['penalty']} points; must play instead "),
                    ("cards", " ".join(f["forced"]))]
        return [("text", ("不可以出：" + zh_words(REASONS_ZH.get(r["reason"], r["reason"]), doc)) if zh
                 else "not legal: " + REASONS.get(r["reason"], r["reason"]))]
    if op == "follow":
        t = ("合规" if zh else "legal") if r["legal"] else (
            ("不合规：" + zh_words(REASONS_ZH.get(r["reason"], r["reason"]), doc)) if zh else "not legal: " + REASONS.get(r["reason"], r["reason"]))
        if r.get("required"):
            t += ("（跟牌顺序要求：" + "；".join(pattern_zh(x, doc) for x in r["required"]) + "）") if zh else \
                " (the follow order asks for: " + "; ".join(r["required"]) + ")"
        return [("text", t)]
    if op == "winner":
        w, p = r["winner"], r["points"]
        return [("text", f"{w}号位大，本轮{p}分" if zh else f"seat {w} wins; {p} points in the trick")]
    if op == "kitty":
        v, kp = r["points"], r.get("kitty_points", 0)
        who = f"{r['winner']}号位（{side_zh(r['side'], doc)}）" if zh else f"seat {r['winner']} ({SIDE_EN[r['side']]})"
        if not r.get("multiplier"):
            return [("text", f"{who}在{w['last_trick']}为大，不{w['capture']}：{w['attackers']}得分不变（底牌{kp}分）" if zh else
                     f"{who} wins the last trick; no capture: the attackers' points do not change (kitty {kp} points)")]
        if zh:
            return [("text", f"{who}{w['capture']}：{w['kitty_points']}{kp}×{r['multiplier']}，{w['attackers']}"
                             + (f"加{v}分" if v >= 0 else f"减{-v}分"))]
        return [("text", f"{who} captures: kitty {kp} points × {r['multiplier']}, the attackers "
                         + (f"gain {v}" if v >= 0 else f"lose {-v}"))]
    if op == "points":
        return [("text", f"{r['points']}分" if zh else f"{r['points']} points")]
    if op == "pack":
        n = r["players"] * r["hand"] + r["kitty"]
        if zh:
            return [("text", f"{r['players']}家各{r['hand']}张＋底牌{r['kitty']}张＝{n}张（{r['decks']}副牌），共{r['points']}分")]
        return [("text", f"{r['players']} hands of {r['hand']} cards + a kitty of {r['kitty']} = {n} cards "
                         f"({r['decks']} decks); {r['points']} points in the pack")]
    if op == "value":
        return [("text", "; ".join(f"{k} = {v}" for k, v in r["values"].items()))]
    if op == "hand":
        p = r["attackers_points"]
        out = [("text", f"{w['attackers']}得{p}分：" if zh else f"the attackers end with {p} points: ")] \
            + result_parts(r, lang, doc)
        if r.get("knocked_back"):
            out.append(("text", f"；{w['banker_side']}退回{r['knocked_back']}" if zh else
                        f"; the banker's team goes back to {r['knocked_back']}"))
        if r.get("next_banker_seat") is not None:
            seat = r["next_banker_seat"]
            out.append(("text", f"；下一{w['hand']}由{seat}号位{w['hold']}" if zh else f"; seat {seat} banks next"))
        return out
    if op == "deal":
        if not r["proper"]:
            why = (DEAL_REASONS_ZH if zh else DEAL_REASONS_EN).get(r.get("reason"))
            text = "不是合规的发牌" if zh else "not a proper deal"
            return [("text", text + (f"（{why}）" if zh else f" ({why})") if why else text)]
        out = [("text", ("合规的发牌；重新发牌" if r["redeal"] else "合规的发牌；照打，不重新发牌") if zh else
                ("a proper deal; the cards are dealt again" if r["redeal"] else "a proper deal; it stands"))]
        if r.get("buries") is not None:
            out.append(("text", f"；由{r['buries']}号位{w['bury']}" if zh else f"; seat {r['buries']} buries the kitty"))
        return out
    if op == "redeal":
        return [("text", ("重新发牌" if r["redeal"] else "照打，不重新发牌") if zh else
                 ("the cards are dealt again" if r["redeal"] else "the deal stands"))]
    if op == "result":
        return result_parts(r, lang, doc)
    if op == "advance":
        if r["won"]:
            # reached (H36, level.end_on = reach) or passed: the answer holds the last level either way
            return [("text", f"到终点{r['level']}，赢得{w['game']}" if zh else
                     f"the game is won at {r['level']}, the last level")]
        return [("text", f"打到{r['level']}" if zh else f"it reaches {r['level']}")]
    return _game_answer(o, lang, doc)


def answer_text(o: Outcome, lang: str = "en", doc: str | None = None) -> str:
    """The answer ``o`` as one line of text."""
    return "".join(s for _, s in answer_parts(o, lang, doc))


def outcome_dict(o: Outcome, doc: str | None = None) -> dict:
    """The answer ``o`` in both languages (the Chinese in the words of source document ``doc``) and the
    clauses that decided it (JSON)."""
    return {"answer": answer_text(o, "en"), "answer_zh": answer_text(o, "zh", doc), "clauses": list(o.clauses)}


def _game_answer(o: Outcome, lang: str, doc: str | None) -> list[tuple[str, str]]:
    r, zh, op, w = o.result, _z(lang), o.op, words(doc)
    if op == "declare":
        if r["legal"]:
            return [("text", f"合规：{trump_words(r['trump'], lang)}，{r['declarer']}号位{w['declare']}，{r['banker']}号位{w['hold']}" if zh else
                     f"legal: {trump_words(r['trump'], lang)}, declared by seat {r['declarer']}; seat {r['banker']} is banker")]
        why = zh_words(DECLARE_REASONS_ZH.get(r["reason"], r["reason"]), doc) if zh else \
            DECLARE_REASONS_EN.get(r["reason"], r["reason"])
        t = f"最后一次{w['show']}牌不成立：{why}" if zh else f"the last declaration is refused: {why}"
        if r.get("penalty"):
            t += f"；{w['penalty']}{r['penalty']}分" if zh else f"; penalty {r['penalty']} points"
        return [("text", t)]
    if op == "undeclared":
        if r["redeal"]:
            if r.get("banker_side") is None:
                return [("text", "重新摸牌" if zh else "the cards are redealt")]
            who = side_zh(r["banker_side"], doc) if zh else SIDE_EN[r["banker_side"]]
            return [("text", f"{w['banker']}憋死，重新摸牌：{who}{w['hold']}，打{r['level']}" if zh else
                     f"the banker is smothered: redeal, {who} bank, at level {r['level']}")]
        out = []
        if r.get("kitty_index") is not None:
            i = r["kitty_index"] + 1
            out.append(("text", f"底牌第{i}张" if zh else f"kitty card {i} "))
        if r.get("kitty_index") is None and r.get("trump") is None:   # no card names trump: no trump suit (H01)
            out.append(("text", f"本{w['hand']}无主" if zh else "the hand has no trump suit"))
        else:
            out.append(("text", ("定主：" if zh else "names trump: ") + trump_words(r["trump"], lang)))
        if r.get("first_hand_banker"):
            who_en = r["first_hand_banker"].replace("_", " ")
            out.append(("text", f"；由先摸牌者{w['hold']}" if zh else f"; the {who_en} is banker"))
        return out
    if op == "next_banker":
        return [("text", f"{r['seat']}号位{w['hold']}" if zh else f"seat {r['seat']} is the next banker")]
    if op == "timeout":
        return [("text", f"{r['winner'].replace('team ', '')}队胜" if zh else f"{r['winner']} wins")]
    if op == "first_hand":
        return [("text", f"双方都从{r['start']}打起；{w['first_hand']}打{r['level']}" if zh else
                 f"both teams start at {r['start']}; the first hand is played at level {r['level']}")]
    if op == "penalty":
        t = f"{w['attackers']}得分{r['points']:+d}" if zh else f"the attackers' points {r['points']:+d}"
        if r["ends_hand"]:
            t += f"，该{w['hand']}即结束" if zh else ", and the hand ends at once"
        out = [("text", t), ("text", "；然后：" if zh else "; then ")]
        special = zh_words(CONSEQUENCE_ZH.get(r["consequence"], ""), doc) if zh else CONSEQUENCE_EN.get(r["consequence"])
        if r.get("next_banker") is None or special:
            out.append(("text", special or r["consequence"]))
        else:
            out += result_parts(r, lang, doc)
        return out
    return [("text", o.answer)]
