"""The house-rule readings of the catalogue of variation points (VARIANTS.md): stable ids ``V01`` to ``V86``.

A ruleset names the readings it states with ``variants V14`` (for the whole
ruleset, as the files of ``spec/variants/`` do) or inside the clause that
states it (as the bundled rulebooks do); the checker refuses an id the
catalogue does not hold (E120). The list is ``spec/variants.tsv``: id, the
point of variation in English and in Chinese, the reading in English and in Chinese.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .bundled import default_spec_dir


@dataclass(frozen=True)
class Variant:
    id: str
    point: str      # the point of variation, in English
    point_zh: str   # ... and in Chinese
    text: str       # the reading, in English
    zh: str         # ... and in Chinese


@lru_cache(maxsize=1)
def variants() -> tuple[Variant, ...]:
    text = (default_spec_dir() / "variants.tsv").read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        if line and not line.startswith("#"):
            vid, point, point_zh, en, zh = line.split("\t", 4)
            out.append(Variant(vid, point, point_zh, en, zh))
    return tuple(out)


@lru_cache(maxsize=1)
def by_id() -> dict[str, Variant]:
    return {v.id: v for v in variants()}
