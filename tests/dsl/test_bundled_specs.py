"""The bundled rulebooks: clean, complete against the inventory, every gap a named interpretation."""
import re
from pathlib import Path

import pytest

from tractor_dsl import inventory
from tractor_dsl.checker import coverage, load

SHARED_INVENTORY = Path(__file__).resolve().parents[2].parent / "shared" / "rules" / "INVENTORY.md"


@pytest.fixture(scope="module")
def library():
    return load()


def test_every_bundled_ruleset_checks_clean(library):
    assert [d.headline() for d in library.diagnostics] == []
    assert {"r000", "r001", "r003"} <= set(library.rulesets)


@pytest.mark.parametrize("document, ruleset", [("000", "r000"), ("001", "r001"), ("003", "r003")])
def test_every_inventory_id_is_cited_by_its_documents_spec(library, document, ruleset):
    rs = library.rulesets[ruleset]
    cov = coverage(rs)
    assert cov["missing"] == []
    assert cov["covered"] == list(inventory.ids_of(document))
    interpreted = {c for clause in rs.clauses if clause.status == "interpreted" for c in clause.cites}
    for gap in inventory.ids_of(document, gaps=True):
        assert gap in interpreted, f"{gap} is not resolved by an interpreted clause"


@pytest.mark.parametrize("ruleset", ["r000", "r001", "r003"])
def test_every_interpretation_names_its_reason_and_alternatives(library, ruleset):
    for clause in library.rulesets[ruleset].clauses:
        if clause.status == "interpreted":
            assert clause.reason
            assert len(clause.readings) >= 2 or clause.alternatives


@pytest.mark.skipif(not SHARED_INVENTORY.exists(), reason="compares spec/inventory.tsv with the team's shared clause list, ../shared/rules/INVENTORY.md "
                           "beside the checkout; place that folder there to run it")
def test_the_vendored_inventory_matches_the_shared_one():
    text = SHARED_INVENTORY.read_text(encoding="utf-8")
    ids = set()
    for m in re.finditer(r"^\| (\d{3}:[^ |]+) \|", text, re.M):
        cid = m.group(1)
        r = re.match(r"(\d{3}):(\d+)\.(\d+)–(\d+)\.(\d+)$", cid)
        if r:
            doc, s, a, _, b = r.groups()
            ids.update(f"{doc}:{s}.{i}" for i in range(int(a), int(b) + 1))
        else:
            ids.add(cid)
    vendored = {e.id for e in inventory.entries() if not e.is_gap}
    assert vendored == ids


def test_every_inventory_summary_has_its_chinese_text():
    han = re.compile(r"[\u4e00-\u9fff]")
    for e in inventory.entries():
        assert han.search(e.zh), f"{e.id} has no Chinese summary"


def test_the_inventory_file_keeps_its_columns():
    header = [line for line in (Path(inventory.__file__).resolve().parents[1] / "spec" / "inventory.tsv")
              .read_text(encoding="utf-8").splitlines() if line.startswith("# id")]
    assert header == ["# id\tkind\tsummary\tzh"]


@pytest.mark.parametrize("ruleset, clause", [
    ("r001", "level.progression"),   # 'no level must be played' is not in 001:4
    ("r001", "match.timeout"),       # 庄者: the banker of which moment
    ("r001", "tractor.compare"),     # 最大一张牌点数: by the card order
    ("r000", "declare.overcall"),    # the strength of joker pairs against level pairs
    ("r000", "match.timeout"),       # the hand in progress at time
    ("r003", "declare.jokers"),      # jokers never declare: 003:6 says only 亮主牌不用带王
])
def test_clauses_that_add_to_their_source_are_interpreted(library, ruleset, clause):
    c = library.rulesets[ruleset].clause(clause)
    assert c.status == "interpreted" and c.reason and c.reason_zh


def test_every_text_of_the_library_is_bilingual(library):
    for rs in library.parsed.values():
        assert rs.title_zh, rs.name
        for c in rs.clauses:
            assert c.zh and (c.reason is None or c.reason_zh), (rs.name, c.id)
            assert all(c.alternatives_zh), (rs.name, c.id)
            assert all(r.description_zh for r in c.readings), (rs.name, c.id)
        assert all(ov.because_zh for ov in rs.overrides), rs.name


SOURCES = Path(__file__).resolve().parents[2] / "spec" / "sources"
# a document's word for a thing, and another word for it that documents use: a stated clause (one that
# only restates its source) keeps its own document's word where its source uses it and never the other
OWN_WORDS = (("第一局", "第一盘"), ("其他方", "其他人"))


@pytest.mark.parametrize("ruleset", ["r000", "r001", "r003"])
def test_stated_clauses_keep_their_own_documents_words(library, ruleset):
    rs = library.rulesets[ruleset]
    source = next(SOURCES.glob(f"{rs.document}_*.txt")).read_text(encoding="utf-8")
    changed = [(c.id, own, other) for c in rs.clauses if c.status == "stated"
               for own, other in OWN_WORDS if own in source and other not in source and other in (c.zh or "")]
    assert not changed, f"stated clauses of {ruleset} that replace their source's word: {changed}"
