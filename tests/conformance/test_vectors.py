"""The checked-in test vectors: no drift from the spec, valid lines, a round trip through the CLI."""
import json

import pytest

from conformance.generation import cases
from conformance.protocol import messages as protocol
from reference_impl.rules import ruleset_names
from conformance.protocol.engine import supported_operations
from conformance.generation.cases import vector_cases

from .conftest import cli


DOCUMENTS = ("r000", "r001", "r003")   # the three source documents' rulesets; the others extend them


# the everyday tier checks the documents' vectors; the rulesets extending them are the slow tier's (.ci/run
# runs both), so that the README's test command stays within its five minutes on two cores
@pytest.mark.parametrize("ruleset", [r if r in DOCUMENTS else pytest.param(r, marks=pytest.mark.slow)
                                     for r in ruleset_names()])
def test_vectors_do_not_drift_from_the_spec(ruleset):
    """The checked-in vectors are exactly the seeded suite the generator gives (the default run reads them)."""
    # r000's are made again on two worker processes (the parallel export path): the same bytes
    problems = cases.vector_drift(rulesets=[ruleset], jobs=2 if ruleset == "r000" else 1)
    assert not problems, ("the vectors under conformance/vectors/ drifted from the spec; run "
                          "`tractor vectors export` and review the diff:\n  " + "\n  ".join(problems[:20]))


def test_exporting_one_ruleset_keeps_the_index_entries_of_the_others(tmp_path):
    import shutil
    shutil.copytree(cases.VECTOR_DIR, tmp_path / "v")
    before = json.loads((tmp_path / "v" / "index.json").read_text())
    # what vector_files(["r000_no_bridge"]) gives, without generating it again: its files, and an
    # index of its files alone
    one = {k: v for k, v in before["files"].items() if k.startswith("r000_no_bridge/")}
    files = {k: (tmp_path / "v" / k).read_text() for k in one}
    files["index.json"] = json.dumps({**before, "files": one}, indent=1, sort_keys=True) + "\n"
    cases.export_vectors(tmp_path / "v", files)
    after = json.loads((tmp_path / "v" / "index.json").read_text())
    assert after == before
    assert len({k.split("/")[0] for k in after["files"]}) == len(ruleset_names())


def test_the_index_lists_every_vector_file():
    index = json.loads((cases.VECTOR_DIR / "index.json").read_text())
    present = {str(p.relative_to(cases.VECTOR_DIR)) for p in cases.VECTOR_DIR.glob("*/*.jsonl")}
    assert set(index["files"]) == present


def test_vector_files_cover_every_ruleset_and_operation():
    from reference_impl.rules import ruleset_names
    index = json.loads((cases.VECTOR_DIR / "index.json").read_text())
    assert index["protocol"] == protocol.PROTOCOL_VERSION
    expected = {f"{rs}/{op}.jsonl" for rs in ruleset_names() for op in supported_operations()}
    assert set(index["files"]) == expected
    for path, meta in index["files"].items():
        assert meta["cases"] > 0
        assert sum(1 for _ in (cases.VECTOR_DIR / path).open()) == meta["cases"]


def test_every_vector_line_is_valid():
    ids = set()
    for c in vector_cases():
        assert protocol.schema_errors("vector", c) == [], c["id"]
        req = protocol.request(1, c["op"], c["ruleset"], c["input"])
        assert protocol.schema_errors(f"{c['op']}.request", req) == [], c["id"]
        assert protocol.schema_errors(f"{c['op']}.result", c["expected"]) == [], c["id"]
        assert c["id"] == cases.case_id(c["ruleset"], c["op"], c["input"])
        assert c["id"] not in ids
        ids.add(c["id"])
    assert len(ids) > 2000


def test_export_and_check_round_trip(tmp_path):
    """Through the command line: export, check (exit 0), a tampered line and a stale file found (exit 1), and a
    replay of the tampered vectors. On r000, the cheapest suite to make (two decks: 6 s of CPU against r001's
    10; the suite is made three times): any ruleset takes the same path."""
    assert cli("vectors", "export", "--dir", str(tmp_path), "--ruleset", "r000").returncode == 0
    assert cli("vectors", "check", "--dir", str(tmp_path), "--ruleset", "r000").returncode == 0
    listed = cli("vectors", "list", "--dir", str(tmp_path))
    assert "r000/follow.jsonl" in listed.stdout
    f = tmp_path / "r000" / "follow.jsonl"
    lines = f.read_text().splitlines()
    case = json.loads(lines[0])
    case["expected"]["legal"] = not case["expected"]["legal"]
    f.write_text("\n".join([json.dumps(case, ensure_ascii=False, separators=(",", ":"))] + lines[1:]) + "\n")
    (tmp_path / "r000" / "stale.jsonl").write_text("{}\n")
    check = cli("vectors", "check", "--dir", str(tmp_path), "--ruleset", "r000")
    assert check.returncode == 1
    assert "r000/follow.jsonl: line 1" in check.stderr and "r000/stale.jsonl: no longer produced" in check.stderr
    # a replay of the tampered vectors fails exactly the tampered case
    proc = cli("conform", "--engine", "tractor engine", "--vectors", str(tmp_path), "--ruleset", "r000",
               "--ops", "follow", "--report", "")
    assert proc.returncode == 1 and "1 fail" in proc.stdout and case["id"] in proc.stdout


def test_list_shows_the_named_rulesets_and_says_which_have_none(tmp_path):
    """`vectors list --ruleset R` lists R's files only; a ruleset without vectors there is named on stderr."""
    r001 = cli("vectors", "list", "--ruleset", "r001")
    assert r001.returncode == 0 and "r001/follow.jsonl" in r001.stdout
    head, *files = r001.stdout.splitlines()
    assert head.startswith("vector files under /") and "conformance/vectors" in head    # where they are
    assert {line.split("/", 1)[0] for line in files} == {"r001"}
    house = tmp_path / "house.tractor"
    house.write_text('ruleset house extends r003 {\n  override score.table choose thirty_capped because "a cap"\n}\n',
                     encoding="utf-8")
    none = cli("vectors", "list", "--ruleset", str(house))
    assert none.returncode == 1 and none.stdout == "" and "no vectors of house under" in none.stderr
    empty = cli("vectors", "list", "--dir", str(tmp_path / "nowhere"))
    assert empty.returncode == 2 and "no readable index of vectors" in empty.stderr and "Traceback" not in empty.stderr
