"""The documentation site, built once per test session (warnings are errors), and its HTML parsed."""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from tests import processes

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
    out: Path          # the English tree; the Chinese tree is in out/zh
    log: str

    def page(self, docname: str) -> Element:
        return parse_html(self.out / f"{docname}.html")

    def records(self) -> list[dict]:
        """The examples each tree recorded; a Chinese page's docname is given from the site's root (zh/...)."""
        out = []
        for prefix in ("", "zh/"):
            data = json.loads((self.out / prefix / "examples.json").read_text(encoding="utf-8"))["examples"]
            out += [{**r, "docname": prefix + r["docname"]} for r in data]
        return out

    def pages(self) -> list[Path]:
        return sorted(p for p in self.out.rglob("*.html") if "_static" not in p.parts and "_sources" not in p.parts)


BUILDS = (("en", DOCS, ""), ("zh", DOCS / "zh", "zh"))   # as .ci/run and docs/contributing.rst build them


def _build(out: Path) -> str:
    """Both trees into ``out/html`` (warnings are errors); the builds' output."""
    log = ""
    for lang, src, sub in BUILDS:
        proc = processes.run([sys.executable, "-m", "sphinx", "-W", "-b", "html", "-q",
                               "-d", str(out / f".doctrees-{lang}"), str(src), str(out / "html" / sub)],
                              cwd=REPO, capture_output=True, text=True)
        assert proc.returncode == 0, f"the {lang} docs build failed:\n{proc.stdout}\n{proc.stderr}"
        log += proc.stdout + proc.stderr
    return log


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Site:
    """Build the site exactly as the documented commands do (both trees), into a temporary folder.

    Under pytest-xdist the workers share one build: the first to need it builds it while the others
    wait on a lock, then all read it (the site tests only read it). Where ``fcntl`` is missing each
    worker builds its own. ``TRACTOR_BUILT_SITE=docs/_build/html`` tests a site already built there
    instead (while working on it)."""
    built = os.environ.get("TRACTOR_BUILT_SITE")
    if built:
        return Site(Path(built).resolve(), "")
    try:
        import fcntl
    except ImportError:
        fcntl = None
    if os.environ.get("PYTEST_XDIST_WORKER") is None or fcntl is None:
        out = tmp_path_factory.mktemp("site")
        return Site(out / "html", _build(out))
    shared = tmp_path_factory.getbasetemp().parent / "site"       # the run's root, common to its workers
    with open(shared.parent / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = shared / "built.json"
        if done.exists():
            log = json.loads(done.read_text(encoding="utf-8"))["log"]
        else:
            shared.mkdir(exist_ok=True)
            log = _build(shared)            # a failed build writes no mark: the next worker reports it too
            done.write_text(json.dumps({"log": log}), encoding="utf-8")
    return Site(shared / "html", log)
