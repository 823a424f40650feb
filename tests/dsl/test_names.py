"""Every identifier a reader of the Chinese site meets has a Chinese name (issue 33 item 2):
spec/names_zh.tsv names every clause id, setting, value, record field and reading, and a new one
without a name is reported here."""
from __future__ import annotations

import re

from tractor_dsl import names, schema
from tractor_dsl.checker import load
from tractor_dsl.types import EnumType
from conformance.generation.features import features

HAN = re.compile(r"[\u4e00-\u9fff]")


def test_every_clause_setting_value_and_reading_has_a_chinese_name():
    missing = names.unnamed()
    assert not missing, ("give these a Chinese name in spec/names_zh.tsv (kind, id, name; a reading is "
                         f"CLAUSE#READING): {missing}")


def test_a_new_setting_or_value_without_a_name_is_reported(monkeypatch):
    new = schema.Param("kitty.shown_to", EnumType("nobody", "everyone"), "Who sees the kitty.")
    monkeypatch.setattr(schema, "PARAMS", schema.PARAMS + (new,))
    missing = names.unnamed()
    assert missing["setting"] == ["kitty.shown_to"]
    assert missing["value"] == ["everyone", "nobody"]


def test_the_table_names_only_what_exists():
    known = names.identifiers()
    stale = sorted(f"{kind} {ident}" for kind, ident in names.table() if kind != "word" and ident not in known[kind])
    assert not stale, f"spec/names_zh.tsv names identifiers nothing uses: {stale}"


def test_every_feature_of_every_ruleset_reads_in_chinese():
    """The comparison's rows and values: no identifier left in English (numbers, ranks and a formula's
    operators stay as they are)."""
    lib = load()
    left = {}
    for name, rs in lib.rulesets.items():
        for key, f in features(rs).items():
            title = names.feature_zh(key)
            text = names.value_text_zh(key, f.text)
            assert title and HAN.search(title), key
            words = names.english_words(title + " " + text)
            if words:
                left[f"{name} {key}"] = words
    assert not left, left


def test_the_chinese_texts_say_what_the_values_say():
    r003 = features(load().rulesets["r003"])
    # 003:10.3 (three decks): 120 points to take the stage, every 30 points one level
    bands = names.value_text_zh("score.bands", r003["score.bands"].text)
    assert "120–145分：非庄家方不升级" in bands and "90–115分：庄家方升1级" in bands
    assert names.value_text_zh("follow tractor(pair, 2)", "tractor(pair, 2) / 2 pair / pair + 2 single") \
        == "2连对 / 2个对子 / 对子 + 2张单牌"
    assert names.feature_zh("follow tractor(triple, 2)") == "跟2连三条的顺序"
    assert names.value_text_zh("trump.order", "[big_joker, small_joker, trump_level]") == "[大王, 小王, 主花色级牌]"
    assert names.value_text_zh("penalty.revoke", "{points_per_card: 10, ends_hand: false}") == "{每张罚分: 10, 结束该盘: 否}"
    assert names.reading_zh("tractor.bridge", "no_bridge") == "不能隔拖"   # 001's own words
