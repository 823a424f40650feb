"""Where the bundled rulebooks are: the repository's ``spec/`` folder, installed as the package ``tractor_spec``."""
from __future__ import annotations

from functools import lru_cache
from typing import Iterator
from importlib.util import find_spec
from pathlib import Path


def default_spec_dir() -> Path:
    """The folder of the bundled rule files (``spec/`` in a checkout, ``tractor_spec`` once installed)."""
    found = find_spec("tractor_spec")
    if found is not None and found.submodule_search_locations:
        return Path(next(iter(found.submodule_search_locations))).resolve()
    return Path(__file__).resolve().parent.parent / "spec"   # a checkout used without installing it


CATALOGUE = "variants"   # spec/variants/: one small file per house-rule reading of VARIANTS.md


def is_catalogue(file: str) -> bool:
    """Whether ``file`` is a house-rule file of the catalogue (``spec/variants/``): checked with the library
    and found by name, but not one of the bundled rulebooks the suite, the vectors and the site are made for."""
    try:
        return Path(file).resolve().is_relative_to(_catalogue_dir())
    except (OSError, ValueError):
        return False


@lru_cache(maxsize=1)
def _catalogue_dir() -> Path:
    """``spec/variants/``, found once (finding the installed package costs more than the question, and every
    ruleset of the library is asked it when an engine starts)."""
    return default_spec_dir() / CATALOGUE


def table_rows(name: str, columns: int) -> Iterator[list[str]]:
    """The rows of a bundled tab-separated table (``spec/NAME``, e.g. ``inventory.tsv``): blank lines and
    ``#`` comments skipped, each row split into ``columns`` fields (the last keeps any further tab); a row
    with fewer is a ValueError."""
    text = (default_spec_dir() / name).read_text(encoding="utf-8")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            row = line.split("\t", columns - 1)
            if len(row) != columns:
                raise ValueError(f"{name}: {len(row)} field(s) where {columns} are needed: {line[:80]}")
            yield row
