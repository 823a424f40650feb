"""Progress that fits the terminal (issue 33, item 7): at 80 columns the conform bar kept one glyph and an
ellipsis; at any width every column shown now fits, the bar keeps room, and `play --games N` shows its games."""
from __future__ import annotations

import io
import re

import pytest
from rich.cells import cell_len
from rich.console import Console

from tractor_cli import ui
from tractor_cli.main import main
from tractor_cli.progress import ConformProgress

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
BAR = "━"


def _frames(text: str) -> list[str]:
    """Every line drawn, escape codes removed (rich redraws a live display in place)."""
    return [line for line in re.split(r"[\r\n]", ANSI.sub("", text)) if line.strip()]


def _tally(n, fail=0):
    return {"pass": n - fail, "fail": fail, "xpass": 0, "skipped": 0, "xfail": 0, "errored": 0}


@pytest.mark.parametrize("width", [40, 60, 80, 100, 140])
def test_the_conform_bar_fits_the_terminal(width, monkeypatch):
    monkeypatch.setattr("tractor_cli.progress.BAR_EVERY", 0.0)
    buf = io.StringIO()
    progress = ConformProgress(None, console=Console(file=buf, force_terminal=True, width=width))
    cases = [{"ruleset": "r001_powers", "op": "follow"}] * 6000 + [{"ruleset": "r001_powers", "op": "winner"}] * 7586
    with progress:
        progress.start(cases)
        progress(6100, len(cases), _tally(6100, fail=345))
        progress.progress.refresh()
        frames = _frames(buf.getvalue())
    last = frames[-1]
    assert all(cell_len(f) <= width for f in frames), [f for f in frames if cell_len(f) > width]
    assert "…" not in last and "6100/13586" in last and "45%" in last
    if width >= 50:
        assert "fail 345" in last                      # the failures, at every width that has room
    if width >= 70:
        assert "r001_powers winner" in last and last.count(BAR) >= 8   # a bar, not one glyph


def test_play_shows_its_games_on_a_narrow_terminal(monkeypatch, capsys):
    buf = io.StringIO()
    real = ui.console

    def console(stderr=False, **kw):
        return Console(file=buf, force_terminal=True, width=40) if stderr else real(stderr, **kw)
    monkeypatch.setattr(ui, "console", console)
    assert main(["play", "r000", "--games", "3", "--max-hands", "1", "--brief", "--jobs", "1"]) == 0
    frames = _frames(buf.getvalue())
    assert any("/3" in f for f in frames), frames
    assert all(cell_len(f) <= 40 for f in frames), frames
    assert "3 games" in capsys.readouterr().out          # the transcripts and the tally, on stdout as before
