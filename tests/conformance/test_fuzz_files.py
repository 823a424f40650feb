"""The CI sample of the expectation-file and vector-folder fuzzers (benchmarks/fuzz_files.py runs the
same generators as long as asked): every input is read, or refused with the reader's own error."""
from __future__ import annotations

import pytest

from . import file_fuzz


@pytest.mark.parametrize("kind", ["expectations", "vectors"])
def test_a_few_hundred_hostile_files_are_read_or_refused(kind):
    tally = file_fuzz.run(kind, 300, seed=20)
    assert tally["failures"] == 0, tally["examples"][:3]
    assert tally["count"] == 300
    # the generators reach both sides: files that are read and files that are refused (a vector folder is read
    # only when each of its 1-3 files is; over seeds 1, 2, 3, 20 and 21, 23 to 44 of 300 were, so 5 % is asked)
    assert tally["read"] >= 15 and tally["refused"] >= 15, tally


def test_what_the_writer_writes_its_reader_reads_back(tmp_path):
    import random

    from conformance.protocol import jsonlines
    from conformance.running.expectations import expectations_text, load_expectations
    rnd = random.Random(7)
    for i in range(200):
        data = {"engine": file_fuzz._text(rnd), "deviations": [file_fuzz._good_entry(rnd) for _ in range(3)]}
        for suffix in (".toml", ".json"):
            f = tmp_path / f"w{i}{suffix}"
            f.write_text(expectations_text(data, suffix == ".toml"), encoding="utf-8")
            read = load_expectations(f)   # never refused: an ExpectationError fails the test
            assert [d.reason for d in read] == [e["reason"] for e in jsonlines.scrub(data)["deviations"]]
