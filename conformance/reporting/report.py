"""Reports of a conformance run: the terminal summary, JSON, JUnit XML and markdown.

Every case appears in every report. Passing cases are listed by id and
clauses only; the others carry their input, the expected answer and what the
engine said (bounded in size), so a report stays small whatever the engine
printed. Files are written atomically (a temporary file, then a rename), so
an interrupted run leaves either the old report or a complete new one.
"""
from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from tractor_dsl.diagnostics import showable
from tractor_dsl.files import target_problem, write_file, write_files

from conformance.protocol import messages as protocol
from conformance.protocol.inputs import draw_input, glyphs
from conformance.protocol.jsonlines import clean_text
from conformance.running.runner import STATUSES, RunResult
from conformance.reporting.escape import md_block, md_code, md_text
from conformance.reporting.labels import cluster_kind, texts, word
from conformance.reporting.names import case_title

COLUMNS = ("pass", "fail", "skipped", "errored")
NO_CLAUSE = "(no clause)"
# The cases whose answer no clause decides, named for what they are (docs/guide.rst, "Read the report"):
# a play that is not a play of the position (cards the hand does not hold, another number of cards than the
# lead) is refused by the protocol's well-formedness, not by a rule; a lead of one combination (a single, a
# pair, a triple) is legal because no rule restricts it.
WELL_FORMED = "(well-formedness: no rule)"
FREE_LEAD = "(unrestricted lead: no rule)"
UNCLAUSED = {"cards_not_held": WELL_FORMED, "wrong_card_count": WELL_FORMED, "empty_play": WELL_FORMED}
UNCLAUSED_ROWS = (WELL_FORMED, FREE_LEAD, NO_CLAUSE)


def unclaused_row(case: dict) -> str:
    """The row of the per-clause table for a case that consulted no clause (:data:`UNCLAUSED_ROWS`)."""
    reason = case.get("expected", {}).get("reason")
    if reason in UNCLAUSED:
        return UNCLAUSED[reason]
    if case.get("op") == "lead" and reason == "ok":
        return FREE_LEAD
    return NO_CLAUSE


# --------------------------------------------------------------------------- tallies

def _tally(result: RunResult, key) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for case, o in zip(result.cases, result.outcomes):
        for k in key(case, o):
            row = out.setdefault(k, dict.fromkeys(STATUSES, 0))
            row[o.status] += 1
    return out


def by_op(result: RunResult) -> dict[str, dict[str, int]]:
    rows = _tally(result, lambda c, o: [f"{c['ruleset']}.{c['op']}"])
    return dict(sorted(rows.items(), key=lambda kv: _op_order(kv[0])))


def _op_order(key: str):
    rs, op = key.rsplit(".", 1)
    return (rs, protocol.OPERATIONS.index(op) if op in protocol.OPERATIONS else 99)


def by_clause(result: RunResult) -> dict[str, dict[str, int]]:
    """Cases by clause: a failure counts against the clauses that decided the answer it got wrong
    (``Outcome.charged``, see conformance.analysis.attribution), any other case for every clause it consulted;
    a case that consulted none in the row that names why (:func:`unclaused_row`)."""
    rows = _tally(result, lambda c, o: (o.charged if o.charged else c.get("clauses")) or [unclaused_row(c)])
    return dict(sorted(rows.items()))


def compared_fields(result: RunResult) -> dict[str, list[str]]:
    """The fields each operation of the run was compared on (the handshake's ``fields``, else all)."""
    hs = result.handshake
    if not hs:
        return {}
    try:
        fields = protocol.declared_fields(hs)
    except protocol.ProtocolError:
        return {}
    ran = {c["op"] for c in result.cases}
    return {op: list(fields[op]) for op in protocol.OPERATIONS if op in ran and op in fields}


def coverage_notes(result: RunResult) -> list[str]:
    """One line per operation compared on fewer than all its fields: "follow compared on legal only (not reason)"."""
    return [protocol.coverage_note(op, fs) for op, fs in compared_fields(result).items()
            if tuple(fs) != protocol.COMPARED[op]]


def decision_points(result: RunResult) -> dict[str, dict[str, int]]:
    """Per ruleset, the decision points the run's cases decide (each follow rung, band edge, kitty row and
    reading the spec states: :mod:`conformance.generation.decisions`) and how many passed (every case deciding it
    passed), failed (one failed, errored or passed against an expectation) or were skipped."""
    worst: dict[tuple[str, str], str] = {}
    rank = {"pass": 0, "skipped": 1, "xfail": 1, "fail": 2, "xpass": 2, "errored": 2}
    for case, o in zip(result.cases, result.outcomes):
        for point in case.get("decides", ()):
            key = (case["ruleset"], point)
            if key not in worst or rank[o.status] > rank[worst[key]]:
                worst[key] = o.status
    out: dict[str, dict[str, int]] = {}
    for (ruleset, _), status in worst.items():
        row = out.setdefault(ruleset, {"total": 0, "pass": 0, "fail": 0, "skipped": 0})
        row["total"] += 1
        row[{0: "pass", 1: "skipped", 2: "fail"}[rank[status]]] += 1
    return dict(sorted(out.items()))


def decision_lines(result: RunResult, lang: str = "en", ruleset_name=str) -> list[str]:
    """What a run's verdict covers: a line per ruleset whose cases decide points of the spec, in ``lang`` (the
    sentences of :data:`conformance.reporting.labels.TEXTS`); ``ruleset_name`` shows a ruleset's id (a code span
    in the Chinese summary.md)."""
    T = texts(lang)
    lines = []
    for ruleset, row in decision_points(result).items():
        rest = "".join(T["decision.rest"].format(n=row[k], status=word(lang, k)) for k in ("fail", "skipped") if row[k])
        lines.append(T["decision.line"].format(ruleset=ruleset_name(ruleset), total=row["total"], passed=row["pass"],
                                               rest=rest))
    return lines


def stated_rules(result: RunResult) -> dict[str, dict[str, list[str]]]:
    """Per ruleset of the run, its stated rules (every clause of the ruleset) by what of the run reached them:

    * ``decided`` — a case of the run was built to decide a point of the rule (a rung of its ladder, an edge
      of its table, a row of its kitty table, an alternative of it: :func:`~conformance.generation.decisions.point_clauses`);
    * ``random_only`` — cases consulted the rule, but none was built to decide it: only positions aimed
      elsewhere or drawn at random judge it, so a green run says less of it;
    * ``unjudged`` — no case of the run consulted it: a rule no operation of the protocol judges (conduct,
      the clock, the tournament, the deal) or one of operations this run left out.
    """
    from reference_impl.rules import rules_for
    from conformance.generation.decisions import point_clauses
    decided: dict[str, set[str]] = {}
    consulted: dict[str, set[str]] = {}
    names: dict[str, Any] = {}
    for case in result.cases:
        rs = case["ruleset"]
        if rs not in names:
            try:
                names[rs] = rules_for(rs)
            except Exception:   # a ruleset this process cannot read (vectors of another checkout): not told
                names[rs] = None
        rules = names[rs]
        if rules is None:
            continue
        consulted.setdefault(rs, set()).update(case.get("clauses", ()))
        points = point_clauses(rules)
        decided.setdefault(rs, set()).update(points[p] for p in case.get("decides", ()) if p in points)
    out: dict[str, dict[str, list[str]]] = {}
    for rs, rules in sorted((k, v) for k, v in names.items() if v is not None):
        ids = [c.id for c in rules.checked.clauses]
        out[rs] = {"decided": [i for i in ids if i in decided[rs]],
                   "random_only": [i for i in ids if i not in decided[rs] and i in consulted[rs]],
                   "unjudged": [i for i in ids if i not in decided[rs] and i not in consulted[rs]]}
    return out


RANDOM_ONLY = "met only by positions not built to decide them (random or aimed elsewhere)"
UNJUDGED = "judged by no case of this run (no answer of the run names them)"


STATED_WORDS = {   # lang -> the head line, the words after each count, each group's line
    "en": ("stated rules of {ruleset}: {n}; {decided} with decision points", "; {k} {short}",
           {"random_only": (RANDOM_ONLY.split(" (")[0], RANDOM_ONLY), "unjudged": (UNJUDGED.split(" (")[0], UNJUDGED)}),
    "zh": ("{ruleset} 的规则条款：{n} 条；{decided} 条有判定点", "；{k} 条{short}",
           {"random_only": ("仅由非专门的局面判定", "仅由非专门为其构造的局面（随机或为他处构造）判定"),
            "unjudged": ("本次运行未判定", "本次运行没有例子判定（无答案引用）")}),
}


def stated_groups(result: RunResult, lang: str = "en", ruleset_name=lambda s: s) -> list[tuple[str, list]]:
    """What the run's verdict says of each stated rule (:func:`stated_rules`), in ``lang``: per ruleset a head
    line of counts (the ruleset shown by ``ruleset_name``) and, for the rules no case was built to decide and
    those no case judged, the words saying so with their clause ids (each caller shows the ids its own way)."""
    head_text, count_text, groups_text = STATED_WORDS[lang]
    out = []
    for ruleset, groups in stated_rules(result).items():
        head = head_text.format(ruleset=ruleset_name(ruleset), n=sum(len(v) for v in groups.values()),
                                decided=len(groups["decided"]))
        head += "".join(count_text.format(k=len(groups[k]), short=short) for k, (short, _) in groups_text.items()
                        if groups[k])
        out.append((head, [(what, groups[k]) for k, (_, what) in groups_text.items() if groups[k]]))
    return out


def stated_lines(result: RunResult, markdown: bool = False) -> list[str]:
    """:func:`stated_groups` in English lines: the head line, then an indented line per group naming its rules
    (``markdown``: the words escaped, each clause id a code span, the named rules a nested list item)."""
    text = md_text if markdown else (lambda s: s)
    name = md_code if markdown else (lambda s: s)
    indent = "  - " if markdown else "  "
    lines = []
    for head, groups in stated_groups(result):
        lines.append(text(head))
        lines += [indent + text(f"{what}: ") + ", ".join(name(c) for c in ids) for what, ids in groups]
    return lines


def _cols(row: dict) -> dict:
    """Fold the expectation statuses into the four columns (xfail counts as skipped, xpass as fail)."""
    return {"pass": row["pass"], "fail": row["fail"] + row["xpass"], "skipped": row["skipped"] + row["xfail"],
            "errored": row["errored"]}


# --------------------------------------------------------------------------- JSON

def report_dict(result: RunResult) -> dict:
    cases = []
    for case, o in zip(result.cases, result.outcomes):
        entry: dict[str, Any] = {"id": case["id"], "name": case_title(case), "op": case["op"],
                                 "ruleset": case["ruleset"], "status": o.status}
        if o.kind:
            entry["kind"] = o.kind
        if o.message:
            entry["message"] = o.message
        entry["clauses"] = list(case.get("clauses", []))
        if o.charged:
            entry["charged"] = list(o.charged)
        if o.status not in ("pass", "skipped"):
            entry["input"] = case["input"]
            entry["expected"] = case["expected"]
            if o.answer is not None:
                entry["answer"] = o.answer
        cases.append(entry)
    hs = result.handshake
    return {
        "protocol": protocol.PROTOCOL_VERSION,
        "tool": "tractor conform",
        "engine": {"command": list(result.command), "handshake": hs, "restarts": result.restarts,
                   "stderr_bytes": result.stderr_bytes, "stderr_tail": result.stderr_tail[-2000:]},
        "rulesets": list(result.rulesets), "ops": list(result.ops), "source": result.source, "seed": result.seed,
        "started": result.started, "duration": round(result.duration, 3), "interrupted": result.stopped,
        "unfinished": list(result.unfinished),
        "totals": result.counts(),
        "findings": [f.to_dict() for f in result.findings], "unexplained": list(result.unexplained),
        "clusters": [c.to_dict() for c in getattr(result, "clusters", [])],
        "nothing_judged": bool(getattr(result, "nothing_judged", False)),
        "by_op": by_op(result), "by_clause": by_clause(result), "decision_points": decision_points(result),
        "stated_rules": stated_rules(result),
        "compared": compared_fields(result), "narrowed": coverage_notes(result),
        "events": list(result.events),
        "deviations": [{"selector": d.label(), "reason": d.reason, "matched": d.matched} for d in result.deviations],
        "cases": cases,
    }


def report_json(result: RunResult) -> str:
    """The JSON report as text: strict JSON (``NaN`` and infinities refused), valid UTF-8."""
    return clean_text(json.dumps(report_dict(result), ensure_ascii=False, indent=1, allow_nan=False)) + "\n"


# The files a report folder holds: one engine's reports, or the matrix beside one folder of reports per engine;
# and the list of what the last run wrote there (its manifest), which the next run reads to clear what it owns.
REPORT_FILES = ("report.json", "junit.xml", "summary.md")
MATRIX_FILES = ("matrix.json", "matrix.md")
MANIFEST = ".tractor-report.json"


# What the head of each file a run writes says (its first bytes), so that a file of the same name the user put
# there is never taken for a run's.
SIGNATURES = {"report.json": b'"tool": "tractor conform"', "junit.xml": b'<testsuites name="tractor conform"',
              "summary.md": b"# Conformance report", "matrix.md": b"# Conformance matrix", "matrix.json": b'"engines": '}


def _a_runs(path: Path) -> bool:
    """Whether ``path`` is a regular file (not a link, in no linked folder) whose head says a run wrote it."""
    import stat
    try:
        if stat.S_ISLNK(os.lstat(path.parent).st_mode) or not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        with open(path, "rb") as f:
            return SIGNATURES[path.name] in f.read(256)
    except OSError:
        return False


def owned_files(folder: Path) -> set[str]:
    """The files of ``folder`` a run owns, as paths relative to it: the report and matrix files at its top (a
    run writes one kind or the other) and each engine's reports an earlier run listed in the folder's manifest,
    each only when it is a regular file whose head says a run wrote it. Nothing else: a file a run did not
    write is never the run's to remove."""
    candidates = set(REPORT_FILES) | set(MATRIX_FILES)
    try:
        listed = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        listed = []
    for rel in listed if isinstance(listed, list) else []:
        parts = Path(rel).parts if isinstance(rel, str) else ()
        if len(parts) == 2 and parts[1] in REPORT_FILES and parts[0] not in ("..", ".", "/"):
            candidates.add(rel)
    return {rel for rel in candidates if _a_runs(folder / rel)}


def settle_folder(folder: str | Path, written: list[Path], whole: bool = True) -> None:
    """After a run wrote ``written`` into its report folder: remove every file the folder's runs own
    (:func:`owned_files`) that this run did not write (an earlier run's report beside this run's matrix, or
    the reverse), and the engine folders left empty; then list what it wrote in the folder's manifest. When
    the run's files were not written ``whole`` (a full disk), nothing of this is allowed to raise."""
    folder = Path(folder)
    mine = {str(Path(p).relative_to(folder)) for p in written if Path(p).is_relative_to(folder)}
    for rel in sorted(owned_files(folder) - mine):
        path = folder / rel
        try:
            path.unlink()
            if path.parent != folder:
                path.parent.rmdir()   # only when empty: anything of the user's in it stays
        except OSError:
            pass
    try:
        write_file(folder / MANIFEST, json.dumps({"tool": "tractor conform", "files": sorted(mine)}, indent=1) + "\n")
    except OSError:
        if whole:
            raise


def write_set(files: dict[Path, str]) -> list[Path]:
    """Write files as one set (:func:`tractor_dsl.files.write_files`): every one to a temporary first, renamed
    onto its place only when all were written. If anything fails (a full disk), the temporaries and the files
    of the set already there are removed before the error is raised, so no reader ever takes an earlier run's
    file (a green ``junit.xml``) for part of this one's, nor finds this run's ``report.json`` beside the last
    run's."""
    try:
        return write_files({path: clean_text(data) for path, data in files.items()})
    except BaseException:
        for path in files:
            if target_problem(path) is None:   # never a link or a folder someone put in the set's place
                Path(path).unlink(missing_ok=True)
        raise


def write_reports(result: RunResult, directory: str | Path, show: int = 10, summary: str | None = None) -> list[Path]:
    """``report.json``, ``junit.xml`` and ``summary.md``, written as one set (:func:`write_set`); ``summary``:
    summary.md's text in another language (:mod:`conformance.reporting.summary_zh`, which builds on this module),
    the other two language-neutral."""
    directory = Path(directory)
    if summary is None:
        summary = markdown(result, show=show)
    texts = dict(zip((directory / name for name in REPORT_FILES),   # every text made before a file is touched
                     (report_json(result), junit_xml(result), summary)))
    return write_set(texts)


# --------------------------------------------------------------------------- JUnit

def junit_xml(result: RunResult) -> str:
    root = ET.Element("testsuites", name="tractor conform")
    narrowed = {n.split(" ", 1)[0]: n for n in coverage_notes(result)}
    suites: dict[str, ET.Element] = {}
    counts: dict[str, dict[str, int]] = {}
    for case, o in zip(result.cases, result.outcomes):
        name = f"{case['ruleset']}.{case['op']}"
        if name not in suites:
            suites[name] = ET.SubElement(root, "testsuite", name=name)
            counts[name] = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0, "time": 0.0}
            if case["op"] in narrowed:  # partial answers, declared: said on the suite
                props = ET.SubElement(suites[name], "properties")
                ET.SubElement(props, "property", name="compared", value=narrowed[case["op"]])
        c = counts[name]
        c["tests"] += 1
        c["time"] += o.seconds
        tc = ET.SubElement(suites[name], "testcase", classname=name, name=_xml_safe(f"{case_title(case)} [{case['id']}]"),
                           time=f"{o.seconds:.6f}")
        clauses = ", ".join(case.get("clauses", []))
        if clauses:
            props = ET.SubElement(tc, "properties")
            ET.SubElement(props, "property", name="clauses", value=clauses)
        if o.status in ("fail", "xpass"):
            c["failures"] += 1
            el = ET.SubElement(tc, "failure", message=_xml_safe(o.message[:500]), type=o.kind or o.status)
            el.text = _xml_safe(_case_text(case, o))
        elif o.status == "errored":
            c["errors"] += 1
            el = ET.SubElement(tc, "error", message=_xml_safe(o.message[:500]), type=o.kind)
            el.text = _xml_safe(_case_text(case, o))
        elif o.status in ("skipped", "xfail"):
            c["skipped"] += 1
            ET.SubElement(tc, "skipped", message=_xml_safe(f"{o.kind or o.status}: {o.message}"[:500]))
    total = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0, "time": 0.0}
    for name, el in suites.items():
        for k, v in counts[name].items():
            el.set(k, f"{v:.3f}" if k == "time" else str(v))
            total[k] += v
    for k, v in total.items():
        root.set(k, f"{result.duration:.3f}" if k == "time" else str(v))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _xml_safe(s: str) -> str:
    return "".join(ch if ch in "\t\n\r" or 0x20 <= ord(ch) < 0xD800 or 0xE000 <= ord(ch) < 0xFFFE else "?"
                   for ch in s)


def _case_text(case: dict, o) -> str:
    lines = [f"clauses: {', '.join(case.get('clauses', [])) or '-'}",
             f"input: {json.dumps(case['input'], ensure_ascii=False)}",
             f"expected: {json.dumps(case['expected'], ensure_ascii=False)}"]
    if o.answer is not None:
        lines.append(f"engine: {json.dumps(o.answer, ensure_ascii=False)}")
    lines.append(o.message)
    return "\n".join(lines)


# --------------------------------------------------------------------------- drawing cases

def _answer_text(v: Any, depth: int = 0) -> str:
    if depth > 8:
        return "…"
    if isinstance(v, dict):
        parts = []
        for k, x in v.items():
            if k in ("clauses", "detail"):
                continue
            parts.append(f"{showable(str(k))}={_answer_text(x, depth + 1)}")
        return " ".join(parts)
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return "[" + showable(glyphs(v)) + "]"
    if isinstance(v, list):
        return "[" + ", ".join(_answer_text(x, depth + 1) for x in v) + "]"
    return showable(json.dumps(v, ensure_ascii=False))


def explain_command(case_id: str, report_dir: str | None = None) -> str:
    """The command that explains a case of a run: with the run's report folder, so that it finds the case's
    input whatever seed or count made it."""
    import shlex
    return f"tractor explain --case {case_id}" + (f" --report {shlex.quote(report_dir)}" if report_dir else "")


def draw_case(case: dict, o, report_dir: str | None = None) -> str:
    lines = [f"{o.status.upper()} {case['id']}  ({o.kind or 'disagrees'})",
             f"  case:     {showable(case_title(case))}",
             f"  clauses: {', '.join(case.get('clauses', [])) or '-'}"]
    lines += ["  " + ln for ln in draw_input(case["op"], case["input"])]
    lines.append(f"  expected: {_answer_text(case['expected'])}")
    if o.status in ("fail", "xpass") and isinstance(o.answer, dict):
        lines.append(f"  engine:   {_answer_text(o.answer)}")
    else:
        lines.append(f"  engine:   {showable(o.message)}")
    lines.append(f"  explain:  {explain_command(case['id'], report_dir)}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- findings

def findings_lines(result: RunResult, markdown: bool = False) -> list[str]:
    """The findings first (see :mod:`conformance.analysis.attribution`): per feature the clause, the spec's value
    against the engine's apparent one, the case count and one failing position drawn as cards; then the
    findings beyond the alternatives (:mod:`conformance.analysis.clusters`), each with its minimal position and
    how far the difference reaches; then the failures in no finding. Empty when the run has none of them."""
    clusters = list(getattr(result, "clusters", []))
    if not result.findings and not result.unexplained and not clusters:
        return []
    where = {c["id"]: (c, o) for c, o in zip(result.cases, result.outcomes)}
    explained = sum(len(f.cases) for f in result.findings) + sum(len(c.cases) for c in clusters)
    n = len(result.findings) + len(clusters)
    out = [("## Findings" if markdown else "findings") +
           f" ({n}: {explained} failing case(s) explained, {len(result.unexplained)} unexplained)"]
    failed = [e["message"] for e in result.events if e.get("kind") == "attribution_failed"]
    if failed:   # never a silent loss: the list below is what the analysis could not explain
        out.append(showable(f"{'**' if markdown else ''}analysis failed{'**' if markdown else ''}: {failed[0]}"))
    if markdown:
        out.append("")
    for i, f in enumerate(result.findings, 1):
        # a finding is the spec's words (a feature, its value and the alternative the engine's answers fit),
        # never the engine's own text: only the case drawn beneath it holds that, in a block nothing closes
        head = f"{i}. {f.feature} [{f.clause}] — {len(f.cases)} case(s)"
        out.append(f"{i}. **{f.feature}** (clause `{f.clause}`) — {len(f.cases)} case(s)" if markdown else head)
        out.append(showable(f"   spec:   {f.spec}"))
        out.append(showable(f"   engine: {'; '.join(f.engine)}"))
        if f.broken:
            shown = ", ".join(f.broken[:3]) + (f" and {len(f.broken) - 3} more" if len(f.broken) > 3 else "")
            out.append(showable(f"   breaks: {len(f.broken)} passing case(s) ({shown}): it explains "
                                f"{len(f.cases)} failure(s), {len(f.cases) - len(f.broken)} net"))
        if f.cases and f.cases[0] in where:
            drawn = draw_case(*where[f.cases[0]], result.report_dir)
            out += [""] + [f"   {line}" for line in md_block(drawn)] + [""] if markdown else \
                [f"   {line}" for line in drawn.split("\n")]
    for i, c in enumerate(clusters, len(result.findings) + 1):
        out += cluster_lines(i, c, markdown)
    if result.unexplained:
        ids = result.unexplained
        out.append(f"{'### ' if markdown else ''}unexplained ({len(ids)}): in no finding")
        out += [f"   - {md_code(cid)}" if markdown else f"   {showable(cid)}" for cid in ids[:20]]
        if len(ids) > 20:
            out.append(f"   … and {len(ids) - 20} more (report.json lists them all)")
    return out


HEADLINE = 0.8   # the share of a cluster's cases its answers line must hold for, else the lines say how many


def cluster_lines(i: int, c, markdown: bool = False) -> list[str]:
    """One finding beyond the alternatives: what differs, where, the minimal position and its reach
    (``markdown``: the engine's text escaped, as every text of summary.md)."""
    text = md_text if markdown else showable
    what = cluster_kind(c)
    label = f"{c.op}: {', '.join(c.fields)}"
    out = [f"{i}. **{text(label)}** ({what}; clause {md_code(c.clause)}) — {len(c.cases)} case(s)"
           if markdown else f"{i}. {showable(label)} ({what}) [{c.clause}] — {len(c.cases)} case(s)"]
    decided = f"; {c.decided_by} decides the field" if c.decided_by and \
        not c.needs else ""
    if c.rule is not None and c.rule.names:
        out.append(f"   rule:   {text(c.rule.text)}{decided}")
    elif c.rule is not None:
        out.append(f"   rule:   no single setting fixes it; the nearest is {text(c.rule.text)}{decided}")
    elif c.kind == "cluster":
        out.append(f"   rule:   no single setting fixes it, nor brings the engine's answers nearer{decided}")
    out.append(f"   where:  {text(str(c.signature))}")
    out.append(f"   spec:   {text(str(c.spec))}")
    out.append(f"   engine: {text(str(c.engine))}")
    common = getattr(c, "common", None)
    if common and common["shown"] < HEADLINE * len(c.cases):
        out.append(f"   (these answers hold for {common['shown']} of its {len(c.cases)} case(s))")
        for k, rows in common.get("varying", {}).items():
            shown = "; ".join(f"{s} against {g} in {m}" for s, g, m in rows)
            out.append(f"   varies: {text(shown)}")
    if c.position is not None:
        shrunk = f", shrunk in {c.steps} step(s) from {c.shrunk_from}" if c.steps else f" ({c.shrunk_from})"
        if getattr(c, "limited", False):
            shrunk += ", stopped at the step limit (it may shrink further)"
        out.append(f"   {c.position_label}{text(shrunk)}: {text(json.dumps(c.position, ensure_ascii=False))}")
    if c.reach:
        out.append(f"   reach:  {text(str(c.reach))}")
    if c.needs:
        out.append(f"   needs:  {text(str(c.needs_text))}")
    if c.advice:
        out.append(f"   advice: {text(str(c.advice))}")
    if markdown:
        out.append("")
    return out


# --------------------------------------------------------------------------- text summaries

def _table(title: str, rows: dict[str, dict], width: int | None = None) -> list[str]:
    width = width or max([len(title)] + [len(k) for k in rows])
    out = [f"{title:<{width}}  " + "  ".join(f"{c:>7}" for c in COLUMNS)]
    for k, row in rows.items():
        cols = _cols(row)
        out.append(f"{k:<{width}}  " + "  ".join(f"{cols[c]:>7}" for c in COLUMNS))
    return out


def summary_text(result: RunResult, show: int = 3) -> str:
    hs = result.handshake or {}
    lines = []
    name = f"{hs.get('name', '?')} {hs.get('version', '')}".strip() if hs else "(no handshake)"
    lines.append(showable(f"engine: {name} — {' '.join(result.command)}"))
    lines += [f"partial answers: {note}" for note in coverage_notes(result)]
    lines.append("")
    found = findings_lines(result)
    if found:
        lines += found + [""]
    lines += _table("ruleset.operation", by_op(result))
    lines.append("")
    lines += _table("clause", by_clause(result))
    bad = [(c, o) for c, o in zip(result.cases, result.outcomes) if o.status in ("fail", "xpass")]
    errored = [(c, o) for c, o in zip(result.cases, result.outcomes) if o.status == "errored"]
    if bad and show:
        lines.append("")
        lines.append(f"disagreements ({len(bad)}; showing {min(show, len(bad))}):")
        for c, o in bad[:show]:
            lines.append(draw_case(c, o, result.report_dir))
    if errored:
        kinds: dict[str, int] = {}
        for _, o in errored:
            kinds[o.kind] = kinds.get(o.kind, 0) + 1
        lines.append("")
        lines.append("errored: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
        for c, o in errored[:max(show, 1)]:
            lines.append(f"  {c['id']} ({showable(case_title(c))}): {o.kind}: {showable(o.message[:300])}")
    for e in result.events:
        if e["kind"] in ("stderr_flood", "stale_expectation", "engine_unavailable", "handshake_failed",
                         "interrupted", "strays_killed", "stopped_early", "nothing_judged", "asked_as"):
            lines.append(f"note: {e['kind']}: {showable(e['message'])}")
    t = result.counts()
    lines.append("")
    lines += decision_lines(result)
    lines += stated_lines(result)
    extra = "".join(f", {t[k]} {k}" for k in ("xfail", "xpass") if t[k])
    rate = len(result.cases) / result.duration if result.duration > 0 else 0.0
    lines.append(f"{len(result.cases)} cases: {t['pass']} pass, {t['fail']} fail, {t['skipped']} skipped, "
                 f"{t['errored']} errored{extra} in {result.duration:.1f} s ({rate:.0f} cases/s)"
                 + (f", {result.restarts} restart(s)" if result.restarts else "")
                 + (" — INTERRUPTED" if result.stopped else ""))
    lines += [f"not finished (interrupted): {showable(step)}" for step in result.unfinished]
    return "\n".join(lines)


def markdown(result: RunResult, show: int = 10) -> str:
    hs = result.handshake or {}
    t = result.counts()
    out = ["# Conformance report", ""]
    out.append(f"- engine: {md_code(' '.join(result.command))}"
               + (f" — {md_text(str(hs.get('name')) + ' ' + str(hs.get('version', '')))}" if hs else " — no handshake"))
    out.append(f"- rulesets: {md_text(', '.join(result.rulesets) or '-')}; source: {md_text(result.source or '-')}"
               + (f"; seed {result.seed}" if result.seed is not None else ""))
    out.append(f"- started {result.started}, {result.duration:.1f} s"
               + (", **interrupted**: cases not run are listed as skipped" if result.interrupted else "")
               + (", **interrupted** during the analysis" if result.unfinished and not result.interrupted else "")
               + (", **interrupted** after its last step: the report is whole" if result.signalled
                  and not result.unfinished and not result.interrupted else ""))
    out += [f"- not finished (interrupted): {md_text(step)}" for step in result.unfinished]
    out.append(f"- **{t['pass']} pass, {t['fail']} fail, {t['skipped']} skipped, {t['errored']} errored**"
               + "".join(f", {t[k]} {k}" for k in ("xfail", "xpass") if t[k]))
    if result.restarts:
        out.append(f"- the engine was restarted {result.restarts} time(s)")
    # the runner's own words (the compared fields an engine declares are checked against the protocol's)
    out += [f"- partial answers, declared: {note}" for note in coverage_notes(result)]
    out += [f"- {line}" for line in decision_lines(result)]
    out += [line if line.startswith("  - ") else f"- {line}" for line in stated_lines(result, markdown=True)]
    out.append("")
    found = findings_lines(result, markdown=True)
    if found:
        out += found + [""]
    for title, rows in (("Ruleset and operation", by_op(result)), ("Clause", by_clause(result))):
        out.append(f"## {title}")
        out.append("")
        out.append(f"| {title.lower()} | " + " | ".join(COLUMNS) + " |")
        out.append("|---|" + "---:|" * len(COLUMNS))
        for k, row in rows.items():
            cols = _cols(row)
            out.append(f"| {md_code(k)} | " + " | ".join(str(cols[c]) for c in COLUMNS) + " |")
        out.append("")
    bad = [(c, o) for c, o in zip(result.cases, result.outcomes) if o.status in ("fail", "xpass", "errored")]
    if bad:
        out.append(f"## Failures ({len(bad)}; showing {min(show, len(bad))})")
        out.append("")
        for c, o in bad[:show]:
            out += md_block(draw_case(c, o, result.report_dir))
            out.append("")
    if result.events:
        out.append("## Events")
        out.append("")
        for e in result.events[:50]:
            out.append(f"- {md_code(e['kind'])}: {md_text(e['message'])}")
        out.append("")
    return "\n".join(out)
