"""Reference directives: the rule language (``tractor-settings``, ``tractor-limits``, ``tractor-snippet``,
``tractor-rule-example``), the command line (``tractor-cli``), the protocol (``tractor-schemas``,
``tractor-engine-exchange``) and the API (``tractor-api``)."""
from __future__ import annotations

import importlib
import json
import pkgutil
from pathlib import Path
from typing import Iterable

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.util import logging

from tractor_nodes import library, make_table, para, ROOT, section, spec_file, TractorDirective


logger = logging.getLogger(__name__)

# --------------------------------------------------------------------------
# the rule language
# --------------------------------------------------------------------------

class SettingsDirective(TractorDirective):
    def run(self):
        self.note()
        from tractor_dsl.schema import PARAMS
        from conformance.analysis.variants import topic_of, topic_title
        rows, classes = [], []
        current = None
        for p in PARAMS:
            t = topic_of(p.name)
            if t != current:
                current = t
                rows.append([nodes.strong("", topic_title(t)), "", ""])
                classes.append(["tr-topic-row"])
            req = "required" if p.required else "optional"
            rows.append([nodes.literal(p.name, p.name), para(p.type.name, nodes.Text(f" ({req})")), p.doc])
            classes.append([])
        return [make_table(["Setting", "Type", "Meaning"], rows, classes=["tr-settings"], row_classes=classes,
                           widths=[22, 30, 48])]


class LimitsDirective(TractorDirective):
    """The limits of the rule files (``spec``) or of the engine protocol (``protocol``), from
    tractor_dsl/limits.py, where they are stated once."""

    required_arguments = 1

    def run(self):
        self.note()
        from tractor_dsl import limits
        which = {"spec": limits.SPEC_LIMITS, "protocol": limits.PROTOCOL_LIMITS}.get(self.arguments[0])
        if which is None:
            raise self.error("tractor-limits takes 'spec' or 'protocol'")
        rows = [[lim.name, f"{lim.value:,} {lim.unit}", nodes.literal(lim.code, lim.code), lim.where, lim.what]
                for lim in which]
        return [make_table(["Limit", "Value", "Code", "Enforced by", "What"], rows, classes=["tr-limits"],
                           widths=[14, 16, 12, 12, 46])]


class SnippetDirective(TractorDirective):
    """The source text of a clause (or, with no clause, a ruleset's header) from its spec file."""

    required_arguments = 1
    optional_arguments = 1

    def run(self):
        self.note()
        lib = library()
        name = self.arguments[0]
        if name not in lib.parsed:
            raise self.error(f"unknown ruleset {name!r}")
        parsed = lib.parsed[name]
        path = Path(parsed.file)
        self.env.note_dependency(str(path))
        lines = path.read_text(encoding="utf-8").splitlines()
        if len(self.arguments) == 1:
            first = parsed.clauses[0].span.line if parsed.clauses else len(lines)
            start = parsed.span.line
            text = "\n".join(lines[start - 1:first - 1]).rstrip() + "\n  ...\n}"
            if not parsed.clauses:
                text = "\n".join(lines[start - 1:])
        else:
            cid = self.arguments[1]
            clause = next((c for c in parsed.clauses if c.id == cid), None)
            if clause is None:
                raise self.error(f"{name} defines no clause {cid!r} in {path.name}")
            span = clause.span
            text = "\n".join(lines[span.line - 1:span.end_line])
            indent = min((len(x) - len(x.lstrip()) for x in text.splitlines() if x.strip()), default=0)
            text = "\n".join(x[indent:] for x in text.splitlines())
        block = nodes.literal_block(text, text, classes=["tr-snippet"])
        block["language"] = "none"
        caption = f"{spec_file(parsed)}" + (f", clause {self.arguments[1]}" if len(self.arguments) > 1 else "")
        box = nodes.container("", classes=["literal-block-wrapper", "tr-snippet-box"])
        box += para(nodes.emphasis("", caption), classes=["tr-caption"])
        box += block
        return [box]


class RuleExampleDirective(TractorDirective):
    """A rule text written in the page; the checker must accept it (with the bundled spec beside it)."""

    has_content = True
    option_spec = {"extends": directives.unchanged}

    def run(self):
        self.note()
        from tractor_dsl.checker import check_text
        text = "\n".join(self.content)
        extra = {}
        if "extends" in self.options:
            lib = library()
            for name in lib.parsed:
                f = lib.parsed[name].file
                extra[f] = Path(f).read_text(encoding="utf-8")
        checked = check_text(text, "<docs example>", extra)
        problems = [d for d in checked.diagnostics if d.span.file == "<docs example>"]
        for d in problems:
            logger.warning(f"rule example does not check: {d.headline()}", location=(self.env.docname, self.lineno))
        block = nodes.literal_block(text, text, classes=["tr-rule-example"])
        block["language"] = "none"
        return [block]


# --------------------------------------------------------------------------
# command line, protocol, API
# --------------------------------------------------------------------------

class CliDirective(TractorDirective):
    def run(self):
        self.note()
        import argparse
        from tractor_cli.main import build_parser
        parser = build_parser()
        out: list[nodes.Node] = []
        usage = parser.format_usage().strip()
        out.append(nodes.literal_block(usage, usage))
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        helps = {ch.dest: ch.help for ch in sub._choices_actions}
        for name, p in sub.choices.items():
            sec = section(f"tractor {name}", nodes.make_id(f"cli-{name}"))
            sec += para(helps.get(name) or p.description or "")
            u = p.format_usage().strip()
            sec += nodes.literal_block(u, u)
            rows = []
            for act in p._actions:
                if isinstance(act, argparse._HelpAction):
                    continue
                flag = ", ".join(act.option_strings) if act.option_strings else act.dest
                if act.option_strings and act.nargs != 0:
                    flag += " " + (act.metavar or act.dest.upper())
                extra = ""
                if act.choices:
                    extra = " (one of: " + ", ".join(map(str, act.choices)) + ")"
                if act.default not in (None, False, argparse.SUPPRESS, []) and act.option_strings \
                        and "default" not in (act.help or ""):
                    extra += f" (default: {act.default})"
                rows.append([nodes.literal(flag, flag), (act.help or "") % {"default": act.default} + extra
                             if "%(" in (act.help or "") else (act.help or "") + extra])
            if rows:
                sec += make_table(["Argument", "Meaning"], rows, classes=["tr-cli"], widths=[30, 70])
            out.append(sec)
        return out


SCHEMA_DIR = ROOT / "conformance" / "protocol" / "schemas"


def _schema_type(s: dict) -> str:
    if not isinstance(s, dict):
        return ""
    if "$ref" in s:
        ref = s["$ref"]
        return ref.split("#/$defs/")[-1] if "#/$defs/" in ref else ref.replace(".json", "")
    if "const" in s:
        return f"= {json.dumps(s['const'], ensure_ascii=False)}"
    if "enum" in s:
        return "one of " + ", ".join(json.dumps(x, ensure_ascii=False) for x in s["enum"])
    for key in ("oneOf", "anyOf"):
        if key in s:
            return " or ".join(_schema_type(x) or "object" for x in s[key])
    t = s.get("type", "")
    if isinstance(t, list):
        t = " or ".join(t)
    if t == "array":
        return f"array of {_schema_type(s.get('items', {})) or 'values'}"
    extra = []
    for k in ("minimum", "maximum", "minLength", "pattern"):
        if k in s:
            extra.append(f"{k} {s[k]}")
    return t + (f" ({', '.join(extra)})" if extra else "")


def _schema_rows(s: dict, prefix: str = "", required: Iterable[str] = ()) -> list[list]:
    rows = []
    props = s.get("properties", {}) if isinstance(s, dict) else {}
    req = set(s.get("required", [])) if isinstance(s, dict) else set()
    for name, sub in props.items():
        path = f"{prefix}{name}"
        rows.append([nodes.literal(path, path), _schema_type(sub) or "object", "yes" if name in req else "",
                     sub.get("description", "") if isinstance(sub, dict) else ""])
        if isinstance(sub, dict) and sub.get("type") == "object" and "properties" in sub:
            rows += _schema_rows(sub, path + ".")
        elif isinstance(sub, dict) and sub.get("type") == "array" and isinstance(sub.get("items"), dict) \
                and "properties" in sub["items"]:
            rows += _schema_rows(sub["items"], path + "[].")
    return rows


class SchemasDirective(TractorDirective):
    def run(self):
        self.note()
        files = sorted(SCHEMA_DIR.glob("*.json"))
        if not files:
            raise self.error(f"no JSON Schemas found in {SCHEMA_DIR}")
        out: list[nodes.Node] = []
        schemas = {}
        for f in files:
            self.env.note_dependency(str(f))
            schemas[f.name] = json.loads(f.read_text(encoding="utf-8"))
        ops = sorted({n.split(".")[0] for n in schemas if n.endswith(".request.json")})
        order = ["common.json", "request.json", "answer.json"]
        order += [n for op in ops for n in (f"{op}.request.json", f"{op}.result.json") if n in schemas]
        order += [n for n in sorted(schemas) if n not in order]
        out.append(para(f"{len(files)} schemas in ", nodes.literal("conformance/protocol/schemas/", "conformance/protocol/schemas/"),
                        f"; {len(ops)} kinds of request: ", ", ".join(ops) + "."))
        for name in order:
            s = schemas[name]
            sec = section([nodes.literal(name, name), " · ", s.get("title", "")], nodes.make_id(f"schema-{name}"))
            if s.get("description"):
                sec += para(s["description"])
            if "$defs" in s:
                rows = [[nodes.literal(k, k), _schema_type(v) or "object", "",
                         v.get("description", "") if isinstance(v, dict) else ""] for k, v in s["$defs"].items()]
                sec += make_table(["Definition", "Type", "", "Meaning"], rows, classes=["tr-schema"],
                                  widths=[18, 32, 6, 44])
            rows = _schema_rows(s)
            if rows:
                sec += make_table(["Field", "Type", "Required", "Meaning"], rows, classes=["tr-schema"],
                                  widths=[22, 30, 8, 40])
            for key in ("oneOf", "anyOf"):
                if key in s and not rows:
                    sec += para("One of: " + ", ".join(_schema_type(x) or "object" for x in s[key]) + ".")
            if "allOf" in s:
                targets = [c.get("then", {}).get("$ref") for c in s["allOf"] if isinstance(c, dict)]
                targets = [t for t in targets if t]
                if targets:
                    sec += para("By ", nodes.literal("op", "op"), ": ", ", ".join(targets) + ".")
            out.append(sec)
        return out


class EngineExchangeDirective(TractorDirective):
    """Requests and the reference engine's answers, computed at build time (one JSON line each)."""

    has_content = True

    def run(self):
        self.note()
        from conformance.protocol import engine_io
        from conformance.protocol import messages as protocol
        lines = []
        seq = 0
        msgs = [protocol.handshake_request(0, "docs")]
        for line in self.content:
            if not line.strip():
                continue
            op, ruleset, payload = line.split(None, 2)
            seq += 1
            msgs.append(protocol.request(seq, op, ruleset, json.loads(payload)))
        msgs.append(protocol.shutdown_request(seq + 1))
        for msg in msgs:
            lines.append("→ " + json.dumps(msg, ensure_ascii=False))
            lines.append("← " + json.dumps(engine_io.answer(msg), ensure_ascii=False))
        text = "\n".join(lines)
        block = nodes.literal_block(text, text, classes=["tr-exchange"])
        block["language"] = "none"
        return [block]


PACKAGES = ("tractor_dsl", "reference_impl", "conformance", "tractor_play", "tractor_cli")


class ApiDirective(TractorDirective):
    def run(self):
        self.note()
        lines = []
        for pkg in PACKAGES:
            mod = importlib.import_module(pkg)
            lines += [pkg, "-" * len(pkg), ""]
            found = sorted((m.name, m.ispkg) for m in pkgutil.walk_packages(mod.__path__, pkg + "."))
            for full, ispkg in found:
                # a package's members are documented where they are defined, in its modules (a package
                # re-exporting a function named like one of its modules would describe it twice)
                options = ["   :members:"] + (["   :no-index:"] if ispkg else [])
                lines += [full, "~" * len(full), "", f".. automodule:: {full}", *options, ""]
        sl = StringList(lines, source="<tractor-api>")
        node = nodes.section()
        node.document = self.state.document
        from sphinx.util.nodes import nested_parse_with_titles
        nested_parse_with_titles(self.state, sl, node)
        return node.children


