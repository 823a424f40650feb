"""The Chinese rulebook pages: what the build generates (the examples' questions, answers and readings, the
derived ladders) takes the words of the ruleset's own source document (spec/glossary.tsv; issue 33 item 4)."""
from __future__ import annotations

import pytest

from reference_impl.rules import rules_for, ruleset_names
from tractor_dsl.glossary import foreign_words, words
from tractor_dsl.sources import document_text

GENERATED = ("tr-example", "tr-derived")   # the parts of a rulebook page the build writes, not the spec


@pytest.mark.parametrize("name", ruleset_names())
def test_generated_chinese_uses_only_the_documents_words(site, name):
    document = rules_for(name).checked.document
    page = site.page(f"zh/rulebooks/{name}")
    bad = foreign_words(document, document_text(document)) | {"保庄"}
    parts = [e for cls in GENERATED for e in page.find_all(cls)]
    assert parts, f"{name}: no generated part found on its Chinese page"
    text = "\n".join(e.text() for e in parts)
    found = {w: text.count(w) for w in bad if w in text}
    assert not found, f"zh/rulebooks/{name} ({document}): words its source never uses: {found}"
    # and the document's own words are there: the examples name the sides as the source does
    w = words(document)
    assert w["attackers"] in text or w["banker_side"] in text, name
