"""Strict, bounded JSON lines (conformance/protocol/jsonlines.py): what the engine and the runner read and write."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.protocol.jsonlines import BadMessage, LineSplitter, clean_text, decode, depth, encode, read_seq, scrub
from tractor_dsl.limits import JSON_DEPTH

# JSON values whose strings may hold anything, lone surrogates included
ANY_TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=8)
VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                      | ANY_TEXT,
                      lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
                      max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(VALUES)
def test_encode_always_writes_one_line_of_strict_utf8_json(value):
    line = encode(value)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    text = line.decode("utf-8")  # valid UTF-8, whatever the strings held
    assert json.loads(text) == value  # escapes keep even lone surrogates
    assert decode(line[:-1]) == value if depth(value) <= JSON_DEPTH else True


@settings(max_examples=200, deadline=None)
@given(VALUES)
def test_scrubbed_values_are_written_by_any_strict_writer(value):
    clean = scrub(value)
    json.dumps(clean, ensure_ascii=False, allow_nan=False).encode("utf-8")  # would raise on a surrogate
    assert scrub(clean) == clean


@pytest.mark.parametrize("line,kind,words", [
    (b'{"seq": 1, "x": NaN}', "invalid_json", "NaN is not a JSON value"),
    (b'{"seq": 1, "x": -Infinity}', "invalid_json", "-Infinity is not a JSON value"),
    (b'{"seq": 1, "x": 1e999}', "invalid_json", "too large"),
    (b'{"seq": 1, "x": "\xff"}', "not_utf8", "byte 17 is 0xff"),
    (b'{"seq": 1, ', "invalid_json", "not JSON"),
    (b'{"x": ' + b"9" * 5000 + b'}', "invalid_json", "not JSON"),
    (b"[" * 65 + b"]" * 65, "too_deep", "more than 64 levels"),
    (b"[" * 100_000 + b"]" * 100_000, "too_deep", "more than 64 levels"),
    (b'{"a": ' * 70 + b"1" + b"}" * 70, "too_deep", "more than 64 levels"),
])
def test_decode_refuses_what_strict_json_does_not_hold(line, kind, words):
    with pytest.raises(BadMessage) as info:
        decode(line)
    assert info.value.kind == kind and words in str(info.value)


def test_decode_takes_the_deepest_allowed_and_wide_messages():
    assert depth(decode(b"[" * JSON_DEPTH + b"]" * JSON_DEPTH)) == JSON_DEPTH
    assert decode(b'{"cards": [' + b",".join([b'"5H"'] * 5000) + b"]}")["cards"][-1] == "5H"


def test_the_seq_of_an_unreadable_line():
    assert read_seq(b'{"seq": 17, "op": [') == 17
    assert read_seq(b'{"op": "x", "seq":4}') == 4
    assert read_seq(b'{"op": "x"}') is None and read_seq(b'{"seq": "4"}') is None


def test_oversized_lines_keep_their_head_and_nothing_else():
    s = LineSplitter(cap=100, keep_head=True)
    s.feed(b'{"seq": 9, "x": "' + b"y" * 1000)
    assert len(s.partial) == 0 and s.discarding > 100
    s.feed(b'"}\n{"seq": 10}\n')
    (kind, n, head), line = s.lines
    assert (kind, n) == ("oversized", 17 + 1000 + 2) and read_seq(head) == 9 and line == ("line", b'{"seq": 10}')


def test_splitting_is_the_same_whatever_the_pieces():
    data = b'{"a": 1}\n\n' + b"x" * 300 + b'\n{"b": [2]}\n{"c"'
    whole = LineSplitter(cap=200)
    whole.feed(data)
    whole.close()
    for size in (1, 3, 7, 64):
        pieces = LineSplitter(cap=200)
        for i in range(0, len(data), size):
            pieces.feed(data[i:i + size])
        pieces.close()
        assert list(pieces.lines) == list(whole.lines)
    assert list(whole.lines) == [("line", b'{"a": 1}'), ("oversized", 300), ("line", b'{"b": [2]}'), ("line", b'{"c"')]


def test_clean_text_replaces_lone_surrogates_only():
    assert clean_text("a\ud800b中\U0001F600") == "a\ufffdb中\U0001F600"
    assert scrub({"x\udfff": [float("nan"), "\ud800"]}) == {"x\ufffd": ["nan", "\ufffd"]}


# --------------------------------------------------------------------------- the fast library reads and writes the same

def _stdlib_decode(line: bytes):
    """What :func:`decode` gives without orjson: the standard library's reading."""
    from conformance.protocol import jsonlines
    fast, jsonlines.orjson = jsonlines.orjson, None
    try:
        return _decode(line)
    finally:
        jsonlines.orjson = fast


def _decode(line: bytes):
    try:
        return "value", decode(line)
    except BadMessage as e:
        return e.kind, str(e)


@pytest.mark.parametrize("line", [
    b'{"seq": 18446744073709551616, "op": "shutdown"}',    # past 64 bits: orjson alone would give a float
    b'{"seq": -9223372036854775809}', b'[1e400]', b'[-1e400]', b'[NaN]', b'[Infinity]', b'"\\ud800"',
    b'{"a": 1, "a": 2, "b": 3}', b'\xef\xbb\xbf{"seq": 1}', b'"\xed\xa0\x80"', b'[1.5E3, -0, 0.1e1, 1E-400]',
    b' \t{"seq": 3, "input": {"cards": ["10H", "J+"]}}\r ', b'"a\x01"', b'01', b'[1,]',
    b'[' * (JSON_DEPTH + 1) + b']' * (JSON_DEPTH + 1), b'[' * 3000 + b']' * 3000,
    b'{"seq": 7, "note": "1234567890123456789012"}', b'"\\u0000\\/"',
    b'{"a":1,"a":2}', b'{"a" : 1, "a": 2}', b'{"a":"x\\":","b":1}', b'{"a":[{"c":1,"c":2}]}', b'[[{"c":[],"c":{}}]]',
    b'{"a":\t{"b": [1, {"d": 2, "d" :3}]}}',
])
def test_decode_gives_the_standard_librarys_reading(line):
    assert _decode(line) == _stdlib_decode(line)


@settings(max_examples=200, deadline=None)
@given(VALUES)
def test_decode_of_any_value_is_the_standard_librarys(value):
    line = encode(value)[:-1]
    got, want = _decode(line), _stdlib_decode(line)
    assert got == want
    if got[0] == "value":  # -0.0 == 0.0: the types and signs too
        assert repr(got[1]) == repr(want[1])


RESULTS = st.recursive(st.none() | st.booleans() | st.integers() | ANY_TEXT,
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
                       max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(RESULTS)
def test_encode_result_writes_the_bytes_encode_writes(value):
    from conformance.protocol.jsonlines import encode_result
    assert encode_result({"seq": 1, "result": value}) == encode({"seq": 1, "result": value})


def _plain_keys(value) -> int:
    if isinstance(value, dict):
        return len(value) + sum(_plain_keys(v) for v in value.values())
    if isinstance(value, list):
        return sum(_plain_keys(v) for v in value)
    return 0


@settings(max_examples=300, deadline=None)
@given(VALUES, st.sampled_from([(",", ":"), (", ", ": "), (",", " : "), (",\t", ":\r\n")]))
def test_the_duplicate_key_check_counts_as_the_plain_procedures(value, separators):
    """decode's check that orjson kept every key: keys counted without recursion, marks without the regex
    where no quote is followed by a blank."""
    from conformance.protocol.jsonlines import _DIGITS_AS_ZERO, _KEY_MARK, _key_marks, _keys, _object_keys
    assert _keys(value) == _plain_keys(value)
    line = json.dumps(value, separators=separators).encode()
    assert _object_keys(value, line) in (None, _plain_keys(value))
    assert _key_marks(line, line.translate(_DIGITS_AS_ZERO)) == len(_KEY_MARK.findall(line))


CARD_TEXT = st.text(st.sampled_from("0123456789JQKASHDC+-"), max_size=3)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(ANY_TEXT, VALUES, max_size=4), st.lists(st.lists(CARD_TEXT, max_size=5), max_size=3))
def test_keys_counted_through_objects_alone_are_all_the_keys_or_none(value, card_lists):
    """A request's shape (objects holding objects and lists of card strings) is counted through its objects
    alone; anything else is counted so too or left to _keys (an object in a list, a brace in a string)."""
    from conformance.protocol.jsonlines import _object_keys
    request = {"seq": 1, "op": "follow", "input": {"level": "2", "trump": None, "plays": card_lists}}
    line = json.dumps(request, separators=(",", ":")).encode()
    assert _object_keys(request, line) == _plain_keys(request)
    mixed = {**value, **request}
    line = json.dumps(mixed, separators=(",", ":")).encode()
    assert _object_keys(mixed, line) in (None, _plain_keys(mixed))
