"""Sphinx directive ``tractor-impact``: the figures of a checked-in ``tractor impact`` run.

    .. tractor-impact:: impact/impact.json

The argument is the run's JSON (written by ``tractor impact --json``),
relative to the document. The directive shows the command that reproduces
the run, then, for each pair of bundled rulesets the comparison page shows
(the base rulesets pairwise, each derived ruleset with its parent), how often
their difference changes a judgment, the play, a hand's result and a game's
winner, and which feature decides the first divergence; then the figures per
ruleset and the plots found beside the JSON. Every figure is shown with its
95 % interval.
"""
from __future__ import annotations

import json
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

PAIR_ROWS = (
    ("judgment_differs", "Hands where any judgment differs"),
    ("play_differs", "Hands where the play differs"),
    ("result_differs", "Hands whose result (next banker, levels) differs"),
    ("winner_differs", "Games with a different winner"),
)
RULESET_ROWS = (
    ("bank_held", "Bank held (the banker side keeps it)", "share"),
    ("attackers_points", "Attackers' points (mean)", "mean"),
    ("kitty_captures", "Kitty captured by the attackers", "share"),
    ("kitty_value", "Kitty value when captured (mean)", "mean"),
    ("failed_throws_per_hand", "Failed throws per hand (mean)", "mean"),
    ("hands_with_failed_throw", "Hands with a failed throw", "share"),
    ("levels_per_hand", "Levels gained per hand (mean)", "mean"),
    ("game_length", "Game length in hands (mean)", "mean"),
    ("games_finished", "Games finished within the hand limit", "share"),
)
KINDS = {
    "declare_options": "which declarations are allowed", "declare": "a declaration's effect",
    "undeclared": "a hand nobody declares", "exchange": "the kitty exchange", "leads": "which leads are allowed",
    "lead": "a lead or throw", "follows": "which follows are allowed", "trick": "who wins a trick",
    "kitty": "the kitty's value", "result": "the hand's result",
    "choice": "a player's choice on a different card order",
}


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


def pair_lines(p: dict) -> list[str]:
    a, b = p["a"], p["b"]
    title = f"{a} and {b} in play"
    lines = [title, "~" * len(title), ""]
    if not p["comparable"]:
        return lines + [f"Not compared hand by hand: {p['reason']}. Their figures stand side by side in the "
                        "table per ruleset below.", ""]
    feats = ", ".join(f"``{k}``" for k in p["features_differing"])
    lines += [f"{p['hands']} hands and {p['games']} games under each. Features that differ: {feats}.", ""]
    lines += list_table(["Figure", "Share [95 % interval]"], [[label, fmt(p[k], "share")] for k, label in PAIR_ROWS],
                        "60 40")
    n_div = p["judgment_differs"].get("count") or 0
    if n_div:
        rows = [[f"``{x['feature']}``", " / ".join(c or "—" for c in (x["clause_a"], x["clause_b"])),
                 fmt(x["decided"], "share")] for x in p["attribution"]]
        rows.append(["(no single feature)", "", fmt(p["undecided"], "share")])
        lines += [f"Of the {n_div} hands where a judgment differs, the first divergence is decided by "
                  "(the feature alone turns one ruleset's answer into the other's):", ""]
        lines += list_table(["Feature", "Clauses", "Share of divergent hands"], rows, "40 30 30")
        kinds = "; ".join(f"{KINDS.get(k, k)}: {v}" for k, v in p["first_divergence"].items())
        lines += [f"First divergences by judgment — {kinds}.", ""]
    return lines


class ImpactDirective(SphinxDirective):
    required_arguments = 1
    has_content = False

    def run(self):
        path = Path(self.env.relfn2path(self.arguments[0], self.env.docname)[1])
        self.env.note_dependency(str(path))
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise self.error(f"tractor-impact: cannot read {path}: {e}") from None
        rel = Path(self.arguments[0]).parent.as_posix()
        names = data["rulesets"]
        lines = ["Impact in play", "-" * 14, "",
                 f"How often the differences above change real hands and games: {data['hands']} hands and "
                 f"{data['games']} whole games, dealt the same under every ruleset and played by the same "
                 f"{data['players']} players (package ``players``), every judgment the interpreter's. "
                 f"Shares carry the {data['intervals']['proportion']}, means the {data['intervals']['mean']}. "
                 "One hand in ten is a game's first hand; the others start from a banker seat and levels drawn "
                 "for the hand. These figures come from a checked-in run; this command reproduces them "
                 "exactly, on any number of cores or machines:", "",
                 ".. code-block:: sh", "", f"   {data['command']}", ""]
        for p in shown_pairs(data):
            lines += pair_lines(p)
        title = "Figures per ruleset"
        lines += [title, "~" * len(title), ""]
        lines += list_table(["Figure"] + names,
                            [[label] + [fmt(data["per_ruleset"][n][k], kind) for n in names]
                             for k, label, kind in RULESET_ROWS])
        title = "Plots"
        lines += [title, "~" * len(title), ""]
        for stem, alt in (("pairs", "how often each pair's difference shows"),
                          ("rulesets", "bank held, kitty captured, failed throws per ruleset"),
                          ("attackers_points", "distribution of the attackers' points per ruleset")):
            if (path.parent / f"{stem}.svg").exists():
                lines += [f".. figure:: {rel}/{stem}.svg", f"   :alt: {alt}", "   :width: 100%", "",
                          f"   {alt[0].upper() + alt[1:]}.", ""]
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source=str(path)), node)
        return node.children


def setup(app):
    app.add_directive("tractor-impact", ImpactDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


__all__ = ["ImpactDirective", "setup"]
