"""Every limit of every tool, stated once.

A rule file, an engine's request and an engine's answer may come from anyone,
so each tool bounds what it reads. Input over a limit is refused with its own
code (and a position where one exists) before it can cost more than a few
seconds or a few hundred MB; no limit is reached by the bundled rulebooks or
by any request the conformance suite sends, by a wide margin.

``tractor check`` (and everything that reads rule files) reports its limits
as diagnostics (``E0xx``, ``E3xx``, ``E5xx``); ``tractor engine`` answers a
request over a limit ``errored`` with ``context.code``; ``tractor conform``
reports an answer over a limit as an ``errored`` case of that kind. The docs
print :data:`SPEC_LIMITS` and :data:`PROTOCOL_LIMITS` as tables
(docs/language.rst, docs/protocol.md).
"""
from __future__ import annotations

from dataclasses import dataclass

MIB = 1 << 20


@dataclass(frozen=True)
class Limit:
    name: str
    value: int
    unit: str
    code: str      # a diagnostic code (rule files) or an errored kind (protocol)
    where: str     # the tools that enforce it
    what: str

    def __str__(self) -> str:
        return f"{self.value:,} {self.unit}"


# --- rule files (tractor check, fmt, show, ... and every tool that loads the spec) ---------------

SPEC_BYTES = 16 * MIB        # one rule file
SPEC_TOKENS = 750_000        # words, numbers, strings, comments and punctuation in one rule file
SPEC_NESTING = 64            # lists, records and formula operators inside one another
SPEC_EXPRESSION = 64         # operands of one formula
LADDER_ENTRIES = 32          # entries of one follow ladder (shadowing is checked pairwise)
EXTENDS_DEPTH = 16           # rulesets in one extends chain, the ruleset itself included
DIAGNOSTICS = 1000           # problems reported in one run before the checker stops
NUMBER_DIGITS = 18           # digits of one number in a rule file
FORMULA_MAGNITUDE = 1 << 53  # every value inside a formula (the largest whole number a JSON double holds exactly)
FORMULA_EXPONENT = 63        # the exponent of '^' (of a base other than 0, 1 and -1)
MULTIPLIER_MAX = 1 << 40     # a kitty multiplier: kitty points × it stays exact in any JSON reader

SPEC_LIMITS = (
    Limit("file size", SPEC_BYTES, "bytes", "E009", "parser",
          "A rule file larger than this is refused unread."),
    Limit("file tokens", SPEC_TOKENS, "tokens", "E013", "parser",
          "Words, numbers, strings, comments and punctuation in one rule file (the bundled ones hold "
          "fewer than 3,000)."),
    Limit("nesting depth", SPEC_NESTING, "levels", "E011", "parser",
          "Lists, records and formula operators inside one another in one value."),
    Limit("expression length", SPEC_EXPRESSION, "operands", "E012", "parser",
          "Numbers and names joined by + - * ^ in one formula."),
    Limit("number size", NUMBER_DIGITS, "digits", "E015", "parser",
          "Digits of one number in a rule file."),
    Limit("formula values", FORMULA_MAGNITUDE, "in magnitude", "E211", "checker, interpreter",
          "Every value inside a formula, for every card count the ruleset allows (2^53, the largest whole "
          "number a JSON double holds exactly); the interpreter refuses to compute past it."),
    Limit("formula exponent", FORMULA_EXPONENT, "as exponent", "E211", "checker, interpreter",
          "The exponent of '^'; a negative exponent (a fraction) is refused."),
    Limit("kitty multiplier", MULTIPLIER_MAX, "as multiplier", "E212", "checker",
          "A kitty multiplier's value is a whole number from 0 to this for every card count its row is read "
          "at (single 1, pair 2, triple 3, tractor 4 up to the hand size, throw 2 up to the hand size)."),
    Limit("follow ladder", LADDER_ENTRIES, "entries", "E310", "checker",
          "Entries of one follow ladder (each entry is checked against every earlier one)."),
    Limit("extends depth", EXTENDS_DEPTH, "rulesets", "E511", "checker",
          "Rulesets in one chain of 'extends', the ruleset itself included."),
    Limit("problems", DIAGNOSTICS, "diagnostics", "E014", "checker",
          "Problems reported in one run; the checker stops after this many."),
)

# --- the engine protocol (tractor engine, tractor conform) -------------------------------------

LINE_BYTES = 1 * MIB         # one request line, one answer line
JSON_DEPTH = 64              # arrays and objects inside one another in one message
CARDS_PER_REQUEST = 1000     # card tokens in one request, all lists together
STDERR_KEEP = 64 << 10       # the last bytes of an engine's stderr kept for the report
STDERR_FLOOD = 1 * MIB       # more stderr than this is noted as a stderr_flood event
ANSWER_KEEP = 4000           # characters of a bad answer kept in a report
EVENTS = 1000                # events kept in one report
EXPECT_BYTES = 16 * MIB      # one expectation file (--expect)
VECTOR_FILE_BYTES = 64 * MIB # one vector file (<ruleset>/<op>.jsonl)
REPORT_BYTES = 256 * MIB     # one report.json read back (tractor explain --case ID --report FILE)

PROTOCOL_LIMITS = (
    Limit("line size", LINE_BYTES, "bytes", "line_too_long", "engine, runner",
          "One request or answer line, newline excluded; a longer line is discarded as it streams in."),
    Limit("nesting depth", JSON_DEPTH, "levels", "too_deep", "engine, runner",
          "Arrays and objects inside one another in one request or answer."),
    Limit("cards per request", CARDS_PER_REQUEST, "cards", "too_many_cards", "engine",
          "Card tokens in one request, every list counted (the largest the suite sends, a whole hand "
          "of three decks, holds about 350)."),
    Limit("stderr kept", STDERR_KEEP, "bytes", "stderr_flood", "runner",
          "The engine's stderr is drained always; the last bytes are kept, a flood is noted as an event."),
    Limit("answer kept", ANSWER_KEEP, "characters", "-", "runner",
          "Characters of a bad answer kept in a report; the rest is cut and its length noted."),
    Limit("events", EVENTS, "events", "-", "runner", "Events (crashes, stray lines, ...) kept in one report."),
    Limit("expectation file", EXPECT_BYTES, "bytes", "-", "runner",
          "One --expect file, read at most this far (so --expect /dev/zero ends); UTF-8, nested at most "
          "as deep as a message."),
    Limit("vector file", VECTOR_FILE_BYTES, "bytes", "-", "runner",
          "One vector file (<ruleset>/<op>.jsonl); each line is read as a message (line size, nesting "
          "depth, strict JSON) and must be a whole vector."),
    Limit("JSON input", LINE_BYTES, "bytes", "-", "explain",
          "A protocol input given as a file (tractor explain --input @FILE, hand --transcript FILE): read at "
          "most this far, strict JSON (a key given twice is refused, as the engine refuses it), nested at "
          "most as deep as a message."),
    Limit("report file", REPORT_BYTES, "bytes", "-", "explain",
          "A report.json read back (tractor explain --case ID --report FILE), within the same JSON limits."),
)
