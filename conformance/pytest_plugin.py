"""A pytest plugin: the generated conformance suite as pytest tests, in any directory.

    pytest --tractor-engine "./my-engine --protocol" --tractor-ruleset r003 -p conformance.pytest_plugin
    pytest --tractor-engine "node engine.js" --tractor-ruleset r001,r003 --tractor-ops classify,follow \
           --tractor-profile thorough --tractor-seed 7

The plugin is also installed as the ``pytest11`` entry point ``tractor``, so
``-p conformance.pytest_plugin`` is only needed where pytest's plugin
autoloading is off (``PYTEST_DISABLE_PLUGIN_AUTOLOAD``); both ways load it once.

Without ``--tractor-engine`` the plugin only adds its options: it collects
nothing and changes nothing. With it, the session gains one test per ruleset
and operation, ``tractor::<ruleset>.<op>`` (select with ``-k``, e.g. ``-k "r003 and follow"``), next to
whatever pytest collects from the command line. Each test runs
:func:`conformance.generation.suite.check_operation` against one engine process shared by
the whole session (:class:`conformance.generation.suite.ProcessEngine`):

* the engine agrees on every position drawn: the test passes;
* the engine disagrees (or answers ``errored``): Hypothesis shrinks the
  position through the engine and the test fails with
  :meth:`Disagreement.render` -- the deciding clause ids, the position drawn as
  cards, both answers and a vector line to paste into a regression test;
* the engine does not list the operation or the ruleset in its handshake, or
  answers ``skipped`` for every position: the test is skipped with the reason.

Options (each also readable from an ini file: ``tractor_engine = ...``):

``--tractor-engine CMD``     the engine command (split like a shell, run without one)
``--tractor-ruleset R,...``  rulesets (repeatable, comma-separated, ``all``; default all)
``--tractor-ops OP,...``     operations (repeatable, comma- or space-separated; default all but ``hand``)
``--tractor-profile P``      ``quick`` (default, for CI) or ``thorough`` (a release)
``--tractor-seed S``         the Hypothesis seed (default 0): the same seed draws the same positions
``--tractor-timeout SECONDS`` per-request timeout (default 10)
``--tractor-default-suite``  also run ``tractor conform``'s default suite through :func:`conformance.conform.conform`,
                             one more test per ruleset, ``tractor::<ruleset>.default``
``--tractor-hands``          also play whole hands through the engine (:mod:`conformance.generation.stateful`):
                             one more test per ruleset, ``tractor::<ruleset>.hands``
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ENTRY_POINT = "tractor"          # [project.entry-points.pytest11] tractor = "conformance.pytest_plugin"
MODULE = __name__                # "conformance.pytest_plugin", the name -p registers it under
_ENGINE = pytest.StashKey()      # config.stash: the shared ProcessEngine (or the error starting it)
_SETTINGS = pytest.StashKey()    # config.stash: the Settings, present only when --tractor-engine is given


# --------------------------------------------------------------------------- loading once

@pytest.hookimpl
def pytest_addhooks(pluginmanager):
    """Block the other name this module could be registered under, so it is registered once.

    ``-p conformance.pytest_plugin`` registers the module under its module name
    before pytest autoloads entry points; loading the ``tractor`` entry point
    (the same module) afterwards would be refused by pluggy as a second
    registration. The reverse holds for ``pytest_plugins`` naming the module
    after the entry point was loaded.
    """
    me = sys.modules[__name__]
    name = pluginmanager.get_name(me)
    other = ENTRY_POINT if name != ENTRY_POINT else MODULE
    if pluginmanager.get_plugin(other) is None and not pluginmanager.is_blocked(other):
        pluginmanager.set_blocked(other)


# --------------------------------------------------------------------------- options

def pytest_addoption(parser):
    group = parser.getgroup("tractor", "Tractor rulebook conformance (conformance.pytest_plugin)")
    group.addoption("--tractor-engine", metavar="CMD", default=None,
                    help="run the generated conformance suite against this engine command "
                         "(JSON-lines engine protocol); without it the plugin does nothing")
    group.addoption("--tractor-ruleset", metavar="R", action="append", default=None,
                    help="ruleset(s) to check: repeatable or comma-separated, 'all' for every one (default all)")
    group.addoption("--tractor-ops", metavar="OP", nargs="+", action="extend", default=None,
                    help="operations to check (comma- or space-separated; default: every operation but 'hand')")
    group.addoption("--tractor-profile", metavar="P", default=None, choices=("quick", "thorough"),
                    help="quick (default: about 40 positions per operation) or thorough (about 400)")
    group.addoption("--tractor-seed", metavar="S", type=int, default=None,
                    help="seed of the positions drawn (default 0)")
    group.addoption("--tractor-timeout", metavar="SECONDS", type=float, default=None,
                    help="per-request timeout (default 10 s)")
    group.addoption("--tractor-default-suite", action="store_true", default=False,
                    help="also run the default suite of `tractor conform` (decision positions and the seeded random "
                         "complement, with findings) through conformance.conform, one test per ruleset")
    group.addoption("--tractor-hands", action="store_true", default=False,
                    help="also play whole hands through the engine (conformance.generation.stateful), one test per ruleset")
    parser.addini("tractor_engine", "engine command for the conformance suite (as --tractor-engine)", default="")
    # list options are ini type "args" (split like a shell: "r000 r003", commas split later too): a bare
    # string would be iterated letter by letter
    parser.addini("tractor_ruleset", "rulesets for the conformance suite (as --tractor-ruleset)", type="args",
                  default=[])
    parser.addini("tractor_ops", "operations for the conformance suite (as --tractor-ops)", type="args", default=[])
    parser.addini("tractor_profile", "quick or thorough (as --tractor-profile)", default="")
    parser.addini("tractor_seed", "seed (as --tractor-seed)", default="")


def _split(values) -> list[str]:
    """Names from option values: each may hold several, separated by commas or spaces."""
    if isinstance(values, str):
        values = [values]
    out: list[str] = []
    for v in values or ():
        out += [x.strip() for x in str(v).replace(",", " ").split() if x.strip()]
    return out


class Settings:
    """The plugin's settings, read from the command line (first) or the ini file."""

    def __init__(self, config):
        def pick(opt, ini):
            v = config.getoption(opt)
            return v if v not in (None, [], "") else (config.getini(ini) or None)

        self.engine: str | None = pick("tractor_engine", "tractor_engine")
        self.rulesets = _split(pick("tractor_ruleset", "tractor_ruleset") or ["all"])
        self.ops = _split(pick("tractor_ops", "tractor_ops") or [])
        self.profile = pick("tractor_profile", "tractor_profile") or "quick"
        # the ini's seed is read (and a bad one refused) only when an engine is configured: a project's
        # ini with a typo must not break every pytest run that has nothing to do with the suite
        self._seed = pick("tractor_seed", "tractor_seed")
        self.seed = 0
        timeout = config.getoption("tractor_timeout")
        self.timeout = 10.0 if timeout is None else timeout
        self.hands = bool(config.getoption("tractor_hands"))
        self.default_suite = bool(config.getoption("tractor_default_suite"))
        self.root = config.rootpath          # a relative rule file is looked for here too

    def validate(self) -> None:
        if self._seed is not None:
            try:
                self.seed = int(str(self._seed).strip())
            except ValueError:
                raise pytest.UsageError(f"tractor_seed: {str(self._seed)[:60]!r} is not a whole number "
                                        "(the seed of the positions drawn, e.g. tractor_seed = 7)") from None
        from reference_impl.rules import is_rule_file, rules_for, ruleset_names
        from tractor_dsl.diagnostics import SpecError
        from conformance.protocol.messages import OPERATIONS
        known = ruleset_names()
        if "all" in self.rulesets:
            self.rulesets = known
        named = []
        for r in self.rulesets:      # a user's rule file: its ruleset, known by its own name from now on
            if is_rule_file(r):
                path = r if os.path.exists(r) else str(self.root / r)
                try:
                    r = rules_for(path).name
                except SpecError as e:
                    raise pytest.UsageError(f"--tractor-ruleset {r}:\n" + "\n".join(
                        d.headline() for d in e.diagnostics)) from None
                known = known + [r]
            named.append(r)
        self.rulesets = named
        bad = [r for r in self.rulesets if r not in known]
        if bad:
            raise pytest.UsageError(f"--tractor-ruleset: unknown ruleset(s) {', '.join(bad)} "
                                    f"(known: {', '.join(known)}, all)")
        generated = [op for op in OPERATIONS if op != "hand"]   # 'hand' has no generated positions
        self.ops = self.ops or generated
        bad = [op for op in self.ops if op not in generated]
        if bad:
            raise pytest.UsageError(f"--tractor-ops: unknown operation(s) {', '.join(bad)} "
                                    f"(known: {', '.join(generated)}); put --tractor-ops after any path "
                                    f"arguments or separate operations with commas")
        if not 0 < self.timeout < float("inf"):   # nan fails both comparisons
            raise pytest.UsageError(f"--tractor-timeout: {self.timeout} is not a number of seconds above 0")
        if self.profile not in ("quick", "thorough"):
            raise pytest.UsageError(f"tractor_profile: {self.profile!r} is not quick or thorough")


def _settings(config) -> Settings | None:
    return config.stash.get(_SETTINGS, None)


def pytest_configure(config):
    s = Settings(config)
    if not s.engine:
        return
    s.validate()
    config.stash[_SETTINGS] = s
    config.addinivalue_line("markers", "tractor_conformance: a generated conformance test of an engine")


def pytest_report_header(config):
    s = _settings(config)
    if s is None:
        return None
    return (f"tractor conformance: engine {s.engine!r}; rulesets {', '.join(s.rulesets)}; "
            f"ops {', '.join(s.ops)}; profile {s.profile}; seed {s.seed}")


def pytest_unconfigure(config):
    engine = config.stash.get(_ENGINE, None)
    if engine is not None and not isinstance(engine, BaseException):
        engine.close()


# --------------------------------------------------------------------------- collection

class EngineFailure(Exception):
    """A disagreement (or an engine failure) to report as a test failure."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


class TractorSuite(pytest.Collector):
    """The conformance tests of one session: one :class:`OperationItem` per ruleset and operation."""

    def collect(self):
        """The tests of the rulesets and operations asked for."""
        s = _settings(self.config)
        for ruleset in s.rulesets:
            for op in s.ops:
                yield OperationItem.from_parent(self, name=f"{ruleset}.{op}", ruleset=ruleset, op=op)
            if s.hands:
                yield HandsItem.from_parent(self, name=f"{ruleset}.hands", ruleset=ruleset, op="hands")
            if s.default_suite:
                yield DefaultSuiteItem.from_parent(self, name=f"{ruleset}.default", ruleset=ruleset, op="default")


class OperationItem(pytest.Item):
    """``check_operation(ProcessEngine(cmd), ruleset, op, profile, seed)`` as a test."""

    def __init__(self, *, ruleset: str, op: str, **kw):
        super().__init__(**kw)
        self.ruleset = ruleset
        self.op = op
        self.add_marker("tractor_conformance")
        self.user_properties.append(("tractor_operation", f"{ruleset}.{op}"))

    def _engine(self):
        config = self.config
        engine = config.stash.get(_ENGINE, None)
        if engine is None:
            from conformance.generation.suite import ProcessEngine
            s = _settings(config)
            engine = ProcessEngine(s.engine, timeout=s.timeout)
            try:
                engine.supports(self.op, self.ruleset)        # starts it: the handshake
            except Exception as e:  # cannot start, no handshake, bad handshake: every test errors
                engine.close()
                engine = e
            config.stash[_ENGINE] = engine
        if isinstance(engine, BaseException):
            raise EngineFailure(f"the engine could not be started: {engine.__class__.__name__}: {engine}")
        return engine

    def runtest(self):
        """Check the operation; skip it when the engine does not support it."""
        from conformance.generation.suite import check_operation
        s = _settings(self.config)
        engine = self._engine()
        if not engine.supports(self.op, self.ruleset):
            hs = engine.handshake or {}
            what = "ruleset" if self.op in hs.get("operations", ()) else "operation"
            pytest.skip(f"the engine's handshake does not list this {what} "
                        f"(rulesets {hs.get('rulesets')}, operations {hs.get('operations')})")
        from conformance.protocol.messages import coverage_note, narrowed
        note = coverage_note(self.op, engine.fields[self.op]) if self.op in narrowed(engine.fields) else ""
        if note:  # partial answers, declared: said in --junitxml and with any failure
            self.user_properties.append(("compared", note))
        outcome = check_operation(engine, self.ruleset, self.op, s.profile, s.seed)
        self.user_properties.append(("examples", outcome.examples))
        if outcome.status == "skipped":
            pytest.skip(f"the engine answered skipped: {outcome.skipped_reason}")
        if outcome.disagreement is not None:
            d = outcome.disagreement
            replay = (f"  replay: pytest --tractor-engine {_quote(s.engine)} --tractor-ruleset {self.ruleset} "
                      f"--tractor-ops {self.op} --tractor-profile {s.profile} --tractor-seed {s.seed}")
            raise EngineFailure(d.render() + "\n" + replay + (f"\n  ({note})" if note else ""))

    def repr_failure(self, excinfo, style=None):
        """A disagreement as :meth:`Disagreement.render` draws it (no traceback)."""
        if isinstance(excinfo.value, EngineFailure):
            return excinfo.value.text
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self):
        """The test's title in reports."""
        return self.path, None, f"tractor conformance {self.ruleset} {self.op}"


HANDS_PROFILES = {"quick": {"max_examples": 5, "steps": 60}, "thorough": {"max_examples": 50, "steps": 120}}


class HandsItem(OperationItem):
    """Whole hands through the engine (:func:`conformance.generation.stateful.run_hands`), every judgment compared."""

    def runtest(self):
        """Play whole hands through the engine; fail on the first disagreement."""
        from conformance.generation.stateful import HandDisagreement, run_hands
        s = _settings(self.config)
        engine = self._engine()
        conf = HANDS_PROFILES[s.profile]
        try:
            machine = run_hands(engine, self.ruleset, conf["max_examples"], conf["steps"], seed=s.seed,
                                shrink=False)
        except HandDisagreement as e:
            notes = "\n".join(getattr(e, "__notes__", ()))
            raise EngineFailure(f"{e}\n{notes}") from None
        asked = sum(sum(run["asked"].values()) for run in machine.history)
        self.user_properties.append(("judgments", asked))
        if not asked:
            pytest.skip("the engine answered none of the judgments of a hand")

    def reportinfo(self):
        """The test's title in reports."""
        return self.path, None, f"tractor conformance {self.ruleset} whole hands"


class DefaultSuiteItem(OperationItem):
    """The default suite of ``tractor conform`` for one ruleset, run by the same function
    (:func:`conformance.conform.conform` with a :class:`conformance.plan.RunPlan`): it fails with the run's
    counts and findings, as the command's summary gives them."""

    def runtest(self):
        """Run the ruleset's default suite against the engine (in its own process); fail on any failure."""
        from conformance.conform import conform
        from conformance.plan import RunPlan
        from conformance.reporting.report import findings_lines
        s = _settings(self.config)
        plan = RunPlan(engines=[s.engine], rulesets=[self.ruleset], seed=s.seed, timeout=s.timeout, report=None,
                       ops=[op for op in s.ops if op != "hand"] or None, progress=False)
        done = conform(plan, echo=lambda line: None)
        if not done.results:
            raise EngineFailure(f"the default suite could not run: {done.problem}")
        result = done.results[0]
        t = result.counts()
        self.user_properties.append(("cases", len(result.cases)))
        if result.failed:
            lines = [f"{self.ruleset}: {t['pass']} pass, {t['fail'] + t['xpass']} fail, {t['errored']} errored "
                     f"of {len(result.cases)} cases (the default suite of tractor conform, seed {s.seed})"]
            lines += ["  " + line for line in findings_lines(result)]
            lines.append(f"  replay: tractor conform --engine {_quote(s.engine)} --ruleset {self.ruleset} "
                         f"--seed {s.seed}")
            raise EngineFailure("\n".join(lines))
        if t["pass"] == 0:
            pytest.skip(f"the engine judged none of the {len(result.cases)} cases (all skipped)")

    def reportinfo(self):
        """The test's title in reports."""
        return self.path, None, f"tractor conformance {self.ruleset} default suite"


def _quote(s: str) -> str:
    import shlex
    return shlex.quote(s)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    """Add the conformance tests (before ``-k`` / ``-m`` deselect among the items)."""
    if _settings(config) is None:
        return
    suite = TractorSuite.from_parent(session, name="tractor", nodeid="tractor", path=Path(config.rootpath))
    genitems = getattr(session, "genitems", None)   # reports the collection, so "collected N items" counts them
    items.extend(genitems(suite) if genitems is not None else suite.collect())
