"""Naming the house-rule readings of VARIANTS.md a ruleset states (issue 19): 'variants V14' on the ruleset,
in a clause or in a reading, formatted back as written and collected from what the ruleset chooses."""
from tractor_dsl import variants
from tractor_dsl.formatter import format_text
from tractor_dsl.parser import parse

from .dsl_support import check, minimal, problems

READINGS = '''  clause c {
    cites 003:2
    variants V20
    status interpreted
    says "S."
    zh "中。"
    reason "R." "理。"
    reading a "A" "甲" {
      variants V16
      set tractor.bridge_level = true
    }
    reading b "B" "乙" {
      variants V17
      set tractor.bridge_level = false
    }
    choose b
  }
'''


def _text() -> str:
    from .dsl_support import settings
    values = settings()
    values.pop("tractor.bridge_level")
    return minimal(READINGS, values=values, head='title "Minimal" "最小"\n  document "003"\n  variants V03')


def test_the_catalogue_holds_every_id_of_variants_md_with_both_languages():
    ids = [v.id for v in variants.variants()]
    assert ids == [f"V{i:02d}" for i in range(1, 87)]     # VARIANTS.md: V01 to V86
    assert variants.by_id()["V62"].text.startswith("must-play 2 (逢2必打)")
    assert all(v.zh and any("\u4e00" <= ch <= "\u9fff" for ch in v.zh) for v in variants.variants())


def test_ids_are_parsed_where_they_are_written():
    rs = parse(_text())
    assert rs.variants == ("V03",)
    (c,) = [c for c in rs.clauses if c.id == "c"]
    assert c.variants == ("V20",)
    assert [r.variants for r in c.readings] == [("V16",), ("V17",)]


def test_the_checked_ruleset_states_the_ids_of_its_chosen_readings_only():
    lib = check(_text())
    assert not [d for d in problems(lib) if d.is_error]
    assert lib.get("rmin").variants == ("V03", "V20", "V17")   # reading b is chosen, not a (V16)


def test_formatting_keeps_the_ids():
    text = _text()
    out = format_text(text)
    assert parse(out) == parse(text)
    assert "  variants V03\n" in out and "    variants V20\n" in out and "      variants V17\n" in out


def test_every_reading_of_variants_md_is_stated_by_a_ruleset_that_checks():
    """Issue 19: each id V01 to V86 is stated (its reading chosen) by a bundled rulebook, a derived ruleset or a
    file of the catalogue, and the library they are in checks without an error (V66 last, by the level NT)."""
    from reference_impl.rules import catalogue_names, rules_for, ruleset_names
    stated = {vid for name in (*ruleset_names(), *catalogue_names()) for vid in rules_for(name).checked.variants}
    assert sorted({v.id for v in variants.catalogue()} - stated) == []


def test_the_house_rules_beyond_variants_md_have_ids_of_their_own_both_languages_and_a_source():
    """Issue 32: the readings beyond V01-V86 have ids H01 on, each once and in order, each with Chinese text
    and where players use it."""
    import re
    rules = variants.house_rules()
    ids = [v.id for v in rules]
    assert all(re.fullmatch(r"H\d{2}", i) for i in ids) and ids == sorted(set(ids))
    assert all(v.source and any("\u4e00" <= ch <= "\u9fff" for ch in v.zh + v.point_zh) for v in rules)


def test_every_house_rule_names_its_sources_or_says_what_was_searched():
    """Issue 32: each house rule beyond VARIANTS.md cites where players use it - an address (a page, an issue, or a
    file of a public repository at a commit) with what it says - or says plainly that no source was found and what was
    searched; no row does both or neither."""
    import re
    for v in variants.house_rules():
        found = v.sources()
        if v.source.startswith("no source found"):
            assert not found and "searched" in v.source, v.id
            continue
        assert found, v.id
        for address, _ in found:
            assert re.fullmatch(r"https?://\S+", address), (v.id, address)
            if "github.com" in address and "/blob/" in address:   # a file: at the commit the index gave
                assert re.search(r"/blob/[0-9a-f]{40}/", address), (v.id, address)


def test_sources_are_split_into_addresses_and_what_they_say():
    v = variants.Variant("H99", "p", "点", "t", "读", "https://a.example/x (says x) ; http://b.example/y")
    assert v.sources() == (("https://a.example/x", "says x"), ("http://b.example/y", ""))
    assert variants.Variant("H98", "p", "点", "t", "读", "no source found: searched x").sources() == ()
