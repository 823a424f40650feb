"""Each source document's own words for the concepts the generated Chinese prose names (``spec/glossary.tsv``).

A rulebook of document 003 says 非庄家方 where one of 001 says 攻庄方, 抠底 where 000 says 扣底: the
questions and answers of its examples, and the consequences of its penalties, take the document's words
(:func:`words`). A cell ``甩牌[被拦阻]`` of the table is the prose 甩牌被拦阻 around the document's own word
被拦阻 (:attr:`Term.source_word`), which occurs in the clause the table names beside it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .bundled import table_rows

GLOSSARY = "glossary.tsv"
DOCUMENTS = ("000", "001", "003")
COLUMNS = 4 + 2 * len(DOCUMENTS)


@dataclass(frozen=True)
class Term:
    """One document's word for a concept: the ``prose`` the generated text uses and the clause ``at``
    where the document uses the word it is built around."""

    prose: str
    source_word: str | None   # None: the document has no such thing (000 has no triples), the prose is the default's
    at: str | None


@dataclass(frozen=True)
class Concept:
    name: str
    english: str
    default: str
    terms: dict[str, Term]   # document -> its term
    choices: str             # where a document has no word of its own: which nearest word, and why


NONE = "—"   # a cell for a concept the document never meets: the default's words serve


def _term(cell: str, at: str, concept: str, default: str) -> Term:
    if cell == NONE:
        return Term(default, None, None)
    m = re.fullmatch(r"([^\[\]]*)\[([^\[\]]+)\]([^\[\]]*)", cell)
    if m:
        return Term(m.group(1) + m.group(2) + m.group(3), m.group(2), at)
    if not cell or "[" in cell or "]" in cell:
        raise ValueError(f"{GLOSSARY}: {concept}: {cell!r} is neither a word nor prose around one [word]")
    return Term(cell, cell, at)


@lru_cache(maxsize=1)
def concepts() -> dict[str, Concept]:
    """The glossary, concept by concept, in the table's order. A ValueError names a malformed row."""
    out: dict[str, Concept] = {}
    for row in table_rows(GLOSSARY, COLUMNS):
        name, english, default, *cells, choices = row
        terms = {}
        for i, document in enumerate(DOCUMENTS):
            cell, at = cells[2 * i], cells[2 * i + 1]
            if cell != NONE and not at.startswith(f"{document}:"):
                raise ValueError(f"{GLOSSARY}: {name}: the word of {document} is placed at {at!r}, "
                                 f"not a clause of document {document}")
            terms[document] = _term(cell, at, name, default)
        if name in out:
            raise ValueError(f"{GLOSSARY}: concept {name!r} is listed twice")
        out[name] = Concept(name, english, default, terms, choices)
    return out


@lru_cache(maxsize=None)
def words(document: str | None) -> dict[str, str]:
    """concept -> the Chinese prose for it in a rulebook of ``document`` (``"003"``); the table's default
    where no one document applies (``None``, or a document the table has no column for)."""
    return {c.name: c.terms[document].prose if document in c.terms else c.default for c in concepts().values()}


def foreign_words(document: str, source_text: str) -> set[str]:
    """The words other documents use for the glossary's concepts that ``document``'s own text
    (``source_text``) never uses: none of them may appear in the prose generated for its rulebook."""
    flat = re.sub(r"\s+", "", source_text)
    return {t.source_word for c in concepts().values() for d, t in c.terms.items()
            if d != document and t.source_word is not None and t.source_word not in flat}


def in_words(text: str, document: str | None) -> str:
    """``text`` written with the table's default words (a name of spec/names_zh.tsv, shared by every
    document), in ``document``'s words: each default word whose document says otherwise is replaced, the
    longest first (首盘 before 盘, 亮主 before 亮). ``None``: ``text`` as it is."""
    if document is None:
        return text
    swaps = sorted(((c.default, c.terms[document].prose) for c in concepts().values()
                    if document in c.terms and c.terms[document].prose not in ("—", c.default)),
                   key=lambda pair: -len(pair[0]))
    out, i = [], 0
    while i < len(text):   # one pass, so that a word put in is never replaced again
        for old, new in swaps:
            if text.startswith(old, i):
                out.append(new)
                i += len(old)
                break
        else:
            out.append(text[i])
            i += 1
    return "".join(out)

