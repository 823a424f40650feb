"""Every fixed text of the HTML conformance report, one table per language (issue 33): ``tractor conform
--lang en|zh``.

The English table holds the report's texts as they always were; the Chinese one the same keys in Chinese.
Names of the game's identifiers come from their one table each: clauses from ``spec/names_zh.tsv``
(:mod:`tractor_dsl.names`), reason codes and consequences from :mod:`tractor_dsl.vocabulary`, ruleset
titles from the checked ruleset (``title_zh``). The protocol (ids, field names, codes) stays English: a
Chinese report shows an id as a small label beside its Chinese name. report.json and junit.xml are
language-neutral and take no language.
"""
from __future__ import annotations

from conformance.running.parallel import WORDS as WHERE_EN

LANGS = ("en", "zh")
HTML_LANG = {"en": "en", "zh": "zh-CN"}

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Tractor conformance report",
        "verdict.fail": "FAIL", "verdict.pass": "PASS", "verdict.incomplete": "INCOMPLETE",
        "verdict.none": "NOTHING JUDGED",
        "say.fail": "{cases} failing case(s) (fail, errored or xpass) in {failing} of {engines} engine(s)",
        "say.incomplete": "no case failed, but a run stopped before its end",
        "say.none": "no case was judged",
        "say.pass": "every judged case agrees with the rulebook",
        "line.bad": "{bad} failing case(s) of {judged} judged ({parts})",
        "line.part": "{n} {status}", "line.sep": ", ",
        "line.good": "{passed} of {judged} judged case(s) pass",
        "line.xfail": ", {n} known deviation(s)",
        "line.tail": "{head}; {skipped} skipped; {rate} pass",
        "skip": " <small>({n} skip)</small>",
        "matrix.head": "ruleset.operation", "all": "all",
        "clause.head": "clause",
        "col.pass": "pass", "col.fail": "fail", "col.skipped": "skipped", "col.errored": "errored",
        "link.title": "the clause in the rulebook",
        "meta.rulesets": "rulesets {v}", "meta.source": "source {v}", "meta.seed": "seed {v}",
        "meta.started": "started {v}", "meta.cases": "{n} cases per engine", "meta.sep": " · ",
        "engines": "engines: {v}",
        "matrix.title": "Compliance by ruleset and operation",
        "matrix.note": "Each cell is the share of judged cases the engine answered as the rulebook does; skipped "
                       "cases (not\nsupported, declined, or not run) are left out and counted beside the rate.",
        "eng.command": "command {v}", "eng.protocol": " · protocol {v}", "eng.nohandshake": " · no handshake",
        "eng.seconds": " · {v:.1f} s", "eng.restarts": " · {n} restart(s)",
        "eng.counts": "{pass} pass, {fail} fail, {skipped} skipped, {errored} errored",
        "eng.extra": ", {n} {status}",
        "not_finished": "not finished (interrupted)",
        "findings": "Findings", "clauses": "Clauses", "failures": "Failures ({n}", "failures.first": "; the first {n} drawn",
        "none": "None.",
        "no_finding": "No finding: no feature of the spec, read another way, explains a failure.",
        "no_failure": "No finding: no case failed.",
        "unexplained": "{n} failure(s) in no finding.",
        "row.clauses": "clauses", "row.charged": "charged to", "row.position": "position",
        "row.expected": "expected", "row.engine": "engine", "row.explain": "explain",
        "disagrees": "disagrees", "id": "id", "colon": ": ",
        # what a run's verdict covers (report.decision_lines: the HTML report, summary.md, the terminal)
        "run.rulesets": "rulesets: {rulesets} (those the engine's handshake lists; {option} chooses)",
        "run.properties": "{n} properties (profile {profile}) on {workers}, each worker with its own engine process",
        **WHERE_EN,
        "decision.line": "decision points of {ruleset}: {total} (each follow rung, band edge, kitty row and reading "
                         "the spec states, with a case that decides it): {passed} pass{rest}",
        "decision.rest": ", {n} {status}",
    },
    "zh": {
        "title": "拖拉机规则一致性报告",
        "verdict.fail": "未通过", "verdict.pass": "通过", "verdict.incomplete": "未完成",
        "verdict.none": "无判定",
        "say.fail": "{engines} 个引擎中有 {failing} 个未通过，共 {cases} 例不合（不符、出错或已知偏差却相符）",
        "say.incomplete": "没有不合的例子，但有一次运行未到终点就停止了",
        "say.none": "没有判定任何例子",
        "say.pass": "所有判定的例子都与规则书一致",
        "line.bad": "判定 {judged} 例，{bad} 例不合（{parts}）",
        "line.part": "{status} {n} 例", "line.sep": "，",
        "line.good": "判定 {judged} 例，{passed} 例一致",
        "line.xfail": "，{n} 例已知偏差",
        "line.tail": "{head}；跳过 {skipped} 例；一致率 {rate}",
        "skip": " <small>（跳过 {n}）</small>",
        "matrix.head": "规则集·操作", "all": "合计",
        "clause.head": "条款",
        "col.pass": "一致", "col.fail": "不符", "col.skipped": "跳过", "col.errored": "出错",
        "link.title": "规则书中的该条款",
        "meta.rulesets": "规则集 {v}", "meta.source": "例子来源 {v}", "meta.seed": "随机种子 {v}",
        "meta.started": "开始于 {v}", "meta.cases": "每个引擎 {n} 例", "meta.sep": " · ",
        "engines": "引擎：{v}",
        "matrix.title": "按规则集和操作的一致率",
        "matrix.note": "每格是引擎的回答与规则书一致的例子占判定例子的比例；跳过的例子（不支持、拒答或未运行）"
                       "不计入，其数目写在比例旁。",
        "eng.command": "命令 {v}", "eng.protocol": " · 协议 {v}", "eng.nohandshake": " · 未握手",
        "eng.seconds": " · {v:.1f} 秒", "eng.restarts": " · 重启 {n} 次",
        "eng.counts": "一致 {pass} 例，不符 {fail} 例，跳过 {skipped} 例，出错 {errored} 例",
        "eng.extra": "，{status} {n} 例",
        "not_finished": "未完成（被中断）",
        "findings": "发现", "clauses": "条款", "failures": "不合的例子（{n}", "failures.first": "；画出前 {n} 例",
        "none": "无。",
        "no_finding": "无发现：规则的任何一处换一种读法都解释不了不合的例子。",
        "no_failure": "无发现：没有不合的例子。",
        "unexplained": "{n} 例不合的例子不属于任何发现（未解释）。",
        "row.clauses": "条款", "row.charged": "归咎于", "row.position": "局面",
        "row.expected": "规则书的答案", "row.engine": "引擎的答案", "row.explain": "复查命令",
        "disagrees": "答案不同", "id": "编号", "colon": "：",
        "run.rulesets": "规则集：{rulesets}（引擎握手时列出的规则集；可用 {option} 指定）",
        "run.properties": "{n} 条性质（配置 {profile}），运行于 {workers}，每个工作进程各有自己的引擎进程",
        "run.inline": "1 个进程（本进程内）", "run.local": "{n} 个本地进程", "run.dask": "分布式集群 {at}",
        "decision.line": "{ruleset} 的判定点：{total} 个（每级跟牌顺序、每个分数档边界、每行底牌规则、规则写明的每种读法，"
                         "各有一个专门判定它的例子）：一致 {passed} 个{rest}",
        "decision.rest": "，{status} {n} 个",
    },
}

# the Chinese of the words the English report prints as they are (statuses, kinds, the unclaused rows)
ZH_WORDS: dict[str, str] = {
    "pass": "一致", "fail": "不符", "skipped": "跳过", "errored": "出错", "xfail": "已知偏差",
    "xpass": "已知偏差却相符",
    "(well-formedness: no rule)": "（格式要求：无规则）", "(unrestricted lead: no rule)": "（出牌不受限：无规则）",
    "(no clause)": "（无条款）",
    "stopped_early": "提前停止", "interrupted": "被中断", "engine_unavailable": "引擎无法启动",
    "handshake_failed": "握手失败",
    "not supported by the engine": "引擎不支持此操作",
}

# the operations of the protocol, in Chinese (the id stays beside the name)
OPS_ZH: dict[str, str] = {
    "classify": "牌型", "lead": "首出", "follow": "跟牌", "winner": "赢墩", "kitty": "底牌", "result": "结果",
    "advance": "升级", "declare": "亮主", "undeclared": "无人亮主", "hand": "整盘", "penalty": "处罚",
    "deal": "发牌",
}

# the labels of a case's input rows (conformance.protocol.inputs.input_rows), the keys of its English table
# (conformance.protocol.inputs.WORDS_EN, which "en" leaves as they are)
INPUT_WORDS: dict[str, dict[str, str]] = {
    "en": {},
    "zh": {"level": "级", "trump": "主", "none": "无主", "attackers_points": "闲家得分", "gain": "升级数",
           "as_banker": "作为庄家", "first_hand": "首盘", "banker": "庄家", "leader": "首家",
           "attackers_level": "闲家级", "kitty_taken": "底牌已拿起",
           "cards": "牌", "lead": "首家出牌", "hand": "手牌", "play": "出牌", "kitty": "底牌",
           "other": "其他手牌 {i}", "seat": "座位 {s}", "leads": "（首出）", "declares": "座位 {s} 亮主",
           "transcript": "{level} 级，主 {trump}，庄家座位 {banker}，{n} 墩", "sep": "，",
           "True": "是", "False": "否"},
}


def texts(lang: str) -> dict[str, str]:
    """The table of ``lang`` (``en`` or ``zh``); any other is a ValueError naming the languages."""
    if lang not in TEXTS:
        raise ValueError(f"unknown language {lang!r}; languages: {', '.join(LANGS)}")
    return TEXTS[lang]


def word(lang: str, w: str) -> str:
    """A status, kind or row name the English report prints as it is, in ``lang``."""
    return ZH_WORDS.get(w, w) if lang == "zh" else w


def ruleset_title(ruleset: str, lang: str) -> str | None:
    """The ruleset's title in ``lang`` (None when this process cannot read the ruleset)."""
    try:
        from reference_impl.rules import rules_for
        rs = rules_for(ruleset).checked
    except Exception:   # vectors of another checkout: the id alone
        return None
    return rs.title_zh if lang == "zh" else rs.title


# summary.md in Chinese (conformance.reporting.summary_zh); the English summary.md keeps its own words
SUMMARY_ZH: dict[str, str] = {
    "title": "# 一致性报告",
    "engine": "- 引擎：{command}{name}", "nohandshake": "（未握手）",
    "rulesets": "- 规则集：{rulesets}；例子来源：{source}{seed}", "seed": "；随机种子 {seed}",
    "started": "- 开始于 {started}，用时 {seconds:.1f} 秒{interrupted}", "interrupted": "，**被中断**：未运行的例子计为跳过",
    "not_finished": "- 未完成（被中断）：{step}",
    "counts": "- **一致 {pass} 例，不符 {fail} 例，跳过 {skipped} 例，出错 {errored} 例**",
    "extra": "，{status} {n} 例", "restarts": "- 引擎重启了 {n} 次",
    "findings": "## 发现", "no_finding": "无发现：规则的任何一处换一种读法都解释不了不合的例子。",
    "no_failure": "无发现：没有不合的例子。",
    "unexplained": "{n} 例不合的例子不属于任何发现（未解释）。",
    "by_op": "## 按规则集和操作", "by_clause": "## 按条款", "op_head": "规则集·操作", "clause_head": "条款",
    "failures": "## 不合的例子（{n} 例；列出 {shown} 例）",
    "case": "- **{status}** {title}（{kind}），编号 {id}", "clauses": "  - 条款：{v}", "input": "  - {label}{v}",
    "expected": "  - 规则书的答案：{v}", "answer": "  - 引擎的答案：{v}", "explain": "  - 复查命令：{v}",
    "events": "## 事件",
}

# the terminal summary of tractor conform in Chinese (tractor_cli.summary.print_summary_zh)
TERMINAL_ZH: dict[str, str] = {
    "engine": "引擎：{name} — {command}", "nohandshake": "（未握手）",
    "by_op": "规则集·操作", "by_clause": "条款",
    "disagreements": "不合的例子（{n} 例；列出 {shown} 例）：", "errored": "出错：",
    "note": "注意：{kind}：{message}", "not_finished": "未完成（被中断）：{step}",
    "totals": "{n} 例：", "in": "，用时 {seconds:.1f} 秒（每秒 {rate:.0f} 例）", "restarts": "，重启 {n} 次",
    "interrupted": " — 被中断", "report": "报告：{paths}", "all": "合计",
    "engine_line": "{name}：一致 {p} 例，不符 {f} 例，跳过 {s} 例，出错 {e} 例，用时 {seconds:.1f} 秒",
    "skip": "（跳过 {n}）", "fails": " — 未通过", "folders": "每个引擎一个文件夹，在 {folder}", "badges": "{n} 个徽章，在 {folder}",
    # tractor conform --generated: the properties, the disagreements' vector lines, how to reproduce the run
    "positions": "{n} 个局面；{clauses}", "partial": "；只比较 {fields}（不比较 {rest}）", "vector": "  - 向量：{v}",
    "profile": "（配置 {profile}，随机种子 {seed}；用同一种子重跑即可复现）",
}


def cluster_kind(c, lang: str = "en") -> str:
    """What a finding of the clusters is, in a word of ``lang``: a difference in the reason alone, one a change of
    one rule fixes (its rule line names it: not "beyond the alternatives", which would send its reader after a
    rule the language cannot state), or one beyond the alternatives."""
    rule = c.rule
    fixed = bool(rule.get("fixes") if isinstance(rule, dict) else getattr(rule, "fixes", False))
    if c.kind == "reason_only":
        return "仅理由不同" if lang == "zh" else "reason only"
    if fixed:
        return "改一条规则即一致" if lang == "zh" else "one rule fixes it"
    return "超出规则的各种读法" if lang == "zh" else "beyond the alternatives"
