"""JSON lines from a party not trusted: bounded reading, strict decoding, safe encoding.

Shared by the engine (which reads requests) and the runner (which reads
answers); the limits are :mod:`tractor_dsl.limits`'s.

* :class:`LineSplitter` splits a byte stream into lines in linear time and
  never holds more than ``cap`` bytes of one line: a longer line is dropped as
  it streams in and reported with its length (and its first bytes, from which
  a ``seq`` may still be read).
* :func:`decode` reads one line as strict JSON or raises :class:`BadMessage`
  with a kind: ``not_utf8``, ``invalid_json`` (also for ``NaN``,
  ``Infinity`` and numbers too large for a double, which JSON has no room
  for) or ``too_deep``; an object that gives a key twice is ``invalid_json`` too (strict JSON: the
  last would silently win), or the kind the caller names (the runner: ``invalid_answer``).
* :func:`encode` writes one message as one line of strict JSON, UTF-8 with
  lone surrogates escaped, and never fails on what :func:`decode` returns.
* :func:`scrub` makes a decoded value safe to keep and to show: lone
  surrogates become U+FFFD, long values are cut.
"""
from __future__ import annotations

import json
import math
import re
from collections import deque
from typing import Any

from tractor_dsl.limits import JSON_DEPTH, LINE_BYTES

try:  # a fast JSON library; every answer is the same without it (see decode and encode_result)
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency; a platform without it runs slower
    orjson = None

HEAD = 256   # bytes kept from the start of an oversized line


class BadMessage(ValueError):
    """A line that is not a message; ``kind`` says how (not_utf8, invalid_json, too_deep)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


# --------------------------------------------------------------------------- splitting

class LineSplitter:
    """Split a byte stream into lines, holding at most ``cap`` bytes of an unfinished line.

    Complete lines go to ``lines`` as ``("line", bytes)``; a line longer than
    ``cap`` is dropped as it streams in and recorded as ``("oversized", n)``
    with its length, or ``("oversized", n, head)`` with its first
    :data:`HEAD` bytes when ``keep_head`` is set. Blank lines are ignored.
    Each byte is looked at once, whatever the size of the pieces fed.
    """

    def __init__(self, cap: int = LINE_BYTES, keep_head: bool = False):
        self.cap = cap
        self.keep_head = keep_head
        self.partial = bytearray()
        self.discarding = 0      # >0: inside an oversized line, bytes so far
        self.head = b""
        self.lines: deque = deque()

    def _oversized(self, n: int) -> None:
        self.lines.append(("oversized", n, self.head) if self.keep_head else ("oversized", n))
        self.head = b""

    def feed(self, data: bytes) -> None:
        start = 0
        cap = self.cap
        while True:
            i = data.find(b"\n", start)
            if i < 0:
                rest = len(data) - start
                if self.discarding:
                    self.discarding += rest
                elif rest:
                    self.partial += data[start:]
                    if len(self.partial) > cap:
                        self.discarding = len(self.partial)
                        self.head = bytes(self.partial[:HEAD])
                        self.partial = bytearray()
                return
            if self.discarding:
                self._oversized(self.discarding + i - start)
                self.discarding = 0
            else:
                if self.partial:
                    self.partial += data[start:i]
                    piece = bytes(self.partial)
                    self.partial = bytearray()
                else:
                    piece = data[start:i]
                if len(piece) > cap:
                    self.head = piece[:HEAD]
                    self._oversized(len(piece))
                elif piece.strip():
                    self.lines.append(("line", piece))
            start = i + 1

    def close(self) -> None:
        """End of stream: a last line without its newline still counts."""
        if self.partial or self.discarding:
            self.feed(b"\n")


_SEQ = re.compile(rb'"seq"\s*:\s*(\d{1,15})\s*[,}]')


def read_seq(raw: bytes) -> int | None:
    """The ``seq`` of a line that cannot be decoded, when it can be read at all (its first one)."""
    found = _SEQ.search(raw[:4096])
    return int(found.group(1)) if found else None


# --------------------------------------------------------------------------- decoding

def _constant(name: str):
    raise BadMessage("invalid_json", f"{name} is not a JSON value")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadMessage("invalid_json", f"the number {text[:40]} is too large for JSON")
    return value


def depth(value: Any, limit: int = JSON_DEPTH) -> int:
    """Levels of arrays and objects in ``value`` (counted without recursion; stops past ``limit``)."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, dict)):
            if d > deepest:
                deepest = d
                if deepest > limit:
                    return deepest
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v) if isinstance(x, (list, dict)))
    return deepest


# 19 digits in a row: a number orjson would read otherwise than the standard library (past 64 bits it
# gives a float where ``json`` gives the exact int), or a string that merely holds one: either way, ``json``.
# Found as nineteen 0s once every digit is a 0 (two passes in C, several times faster than a regex).
# The same pass writes every blank a space, so that one search tells whether a quote is followed by a blank.
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789\t\r\n", b"000000000   ")
_LONG_DIGITS = b"0" * 19
# A key of an object: a closing quote, maybe blanks, a colon. Counted in the line it is at least the number
# of keys written (more when a string holds '":'); orjson keeps the last of a key given twice, so its
# reading holds fewer keys than the line writes exactly when a key is given twice or a string holds one.
_KEY_MARK = re.compile(rb'"[ \t\r\n]*:')


class DuplicateKey(ValueError):
    """An object of a JSON text that gives a key twice (strict JSON: which one counts is not defined)."""

    def __init__(self, key: str):
        super().__init__(f"the key {json.dumps(key[:60])} is given twice in one object")
        self.key = key


def unique_keys(pairs: list) -> dict:
    """``json.loads``' ``object_pairs_hook``: an object, refused (:class:`DuplicateKey`) when it gives a key
    twice."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen = set()
        for k, _ in pairs:
            if k in seen:
                raise DuplicateKey(k)
            seen.add(k)
    return out


def _keys(value: Any) -> int:
    """How many keys the objects of ``value`` hold, nested ones included (no recursion: any depth)."""
    count = 0
    stack = [value]
    pop, push = stack.pop, stack.append
    while stack:
        v = pop()
        if type(v) is dict:
            count += len(v)
            v = v.values()
        elif type(v) is not list:
            continue
        for x in v:  # a plain loop: a generator per container cost more than the walk
            t = type(x)
            if t is dict or t is list:
                push(x)
    return count


def _object_keys(value: Any, line: bytes) -> int | None:
    """:func:`_keys` of a value read from ``line``, counted over the objects reached through objects alone
    (not the card lists of a request), when the line holds no more braces than there are such objects: then
    no object sits inside a list. Else None (and :func:`_keys` walks everything)."""
    if type(value) is not dict:
        return None
    count = objects = 0
    stack = [value]
    while stack:
        v = stack.pop()
        objects += 1
        count += len(v)
        for x in v.values():
            if type(x) is dict:
                stack.append(x)
    return count if line.count(b"{") == objects else None


def _key_marks(line: bytes, blanks_as_spaces: bytes) -> int:
    """``len(_KEY_MARK.findall(line))``, counted by ``bytes.count`` where no quote is followed by a blank (a
    request as ``json.dumps`` or orjson writes it): there every mark is a quote and a colon side by side.
    ``blanks_as_spaces`` is the line with every tab, CR and LF a space (and any other byte but a quote,
    colon or blank changed or not)."""
    if b'" ' in blanks_as_spaces:
        return len(_KEY_MARK.findall(line))
    return blanks_as_spaces.count(b'":')


def decode(line: bytes, duplicate: str = "invalid_json") -> Any:
    """One line as strict JSON (UTF-8, no NaN or infinities, at most :data:`JSON_DEPTH` deep, no key
    given twice in one object: a :class:`BadMessage` of kind ``duplicate``).

    The value is the standard library's reading. A line orjson reads (strict
    UTF-8 and JSON, finite numbers) is read by orjson, which gives the same
    value faster, except for integers past 64 bits (a line with 19 digits in
    a row is left to ``json``) and for a key given twice, which orjson does
    not report: its reading is kept only when it holds as many keys as the
    line writes. A line orjson refuses is read by ``json``, whose refusal is
    the one reported.
    """
    flat = line.translate(_DIGITS_AS_ZERO)
    if orjson is not None and _LONG_DIGITS not in flat:
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError:
            pass
        else:
            if line.count(b"[") + line.count(b"{") > JSON_DEPTH and depth(value) > JSON_DEPTH:
                raise BadMessage("too_deep", f"the message is nested more than {JSON_DEPTH} levels deep")
            keys = _object_keys(value, line)
            if (_keys(value) if keys is None else keys) == _key_marks(line, flat):
                return value
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadMessage("not_utf8", f"the line is not UTF-8 (byte {e.start} is 0x{line[e.start]:02x})") from None
    try:
        value = json.loads(text, parse_constant=_constant, parse_float=_float, object_pairs_hook=unique_keys)
    except BadMessage:
        raise
    except DuplicateKey as e:
        key = clean_text(e.key)
        raise BadMessage(duplicate, f"the key {json.dumps(key[:60])} is given twice in one object "
                                    "(strict JSON: which one counts is not defined)") from None
    except RecursionError:
        raise BadMessage("too_deep", f"the message is nested more than {JSON_DEPTH} levels deep") from None
    except ValueError as e:  # JSONDecodeError, and ints of more than 4,300 digits
        raise BadMessage("invalid_json", f"not JSON: {e}"[:300]) from None
    if line.count(b"[") + line.count(b"{") > JSON_DEPTH and depth(value) > JSON_DEPTH:
        raise BadMessage("too_deep", f"the message is nested more than {JSON_DEPTH} levels deep")
    return value


# --------------------------------------------------------------------------- reading files

class FileTooLarge(ValueError):
    """A file (or a device, a pipe) that holds more than the reader takes."""


def read_capped(path, cap: int) -> bytes:
    """At most ``cap`` bytes of ``path``; more is :class:`FileTooLarge` (so ``/dev/zero`` ends). OSError as
    raised by ``open``; a folder is an OSError too."""
    import os
    import stat
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise IsADirectoryError(21, "is a folder, not a file")
        chunks, size = [], 0
        while size <= cap:
            chunk = os.read(fd, min(1 << 20, cap + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > cap:
        raise FileTooLarge(f"{path}: more than {cap:,} bytes (the limit of such a file)")
    return b"".join(chunks)


class JsonFileError(ValueError):
    """A JSON file (or text) a tool cannot take; the message names it and, where there is one, the line and
    column of the problem (``path:line:column: ...``)."""


def read_json(path, cap: int = LINE_BYTES, what: str | None = None) -> Any:
    """The JSON value of the file ``path`` (``-``: standard input), read with the protocol's limits: at most
    ``cap`` bytes read (so ``/dev/zero`` ends), UTF-8, strict JSON (no NaN, no key given twice in one object,
    as an engine refuses a request: ``invalid_json``), nested at most :data:`JSON_DEPTH` deep. Every problem
    is a :class:`JsonFileError` naming ``what`` (default: the path) — the one JSON reader of every tool."""
    import sys
    name = what or ("standard input" if str(path) == "-" else str(path))
    try:
        data = _read_stream(sys.stdin.buffer, cap) if str(path) == "-" else read_capped(path, cap)
    except FileTooLarge:
        raise JsonFileError(f"{name}: more than {cap:,} bytes (the limit of such a file); read no further") from None
    except OSError as e:
        raise JsonFileError(f"{name}: cannot read it: {e.strerror or e}") from None
    return loads_json(data, name)


def _read_stream(stream, cap: int) -> bytes:
    chunks, size = [], 0
    while size <= cap:
        chunk = stream.read(min(1 << 20, cap + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > cap:
        raise FileTooLarge(f"more than {cap:,} bytes")
    return b"".join(chunks)


def loads_json(data: bytes | str, name: str, cap: int | None = None) -> Any:
    """``data`` (a whole JSON text, bytes or str) as :func:`read_json` reads a file's; ``name`` says where it
    came from in a :class:`JsonFileError`."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if cap is not None and len(data) > cap:
        raise JsonFileError(f"{name}: more than {cap:,} bytes (the limit of such a text)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line, column = position(data, e.start)
        raise JsonFileError(f"{name}:{line}:{column}: not UTF-8 (byte 0x{data[e.start]:02x})") from None
    too_deep = f"{name}: nested more than {JSON_DEPTH} levels deep (too_deep)"
    try:
        value = json.loads(text, parse_constant=_constant, parse_float=_float, object_pairs_hook=unique_keys)
    except BadMessage as e:   # NaN, Infinity, a number too large for a double
        raise JsonFileError(f"{name}: not valid JSON: {e} (invalid_json)") from None
    except DuplicateKey as e:
        raise JsonFileError(f"{name}: {e} (strict JSON: which one counts is not defined; invalid_json)") from None
    except json.JSONDecodeError as e:
        raise JsonFileError(f"{name}:{e.lineno}:{e.colno}: not valid JSON: {e.msg}") from None
    except RecursionError:   # far deeper than the limit: the reader's own guard, not a crash
        raise JsonFileError(too_deep) from None
    except ValueError as e:  # an int of more than 4,300 digits
        raise JsonFileError(f"{name}: not valid JSON: {e}"[:300]) from None
    if data.count(b"[") + data.count(b"{") > JSON_DEPTH and depth(value) > JSON_DEPTH:
        raise JsonFileError(too_deep)
    return value


def position(data: bytes, offset: int) -> tuple[int, int]:
    """(line, column) of a byte offset, both from 1 (the column counts characters)."""
    start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, len(data[start:offset].decode("utf-8", "replace")) + 1


# --------------------------------------------------------------------------- encoding and keeping

def encode(message: Any) -> bytes:
    """One message as one line of compact, strict JSON in UTF-8 (lone surrogates escaped)."""
    try:
        return json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8") + b"\n"
    except UnicodeEncodeError:  # a lone surrogate: \\uXXXX escapes are valid JSON and valid UTF-8
        return json.dumps(message, ensure_ascii=True, separators=(",", ":"), allow_nan=False).encode("ascii") + b"\n"


def encode_result(message: Any) -> bytes:
    """:func:`encode` of a message built by the engine itself from strings, booleans, integers, lists and
    dicts with string keys (no float, which orjson would write otherwise): the same bytes, faster.
    Anything orjson will not write (an integer past 64 bits, a lone surrogate) goes to :func:`encode`."""
    if orjson is not None:
        try:
            return orjson.dumps(message) + b"\n"
        except TypeError:
            pass
    return encode(message)


_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """``text`` with lone surrogates (which no UTF-8 file can hold) replaced by U+FFFD."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def scrub(value: Any) -> Any:
    """A copy of a decoded value that any strict JSON writer takes: strings cleaned
    (:func:`clean_text`), non-finite numbers written as strings, nesting past
    :data:`JSON_DEPTH` cut. Iterative."""
    if isinstance(value, str):
        return clean_text(value)
    if not isinstance(value, (list, dict, float)):
        return value
    root: list = [None]
    stack = [(value, root, 0, 0)]
    while stack:
        v, parent, key, d = stack.pop()
        if isinstance(v, str):
            out = clean_text(v)
        elif isinstance(v, float) and not math.isfinite(v):
            out = str(v)
        elif isinstance(v, (list, dict)) and d >= JSON_DEPTH:
            out = f"(nested more than {JSON_DEPTH} levels deep)"
        elif isinstance(v, list):
            out = [None] * len(v)
            stack.extend((x, out, i, d + 1) for i, x in enumerate(v))
        elif isinstance(v, dict):
            out = {}
            for k, x in v.items():
                out[clean_text(str(k))] = None
                stack.append((x, out, clean_text(str(k)), d + 1))
        else:
            out = v
        parent[key] = out
    return root[0]
