"""Sphinx configuration of the Tractor rulebook site: the Chinese tree.

Built on its own, with Sphinx's own Chinese (``zh_CN``) so the theme's words —
navigation, search — are Chinese too, into ``html/zh/`` beside the English tree:

    .venv/bin/sphinx-build -W -b html docs/zh docs/_build/html/zh

Everything not set here is the English tree's configuration (``../conf.py``).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from conf import *  # noqa: E402,F401,F403  (the shared configuration)

project = "拖拉机规则书"
copyright = author = "拖拉机规则书维护者"
html_show_sphinx = False     # the theme writes "Powered by Sphinx" in English
language = "zh_CN"
exclude_patterns = ["Thumbs.db", ".DS_Store", "**/.gitignore"]
templates_path = ["../_templates"]
html_static_path = ["../_static"]
html_title = "拖拉机（升级）规则书"
html_short_title = "拖拉机规则书"
html_theme_options = {
    **html_theme_options,
    "description": "拖拉机（升级）正式、可执行的规则",
    # the references for engine authors and contributors exist in English only
    "extra_nav_links": {"引擎作者指南（英文）": "../guide.html", "引擎协议（英文）": "../protocol.html",
                        "规则语言（英文）": "../language.html", "命令行（英文）": "../cli.html"},
}
html_search_language = "zh"   # Sphinx splits Chinese words with jieba (the docs extra installs it)


def _chinese_search_with_a_stemmer_that_exists() -> None:
    """Work around sphinx-doc/sphinx#14229 (Sphinx 9.0): Chinese search ships the English stemmer's
    JavaScript (english-stemmer.js, which defines ``EnglishStemmer``) but language_data.js then says
    ``window.Stemmer = ChineseStemmer``, which does not exist, so every search stays at "正在搜索中..".
    A subclass that names the stemmer it ships; where Sphinx has fixed it, nothing is changed."""
    import sphinx.search
    from sphinx.search.zh import SearchChinese
    if SearchChinese.js_stemmer_rawcode != "english-stemmer.js" or SearchChinese.language_name == "English":
        return

    class SearchChineseEnglishStemmer(SearchChinese):
        language_name = "English"   # only names the JavaScript stemmer class: the index is still Chinese's

    sphinx.search.languages["zh"] = SearchChineseEnglishStemmer


_chinese_search_with_a_stemmer_that_exists()


# Words of the game jieba's general dictionary does not know: the terms the spec's clauses define
# (甩牌, 抠底, 拖拉机 ...) and a few more, so that searching for them finds the clauses that use them.
GAME_WORDS = ("拖拉机", "甩牌", "底牌", "跟牌", "扣底", "抠底", "级牌", "主牌", "副牌", "庄家", "攻庄方", "守庄方",
              "亮主", "反主", "叫主", "枪毙", "推土机", "散牌", "对子", "三条", "大王", "小王", "上台", "下台")


def _jieba_words() -> None:
    import logging
    try:
        import jieba
    except ImportError:
        return
    jieba.setLogLevel(logging.WARNING)
    from tractor_dsl.checker import load
    terms = {c.term for rs in load().parsed.values() for c in rs.clauses if c.term}
    for word in sorted(set(GAME_WORDS) | {t for t in terms if t.isalpha() and len(t) <= 6}):
        jieba.add_word(word, freq=20000)


_jieba_words()

# the language switch: each page's twin in the English tree
tractor_twin_srcdir = ".."
tractor_twin_prefix = "../"
