"""The directives that set rulesets side by side: ``tractor-interpretations`` (every gap and how each
ruleset resolves it) and ``tractor-comparison`` (rulesets × topics, a distinguishing position for each difference)."""
from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives

from tractor_site import prose
from tractor_nodes import (
    badge, base_names, clause_link, colon, derived_names, doc_link, id_label, library, make_table, named, para,
    paren, parts_nodes, _row, ruleset_title, section, source_file, source_order, TractorDirective,
    value_answer_nodes, value_question_nodes)


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
            how += [*named("reading", f"{clause.id}#{chosen}", lang), " — ",
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
                alts.append([*named("reading", f"{clause.id}#{r.name}", lang), " — ",
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
                                               *named("clause", c.id, lang), nodes.Text(z)),
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

# The comparison's areas, one page each (docs/comparison/AREA.rst): (area, the topics of
# conformance.generation.features it holds, English, Chinese). A topic no area names goes to the last.
AREAS: tuple[tuple[str, tuple[str, ...], str, str], ...] = (
    ("cards", ("equipment", "trump", "tractor", "compare"), "Cards, trumps and tractors", "牌、主牌与拖拉机"),
    ("play", ("throw", "follow", "ruff"), "Leading, following and trumping", "出牌、跟牌与毙牌"),
    ("kitty-and-scoring", ("kitty", "score"), "The kitty and scoring", "底牌与计分"),
    ("levels-and-bank", ("level", "bank"), "Levels and the bank", "级别与坐庄"),
    ("declaring", ("deal", "declare"), "Dealing and declaring trump", "抓牌与叫主"),
    ("penalties-and-match", ("penalty", "match", "tournament"), "Penalties, time and the tournament",
     "处罚、比赛时间与赛制"),
)
AREA_DOC = "comparison/{}"


def area_of(topic: str) -> str:
    return next((a for a, topics, _en, _zh in AREAS if topic in topics), AREAS[-1][0])


def area_title(area: str, lang: str) -> str:
    _a, _t, en, zh = next(x for x in AREAS if x[0] == area)
    return zh if lang == "zh" else en


CL = {
    "en": {"matrix": "Rulesets side by side",
           "matrix_intro": "Each feature of this area on which the rulesets differ, with each ruleset's value "
                           "and the clause that states it; the cells that differ from the first ruleset are "
                           "marked. The features they share are folded into one row per topic.",
           "matrix_wide": " Where the screen is too narrow for it, the table scrolls sideways.",
           "matrix_phone": " On a phone each feature is a card of its own, every ruleset's value under it.",
           "feature": "Feature", "count": "{} features here; {} differ between {}.", "pair": "{} and {}",
           "same": "The same in every ruleset ({})", "pair_count": "{} difference(s) here. The same comparison "
                                                                  "in the terminal: ",
           "not_stated": "(not stated)", "position": "Position: ", "cannot": "(cannot be asked)",
           "headers": ["Ruleset", "Answer", "Decided by"],
           "areas": "The areas", "areas_intro": "The comparison has one page per area of the rules; each shows "
                    "the features on which the rulesets differ and, for every difference, a position that tells "
                    "them apart.",
           "areas_headers": ["Area", "Topics", "Features that differ"], "differ": "{} of {}",
           "pairs": "The pairs compared", "pairs_intro": "Each pair of rulesets, its differences in all and by "
                    "area (a number leads to that pair on the area's page).",
           "pairs_headers": ["Rulesets", "Differences"], "none": "—", "overview": "All areas: "},
    "zh": {"matrix": "各规则集对照",
           "matrix_intro": "本部分中各规则集不同的每一项，列出各规则集的值和规定它的条款；与第一个规则集不同的格子加深。"
                           "各规则集相同的项按主题合并为一行。",
           "matrix_wide": "屏幕放不下时，表格可左右滑动。",
           "matrix_phone": "在手机上，每一项单独显示为一张卡片，各规则集的值列在其下。",
           "feature": "项目", "count": "本部分共{}项，其中{}项在 {} 之间不同。", "pair": "{} 与 {}",
           "same": "各规则集相同（{}项）", "pair_count": "本部分{}处不同。在终端中查看同样的比较：",
           "not_stated": "（未规定）", "position": "牌局：", "cannot": "（无法提问）",
           "headers": ["规则集", "结果", "依据条款"],
           "areas": "各部分", "areas_intro": "比较按规则的各部分分页；每页列出各规则集不同的项，并为每一处不同给出一个能区分二者的牌局。",
           "areas_headers": ["部分", "主题", "不同的项"], "differ": "{}项中{}项不同",
           "pairs": "所比较的规则集", "pairs_intro": "每一对规则集的不同之处，合计及按部分分列（点数字可到该部分页面上的这一对）。",
           "pairs_headers": ["规则集", "不同之处"], "none": "—", "overview": "所有部分："},
}


def _pairs() -> list[tuple[str, str]]:
    lib = library()
    bases = base_names()
    pairs = [(a, b) for i, a in enumerate(bases) for b in bases[i + 1:]]
    return pairs + [(lib.rulesets[d].lineage[1], d) for d in derived_names()]


def _pair_id(a: str, b: str) -> str:
    return nodes.make_id(f"compare-{a}-{b}")


def _pair_title(a: str, b: str, cl: dict) -> list:
    return [nodes.literal(a, a), cl["pair"].split("{}")[1], nodes.literal(b, b)]


class ComparisonDirective(TractorDirective):
    """``tractor-comparison`` alone: the overview (the areas, the pairs); ``tractor-comparison AREA``: one
    area's page (its features side by side, then each pair's differences there with their positions)."""
    optional_arguments = 1
    option_spec = {"lang": directives.unchanged}

    def run(self):
        self.note()
        lang = self.lang()
        if not self.arguments:
            return self.overview(lang)
        area = self.arguments[0]
        if area not in {a for a, *_ in AREAS}:
            raise self.error(f"unknown area {area!r} (areas: {', '.join(a for a, *_ in AREAS)})")
        return self.area(area, lang)

    # --- the overview ---
    def overview(self, lang: str) -> list[nodes.Node]:
        from conformance.analysis.variants import compare, feature_order, features, topic_of, topic_title
        cl = CL[lang]
        lib = library()
        bases = base_names()
        feats = {n: features(lib.rulesets[n]) for n in bases}
        keys = feature_order(set().union(*(set(f) for f in feats.values())))
        out: list[nodes.Node] = []
        sec = section(cl["areas"], "areas")
        sec += para(cl["areas_intro"])
        rows = []
        for area, topics, _en, _zh in AREAS:
            mine = [k for k in keys if area_of(topic_of(k)) == area]
            differ = sum(len({feats[n][k].text if k in feats[n] else None for n in bases}) > 1 for k in mine)
            shown = [t for t in topics if any(topic_of(k) == t for k in mine)]
            rows.append([para(doc_link(AREA_DOC.format(area), area_title(area, lang))),
                         para(("、" if lang == "zh" else ", ").join(topic_title(t, lang) for t in shown)),
                         para(cl["differ"].format(len(mine), differ) if lang == "zh"
                              else cl["differ"].format(differ, len(mine)))])
        sec += make_table(cl["areas_headers"], rows, classes=["tr-areas"], widths=[30, 50, 20], labels=True)
        out.append(sec)
        sec = section(cl["pairs"], "pairs")
        sec += para(cl["pairs_intro"])
        rows = []
        for a, b in _pairs():
            comp = compare(a, b)
            by_area = {}
            for d in comp.differences:
                by_area[area_of(d.topic)] = by_area.get(area_of(d.topic), 0) + 1
            links = para(str(len(comp.differences)), colon(lang))
            for i, (area, *_r) in enumerate(x for x in AREAS if x[0] in by_area):
                if i:
                    links += nodes.Text("；" if lang == "zh" else "; ")
                links += doc_link(AREA_DOC.format(area), f"{area_title(area, lang)} {by_area[area]}", _pair_id(a, b))
            rows.append([para(*_pair_title(a, b, cl)), links])
        sec += make_table(cl["pairs_headers"], rows, classes=["tr-pairs"], widths=[30, 70], labels=True)
        out.append(sec)
        return out

    # --- one area ---
    def area(self, area: str, lang: str) -> list[nodes.Node]:
        from conformance.analysis.variants import compare, feature_order, features, topic_of, topic_title
        from tractor_dsl.names import feature_zh, value_text_zh
        cl = CL[lang]
        lib = library()
        bases = base_names()
        out: list[nodes.Node] = []
        feats = {n: features(lib.rulesets[n]) for n in bases}
        keys = [k for k in feature_order(set().union(*(set(f) for f in feats.values())))
                if area_of(topic_of(k)) == area]
        table_sec = section(cl["matrix"], "rulesets-side-by-side")
        # what the table does on this screen, said only where it does it (tractor.css: tr-on-phone)
        table_sec += para(cl["matrix_intro"], nodes.inline("", cl["matrix_wide"], classes=["tr-not-on-phone"]),
                          nodes.inline("", cl["matrix_phone"], classes=["tr-on-phone"]))
        headers = [cl["feature"]] + [nodes.literal(n, n) for n in bases]
        table = nodes.table("", classes=["tr-comparison"])
        group = nodes.tgroup("", cols=len(headers))
        table += group
        for w in [22] + [26] * len(bases):
            group += nodes.colspec("", colwidth=w)
        thead = nodes.thead()
        thead += _row(headers)
        group += thead
        tbody = nodes.tbody()
        group += tbody
        ndiff = 0
        by_topic: dict[str, list[str]] = {}
        for key in keys:
            by_topic.setdefault(topic_of(key), []).append(key)
        for topic, tkeys in by_topic.items():
            tbody += _row([nodes.strong("", topic_title(topic, lang))] + [""] * len(bases), ["tr-topic-row"])
            same = []
            for key in tkeys:
                texts = [feats[n][key].text if key in feats[n] else "—" for n in bases]
                if len(set(texts)) == 1:
                    same.append(key)
                    continue
                ndiff += 1
                cells: list = [para(*named("setting", key, lang, feature_zh(key)))]
                cell_classes: list[list[str]] = [[]]
                for n, tx in zip(bases, texts):
                    f = feats[n].get(key)
                    # the ruleset's name, shown in the cell where a phone shows the rows as cards
                    label = nodes.inline(n, n, classes=["tr-cell-label"])
                    if f is None:
                        cells.append(para(label, "—"))
                    else:
                        shown = value_text_zh(key, tx) if lang == "zh" else tx
                        value = nodes.literal(shown, shown, classes=["tr-value"])
                        cells.append(para(label, value, " ", clause_link(n, f.clause, lang, "§")) if f.clause
                                     else para(label, value))
                    cell_classes.append(["tr-cell-diff"] if tx != texts[0] else [])
                tbody += _row(cells, ["tr-diff"], cell_classes)
            if same:
                tbody += self.same_row(same, bases, lang)
        names = _names_node(bases, lang).children
        before, _, after = cl["count"].format(len(keys), ndiff, "\0").partition("\0")
        table_sec += para(before, *names, after)
        table_sec += table
        out.append(table_sec)
        # --- each pair's differences in this area ---
        for a, b in _pairs():
            comp = compare(a, b)
            diffs = [d for d in comp.differences if area_of(d.topic) == area]
            if not diffs:
                continue
            ident = _pair_id(a, b)
            sec = section(_pair_title(a, b, cl), ident, classes=["tr-pair"])
            ta = prose(self.env, lang, *ruleset_title(a), f"{a}: title")
            tb = prose(self.env, lang, *ruleset_title(b), f"{b}: title")
            end = "。" if lang == "zh" else ". "
            sec += para(nodes.literal(a, a), colon(lang), ta, end, nodes.literal(b, b), colon(lang), tb, end.strip())
            shown_topics = [t for t in comp.topics() if area_of(t) == area]
            cmd = f"tractor diff {a} {b} --topic {','.join(shown_topics)}" + (" --zh" if lang == "zh" else "")
            sec += para(cl["pair_count"].format(len(diffs)), nodes.literal(cmd, cmd), "。" if lang == "zh" else ".")
            for topic in shown_topics:
                tsec = section(topic_title(topic, lang), nodes.make_id(f"{ident}-{topic}"))
                for d in (x for x in diffs if x.topic == topic):
                    tsec += self.difference_node(comp, d, lang)
                sec += tsec
            out.append(sec)
        return out

    def same_row(self, keys: list[str], bases: list[str], lang: str) -> nodes.row:
        """The features of a topic every ruleset states alike, folded into one row: their names (each id a
        label), and the value where it is short."""
        from tractor_dsl.names import feature_zh
        cl = CL[lang]
        row = nodes.row("", classes=["tr-same"])
        first = nodes.entry()
        first += para(nodes.emphasis("", cl["same"].format(len(keys))))
        row += first
        rest = nodes.entry("", morecols=len(bases) - 1, classes=["tr-same-list"])
        p = para()
        for i, key in enumerate(keys):
            if i:
                p += nodes.Text("、" if lang == "zh" else ", ")
            p += nodes.inline("", "", *named("setting", key, lang, feature_zh(key)), classes=["tr-same-item"])
        rest += p
        row += rest
        return row

    def difference_node(self, comp, d, lang: str) -> nodes.container:
        from conformance.analysis.variants import answer_parts, question_parts
        from tractor_cli.cmd_diff import NOTES, NOTES_ZH, note_of
        from tractor_dsl.names import feature_zh, value_text_zh
        cl = CL[lang]
        a, b = comp.a, comp.b
        ident = self.unique_id(f"cmp-{a}-{b}-{d.key}")
        box = nodes.container("", classes=["tr-example", "tr-difference"], ids=[ident])
        box += para(*named("setting", d.key, lang, feature_zh(d.key)), classes=["tr-example-head"])
        items = nodes.bullet_list("", classes=["tr-values"])
        for name, f in ((a, d.a), (b, d.b)):
            item = nodes.list_item()
            if f is None:
                value: list = [nodes.Text(cl["not_stated"])]
            elif lang == "zh":
                zh = value_text_zh(d.key, f.text)
                value = [nodes.inline(zh, zh, classes=["tr-value"])] + ([nodes.Text(" "), id_label(f.text)]
                                                                          if zh != f.text else [])
            else:
                value = [nodes.literal(f.text, f.text, classes=["tr-value"])]
            p = para(nodes.literal(name, name), colon(lang), *value)
            if f and f.clause:
                p += nodes.Text(" — ")
                p += clause_link(name, f.clause, lang)
            item += p
            items += item
        box += items
        if d.position is not None:
            value = d.position.kind == "value"
            box += para(nodes.strong("", cl["position"]),
                        *(value_question_nodes(d.position, lang) if value else
                          parts_nodes(question_parts(d.position, lang), lang=lang)), classes=["tr-question"])
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
                rows.append([nodes.literal(name, name),
                             para(*(value_answer_nodes(o, lang) if value else parts_nodes(answer_parts(o, lang), lang=lang))),
                             dec])
            box += make_table(cl["headers"], rows, classes=["tr-answers"], widths=[10, 60, 30])
            notes = NOTES_ZH if lang == "zh" else NOTES
            box += para(nodes.emphasis("", notes[note_of(d)]), classes=["tr-note"])
            self.record(ident, "comparison", d.position, outcomes)
        return box
