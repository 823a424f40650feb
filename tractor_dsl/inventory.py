"""The clause inventory of the source documents: ids, kinds and summaries in English and Chinese.

Ids such as ``001:9d`` name clauses of a source document; ids such as
``001:g3`` name the gaps and contradictions the inventory lists for it, each
of which a spec must resolve with an interpreted clause.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from .bundled import table_rows


@dataclass(frozen=True)
class Entry:
    id: str
    kind: str
    summary: str
    zh: str = ""

    @property
    def document(self) -> str:
        return self.id.split(":", 1)[0]

    @property
    def is_gap(self) -> bool:
        return self.kind == "gap"


@lru_cache(maxsize=1)
def entries() -> tuple[Entry, ...]:
    return tuple(Entry(*row) for row in table_rows("inventory.tsv", 4))


@lru_cache(maxsize=1)
def by_id() -> dict[str, Entry]:
    return {e.id: e for e in entries()}


@lru_cache(maxsize=1)
def documents() -> tuple[str, ...]:
    return tuple(sorted({e.document for e in entries()}))


@lru_cache(maxsize=None)
def ids_of(document: str, gaps: bool = False) -> tuple[str, ...]:
    return tuple(e.id for e in entries() if e.document == document and e.is_gap == gaps)
