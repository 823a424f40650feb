"""A real headless Chromium for the site's tests: Debian's ``chromium`` driven by Playwright, and the
built site served on localhost.

No browser is downloaded: Playwright is pointed at the distribution's binary (``.ci/run`` installs
Debian's ``chromium``; ``TRACTOR_CHROMIUM`` names another). Where there is none, or Playwright is
not installed, :func:`launch` skips the test and says why.
"""
from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import sys
import threading
from pathlib import Path

import pytest

# as the project's CI brief asks: no network, no first-run, no sync, no component updates
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# A4 is 210 mm wide; tractor.css prints with 13 mm margins, which leaves 184 mm = 695 CSS px
A4_CONTENT_WIDTH = round(184 / 25.4 * 96)


def chromium_path() -> str | None:
    named = os.environ.get("TRACTOR_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def launch(playwright_cm):
    """Start Chromium headless (Playwright gives it a fresh user-data-dir), or skip with the reason."""
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium on this machine: install Debian's 'chromium' package (.ci/run does) "
                    "or set TRACTOR_CHROMIUM to run the browser tests")
    return playwright_cm.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_FLAGS)


def playwright_or_skip():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as e:  # pragma: no cover - the test extra installs it
        pytest.skip(f"Playwright is not installed ({e}): pip install -e '.[test]'")
    return sync_playwright()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        """A request the browser dropped before its answer was written (a page left, a font not wanted) is no
        error of the site: without this, socketserver prints its BrokenPipeError traceback in the test log."""
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(folder: Path):
    """The folder over HTTP on 127.0.0.1 (a free port), for as long as the block runs."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


# JavaScript run in the page -------------------------------------------------------------------

WIDTH_REPORT = """() => {
  const de = document.documentElement, vw = de.clientWidth;
  const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
                    (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
  const scrolls = e => { for (let a = e.parentElement; a; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX; if (o === 'auto' || o === 'scroll') return true; } return false; };
  const wide = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > vw + 1 && !scrolls(e) && getComputedStyle(e).display !== 'none') wide.push(name(e));
  }
  // a block of code or a table that is wider than its box must scroll inside it, not be cut off
  const cut = [];
  for (const e of document.querySelectorAll('div.body pre, div.body table')) {
    const box = e.tagName === 'PRE' ? e : e.parentElement;
    const o = getComputedStyle(box).overflowX;
    if (box.scrollWidth > box.clientWidth + 1 && o !== 'auto' && o !== 'scroll') cut.push(name(e));
  }
  return {viewport: vw, scrollWidth: de.scrollWidth, wide: wide.slice(0, 10), cut: cut.slice(0, 10)};
}"""

# the text a reader sees outside code and cards (and outside what is marked as English: the switch)
PROSE_TEXT = """() => {
  const root = document.body.cloneNode(true);
  root.querySelectorAll('code, pre, kbd, samp, script, style, noscript, .tr-cards, [lang="en"]')
      .forEach(e => e.remove());
  return document.title + '\\n' + root.textContent;
}"""

# Every element with text of its own, shown: its computed colour against the first opaque background behind
# it (white where there is none), as WCAG 2 computes contrast; those under 4.5:1 (AA for normal text)
LOW_CONTRAST = """() => {
  const parse = c => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null; const p = m[1].split(',').map(Number); return {r:p[0],g:p[1],b:p[2],a:p.length>3?p[3]:1}; };
  const lum = c => { const f = v => { v/=255; return v <= 0.03928 ? v/12.92 : Math.pow((v+0.055)/1.055, 2.4); }; return 0.2126*f(c.r)+0.7152*f(c.g)+0.0722*f(c.b); };
  const bg = e => { for (let a = e; a; a = a.parentElement) { const c = parse(getComputedStyle(a).backgroundColor); if (c && c.a > 0.5) return c; } return {r:255,g:255,b:255,a:1}; };
  const low = [];
  for (const e of document.querySelectorAll('body *')) {
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const s = getComputedStyle(e); if (s.display === 'none' || s.visibility === 'hidden') continue;
    const r = e.getBoundingClientRect(); if (!r.width) continue;
    const fg = parse(s.color), b = bg(e); const L1 = lum(fg), L2 = lum(b);
    const ratio = (Math.max(L1,L2)+0.05)/(Math.min(L1,L2)+0.05);
    if (ratio < 4.5) low.push(`${e.tagName.toLowerCase()}.${e.className} '${e.textContent.trim().slice(0,20)}' ${s.color} on ${JSON.stringify(b)} ${ratio.toFixed(2)}`);
  }
  return low;
}"""
