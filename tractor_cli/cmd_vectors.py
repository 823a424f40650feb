"""``tractor vectors``: export, check and list the conformance test vectors."""
from __future__ import annotations

import sys

HELP = "export (or check) the JSON-lines test vectors under conformance/vectors/ for engines that do not run Python"


def add_arguments(p):
    p.add_argument("action", choices=("export", "check", "list"),
                   help="export: (re)write the files; check: exit 1 if they drifted from the spec; list: show them and "
                        "where they are")
    p.add_argument("--dir", default=None, help="the vectors directory (default: conformance/vectors/)")
    from .options import names
    p.add_argument("--ruleset", action="append", default=None, metavar="R", type=names("--ruleset"),
                   help="only this ruleset, a bundled name or a rule file (repeatable, or comma-separated; default: "
                        "every bundled ruleset)")
    from conformance.running.parallel import add_arguments as add_parallel
    add_parallel(p)


def run(args) -> int:
    from conformance.generation import cases
    from pathlib import Path
    from reference_impl.rules import rules_for
    directory = Path(args.dir) if args.dir else cases.VECTOR_DIR
    if args.ruleset:  # bundled names or users' rule files; an unknown name is a SpecError listing the known
        from .options import split_names
        args.ruleset = [rules_for(r).name for r in split_names(args.ruleset, "--ruleset")]
    if args.action == "export":
        problem = export_problem(directory)
        if problem:
            print(f"tractor vectors export: {problem}", file=sys.stderr)
            return 2
        files = cases.export_vectors(directory, cases.vector_files(args.ruleset, jobs=args.jobs,
                                                                       scheduler=args.scheduler))
        n = sum(1 for f in files if f.endswith(".jsonl"))
        print(f"wrote {n} vector file(s) and index.json under {directory}")
        return 0
    if args.action == "check":
        problems = cases.vector_drift(directory, args.ruleset, jobs=args.jobs, scheduler=args.scheduler)
        for p in problems:
            print(f"drift: {p}", file=sys.stderr)
        if problems:
            print("the vectors drifted from the spec: run `tractor vectors export` and review the diff",
                  file=sys.stderr)
            return 1
        print(f"vectors under {directory} match the spec")
        return 0
    return list_vectors(directory, args.ruleset)


def export_problem(directory) -> str | None:
    """Why the vectors may not be written to ``directory`` (None when they may): never into an installed
    package (site-packages), only into a source checkout's conformance/vectors or a folder of one's own."""
    from pathlib import Path
    import conformance
    package = Path(conformance.__file__).resolve().parent
    if (package.parent / "pyproject.toml").is_file():   # a source checkout (an editable install is one)
        return None
    target = Path(directory).resolve()
    if target == package or package in target.parents:
        return (f"{directory} is inside the installed package ({package}); the bundled vectors are written "
                "from a source checkout; give --dir DIR for a folder of your own")
    return None


def list_vectors(directory, rulesets: list[str] | None) -> int:
    """The vector files under ``directory`` (of ``rulesets`` only, when named) and their case counts."""
    from conformance.protocol.jsonlines import JsonFileError, read_json
    from tractor_dsl.limits import VECTOR_FILE_BYTES
    try:
        index = read_json(directory / "index.json", VECTOR_FILE_BYTES)["files"]
        if not isinstance(index, dict) or not all(isinstance(m, dict) and isinstance(m.get("cases"), int)
                                                  for m in index.values()):
            raise TypeError("its files are not listed with their case counts")
    except (JsonFileError, KeyError, TypeError) as e:
        print(f"tractor vectors: no readable index of vectors under {directory} ({e.__class__.__name__}: "
              f"{e}): write them with `tractor vectors export --dir {directory}`", file=sys.stderr)
        return 2
    shown = {path: meta for path, meta in index.items() if not rulesets or path.split("/", 1)[0] in rulesets}
    if shown:
        print(f"vector files under {directory.resolve()} (their index: index.json there):")
    for path, meta in sorted(shown.items()):
        print(f"{path}\t{meta['cases']} case{'s' * (meta['cases'] != 1)}")
    missing = [r for r in rulesets or () if not any(p.split("/", 1)[0] == r for p in shown)]
    for r in missing:
        print(f"tractor vectors: no vectors of {r} under {directory}: write them with "
              f"`tractor vectors export --ruleset R --dir {directory}`", file=sys.stderr)
    return 1 if missing else 0
