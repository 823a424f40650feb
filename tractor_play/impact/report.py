"""An impact run as a terminal table (rich), JSON, and plots (matplotlib, Agg backend, SVG and PNG)."""
from __future__ import annotations

import json
from pathlib import Path

from tractor_play.impact.questions import KIND_NAMES

def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def played(data: dict) -> str:
    """What was asked for, per ruleset: ``20 hands and 1 game`` (a game's hands are counted apart)."""
    return f"{plural(data['hands'], 'hand')} and {plural(data['games'], 'game')}"


RULESET_ROWS = (
    ("bank_held", "bank held (banker side keeps the bank)", "share"),
    ("attackers_points", "attackers' points", "mean"),
    ("kitty_captures", "kitty captured by the attackers", "share"),
    ("kitty_value", "kitty value when captured", "mean"),
    ("failed_throws_per_hand", "failed throws per hand", "mean"),
    ("hands_with_failed_throw", "hands with a failed throw", "share"),
    ("levels_per_hand", "levels gained per hand", "mean"),
    ("game_length", "game length (hands)", "mean"),
    ("games_finished", "games finished within the hand limit", "share"),
)
PAIR_ROWS = (
    ("judgment_differs", "hands where any judgment differs"),
    ("play_differs", "hands where the play differs"),
    ("result_differs", "hands whose result differs"),
    ("winner_differs", "games with a different winner"),
)


LABEL_WIDTH = 24      # the figure's name, wrapped
FIGURE_WIDTH = 22     # "100.0% [96.3%, 100.0%]"


def fmt(e: dict, kind: str | None = None) -> str:
    """``value [low, high]``: shares in per cent, means with one decimal."""
    if e is None or e.get("value") is None:
        return "—"
    share = (kind or ("share" if e["kind"] == "proportion" else "mean")) == "share"
    f = (lambda x: f"{100 * x:.1f}%") if share else (lambda x: f"{x:.1f}")
    if e.get("low") is None:
        return f(e["value"])
    return f"{f(e['value'])} [{f(e['low'])}, {f(e['high'])}]"


def write_json(data: dict, path: str | Path) -> None:
    from tractor_dsl.files import write_file
    write_file(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def print_tables(data: dict, console=None) -> None:
    from rich.console import Console
    from rich.table import Table
    console = console or Console()
    names = data["rulesets"]
    # as many rulesets side by side as the terminal holds without wrapping a figure; then the next ones
    per_table = max(1, (console.width - LABEL_WIDTH - 4) // (FIGURE_WIDTH + 3))
    for start in range(0, len(names), per_table):
        shown = names[start:start + per_table]
        part = f" ({start // per_table + 1} of {-(-len(names) // per_table)})" if len(names) > per_table else ""
        t = Table(title=f"Per ruleset{part}: {played(data)}, seed {data['seed']}, "
                        f"{data['players']} players (95 % intervals)")
        t.add_column("figure", max_width=LABEL_WIDTH)
        for n in shown:
            t.add_column(n, justify="right", min_width=FIGURE_WIDTH, no_wrap=True)
        for key, label, kind in RULESET_ROWS:
            t.add_row(label, *[fmt(data["per_ruleset"][n][key], kind) for n in shown])
        console.print(t)
    apart: dict[str, list[str]] = {}      # the pairs not compared hand by hand, by reason
    for p in data["pairs"]:
        if not p["comparable"]:
            apart.setdefault(p["reason"], []).append(f"{p['a']} vs {p['b']}")
    for reason, pairs in apart.items():
        console.print(f"not compared hand by hand — {reason}: {', '.join(pairs)}")
    for p in data["pairs"]:
        title = f"{p['a']} vs {p['b']}"
        if not p["comparable"]:
            continue
        n = len(p["features_differing"])
        pt = Table(title=f"{title}: {plural(n, 'feature')} differ{'s' * (n == 1)}")
        pt.add_column("figure")
        pt.add_column("share [95 % interval]", justify="right")
        for key, label in PAIR_ROWS:
            pt.add_row(label, fmt(p[key], "share"))
        console.print(pt)
        at = Table(title=f"{title}: which feature decides the first divergence (share of divergent hands)")
        at.add_column("feature")
        at.add_column("clauses")
        at.add_column("decides [95 % interval]", justify="right")
        for a in p["attribution"]:
            pair = (a["clause_a"],) if a["clause_a"] == a["clause_b"] else (a["clause_a"], a["clause_b"])
            clauses = " / ".join(c or "—" for c in pair)   # each side's clause; one when both name the same
            at.add_row(a["feature"], clauses, fmt(a["decided"], "share"))
        at.add_row("(no single feature)", "", fmt(p["undecided"], "share"))
        console.print(at)
        if p["first_divergence"]:
            kinds = "; ".join(f"{KIND_NAMES[k]}: {v}" for k, v in p["first_divergence"].items())
            console.print(f"  first divergences, by the judgment that differs first (hands) — {kinds}")
    console.print(f"Reproduce: [bold]{data['command']}[/bold]")
    timing = data.get("timing")
    if timing:
        console.print(f"{plural(timing['hands_played'], 'hand')} played in all ({played(data)} per ruleset, "
                      f"the games' hands included) in {timing['seconds']} s on {timing['executor']} "
                      f"({timing['hands_per_second']} hands/s)")


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams["svg.hashsalt"] = "tractor-impact"   # the same SVG for the same figures
    return plt


# The figures are drawn for a phone as much as for a desktop: the site shows each at its own size, at most the
# page's width, so on a 390 px phone a figure WIDTH inches wide is shrunk to about 360 px and a FONT-point label
# is drawn FONT * 360 / (72 * WIDTH) px high (9.5 px: readable). The legends stand outside the axes, where they
# cover no bar, line or interval (tests/docs/test_browser.py measures both at 390 px).
WIDTH = 5.5
FONT = {"font.size": 11, "axes.titlesize": 12, "axes.labelsize": 11, "xtick.labelsize": 11, "ytick.labelsize": 11,
        "legend.fontsize": 11}


def _legend_below(fig, ax, ncol: int) -> None:
    """The legend in rows under the axes, outside them."""
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=ncol, frameon=False)


def _save(fig, directory: Path, stem: str, formats: tuple[str, ...]) -> list[str]:
    import io

    from tractor_dsl.files import write_file
    out = []
    for ext in formats:
        path = directory / f"{stem}.{ext}"
        meta = {"Date": None} if ext == "svg" else {"Software": None}
        drawn = io.BytesIO()   # drawn in memory, then written whole (tractor_dsl.files)
        fig.savefig(drawn, format=ext, metadata=meta, bbox_inches="tight", dpi=110)
        write_file(path, drawn.getvalue())
        out.append(str(path))
    return out


def _bars(ax, labels, series: dict[str, list[dict]], share: bool = True):
    import numpy as np
    x = np.arange(len(labels))
    width = 0.8 / max(1, len(series))
    for i, (name, ests) in enumerate(series.items()):
        scale = 100 if share else 1
        vals = [(e["value"] or 0) * scale for e in ests]
        low = [max(0.0, ((e["value"] or 0) - (e["low"] if e["low"] is not None else e["value"] or 0)) * scale)
               for e in ests]
        high = [max(0.0, ((e["high"] if e["high"] is not None else e["value"] or 0) - (e["value"] or 0)) * scale)
                for e in ests]
        ax.bar(x + (i - (len(series) - 1) / 2) * width, vals, width, yerr=[low, high], capsize=3, label=name)
    ax.set_xticks(x)
    ax.set_xticklabels(labels)


PLOT_TEXT = {
    "en": {
        "points_x": "attackers' points (bins of {bin})", "points_y": "share of hands (%)",
        "points_title": "Attackers' points, {hands} hands per ruleset",
        "rulesets": ("bank held", "kitty captured", "a failed throw"),
        "rulesets_y": "share of hands (%), 95 % Wilson interval", "rulesets_title": "Per ruleset",
        "pairs": dict(PAIR_ROWS), "vs": "{a} vs {b}", "pairs_x": "share (%), 95 % Wilson interval",
        "pairs_title": "How often the rulesets' difference shows",
    },
    "zh": {   # the terms of the Chinese impact page (docs/_ext/tractor_impact.py)
        "points_x": "闲家得分（每档{bin}分）", "points_y": "占手数的比例（%）",
        "points_title": "闲家得分，每个规则集{hands}手",
        "rulesets": ("守庄", "闲家抠底", "有甩牌失败"),
        "rulesets_y": "占手数的比例（%），95 % 威尔逊区间", "rulesets_title": "各规则集",
        "pairs": {"judgment_differs": "任一判断不同的手数", "play_differs": "出牌不同的手数",
                  "result_differs": "结果不同的手数", "winner_differs": "胜方不同的整局"},
        "vs": "{a} 与 {b}", "pairs_x": "比例（%），95 % 威尔逊区间",
        "pairs_title": "每对规则集的差异在实战中出现的频率",
    },
}
# Chinese plots keep their text as text (SVG only): the reader's browser draws it with its own Chinese
# fonts, so no Chinese font is needed where the plots are made
CJK_FAMILIES = ["Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC", "Microsoft YaHei", "WenQuanYi Zen Hei",
                "sans-serif"]


def write_plots(data: dict, directory: str | Path, formats: tuple[str, ...] = ("svg", "png")) -> list[str]:
    """``attackers_points``, ``rulesets`` and ``pairs`` plots into ``directory``, in English (``formats``)
    and in Chinese (``NAME.zh.svg``, the text left as text)."""
    import logging
    import warnings
    plt = _pyplot()
    with plt.rc_context(FONT):
        written = _plots(plt, data, Path(directory), formats, PLOT_TEXT["en"], "")
    fonts = logging.getLogger("matplotlib.font_manager")
    level = fonts.level
    fonts.setLevel(logging.ERROR)    # "font family ... not found": the reader's browser picks the font
    try:
        with plt.rc_context({**FONT, "svg.fonttype": "none", "font.family": CJK_FAMILIES}), \
                warnings.catch_warnings():
            # the layout is measured with a font that may lack the Chinese glyphs; the browser draws them
            warnings.filterwarnings("ignore", message=".*missing from.*")
            written += _plots(plt, data, Path(directory), ("svg",), PLOT_TEXT["zh"], ".zh")
    finally:
        fonts.setLevel(level)
    return written


def _plots(plt, data: dict, directory: Path, formats: tuple[str, ...], t: dict, suffix: str) -> list[str]:
    directory.mkdir(parents=True, exist_ok=True)
    names = data["rulesets"]
    written = []
    bin_w = data["design"]["point_bin"]
    ncol = min(3, len(names))   # wider rows would widen the figure past WIDTH, and shrink it on a phone
    fig, ax = plt.subplots(figsize=(WIDTH, 4.2 + 0.3 * -(-len(names) // ncol)), layout="constrained")
    for n in names:
        hist = {int(k): v for k, v in data["per_ruleset"][n]["points_histogram"].items()}
        total = sum(hist.values()) or 1
        xs = sorted(hist)
        ax.step([x + bin_w / 2 for x in xs], [100 * hist[x] / total for x in xs], where="mid", label=n)
    ax.set_xlabel(t["points_x"].format(bin=bin_w))
    ax.set_ylabel(t["points_y"])
    ax.set_title(t["points_title"].format(hands=data["hands"]))
    _legend_below(fig, ax, ncol)
    written += _save(fig, directory, "attackers_points" + suffix, formats)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(WIDTH, 4.2 + 0.3 * -(-len(names) // ncol)), layout="constrained")
    keys = ("bank_held", "kitty_captures", "hands_with_failed_throw")
    _bars(ax, list(t["rulesets"]), {n: [data["per_ruleset"][n][k] for k in keys] for n in names})
    ax.set_ylabel(t["rulesets_y"])
    ax.set_title(t["rulesets_title"])
    _legend_below(fig, ax, ncol)
    written += _save(fig, directory, "rulesets" + suffix, formats)
    plt.close(fig)

    pairs = [p for p in data["pairs"] if p["comparable"]]
    if pairs:
        import numpy as np
        fig, ax = plt.subplots(figsize=(WIDTH, 2.2 + 0.95 * len(pairs)), layout="constrained")
        step = 1.5      # each pair's bars, then its name above them in the gap: the axes keep the figure's width
        y = step * np.arange(len(pairs))[::-1]
        height = 0.8 / len(PAIR_ROWS)
        for i, (key, _) in enumerate(PAIR_ROWS):
            ests = [p[key] for p in pairs]
            vals = [100 * (e["value"] or 0) for e in ests]
            err = [[100 * max(0.0, (e["value"] or 0) - (e["low"] or 0)) for e in ests],
                   [100 * max(0.0, (e["high"] or 0) - (e["value"] or 0)) for e in ests]]
            ax.barh(y + (len(PAIR_ROWS) / 2 - i - 0.5) * height, vals, height, xerr=err, capsize=2,
                    label=t["pairs"][key])
        for yy, p in zip(y, pairs):
            ax.text(0.5, yy + 0.45, t["vs"].format(a=p["a"], b=p["b"]), va="bottom", ha="left")
        ax.set_yticks([])
        ax.set_ylim(-0.6, y[0] + 1.2)
        ax.set_xlim(0, 100)
        ax.set_xlabel(t["pairs_x"])
        ax.set_title(t["pairs_title"])
        _legend_below(fig, ax, 1)
        written += _save(fig, directory, "pairs" + suffix, formats)
        plt.close(fig)
    return written
