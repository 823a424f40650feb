"""Sphinx configuration of the Tractor rulebook site: the English tree.

The site is two builds, the English tree (this file) and the Chinese tree
(``zh/conf.py``, built into ``html/zh/``). From the repository root, with
warnings as errors:

    .venv/bin/sphinx-build -W -b html docs docs/_build/html
    .venv/bin/sphinx-build -W -b html docs/zh docs/_build/html/zh
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))       # the packages, also when not installed
sys.path.insert(0, str(HERE / "_ext"))     # the tractor_docs extension

project = "Tractor rulebook"
author = "the Tractor rulebook maintainers"
copyright = "the Tractor rulebook maintainers"
release = version = "0.1.0"
language = "en"
smartquotes = False  # show the spec's text exactly as written

extensions = ["sphinx.ext.autodoc", "myst_parser", "tractor_docs", "tractor_impact"]

root_doc = "index"
exclude_patterns = ["_build", "zh", "Thumbs.db", ".DS_Store", "**/.gitignore"]  # zh/: its own build
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
myst_heading_anchors = 4          # protocol.md links to its own headings
templates_path = ["_templates"]

html_theme = "alabaster"
html_static_path = ["_static"]
html_title = "Tractor rulebook · 拖拉机规则"
html_theme_options = {
    "description": "The formal, executable rulebook of Tractor (拖拉机 / 升级)",
    "fixed_sidebar": True,
    "page_width": "1180px",
    "sidebar_width": "240px",
}
html_sidebars = {"**": ["tr-nav-anchor.html", "about.html", "tr-navigation.html", "searchbox.html"]}
html_show_sourcelink = False

# the language switch: each page's twin in the Chinese tree (see _ext/tractor_site.py)
tractor_twin_srcdir = "zh"
tractor_twin_prefix = "zh/"

autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
add_module_names = False
