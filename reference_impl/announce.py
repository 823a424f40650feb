"""Saying which ruleset a user's rule file holds, once per file read (issue 20).

A command given a rule file (``--rules house.tractor``, ``--ruleset house.tractor``, ``tractor show
house.tractor``) tells its user which ruleset it took from it, so that a file meant to be judged as
one ruleset is never silently judged as another. The library itself is silent: ``tractor`` (the
command line) sets :data:`TELL`, which gets one line per file read, on stderr.
"""
from __future__ import annotations

from typing import Callable

TELL: Callable[[str], None] | None = None


def ruleset_read(path: str, name: str, lineage: tuple[str, ...]) -> None:
    """Tell (when a teller is set) that the file ``path`` holds the ruleset ``name``."""
    if TELL is None:
        return
    extends = f", extending {' -> '.join(lineage[1:])}" if len(lineage) > 1 else ""
    TELL(f"{path}: using ruleset '{name}'{extends}")
