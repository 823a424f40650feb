"""The checked spec cached between processes: written once, read back the same, keyed by its sources."""
from reference_impl import rules


def test_the_cache_is_written_then_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("TRACTOR_CACHE_DIR", str(tmp_path))
    first = rules._cached_load()
    files = list(tmp_path.glob("library-*.pickle"))
    assert len(files) == 1
    again = rules._cached_load()
    assert sorted(again.rulesets) == sorted(first.rulesets)
    assert again.rulesets["r003"].values == first.rulesets["r003"].values


def test_a_damaged_cache_is_ignored_and_replaced(tmp_path, monkeypatch):
    monkeypatch.setenv("TRACTOR_CACHE_DIR", str(tmp_path))
    rules._cached_load()
    (path,) = tmp_path.glob("library-*.pickle")
    path.write_bytes(b"not a pickle")
    lib = rules._cached_load()
    assert "r001" in lib.rulesets
    assert path.read_bytes() != b"not a pickle"


def test_the_cache_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("TRACTOR_CACHE_DIR", "off")
    monkeypatch.chdir(tmp_path)
    assert "r000" in rules._cached_load().rulesets
    assert not list(tmp_path.rglob("library-*.pickle"))


def test_caches_of_other_checkouts_are_kept_but_the_oldest(tmp_path, monkeypatch):
    # several checkouts sharing a home (worktrees, a revision being timed) must not evict each other's cache
    import os
    monkeypatch.setenv("TRACTOR_CACHE_DIR", str(tmp_path))
    others = [tmp_path / f"library-other{i:02d}.pickle" for i in range(rules.KEPT_CACHES + 2)]
    for i, p in enumerate(others):
        p.write_bytes(b"not a library")
        os.utime(p, (1_000_000 + i, 1_000_000 + i))  # others[-1] the newest
    rules._cached_load()
    left = {p.name for p in tmp_path.glob("library-*.pickle")}
    ours = left - {p.name for p in others}
    assert len(ours) == 1 and len(left) == rules.KEPT_CACHES
    assert left - ours == {p.name for p in others[-(rules.KEPT_CACHES - 1):]}
