"""The source documents' own words: each clause id of the inventory (``003:10.3``) mapped to its span of
its source document (``spec/sources/003_*.txt``), as the source has it (Chinese).

A clause is found by the document's own numbering: ``003:10`` starts at the heading ``十、`` (at the start
of a line, or after a space or a full stop), ``003:10.3`` at the item ``3．`` (or ``3、``, ``3. ``) that
follows it within that section. Clauses the numbering cannot place (``001:9d``, ``000:2.16b``: paragraphs
without numbers) begin where the table ``spec/source_anchors.tsv`` says (a substring of the source, at its
first occurrence). A clause runs to the next start or section heading, or to a break of that table. Gaps
(``003:g1``) are the project's, not the source's: they have no source text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .bundled import default_spec_dir, table_rows
from . import inventory

ANCHORS = "source_anchors.tsv"
BREAK = "-"
NUMERALS = "一二三四五六七八九十"
HEADING = re.compile(rf"(?:^|(?<=[\s。]))[{NUMERALS}]+、", re.MULTILINE)


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


def chinese_number(n: int) -> str:
    """1 → 一, 10 → 十, 12 → 十二 (the sections of the sources go up to 十六)."""
    tens, units = divmod(n, 10)
    return (("" if tens == 1 else NUMERALS[tens - 1]) + "十" if tens else "") + (NUMERALS[units - 1] if units else "")


def numbered(text: str, clause: str) -> int | None:
    """Where ``clause`` (``"10"``, ``"10.3"``) begins in ``text`` by the document's numbering, or None."""
    m = re.fullmatch(r"(\d+)(?:\.(\d+))?", clause)
    if not m:
        return None
    headings = [h for h in HEADING.finditer(text)]
    section = next((h for h in headings if h.group() == chinese_number(int(m.group(1))) + "、"), None)
    if section is None or m.group(2) is None:
        return section.start() if section else None
    end = next((h.start() for h in headings if h.start() > section.start()), len(text))
    item = re.compile(rf"(?:^|(?<=[\s：。])){m.group(2)}(?:[．、]|\. )", re.MULTILINE)
    found = item.search(text, section.end(), end)
    return found.start() if found else None


@lru_cache(maxsize=1)
def passages() -> dict[str, Passage]:
    """Every clause of the inventory (gaps aside) and its passage. A ValueError names a clause neither the
    numbering nor the anchor table places, an anchor not found, a row whose id names no document, or two
    clauses found at one place."""
    starts: dict[str, dict[str, int]] = {}
    for ident, anchor in table_rows(ANCHORS, 2):
        document, _, clause = ident.partition(":")
        if not clause:
            raise ValueError(f"{ANCHORS}: {ident!r} is not DOCUMENT:CLAUSE (or DOCUMENT:{BREAK} for a break)")
        at = document_text(document).find(anchor.replace("\\n", "\n"))
        if at < 0:
            raise ValueError(f"{ANCHORS}: {ident}: anchor {anchor!r} not found in source document {document}")
        starts.setdefault(document, {})[ident if clause != BREAK else f"{BREAK}{at}"] = at
    for e in inventory.entries():
        if e.is_gap or e.id in starts.get(e.document, {}):
            continue
        at = numbered(document_text(e.document), e.id.split(":", 1)[1])
        if at is None:
            raise ValueError(f"{e.id}: neither the numbering of source document {e.document} nor {ANCHORS} "
                             "places it")
        starts.setdefault(e.document, {})[e.id] = at
    out: dict[str, Passage] = {}
    for document, found in starts.items():
        text = document_text(document)
        marks = sorted({(at, ident) for ident, at in found.items()}
                       | {(h.start(), BREAK) for h in HEADING.finditer(text) if h.start() not in found.values()})
        for (at, ident), (nxt, _) in zip(marks, marks[1:] + [(len(text), BREAK)]):
            if nxt == at and ident != BREAK:
                raise ValueError(f"{ident}: found at the same place of source document {document} as another clause")
            if not ident.startswith(BREAK):
                out[ident] = Passage(ident, text[at:nxt].strip())
    return out


def passage(clause_id: str) -> Passage | None:
    """The source's own words for ``clause_id``, or None (a gap, or an id no clause of the sources has)."""
    return passages().get(clause_id)
