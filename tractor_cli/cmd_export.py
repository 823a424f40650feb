"""``tractor export RULESET``: a ruleset's settings, ladders, bands, kitty rows and readings as JSON.

For engines in any language that configure themselves from the spec rather
than hard-coding its rules; the format is :mod:`tractor_dsl.export`, its
JSON Schema ``conformance/protocol/schemas/export.json``.
"""
from __future__ import annotations

import argparse
import sys

HELP = ("write a ruleset's settings, follow ladders (derived ones too), score bands, kitty rows, readings and codes "
        "as JSON, each with its clause")


def add_arguments(p):
    p.add_argument("ruleset", help="a bundled ruleset's name (e.g. r003) or a user's .tractor file")
    # JSON is the only format: --json once selected it and now changes nothing, so it is hidden and named
    p.add_argument("--json", action="store_true", default=False, help=argparse.SUPPRESS)
    p.add_argument("-o", "--output", metavar="FILE", default=None, help="write to FILE instead of stdout")


def run(args) -> int:
    from reference_impl.rules import checked_ruleset
    from tractor_dsl.export import export_json
    from tractor_dsl.files import write_file
    if args.json:
        print("tractor export: --json is not needed (JSON is the only format) and will be removed; drop it",
              file=sys.stderr)
    checked = checked_ruleset(args.ruleset)   # a bundled name or a user's rule file
    text = export_json(checked)
    if args.output:
        try:
            write_file(args.output, text)
        except OSError as e:
            print(f"tractor export: cannot write {args.output}: {e.strerror or e}", file=sys.stderr)
            return 2
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
