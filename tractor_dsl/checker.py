"""The checker: from parsed rule files to checked, resolved rulesets.

It collects every problem rather than stopping at the first, and sorts them by
position. Codes: E0xx syntax, E1xx clauses, E2xx settings, E3xx follow ladders,
E4xx score tables, E5xx rulesets and extends, E6xx coverage; W for warnings.
Prose without its Chinese text is an error in the bundled library (``spec/``,
E109 for a clause's ``zh``, E119 for every other text) and a warning (W119)
in any other file: a house-rule file need not be bilingual.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from . import inventory, limits, variants
from .bundled import default_spec_dir
from . import model as m
from .clause_checks import ClauseChecks
from .checked import CheckedRuleset, Library, Origin  # noqa: F401 - what the checker makes, named here too
from .diagnostics import Diagnostic, SpecError, did_you_mean
from .schema import PARAMS, PARAMS_BY_NAME
from .types import NO_TRUMP_LEVEL, Formula, FormulaError, TypeProblem

CARDS_PER_DECK = 54
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")  # a Chinese character


def in_library(file: str) -> bool:
    """Whether ``file`` is a rule file of the bundled library (under ``spec/``); ``<...>`` names no file."""
    if file.startswith("<"):
        return False
    try:
        return Path(file).resolve().is_relative_to(default_spec_dir())
    except (OSError, ValueError):
        return False


def find_spec_files(paths: Iterable[str | Path] | None = None) -> tuple[list[Path], list[Diagnostic]]:
    """The rule files named or found under folders (``*.tractor``, regular files only), and a
    problem (E008) for every folder that holds none. A named path is always returned: reading it
    reports whatever is wrong with it (missing, a FIFO, ...)."""
    roots = [Path(p) for p in paths] if paths else [default_spec_dir()]
    files: list[Path] = []
    problems: list[Diagnostic] = []
    for root in roots:
        if root.is_dir():
            found = sorted(p for p in root.rglob("*.tractor") if not p.is_dir())
            if not found:
                problems.append(Diagnostic("E008", "no rule files (*.tractor) in this folder",
                                           m.Span(str(root), 0, 0)))
            files.extend(found)
        else:
            files.append(root)
    return files, problems


def spec_files(paths: Iterable[str | Path] | None = None) -> list[Path]:
    return find_spec_files(paths)[0]


def load(paths: Iterable[str | Path] | None = None) -> Library:
    """Parse and check every rule file under ``paths`` (default: ``spec/``)."""
    from .parser import parse, read_spec  # here, not at the top: a process that finds the checked spec cached needs no parser
    lib = Library()
    files, lib.diagnostics = find_spec_files(paths)
    for path in files:
        if len(lib.diagnostics) >= limits.DIAGNOSTICS:
            break
        try:
            text = read_spec(path)
        except SpecError as e:
            lib.diagnostics.extend(e.diagnostics)
            continue
        lib.sources[str(path)] = text
        try:
            rs = parse(text, str(path))
        except SpecError as e:
            lib.diagnostics.extend(e.diagnostics)
            continue
        if rs.name in lib.parsed:
            lib.diagnostics.append(Diagnostic(
                "E502", f"ruleset '{rs.name}' is defined twice (also in {lib.parsed[rs.name].file})", rs.span))
            continue
        if not in_library(str(path)) and rs.name in bundled_names():
            lib.diagnostics.append(Diagnostic(
                "E512", f"ruleset '{rs.name}' takes the name of a bundled ruleset; a ruleset of your own needs "
                        f"a name of its own (e.g. 'ruleset house_{rs.name} extends {rs.name}')", rs.span))
            continue
        lib.parsed[rs.name] = rs
    context = _bundled_context(lib, files)
    _Checker(lib).run()
    if context:  # the bundled rulesets a user's file extends: checked with it, reported by `tractor check` alone
        lib.diagnostics = [d for d in lib.diagnostics if d.span.file not in context]
    lib.diagnostics.sort(key=Diagnostic.sort_key)
    return lib


_RULESET_NAME = re.compile(r"^\s*ruleset\s+([A-Za-z_][A-Za-z0-9_]*)", re.M)


def bundled_names() -> frozenset[str]:
    """The names of the bundled rulesets, read from the head of each bundled file (no full parse)."""
    return _bundled_names(str(default_spec_dir()))


@lru_cache(maxsize=4)
def _bundled_names(spec_dir: str) -> frozenset[str]:
    from .parser import read_spec
    names = set()
    for path in spec_files([spec_dir]):
        try:
            found = _RULESET_NAME.search(read_spec(path))
        except SpecError:
            continue
        if found:
            names.add(found.group(1))
    return frozenset(names)


def _bundled_context(lib: Library, files: list[Path]) -> set[str]:
    """Add the bundled rulesets to ``lib`` that a ruleset of the files read extends and they do not hold
    (``ruleset house extends r003``, or a library file checked alone: ``spec/variants/v67_jack_rule.tractor``
    extends r001), and what those extend in turn: the files of the bundled library, which ``lib`` then holds as
    context (their rulesets are in ``lib.context``); a file read already is never read again. The paths added."""
    from .parser import parse, read_spec
    from .bundled import is_catalogue
    read: set[Path] = set()
    for f in files:
        try:
            read.add(Path(f).resolve())
        except (OSError, ValueError):
            pass
    context: set[str] = set()
    library = spec_files()
    # the rulebooks and derived rulesets whenever one is missing; a house-rule file of the catalogue only when
    # extended
    ordered = [f for f in library if not is_catalogue(str(f))] + [f for f in library if is_catalogue(str(f))]
    seen: set[Path] = set()
    while True:
        missing = {rs.extends for rs in lib.parsed.values() if rs.extends and rs.extends not in lib.parsed}
        if not missing:
            break
        added = False
        for path in ordered:
            resolved = path.resolve()
            if resolved in read or resolved in seen or (is_catalogue(str(path)) and path.stem not in missing):
                continue
            seen.add(resolved)
            try:
                text = read_spec(path)
                rs = parse(text, str(path))
            except SpecError:  # a broken library is `tractor check`'s to report
                continue
            if rs.name not in lib.parsed:
                lib.sources[str(path)] = text
                lib.parsed[rs.name] = rs
                lib.context.add(rs.name)
                context.add(str(path))
                added = True
        if not added:
            break
    return context


def check_text(text: str, file: str = "<string>", extra: dict[str, str] | None = None) -> Library:
    """Check rule text (and optional other files it extends), for tests and tools."""
    from .parser import parse
    lib = Library()
    for name, source in {file: text, **(extra or {})}.items():
        lib.sources[name] = source
        try:
            rs = parse(source, name)
        except SpecError as e:
            lib.diagnostics.extend(e.diagnostics)
            continue
        if rs.name in lib.parsed:
            lib.diagnostics.append(Diagnostic("E502", f"ruleset '{rs.name}' is defined twice", rs.span))
            continue
        lib.parsed[rs.name] = rs
    _Checker(lib).run()
    lib.diagnostics.sort(key=Diagnostic.sort_key)
    return lib


class _TooMany(Exception):
    """Raised when the run has found :data:`~tractor_dsl.limits.DIAGNOSTICS` problems."""


def _stop_note(lib: Library) -> None:
    """The last diagnostic of a run that stopped at the limit of problems."""
    lib.diagnostics.append(Diagnostic(
        "E014", f"stopped after {limits.DIAGNOSTICS} problems; fix these and check again",
        m.Span("<check>", 0, 0)))


class _Checker(ClauseChecks):
    def __init__(self, lib: Library):
        self.lib = lib

    def error(self, code: str, message: str, span: m.Span) -> None:
        self._add(Diagnostic(code, message, span))

    def warn(self, code: str, message: str, span: m.Span) -> None:
        self._add(Diagnostic(code, message, span, "warning"))

    def _add(self, diagnostic: Diagnostic) -> None:
        self.lib.diagnostics.append(diagnostic)
        if len(self.lib.diagnostics) >= limits.DIAGNOSTICS:
            raise _TooMany

    # --- driver ---
    def run(self) -> None:
        if len(self.lib.diagnostics) >= limits.DIAGNOSTICS:
            _stop_note(self.lib)
            return
        try:
            self._run()
        except _TooMany:
            _stop_note(self.lib)

    def _run(self) -> None:
        for rs in self.lib.parsed.values():
            for clause in rs.clauses:
                self.check_clause(clause, rs)
            for ov in rs.overrides:
                if ov.replacement is not None:
                    self.check_clause(ov.replacement, rs)
            self.check_chinese(rs)
            self.check_variants(rs)
        order = self.extends_order()
        for name in order:
            resolved = self.resolve(self.lib.parsed[name])
            if resolved is not None:
                self.lib.rulesets[name] = resolved
        self.check_coverage()

    def check_chinese(self, rs: m.Ruleset) -> None:
        """Every text a reader sees has its Chinese text: an error in the bundled library, a warning elsewhere."""
        bundled = in_library(rs.file)

        def need(english: str | None, chinese: str | None, what: str, span: m.Span, code: str = "E119") -> None:
            if english is None:
                return
            if chinese is None or not chinese.strip():
                problem = f"{what} has no Chinese text"
            elif not _HAN.search(chinese):
                problem = f"the Chinese text of {what} holds no Chinese character"
            elif any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in chinese):
                problem = f"the Chinese text of {what} holds a control character"
            else:
                return
            if bundled:
                self.error(code, problem + " (every text of the bundled rulebooks is bilingual)", span)
            else:
                self.warn("W119", problem, span)

        need(rs.title, rs.title_zh, f"the title of ruleset '{rs.name}'", rs.title_span)
        clauses = list(rs.clauses) + [ov.replacement for ov in rs.overrides if ov.replacement is not None]
        for c in clauses:
            if c.says:
                need(c.says, c.zh, f"clause '{c.id}' ('zh')", c.item_span("zh") if c.zh else c.span, "E109")
            need(c.reason, c.reason_zh, f"the reason of clause '{c.id}'", c.item_span("reason"))
            for i, (alt, alt_zh) in enumerate(zip(c.alternatives, c.alternatives_zh)):
                need(alt, alt_zh, f"alternative {i + 1} of clause '{c.id}'", c.item_span(f"alternative:{i}"))
            for r in c.readings:
                need(r.description, r.description_zh, f"the description of reading '{r.name}' of clause '{c.id}'",
                     r.span)
                need(r.says, r.zh, f"the statement ('says') of reading '{r.name}' of clause '{c.id}'", r.span)
        for ov in rs.overrides:
            need(ov.because, ov.because_zh, f"the reason ('because') of the override of '{ov.clause_id}'", ov.span)

    def check_variants(self, rs: m.Ruleset) -> None:
        """Every house-rule id named is one of the catalogues' (spec/variants.tsv, spec/house_rules.tsv)."""
        known = variants.by_id()
        named = list(zip(rs.variants, rs.variant_spans))
        clauses = list(rs.clauses) + [ov.replacement for ov in rs.overrides if ov.replacement is not None]
        for c in clauses:
            named += [(v, c.item_span(f"variant:{i}")) for i, v in enumerate(c.variants)]
            named += [(v, r.span) for r in c.readings for v in r.variants]
        for vid, span in named:
            if vid not in known:
                self.error("E120", f"unknown house-rule reading '{vid}': the catalogues name "
                                   f"{variants.described_ids()}" + did_you_mean(vid, known), span)

    # --- extends ---
    def extends_order(self) -> list[str]:
        """The rulesets that can be resolved, each after the one it extends.

        Iterative: each chain of 'extends' is walked once, down to a ruleset
        already placed (or to one with no base); a chain may hold at most
        :data:`~tractor_dsl.limits.EXTENDS_DEPTH` rulesets; every ruleset past
        it is reported (E511) with the length of its own chain.
        """
        parsed = self.lib.parsed
        order: list[str] = []
        depth: dict[str, int] = {}   # ruleset -> rulesets in its chain, itself included (placed or too long)
        root: dict[str, str] = {}    # ruleset -> the ruleset its chain ends at (no base)
        failed: set[str] = set()     # cannot be resolved (reported where the chain breaks)
        for start in parsed:
            chain: list[str] = []
            on_chain: set[str] = set()
            name, ok, below, bottom = start, True, 0, start
            while True:
                if name in depth:
                    below, bottom = depth[name], root[name]
                    break
                if name in failed:
                    ok = False
                    break
                if name in on_chain:
                    cycle = " -> ".join(chain[chain.index(name):] + [name])
                    self.error("E503", f"circular 'extends': {cycle}", parsed[name].extends_span)
                    ok = False
                    break
                on_chain.add(name)
                chain.append(name)
                rs = parsed[name]
                if rs.extends is None:
                    bottom = name
                    break
                if rs.extends not in parsed:
                    self.error("E504", f"'{rs.name}' extends unknown ruleset '{rs.extends}'"
                               + did_you_mean(rs.extends, parsed), rs.extends_span)
                    ok = False
                    break
                name = rs.extends
            for name in reversed(chain):  # from the base up: every ruleset past the limit is reported, each once
                if not ok:
                    failed.add(name)
                    continue
                below += 1
                depth[name], root[name] = below, bottom
                if below > limits.EXTENDS_DEPTH:
                    self.error("E511", f"'{name}' makes a chain of {below} rulesets down to '{bottom}' (following "
                                       f"'extends'); a chain may hold at most {limits.EXTENDS_DEPTH} rulesets, itself "
                                       "included", parsed[name].extends_span)
                else:
                    order.append(name)
        return order

    # --- resolve one ruleset into its effective clauses and settings ---
    def resolve(self, rs: m.Ruleset) -> CheckedRuleset | None:
        base = self.lib.rulesets.get(rs.extends) if rs.extends else None
        if rs.extends and base is None:
            return None  # the base did not check; its errors are reported already
        if base is None and rs.title is None:
            self.error("E505", f"ruleset '{rs.name}' has no title", rs.span)
        clauses: list[m.Clause] = list(base.clauses) if base else []
        choices: dict[str, str] = dict(base.choices) if base else {}
        overrides: dict[str, m.Override] = dict(base.overrides) if base else {}
        ids = {c.id for c in clauses}
        for clause in rs.clauses:
            if clause.id in ids:
                where = "in the ruleset it extends; use 'override'" if base and clause.id in {c.id for c in base.clauses} else "already"
                self.error("E118", f"clause '{clause.id}' is defined {where}", clause.span)
                continue
            ids.add(clause.id)
            clauses.append(clause)
            if clause.choice:
                choices[clause.id] = clause.choice
        for ov in rs.overrides:
            if not ov.because.strip():
                self.error("E506", f"the override of '{ov.clause_id}' must give a reason after 'because'", ov.span)
            idx = next((i for i, c in enumerate(clauses) if c.id == ov.clause_id), None)
            if idx is None:
                self.error("E507", f"override of unknown clause '{ov.clause_id}'"
                           + did_you_mean(ov.clause_id, [c.id for c in clauses]), ov.span)
                continue
            if ov.choose is not None:
                readings = [r.name for r in clauses[idx].readings]
                if ov.choose not in readings:
                    what = (f"it has no reading '{ov.choose}'" + did_you_mean(ov.choose, readings)
                            if readings else "it declares no readings")
                    self.error("E508", f"cannot choose '{ov.choose}' for clause '{ov.clause_id}': {what}", ov.span)
                    continue
                choices[ov.clause_id] = ov.choose
            else:
                clauses[idx] = ov.replacement
                choices.pop(ov.clause_id, None)
                if ov.replacement.choice:
                    choices[ov.clause_id] = ov.replacement.choice
            overrides[ov.clause_id] = ov
        document = rs.document or (base.document if base else None)
        if document is None:
            self.error("E509", f"ruleset '{rs.name}' names no source document ('document \"001\"')", rs.span)
        elif document not in inventory.documents():
            self.error("E510", f"unknown document '{document}'" + did_you_mean(document, inventory.documents()),
                       rs.span)
        return self.settle(rs, base, clauses, choices, overrides, document)

    def settle(self, rs, base, clauses, choices, overrides, document) -> CheckedRuleset:
        values: dict[str, Any] = {}
        origins: dict[str, Origin] = {}
        ladders: dict[str, tuple] = {}
        bands: list[m.Band] = []
        band_origin: Origin | None = None
        ill_typed: set[str] = set()
        for clause in clauses:
            reading = choices.get(clause.id)
            rules = list(clause.rules)
            for r in clause.readings:
                if r.name == reading:
                    rules.extend(r.rules)
            for rule in rules:
                origin = Origin(clause, reading, rule.span)
                if isinstance(rule, m.Setting):
                    param = PARAMS_BY_NAME.get(rule.path)
                    if param is None:
                        continue
                    if rule.path in origins:
                        first = origins[rule.path]
                        self.error("E203", f"'{rule.path}' is set twice: here and in clause '{first.clause.id}' "
                                           f"({first.span})", rule.span)
                        continue
                    try:
                        values[rule.path] = param.type.convert(rule.value)
                    except TypeProblem:
                        ill_typed.add(rule.path)  # reported by check_rule; it is set, though not usable
                        continue
                    origins[rule.path] = origin
                elif isinstance(rule, m.Follow):
                    key = str(rule.lead)
                    if key in ladders:
                        self.error("E308", f"two follow ladders for lead '{key}' (the other is in clause "
                                           f"'{ladders[key][2].clause.id}')", rule.span)
                        continue
                    ladders[key] = (rule.lead, rule.ladder, origin)
                elif isinstance(rule, m.Band):
                    if band_origin is not None and band_origin.clause.id != clause.id:
                        self.error("E406", f"score bands are split between clauses '{band_origin.clause.id}' and "
                                           f"'{clause.id}'; one clause states the whole table", rule.span)
                        continue
                    band_origin = origin
                    bands.append(rule)
        for param in PARAMS:
            if param.required and param.name not in values and param.name not in ill_typed:
                self.error("E204", f"ruleset '{rs.name}' does not set '{param.name}' ({param.doc})", rs.span)
        self.check_bands(bands, band_origin, rs)
        self.check_equipment(values, origins)
        self.check_levels(values, origins)
        self.check_multipliers(values, origins)
        self.check_reach(values, origins, ladders)
        return CheckedRuleset(
            name=rs.name, title=rs.title or (base.title if base else rs.name), document=document,
            lineage=(rs.name,) + (base.lineage if base else ()), clauses=tuple(clauses), choices=choices,
            overrides=overrides, values=values, origins=origins, ladders=ladders, bands=tuple(bands),
            band_origin=band_origin, file=rs.file,
            title_zh=rs.title_zh if rs.title else (base.title_zh if base else None), own_variants=rs.variants)

    def check_bands(self, bands: list[m.Band], origin: Origin | None, rs: m.Ruleset) -> None:
        if not bands:
            self.error("E407", f"ruleset '{rs.name}' has no score table ('band' statements)", rs.span)
            return
        # an empty band (low above high) is reported as E402; it would only add false gaps here
        bands = [b for b in bands if b.low is None or b.high is None or b.low <= b.high] or bands
        ordered = sorted(bands, key=lambda b: float("-inf") if b.low is None else b.low)
        if ordered[0].low is not None:
            self.error("E408", f"the score table starts at {ordered[0].low}: points below it are not covered "
                               "(open the lowest band: '..N')", ordered[0].span)
        if ordered[-1].high is not None:
            self.error("E409", f"the score table stops at {ordered[-1].high}: points above it are not covered "
                               "(open the highest band: 'N..')", ordered[-1].span)
        for a, b in zip(ordered, ordered[1:]):
            if a.high is None or b.low is None:
                self.error("E410", f"score bands overlap: {self._band(a)} and {self._band(b)}", b.span)
            elif b.low <= a.high:
                self.error("E410", f"score bands overlap: {self._band(a)} and {self._band(b)}", b.span)
            elif b.low > a.high + 5:
                self.error("E411", f"score bands leave a gap: {a.high + 5}..{b.low - 5} is not covered", b.span)

    @staticmethod
    def _band(b: m.Band) -> str:
        return f"{'' if b.low is None else b.low}..{'' if b.high is None else b.high}"

    def check_equipment(self, values, origins) -> None:
        need = ("equipment.decks", "equipment.players", "equipment.hand_size", "equipment.kitty_size")
        if not all(k in values for k in need):
            return
        decks, players, hand, kitty = (values[k] for k in need)
        removed = values.get("equipment.removed") or ()
        pack = decks * CARDS_PER_DECK - len(removed)
        if hand * players + kitty != pack:
            out = f" less the {len(removed)} removed" if removed else ""
            self.error("E205", f"impossible equipment: {players} hands of {hand} plus a kitty of {kitty} is "
                               f"{hand * players + kitty} cards, but {decks} deck(s){out} hold {pack}",
                       origins["equipment.hand_size"].span)
        from collections import Counter
        for (rank, suit), n in Counter(removed).items():
            if n > decks:
                self.error("E214", f"equipment.removed takes {n} copies of the {rank} of {suit} out of {decks} "
                                   f"deck(s)", origins["equipment.removed"].span)

    def check_multipliers(self, values, origins) -> None:
        """Every kitty multiplier, at every card count its row is read at, is a whole number from 0 to
        :data:`~tractor_dsl.limits.MULTIPLIER_MAX` whose every part stays within the formula bounds
        (E211 for a part, E212 for the value). The counts are few (at most the hand size per row),
        and each evaluation is bounded, so this proof is an exhaustive one."""
        hand = values.get("equipment.hand_size", PARAMS_BY_NAME["equipment.hand_size"].type.high)
        for name in ("kitty.multiplier", "kitty.banker_multiplier"):
            value = values.get(name)
            if value is None:
                continue
            tables = value.items() if name == "kitty.multiplier" else (("", value),)
            for cls, table in tables:
                for shape, counts in multiplier_counts(table, hand).items():
                    self._check_multiplier(f"{name}{'.' + cls if cls else ''}.{shape}", table[shape], counts,
                                           origins[name].span)

    def _check_multiplier(self, where: str, formula: Formula, counts: range, fallback: m.Span) -> None:
        problem = multiplier_problem(formula, counts)
        if problem is None:
            return
        n, e = problem
        if isinstance(e, FormulaError):
            self.error("E211", f"{where}: {e.message}", e.span or formula.span or fallback)
        else:
            at = f"cards = {n} (at some count of pairs)" if formula.uses_pairs else f"cards = {n}"
            self.error("E212", f"{where} = {formula} is {e:,} for {at}; a kitty multiplier is a "
                               f"whole number from 0 to {limits.MULTIPLIER_MAX:,} (2^40) for every card "
                               f"count its row is read at ({counts.start} to {counts.stop - 1})",
                       formula.span or fallback)

    def check_levels(self, values, origins) -> None:
        ranks = values.get("level.ranks")
        if ranks is None:
            return
        if NO_TRUMP_LEVEL in ranks[:-1]:
            self.error("E217", f"{NO_TRUMP_LEVEL}, the no-trump level, can only be the last of level.ranks: it "
                               f"is the level above the ranks, not a rank among them", origins["level.ranks"].span)
        if values.get("level.start") == NO_TRUMP_LEVEL:
            self.error("E217", f"level.start cannot be {NO_TRUMP_LEVEL}: the first hand's banker is found by "
                               f"declaring, and nothing is declared at the no-trump level",
                       origins["level.start"].span)
        for key in ("level.start", "level.end"):
            v = values.get(key)
            if v is not None and v not in ranks:
                self.error("E206", f"{key} {v} is not one of level.ranks ({', '.join(ranks)})", origins[key].span)
        for v in values.get("level.must_play", ()):
            if v not in ranks:
                self.error("E206", f"must-play level {v} is not one of level.ranks", origins["level.must_play"].span)
        for v in values.get("level.must_defend", ()):
            if v not in ranks:
                self.error("E206", f"level {v} that must be defended is not one of level.ranks",
                           origins["level.must_defend"].span)
        weak = values.get("deal.redeal_at_most") or {}
        conditions = values.get("deal.redeal_if") or ()
        for key, condition in (("points", "no_points"), ("trumps", "no_trumps")):
            if key in weak and condition not in conditions:
                self.error("E219", f"deal.redeal_at_most.{key} needs {condition} among deal.redeal_if: it says how "
                                   f"weak a hand meeting {condition} is", origins["deal.redeal_at_most"].span)
        hand, decks = values.get("equipment.hand_size"), values.get("equipment.decks")
        if "trumps" in weak and hand is not None and weak["trumps"] >= hand:
            self.error("E219", f"deal.redeal_at_most.trumps {weak['trumps']} is every card of a hand of {hand}: "
                               f"every deal would be dealt again", origins["deal.redeal_at_most"].span)
        if "points" in weak and decks is not None and weak["points"] >= 100 * decks:
            self.error("E219", f"deal.redeal_at_most.points {weak['points']} is every point of {decks} deck(s): "
                               f"every deal would be dealt again", origins["deal.redeal_at_most"].span)
        knock = values.get("level.knock_back") or {}
        for key in ("level", "to", "pair", "triple"):
            v = knock.get(key)
            if v is not None and v not in ranks:
                self.error("E206", f"level.knock_back names {v}, which is not one of level.ranks",
                           origins["level.knock_back"].span)
        if knock and not any(k in knock for k in ("to", "pair", "triple")):
            self.error("E218", "level.knock_back sends nobody back: name the level a single card ('to'), a pair "
                               "('pair') or a triple ('triple') of the rank sends the banker's team back to",
                       origins["level.knock_back"].span)
        for key, copies in (("pair", 2), ("triple", 3)):
            if key in knock and decks is not None and decks < copies:
                self.error("E218", f"level.knock_back: a {key} of one card needs {copies} decks; "
                                   f"equipment.decks is {decks}", origins["level.knock_back"].span)
        if "min_points" in knock and decks is not None and knock["min_points"] > 100 * decks * 4:
            self.error("E218", f"level.knock_back: min_points {knock['min_points']} is out of reach: a hand of "
                               f"{decks} deck(s) counts {100 * decks} card points (kitty multipliers included, "
                               f"at most {400 * decks} is accepted)", origins["level.knock_back"].span)
        banned = values.get("throw.banned_in")
        if banned and (len(banned) == 2 or not values.get("throw.allowed", True)):
            self.error("E230", "throw.banned_in " + ("bans every throw: write throw.allowed = false instead"
                                                     if len(banned) == 2 else
                                                     "has nothing to ban: throw.allowed = false bans every throw"),
                       origins["throw.banned_in"].span)
        for key in ("declare.joker_count", "declare.jokers_when"):
            if key in values and values.get("declare.joker_pairs") is False:
                self.error("E232", f"{key} has nothing to rule: declare.joker_pairs = false, jokers never declare",
                           origins[key].span)
        banker, moves = values.get("declare.first_hand_banker"), values.get("declare.overcall_moves_bank")
        if banker is not None and moves is not None and (banker == "last_declarer") != (moves != "never"):
            self.error("E233", f"declare.first_hand_banker = {banker} needs declare.overcall_moves_bank = "
                               f"{'first_hand or every_hand' if banker == 'last_declarer' else 'never'} (it is "
                               f"{moves}): both say whether an overcall in the first hand takes the bank (抢庄)",
                       origins["declare.first_hand_banker"].span)
        table = values.get("throw.penalty_by_blocked")
        if table is not None and "triple" not in table and values.get("equipment.decks", 2) >= 3:
            self.error("E231", f"throw.penalty_by_blocked names no price for a triple, which "
                               f"{values['equipment.decks']} decks can block a throw with",
                       origins["throw.penalty_by_blocked"].span)
        if values.get("follow.fill") == "lowest_first" and values.get("equipment.decks", 2) > 2:
            self.error("E236", "follow.fill = lowest_first dictates the fill of a tractor of pairs with two decks; with "
                               f"{values['equipment.decks']} decks tractors of triples have no such fill stated",
                       origins["follow.fill"].span)
        if values.get("level.end_on") == "reach":
            end = values.get("level.end")
            if end is None:
                self.error("E235", "level.end_on = reach needs a level.end for a team to reach",
                           origins["level.end_on"].span)
            elif end in (*values.get("level.must_play", ()), *values.get("level.must_defend", ())):
                self.error("E235", f"level.end_on = reach ends the game on reaching {end}, which level.must_play or "
                                   f"level.must_defend makes a level to be played", origins["level.end_on"].span)
        if values.get("level.wrap") and values.get("level.end") is not None:
            self.error("E215", f"level.wrap = true needs level.end = none: a climb that wraps past "
                               f"{ranks[-1]} never passes {values['level.end']}", origins["level.wrap"].span)
        for v in values.get("trump.fixed_ranks", ()):
            if v in ranks:
                self.error("E207", f"rank {v} is both a fixed trump and a level", origins["trump.fixed_ranks"].span)
        order = values.get("trump.order")
        if order is not None:
            missing = [t for t in ("big_joker", "small_joker", "trump_level", "off_level", "trump_suit")
                       if t not in order]
            if set(missing) == {"trump_level", "off_level"}:
                missing = []  # the level cards stay in their suits (V06)
            named = values.get("trump.named_cards")
            if ("named" in order) != bool(named):
                where = origins["trump.named_cards" if named else "trump.order"].span
                self.error("E213", "trump.named_cards and the tier 'named' of trump.order go together: "
                           + ("the cards are named but trump.order has no tier 'named'" if named
                              else "trump.order has the tier 'named' but trump.named_cards names no card"), where)
            if missing:
                self.error("E208", f"trump.order lacks {', '.join(missing)}"
                           + (" (trump_level and off_level may be left out together)"
                              if {"trump_level", "off_level"} & set(missing) else ""), origins["trump.order"].span)
            by_suit = values.get("trump.off_suit_order")
            if by_suit is not None:
                lacking = [x for x in ("spades", "hearts", "diamonds", "clubs") if x not in by_suit]
                if lacking:
                    self.error("E234", f"trump.off_suit_order lacks {', '.join(lacking)}: it ranks the off-suit "
                                       "trumps of one rank by suit, so it names all four suits (any may be trump)",
                               origins["trump.off_suit_order"].span)
                elif not {"off_level", "off_fixed"} & set(order):
                    self.error("E234", "trump.off_suit_order has nothing to rank: trump.order has neither the tier "
                                       "off_level nor off_fixed", origins["trump.off_suit_order"].span)
            if values.get("trump.fixed_ranks") and not {"trump_fixed", "off_fixed"} <= set(order):
                self.error("E209", "fixed trump ranks need the tiers trump_fixed and off_fixed in trump.order",
                           origins["trump.order"].span)
            for pair in values.get("tractor.junctions", ()):
                if len(pair) != 2 or any(t not in order for t in pair):
                    self.error("E210", f"junction {list(pair)} must name two tiers of trump.order",
                               origins["tractor.junctions"].span)
                elif pair[0] == pair[1]:
                    self.error("E216", f"junction [{pair[0]}, {pair[1]}] joins a tier to itself: a junction "
                                       "chains the boundary cards of two different tiers (equal cards of one tier "
                                       "hold one place and never chain)", origins["tractor.junctions"].span)

    def check_reach(self, values, origins, ladders) -> None:
        """Warn of settings that can never apply: ladders and entries for tractors the ruleset has none of."""
        elements, decks = values.get("tractor.elements"), values.get("equipment.decks")
        if elements is None or decks is None:
            return
        sizes = {"pair": 2, "triple": 3}
        made = [e for e in elements if sizes[e] <= decks]
        min_length = values.get("tractor.min_length", 2)

        def none_of(element: str, length: int | None) -> str | None:
            if element not in sizes or (length is not None and length < 2):
                return None  # not a tractor at all: E301, E302
            if sizes[element] > decks:
                return f"{decks} deck(s) hold no {element}"
            if element not in made:
                return f"tractor.elements = [{', '.join(elements)}] makes no tractor of {element}s"
            if length is not None and length < min_length:
                return f"tractor.min_length = {min_length} makes no tractor of {length} {element}s"
            return None

        for lead, ladder, origin in ladders.values():
            if lead.unit == "tractor":
                why = none_of(lead.element, lead.length)
            else:  # a single, pair or triple led: only the decks can rule it out
                why = f"{decks} deck(s) hold no {lead.unit}" if sizes.get(lead.unit, 0) > decks else None
            if why:
                self.warn("W311", f"the follow ladder for '{lead}' can never apply: {why}", lead.span)
                continue
            for entry in ladder:
                for term in entry.terms:
                    shape = term.shape
                    why = none_of(shape.element, shape.length) if shape.unit == "tractor" else None
                    if why:
                        self.warn("W311", f"follow entry '{entry}' can never be played: {why}", shape.span)
        if values.get("tractor.mixed") and len(made) < 2:
            self.warn("W311", "tractor.mixed = true can never apply: a mixed tractor needs both pairs and triples "
                              f"(tractor.elements = [{', '.join(elements)}], {decks} deck(s))",
                      origins["tractor.mixed"].span)

    # --- coverage of the inventory ---
    def check_coverage(self) -> None:
        for name, rs in self.lib.rulesets.items():
            if len(rs.lineage) > 1 or rs.document is None:
                continue
            cited = {c for clause in rs.clauses for c in clause.cites}
            interpreted = {c for clause in rs.clauses if clause.status == "interpreted" for c in clause.cites}
            missing = [i for i in inventory.ids_of(rs.document) if i not in cited]
            if missing:
                self.error("E601", f"ruleset '{name}' leaves source clauses of document {rs.document} uncovered: "
                                   + ", ".join(missing), self.lib.parsed[name].span)
            gaps = [i for i in inventory.ids_of(rs.document, gaps=True) if i not in interpreted]
            if gaps:
                self.error("E602", f"ruleset '{name}' resolves no interpretation for the gaps "
                                   + ", ".join(gaps), self.lib.parsed[name].span)


def multiplier_problem(formula: Formula, counts: range) -> tuple[int, "FormulaError | int"] | None:
    """Why a kitty multiplier's ``formula`` is refused at the card counts ``counts`` (None: it is not): the
    first count where a part leaves the formula bounds (E211: the :class:`FormulaError`) or the value is
    not a multiplier from 0 to :data:`~tractor_dsl.limits.MULTIPLIER_MAX` (E212: the value). A formula
    over ``pairs`` is read at every pair count a unit of that many cards may hold (0 to half its cards)."""
    for n in counts:
        for pairs in range(n // 2 + 1) if formula.uses_pairs else (0,):   # a unit of n cards holds 0 to n // 2 pairs
            try:
                value = formula(n, pairs)
            except FormulaError as e:
                return n, e
            if not 0 <= value <= limits.MULTIPLIER_MAX:
                return n, value
    return None


def multiplier_counts(table: dict, hand_size: int) -> dict[str, range]:
    """The card counts each row of a kitty multiplier table is read at (see :mod:`reference_impl.kitty`):
    a single 1, a pair 2, a triple 3, a tractor 4 up to the hand size (and 3 when the table has no
    ``triple``), a throw 2 up to the hand size (and the tractor row's too when it has no ``throw``)."""
    high = max(hand_size, 4) + 1
    counts = {"single": range(1, 2), "pair": range(2, 3), "triple": range(3, 4), "tractor": range(4, high),
              "throw": range(2, high)}
    if "triple" not in table:
        counts["tractor"] = range(3, high)
    if "throw" not in table:
        counts["tractor"] = range(2, high)
    return {shape: counts[shape] for shape in table if shape in counts}


def coverage(rs: CheckedRuleset) -> dict[str, Any]:
    """Which inventory ids of its document a ruleset cites."""
    if rs.document is None:
        return {"document": None, "covered": [], "missing": [], "gaps": [], "gaps_missing": []}
    cited = {c for clause in rs.clauses for c in clause.cites}
    ids = inventory.ids_of(rs.document)
    gaps = inventory.ids_of(rs.document, gaps=True)
    return {
        "document": rs.document,
        "covered": [i for i in ids if i in cited],
        "missing": [i for i in ids if i not in cited],
        "gaps": [g for g in gaps if g in cited],
        "gaps_missing": [g for g in gaps if g not in cited],
    }
