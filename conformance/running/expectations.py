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
import heapq
import json
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Iterator

from conformance.protocol import jsonlines
from conformance.protocol import messages as protocol
from tractor_dsl import limits


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

    @cached_property
    def _case_pattern(self):
        """The ``case`` selector as a compiled glob (None for an exact id: compared as a string)."""
        if self.case is None or not _GLOB.search(self.case):
            return None
        return re.compile(fnmatch.translate(self.case))

    def matches(self, case: dict, finding_of: dict[str, str] | None = None) -> bool:
        if self.case is not None:
            pattern = self._case_pattern
            if not (pattern.match(case["id"]) if pattern is not None else case["id"] == self.case):
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


_GLOB = re.compile(r"[*?\[]")


def _bucket(d: Deviation) -> tuple:
    """Which cases an entry can select at all, as a key of :func:`_index`: an exact id, the
    ``ruleset:op:`` its glob starts with, its operation, or any case."""
    if d.case is not None:
        glob = _GLOB.search(d.case)
        if glob is None:
            return ("exact", d.case)
        prefix = d.case[:glob.start()]
        if prefix.count(":") >= 2:
            return ("id", prefix[:_second_colon(prefix) + 1])
    if d.op is not None:
        return ("op", d.op)
    return ("any",)


def _second_colon(text: str) -> int:
    return text.index(":", text.index(":") + 1)


def _index(deviations: list[Deviation]) -> dict[tuple, list[int]]:
    """The entries' positions by :func:`_bucket`, each list in file order."""
    out: dict[tuple, list[int]] = {}
    for i, d in enumerate(deviations):
        out.setdefault(_bucket(d), []).append(i)
    return out


def _candidates(index: dict[tuple, list[int]], case: dict) -> Iterator[int]:
    """The positions of the entries that can select ``case``, in file order (the first that matches wins)."""
    cid = case["id"]
    keys = [("exact", cid), ("op", case["op"]), ("any",)]
    if cid.count(":") >= 2:
        keys.append(("id", cid[:_second_colon(cid) + 1]))
    lists = [index[k] for k in keys if k in index]
    return lists[0] if len(lists) == 1 else heapq.merge(*lists)


def load_expectations(path: str | Path) -> list[Deviation]:
    """Read an expectation file (JSON, or TOML by its .toml suffix) of known deviations.

    Every problem is an :class:`ExpectationError` naming the file (and the line and column where there is
    one): unreadable, more than :data:`~tractor_dsl.limits.EXPECT_BYTES` (read no further, so
    ``/dev/zero`` ends), not UTF-8, not JSON or TOML, nested deeper than a message may be
    (:data:`~tractor_dsl.limits.JSON_DEPTH`), a key given twice, or an entry its schema refuses."""
    path = Path(path)
    try:
        data = jsonlines.read_capped(path, limits.EXPECT_BYTES)
    except jsonlines.FileTooLarge as e:
        raise ExpectationError(str(e)) from None
    except OSError as e:
        raise ExpectationError(f"{path}: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line, column = jsonlines.position(data, e.start)
        raise ExpectationError(f"{path}:{line}:{column}: not UTF-8 (byte 0x{data[e.start]:02x})") from None
    toml = path.suffix == ".toml"
    value = _parse(path, text, toml)
    if jsonlines.depth(value) > limits.JSON_DEPTH:
        raise ExpectationError(f"{path}: nested more than {limits.JSON_DEPTH} levels deep")
    errors = protocol.schema_errors("expectations", value)
    if errors:
        raise ExpectationError(f"{path}{_entry_line(text, toml, errors[0])}: " + "; ".join(errors))
    return [Deviation(**d) for d in value["deviations"]]


_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")


def _parse(path: Path, text: str, toml: bool):
    what = "TOML" if toml else "JSON"
    try:
        if toml:
            import tomllib
            return tomllib.loads(text)
        return jsonlines.loads_json(text, str(path))   # the one JSON reader of every tool
    except jsonlines.JsonFileError as e:
        raise ExpectationError(str(e)) from None
    except RecursionError:
        raise ExpectationError(f"{path}: not valid {what}: nested more than {limits.JSON_DEPTH} levels deep") from None
    except json.JSONDecodeError as e:
        raise ExpectationError(f"{path}:{e.lineno}:{e.colno}: not valid JSON: {e.msg}") from None
    except ValueError as e:   # tomllib.TOMLDecodeError, a key given twice, a number of too many digits
        message = str(e)
        at = _TOML_AT.search(message)
        where = f":{at.group(1)}:{at.group(2)}" if at else ""
        raise ExpectationError(f"{path}{where}: not valid {what}: {_TOML_AT.sub('', message)}"[:500]) from None



def _entry_line(text: str, toml: bool, error: str) -> str:
    """``:LINE`` of the entry a schema error names (``deviations/3/...``), when it can be found."""
    found = re.match(r"deviations/(\d+)", error)
    if not found:
        return ""
    index = int(found.group(1))
    if toml:
        heads = [m.start() for m in re.finditer(r"^[ \t]*\[\[[ \t]*deviations[ \t]*\]\]", text, re.M)]
        return f":{text.count(chr(10), 0, heads[index]) + 1}" if index < len(heads) else ""
    array = re.search(r'"deviations"\s*:\s*\[', text)
    if array is None:
        return ""
    decoder, pos = json.JSONDecoder(), array.end()
    try:
        for i in range(index + 1):
            while text[pos] in " \t\r\n,":
                pos += 1
            if i == index:
                return f":{text.count(chr(10), 0, pos) + 1}"
            pos = decoder.raw_decode(text, pos)[1]
    except (ValueError, IndexError, RecursionError):
        return ""
    return ""


def apply_expectations(cases: list[dict], outcomes: list, deviations: list[Deviation],
                       finding_of: dict[str, str] | None = None) -> None:
    """Known deviations: a selected failure becomes ``xfail``; a selected pass is an ``xpass`` (a failure)
    when the entry is strict, else stays a pass. Without ``finding_of`` (case id -> the feature of the
    finding that explains it) entries with a ``finding`` are left for :func:`apply_finding_expectations`."""
    active = [d for d in deviations if (d.finding is None) == (finding_of is None)]
    if not active:
        return
    index = _index(active)   # each case is tried against the entries that can select it, not all of them
    for i, case in enumerate(cases):
        o = outcomes[i]
        if finding_of is not None and o.status in ("xfail", "xpass"):
            continue   # settled by an entry of the first pass
        for k in _candidates(index, case):
            d = active[k]
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
    """An expectation file's text: JSON, or TOML (``[[deviations]]`` tables). Every string is written so
    that :func:`load_expectations` reads it back the same: lone surrogates (which no UTF-8 file holds)
    become U+FFFD, and in TOML every control character (DEL and U+0080-U+009F too, which TOML or a
    terminal would not take raw) is written as its ``\\uXXXX`` escape."""
    data = jsonlines.scrub(data)
    if not toml:
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    lines = []
    if "engine" in data:
        lines += [f"engine = {_toml_value(data['engine'])}", ""]
    for d in data["deviations"]:
        lines.append("[[deviations]]")
        lines += [f"{k} = {_toml_value(v)}" for k, v in d.items()]
        lines.append("")
    return "\n".join(lines)


_TOML_RAW_CONTROL = re.compile("[\x7f-\x9f]")


def _toml_value(value) -> str:
    """A string, number or boolean as TOML (JSON's string escapes are TOML's; DEL and C1 escaped too)."""
    text = json.dumps(value, ensure_ascii=False)
    return _TOML_RAW_CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text) if isinstance(value, str) else text
