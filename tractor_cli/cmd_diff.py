"""``tractor diff A B``: how two rulesets differ, topic by topic, each difference with a position that shows it.

The comparison is :func:`conformance.analysis.variants.compare`, the same one the
documentation's comparison page draws.
"""
from __future__ import annotations

import json
import sys

HELP = "compare two rulesets: every difference by topic, with a position the interpreter judges differently"

NOTES = {
    "alone": "this difference alone accounts for the different answers",
    "attributed": "this difference changes the answer; other differences also play a part",
    "shared": "the answers differ through other differences as well; no position turning on this one alone was found",
    "value": "no position of play tells them apart: the settings themselves are shown",
}
NOTES_ZH = {
    "alone": "仅此一项差异即造成结果不同",
    "attributed": "此项差异改变结果；其他差异也起作用",
    "shared": "结果不同也因其他差异；未找到仅由此项决定的牌局",
    "value": "没有牌局能区分二者：直接列出设定",
}


def add_arguments(p):
    p.add_argument("a", help="first ruleset, e.g. r001")
    p.add_argument("b", help="second ruleset, e.g. r003")
    from .options import names
    p.add_argument("--topic", action="append", metavar="TOPIC", type=names("--topic"),
                   help="only these topics (e.g. tractor, follow, kitty); may be repeated")
    p.add_argument("--zh", action="store_true", help="questions and answers in Chinese")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON")


def note_of(diff) -> str:
    if diff.position is None or diff.position.kind == "value":
        return "value"
    if diff.alone:
        return "alone"
    return "attributed" if diff.attributed else "shared"


def _value_zh(key: str, text: str) -> str:
    from tractor_dsl.names import value_text_zh
    zh = value_text_zh(key, text)
    return zh if zh == text else f"{zh}（{text}）"


def render(comparison, lang: str = "en", topics=None) -> str:
    """The comparison as text (also used by the tests against the documentation)."""
    from conformance.analysis.variants import topic_title
    from conformance.analysis.variants.render import answer_parts, question_parts
    from reference_impl.rules import rules_for
    from tractor_dsl.names import feature_zh

    from .ui import parts_text

    a, b = comparison.a, comparison.b
    width = max(len(a), len(b))
    zh = lang == "zh"

    def title(name):
        checked = rules_for(name).checked
        return f"{name}：{checked.title_zh or checked.title}" if zh else f"{name}: {checked.title}"

    lines = [title(a), title(b)]
    diffs = [d for d in comparison.differences if not topics or d.topic in topics]
    n_topics = len({d.topic for d in diffs})
    n_same = len(comparison.same)
    lines.append(f"{len(diffs)}处不同，涉及{n_topics}个主题；{n_same}项相同" if zh else
                 f"{len(diffs)} difference{'s' * (len(diffs) != 1)} in {n_topics} topic{'s' * (n_topics != 1)}; "
                 f"{n_same} feature{'s' * (n_same != 1)} the same")
    current = None
    notes = NOTES_ZH if lang == "zh" else NOTES
    for d in diffs:
        if d.topic != current:
            current = d.topic
            lines += ["", f"== {topic_title(d.topic, lang)} ({d.topic}) =="]
        # in Chinese a feature and its values by their names (spec/names_zh.tsv), the ids after them
        lines.append(f"{feature_zh(d.key)}（{d.key}）" if zh and feature_zh(d.key) else d.key)
        for name, feat in ((a, d.a), (b, d.b)):
            value = (feat.text if not zh else _value_zh(d.key, feat.text)) if feat else \
                "（未规定）" if zh else "(not stated)"
            where = f"  [{feat.clause}]" if feat and feat.clause else ""
            lines.append(f"  {name:<{width}}  {value}{where}")
        if d.position is not None:
            lines.append(f"  {'牌局：' if zh else 'position: '}{parts_text(question_parts(d.position, lang))}")
            for name, out in ((a, d.outcome_a), (b, d.outcome_b)):
                # each ruleset's answer in the words of its own source document (spec/glossary.tsv)
                answer = parts_text(answer_parts(out, lang, rules_for(name).checked.document)) if out else \
                    "（无法提问）" if zh else "(cannot be asked)"
                clauses = f"  [{', '.join(dict.fromkeys(out.clauses))}]" if out and out.clauses else ""
                lines.append(f"    {name:<{width}}  {answer}{clauses}")
            lines.append(f"  （{notes[note_of(d)]}）" if zh else f"  ({notes[note_of(d)]})")
    return "\n".join(lines) + "\n"


def run(args) -> int:
    from reference_impl.rules import rules_for
    from conformance.analysis.variants import compare
    from .options import split_names
    args.topic = split_names(args.topic, "--topic") if args.topic else None   # empty items refused by the parser

    # bundled names or users' rule files (known by their names from now on); unknown names raise SpecError
    args.a, args.b = rules_for(args.a).name, rules_for(args.b).name
    comparison = compare(args.a, args.b)
    if args.json:
        data = comparison.to_dict()
        if args.topic:
            data["differences"] = [d for d in data["differences"] if d["topic"] in args.topic]
        json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    from .ui import echo
    echo(render(comparison, "zh" if args.zh else "en", args.topic).rstrip("\n"))
    return 0
