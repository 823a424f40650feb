"""A user's ruleset may not take a bundled ruleset's name, and a command given a user's rule file says
which ruleset it took from it (issue 20): ``ruleset r001 extends r000`` in a user's file checked clean
and was then judged with the bundled r001's vectors."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tractor_dsl.checker import bundled_names, load
from reference_impl.rules import load_file
from tractor_dsl.diagnostics import SpecError

ROOT = Path(__file__).resolve().parents[2]


def house(name: str, extends: str = "r000") -> str:
    return (f'ruleset {name} extends {extends} {{\n'
            f'  title "House" "家规"\n'
            f'  override kitty.throw choose whole_play because "house" "家规"\n'
            f'}}\n')


def tractor(*argv):
    return subprocess.run([sys.executable, "-m", "tractor_cli.main", *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("name", ["r001", "r000", "r003_capped"])
def test_a_bundled_name_in_a_users_file_is_a_positioned_error(tmp_path, name):
    f = tmp_path / "mine.tractor"
    f.write_text(house(name), encoding="utf-8")
    lib = load([f])
    [d] = [d for d in lib.errors if d.code == "E512"]
    assert (d.span.file, d.span.line, d.span.column) == (str(f), 1, 9)
    assert f"ruleset '{name}' takes the name of a bundled ruleset" in d.message
    with pytest.raises(SpecError, match="E512"):
        load_file(f)
    proc = tractor("check", str(f))
    assert proc.returncode == 1 and f"{f}:1:9: error[E512]" in proc.stderr


def test_the_bundled_library_itself_and_other_names_are_accepted(tmp_path):
    assert {"r000", "r001", "r003", "r001_powers"} <= bundled_names()
    assert not load().errors
    f = tmp_path / "mine.tractor"
    f.write_text(house("house_r001", "r001"), encoding="utf-8")
    assert not load([f]).errors and load_file(f).name == "house_r001"


def test_commands_given_a_users_file_say_which_ruleset_they_use(tmp_path):
    f = tmp_path / "mine.tractor"
    f.write_text(house("house_rules"), encoding="utf-8")
    said = f"{f}: using ruleset 'house_rules', extending r000"
    shown = tractor("show", str(f))
    assert shown.returncode == 0 and f"tractor show: {said}" in shown.stderr.splitlines()
    engine = tractor("engine", "--rules", str(f), "--handshake")
    assert engine.returncode == 0 and f"tractor engine: {said}" in engine.stderr.splitlines()
    assert '"house_rules"' in engine.stdout
