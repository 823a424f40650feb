"""Escaping everywhere a reader looks (issue 20): an engine's name, version and messages reach summary.md
and matrix.md as text (no link, image or HTML), the HTML report shows NUL and ESC as escapes, and the
terminal prints noncharacters escaped by one policy on every line."""
from __future__ import annotations

import re

import pytest
from markdown_it import MarkdownIt

from conformance.reporting import matrix
from conformance.reporting.escape import html_text, md_block, md_code, md_text
from conformance.reporting.html_report import render
from conformance.reporting.report import markdown
from conformance.running.runner import Outcome, RunResult
from tractor_dsl.diagnostics import showable

MD = MarkdownIt("commonmark").enable("table")
EVIL = ["[click](https://evil.example/x)", "![img](https://evil.example/i.png)", "<img src=x onerror=alert(1)>",
        "<script>alert(1)</script>", "**bold** _em_ `code` | cell | ~~s~~", "# heading", "&amp; &lt;",
        "line\nbreak", "a\\*b", "1. list", "- item", "> quote", "```\nfence", "\x1b[31mred\x00nul\ufffe"]


def inline_html(text: str) -> str:
    return MD.renderInline(text)


def visible(html: str) -> str:
    """The text a browser would show of rendered Markdown."""
    import html as h
    return h.unescape(re.sub(r"<[^>]+>", "", html))


@pytest.mark.parametrize("evil", EVIL)
def test_md_text_renders_as_exactly_its_text(evil):
    html = inline_html(md_text(evil))
    assert "<a" not in html and "<img" not in html and "<script" not in html and "<strong" not in html
    assert "<em" not in html and "<code" not in html
    assert visible(html) == showable(evil.replace("\n", " "))


@pytest.mark.parametrize("evil", EVIL)
def test_md_code_is_one_code_span_even_in_a_table(evil):
    table = MD.render(f"| a | b |\n|---|---|\n| {md_code(evil)} | end |\n")
    cells = re.findall(r"<td>(.*?)</td>", table, re.S)
    assert len(cells) == 2 and cells[1] == "end", table
    assert cells[0].startswith("<code>") and cells[0].endswith("</code>") and "<a" not in cells[0]
    assert visible(cells[0]).strip() == showable(evil.replace("\n", " "))


def test_md_block_cannot_be_closed_from_inside():
    text = "before\n```\n[link](x)\n````\nafter"
    html = MD.render("\n".join(md_block(text)) + "\n")
    assert html.count("<pre>") == 1 and "<a" not in html and "[link](x)" in html


def result_of(name: str, version: str, message: str) -> RunResult:
    case = {"id": "r001:result:abc", "op": "result", "ruleset": "r001", "input": {"attackers_points": 5},
            "expected": {"next_banker": "banker", "levels": 2}, "clauses": ["score.bands"]}
    return RunResult([case], [Outcome("errored", "engine_errored", message)],
                     {"name": name, "version": version, "protocol": 1, "rulesets": ["r001"], "operations": ["result"]},
                     ["./engine", "--x"], "now", 0.1, False, 0, 0, "",
                     [{"kind": "stderr_flood", "message": message}], rulesets=["r001"])


def test_summary_md_shows_the_engines_name_version_and_text_as_text():
    r = result_of("[click](https://evil.example)", "<img src=x onerror=alert(1)>", "![i](https://e/i.png) **b**")
    html = MD.render(markdown(r))
    assert "<a " not in html and "<img" not in html and "<strong>b</strong>" not in html
    assert "[click](https://evil.example)" in visible(html) and "<img src=x onerror=alert(1)>" in visible(html)
    assert "![i](https://e/i.png) **b**" in visible(html)


def test_matrix_md_shows_the_engines_names_as_text():
    r = result_of("<b>engine</b>|x", "1", "m")
    text = matrix.markdown(matrix.build([r]), [r])
    html = MD.render(text)
    assert "<b>" not in html and "<a " not in html
    heads = re.findall(r"<th[^>]*>(.*?)</th>", html)
    assert len(heads) == 1 + len(matrix.build([r]).engines)   # the | in the name split no column
    assert "<b>engine</b>|x" in visible(html)


def test_the_html_report_escapes_control_characters():
    r = result_of("nul\x00esc\x1b[2J", "1", "bell\x07 nul\x00 esc\x1b[31m del\x7f \ufffe")
    html = render(matrix.build([r]), [r])
    for raw in ("\x00", "\x1b", "\x07", "\x7f", "\ufffe"):
        assert raw not in html
    assert "\\x00" in html and "\\x1b" in html and "\\ufffe" in html
    assert html_text("<\x00>") == "&lt;\\x00&gt;"


def test_the_terminal_escapes_noncharacters_on_every_line(capsys):
    from tractor_cli import ui
    for ch, shown in (("\ufffe", "\\ufffe"), ("\uffff", "\\uffff"), ("\ufdd0", "\\ufdd0"),
                      ("\U0010ffff", "\\U0010ffff"), ("\U0001fffe", "\\U0001fffe")):
        assert showable(f"a{ch}b") == f"a{shown}b"
        ui.echo(f"line one {ch}\nline two {ch}")
        ui.echo(ui.styled(("styled ", "pass"), f"{ch}"))
        out = capsys.readouterr().out
        assert ch not in out and out.count(shown) == 3, out
    assert showable("中文 ♠ \t tab") == "中文 ♠ \t tab"   # what a terminal shows is left as it is


def test_the_conform_summary_escapes_every_line_alike(capsys):
    from tractor_cli.summary import print_summary
    odd = "\ufffe\uffff"
    case = {"id": f"r001:result:{odd}", "op": "result", "ruleset": "r001", "input": {"attackers_points": 5},
            "expected": {"next_banker": "banker", "levels": 2}, "clauses": [f"score.bands{odd}"]}
    bad = Outcome("fail", "disagrees", f"message {odd}")
    bad.answer = {"next_banker": f"banker{odd}", "levels": 2}
    errored = Outcome("errored", "engine_errored", f"errored {odd}")
    r = RunResult([case, dict(case, id=f"r001:result:2{odd}")], [bad, errored],
                  {"name": f"name{odd}", "version": odd, "protocol": 1, "rulesets": ["r001"], "operations": ["result"]},
                  [f"./engine{odd}"], "now", 0.1, False, 0, 0, "", [{"kind": "stderr_flood", "message": f"flood {odd}"}],
                  rulesets=["r001"])
    print_summary(r, show=3)
    out = capsys.readouterr().out
    assert "\ufffe" not in out and "\uffff" not in out
    for line in ("engine: name", "FAIL r001:result:", "engine:   next_banker=", "r001:result:2", "flood "):
        shown = next(x for x in out.splitlines() if line in x)
        assert "\\ufffe\\uffff" in shown, shown
    assert "score.bands\\ufffe\\uffff" in out   # a clause in the table, from a vector file
