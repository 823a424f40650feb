"""The directives that set rulesets side by side: ``tractor-interpretations`` (every gap and how each
ruleset resolves it) and ``tractor-comparison`` (rulesets × topics, a distinguishing position for each difference)."""
from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives

from tractor_site import prose
from tractor_nodes import (
    badge, base_names, clause_link, colon, derived_names, library, make_table, para, paren, parts_nodes,
    _row, ruleset_title, section, source_file, source_order, TractorDirective)


# --------------------------------------------------------------------------
# interpretations
# --------------------------------------------------------------------------

IL = {
    "en": {"document": "Document {}", "gaps": "{1} gap(s) in source document {0}", "resolved": ("; resolved by ", "."),
           "the_gap": "The gap: ", "headers": ["Rulesets", "Clause", "Status", "How it is resolved", "Not chosen"],
           "changed": "changed here", "because": " because: ", "not_chosen": "reading {}: ",
           "unresolved": "not resolved", "why": ("Why (", ", ", "): "), "decide": ("What the readings decide (", ")"),
           "other": "Other interpretations",
           "other_intro": "Clauses marked interpreted that cite no gap of the inventory: the source states the "
                          "rule but leaves a detail open.",
           "other_headers": ["Ruleset", "Clause", "Reading", "Why"],
           "head": "{} gap(s) across {} source document(s). Each is resolved by an interpreted clause in every "
                   "ruleset of its document; the rulesets derived from a base take another reading of one of them. "
                   "Rulesets that resolve a gap alike share one row."},
    "zh": {"document": "原始文件 {}", "gaps": "原始文件 {} 有{}处空缺或矛盾", "resolved": ("；由 ", " 处理。"),
           "the_gap": "空缺：", "headers": ["规则集", "条款", "性质", "处理方式", "未采用的解读"],
           "changed": "本规则集改写", "because": "，理由：", "not_chosen": "解读 {}：",
           "unresolved": "未处理", "why": ("理由（", "，", "）："), "decide": ("各解读的结果（", "）"),
           "other": "其他解释",
           "other_intro": "以下条款标为解释，但不涉及清单中的空缺：原文规定了规则，只是留下某个细节未说明。",
           "other_headers": ["规则集", "条款", "解读", "理由"],
           "head": "{}处空缺或矛盾，分布于{}份原始文件。每处都由该文件每个规则集中的一条解释性条款处理；"
                   "派生规则集对其中一条采用另一种解读。处理方式相同的规则集合并为一行。"},
}


def _names_node(names: list[str], lang: str) -> nodes.paragraph:
    p = para()
    for i, n in enumerate(names):
        if i:
            p += nodes.Text("、" if lang == "zh" else ", ")
        p += nodes.literal(n, n)
    return p


class InterpretationsDirective(TractorDirective):
    option_spec = {"lang": directives.unchanged}

    def how_resolved(self, name: str, clause, lang: str) -> tuple[tuple, list, list]:
        """A ruleset's resolution of a gap by a clause: a key (equal for rulesets that resolve it alike),
        how it is resolved, and what it did not choose."""
        lib = library()
        rs = lib.rulesets[name]
        env, il = self.env, IL[lang]
        where = f"{name}, clause {clause.id}"
        chosen = rs.choices.get(clause.id)
        reading = next((r for r in clause.readings if r.name == chosen), None)
        how: list = []
        if reading is not None:
            how += [nodes.literal(chosen, chosen), " — ",
                    prose(env, lang, reading.description, reading.description_zh, f"{where}: reading {chosen}")]
        else:
            how += [prose(env, lang, clause.says, clause.zh, f"{where}: says")]
        own = name in lib.parsed and any(o.clause_id == clause.id for o in lib.parsed[name].overrides)
        because = None
        if clause.id in rs.overrides and own:
            ov = rs.overrides[clause.id]
            because = ov.because
            how += [" ", nodes.inline("", il["changed"], classes=["tr-badge", "tr-override"]), il["because"],
                    prose(env, lang, ov.because, ov.because_zh, f"{where}: because (override)")]
        alts: list = []
        for r in clause.readings:
            if r.name != chosen:
                alts.append([nodes.literal(r.name, r.name), " — ",
                             prose(env, lang, r.description, r.description_zh, f"{where}: reading {r.name}")])
        for i, (a, a_zh) in enumerate(zip(clause.alternatives, clause.alternatives_zh), 1):
            alts.append([prose(env, lang, a, a_zh, f"{where}: alternative {i}")])
        key = (clause.id, clause.status, chosen, clause.says, because)
        return key, how, alts

    def run(self):
        self.note()
        from tractor_dsl import inventory
        from conformance.analysis.variants import examples_for_clause
        lang = self.lang()
        il = IL[lang]
        env = self.env
        lib = library()
        out: list[nodes.Node] = []
        docs = sorted({rs.document for rs in lib.rulesets.values() if rs.document})
        total = 0
        for doc in docs:
            gaps = [e for e in inventory.entries() if e.document == doc and e.is_gap]
            names = [n for n in base_names() + derived_names() if lib.rulesets[n].document == doc]
            src = source_file(doc)
            sec = section(il["document"].format(doc), nodes.make_id(f"document-{doc}"))
            count = il["gaps"].format(doc, len(gaps))
            before, after = il["resolved"]
            sec += para(count, *(paren(nodes.literal(src, src), lang) if src else []), before,
                        *_names_node(names, lang).children, after)
            for gap in gaps:
                total += 1
                summary_text = prose(env, lang, gap.summary, gap.zh, f"the summary of gap {gap.id}")
                g = section([nodes.literal(gap.id, gap.id), " · ", _short_node(summary_text, lang)],
                            nodes.make_id(f"gap-{gap.id}"), classes=["tr-gap-section"])
                g += para(nodes.emphasis("", il["the_gap"]), summary_text.deepcopy(), classes=["tr-gap-summary"])
                rows: dict[tuple, list] = {}
                shown_example = None
                for name in names:
                    rs = lib.rulesets[name]
                    resolving = [c for c in source_order(rs) if gap.id in c.cites]
                    for clause in resolving:
                        key, how, alts = self.how_resolved(name, clause, lang)
                        if key in rows:
                            rows[key][0].append(name)
                            continue
                        rows[key] = [[name], clause_link(name, clause.id, lang), badge(clause.status, lang),
                                     para(*how), _list_node(alts)]
                        if shown_example is None and name in base_names():
                            exs = [e for e in examples_for_clause(name, clause.id) if e.readings]
                            if exs:
                                shown_example = exs[0]
                    if not resolving:
                        rows[(name, None)] = [[name], "—", "", para(il["unresolved"]), para("")]
                table_rows = [[_names_node(r[0], lang)] + r[1:] for r in rows.values()]
                g += make_table(il["headers"], table_rows, classes=["tr-interpretations"], widths=[10, 14, 8, 38, 30],
                                labels=True)
                first = next((lib.rulesets[n] for n in names), None)
                if first is not None:
                    for c in (c for c in source_order(first) if gap.id in c.cites and c.reason):
                        a, b, z = il["why"]
                        g += para(nodes.strong("", a, nodes.literal(first.name, first.name), nodes.Text(b),
                                               nodes.literal(c.id, c.id), nodes.Text(z)),
                                  prose(env, lang, c.reason, c.reason_zh, f"{first.name}, clause {c.id}: reason"),
                                  classes=["tr-reason"])
                if shown_example is not None:
                    ident = self.unique_id(f"gap-ex-{gap.id}")
                    a, z = il["decide"]
                    g += self.example_node(shown_example, lang, ident,
                                           [a, nodes.literal(shown_example.ruleset, shown_example.ruleset), z])
                sec += g
            out.append(sec)
        # interpreted clauses that resolve no listed gap
        other = section(il["other"], "other-interpretations")
        other += para(il["other_intro"])
        rows = []
        for name in base_names():
            rs = lib.rulesets[name]
            for clause in source_order(rs):
                if clause.status != "interpreted" or any(inventory.by_id().get(c) and
                                                         inventory.by_id()[c].is_gap for c in clause.cites):
                    continue
                _key, how, _alts = self.how_resolved(name, clause, lang)
                rows.append([nodes.literal(name, name), clause_link(name, clause.id, lang), para(*how),
                             para(prose(env, lang, clause.reason, clause.reason_zh,
                                        f"{name}, clause {clause.id}: reason") if clause.reason else "")])
        other += make_table(il["other_headers"], rows, classes=["tr-interpretations"], widths=[8, 14, 35, 43],
                            labels=True)
        out.append(other)
        return [para(il["head"].format(total, len(docs)))] + out


def _list_node(items: list[list]) -> nodes.Node:
    if not items:
        return para("—")
    out = nodes.bullet_list("", classes=["tr-not-chosen"])
    for parts in items:
        li = nodes.list_item()
        li += para(*parts)
        out += li
    return out


def _short_node(node: nodes.Node, lang: str) -> nodes.Node:
    """A gap's summary, shortened for a heading (a placeholder stays as it is)."""
    if not isinstance(node, nodes.Text):
        return node.deepcopy()
    return nodes.Text(_short(node.astext(), 40 if lang == "zh" else 70))


def _short(text: str, n: int = 70) -> str:
    text = text.strip()
    if len(text) <= n:
        return text
    cut = text[: n - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + " …"


# --------------------------------------------------------------------------
# comparison
# --------------------------------------------------------------------------

CL = {
    "en": {"matrix": "Rulesets × topics",
           "matrix_intro": "Every feature each ruleset states: its settings, its follow ladders and its score table. "
                           "Rows where the rulesets differ are highlighted; the cells that differ from the first "
                           "ruleset are marked.",
           "matrix_wide": " Where the screen is too narrow for it, the table scrolls sideways.",
           "matrix_phone": " On a phone each feature is a card of its own, every ruleset's value under it.",
           "feature": "Feature", "count": "{} features; {} differ between {}.", "pair": "{} and {}",
           "pair_count": "{} difference(s) in {} topic(s); {} feature(s) the same. The same comparison in the "
                         "terminal: ",
           "not_stated": "(not stated)", "position": "Position: ", "cannot": "(cannot be asked)",
           "headers": ["Ruleset", "Answer", "Decided by"]},
    "zh": {"matrix": "各规则集 × 主题",
           "matrix_intro": "各规则集规定的每一项：设定、跟牌顺序和计分表。规则集之间不同的行以底色标出，"
                           "与第一个规则集不同的格子加深。",
           "matrix_wide": "屏幕放不下时，表格可左右滑动。",
           "matrix_phone": "在手机上，每一项单独显示为一张卡片，各规则集的值列在其下。",
           "feature": "项目", "count": "共{}项，其中{}项在 {} 之间不同。", "pair": "{} 与 {}",
           "pair_count": "{}处不同，涉及{}个主题；{}项相同。在终端中查看同样的比较：",
           "not_stated": "（未规定）", "position": "牌局：", "cannot": "（无法提问）",
           "headers": ["规则集", "结果", "依据条款"]},
}


class ComparisonDirective(TractorDirective):
    option_spec = {"lang": directives.unchanged}

    def run(self):
        self.note()
        from conformance.analysis.variants import compare, feature_order, features, topic_of, topic_title
        lang = self.lang()
        cl = CL[lang]
        lib = library()
        bases = base_names()
        out: list[nodes.Node] = []
        # --- the table: rulesets x topics ---
        feats = {n: features(lib.rulesets[n]) for n in bases}
        keys = feature_order(set().union(*(set(f) for f in feats.values())))
        table_sec = section(cl["matrix"], "rulesets-x-topics")
        # what the table does on this screen, said only where it does it (tractor.css: tr-on-phone)
        table_sec += para(cl["matrix_intro"], nodes.inline("", cl["matrix_wide"], classes=["tr-not-on-phone"]),
                          nodes.inline("", cl["matrix_phone"], classes=["tr-on-phone"]))
        headers = [cl["feature"]] + [nodes.literal(n, n) for n in bases]
        tbody_rows = []
        row_classes = []
        current = None
        ndiff = 0
        for key in keys:
            t = topic_of(key)
            if t != current:
                current = t
                tbody_rows.append(([nodes.strong("", topic_title(t, lang))] + [""] * len(bases), None))
                row_classes.append(["tr-topic-row"])
            texts = [feats[n][key].text if key in feats[n] else "—" for n in bases]
            differs = len(set(texts)) > 1
            ndiff += differs
            cells: list = [nodes.literal(key, key)]
            cell_classes: list[list[str]] = [[]]
            for n, tx in zip(bases, texts):
                f = feats[n].get(key)
                # the ruleset's name, shown in the cell where a phone shows the rows as cards
                label = nodes.inline(n, n, classes=["tr-cell-label"])
                if f is None:
                    cells.append(para(label, "—"))
                else:
                    value = nodes.literal(tx, tx, classes=["tr-value"])
                    cells.append(para(label, value, " ", clause_link(n, f.clause, lang, "§")) if f.clause
                                 else para(label, value))
                cell_classes.append(["tr-cell-diff"] if differs and tx != texts[0] else [])
            tbody_rows.append((cells, cell_classes))
            row_classes.append(["tr-diff"] if differs else ["tr-same"])
        table = nodes.table("", classes=["tr-comparison"])
        group = nodes.tgroup("", cols=len(headers))
        table += group
        for w in [18] + [27] * len(bases):
            group += nodes.colspec("", colwidth=w)
        thead = nodes.thead()
        thead += _row(headers)
        group += thead
        tbody = nodes.tbody()
        for (cells, cc), rc in zip(tbody_rows, row_classes):
            tbody += _row(cells, rc, cc)
        group += tbody
        names = _names_node(bases, lang).children
        before, _, after = cl["count"].format(len(keys), ndiff, "\0").partition("\0")
        table_sec += para(before, *names, after)
        table_sec += table
        out.append(table_sec)
        # --- pairs ---
        pairs = [(a, b) for i, a in enumerate(bases) for b in bases[i + 1:]]
        pairs += [(lib.rulesets[d].lineage[1], d) for d in derived_names()]
        for a, b in pairs:
            comp = compare(a, b)
            ident = nodes.make_id(f"compare-{a}-{b}")
            sec = section([nodes.literal(a, a), cl["pair"].split("{}")[1], nodes.literal(b, b)], ident,
                          classes=["tr-pair"])
            ta = prose(self.env, lang, *ruleset_title(a), f"{a}: title")
            tb = prose(self.env, lang, *ruleset_title(b), f"{b}: title")
            end = "。" if lang == "zh" else ". "
            sec += para(nodes.literal(a, a), colon(lang), ta, end, nodes.literal(b, b), colon(lang), tb, end.strip())
            cmd = f"tractor diff {a} {b}" + (" --zh" if lang == "zh" else "")
            sec += para(cl["pair_count"].format(len(comp.differences), len(comp.topics()), len(comp.same)),
                        nodes.literal(cmd, cmd), "。" if lang == "zh" else ".")
            for topic in comp.topics():
                tsec = section(topic_title(topic, lang), nodes.make_id(f"{ident}-{topic}"))
                for d in (x for x in comp.differences if x.topic == topic):
                    tsec += self.difference_node(comp, d, lang)
                sec += tsec
            out.append(sec)
        return out

    def difference_node(self, comp, d, lang: str) -> nodes.container:
        from conformance.analysis.variants import answer_parts, question_parts
        from tractor_cli.cmd_diff import NOTES, NOTES_ZH, note_of
        cl = CL[lang]
        a, b = comp.a, comp.b
        ident = self.unique_id(f"cmp-{a}-{b}-{d.key}")
        box = nodes.container("", classes=["tr-example", "tr-difference"], ids=[ident])
        box += para(nodes.literal(d.key, d.key), classes=["tr-example-head"])
        items = nodes.bullet_list("", classes=["tr-values"])
        for name, f in ((a, d.a), (b, d.b)):
            item = nodes.list_item()
            p = para(nodes.literal(name, name), colon(lang),
                     nodes.literal(f.text, f.text, classes=["tr-value"]) if f else cl["not_stated"])
            if f and f.clause:
                p += nodes.Text(" — ")
                p += clause_link(name, f.clause, lang)
            item += p
            items += item
        box += items
        if d.position is not None:
            value = d.position.kind == "value"
            box += para(nodes.strong("", cl["position"]), *parts_nodes(question_parts(d.position, lang)),
                        classes=["tr-question"])
            rows = []
            outcomes = {}
            for name, o in ((a, d.outcome_a), (b, d.outcome_b)):
                if o is None:
                    rows.append([nodes.literal(name, name), para(cl["cannot"]), para("")])
                    continue
                outcomes[name] = o
                dec = para()
                for i, c in enumerate(o.clauses):
                    if i:
                        dec += nodes.Text(", ")
                    dec += clause_link(name, c, lang)
                rows.append([nodes.literal(name, name), para(*parts_nodes(answer_parts(o, lang), code=value)), dec])
            box += make_table(cl["headers"], rows, classes=["tr-answers"], widths=[10, 60, 30])
            notes = NOTES_ZH if lang == "zh" else NOTES
            box += para(nodes.emphasis("", notes[note_of(d)]), classes=["tr-note"])
            self.record(ident, "comparison", d.position, outcomes)
        return box


