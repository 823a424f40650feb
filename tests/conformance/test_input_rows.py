"""A case's input as rows for people (conformance.protocol.inputs.input_rows): one walk over the input, the
words from one table a language (English in the module, the others in conformance.reporting.labels)."""
from __future__ import annotations

from conformance.protocol.inputs import WORDS_EN, draw_input, input_rows
from conformance.reporting.labels import INPUT_WORDS

# every key the walk reads, once
EVERY_KEY = {
    "level": "Q", "trump": None, "attackers_points": 85, "first_hand": True, "banker": None, "leader": 2,
    "kitty_taken": False, "hand": ["8H", "9H"], "kitty": ["3C"], "others": [["5D"], ["6D"]],
    "last_trick": {"leader": 1, "plays": [["2S"], ["AS"]]},
    "declarations": [{"seat": 3, "cards": ["QS"]}],
    "transcript": {"level": "4", "trump": "H", "banker": 0, "tricks": [{}, {}]},
}


def _labels(rows):
    return [(label, [v for kind, v in parts if kind == "text"]) for label, parts in rows]


def test_english_rows_of_every_key():
    assert _labels(input_rows(EVERY_KEY)) == [
        ("", ["level Q, trump none, attackers points 85, first hand True, leader 2, kitty taken False"]),
        ("hand", []), ("kitty", []), ("other 1", []), ("other 2", []),
        ("seat 0", []), ("seat 1", ["(leads)"]), ("seat 3 declares", []),
        ("", ["level 4, trump ♥, banker seat 0, 2 tricks"]),
    ]
    assert input_rows(EVERY_KEY) == input_rows(EVERY_KEY, {}) == input_rows(EVERY_KEY, INPUT_WORDS["en"])


def test_chinese_rows_of_every_key_are_the_same_rows_in_chinese():
    zh = input_rows(EVERY_KEY, INPUT_WORDS["zh"])
    assert _labels(zh) == [
        ("", ["级 Q，主 无主，闲家得分 85，首盘 是，首家 2，底牌已拿起 否"]),
        ("手牌", []), ("底牌", []), ("其他手牌 1", []), ("其他手牌 2", []),
        ("座位 0", []), ("座位 1", ["（首出）"]), ("座位 3 亮主", []),
        ("", ["4 级，主 ♥，庄家座位 0，2 墩"]),
    ]
    # the same cards in the same places as the English rows
    en = input_rows(EVERY_KEY)
    assert [[p for p in parts if p[0] == "cards"] for _, parts in zh] == \
           [[p for p in parts if p[0] == "cards"] for _, parts in en]


def test_every_language_names_every_english_label():
    for lang, table in INPUT_WORDS.items():
        if table:
            assert set(WORDS_EN) - set(table) == set(), lang


def test_a_table_missing_a_word_falls_back_to_english_for_that_word_only():
    rows = input_rows({"level": "2", "trump": "S", "hand": ["3S"]}, {"level": "级"})
    assert _labels(rows) == [("", ["级 2, trump ♠"]), ("hand", [])]


def test_the_drawn_lines_are_the_english_rows_with_glyphs():
    assert draw_input("follow", {"level": "2", "trump": "S", "lead": ["3S"], "plays": [["4S"], ["5S"]], "leader": 1}) == [
        "level 2, trump ♠, leader 1", "lead   3♠", "seat 0 4♠", "seat 1 5♠ (leads)"]
