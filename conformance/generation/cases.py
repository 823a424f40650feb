"""The seeded suite: positions with the reference interpreter's answers, and the test vectors.

A case is ``{"id", "op", "ruleset", "input", "expected", "clauses", "decides"}``:
``input`` is what a request carries, ``expected`` the reference result's
compared fields (:data:`protocol.COMPARED`), ``clauses`` the ids of the
clauses the judgment consulted, ``decides`` what the position was built to
decide (a rung, a band edge, a kitty row, an alternative reading — empty for
the random complement). The id is ``<ruleset>:<op>:<hash of the input>``, so
the same position has the same id whatever produced it.

:func:`generate` is the suite ``tractor conform --ruleset R`` runs:

1. the decision positions of :mod:`conformance.generation.decisions` — every rung,
   band edge and kitty row decided, every alternative of the spec told apart;
2. random positions of every scenario of :mod:`conformance.generation.positions`
   (dealt hands among them) up to :data:`DEFAULT_COUNTS` per operation. A
   ruleset of the library (bundled or of the house-rule catalogue) draws its
   own, seeded by its name; a user's file draws those of the nearest library
   ruleset it extends (:func:`draw_root`), judged by the file, so that a file
   and the file ``tractor fingerprint --emit`` writes from it share them.

The suite of seed 0 is exported as the test vectors (conformance/vectors/):
for a bundled ruleset the default run reads them instead of generating, and
a test checks that they are exactly what the generator gives.
"""
from __future__ import annotations

import fnmatch
import hashlib
import json
import random
import zlib
from pathlib import Path
from typing import Iterable, Iterator

from conformance.protocol import messages as protocol
from conformance.protocol.engine import judge, supported_operations

# Random complement: positions per operation on top of the decision positions.
DEFAULT_COUNTS = {"classify": 160, "lead": 260, "follow": 700, "winner": 300, "kitty": 120, "result": 40,
                  "advance": 60, "declare": 220, "undeclared": 80, "hand": 10, "penalty": 80,
                  "deal": 24}
VECTOR_SEED = 0
VECTOR_DIR = Path(__file__).resolve().parent.parent / "vectors"   # conformance/vectors, data of the whole suite


def case_id(ruleset: str, op: str, inp: dict) -> str:
    digest = hashlib.sha1(json.dumps(inp, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:12]
    return f"{ruleset}:{op}:{digest}"


def make_case(ruleset: str, op: str, inp: dict, decides: Iterable[str] = (), rules=None) -> dict:
    """A case for ``inp``, with the reference interpreter's answer (``rules`` overrides the named ruleset)."""
    if rules is None:
        result, clauses = judge(op, ruleset, inp)
    else:
        from conformance.protocol.engine import HANDLERS
        result, clauses = HANDLERS[op](rules, inp)
    expected = {k: result[k] for k in protocol.result_keys(op) if k in result}
    case = {"id": case_id(ruleset, op, inp), "op": op, "ruleset": ruleset, "input": inp,
            "expected": expected, "clauses": list(clauses)}
    if decides:
        case["decides"] = list(decides)
    return case


def available_operations() -> list[str]:
    return supported_operations()


def generate(ruleset: str, ops: Iterable[str] | None = None, seed: int = 0,
             counts: dict | int | None = None, rules=None, decisions: bool = True, executor=None,
             decided: list[dict] | None = None, vectors: bool = True) -> list[dict]:
    """The seeded suite for ``ruleset`` (decision positions, then the random complement), in operation order.

    ``counts`` sets the random complement per operation (an int for every
    operation); ``rules`` gives the ruleset object when it is not a bundled
    one; ``decisions=False`` leaves out the decision positions (a small
    random sample, for tests of the runner); ``executor`` searches the
    distinguishing positions in parallel (the same suite on any number of
    workers); ``decided`` gives the decision positions' cases already made
    (a bundled ruleset's from its vectors), which are then not searched; ``vectors=False`` searches a bundled
    parent's positions instead of reading them from its vectors (the export, which rewrites them).
    """
    from reference_impl.rules import rules_for
    from conformance.generation.decisions import decision_positions
    rules = rules or rules_for(ruleset)
    wanted = [op for op in (ops or protocol.OPERATIONS) if op in set(available_operations())]
    by_op: dict[str, dict[str, dict]] = {op: {} for op in wanted}
    read = _bundled_vectors if vectors and seed == VECTOR_SEED else None
    positions = decision_positions(rules, seed, executor=executor, read=read)[0] \
        if decisions and decided is None else []
    for case in decided or ():
        if case["op"] in by_op:
            by_op[case["op"]][case["id"]] = case
    for p in positions:
        if p.op not in by_op:
            continue
        cid = case_id(ruleset, p.op, p.input)
        if cid in by_op[p.op]:
            by_op[p.op][cid].setdefault("decides", []).extend(x for x in p.decides
                                                             if x not in by_op[p.op][cid].get("decides", []))
        else:
            by_op[p.op][cid] = make_case(ruleset, p.op, p.input, p.decides, rules)
    root = draw_root(rules)
    for op in wanted:
        n = counts if isinstance(counts, int) else (counts or DEFAULT_COUNTS).get(op, DEFAULT_COUNTS[op])
        if root is not None:   # the ancestor's random positions, drawn as it draws them, judged by this ruleset
            n -= _inherited(by_op[op], ruleset, rules, root, op, seed, n)
        for inp in random_positions(rules, op, seed, n, exclude=set(by_op[op])):
            by_op[op][case_id(ruleset, op, inp)] = make_case(ruleset, op, inp, (), rules)
        for inp in probe_positions(rules, op, seed, exclude=set(by_op[op])):
            by_op[op][case_id(ruleset, op, inp)] = make_case(ruleset, op, inp, (), rules)
    return [case for op in wanted for case in by_op[op].values()]


def _bundled_vectors(ruleset: str) -> list[dict] | None:
    """A bundled ruleset's vectors (None for another): a derived ruleset's parent's positions
    (:func:`conformance.generation.decisions.inherited`)."""
    return vector_cases(VECTOR_DIR, [ruleset]) if (VECTOR_DIR / ruleset).is_dir() else None


def draw_root(rules):
    """The ruleset whose random positions ``rules`` draws, when not its own: for a user's file, the nearest
    ruleset of the library (bundled or of the catalogue) it extends; None for a ruleset of the library (its
    positions, and so the bundled vectors, are drawn as they always were), one that extends none, or one whose
    cards differ from its ancestor's (another pack, other cards removed, another kitty or deal: the ancestor's
    positions would hold cards it does not have)."""
    from reference_impl.rules import bundled_library
    from conformance.generation.decisions import parent_of
    own = bundled_library().rulesets.get(rules.name)
    if own is not None and own.file == rules.checked.file:
        return None
    return parent_of(rules)


def _inherited(cases: dict[str, dict], ruleset: str, rules, root, op: str, seed: int, n: int) -> int:
    """Add to ``cases`` (id -> case) the ``n`` random positions ``root`` draws for ``op``, judged by ``rules``,
    but those already there and those ``rules`` cannot hold (another deck, another kitty); how many it added."""
    from conformance.protocol.engine import InputError
    added = 0
    decided: set[str] = set()   # the ancestor's decision positions, which its own random draw passes over
    if seed == VECTOR_SEED and (VECTOR_DIR / root.name / f"{op}.jsonl").is_file():
        decided = {c["id"] for c in read_vector_file(VECTOR_DIR / root.name / f"{op}.jsonl") if c.get("decides")}
    for inp in random_positions(root, op, seed, n, exclude=decided):
        cid = case_id(ruleset, op, inp)
        if cid in cases:
            continue
        try:
            cases[cid] = make_case(ruleset, op, inp, (), rules)
        except InputError:
            continue
        added += 1
    return added


PROBES_EACH = 2   # positions of each scenario of an input the protocol gained later (positions.probes)


def probe_positions(rules, op: str, seed: int, exclude: set[str] = frozenset()) -> Iterator[dict]:
    """Positions of the inputs the protocol gained later (a deal with its banker, a hand a fault ends), from a
    draw of their own, so that the random positions drawn before them stay the same."""
    from conformance.generation.positions import RandomDraw, attempt, probes
    d = RandomDraw(random.Random(zlib.crc32(f"tractor-conformance:{seed}:{rules.name}:{op}:probes".encode())))
    seen = set(exclude)
    for sc in probes(rules, op):
        for _ in range(PROBES_EACH):
            inp = attempt(d, rules, sc)
            if inp is not None and case_id(rules.name, op, inp) not in seen:
                seen.add(case_id(rules.name, op, inp))
                yield inp


def random_positions(rules, op: str, seed: int, n: int, exclude: set[str] = frozenset()) -> Iterator[dict]:
    """``n`` distinct random positions of ``op``, every scenario of the operation in turn."""
    from conformance.generation.positions import RandomDraw, Rejected, build, draw_scenario
    d = RandomDraw(random.Random(zlib.crc32(f"tractor-conformance:{seed}:{rules.name}:{op}".encode())))
    seen = set(exclude)
    made = misses = 0
    while made < n and misses < 20 * n + 100:
        sc = draw_scenario(d, rules, op)
        try:
            inp = build(d, rules, sc)
        except Rejected:
            misses += 1
            continue
        cid = case_id(rules.name, op, inp)
        if cid in seen:
            misses += 1
            continue
        seen.add(cid)
        made += 1
        yield inp


def suite(ruleset: str, ops: Iterable[str] | None = None, seed: int = 0, counts: dict | int | None = None,
          *, jobs: int | None = 1, scheduler: str | None = None) -> list[dict]:
    """What ``tractor conform --ruleset R`` runs: the vectors of a bundled ruleset at the default seed and
    counts (they are exactly what :func:`generate` gives, and load at once), else generated cases (their
    distinguishing positions searched on ``jobs`` local processes or a Dask ``scheduler``)."""
    if seed == VECTOR_SEED and (VECTOR_DIR / ruleset).is_dir():
        vectors = vector_cases(VECTOR_DIR, [ruleset], list(ops) if ops else None)
        if counts is None:
            return vectors
        # other counts: the decision positions do not depend on them, and a bundled ruleset's are its vectors'
        # cases that decide something (the drift check keeps them what generate() finds); the random part anew
        return generate(ruleset, ops, seed, counts, decided=[c for c in vectors if c.get("decides")])
    if jobs == 1 and not scheduler:
        return generate(ruleset, ops, seed, counts)
    from conformance.running.parallel import executor
    with executor(jobs, scheduler) as ex:
        return generate(ruleset, ops, seed, counts, executor=ex)


def generated_cases(rulesets: list[str], ops: list[str] | None, seed: int, count: int | None,
                    *, jobs: int | None = 1, scheduler: str | None = None) -> list[dict]:
    """The suite of each ruleset in turn (:func:`suite`)."""
    out: list[dict] = []
    for rs in rulesets:
        out.extend(suite(rs, ops, seed=seed, counts=count, jobs=jobs, scheduler=scheduler))
    return out


class VectorError(ValueError):
    """A vector file that cannot be read as vectors; the message names the file (and the line)."""


# a vector's fields and the JSON type each holds (conformance/protocol/schemas/vector.json)
_VECTOR_FIELDS = {"id": str, "op": str, "ruleset": str, "input": dict, "expected": dict, "clauses": list}


def vector_cases(directory: str | Path | None = None, rulesets: list[str] | None = None,
                 ops: list[str] | None = None) -> list[dict]:
    """The checked-in (or exported) vectors, filtered by ruleset and operation.

    Each file is read within limits (at most :data:`~tractor_dsl.limits.VECTOR_FILE_BYTES`, a regular
    file) and each line as a message is (:func:`conformance.protocol.jsonlines.decode`: UTF-8, a line of
    at most :data:`~tractor_dsl.limits.LINE_BYTES`, nested at most
    :data:`~tractor_dsl.limits.JSON_DEPTH` deep, no key twice); a line that is no vector (a field
    missing or of the wrong type, an operation that does not exist) is a :class:`VectorError` naming
    the file and the line."""
    directory = Path(directory) if directory else VECTOR_DIR
    if not directory.is_dir():
        raise VectorError(f"{directory}: not a folder of vectors")
    out: list[dict] = []
    for path in sorted(directory.glob("*/*.jsonl")):
        rs, op = path.parent.name, path.stem
        if rulesets and rs not in rulesets:
            continue
        if ops and op not in ops:
            continue
        out.extend(read_vector_file(path))
    return out


def read_vector_file(path: Path) -> list[dict]:
    """The vectors of one file (see :func:`vector_cases`)."""
    import os
    import stat
    from conformance.protocol import jsonlines
    from tractor_dsl import limits
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise VectorError(f"{path}: not a regular file")
        data = jsonlines.read_capped(path, limits.VECTOR_FILE_BYTES)
    except jsonlines.FileTooLarge as e:
        raise VectorError(str(e)) from None
    except OSError as e:
        raise VectorError(f"{path}: {e.strerror or e}") from None
    out = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        if not raw.strip():
            continue
        if len(raw) > limits.LINE_BYTES:
            raise VectorError(f"{path}:{number}: a line of {len(raw):,} bytes; a vector line has at most "
                              f"{limits.LINE_BYTES:,}")
        try:
            vector = jsonlines.decode(raw)
        except jsonlines.BadMessage as e:
            raise VectorError(f"{path}:{number}: not a vector: {e}") from None
        problem = _vector_problem(vector)
        if problem:
            raise VectorError(f"{path}:{number}: not a vector: {problem}")
        out.append(vector)
    return out


def _vector_problem(vector) -> str | None:
    if not isinstance(vector, dict):
        return "expected an object"
    for key, kind in _VECTOR_FIELDS.items():
        if key not in vector:
            return f"it has no '{key}'"
        if not isinstance(vector[key], kind):
            return f"'{key}' is not {'an object' if kind is dict else 'a list' if kind is list else 'a string'}"
    if vector["op"] not in protocol.OPERATIONS:
        return f"unknown operation {json.dumps(vector['op'][:40])}"
    if not all(isinstance(c, str) for c in vector["clauses"]):
        return "'clauses' is not a list of clause ids"
    return None


def select_cases(cases: list[dict], patterns: list[str]) -> list[dict]:
    """The cases whose id matches one of the shell-style patterns (``r001:follow:*``), in their order."""
    return [c for c in cases if any(fnmatch.fnmatchcase(c["id"], p) for p in patterns)]


# --------------------------------------------------------------------------- test vectors

def _vector_lines(rulesets: list[str]) -> list[dict[str, list[str]]]:
    """One chunk of the export (on a worker): per ruleset, its cases as JSON lines by operation."""
    out = []
    for rs in rulesets:
        by_op: dict[str, list[str]] = {}
        for case in generate(rs, seed=VECTOR_SEED, vectors=False):   # the parents' vectors are rewritten too
            by_op.setdefault(case["op"], []).append(json.dumps(case, ensure_ascii=False, separators=(",", ":")))
        out.append(by_op)
    return out


def vector_files(rulesets: Iterable[str] | None = None, *, jobs: int | None = 1,
                 scheduler: str | None = None) -> dict[str, str]:
    """The vector files' contents, by path relative to the vectors directory (``<ruleset>/<op>.jsonl``).

    Deterministic: the same spec and interpreter give the same bytes, whatever
    ``jobs`` or ``scheduler`` spread the rulesets over (:mod:`parallel`).
    Also ``index.json``: the files, their case counts and how they were made.
    """
    from conformance.running.parallel import cut, map_chunks
    from reference_impl.rules import ruleset_names
    rulesets = list(rulesets or ruleset_names())
    files: dict[str, str] = {}
    index = {"protocol": protocol.PROTOCOL_VERSION, "seed": VECTOR_SEED, "format": "docs/protocol.md#test-vectors",
             "schema": "conformance/protocol/schemas/vector.json", "files": {}}
    chunks = map_chunks(_vector_lines, cut(rulesets, 1), jobs=jobs, scheduler=scheduler)
    for rs, by_op in zip(rulesets, (by_op for chunk in chunks for by_op in chunk)):
        for op, lines in by_op.items():
            path = f"{rs}/{op}.jsonl"
            files[path] = "\n".join(lines) + "\n"
            index["files"][path] = {"ruleset": rs, "op": op, "cases": len(lines)}
    files["index.json"] = json.dumps(index, indent=1, sort_keys=True) + "\n"
    return files


def export_vectors(directory=None, files: dict[str, str] | None = None) -> list[str]:
    """Write the vectors under ``directory`` (default conformance/vectors/), removing stale files."""
    directory = Path(directory) if directory else VECTOR_DIR
    files = files if files is not None else vector_files()
    directory.mkdir(parents=True, exist_ok=True)
    rulesets = {rel.split("/", 1)[0] for rel in files if "/" in rel}
    for old in directory.glob("*/*.jsonl"):  # stale files of the rulesets written
        if old.parent.name in rulesets and str(old.relative_to(directory)) not in files:
            old.unlink()
    old_index = directory / "index.json"
    if "index.json" in files and old_index.exists():   # an export of some rulesets keeps the others' entries
        from conformance.protocol import jsonlines
        from tractor_dsl import limits
        try:   # a user's folder: read as every user's JSON is (limits, strict), else rebuilt
            kept = jsonlines.read_json(old_index, limits.VECTOR_FILE_BYTES)["files"]
            kept = kept if isinstance(kept, dict) else {}
        except (ValueError, KeyError, TypeError):   # JsonFileError is a ValueError
            kept = {}
        index = json.loads(files["index.json"])
        index["files"] = {**{k: v for k, v in kept.items() if k.split("/", 1)[0] not in rulesets
                             and (directory / k).exists()}, **index["files"]}
        files = {**files, "index.json": json.dumps(index, indent=1, sort_keys=True) + "\n"}
    from tractor_dsl.files import target_problem, write_file
    for rel, text in files.items():
        path = directory / rel
        if target_problem(path) is not None or not path.exists() or path.read_text(encoding="utf-8") != text:
            write_file(path, text)   # refuses a link or a folder in the file's place
    for d in directory.iterdir():
        if d.is_dir() and not any(d.iterdir()):
            d.rmdir()
    return sorted(files)


def vector_drift(directory=None, rulesets: Iterable[str] | None = None, *, jobs: int | None = 1,
                 scheduler: str | None = None) -> list[str]:
    """How the files under ``directory`` differ from what the spec gives now (empty: no drift)."""
    directory = Path(directory) if directory else VECTOR_DIR
    files = vector_files(rulesets, jobs=jobs, scheduler=scheduler)
    problems = []
    present = {str(p.relative_to(directory)) for p in directory.glob("*/*.jsonl")
               if rulesets is None or p.parent.name in set(rulesets)}
    for rel in sorted(set(files) | present):
        if rel == "index.json":
            continue
        if rel not in present:
            problems.append(f"{rel}: missing")
        elif rel not in files:
            problems.append(f"{rel}: no longer produced")
        else:
            old = (directory / rel).read_text(encoding="utf-8")
            if old != files[rel]:
                problems.append(f"{rel}: {_first_difference(old, files[rel])}")
    if rulesets is None:
        index = directory / "index.json"
        if not index.exists() or index.read_text(encoding="utf-8") != files["index.json"]:
            problems.append("index.json: differs")
    return problems


def _changed(key: str, was, now) -> str:
    """``clauses + kitty.exchange``, ``expected {...} -> {...}``: one field of a vector line, before and now."""
    if isinstance(was, list) and isinstance(now, list) and all(isinstance(x, str) for x in was + now):
        gone, new = [x for x in was if x not in now], [x for x in now if x not in was]
        if gone or new:
            return f"{key}" + "".join(f" + {x}" for x in new) + "".join(f" - {x}" for x in gone)
        return f"{key} reordered"
    return f"{key} {json.dumps(was, ensure_ascii=False)} -> {json.dumps(now, ensure_ascii=False)}"


def _first_difference(old: str, new: str) -> str:
    a, b = old.splitlines(), new.splitlines()
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            try:
                cx, cy = json.loads(x), json.loads(y)
                if cx.get("input") == cy.get("input"):
                    changed = [_changed(k, cx.get(k), cy.get(k)) for k in sorted(set(cx) | set(cy))
                               if cx.get(k) != cy.get(k)]
                    return f"line {i + 1} ({cy.get('id')}): {'; '.join(changed)}"
            except (ValueError, AttributeError):
                pass
            return f"line {i + 1} differs"
    return f"{len(a)} line(s) checked in, {len(b)} now"
