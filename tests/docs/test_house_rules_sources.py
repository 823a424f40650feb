"""The house-rules section of the comparison page (issue 32): every source of spec/house_rules.tsv is linked - on
the English page by its repository or site, with what it says as the link's title; on the Chinese page as 出处,
with no English - and a reading with no source found says so (the English page with what was searched)."""
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).parents[2] / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

from tractor_dsl.variants import house_rules  # noqa: E402


def _page():
    import tractor_house_rules
    return tractor_house_rules


@pytest.mark.parametrize("rule", house_rules(), ids=lambda v: v.id)
def test_every_source_is_linked_in_both_languages(rule):
    page = _page()
    en, zh = (page._sources(rule, page.HL[lang]) for lang in ("en", "zh"))
    found = rule.sources()
    if not found:   # none found: the English page says what was searched, the Chinese page that none was found
        assert [n.astext() for n in en] == [rule.source] and "searched" in rule.source
        assert [n.astext() for n in zh] == ["（未找到公开出处）"]
        return
    assert [n["refuri"] for n in en] == [n["refuri"] for n in zh] == [address for address, _ in found]
    assert [n.get("reftitle") for n in en] == [note for _, note in found]
    for node, (address, _) in zip(en, found):
        label = node.astext().strip("()")
        assert label and label in address            # OWNER/REPO of a GitHub address, else the site
    for node in zh:
        assert node.astext().startswith("（出处") and "reftitle" not in node.attributes


def test_a_github_file_is_named_by_its_repository_and_a_page_by_its_site():
    page = _page()
    assert page._site("https://github.com/ChannonTian/80fen/blob/" + "0" * 40 + "/docs/RULES.md") == \
        "ChannonTian/80fen"
    assert page._site("http://www.gotaobaowang.com/ask/thread/1.html") == "gotaobaowang.com"
