"""The rulebook directives: ``tractor-rulebook``, ``tractor-clause``, ``tractor-rulebook-list``."""
from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives

from tractor_site import prose
from tractor_nodes import (
    badge, base_names, cites_node, clause_anchor, clause_link, colon, derived_names,
    effective_rules, id_label, L, library, make_table, named, para, rulebook_link, ruleset_title, section, source_file,
    source_order, spec_file, TractorDirective)


# --------------------------------------------------------------------------
# rulebooks
# --------------------------------------------------------------------------

def clause_body(directive: TractorDirective, rs, clause, lang: str) -> list[nodes.Node]:
    from conformance.analysis.variants import examples_for_clause, is_executable
    from tractor_dsl.render import rule_text
    lab = L[lang]
    env = directive.env
    where = f"{rs.name}, clause {clause.id}"
    out: list[nodes.Node] = []
    meta = nodes.container("", classes=["tr-meta"])
    meta += badge(clause.status, lang)
    if clause.id in rs.overrides:
        meta += nodes.inline("", lab["override"], classes=["tr-badge", "tr-override"])
    meta += cites_node(env, clause.cites, lang)
    out.append(meta)
    out.append(para(prose(env, lang, clause.says, clause.zh, f"{where}: says"), classes=["tr-statement"]))
    chosen = rs.choices.get(clause.id)
    reading = next((r for r in clause.readings if r.name == chosen), None)
    if reading is not None and (reading.says or reading.zh):
        says = prose(env, lang, reading.says, reading.zh, f"{where}: what reading {reading.name} says")
        out.append(para(nodes.strong("", lab["reading_says"] + colon(lang)), says, classes=["tr-statement"]))
    if clause.id in rs.overrides:
        ov = rs.overrides[clause.id]
        out.append(para(nodes.strong("", lab["override"] + ("，" if lang == "zh" else ", ") + lab["because"]
                                     + colon(lang)),
                        prose(env, lang, ov.because, ov.because_zh, f"{where}: because (override)"),
                        classes=["tr-override-note"]))
    if clause.status == "interpreted":
        if clause.reason:
            out.append(para(nodes.strong("", lab["why"] + colon(lang)),
                            prose(env, lang, clause.reason, clause.reason_zh, f"{where}: reason"),
                            classes=["tr-reason"]))
        if clause.readings:
            out.append(para(nodes.strong("", lab["readings"] + colon(lang).rstrip())))
            items = nodes.bullet_list("", classes=["tr-reading-list"])
            for r in clause.readings:
                item = nodes.list_item(classes=["tr-chosen"] if r.name == chosen else [])
                p = para(*named("reading", f"{clause.id}#{r.name}", lang), " — ",
                         prose(env, lang, r.description, r.description_zh, f"{where}: reading {r.name}"))
                if r.name == chosen:
                    p += nodes.Text(" ")
                    p += nodes.inline("", lab["chosen"], classes=["tr-badge", "tr-chosen-badge"])
                item += p
                items += item
            out.append(items)
        if clause.alternatives:
            out.append(para(nodes.strong("", lab["alternatives"] + colon(lang).rstrip())))
            items = nodes.bullet_list("", classes=["tr-alternatives"])
            for i, (a, a_zh) in enumerate(zip(clause.alternatives, clause.alternatives_zh), 1):
                item = nodes.list_item()
                item += para(prose(env, lang, a, a_zh, f"{where}: alternative {i}"))
                items += item
            out.append(items)
    if clause.status == "conduct":
        out.append(para(nodes.emphasis("", lab["conduct_note"]), classes=["tr-note"]))
    rules = effective_rules(rs, clause)
    if rules:
        text = "\n".join(rule_text(r) for r in rules)
        out.append(para(nodes.strong("", lab["rule"]), classes=["tr-rule-head"]))
        block = nodes.literal_block(text, text, classes=["tr-rule"])
        block["language"] = "none"
        out.append(block)
    out += derived_ladders(rs, clause, lang)
    if is_executable(rs, clause.id):
        examples = examples_for_clause(rs.name, clause.id)
        for i, ex in enumerate(examples, 1):
            ident = directive.unique_id(f"ex-{rs.name}-{clause.id}-{i}-{lang}")
            heading = f"{L[lang]['example']} {i}" if len(examples) > 1 else L[lang]["example"]
            out.append(directive.example_node(ex, lang, ident, heading))
    return out


def derived_ladders(rs, clause, lang: str) -> list[nodes.Node]:
    """Under the clause that sets ``follow.unlisted``: the ladders it derives (tractor_dsl.ladders), which an
    engine is judged by like the listed ones; in Chinese on the Chinese page."""
    from tractor_dsl.ladders import derived_follows, follow_zh
    from tractor_dsl.render import rule_text
    origin = rs.origins.get("follow.unlisted")
    follows = derived_follows(rs) if origin is not None and origin.clause.id == clause.id else ()
    if not follows:
        return []
    text = "\n".join(follow_zh(f, rs.document) if lang == "zh" else rule_text(f) for f in follows)
    block = nodes.literal_block(text, text, classes=["tr-rule", "tr-derived"])
    block["language"] = "none"
    return [para(nodes.strong("", L[lang]["derived"]), classes=["tr-rule-head"]), block]


def clause_title(clause, lang: str) -> list:
    """A clause's heading. In Chinese: its name (spec/names_zh.tsv), the document's own term where the
    clause has one and it is not the name, then the id as a small label. In English: the id (as code, the
    heading's own text) and the term."""
    from tractor_dsl.names import clause_zh
    if lang == "zh":
        zh = clause_zh(clause.id) or ""
        words = [w for w in (zh, clause.term) if w]
        words = list(dict.fromkeys(words))
        return [" · ".join(words) + " ", id_label(clause.id)] if words else [id_label(clause.id)]
    return [nodes.literal(clause.id, clause.id)] + ([" · ", clause.term] if clause.term else [])


def clause_section(directive: TractorDirective, rs, clause, lang: str) -> nodes.section:
    title = clause_title(clause, lang)
    sec = section(title, clause_anchor(clause.id), classes=["tr-clause", f"tr-clause-{clause.status}"])
    for n in clause_body(directive, rs, clause, lang):
        sec += n
    return sec


def clause_toc(rs, clauses, lang: str) -> nodes.container:
    """The list of a rulebook's clauses, in its order: each id (a link) and its term."""
    box = nodes.container("", classes=["tr-toc"])
    box += para(nodes.strong("", L[lang]["toc"]), " ",
                nodes.inline("", L[lang]["toc_legend"], classes=["tr-toc-legend"]), classes=["tr-toc-head"])
    items = nodes.enumerated_list("", classes=["tr-toc-list"])
    for clause in clauses:
        item = nodes.list_item("", classes=[f"tr-toc-{clause.status}"])
        if lang == "zh":   # the name first, the id (the link) as a label after it
            title = clause_title(clause, lang)
            p = para(*title[:-1], clause_link(rs.name, clause.id, lang, label=True))
        else:
            p = para(clause_link(rs.name, clause.id, lang))
            if clause.term:
                p += nodes.Text(" " + clause.term)
        item += p
        items += item
    box += items
    return box


class RulebookDirective(TractorDirective):
    required_arguments = 1
    option_spec = {"lang": directives.unchanged}

    def run(self):
        self.note()
        lang = self.lang()
        shown = self.ruleset(self.arguments[0])
        rs, lib = shown.rs, shown.lib
        name = rs.name
        self.register(shown, rulebook=True)
        clauses = source_order(rs)
        counts = {s: sum(1 for c in clauses if c.status == s) for s in ("stated", "interpreted", "conduct")}
        title = prose(self.env, lang, *ruleset_title(name, lib), f"{name}: title")
        if lang == "zh":
            heading = ["规则书 ", nodes.literal(name, name), "：", title]
        else:
            heading = ["Rulebook ", nodes.literal(name, name), ": ", title]
        sec = section(heading, nodes.make_id(f"rulebook-{name}"), classes=["tr-rulebook"])
        src = source_file(rs.document)
        if src:   # the whole source document, copied into the tree's sources/ (tractor_site.copy_sources)
            up = "../" * self.env.docname.count("/")
            src = nodes.reference("", "", nodes.literal(src, src), refuri=f"{up}sources/{src.rsplit('/', 1)[-1]}",
                                  classes=["tr-source-document"])
        origin = spec_file(rs) if shown.file is None else self.arguments[0]
        if lang == "zh":
            intro = para("本规则书由 ", nodes.literal(origin, origin),
                         f" 生成，依据原始文件 {rs.document}",
                         *(["（原文全文：", src, "）"] if src else []),
                         f"。共{len(clauses)}条，按原文顺序排列：明文{counts['stated']}条、解释{counts['interpreted']}条、"
                         f"行为规范{counts['conduct']}条。每条注明出处（原文条款编号，点击可见该条原文）与性质；"
                         "各例均由参考解释器计算得出。", classes=["tr-intro"])
        else:
            intro = para("This rulebook is generated from ", nodes.literal(origin, origin),
                         f", which formalises source document {rs.document}",
                         *([" (the whole source, in Chinese: ", src, ")"] if src else []),
                         f". Its {len(clauses)} clauses follow the order of the source: {counts['stated']} "
                         f"stated, {counts['interpreted']} interpreted, {counts['conduct']} conduct. Each names "
                         "the source clauses it formalises (open them to read each one's own words, in Chinese); "
                         "every example was computed by the reference interpreter.", classes=["tr-intro"])
        sec += intro
        if len(rs.lineage) > 1:
            base = lib.rulesets[rs.lineage[1]]
            base_title = prose(self.env, lang, *ruleset_title(base.name, lib), f"{base.name}: title")
            if lang == "zh":
                p = para("本规则集扩展自 ", rulebook_link(base.name, base.name), "（", base_title,
                         "）。以下条款与之不同：", classes=["tr-intro"])
            else:
                p = para("This ruleset extends ", rulebook_link(base.name, base.name), " (",
                         base_title, "). It differs in these clauses:", classes=["tr-intro"])
            sec += p
            items = nodes.bullet_list()
            for ov in lib.parsed[name].overrides:
                item = nodes.list_item()
                if ov.choose:
                    what = ["改用解读 ", *named("reading", f"{ov.clause_id}#{ov.choose}", lang)] if lang == "zh" else \
                        ["takes the reading ", nodes.literal(ov.choose, ov.choose)]
                else:
                    what = ["改写全文"] if lang == "zh" else ["is replaced"]
                because = prose(self.env, lang, ov.because, ov.because_zh, f"{name}, clause {ov.clause_id}: because")
                from tractor_dsl.names import clause_zh
                head = ([clause_zh(ov.clause_id) or "", " ", clause_link(name, ov.clause_id, lang, label=True)]
                        if lang == "zh" else [clause_link(name, ov.clause_id, lang)])
                item += para(*head, " ", *what,
                             ("。理由：" if lang == "zh" else ", because: "), because)
                items += item
            sec += items
        sec += clause_toc(rs, clauses, lang)
        for clause in clauses:
            sec += clause_section(self, rs, clause, lang)
        return [sec]


class ClauseDirective(TractorDirective):
    required_arguments = 2
    option_spec = {"lang": directives.unchanged}

    def run(self):
        self.note()
        lang = self.lang()
        spec, cid = self.arguments
        shown = self.ruleset(spec)
        rs = shown.rs
        name = rs.name
        self.register(shown, rulebook=False)
        try:
            clause = rs.clause(cid)
        except KeyError:
            raise self.error(f"ruleset {name} has no clause {cid!r}") from None
        box = nodes.container("", classes=["tr-clause-box"])
        box += para(nodes.strong("", f"{name} · "), clause_link(name, cid, lang))
        for n in clause_body(self, rs, clause, lang):
            box += n
        return [box]


class RulebookListDirective(TractorDirective):
    option_spec = {"lang": directives.unchanged}

    def run(self):
        self.note()
        lang = self.lang()
        lib = library()
        headers = ["规则书", "标题", "原始文件", "扩展自", "条款数"] if lang == "zh" else \
            ["Rulebook", "Title", "Source", "Extends", "Clauses"]
        rows = []
        for name in base_names() + derived_names():
            rs = lib.rulesets[name]
            title = prose(self.env, lang, *ruleset_title(name), f"{name}: title")
            base = rs.lineage[1] if len(rs.lineage) > 1 else None
            rows.append([rulebook_link(name, nodes.literal(name, name)),
                         [rulebook_link(name, title)], rs.document or "",
                         nodes.literal(base, base) if base else "—", str(len(rs.clauses))])
        # on a phone each rulebook is a card, every column a labelled line of it: no column hidden, and the
        # Chinese titles keep the width of the page rather than a squeezed column
        return [make_table(headers, rows, classes=["tr-rulebook-list"], widths=[16, 56, 8, 12, 8], labels=True)]
