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

from .bundled import table_rows


@dataclass(frozen=True)
class Variant:
    id: str
    point: str      # the point of variation, in English
    point_zh: str   # ... and in Chinese
    text: str       # the reading, in English
    zh: str         # ... and in Chinese


@lru_cache(maxsize=1)
def variants() -> tuple[Variant, ...]:
    return tuple(Variant(*row) for row in table_rows("variants.tsv", 5))


@lru_cache(maxsize=1)
def by_id() -> dict[str, Variant]:
    return {v.id: v for v in variants()}
