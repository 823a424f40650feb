"""A site of one's own shows a user's rule file as a rulebook (``tractor-rulebook:: house.tractor``).

An engine author or a club keeps its house rules in a ``.tractor`` file that extends a bundled ruleset,
and builds its own Sphinx site with the rulebook directives: the rulebook, single clauses, the links
between them, and a clear error for a file that does not check.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import DOCS, REPO, parse_html
from tests import processes

# 003:4 and 003:g1: r003 continues the table without a cap; the house takes 001's cap of 3 levels
# ('攻守双方最多升三级'), as the reading thirty_capped does.
HOUSE = '''ruleset house extends r003 {
  title "Our club: r003 capped at 3 levels" "本俱乐部：003号规则，最多升三级"
  override score.table choose thirty_capped because "our club caps a hand's gain" "本俱乐部限制一盘所升级数"
}
'''

CONF = f'''import sys
sys.path.insert(0, {str(DOCS / "_ext")!r})
sys.path.insert(0, {str(REPO)!r})
extensions = ["tractor_docs"]
tractor_rulebook_pages = False
'''


def build(src: Path, out: Path) -> subprocess.CompletedProcess:
    return processes.run([sys.executable, "-m", "sphinx", "-W", "-b", "html", "-q", str(src), str(out)],
                          capture_output=True, text=True, timeout=processes.PATIENCE)


def project(tmp_path: Path, pages: dict[str, str]) -> Path:
    src = tmp_path / "src"
    (src / "rules").mkdir(parents=True)
    (src / "conf.py").write_text(CONF, encoding="utf-8")
    (src / "rules" / "house.tractor").write_text(HOUSE, encoding="utf-8")
    for name, text in pages.items():
        (src / f"{name}.rst").write_text(text, encoding="utf-8")
    return src


@pytest.fixture(scope="module")
def club_site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("club")
    src = project(tmp, {
        "index": "Our club\n========\n\n.. toctree::\n\n   house\n   kitty\n   base\n",
        "house": "House rules\n===========\n\n.. tractor-rulebook:: rules/house.tractor\n",
        "kitty": "The kitty\n=========\n\n.. tractor-clause:: /rules/house.tractor kitty.capture\n",
        "base": "The base\n========\n\n.. tractor-rulebook:: r003\n",
    })
    proc = build(src, tmp / "html")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return src, tmp / "html"


def _text(e) -> str:
    return " ".join(e.text().split())


def test_a_users_file_is_a_rulebook_with_its_override_and_reason(club_site):
    src, out = club_site
    page = parse_html(out / "house.html")
    book = page.find_all("tr-rulebook")[0]
    assert "Rulebook house: Our club: r003 capped at 3 levels" in _text(book)
    assert "generated from rules/house.tractor" in _text(book)
    score = book.by_id("clause-score-table")
    assert score is not None
    text = _text(score)
    assert "Changed in this ruleset" in text and "our club caps a hand" in text
    # 001's cap, chosen by the house (003:g1): the rule shown is the reading's, with its cap of 3
    rule = _text(score.find_all("tr-rule")[0])
    assert "set score.cap = 3" in rule
    base_rule = _text(parse_html(out / "base.html").by_id("clause-score-table").find_all("tr-rule")[0])
    assert "set score.cap = none" in base_rule   # r003 itself states no cap (003:4)


def test_the_base_rulebook_and_a_single_clause_link_where_they_are_shown(club_site):
    src, out = club_site
    house = parse_html(out / "house.html")
    extends = next(p for p in house.find_all("tr-intro") if "extends" in _text(p))
    assert [a.attrs["href"] for a in extends.find_all(tag="a")] == ["base.html"]   # r003 is shown on base
    kitty = parse_html(out / "kitty.html").find_all("tr-clause-box")[0]
    assert _text(kitty).startswith("house · kitty.capture")
    hrefs = {a.attrs["href"] for a in kitty.find_all(tag="a") if "tr-clause-ref" in a.classes}
    assert "house.html#clause-kitty-capture" in hrefs              # to the house's own rulebook
    assert not (src / "rulebooks").exists()                        # no bundled pages written here


def test_a_site_without_the_base_rulebook_leaves_the_base_unlinked(tmp_path):
    src = project(tmp_path, {"index": "House\n=====\n\n.. tractor-clause:: rules/house.tractor score.table\n"})
    proc = build(src, tmp_path / "html")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    box = parse_html(tmp_path / "html" / "index.html").find_all("tr-clause-box")[0]
    assert "our club caps a hand" in _text(box)
    assert not any("tr-clause-ref" in a.classes for a in box.find_all(tag="a"))   # no page shows it whole


def test_a_file_that_does_not_check_fails_the_build_at_its_line(tmp_path):
    src = project(tmp_path, {"index": "House\n=====\n\n.. tractor-rulebook:: rules/broken.tractor\n\n"
                                      ".. tractor-rulebook:: rules/missing.tractor\n\n"
                                      ".. tractor-rulebook:: r004\n"})
    (src / "rules" / "broken.tractor").write_text(
        'ruleset broken extends r003 {\n  override score.table choose nonesuch because "x"\n}\n', encoding="utf-8")
    proc = build(src, tmp_path / "html")
    log = proc.stdout + proc.stderr
    assert proc.returncode != 0 and "Traceback" not in log
    assert "index.rst:4: ERROR: the rule file rules/broken.tractor cannot be used" in log
    assert "broken.tractor:2:" in log and "E508" in log and "nonesuch" in log
    assert "rules/missing.tractor cannot be used" in log and "E006" in log
    assert "unknown ruleset 'r004'" in log


def test_one_name_from_two_files_is_an_error(tmp_path):
    src = project(tmp_path, {"index": "House\n=====\n\n.. tractor-rulebook:: rules/house.tractor\n\n"
                                      ".. tractor-clause:: rules/other.tractor kitty.capture\n"})
    (src / "rules" / "other.tractor").write_text(HOUSE, encoding="utf-8")
    proc = build(src, tmp_path / "html")
    assert proc.returncode != 0
    assert "ruleset 'house' is read from two places" in proc.stdout + proc.stderr
