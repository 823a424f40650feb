"""The source documents' own words: each clause id of the inventory (``003:10.3``) mapped to its span of
its source document (``spec/sources/003_*.txt``), as the source has it (Chinese).

Where each clause begins is the table ``spec/source_anchors.tsv`` (a substring where the clause starts,
at its first occurrence); a clause runs to the next anchor of its document. Gaps (``003:g1``) are the
project's, not the source's: they have no source text.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .bundled import default_spec_dir, table_rows

ANCHORS = "source_anchors.tsv"
BREAK = "-"


@dataclass(frozen=True)
class Passage:
    """A clause's span of its source document: ``text`` exactly as the file has it (line breaks kept)."""

    id: str
    text: str

    @property
    def lines(self) -> list[str]:
        """The passage's non-blank lines, indentation trimmed (how the site shows it)."""
        return [line.strip() for line in self.text.splitlines() if line.strip()]


@lru_cache(maxsize=None)
def document_text(document: str) -> str:
    """The text of source document ``document`` (``"003"``), from the bundled ``spec/sources/``."""
    found = sorted((default_spec_dir() / "sources").glob(f"{document}_*.txt"))
    if not found:
        raise ValueError(f"no source file for document {document!r} in spec/sources/")
    return found[0].read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def passages() -> dict[str, Passage]:
    """Every clause of the anchor table and its passage. A ValueError names an anchor not found in its
    document, found before the row above it (the table follows each document's order), a break before any
    clause, or an id given twice."""
    starts: dict[str, list[tuple[int, str]]] = {}
    document = None
    for ident, anchor in table_rows(ANCHORS, 2):
        if ident != BREAK:
            document = ident.split(":", 1)[0]
        if document is None:
            raise ValueError(f"{ANCHORS}: a break before any clause: {anchor!r}")
        at = document_text(document).find(anchor.replace("\\n", "\n"))
        if at < 0:
            raise ValueError(f"{ANCHORS}: {ident}: anchor {anchor!r} not found in source document {document}")
        if ident != BREAK and any(ident == i for _, i in starts.get(document, [])):
            raise ValueError(f"{ANCHORS}: {ident} given twice")
        if starts.get(document) and at <= starts[document][-1][0]:
            raise ValueError(f"{ANCHORS}: {ident}: anchor {anchor!r} found before the row above it")
        starts.setdefault(document, []).append((at, ident))
    out: dict[str, Passage] = {}
    for document, marks in starts.items():
        text = document_text(document)
        for (at, ident), (end, _) in zip(marks, marks[1:] + [(len(text), BREAK)]):
            if ident != BREAK:
                out[ident] = Passage(ident, text[at:end].strip())
    return out


def passage(clause_id: str) -> Passage | None:
    """The source's own words for ``clause_id``, or None (a gap, or an id the table does not place)."""
    return passages().get(clause_id)
