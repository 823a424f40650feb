"""The HTML conformance report in Chinese (issue 33): ``tractor conform --lang zh``.

A referee reading Chinese meets no English word in it outside what stays an id: the small id labels beside the
Chinese names (``code.tr-id``), code (commands, answers' field names, case ids), card notation and ruleset ids
(the words counted as tests/docs/test_chinese_names.py counts them on the site), and the engine's own name."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from conformance.reporting.labels import TEXTS
from tractor_dsl.names import clause_zh
from tractor_dsl.vocabulary import PLAY_REASONS

from .conftest import REFERENCE, cli, faux

LATIN_WORD = re.compile(r"(?<![A-Za-z])(?![AKQJ]+(?![A-Za-z]))[A-Za-z]{2,}")   # as tests/docs/test_chinese_names
RULESET_ID = re.compile(r"(?<![A-Za-z0-9_])r\d{3}[a-z0-9_]*")
EXEMPT_TAGS = {"code", "style", "script"}
EXEMPT_CLASSES = {"tr-id", "tr-cards"}
VOID = {"meta", "br", "link", "img", "input", "hr"}


class _Words(HTMLParser):
    """The Latin words of a page's text outside the exempt elements, each with the text it stands in."""

    def __init__(self, names: list[str]):
        super().__init__()
        self.stack: list[tuple[str, set[str]]] = []
        self.names = names
        self.left: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append((tag, set((dict(attrs).get("class") or "").split())))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data):
        if any(t in EXEMPT_TAGS or c & EXEMPT_CLASSES for t, c in self.stack):
            return
        for n in self.names:
            data = data.replace(n, " ")
        self.left += [(w, data.strip()[:80]) for w in LATIN_WORD.findall(RULESET_ID.sub(" ", data))]


def english_words(html: str, engine_names: list[str]) -> list[tuple[str, str]]:
    p = _Words(engine_names)
    p.feed(html)
    return p.left


def _conform(tmp_path, engine, lang, *more):
    out = tmp_path / f"report-{lang}.html"
    r = cli("conform", "--engine", faux(engine), "--ruleset", "r001", *more, "--report", "", "--html", str(out),
            "--lang", lang, "--no-progress")
    assert r.returncode == 1, r.stdout + r.stderr   # the planted bug fails cases
    return out.read_text(encoding="utf-8")


def test_a_failing_run_in_chinese_is_red_named_in_chinese_and_holds_no_english(tmp_path):
    # kitty_pair: a pair led to the last trick multiplies the kitty by 4, not 2 (r001 kitty.capture)
    html = _conform(tmp_path, "kitty_pair", "zh", "--ops", "kitty")
    assert '<html lang="zh-CN">' in html
    top = html[:html.index("<h2>")]
    assert '<div class="verdict fail"' in top and "<strong>未通过</strong>" in top
    assert re.search(r"<title>未通过 · 拖拉机规则一致性报告</title>", html)
    assert "FAIL" not in top and "PASS" not in top
    # the clause the finding names, by its Chinese name with its id beside it as a small label
    assert f'{clause_zh("kitty.capture")}<code class="tr-id">kitty.capture</code>' in html
    # the ruleset's Chinese title
    assert "工会小组拖拉机比赛" in html
    engine = re.search(r'<section id="[^"]+"><h2>(.*?) <span', html).group(1)
    left = english_words(html, [engine])
    assert left == [], left[:20]


def test_the_reason_codes_of_answers_are_shown_in_chinese(tmp_path):
    # wrong_answers: every follow is "legal", reason "ok"; the rulebook's refusals keep their codes, in Chinese
    html = _conform(tmp_path, "wrong_answers", "zh", "--ops", "follow", "-k", "r001:follow:0*")
    expected = re.findall(r'<code>reason</code>=([^<]+)<code class="tr-id">([a-z_]+)</code>', html)
    assert expected, "no reason code drawn"
    assert all(PLAY_REASONS[code][1] == zh for zh, code in expected)
    assert ("合规", "ok") in expected   # the engine's answer
    assert english_words(html, [re.search(r'<section id="[^"]+"><h2>(.*?) <span', html).group(1)]) == []


def test_the_english_report_stays_english(tmp_path):
    html = _conform(tmp_path, "kitty_pair", "en", "--ops", "kitty")
    assert '<html lang="en">' in html and "<strong>FAIL</strong>" in html
    assert "未通过" not in html and "拖拉机规则一致性报告" not in html


def test_an_unknown_language_is_refused_before_the_run(tmp_path):
    r = cli("conform", "--engine", faux("kitty_pair"), "--lang", "xx", "--report", str(tmp_path / "r"))
    assert r.returncode == 2
    assert "argument --lang: unknown language 'xx'; languages: en, zh" in r.stderr
    assert "Traceback" not in r.stderr and not (tmp_path / "r").exists()


def test_both_tables_hold_the_same_texts_and_the_chinese_one_no_english_word():
    assert TEXTS["en"].keys() == TEXTS["zh"].keys()
    for key, text in TEXTS["zh"].items():
        words = LATIN_WORD.findall(re.sub(r"\{[^}]*\}|<[^>]*>", " ", text))   # placeholders and tags aside
        assert words == [], (key, words)


def _md_words(text: str) -> list[str]:
    """The Latin words of Markdown outside code spans, ruleset ids and character references (``-&gt;`` shows
    ``->``)."""
    return LATIN_WORD.findall(RULESET_ID.sub(" ", re.sub(r"&[a-z]+;|(`+).*?\1", " ", text)))


def test_summary_md_in_chinese_and_the_other_reports_language_neutral(tmp_path):
    runs = {}
    for lang in ("en", "zh"):
        folder = tmp_path / lang
        r = cli("conform", "--engine", faux("kitty_pair"), "--ruleset", "r001", "--ops", "kitty",
                "--report", str(folder), "--lang", lang, "--no-progress")
        assert r.returncode == 1, r.stdout + r.stderr
        runs[lang] = folder
    md = (runs["zh"] / "summary.md").read_text(encoding="utf-8")
    assert md.startswith("# 一致性报告")
    assert "**一致 " in md and "不符 " in md
    assert f"{clause_zh('kitty.capture')} `kitty.capture`" in md
    assert _md_words(md) == []
    assert (runs["en"] / "summary.md").read_text(encoding="utf-8").startswith("# Conformance report")
    # report.json and junit.xml: the same ids and codes whatever the language (the times aside)
    for name in ("report.json", "junit.xml"):
        en, zh = ((runs[lang] / name).read_text(encoding="utf-8") for lang in ("en", "zh"))
        strip = lambda s: re.sub(r'"?(started|duration|time|timestamp)"?[=:] ?"?[^",\s]*"?', "", s)   # noqa: E731
        assert strip(en) == strip(zh), name
        assert not re.search(r"[\u4e00-\u9fff]", zh), name   # ids and codes, no Chinese


def test_the_terminal_summary_in_chinese(tmp_path):
    r = cli("conform", "--engine", faux("kitty_pair"), "--ruleset", "r001", "--ops", "kitty", "--report",
            str(tmp_path / "r"), "--lang", "zh", "--no-progress", "--show", "1")
    assert r.returncode == 1, r.stdout + r.stderr
    out = r.stdout
    assert out.startswith("引擎：")
    assert "规则集·操作" in out and re.search(r"不合的例子（\d+ 例；列出 1 例）", out) and "报告：" in out
    assert f"{clause_zh('kitty.capture')} kitty.capture" in out
    assert re.search(r"\d+ 例：一致 \d+，不符 \d+，跳过 0，出错 0，用时", out)
    # none of the English summary's fixed words
    for english in ("engine:", "disagreements", " cases:", "ruleset.operation", "report:", "decision points",
                    "stated rules", " pass", " skipped", "expected:", "explain:", "**"):
        assert english not in out, english


def test_a_finding_beyond_the_alternatives_is_told_by_its_structured_parts_in_chinese(tmp_path):
    # tie_last: a tie is won by the last play, not the first (r000 winner): one cluster with a minimal position
    out = tmp_path / "r.html"
    r = cli("conform", "--engine", faux("tie_last"), "--ruleset", "r000", "--ops", "winner", "--report",
            str(tmp_path / "rep"), "--html", str(out), "--lang", "zh", "--show", "0", "--no-progress")
    assert r.returncode == 1, r.stdout + r.stderr
    html = out.read_text(encoding="utf-8")
    item = re.search(r"<li>赢墩<code class=\"tr-id\">winner</code>：(.*?)</li>", html).group(1)
    assert "<code>winner</code>（超出规则的各种读法；" in item and "最小局面：<code>" in item
    assert re.search(r"— \d+ 例：规则书答 <code>", item)
    engine = re.search(r'<section id="[^"]+"><h2>(.*?) <span', html).group(1)
    assert english_words(html, [engine]) == []
    md = (tmp_path / "rep" / "summary.md").read_text(encoding="utf-8")
    assert "最小局面" in md and _md_words(md) == []


def test_several_engines_print_the_matrix_in_chinese_aligned(tmp_path):
    r = cli("conform", "--engine", faux("kitty_pair"), "--engine", faux("wrong_answers"), "--ruleset", "r001",
            "--ops", "kitty", "--report", str(tmp_path / "r"), "--lang", "zh", "--no-progress")
    assert r.returncode == 1, r.stdout + r.stderr
    from rich.cells import cell_len
    table = r.stdout.split("\n\n")[0].splitlines()
    assert table[0].startswith("规则集·操作") and table[-1].startswith("合计")
    assert "r001 · 底牌 kitty" in r.stdout
    assert len({cell_len(line) for line in table}) == 1          # Chinese columns measured in terminal cells
    assert "— 未通过" in r.stdout and "报告：" in r.stdout and "FAILS" not in r.stdout and " pass," not in r.stdout


def test_partial_answers_declared_are_said_in_chinese(tmp_path):
    # declared: the engine answers follow with legal only; the Chinese summary says so, never narrowing silently
    import json
    r = cli("conform", "--engine", faux("declared", json.dumps({"follow": ["legal"]}), "wrong"), "--ruleset", "r001",
            "--ops", "follow", "-k", "r001:follow:0*", "--report", str(tmp_path / "r"), "--lang", "zh",
            "--no-progress")
    assert r.returncode == 1, r.stdout + r.stderr
    said = "部分回答（引擎声明）：跟牌 follow 只比较 legal（不比较 reason"
    assert said in r.stdout
    md = (tmp_path / "r" / "summary.md").read_text(encoding="utf-8")
    assert "部分回答（引擎声明）：跟牌 `follow` 只比较 `legal`（不比较 `reason`" in md and _md_words(md) == []


def test_matrix_md_of_several_engines_in_chinese(tmp_path):
    folder = tmp_path / "r"
    r = cli("conform", "--engine", faux("kitty_pair"), "--engine", faux("wrong_answers"), "--ruleset", "r001",
            "--ops", "kitty", "--report", str(folder), "--lang", "zh", "--no-progress")
    assert r.returncode == 1, r.stdout + r.stderr
    md = (folder / "matrix.md").read_text(encoding="utf-8")
    assert md.startswith("# 一致性矩阵") and "| `r001` · 底牌 `kitty` |" in md and "**合计**" in md
    assert f"{clause_zh('kitty.capture')} `kitty.capture`" in md and _md_words(md) == []
    for engine_folder in (p for p in folder.iterdir() if p.is_dir()):
        assert (engine_folder / "summary.md").read_text(encoding="utf-8").startswith("# 一致性报告")


def test_an_engine_that_crashes_is_told_in_chinese(tmp_path):
    # crash: dies on every 40th request; with one restart allowed the runner gives up on it
    out = tmp_path / "r.html"
    r = cli("conform", "--engine", faux("crash"), "--ruleset", "r001", "--ops", "follow", "-k", "r001:follow:0*",
            "--report", str(tmp_path / "rep"), "--html", str(out), "--lang", "zh", "--max-restarts", "1",
            "--no-progress")
    assert r.returncode == 1, r.stdout + r.stderr
    html = out.read_text(encoding="utf-8")
    assert '<div class="verdict fail"' in html and "<strong>未通过</strong>" in html
    assert re.search(r'<div class="failure errored"><h4>出错 ', html)
    assert '<p class="note"><b>引擎无法启动</b>：<code>' in html
    engine = re.search(r'<section id="[^"]+"><h2>(.*?) <span', html).group(1)
    assert english_words(html, [engine]) == []
    assert _md_words((tmp_path / "rep" / "summary.md").read_text(encoding="utf-8")) == []


def _deciding_run():
    """Three r001 follow cases, each deciding one point of the spec: one passes, one errors, one is a known
    deviation (the points count as passed, failed and skipped)."""
    from conformance.running.runner import Outcome, RunResult
    wanted = {"r001:follow:d97115d38902": "pass", "r001:follow:076e37b326e4": "errored",
              "r001:follow:601e2c693946": "xfail"}
    path = Path(__file__).resolve().parents[2] / "conformance" / "vectors" / "r001" / "follow.jsonl"
    cases = [c for c in map(json.loads, path.read_text(encoding="utf-8").splitlines()) if c["id"] in wanted]
    return RunResult(cases, [Outcome(wanted[c["id"]], "m", "m") for c in cases],
                     {"name": "e", "version": "1", "operations": ["follow"]}, ["e"], "now", 0.1, False, 0, 0, "",
                     rulesets=["r001"])


def test_the_decision_points_are_one_sentence_a_language_in_every_report():
    from conformance.reporting import html_report, matrix, report, summary_zh
    r = _deciding_run()
    en = ["decision points of r001: 3 (each follow rung, band edge, kitty row and reading the spec states, with a "
          "case that decides it): 1 pass, 1 fail, 1 skipped"]
    zh = ["r001 的判定点：3 个（每级跟牌顺序、每个分数档边界、每行底牌规则、规则写明的每种读法，各有一个专门判定它的例子）："
          "一致 1 个，不符 1 个，跳过 1 个"]
    assert report.decision_lines(r) == en and report.decision_lines(r, "zh") == zh
    for lang, line in (("en", en[0]), ("zh", zh[0])):
        assert f'<p class="meta">{line}</p>' in html_report.render(matrix.build([r]), [r], lang=lang), lang
    assert f"- {en[0]}\n" in report.markdown(r) and f"\n{en[0]}\n" in report.summary_text(r)
    assert "- `r001`" + zh[0].removeprefix("r001") + "\n" in summary_zh.markdown_zh(r)


def test_a_generated_run_in_chinese_prints_its_properties_and_disagreements_in_chinese(tmp_path):
    # kitty_pair: a pair led and won captures the kitty x4 (r001 says x2): the kitty property fails and shrinks
    rep = tmp_path / "rep"
    r = cli("conform", "--engine", faux("kitty_pair"), "--ruleset", "r001", "--ops", "kitty,classify", "--generated",
            "--jobs", "1", "--report", str(rep), "--lang", "zh", "--no-progress")
    assert r.returncode == 1, r.stdout + r.stderr
    head, out = r.stdout.split("\n", 1)   # the head is the run's progress line, as the seeded run's
    assert head == "2 条性质（配置 quick），运行于 1 个进程（本进程内），每个工作进程各有自己的引擎进程", head
    assert re.search(rf"^r001 · 底牌 kitty    不符 \d+ 个局面；.*{clause_zh('kitty.capture')} kitty\.capture", out, re.M)
    assert re.search(r"^r001 · 牌型 classify 一致 \d+ 个局面；", out, re.M)
    assert re.search(r"^- 不符 r001 · 底牌 kitty · .*，编号 r001:kitty:[0-9a-f]{12}$", out, re.M)
    vector = json.loads(re.search(r"^  - 向量：(.*)$", out, re.M).group(1))
    assert vector["op"] == "kitty" and vector["input"]["kitty"]
    assert "（配置 quick，随机种子 0；用同一种子重跑即可复现）" in out and "报告：" in out
    for english in ("positions", "decided by", "reference:", "engine:", "vector:", "profile", "rerun", "report:",
                    "decision points", "stated rules", " pass"):
        assert english not in out, english


def test_the_rulesets_a_run_chose_are_told_in_chinese(tmp_path):
    r = cli("conform", "--engine", REFERENCE, "--ops", "classify", "--report", str(tmp_path / "rep"), "--lang", "zh",
            "--html", str(tmp_path / "report.html"), "--no-progress", "--show", "0")
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"^规则集：r000, .*, r003_capped（引擎握手时列出的规则集；可用 --ruleset 指定）$", r.stdout, re.M), r.stdout
    assert "those the engine's handshake lists" not in r.stdout
    # every case passes: nothing failed, so nothing is said of failures no reading explains
    assert "无发现：没有不合的例子。" in r.stdout and "解释不了" not in r.stdout
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "无发现：没有不合的例子。" in html and "解释不了" not in html


def test_a_property_note_in_both_languages():
    from types import SimpleNamespace

    from tractor_cli.cmd_conform import property_note
    held = SimpleNamespace(op="follow", status="pass", examples=12, skipped_reason="",
                           clauses={"follow.suit": 12, "follow.throw": 2, "follow.triple": 5, "trump.order": 1})
    assert property_note(held, None) == "12 positions; follow.suit, follow.triple, follow.throw"
    assert property_note(held, ["legal"]) == ("12 positions; follow.suit, follow.triple, follow.throw; "
                                              "follow compared on legal only (not reason)")
    assert property_note(held, ["legal"], "zh") == (
        f"12 个局面；{clause_zh('follow.suit')} follow.suit、{clause_zh('follow.triple')} follow.triple、"
        f"{clause_zh('follow.throw')} follow.throw；只比较 legal（不比较 reason）")
    skipped = SimpleNamespace(op="deal", status="skipped", examples=0, clauses={},
                              skipped_reason="not supported by the engine")
    assert property_note(skipped, None) == "not supported by the engine"
    assert property_note(skipped, None, "zh") == "引擎不支持此操作"
    said = SimpleNamespace(op="deal", status="skipped", examples=3, clauses={}, skipped_reason="no deal here")
    assert property_note(said, None, "zh") == "no deal here"   # the engine's own words, as they are


def test_a_findings_two_sides_read_in_chinese_and_say_no_more_than_the_alternative_changes():
    # English on a Chinese screen: a finding's sides were the analysis's English text ("follow.reason_order:
    # pairs_first, a follow with too few pairs is refused ... (H38)", "not set: largest")
    from conformance.reporting.findings_zh import engine_zh, spec_zh
    from tractor_dsl.names import english_words, setting_zh
    h38 = engine_zh("follow.reason_order: pairs_first, a follow with too few pairs is refused as must_play_pair "
                    "before a tractor it lacks is named (H38)", "follow.reason_order")
    assert h38.endswith("（H38）") and english_words(h38) == []
    # H27's catalogued reading also frees a failed throw; the alternative sets the forced play alone, and its
    # Chinese side says no more
    h27 = engine_zh("throw.forced_play: blocked_fewest, the blocked component with the fewest cards (H27)",
                    "throw.forced_play")
    assert h27.endswith("（H27）") and "罚" not in h27 and english_words(h27) == []
    assert spec_zh("follow.reason_order", "not set: largest").startswith("未设定：")
    assert english_words(spec_zh("follow.reason_order", "not set: largest")) == []
    # an unset setting whose meaning the schema says in English prose: the word alone, no English
    assert spec_zh("trump.off_suit_order", "not set: the cards of one place are equal and the first played wins") \
        == "未设定"
    # the readings of an interpreted clause, by their Chinese names with the ids beside them
    reading = engine_zh("level.progression: reading play_to_ace -> defend_ace", "reading level.progression")
    assert "（play_to_ace）" in reading and "（defend_ace）" in reading
    assert english_words(re.sub(r"（\w+）", "", reading)) == []
    # on a line of another feature, the setting the alternative changes is named
    assert engine_zh("ruff.structure: same_shape").startswith(setting_zh("ruff.structure"))
