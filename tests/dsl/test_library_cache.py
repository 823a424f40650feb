"""The checked spec cached between processes: written once, read back the same, keyed by its sources."""
import pytest

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


class _Planted:
    """A pickle that runs code when loaded: it creates the file ``marker``."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def _plant(path, marker):
    import pickle
    path.write_bytes(pickle.dumps(_Planted(marker)))


def _cache_path(folder, monkeypatch):
    monkeypatch.setenv("TRACTOR_CACHE_DIR", str(folder))
    rules._cached_load()
    (path,) = folder.glob("library-*.pickle")
    return path


def test_a_pickle_in_a_folder_others_can_write_is_never_loaded(tmp_path, monkeypatch):
    import os
    folder = tmp_path / "shared"
    folder.mkdir()
    path = _cache_path(folder, monkeypatch)
    marker = tmp_path / "ran"
    _plant(path, marker)
    os.chmod(folder, 0o777)   # e.g. TRACTOR_CACHE_DIR=/tmp/cache made by someone else
    lib = rules._cached_load()
    assert not marker.exists() and "r001" in lib.rulesets
    # nor is one written there
    path.unlink()
    rules._cached_load()
    assert not list(folder.glob("library-*.pickle"))


def test_a_pickle_others_can_write_or_a_link_is_never_loaded(tmp_path, monkeypatch):
    import os
    folder = tmp_path / "mine"
    path = _cache_path(folder, monkeypatch)
    assert os.stat(folder).st_mode & 0o777 == 0o700 and os.stat(path).st_mode & 0o777 == 0o600
    marker = tmp_path / "ran"
    _plant(path, marker)
    os.chmod(path, 0o666)
    assert "r003" in rules._cached_load().rulesets and not marker.exists()
    elsewhere = tmp_path / "elsewhere.pickle"
    _plant(elsewhere, marker)
    path.unlink(missing_ok=True)
    for p in folder.glob("library-*.pickle"):
        p.unlink()
    path.symlink_to(elsewhere)
    assert "r003" in rules._cached_load().rulesets and not marker.exists()
    if os.getuid() == 0:   # a file of another user's, even closed to writes, is not this user's to load
        path.unlink()
        _plant(path, marker)
        os.chmod(path, 0o600)
        os.chown(path, 65534, 65534)
        assert "r003" in rules._cached_load().rulesets and not marker.exists()


def test_a_pickle_of_ones_own_in_a_private_folder_is_loaded(tmp_path, monkeypatch):
    """The check is not a refusal of every cache: the planted pickle, once private, does run (which is
    why the checks above matter)."""
    import os
    folder = tmp_path / "mine"
    path = _cache_path(folder, monkeypatch)
    marker = tmp_path / "ran"
    _plant(path, marker)
    os.chmod(path, 0o600)
    rules._cached_load()
    assert marker.exists()


def test_two_checkouts_of_the_same_sources_keep_caches_of_their_own(tmp_path, monkeypatch):
    """A checked library holds its files' paths (what is bundled, what is the catalogue): a clean clone with
    the same sources read another checkout's cache and took the catalogue of spec/variants/ for bundled."""
    import shutil
    from tractor_dsl import bundled, checker
    cache = tmp_path / "cache"
    monkeypatch.setenv("TRACTOR_CACHE_DIR", str(cache))
    rules._cached_load()
    copy = tmp_path / "clone" / "spec"
    shutil.copytree(checker.default_spec_dir(), copy)
    monkeypatch.setattr(checker, "default_spec_dir", lambda: copy)     # where the checker reads the files
    monkeypatch.setattr(bundled, "default_spec_dir", lambda: copy)     # where the cache key is made
    lib = rules._cached_load()
    assert len(list(cache.glob("library-*.pickle"))) == 2
    assert all(str(rs.file).startswith(str(copy)) for rs in lib.rulesets.values())


# issue 30, item 7: a cache file that unpickles to something else made every later command exit 70 until deleted
@pytest.mark.parametrize("held", [5, None, {"rulesets": {}}, [], "library"], ids=repr)
def test_a_cache_that_holds_something_else_is_ignored_and_rebuilt(tmp_path, monkeypatch, held):
    import os
    import pickle
    path = _cache_path(tmp_path / "mine", monkeypatch)
    path.write_bytes(pickle.dumps(held))
    os.chmod(path, 0o600)
    lib = rules._cached_load()
    assert "r001" in lib.rulesets and lib.errors == []
    assert rules._is_library(pickle.loads(path.read_bytes()))   # rebuilt: the next command reads a library


def test_a_library_whose_parts_have_the_wrong_types_is_rebuilt(tmp_path, monkeypatch):
    import os
    import pickle
    path = _cache_path(tmp_path / "mine", monkeypatch)
    lib = pickle.loads(path.read_bytes())
    lib.rulesets = {name: 5 for name in lib.rulesets}    # a Library, but not one this version could use
    path.write_bytes(pickle.dumps(lib))
    os.chmod(path, 0o600)
    again = rules._cached_load()
    assert all(type(r).__name__ == "CheckedRuleset" for r in again.rulesets.values())


def test_a_command_runs_with_a_cache_that_holds_a_number(tmp_path):
    """The whole command, as a user meets it: exit 0, not 70, with ``pickle.dumps(5)`` in the cache."""
    import os
    import pickle
    import subprocess
    import sys
    env = {**os.environ, "TRACTOR_CACHE_DIR": str(tmp_path / "c")}
    cmd = [sys.executable, "-m", "tractor_cli.main", "explain", "r003", "classify", "5H 5H", "--level", "6",
           "--trump", "S"]
    assert subprocess.run(cmd, env=env, capture_output=True).returncode == 0
    for p in (tmp_path / "c").glob("library-*.pickle"):
        p.write_bytes(pickle.dumps(5))
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
