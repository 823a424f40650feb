"""Rulesets that differ from a bundled one by one chosen reading, for tests of a single setting.

``variant("r000", "level.progression", "time_only")`` is r000 with that clause's
other reading chosen, checked like any rule file (an ``override ... choose``).
"""
from functools import lru_cache
from pathlib import Path

from reference_impl.rules import Rules
from tractor_dsl.checker import check_text

SPEC = Path(__file__).resolve().parents[2] / "spec"


@lru_cache(maxsize=None)
def variant(base: str, clause: str, reading: str) -> Rules:
    name = f"t_{base}_{clause.replace('.', '_')}_{reading}"
    source = (f'ruleset {name} extends {base} {{\n  title "test variant"\n'
              f'  override {clause} choose {reading} because "a test of one setting"\n}}\n')
    base_file = SPEC / f"{base[1:]}.tractor"
    lib = check_text(source, "<test>", {str(base_file): base_file.read_text(encoding="utf-8")})
    assert not lib.errors, lib.errors
    return Rules(lib.get(name))
