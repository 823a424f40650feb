"""The documentation site, built once per test session (warnings are errors), and its HTML parsed."""
from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict
    parent: "Element | None" = None
    children: list = field(default_factory=list)   # Element or str

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    @property
    def id(self) -> str | None:
        return self.attrs.get("id")

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def iter(self):
        yield self
        for c in self.children:
            if isinstance(c, Element):
                yield from c.iter()

    def find_all(self, cls: str | None = None, tag: str | None = None) -> list["Element"]:
        return [e for e in self.iter() if (cls is None or cls in e.classes) and (tag is None or e.tag == tag)]

    def by_id(self, ident: str) -> "Element | None":
        return next((e for e in self.iter() if e.id == ident), None)

    def ancestors(self):
        e = self.parent
        while e is not None:
            yield e
            e = e.parent


class _TreeBuilder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("#root", {})
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        e = Element(tag, dict(attrs), self.cur)
        self.cur.children.append(e)
        if tag not in VOID:
            self.cur = e

    def handle_endtag(self, tag):
        e = self.cur
        while e is not self.root and e.tag != tag:
            e = e.parent
        if e is not self.root:
            self.cur = e.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse_html(path: Path) -> Element:
    b = _TreeBuilder()
    b.feed(path.read_text(encoding="utf-8"))
    return b.root


@dataclass
class Site:
    out: Path
    log: str

    def page(self, docname: str) -> Element:
        return parse_html(self.out / f"{docname}.html")

    def records(self) -> list[dict]:
        return json.loads((self.out / "examples.json").read_text(encoding="utf-8"))["examples"]

    def pages(self) -> list[Path]:
        return sorted(p for p in self.out.rglob("*.html") if "_static" not in p.parts and "_sources" not in p.parts)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Site:
    """Build the site exactly as the documented command does, into a temporary folder."""
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-b", "html", "-q", "-d", str(out / ".doctrees"),
                           str(DOCS), str(out / "html")], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, f"the docs build failed:\n{proc.stdout}\n{proc.stderr}"
    return Site(out / "html", proc.stdout + proc.stderr)
