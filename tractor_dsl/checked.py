"""What the checker makes: checked rulesets and the library that holds them (:mod:`tractor_dsl.checker` checks).

Kept apart from the checker so that a process reading a checked library from the cache (an engine starting)
imports what the library is made of, not the checks that made it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import model as m
from .diagnostics import Diagnostic, SpecError, did_you_mean


@dataclass(frozen=True)
class Origin:
    """Where a setting of a checked ruleset comes from."""

    clause: m.Clause
    reading: str | None
    span: m.Span

    @property
    def cites(self) -> tuple[str, ...]:
        return self.clause.cites


@dataclass
class CheckedRuleset:
    name: str
    title: str
    document: str | None
    lineage: tuple[str, ...]             # this ruleset, then what it extends, ...
    clauses: tuple[m.Clause, ...]        # effective clauses, base order then additions
    choices: dict[str, str]              # clause id -> chosen reading
    overrides: dict[str, m.Override]     # clause id -> the override that changed it
    values: dict[str, Any]
    origins: dict[str, Origin]
    ladders: dict[str, tuple[m.Shape, tuple[m.Pattern, ...], Origin]]
    bands: tuple[m.Band, ...]
    band_origin: Origin | None
    file: str = ""
    title_zh: str | None = None          # the Chinese title (a derived ruleset without its own: its base's)
    own_variants: tuple[str, ...] = ()   # the house-rule readings its own 'variants' line names

    @property
    def variants(self) -> tuple[str, ...]:
        """The house-rule readings of VARIANTS.md it states: its own 'variants' line, then those of its
        effective clauses and of their chosen readings."""
        out = list(self.own_variants)
        for c in self.clauses:
            out += c.variants
            out += [v for r in c.readings if r.name == self.choices.get(c.id) for v in r.variants]
        return tuple(dict.fromkeys(out))

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def clause(self, clause_id: str) -> m.Clause:
        for c in self.clauses:
            if c.id == clause_id:
                return c
        raise KeyError(clause_id)

    def origin(self, name: str) -> Origin:
        return self.origins[name]

    def clause_id_of(self, name: str) -> str:
        return self.origins[name].clause.id


@dataclass
class Library:
    """Every ruleset found, checked, with the problems found on the way."""

    rulesets: dict[str, CheckedRuleset] = field(default_factory=dict)
    parsed: dict[str, m.Ruleset] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    context: set[str] = field(default_factory=set)   # bundled rulesets read only because a user's file extends them

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    def get(self, name: str) -> CheckedRuleset:
        if name in self.rulesets:
            return self.rulesets[name]
        known = sorted(self.rulesets)
        raise SpecError([Diagnostic("E501", f"unknown ruleset '{name}'" + did_you_mean(name, known)
                                    + f" (known: {', '.join(known)})", m.Span("<command line>", 0, 0))])
