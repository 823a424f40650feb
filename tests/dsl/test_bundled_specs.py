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


@pytest.mark.skipif(not SHARED_INVENTORY.exists(), reason="the shared inventory is not beside this checkout")
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
