"""Structural generators for fuzzing the checker: rule files built around one extreme each.

Random bytes and tokens rarely reach the shapes that break a checker: values
nested thousands deep, formulas of thousands of operands, ladders with huge
lengths and counts, long chains of ``extends``, thousands of cites, numbers of
thousands of digits, control characters in strings. :func:`structural` draws
one of these, written into an otherwise valid ruleset, as ``(text, extra)``:
the main file and the other files it may extend. Shared by
``tests/dsl/test_fuzz.py`` (a CI sample) and ``benchmarks/fuzz_specs.py`` (the
offline run of 100,000 specs).
"""
from __future__ import annotations

from hypothesis import strategies as st

from .dsl_support import clause, minimal

SETTINGS = ["level.must_play", "kitty.multiplier", "equipment.points", "tractor.junctions", "x.y", "score.cap"]
SHAPES = ["single", "pair", "triple", "tractor(pair, {n})", "tractor(triple, {n})", "tractor(single, {n})",
          "tractor(pair, 0)", "quad"]
CHARS = ["\x00", "\x1b[2J", "\x07", "\r", "\x7f", "\x9b", "\u202e", "\u2066", "\ufeff", "\t", "中", "\U0001F600"]
ESCAPES = [r"\x00", r"\u0000", r"\ud800", r"\N{NULL}", r"\x1b", r"\n", r"\t", r"\"", r"\\", r"\q", r"\u4e2d"]


def sizes(small: int = 70, large: int = 20_000):
    """Mostly around the limits (three times in four), sometimes far past them."""
    near = st.integers(0, small)
    return st.one_of(near, near, near, st.integers(small, large))


def cycled(draw, elements, n: int) -> list:
    """``n`` items repeating a short drawn pattern (long inputs without a long draw)."""
    pattern = draw(st.lists(elements, min_size=1, max_size=6))
    return [pattern[i % len(pattern)] for i in range(n)]


def numbers():
    return st.one_of(st.integers(-5, 80), st.integers(-10 ** 30, 10 ** 30),
                     st.integers(1, 6000).map(lambda n: "9" * n)).map(str)


@st.composite
def nested(draw) -> str:
    depth = draw(sizes())
    openers = cycled(draw, st.sampled_from(["[", "{ a: ", "(", "[1, ", "{ 2: "]), depth)
    closing = {"[": "]", "{ a: ": " }", "(": ")", "[1, ": "]", "{ 2: ": " }"}
    inner = draw(st.sampled_from(["1", "cards", "none", '"x"', "[]", "{}"]))
    return "".join(openers) + inner + "".join(closing[o] for o in reversed(openers))


@st.composite
def formula(draw) -> str:
    n = max(1, draw(sizes(80, 5000)))
    operands = cycled(draw, st.sampled_from(["cards", "1", "2", "(cards - 1)", "x", "-3", "99999999999"]), n)
    ops = cycled(draw, st.sampled_from([" + ", " - ", " * ", " ^ "]), n - 1)
    return operands[0] + "".join(o + x for o, x in zip(ops, operands[1:]))


@st.composite
def ladder(draw) -> str:
    def shape():
        return draw(st.sampled_from(SHAPES)).replace("{n}", draw(numbers()))

    entries = []
    for _ in range(draw(st.integers(1, 40))):
        terms = [f"{draw(st.sampled_from(['', '2 ', draw(numbers()) + ' ']))}{shape()}"
                 for _ in range(draw(st.integers(1, 4)))]
        entries.append(" + ".join(terms))
    return f"follow {shape()}: " + " / ".join(entries)


@st.composite
def odd_string(draw) -> str:
    parts = draw(st.lists(st.one_of(st.sampled_from(CHARS), st.sampled_from(ESCAPES), st.text(max_size=3)),
                          max_size=6))
    return '"' + "".join(p.replace('"', "").replace("\n", "") if p not in ESCAPES else p for p in parts) + '"'


@st.composite
def structural(draw) -> tuple[str, dict[str, str]]:
    kind = draw(st.sampled_from(["nested", "formula", "ladder", "many", "extends", "strings", "numbers",
                                 "bands", "bytes"]))
    extra: dict[str, str] = {}
    if kind == "nested":
        text = minimal(clause("c", f"set {draw(st.sampled_from(SETTINGS))} = {draw(nested())}"))
    elif kind == "formula":
        text = minimal().replace("tractor: 2 * cards", f"tractor: {draw(formula())}")
    elif kind == "ladder":
        text = minimal(clause("c", "\n".join(draw(st.lists(ladder(), min_size=1, max_size=3)))))
    elif kind == "many":
        n = draw(sizes(100, 5000))
        what = draw(st.sampled_from(["cites", "clauses", "readings", "list", "record", "overrides"]))
        if what == "cites":
            text = minimal(clause("c", "", cites=", ".join(
                cycled(draw, st.sampled_from(["003:2", "003:1", "001:1", "999:9", "003:3.1"]), max(1, n)))))
        elif what == "clauses":
            distinct = draw(st.integers(1, max(1, n)))
            text = minimal("".join(clause(f"c{i % distinct}", "") for i in range(n)))
        elif what == "readings":
            body = 'reason "r"\n' + "".join(f'reading r{i} "R" {{ set score.cap = {i} }}\n' for i in range(n))
            text = minimal(clause("c", body + "choose r0", status="interpreted"))
        elif what == "list":
            text = minimal().replace("set level.must_play = []", "set level.must_play = [" + ", ".join(
                cycled(draw, st.sampled_from(["2", "3", "K", "Z", "[]"]), n)) + "]")
        elif what == "record":
            keys = cycled(draw, st.sampled_from(["5", "10", "K", "x"]), n)
            text = minimal().replace("set equipment.points = { 5: 5, 10: 10, K: 10 }", "set equipment.points = { "
                                     + ", ".join(f"{k}: {i}" for i, k in enumerate(keys)) + " }")
        else:
            text = minimal(clause("c", ""))
            extra["o.tractor"] = "ruleset ro extends rmin {\n" + "".join(
                f'  override {name} choose a because "x"\n'
                for name in cycled(draw, st.sampled_from(["c", "base", "zz"]), n)) + "}\n"
    elif kind == "extends":
        n = draw(sizes(20, 3000))
        names = [f"e{i}" for i in range(n)]
        bases = cycled(draw, st.sampled_from(["rmin", "previous", "previous", "previous", "next", "nope"]), n)
        bodies = cycled(draw, st.sampled_from(["", '  override base choose x because "y"\n', '  title "t"\n']), n)
        for i, name in enumerate(names):
            base = {"previous": names[i - 1] if i else "rmin", "next": names[min(n - 1, i + 1)]}.get(bases[i], bases[i])
            extra[f"{name}.tractor"] = f"ruleset {name} extends {base} {{\n{bodies[i]}}}\n"
        text = minimal()
    elif kind == "strings":
        text = minimal(clause("c", "")).replace('says "S."', f"says {draw(odd_string())}")
        text = text.replace('title "Minimal"', f"title {draw(odd_string())} {draw(odd_string())}")
        if draw(st.booleans()):
            text = draw(st.sampled_from(["\ufeff", "\ufeff\ufeff", "\x00", "# \x1b[2J\n", "\u202e"])) + text
    elif kind == "numbers":
        text = minimal(clause("c", f"set score.cap = {draw(numbers())}\nband {draw(numbers())}..{draw(numbers())} "
                                   f"-> banker +{draw(numbers())} step {draw(numbers())}"))
        text = text.replace("set score.threshold = 80", f"set score.threshold = {draw(numbers())}")
    elif kind == "bands":
        n = draw(sizes(10, 2000))
        bands = cycled(draw, st.builds("band {}..{} -> {} +{}".format, numbers(), numbers(),
                                       st.sampled_from(["banker", "attackers"]), st.integers(0, 3)), n)
        text = minimal(bands=bands)
    else:  # raw bytes of every kind, decoded as the file reader would refuse or accept them
        raw = draw(st.binary(max_size=64))
        text = minimal().replace("    status stated", "    status stated " + raw.decode("utf-8", "replace"), 1)
    return text, extra
