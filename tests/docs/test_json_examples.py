"""Every JSON example in the docs (md and rst code blocks marked json, docs/ and docs/zh/) is valid against
the schema it illustrates.

How a block says what it illustrates: by itself, or by a marker on the line before it (only blank lines
between) -- in markdown an HTML comment ``<!-- KEY: VALUE -->``, in reStructuredText a comment
``.. KEY: VALUE``:

* no marker: a request (``seq`` and ``op``) is checked against ``request.json`` and ``<op>.request.json``;
  an answer (``seq`` and one of result / skipped / errored) against ``answer.json``, and its result against
  ``<op>.result.json``, ``op`` being that of the request with the same ``seq`` in the block;
* ``answers: OP``: the block's answers answer OP (their request is not in the block);
* ``schema: NAME``: every document of the block is checked against ``NAME.json``;
* ``partial: WHY``: the block is cut short on purpose (``"..."`` for cards); it must still be JSON.

A block may hold one JSON document or several (JSON lines, or documents spread over lines).
"""
import json
import re
from pathlib import Path

import pytest

from conformance.protocol import messages as protocol

DOCS = Path(__file__).resolve().parents[2] / "docs"
MARKER = re.compile(r"^\s*(?:<!--\s*|\.\.\s+)(schema|answers|partial):\s*(.*?)\s*(?:-->)?\s*$")


def _marker(lines: list[str], start: int):
    """The marker on the last non-blank line before line ``start``, as (key, value), or None."""
    i = start - 1
    while i >= 0 and not lines[i].strip():
        i -= 1
    m = MARKER.match(lines[i]) if i >= 0 else None
    return (m.group(1), m.group(2)) if m else None


def json_blocks(path: Path):
    """(line, marker, text) of every code block marked json in a markdown or reStructuredText file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if path.suffix == ".md" and line.strip() in ("```json", "```JSON"):
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            out.append((i + 1, _marker(lines, i), "\n".join(lines[i + 1:j])))
            i = j
        elif path.suffix == ".rst" and re.match(r"^\s*\.\. (code-block|code|sourcecode):: json\s*$", line):
            indent = len(line) - len(line.lstrip())
            j = i + 1
            while j < len(lines) and (not lines[j].strip() or lines[j].lstrip().startswith(":")
                                      and len(lines[j]) - len(lines[j].lstrip()) > indent):
                if lines[j].strip():
                    j += 1          # an option of the directive
                    continue
                break
            body = []
            while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
                body.append(lines[j])
                j += 1
            out.append((i + 1, _marker(lines, i), "\n".join(body)))
            i = j
            continue
        i += 1
    return out


def documents(text: str) -> list:
    """The JSON documents of a block, one after another (JSON lines or spread over lines)."""
    decoder, docs, pos = json.JSONDecoder(), [], 0
    text = text.strip()
    while pos < len(text):
        doc, end = decoder.raw_decode(text, pos)
        docs.append(doc)
        pos = end
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return docs


def problems(marker, docs: list) -> list[str]:
    """What is wrong with a block's documents, by the rules of this module's docstring."""
    key, value = marker or (None, None)
    if key == "partial":
        return [] if value else ["a partial block must say why it is cut short"]
    if key == "schema":
        if value not in protocol.schema_names():
            return [f"no schema {value!r}"]
        return [e for d in docs for e in protocol.schema_errors(value, d)]
    out: list[str] = []
    ops = {d["seq"]: d["op"] for d in docs if isinstance(d, dict) and "op" in d and "seq" in d}
    for d in docs:
        if not isinstance(d, dict) or "seq" not in d:
            out.append(f"not a request or an answer, and no marker says what it is: {json.dumps(d)[:120]}")
        elif "op" in d:
            out += protocol.schema_errors("request", d)
            if d["op"] in protocol.OPERATIONS + protocol.CONTROL:
                out += protocol.schema_errors(f"{d['op']}.request", d)
        else:
            out += protocol.schema_errors("answer", d)
            op = value if key == "answers" else ops.get(d["seq"])
            if "result" in d:
                if op is None:
                    out.append(f"an answer to seq {d['seq']} with no request in its block and no 'answers' marker")
                elif op != "shutdown":
                    out += protocol.schema_errors(f"{op}.result", d["result"])
    return out


def _doc_files():
    """docs/ (docs/zh/ within it) and the engine authors' README of examples/."""
    docs = sorted(p for p in DOCS.rglob("*") if p.suffix in (".md", ".rst")
                  and not any(part.startswith("_") for part in p.relative_to(DOCS).parts))
    return docs + [DOCS.parent / "examples" / "README.md"]


BLOCKS = [(f"{p.relative_to(DOCS.parent)}:{line}", marker, text)
          for p in _doc_files() for line, marker, text in json_blocks(p)]


def test_the_docs_have_json_examples_in_both_formats():
    where = {b[0].split(":")[0].rsplit(".", 1)[1] for b in BLOCKS}
    assert len(BLOCKS) >= 12 and where == {"md", "rst"}, [b[0] for b in BLOCKS]


@pytest.mark.parametrize("where,marker,text", BLOCKS, ids=[b[0] for b in BLOCKS])
def test_every_json_example_is_valid_against_its_schema(where, marker, text):
    try:
        docs = documents(text)
    except ValueError as e:
        pytest.fail(f"{where}: not JSON: {e}")
    assert docs, f"{where}: an empty json block"
    assert problems(marker, docs) == [], where


@pytest.mark.parametrize("marker,text,needle", [
    (None, '{"seq": 7, "skipped": "why"}', "is not of type 'object'"),          # what the guide used to show
    (None, '{"seq": 7, "errored": "why"}', "is not of type 'object'"),
    (("answers", "follow"), '{"seq": 7, "result": {"legal": "yes"}}', "'yes' is not of type 'boolean'"),
    (None, '{"seq": 3, "result": {"legal": true}}', "no 'answers' marker"),
    (None, '{"level": "5"}', "no marker says what it is"),
    (("partial", ""), '{"x": 1}', "must say why"),
    (("schema", "vector"), '{"id": "x"}', "required property"),
])
def test_the_check_rejects_what_the_guide_got_wrong(marker, text, needle):
    assert any(needle in p for p in problems(marker, documents(text))), problems(marker, documents(text))
