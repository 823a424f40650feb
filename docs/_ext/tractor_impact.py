"""Sphinx directive ``tractor-impact``: the figures of a checked-in ``tractor impact`` run.

    .. tractor-impact:: impact/impact.json

The argument is the run's JSON (written by ``tractor impact --json``),
relative to the document. The directive shows the command that reproduces
the run, then, for each pair of bundled rulesets the comparison page shows
(the base rulesets pairwise, each derived ruleset with its parent), how often
their difference changes a judgment, the play, a hand's result and a game's
winner, and which feature decides the first divergence; then the figures per
ruleset and the plots found beside the JSON. Every figure is shown with its
95 % interval. The page's language decides the words: on a Chinese page every
text is Chinese, the plots too (``NAME.zh.svg``, their text drawn by the
reader's browser).
"""
from __future__ import annotations

import json
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

PAIR_ROWS = (
    ("judgment_differs", "Hands where any judgment differs", "任一判断不同的手数"),
    ("play_differs", "Hands where the play differs", "出牌不同的手数"),
    ("result_differs", "Hands whose result (next banker, levels) differs", "结果（下一庄家、级数）不同的手数"),
    ("winner_differs", "Games with a different winner", "胜方不同的整局"),
)
RULESET_ROWS = (
    ("bank_held", "Bank held (the banker side keeps it)", "守庄（庄家方保住庄）", "share"),
    ("attackers_points", "Attackers' points (mean)", "闲家得分（均值）", "mean"),
    ("kitty_captures", "Kitty captured by the attackers", "闲家抠底", "share"),
    ("kitty_value", "Kitty value when captured (mean)", "抠底时底牌的分值（均值）", "mean"),
    ("failed_throws_per_hand", "Failed throws per hand (mean)", "每手甩牌失败次数（均值）", "mean"),
    ("hands_with_failed_throw", "Hands with a failed throw", "有甩牌失败的手数", "share"),
    ("levels_per_hand", "Levels gained per hand (mean)", "每手升级数（均值）", "mean"),
    ("game_length", "Game length in hands (mean)", "一局的手数（均值）", "mean"),
    ("games_finished", "Games finished within the hand limit", "在手数上限内打完的整局", "share"),
)
KINDS = {
    "declare_options": ("which declarations are allowed", "允许哪些亮主"),
    "declare": ("a declaration's effect", "亮主的效果"),
    "undeclared": ("a hand nobody declares", "无人亮主的一手"),
    "exchange": ("the kitty exchange", "扣底"),
    "leads": ("which leads are allowed", "允许哪些首攻"),
    "lead": ("a lead or throw", "首攻或甩牌"),
    "follows": ("which follows are allowed", "允许哪些跟牌"),
    "trick": ("who wins a trick", "谁赢一墩"),
    "kitty": ("the kitty's value", "底牌的分值"),
    "result": ("the hand's result", "一手的结果"),
    "choice": ("a player's choice on a different card order", "牌序不同时玩家的选择"),
}
PLAYERS_ZH = {"heuristic": "启发式", "random": "随机"}
T = {
    "en": {
        "title": "Impact in play",
        "intro": "How often the differences above change real hands and games: {hands} hands and {games} whole "
                 "games, dealt the same under every ruleset and played by the same {players} players (package "
                 "``players``), every judgment the interpreter's. Every share is given with its {proportion} and "
                 "every mean with its {mean}. "
                 "One hand in ten is a game's first hand; the others start from a banker seat and levels drawn "
                 "for the hand. These figures come from a checked-in run; this command reproduces them exactly, "
                 "on any number of cores or machines:",
        "pair": "{a} and {b} in play",
        "not_compared": "Not compared hand by hand: {reason}. Their figures stand side by side in the table per "
                        "ruleset below.",
        "packs": "different packs ({da} and {db} decks, {ha} and {hb} cards a hand): no hand is dealt the same",
        "sizes": "{hands} hands and {games} games under each. Features that differ: {features}.",
        "figure": "Figure", "share": "Share [95 % interval]",
        "decided_by": "Of the {n} hands where a judgment differs, the first divergence is decided by (the feature "
                      "alone turns one ruleset's answer into the other's):",
        "feature": "Feature", "clauses": "Clauses", "share_div": "Share of divergent hands",
        "no_single": "(no single feature)",
        "kinds": "First divergences by judgment — {kinds}.", "kind": "{what}: {n}", "sep": "; ",
        "per_ruleset": "Figures per ruleset", "plots": "Plots",
        "plot_pairs": "how often each pair's difference shows",
        "plot_rulesets": "bank held, kitty captured, failed throws per ruleset",
        "plot_points": "distribution of the attackers' points per ruleset",
    },
    "zh": {
        "title": "对实际牌局的影响",
        "intro": "上述不同在实际牌局中多常改变结果：共 {hands} 手牌和 {games} 整局，在每个规则集下发牌相同，"
                 "由同样的{players}玩家（程序包 ``tractor_play/players``）来打，每一个判断都出自解释器。比例给出{proportion}，"
                 "均值给出{mean}。每十手中有一手是一局的第一手；其余各手的庄家座位和级数随机抽取。"
                 "这些数字来自存入仓库的一次运行；以下命令可在任意多的核心或机器上精确重现：",
        "pair": "{a} 与 {b} 的实战差异",
        "not_compared": "未逐手比较：{reason}。两者的数字并列于下方的各规则集表中。",
        "packs": "所用的牌不同（{da} 副与 {db} 副，每手 {ha} 张与 {hb} 张），没有一手牌能发得相同",
        "sizes": "每个规则集下 {hands} 手、{games} 整局。不同的设定：{features}。",
        "figure": "指标", "share": "比例［95 % 区间］",
        "decided_by": "在判断不同的 {n} 手中，首次分歧由以下设定决定（只改这一项设定，一个规则集的答案就变成另一个的）：",
        "feature": "设定", "clauses": "条款", "share_div": "占分歧手数的比例",
        "no_single": "（无单一设定）",
        "kinds": "首次分歧按判断分类——{kinds}。", "kind": "{what}：{n}", "sep": "；",
        "per_ruleset": "各规则集的数字", "plots": "图表",
        "plot_pairs": "每对规则集的差异在实战中出现的频率",
        "plot_rulesets": "各规则集的守庄、闲家抠底与甩牌失败",
        "plot_points": "各规则集闲家得分的分布",
    },
}
INTERVALS_ZH = {"proportion": "威尔逊区间（95 %）", "mean": "正态近似区间（均值 ± 1.96 s/√n，95 %）"}
INTERVALS_EN = {"proportion": "Wilson score interval (95 %)",
                "mean": "normal-approximation interval (mean ± 1.96 s/√n, 95 %)"}


def fmt(e: dict | None, kind: str) -> str:
    if not e or e.get("value") is None:
        return "—"
    f = (lambda x: f"{100 * x:.1f} %") if kind == "share" else (lambda x: f"{x:.1f}")
    if e.get("low") is None:
        return f(e["value"])
    return f"{f(e['value'])} [{f(e['low'])}, {f(e['high'])}]"


def list_table(headers: list[str], rows: list[list[str]], widths: str | None = None) -> list[str]:
    out = [".. list-table::", "   :header-rows: 1"]
    if widths:
        out.append(f"   :widths: {widths}")
    out.append("")
    for row in [headers] + rows:
        out.append(f"   * - {row[0] or ' '}")
        out += [f"     - {c or ' '}" for c in row[1:]]
    return out + [""]


def shown_pairs(data: dict) -> list[dict]:
    """The pairs the comparison page shows: bundled base rulesets pairwise, each derived ruleset with its parent."""
    from reference_impl.rules import rules_for
    names = data["rulesets"]
    lineage = {n: rules_for(n).checked.lineage for n in names}
    wanted = set()
    bases = [n for n in names if len(lineage[n]) == 1]
    for i, a in enumerate(bases):
        for b in bases[i + 1:]:
            wanted.add(frozenset((a, b)))
    for n in names:
        if len(lineage[n]) > 1 and lineage[n][1] in names:
            wanted.add(frozenset((lineage[n][1], n)))
    return [p for p in data["pairs"] if frozenset((p["a"], p["b"])) in wanted]


def pair_lines(p: dict, lang: str) -> list[str]:
    from reference_impl.rules import rules_for
    t = T[lang]
    a, b = p["a"], p["b"]
    title = t["pair"].format(a=a, b=b)
    lines = [*_label(T["en"]["pair"].format(a=a, b=b), lang), title, "~" * _width(title), ""]
    if not p["comparable"]:
        ra, rb = rules_for(a), rules_for(b)
        reason = t["packs"].format(da=ra.decks, db=rb.decks, ha=ra.hand_size, hb=rb.hand_size)
        return lines + [t["not_compared"].format(reason=reason), ""]
    feats = "、".join if lang == "zh" else ", ".join
    lines += [t["sizes"].format(hands=p["hands"], games=p["games"],
                                features=feats(_named(k, "feature", lang) for k in p["features_differing"])), ""]
    lines += list_table([t["figure"], t["share"]],
                        [[en if lang == "en" else zh, fmt(p[k], "share")] for k, en, zh in PAIR_ROWS], "60 40")
    n_div = p["judgment_differs"].get("count") or 0
    if n_div:
        rows = [[_named(x["feature"], "feature", lang), " / ".join(_named(c, "clause", lang) if c else "—" for c in
                                                       dict.fromkeys((x["clause_a"], x["clause_b"]))),
                 fmt(x["decided"], "share")] for x in p["attribution"]]
        rows.append([t["no_single"], "", fmt(p["undecided"], "share")])
        lines += [t["decided_by"].format(n=n_div), ""]
        lines += list_table([t["feature"], t["clauses"], t["share_div"]], rows, "40 30 30")
        kinds = t["sep"].join(t["kind"].format(what=KINDS[k][lang == "zh"] if k in KINDS else f"``{k}``", n=v)
                              for k, v in p["first_divergence"].items())
        lines += [t["kinds"].format(kinds=kinds), ""]
    return lines


def _named(ident: str, kind: str, lang: str) -> str:
    """A feature or a clause id in the generated reStructuredText: on a Chinese page its name
    (spec/names_zh.tsv) and the id as a small label (the role ``tr-id``, declared in :meth:`ImpactDirective.run`);
    else the id as code."""
    from tractor_dsl.names import clause_zh, feature_zh
    zh = (feature_zh(ident) if kind == "feature" else clause_zh(ident)) if lang == "zh" else None
    return f"{zh} :tr-id:`{ident}`" if zh else f"``{ident}``"


def _label(english_title: str, lang: str) -> list[str]:
    """On a Chinese page, an explicit label before a section: the anchor of the English page's section
    (``#impact-in-play``), where docutils would otherwise number a Chinese title (``#id2``)."""
    return [f".. _{nodes.make_id(english_title)}:", ""] if lang == "zh" else []


def _width(title: str) -> int:
    """The width of a title as reStructuredText counts it: a wide character (Chinese) counts two."""
    import unicodedata
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in title)


class ImpactDirective(SphinxDirective):
    required_arguments = 1
    has_content = False

    def run(self):
        from tractor_site import page_lang
        lang = page_lang(self.config)
        t = T[lang]
        path = Path(self.env.relfn2path(self.arguments[0], self.env.docname)[1])
        self.env.note_dependency(str(path))
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise self.error(f"tractor-impact: cannot read {path}: {e}") from None
        rel = Path(self.arguments[0]).parent.as_posix()
        names = data["rulesets"]
        players = data["players"]
        if lang == "zh":
            players = PLAYERS_ZH.get(players, f" ``{players}`` ")
            intervals = INTERVALS_ZH
        else:
            intervals = INTERVALS_EN
        lines = [".. role:: tr-id(code)", "", *_label(T["en"]["title"], lang), t["title"], "-" * _width(t["title"]), "",
                 t["intro"].format(hands=data["hands"], games=data["games"], players=players,
                                   proportion=intervals["proportion"], mean=intervals["mean"]), "",
                 ".. code-block:: sh", "", f"   {data['command']}", ""]
        for p in shown_pairs(data):
            lines += pair_lines(p, lang)
        title = t["per_ruleset"]
        lines += [*_label(T["en"]["per_ruleset"], lang), title, "~" * _width(title), ""]
        lines += list_table([t["figure"]] + names,
                            [[en if lang == "en" else zh] + [fmt(data["per_ruleset"][n][k], kind) for n in names]
                             for k, en, zh, kind in RULESET_ROWS])
        title = t["plots"]
        lines += [*_label(T["en"]["plots"], lang), title, "~" * _width(title), ""]
        suffix = ".zh" if lang == "zh" else ""    # the Chinese plots: NAME.zh.svg (impact.report.write_plots)
        for stem in ("pairs", "rulesets", "attackers_points"):
            alt = t[{"pairs": "plot_pairs", "rulesets": "plot_rulesets", "attackers_points": "plot_points"}[stem]]
            if (path.parent / f"{stem}{suffix}.svg").exists():
                caption = alt + "。" if lang == "zh" else f"{alt[0].upper() + alt[1:]}."
                lines += [f".. figure:: {rel}/{stem}{suffix}.svg", f"   :alt: {alt}", "   :class: tr-impact-plot", "",
                          f"   {caption}", ""]
        return self._parse(lines, path)

    def _parse(self, lines: list[str], path: Path) -> list:
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source=str(path)), node)
        return node.children


def setup(app):
    app.add_directive("tractor-impact", ImpactDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


__all__ = ["ImpactDirective", "setup"]
