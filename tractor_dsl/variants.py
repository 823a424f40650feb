"""The house-rule readings a ruleset can name: the catalogue of variation points (VARIANTS.md), stable ids
``V01`` to ``V86``, and the house rules players use beyond it (issue 32), ids ``H01`` on.

A ruleset names the readings it states with ``variants V14`` (for the whole
ruleset, as the files of ``spec/variants/`` do) or inside the clause that
states it (as the bundled rulebooks do); the checker refuses an id neither
catalogue holds (E120). The lists are ``spec/variants.tsv`` (id, the point of
variation in English and in Chinese, the reading in English and in Chinese)
and ``spec/house_rules.tsv`` (the same columns, then where players use the
reading: an engine's setting, an issue thread, a rule page).
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
    source: str = ""  # where players use it (a house rule beyond VARIANTS.md: an engine, a thread, a page)

    def sources(self) -> tuple[tuple[str, str], ...]:
        """The addresses of ``source`` (entries separated by ' ; '), each with what it says (the bracketed note
        after it, '' without one); none where no source was found ('no source found: ...')."""
        out = []
        for entry in self.source.split(" ; "):
            entry = entry.strip()
            if "://" not in entry.split(" ")[0]:
                continue
            address, _, note = entry.partition(" ")
            out.append((address, note.strip().removeprefix("(").removesuffix(")")))
        return tuple(out)


@lru_cache(maxsize=1)
def variants() -> tuple[Variant, ...]:
    return tuple(Variant(*row) for row in table_rows("variants.tsv", 5))


@lru_cache(maxsize=1)
def house_rules() -> tuple[Variant, ...]:
    """The house rules beyond VARIANTS.md (``H01`` on), each with where players use it."""
    return tuple(Variant(*row) for row in table_rows("house_rules.tsv", 6))


def catalogue() -> tuple[Variant, ...]:
    """Every reading a ruleset may name: VARIANTS.md's, then the house rules beyond it."""
    return variants() + house_rules()


@lru_cache(maxsize=1)
def by_id() -> dict[str, Variant]:
    return {v.id: v for v in catalogue()}


def described_ids() -> str:
    """The ids the catalogues hold, for an error message: 'V01 to V86 (VARIANTS.md), H01 to H12 (...)'."""
    parts = []
    for group, where in ((variants(), "VARIANTS.md"), (house_rules(), "spec/house_rules.tsv")):
        ids = sorted(v.id for v in group)
        if ids:
            parts.append(f"{ids[0]} to {ids[-1]} ({where})")
    return ", ".join(parts)
