"""Every option value of every command, checked in one place before any work starts.

Each function here is an argparse ``type`` (or makes one): a bad value is
``tractor CMD: error: argument --X: ...`` with the command's usage and exit
status 2, before a case is generated, an engine started or a file opened.

* :func:`whole` — a whole number within bounds (``whole(1)``: positive,
  ``whole(0)``: not negative, ``whole(1, 10**6)``: bounded);
* :func:`seconds` — a finite number of seconds within bounds (no ``nan``,
  ``inf``, 0 or a negative time);
* :func:`names` — a comma-separated list of names, optionally from a known
  set: an empty item (``a,,b``) or an empty list (``''``, ``,``) is refused,
  never read as "everything";
* :func:`language` — the language of the reports (``en`` or ``zh``);
* :func:`output_file` — a file the command will write: not a folder, its
  folder exists and takes a new file (checked before the run, not after it).

``--jobs`` and ``--scheduler`` (a Dask address, ``[tcp://]HOST:PORT``) are
checked the same way by :func:`conformance.running.parallel.add_arguments`,
which every command that runs on an executor uses.

The bounds are the ones :class:`conformance.plan.RunPlan` checks a conform run by
(:data:`conformance.plan.TIMEOUT_RANGE` …), so every command takes the same values.
"""
from __future__ import annotations

import argparse
import math
import os
from pathlib import Path
from typing import Callable, Iterable

ArgumentTypeError = argparse.ArgumentTypeError

TIMEOUT_RANGE = (0.01, 86_400.0)   # conformance.plan.TIMEOUT_RANGE (a test holds them equal)


def whole(lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``lo`` to ``hi`` (either end open when None)."""
    def parse(text: str) -> int:
        try:
            n = int(text.strip())
        except ValueError:
            raise ArgumentTypeError(f"not a whole number: {text!r}") from None
        if (lo is not None and n < lo) or (hi is not None and n > hi):
            raise ArgumentTypeError(_range(n, lo, hi))
        return n
    parse.__name__ = "whole number"   # argparse names the type in its message for a ValueError
    return parse


def seconds(lo: float = TIMEOUT_RANGE[0], hi: float = TIMEOUT_RANGE[1]) -> Callable[[str], float]:
    """An argparse type: a finite number of seconds from ``lo`` to ``hi``."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise ArgumentTypeError(f"not a number of seconds: {text!r}") from None
        if not math.isfinite(value):
            raise ArgumentTypeError(f"must be a finite number of seconds, not {text!r}")
        if not lo <= value <= hi:
            raise ArgumentTypeError(f"must be between {lo:g} and {hi:g} seconds, not {value:g}")
        return value
    parse.__name__ = "seconds"
    return parse


def _range(n: int, lo: int | None, hi: int | None) -> str:
    if hi is None:
        return f"must be {lo:,} or more, not {n:,}"
    if lo is None:
        return f"must be {hi:,} or less, not {n:,}"
    return f"must be from {lo:,} to {hi:,}, not {n:,}"


def split_names(values: Iterable[str], option: str, known: Iterable[str] | None = None) -> list[str]:
    """The names of one or more comma-separated values (an option given several times); an empty item or an
    empty list is a :class:`ValueError` naming ``option`` (never read as "all"), as is a name not in
    ``known`` (when given)."""
    out: list[str] = []
    for value in values:
        items = [x.strip() for x in value.split(",")]
        if not value.strip() or any(not x for x in items):
            raise ValueError(f"{option} {value!r}: an empty name in the list (names are separated by single "
                             "commas; leave the option out for the default)")
        out += items
    if known is not None:
        known = list(known)
        bad = [x for x in out if x not in known]
        if bad:
            raise ValueError(f"{option}: unknown {', '.join(bad)}; known: {', '.join(known)}")
    return out


def names(option: str, known: Iterable[str] | None = None) -> Callable[[str], str]:
    """An argparse type checking one comma-separated value (:func:`split_names`); the value is kept as given
    (the command splits it, the option may be repeated)."""
    def parse(text: str) -> str:
        try:
            split_names([text], option, known)
        except ValueError as e:
            raise ArgumentTypeError(str(e).removeprefix(f"{option}: ").removeprefix(f"{option} ")) from None
        return text
    parse.__name__ = "list"
    return parse


def language(text: str) -> str:
    """An argparse type: the language of the reports, one of :data:`conformance.reporting.labels.LANGS`."""
    from conformance.reporting.labels import LANGS
    if text not in LANGS:
        raise ArgumentTypeError(f"unknown language {text!r}; languages: {', '.join(LANGS)}")
    return text


def output_file(text: str) -> str:
    """An argparse type: a file the command writes at the end of its run, checked now (:func:`output_problem`)."""
    problem = output_problem(text)
    if problem:
        raise ArgumentTypeError(problem)
    return text


def output_problem(path: str) -> str | None:
    """Why a file cannot be written at ``path`` (None when it can): an empty name, a folder, a folder that does
    not exist (it is not made: a mistyped folder is more likely than a wanted new one), or a folder this
    process cannot write to."""
    if not path:
        return "an empty file name"
    target = Path(path)
    if target.is_dir():
        return f"{path} is a folder, not a file"
    folder = target.parent
    if not folder.is_dir():
        return f"the folder {folder} does not exist" if not folder.exists() else f"{folder} is not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"cannot write to the folder {folder}: permission denied"
    return None
