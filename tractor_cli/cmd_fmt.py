"""``tractor fmt``: rewrite rule files in the canonical layout (see :mod:`tractor_dsl.formatter`).

Without ``--check`` each file that is not already formatted is rewritten in
place; with ``--check`` nothing is written and the files that would change are
listed (exit status 1 if any). A file that does not parse is reported and
never overwritten (exit status 1). A file is rewritten whole or not at all
(:mod:`tractor_dsl.files`); one that cannot be written is left as it was and
reported (exit status 2). Comments are kept.
"""
from __future__ import annotations

import difflib
import sys

from tractor_dsl.checker import find_spec_files
from tractor_dsl.diagnostics import SpecError
from tractor_dsl.files import write_file

HELP = "rewrite rule files (default: spec/) in the canonical layout; --check only reports"


def add_arguments(p):
    p.add_argument("paths", nargs="*", help="rule files or folders (default: the bundled spec/)")
    p.add_argument("--check", action="store_true",
                   help="write nothing; list the files that would change and exit 1 if there are any")
    p.add_argument("--diff", action="store_true", help="with --check, also print what would change")


def run(args) -> int:
    from tractor_dsl.formatter import format_text  # imports the parser: only when formatting
    from tractor_dsl.parser import read_spec
    files, problems = find_spec_files(args.paths or None)
    for d in problems:
        print(d.render(), file=sys.stderr)
    broken = len(problems)
    unwritten = 0
    changed = 0
    for path in files:
        text = None
        try:
            text = read_spec(path)
            formatted = format_text(text, str(path))
        except SpecError as e:
            broken += 1
            sources = {str(path): text} if text is not None else {}
            for d in e.diagnostics:
                print(d.render(sources), file=sys.stderr)
            print(f"{path}: left as it is: it does not parse", file=sys.stderr)
            continue
        if formatted == text:
            continue
        changed += 1
        if args.check:
            print(f"would reformat {path}")
            if args.diff:
                sys.stdout.writelines(difflib.unified_diff(
                    text.splitlines(keepends=True), formatted.splitlines(keepends=True),
                    f"{path}", f"{path} (formatted)"))
        else:
            try:
                write_file(path, formatted)   # whole or not at all: a failed write leaves the file as it was
            except OSError as e:
                broken += 1
                unwritten += 1
                changed -= 1
                print(f"{path}: cannot write: {e.strerror}; left as it was", file=sys.stderr)
                continue
            print(f"reformatted {path}")
    verb = "would be reformatted" if args.check else "reformatted"
    unchanged = len(files) + len(problems) - changed - broken
    summary = f"{changed} file(s) {verb}, {unchanged} already formatted"
    if broken:
        summary += f", {broken} not formatted (see above)"
    print(summary)
    if unwritten:
        return 2
    return 1 if broken or (args.check and changed) else 0
