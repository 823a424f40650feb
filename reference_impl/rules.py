"""A checked ruleset as the interpreter reads it, and the judgment it returns.

``Rules`` answers two questions for every setting: its value, and the clause
that decided it. Every judgment collects the clause ids it consulted, so the
answer can always show which rules decided it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from tractor_dsl.checked import CheckedRuleset
from tractor_dsl.diagnostics import SpecError
from tractor_dsl.patterns import pattern_units, shape_unit
from tractor_dsl.vocabulary import PLAY_REASONS, english


class Rules:
    def __init__(self, checked: CheckedRuleset):
        self.checked = checked
        self.name = checked.name
        v = checked.values
        self.values = v
        self.memo: dict = {}  # what the interpreter works out once per ruleset (follow ladders, ...)
        self._clause_ids: dict[str, str] = {}  # setting -> the id of the clause that sets it, as asked
        self.decks: int = v["equipment.decks"]
        self.hand_size: int = v["equipment.hand_size"]
        self.kitty_size: int = v["equipment.kitty_size"]
        self.points: dict[str, int] = v["equipment.points"]
        # follow ladders: lead unit -> list of entries (each a list of units)
        self.ladders: dict[tuple[int, int], list[list[tuple[int, int]]]] = {}
        self.ladder_clause: dict[tuple[int, int], str] = {}
        for key, (shape, ladder, origin) in checked.ladders.items():
            unit = shape_unit(shape)
            self.ladders[unit] = [pattern_units(p) for p in ladder]
            self.ladder_clause[unit] = origin.clause.id

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def get(self, name: str, default: Any = None) -> Any:
        """A setting that may be unset (most house-rule settings are), else ``default``."""
        return self.values.get(name, default)

    @cached_property
    def card_points(self) -> tuple[int, ...]:
        """The points of each card 0–53 (``equipment.points``)."""
        from .cards import rank_of
        return tuple(self.points.get(rank_of(c), 0) if c < 52 else 0 for c in range(54))

    @cached_property
    def unit_sizes(self) -> tuple[int, ...]:
        """Which repeated units exist: pairs always (2+ decks), triples with 3+ decks, quads (four identical
        cards) with 4 decks."""
        return tuple(s for s in (4, 3, 2) if s <= self.decks)

    @cached_property
    def tractor_sizes(self) -> tuple[int, ...]:
        """The sizes of a tractor's elements (``tractor.elements``) the pack allows, largest first."""
        sizes = {"pair": 2, "triple": 3}
        return tuple(sorted((sizes[e] for e in self["tractor.elements"] if sizes[e] <= self.decks), reverse=True))

    def clause(self, name: str) -> str:
        """The id of the clause that sets ``name``."""
        try:
            return self._clause_ids[name]
        except KeyError:
            found = self._clause_ids[name] = self.checked.origins[name].clause.id
            return found

    def clauses_of(self, name: str) -> tuple[str, ...]:
        """The clause that sets an optional setting, if one does (a counterfactual ruleset of the suite may
        hold the setting with no clause stating it)."""
        origin = self.checked.origins.get(name)
        return (origin.clause.id,) if origin is not None else ()

    def cites(self, clause_id: str) -> tuple[str, ...]:
        return self.checked.clause(clause_id).cites

    @property
    def bands(self):
        return self.checked.bands

    @property
    def band_clause(self) -> str:
        return self.checked.band_origin.clause.id

    def __repr__(self) -> str:
        return f"Rules({self.name!r})"


@lru_cache(maxsize=None)
def _library():
    lib = _cached_load()
    if lib.errors:
        raise SpecError(lib.errors)
    return lib


def bundled_library():
    """The checked bundled library (spec/ and the house-rule catalogue), read once per process (and
    kept between processes, see :func:`_cached_load`): its rulesets and the text of every file."""
    return _library()


KEPT_CACHES = 8  # checked libraries kept in the cache folder, the newest first


def _cached_load():
    """The checked bundled spec, kept between processes in a cache keyed by its sources.

    Parsing and checking every rule file takes about 0.1 s, most of the
    start-up of a short-lived process such as ``tractor engine``. The cache
    key is a digest of every file under ``spec/``, the rule language's own
    sources and the Python version, so any change to either is read afresh.
    The cache lives in ``$TRACTOR_CACHE_DIR`` (default
    ``~/.cache/tractor-rulebook``); ``TRACTOR_CACHE_DIR=off`` turns it off,
    and a cache that cannot be read or written is ignored. Loading a pickle
    runs code, so the cache is read and written only in a folder this user
    owns and no one else can write, from a regular file (no link) of this
    user's that no one else can write (created 0600 in a folder made 0700);
    anything else is ignored and the library is checked afresh.
    """
    import hashlib
    import os
    import pickle
    import sys
    from pathlib import Path

    import tractor_dsl
    from tractor_dsl.bundled import default_spec_dir
    from tractor_dsl.files import write_file

    where = os.environ.get("TRACTOR_CACHE_DIR", str(Path.home() / ".cache" / "tractor-rulebook"))
    if where == "off":
        from tractor_dsl.checker import load
        return load()
    digest = hashlib.sha256(sys.version.encode())
    # the folders too: a checked library holds the paths of its files (which say what is bundled and what is
    # the catalogue), so two checkouts of the same sources must not read each other's cache
    digest.update(str(default_spec_dir()).encode() + b"\0" + str(Path(tractor_dsl.__file__).parent).encode())
    for root in (default_spec_dir(), Path(tractor_dsl.__file__).parent):
        for f in sorted(root.rglob("*")):
            if f.is_file() and f.suffix != ".pyc":
                digest.update(str(f.relative_to(root)).encode() + b"\0" + f.read_bytes())
    path = Path(where) / f"library-{digest.hexdigest()[:24]}.pickle"
    if _private_dir(path.parent):
        cached = _read_private(path)
        if cached is not None:
            return cached
    from tractor_dsl.checker import load   # only when the cache cannot serve: checking costs its imports too
    lib = load()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private_dir(path.parent):
            return lib   # a folder other users can write: never a pickle there, read or written
        write_file(path, pickle.dumps(lib, protocol=pickle.HIGHEST_PROTOCOL), private=True)
        # the newest few are kept: checkouts of other revisions sharing this home (worktrees, a baseline
        # being timed) would otherwise throw each other's cache away at every start
        others = sorted((p for p in path.parent.glob("library-*.pickle") if p != path),
                        key=lambda p: p.stat().st_mtime, reverse=True)
        for old in others[KEPT_CACHES - 1:]:
            old.unlink(missing_ok=True)
    except Exception:  # a read-only home, a full disk: run without the cache
        pass
    return lib


def _owned_and_closed(st) -> bool:
    """Owned by this user and writable by no one else (group and others have no write bit)."""
    import os
    return st.st_uid == os.getuid() and not st.st_mode & 0o022


def _private_dir(folder) -> bool:
    """Whether the cache folder is this user's own and no one else can write in it (a pickle
    runs code when loaded: one another user could have put there would run as this user)."""
    import os
    import stat
    try:
        st = os.stat(folder)
    except OSError:
        return True   # not there yet: created 0700 before anything is written
    return stat.S_ISDIR(st.st_mode) and _owned_and_closed(st)


def _read_private(path):
    """The cached library, when the cache file is a regular file (not a link) of this user's that no one
    else can write; else (or unreadable, or from another version) None."""
    import os
    import pickle
    import stat
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode) or not _owned_and_closed(st):
                return None
            lib = _load_without_collecting(pickle, fh)
    except Exception:  # no cache yet, or one from another version: load afresh
        return None
    return lib if _is_library(lib) else None   # anything else (a number, another class): checked afresh


def _is_library(lib) -> bool:
    """Whether what a cache file held has the shape of a checked library: a ``Library`` whose parts have their
    types, each ruleset a ``CheckedRuleset`` under its own name read from one of the library's files."""
    from tractor_dsl.checked import CheckedRuleset, Library
    from tractor_dsl.diagnostics import Diagnostic
    try:
        return (type(lib) is Library and type(lib.rulesets) is dict and type(lib.parsed) is dict
                and type(lib.sources) is dict and type(lib.diagnostics) is list and isinstance(lib.context, set)
                and all(type(d) is Diagnostic for d in lib.diagnostics)
                and all(type(k) is str and type(v) is str for k, v in lib.sources.items())
                and all(type(k) is str and type(r) is CheckedRuleset and r.name == k and r.file in lib.sources
                        and type(r.values) is dict and type(r.clauses) is tuple for k, r in lib.rulesets.items())
                and bool(lib.rulesets))
    except Exception:  # noqa: BLE001 — an attribute missing, a comparison that raises: not a library
        return False


def _load_without_collecting(pickle, fh):
    """``pickle.load(fh)`` with the cyclic collector paused: every object it makes lives on, and the collections
    its allocations would start (a third of the load) could free none of them."""
    import gc
    was = gc.isenabled()
    gc.disable()
    try:
        return pickle.load(fh)
    finally:
        if was:
            gc.enable()


def rules_for(name: str) -> Rules:
    """The ruleset ``name`` checked and ready to execute: a bundled one (``r001``), one read from a user's
    file in this process (by its name), or a path to a ``.tractor`` file (see :func:`resolve`)."""
    if name in _USER:
        return _USER[name]
    if is_rule_file(name):
        return load_file(name)
    return _bundled(name)


@lru_cache(maxsize=None)
def _bundled(name: str) -> Rules:
    return Rules(_library().get(name))


def ruleset_names() -> list[str]:
    """The bundled rulesets (the rulebooks and their derived rulesets, not the house-rule catalogue)."""
    return list(_names()[1])


def catalogue_names() -> list[str]:
    """The house-rule files of the catalogue (``spec/variants/``), each stating readings of VARIANTS.md."""
    return list(_names()[2])


def library_file(name: str) -> str:
    """The file of the library that defines the bundled or catalogue ruleset ``name`` (a KeyError if none)."""
    return _library().rulesets[name].file


def _library_ruleset(p) -> "Rules | None":
    """A file of the library itself given by its path (a rulebook, a derived ruleset or a house-rule file of
    the catalogue): the library's own ruleset, checked with the library, as its name gives it. Read alone,
    it would find nothing it extends."""
    import os
    from tractor_dsl.bundled import default_spec_dir
    try:
        if not p.resolve().is_relative_to(default_spec_dir()):
            return None
        return next((_bundled(n) for n, rs in _library().rulesets.items()
                     if os.path.exists(rs.file) and os.path.samefile(rs.file, p)), None)
    except (OSError, ValueError):
        return None


_NAMES: tuple = (None, (), ())   # (the library, its bundled names, its catalogue names)


def _names() -> tuple:
    """The library's rulesets told apart once (a file's place is resolved on disk for each): an engine asks at
    its handshake and again for the names it knows."""
    global _NAMES
    lib = _library()
    if _NAMES[0] is not lib:
        from tractor_dsl.bundled import is_catalogue
        inside = {n: is_catalogue(rs.file) for n, rs in lib.rulesets.items()}
        _NAMES = (lib, tuple(sorted(n for n, c in inside.items() if not c)),
                  tuple(sorted(n for n, c in inside.items() if c)))
    return _NAMES


# --------------------------------------------------------------------------- rulesets in users' files

_USER: dict[str, Rules] = {}          # rulesets read from users' files in this process, by name
_FILES: dict[tuple, Rules] = {}       # (resolved path, size, mtime) -> its ruleset


def is_rule_file(spec: str) -> bool:
    """Whether a ruleset argument names a file rather than a ruleset: it ends in ``.tractor`` or is a path."""
    import os
    return isinstance(spec, str) and (spec.endswith(".tractor") or "/" in spec or os.sep in spec)


def checked_ruleset(spec: str):
    """The checked ruleset a command argument names: a user's rule file, or a bundled name read afresh
    from the library (a :class:`SpecError` for either's problems)."""
    if is_rule_file(spec):
        return load_file(spec).checked
    from tractor_dsl.checker import load
    from tractor_dsl.diagnostics import SpecError
    lib = load()
    if lib.errors:
        raise SpecError(lib.errors)
    return lib.get(spec)


def load_file(path, alongside=()) -> Rules:
    """The ruleset defined in a user's rule file, which may extend any bundled ruleset, or a ruleset of the
    files ``alongside`` (the other files of a run: ``extends`` is followed through them).

    Its problems are raised as the bundled ones are (a :class:`SpecError`
    whose diagnostics name ``file:line:column``); missing Chinese is a warning
    (W119) outside the library. Once read, the ruleset is also known by its
    name (:func:`rules_for`) to the rest of the process, which is how a
    conformance run sends cases under that name.
    """
    import os
    from pathlib import Path
    p = Path(path)
    try:
        st = p.resolve().stat()
        key = (str(p.resolve()), st.st_size, st.st_mtime_ns)
    except OSError:
        key = None
    others = [Path(a) for a in alongside if Path(a).resolve() != p.resolve()]
    if key is not None and key in _FILES:
        rules = _FILES[key]
    elif key is not None and (mine := _library_ruleset(p)) is not None:
        rules = _FILES[key] = mine
    else:
        from tractor_dsl.checker import load
        lib = load([p, *others])
        if lib.errors:
            raise SpecError(lib.errors)
        mine = [rs for n, rs in lib.rulesets.items() if n not in lib.context and os.path.samefile(rs.file, p)] \
            if key is not None else []
        if len(mine) != 1:
            from tractor_dsl import model as m
            from tractor_dsl.diagnostics import Diagnostic
            raise SpecError([Diagnostic("E501", "no ruleset in this file", m.Span(str(p), 0, 0))])
        rules = Rules(mine[0])
        _FILES[key] = rules
        from .announce import ruleset_read
        ruleset_read(str(p), rules.name, rules.checked.lineage)
    _USER[rules.name] = rules
    return rules


def resolve(spec: str) -> Rules:
    """A ruleset argument of any command: a bundled name, a name read from a file already, or a file's path.
    An unknown name raises :class:`SpecError` (E501) listing the known ones."""
    return rules_for(spec)


def read_ruleset(name: str) -> Rules | None:
    """The ruleset ``name`` if this process has read it from a user's file (never reads a file)."""
    return _USER.get(name)


def known_names() -> list[str]:
    """Every ruleset :func:`rules_for` gives by name: the bundled ones, the catalogue's house-rule files and
    those read from users' files in this process."""
    return sorted(set(ruleset_names()) | set(catalogue_names()) | set(_USER))


@dataclass
class Judgment:
    """The answer to one question, with the clauses that decided it.

    ``reason`` is a stable code from :data:`REASONS` when the answer is a
    refusal (an illegal play), else ``"ok"``.
    """

    value: Any
    clauses: tuple[str, ...] = ()
    reason: str = "ok"
    detail: str = ""
    extra: dict = field(default_factory=dict)

    def __bool__(self) -> bool:  # a judgment of legality reads as its verdict
        return bool(self.value)


REASONS = english(PLAY_REASONS)  # code -> meaning; the Chinese in tractor_dsl.vocabulary


class Trace:
    """Collects clause ids in the order they are consulted, without repeats."""

    __slots__ = ("ids",)

    def __init__(self):
        self.ids: list[str] = []

    def add(self, *clause_ids: str) -> None:
        for c in clause_ids:
            if c not in self.ids:
                self.ids.append(c)

    def tuple(self) -> tuple[str, ...]:
        return tuple(self.ids)
