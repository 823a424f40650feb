"""Each clause id cited by the bundled rulesets shows its own words from its source document (issue 33
item 3: the Sources box showed the project's summaries, one summary for 003:10.1, 10.2 and 10.3)."""
from __future__ import annotations

import pytest

from tractor_dsl import inventory, sources
from tractor_dsl.bundled import is_catalogue
from tractor_dsl.checker import load


def bundled_cites() -> dict[str, set[str]]:
    """Every id cited by a clause of a bundled ruleset, with the clauses citing it."""
    lib = load()
    out: dict[str, set[str]] = {}
    for name, rs in lib.rulesets.items():
        if not is_catalogue(rs.file):
            for clause in rs.clauses:
                for c in clause.cites:
                    out.setdefault(c, set()).add(f"{name}:{clause.id}")
    return out


def test_every_cited_source_clause_has_its_own_words_verbatim_in_its_source():
    entries = inventory.by_id()
    stated = sorted(c for c in bundled_cites() if not entries[c].is_gap)
    assert len(stated) > 50
    for c in stated:
        found = sources.passage(c)
        assert found is not None, f"{c} is cited but the anchor table does not place it"
        assert found.text.strip(), c
        assert found.text in sources.document_text(entries[c].document), c


def test_distinct_clauses_have_distinct_words():
    by_text: dict[str, str] = {}
    for c, found in sources.passages().items():
        assert found.text not in by_text, f"{c} and {by_text.get(found.text)} show the same source text"
        by_text[found.text] = c


def test_003_10_3_is_its_own_sentence_not_10_1():
    # 003:10.3 (十、3) forbids asking a partner what he played; 003:10.1 (十、1) is where the kitty lies
    assert sources.passage("003:10.3").text != sources.passage("003:10.1").text
    assert "不得询问同伴已经出过什么牌" in sources.passage("003:10.3").text
    assert "底牌放在牌桌中央" in sources.passage("003:10.1").text
    assert "询问同伴" not in sources.passage("003:10.1").text


def test_conduct_discipline_cites_four_distinct_sentences():
    rs = load().rulesets["r003"]
    clause = next(c for c in rs.clauses if c.id == "conduct.discipline")
    texts = [sources.passage(c).text for c in clause.cites]
    assert len(clause.cites) >= 2 and len(set(texts)) == len(texts)
    # 003:12.3 (十二、3) forbids substitutions, 003:12.4 (十二、4) gives the organiser the last word
    assert sources.passage("003:12.3").text.startswith("3．不准无故更换参赛人员")
    assert "解释权归主办部门" in sources.passage("003:12.4").text


def test_a_clause_ends_where_the_next_begins_or_at_a_heading():
    # 003:3.3 ends before the heading 四、比赛计分; 003:12.4 before the document's repeated second copy
    assert sources.passage("003:3.3").text.endswith("以届时“做庄”的队为胜方。")
    assert sources.passage("003:12.4").text == "4. 如有争议，解释权归主办部门。"
    # 001:9d (九、推土机) and 001:9e (甩牌规则) are separate paragraphs of one numbered article
    assert sources.passage("001:9d").text.startswith("推土机（如999888）")
    assert "甩牌" not in sources.passage("001:9d").text


def test_gaps_have_no_source_text():
    assert sources.passage("003:g1") is None


def test_the_numbering_of_the_sources_places_numbered_clauses():
    assert [sources.chinese_number(n) for n in (1, 9, 10, 12, 16)] == ["一", "九", "十", "十二", "十六"]
    text = sources.document_text("003")
    # 003 十、出牌规定 3．(003:10.3); 十二 is not 二 (003:2 is 二、比赛扑克); 12.4 is written "4. "
    assert sources.numbered(text, "10.3") == text.index("3．比赛进行中")
    assert sources.numbered(text, "2") == text.index("二、比赛扑克")
    assert sources.numbered(text, "12.4") == text.index("4. 如有争议")
    assert sources.numbered(text, "12.5") is None     # 十二 has four items
    assert sources.numbered(text, "9d") is None       # no number says where 9d begins
    # 001 十五、 1、… 2、 follows a full stop on the same line (001:15.2)
    assert sources.passage("001:15.2").text.startswith("2、在比赛过程中若有任一赛员认为")


REAL = list(sources.table_rows(sources.ANCHORS, 2))


@pytest.mark.parametrize("rows, message", [
    (REAL + [["003:1", "no such words"]], "003:1: anchor 'no such words' not found in source document 003"),
    (REAL + [["003", "一、比赛人数"]], "'003' is not DOCUMENT:CLAUSE"),
    (REAL + [["003:3.1", "二、比赛扑克"]],
     "003:(2|3.1): found at the same place of source document 003 as another"),
    ([r for r in REAL if r[0] != "001:9d"], "001:9d: neither the numbering of source document 001 nor "
                                              "source_anchors.tsv places it"),
])
def test_a_bad_anchor_table_is_named(monkeypatch, rows, message):
    monkeypatch.setattr(sources, "table_rows", lambda name, columns: iter([list(r) for r in rows]))
    sources.passages.cache_clear()
    try:
        with pytest.raises(ValueError, match=message):
            sources.passages()
    finally:
        sources.passages.cache_clear()
