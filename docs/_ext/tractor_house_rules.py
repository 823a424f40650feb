"""``tractor-house-rules``: the catalogue of house-rule readings (VARIANTS.md, then spec/house_rules.tsv), each with its id, one line in
the page's language and the rulesets that state it; then the readings no ruleset states yet, and why."""
from __future__ import annotations

from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives

from tractor_nodes import library, make_table, para, TractorDirective

HL = {
    "en": {"intro": "Every house-rule reading of the catalogue of variation points (VARIANTS.md), with the "
                    "rulesets that state it: a bundled rulebook or derived ruleset names it in the clause or "
                    "reading that states it, and each file of spec/variants/ states one reading over the "
                    "closest bundled ruleset (tractor diff PARENT FILE shows a position that tells them apart).",
           "headers": ["Id", "Point", "Reading", "Stated by"], "none": "not stated yet", "source": "(source)",
           "no_source": "",
           "unstated": "Readings the rule language cannot state yet", "scope":
               "Out of scope, because the rule language is for four players in two fixed partnerships "
               "(equipment.players admits only 4) and every operation of the protocol judges such a table: more "
               "than four players, partners found in play (找朋友, Finding Friends), one banker against three "
               "(一打三), three-player and other table sizes. These are other games, not readings of this one."},
    "zh": {"intro": "规则变体目录（`VARIANTS.md`）中的每一种读法，以及采用它的规则集：随附的规则书和派生规则集在"
                    "相应的条款或解读中注明；`spec/variants/` 中每个文件在最接近的随附规则集上采用一种读法"
                    "（`tractor diff` 父规则集 文件，给出区分二者的牌局）。",
           "headers": ["编号", "变化点", "读法", "采用者"], "none": "尚未采用", "source": "（出处）", "no_source": "（未找到公开出处）",
           "unstated": "规则语言尚不能表达的读法", "scope": "不在范围内：规则语言只描述四人两队、对家固定的牌局（`equipment.players` 只能为4），"
                    "协议的每个操作也只判断这样的牌局。因此四人以上、打牌中找朋友（找朋友）、一人坐庄对三人（一打三）、"
                    "三人及其他人数的玩法都不在范围内：它们是另外的游戏，不是本游戏的读法。"},
}

# Why a reading cannot be stated yet (English, Chinese).
WHY: dict[str, tuple[str, str]] = {}   # none left since V66's no-trump level (NT) joined level.ranks


def _stated_by() -> dict[str, list[str]]:
    """The rulesets that state each reading: a bundled one by its clauses and readings, a catalogue file by
    its own 'variants' line (not the readings it inherits from its parent)."""
    from tractor_dsl.bundled import is_catalogue
    lib = library()
    out: dict[str, list[str]] = {}
    for name in sorted(lib.rulesets):
        rs = lib.rulesets[name]
        for vid in rs.own_variants if is_catalogue(rs.file) else rs.variants:
            out.setdefault(vid, []).append(name)
    return out


class HouseRulesDirective(TractorDirective):
    option_spec = {"lang": directives.unchanged}

    def run(self):
        self.note()
        from tractor_dsl.bundled import is_catalogue
        from tractor_dsl.variants import catalogue
        lang = self.lang()
        hl = HL[lang]
        lib = library()
        stated = _stated_by()
        rows = []
        for v in catalogue():
            who = nodes.paragraph()
            for i, name in enumerate(stated.get(v.id, [])):
                if i:
                    who += nodes.Text("、" if lang == "zh" else ", ")
                rs = lib.rulesets[name]
                shown = f"spec/variants/{Path(rs.file).name}" if is_catalogue(rs.file) else name
                who += nodes.literal(shown, shown)
            if not stated.get(v.id):
                who += nodes.emphasis(hl["none"], hl["none"])
            reading = para(v.zh if lang == "zh" else v.text)
            if v.source:   # a house rule beyond VARIANTS.md: where players use it
                for node in _sources(v, hl):
                    reading += nodes.Text(" ")
                    reading += node
            rows.append([nodes.literal(v.id, v.id), para(v.point_zh if lang == "zh" else v.point), reading, who])
        out: list[nodes.Node] = [para(*_marked(hl["intro"], lang)),
                                 # on a phone each house rule is a card, its cells labelled (no column squeezed)
                                 make_table(hl["headers"], rows, classes=["tr-house-rules"], widths=[1, 3, 6, 5],
                                            labels=True)]
        missing = [v for v in catalogue() if v.id not in stated]
        if missing:
            out.append(para(nodes.strong(hl["unstated"], hl["unstated"])))
            items = nodes.bullet_list()
            for v in missing:
                why = WHY.get(v.id, ("", ""))[1 if lang == "zh" else 0]
                items += nodes.list_item("", para(nodes.literal(v.id, v.id), " ", *_marked(why, lang)))
            out.append(items)
        out.append(para(*_marked(hl["scope"], lang)))
        return out


def _sources(v, hl: dict) -> list[nodes.Node]:
    """Where players use a house rule: a link to each source, named by its repository or site on the English page
    and "（出处）" on the Chinese one; where none was found, the project's words (what was searched) in English, and
    on the Chinese page that no public source was found. The note of each source is the English link's title."""
    found = v.sources()
    if not found:
        return [nodes.emphasis(hl["no_source"], hl["no_source"]) if hl is HL["zh"] else
                nodes.emphasis(v.source, v.source)]
    out = []
    for i, (address, note) in enumerate(found, 1):
        if hl is HL["zh"]:   # the notes are English: not on the Chinese page
            out.append(nodes.reference(address, hl["source"] if len(found) == 1 else f"（出处{i}）", refuri=address))
        else:
            out.append(nodes.reference(address, f"({_site(address)})", refuri=address, reftitle=note))
    return out


def _site(address: str) -> str:
    """A source's short name: OWNER/REPO for GitHub, else the host."""
    from urllib.parse import urlsplit
    parts = urlsplit(address)
    if parts.netloc == "github.com":
        return "/".join(parts.path.strip("/").split("/")[:2])
    return parts.netloc.removeprefix("www.")


def _marked(text: str, lang: str = "en") -> list[nodes.Node]:
    """Text whose `backticked` parts, setting names and file names are set as code (on a Chinese page an
    identifier is code, not English)."""
    from tractor_site import CODE_WORD, text_nodes
    out: list[nodes.Node] = []
    for i, part in enumerate(text.split("`")):
        if i % 2:   # on a Chinese page an identifier with a name is shown by it (tractor_site.text_nodes)
            out += text_nodes(part, lang) if lang == "zh" and CODE_WORD.fullmatch(part) else [nodes.literal(part, part)]
        elif part:
            out += text_nodes(part, lang)
    return out
