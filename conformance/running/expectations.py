"""Known deviations of an engine (``tractor conform --expect FILE``), and writing them (``--write-expect``).

An entry selects cases by ``case`` (an id, or a glob over ids), ``op``,
``ruleset``, ``clause`` (every case that consulted it) or ``finding`` (every
failing case a finding explains: see :mod:`conformance.analysis.attribution`), all of
those it gives at once. A selected failure becomes ``xfail``. What a selected
*pass* becomes depends on how narrow the entry is:

* an entry with a ``case`` selector is strict: a pass is an ``xpass``, a
  failure of the run (the engine was fixed; the entry should go);
* an entry selecting by ``op``, ``ruleset``, ``clause`` or ``finding`` only
  leaves passes as passes (it describes a feature, not a list of cases),
  unless it says ``strict = true``.

Entries with a ``finding`` are applied after the failures are analysed, the
others as the run ends.
"""
from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass
from pathlib import Path

from conformance.protocol import messages as protocol


@dataclass
class Deviation:
    reason: str
    case: str | None = None
    op: str | None = None
    ruleset: str | None = None
    clause: str | None = None
    finding: str | None = None
    strict: bool | None = None
    issue: str | None = None
    matched: int = 0

    @property
    def is_strict(self) -> bool:
        """Whether a selected pass is an ``xpass`` failure: by default only for entries naming cases."""
        return self.strict if self.strict is not None else self.case is not None

    def matches(self, case: dict, finding_of: dict[str, str] | None = None) -> bool:
        if self.case is not None and not fnmatch.fnmatchcase(case["id"], self.case):
            return False
        if self.op is not None and case["op"] != self.op:
            return False
        if self.ruleset is not None and case["ruleset"] != self.ruleset:
            return False
        if self.clause is not None and self.clause not in case.get("clauses", ()):
            return False
        if self.finding is not None and (finding_of or {}).get(case["id"]) != self.finding:
            return False
        return True

    def label(self) -> str:
        parts = [f"{k}={v}" for k, v in (("case", self.case), ("op", self.op), ("ruleset", self.ruleset),
                                          ("clause", self.clause), ("finding", self.finding)) if v is not None]
        return ", ".join(parts) + (", strict" if self.strict else "")


class ExpectationError(ValueError):
    pass


def load_expectations(path: str | Path) -> list[Deviation]:
    """Read an expectation file (JSON, or TOML by its .toml suffix) of known deviations."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ExpectationError(f"{path}: {e.strerror or e}") from None
    try:
        if path.suffix == ".toml":
            import tomllib
            data = tomllib.loads(text)
        else:
            data = json.loads(text)
    except ValueError as e:
        raise ExpectationError(f"{path}: not valid {'TOML' if path.suffix == '.toml' else 'JSON'}: {e}") from None
    errors = protocol.schema_errors("expectations", data)
    if errors:
        raise ExpectationError(f"{path}: " + "; ".join(errors))
    return [Deviation(**d) for d in data["deviations"]]


def apply_expectations(cases: list[dict], outcomes: list, deviations: list[Deviation],
                       finding_of: dict[str, str] | None = None) -> None:
    """Known deviations: a selected failure becomes ``xfail``; a selected pass is an ``xpass`` (a failure)
    when the entry is strict, else stays a pass. Without ``finding_of`` (case id -> the feature of the
    finding that explains it) entries with a ``finding`` are left for :func:`apply_finding_expectations`."""
    active = [d for d in deviations if (d.finding is None) == (finding_of is None)]
    if not active:
        return
    for i, case in enumerate(cases):
        o = outcomes[i]
        if finding_of is not None and o.status in ("xfail", "xpass"):
            continue   # settled by an entry of the first pass
        for d in active:
            if d.matches(case, finding_of):
                d.matched += 1
                if o.status in ("fail", "errored"):
                    o.message = f"known deviation ({d.reason}): {o.message}"
                    o.status = "xfail"
                elif o.status == "pass" and d.is_strict:
                    o.status, o.kind = "xpass", "fixed"
                    o.message = (f"listed as a known deviation ({d.reason}) but passes: "
                                 f"remove it from the expectation file")
                break


def apply_finding_expectations(result) -> None:
    """The entries selecting by ``finding``, once the run's findings are known (ruleset-scoped features)."""
    pending = [d for d in result.deviations if d.finding is not None]
    if not pending:
        return
    finding_of = {cid: f.feature for f in result.findings for cid in f.cases}
    apply_expectations(result.cases, result.outcomes, pending, finding_of)
    for d in pending:
        if d.matched == 0:
            result.events.append({"kind": "stale_expectation",
                                  "message": f"no case matched the expected deviation ({d.label()})"})


def written_expectations(result) -> dict:
    """The run's failures as an expectation file: one entry per finding (its ruleset and feature, the
    finding as its reason), then every other failing case by id (``--write-expect FILE``)."""
    hs = result.handshake or {}
    ruleset_of = {c["id"]: c["ruleset"] for c in result.cases}
    entries, covered = [], set()
    for f in result.findings:
        rulesets = sorted({ruleset_of[cid] for cid in f.cases if cid in ruleset_of})
        covered.update(f.cases)
        entries.append({"ruleset": rulesets[0] if len(rulesets) == 1 else None, "finding": f.feature,
                        "reason": f"{f.feature} [{f.clause}]: the engine answers as if {'; '.join(f.engine)} "
                                  f"(the spec: {f.spec}); {len(f.cases)} case(s)"})
    unexplained = set(result.unexplained)
    for case, o in zip(result.cases, result.outcomes):
        if o is None or case["id"] in covered or o.status not in ("fail", "errored", "xfail"):
            continue
        why = "unexplained: no single feature gives the engine's answer" if case["id"] in unexplained else \
            f"{o.status}: {o.kind or 'disagrees'}"
        entries.append({"case": case["id"], "reason": f"{why} ({o.message[:200]})" if o.message else why})
    for e in entries:
        if e.get("ruleset") is None:
            e.pop("ruleset", None)
    out = {"deviations": entries}
    if hs.get("name"):
        out = {"engine": f"{hs['name']} {hs.get('version', '')}".strip(), **out}
    return out


def expectations_text(data: dict, toml: bool = False) -> str:
    """An expectation file's text: JSON, or TOML (``[[deviations]]`` tables)."""
    if not toml:
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    lines = []
    if "engine" in data:
        lines += [f"engine = {json.dumps(data['engine'], ensure_ascii=False)}", ""]
    for d in data["deviations"]:
        lines.append("[[deviations]]")
        lines += [f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in d.items()]
        lines.append("")
    return "\n".join(lines)
