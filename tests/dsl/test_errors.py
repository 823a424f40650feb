"""Malformed and invalid rule files: each reports the right code, message and position.

Every case starts from :func:`dsl_support.minimal`, a ruleset that checks
clean apart from coverage (E601/E602, filtered out), and breaks one thing.
A case names the diagnostic it expects (code, a stable part of the message,
line and column) and the other codes it may bring along; any other problem
fails the case.
"""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from .dsl_support import FILE, check, clause, locate, minimal, problems, settings
from tractor_dsl.checker import default_spec_dir
from tractor_dsl.diagnostics import Diagnostic, SpecError
from tractor_dsl.model import Span
from tractor_dsl.parser import parse


@dataclass
class Case:
    code: str
    text: str
    message: str
    where: tuple[int, int]
    file: str = FILE
    extra: dict | None = None
    also: tuple[str, ...] = ()
    severity: str = "error"


def at(text: str, needle: str, nth: int = 0, offset: int = 0) -> tuple[int, int]:
    return locate(text, needle, nth, offset)


def interpreted(cid: str, body: str, cites: str = "003:2") -> str:
    return clause(cid, body, cites=cites, status="interpreted")


def _cases() -> dict[str, Case]:
    cases: dict[str, Case] = {}

    def add(name: str, code: str, text: str, message: str, where, **kw) -> None:
        assert name not in cases
        cases[name] = Case(code, text, message, where, **kw)

    base = minimal()

    # --- syntax (E0xx) ---
    t = base.replace("set level.start = 2", "set level.start = 2 $")
    add("E001 stray character", "E001", t, "unexpected character '$'; expected ", at(t, "$"))
    t = base[:base.index("    status stated")]
    add("E002 end of file", "E002", t, "unexpected end of file; expected ", at(t, "cites 003:1", offset=11))
    t = base[:base.index("  clause base")] + "  clause base {\n"
    add("E002 unclosed clause", "E002", t, "expected 'alternative', 'band', 'choose', 'cites'", at(t, "{\n", 1, 1))
    t = base.replace("status stated", "status }", 1)
    add("E003 brace for a name", "E003", t, "unexpected '}'; expected a name", at(t, "status }", offset=7))
    t = base.replace("set level.start = 2", "set level.start 2")
    add("E003 missing equals", "E003", t, "unexpected '2'; expected '='", at(t, "level.start 2", offset=12))
    t = base.replace("    status stated", "    frobnicate stated", 1)
    add("E003 unknown keyword", "E003", t, "unexpected 'frobnicate'; expected ", at(t, "frobnicate"))
    t = base.replace("set level.ranks = [2, 3,", "set level.ranks = [2 3,")
    add("E003 list without comma", "E003", t, "unexpected '3'; expected ", at(t, "[2 3", offset=3))
    t = base.replace("cites 003:1", "cites 3:1")
    add("E003 malformed cite", "E003", t, "expected a clause id such as 001:9d", at(t, "3:1"))
    t = base.replace('says "Everything."', r'says "bad \x4"')
    add("E004 bad escape", "E004", t, "escape sequence that cannot be read", at(t, "says \"bad"))

    # --- what no rule file may hold, and the limits of one file (E010-E012) ---
    t = base.replace('zh "一切。"', 'zh "一切\x00。"')
    add("E010 NUL in a string", "E010", t, "holds the character U+0000", at(t, "\x00"))
    t = base.replace('zh "一切。"', 'zh "一\x1b[2J切。"')
    add("E010 escape sequence in a string", "E010", t, "holds the character U+001B", at(t, "\x1b"))
    t = base.replace('zh "一切。"', r'zh "一切\u0007。"')
    add("E010 control character written as an escape", "E010", t, "holds the character U+0007", at(t, "\\u0007"))
    t = base.replace('zh "一切。"', 'zh "一切\u202e。"')
    add("E010 bidirectional override", "E010", t, "holds the character U+202E", at(t, "\u202e"))
    deep = "[" * 65 + "]" * 65
    t = base.replace("set level.must_play = []", f"set level.must_play = {deep}")
    add("E011 list nested too deep", "E011", t, "the value of 'level.must_play' is nested 65 levels deep",
        at(t, deep))
    deep = "{ a: " * 300 + "1" + " }" * 300
    t = base.replace("set level.must_play = []", f"set level.must_play = {deep}")
    add("E011 records nested too deep", "E011", t, "is nested 300 levels deep", at(t, deep))
    long_sum = " + ".join(["cards"] * 500)
    t = base.replace("tractor: 2 * cards", f"tractor: {long_sum}")
    add("E012 formula too long", "E012", t, "more than 64 operands", at(t, long_sum))

    # --- clauses (E1xx) ---
    t = minimal(clause("c", "", status=None))
    add("E101 no status", "E101", t, "clause 'c' has no status", at(t, "clause c", offset=7))
    t = minimal(clause("c", "", status="stater"))
    add("E102 unknown status", "E102", t, "unknown status 'stater'; did you mean 'stated'?", at(t, "stater"))
    t = minimal(clause("c", "", cites=None))
    add("E103 no cites", "E103", t, "clause 'c' cites no source clause", at(t, "clause c", offset=7))
    t = minimal('  clause c {\n    cites 003:2\n    status stated\n    zh "中"\n  }\n')
    add("E104 no says", "E104", t, "clause 'c' has no English statement ('says')", at(t, "clause c", offset=7))
    # prose without Chinese is an error only in the bundled library (spec/); E119 cases are below
    t = minimal('  clause c {\n    cites 003:2\n    status stated\n    says "S"\n  }\n', name="rlib")
    add("E109 no zh in the library", "E109", base, "clause 'c' ('zh') has no Chinese text", at(t, "clause c", offset=7),
        file=LIBRARY_FILE, extra={LIBRARY_FILE: t})
    t = minimal(clause("c", "", cites="003:2, 003:3.1, 003:2"))
    add("E105 cited twice", "E105", t, "'003:2' is cited twice in clause 'c'", at(t, "003:2", 1))
    t = minimal(clause("c", "status conduct"))
    add("E106 status twice", "E106", t, "'status' is given twice in clause 'c'", at(t, "conduct"))
    t = minimal(head='title "A"\n  title "B"\n  document "003"')
    add("E106 title twice", "E106", t, "'title' is given twice in ruleset 'rmin'", at(t, '"B"'))
    t = minimal(interpreted("c", 'reason "r"\nreading a "A" {\nsays "x"\nsays "y"\n}\nreading b "B" {}\nchoose a'))
    add("E106 says twice in a reading", "E106", t, "'says' is given twice in reading 'a'", at(t, '"y"'))
    t = minimal(clause("c", "", cites="003:7.9"))
    add("E107 unknown cite", "E107", t, "unknown source clause '003:7.9'; did you mean '003:7.5'?", at(t, "003:7.9"))
    t = minimal(clause("c", "", cites="001:1"))
    add("W108 cite of another document", "W108", t, "'001:1' belongs to document 001, not to this ruleset's "
        "document 003", at(t, "001:1"), severity="warning")
    t = minimal(clause("c", "", cites="003:g1"))
    add("E110 stated gap", "E110", t, "'003:g1' is a gap in the source; a clause resolving it must be "
        "'interpreted'", at(t, "003:g1"))
    t = minimal(clause("c", 'set tournament.tie_break = "coin"', status="conduct"))
    add("E111 conduct with rules", "E111", t, "conduct clause 'c' cannot hold rules", at(t, "clause c", offset=7))
    t = minimal(interpreted("c", 'alternative "other"'))
    add("E112 no reason", "E112", t, "interpreted clause 'c' must give its reason", at(t, "clause c", offset=7))
    t = minimal(interpreted("c", 'reason "why"'))
    add("E113 no alternatives", "E113", t, "interpreted clause 'c' must name the alternatives considered",
        at(t, "clause c", offset=7))
    t = minimal(clause("c", 'reading a "A" {}\nchoose a'))
    add("E114 stated with readings", "E114", t, "stated clause 'c' has readings", at(t, "reading a", offset=8))
    t = minimal(interpreted("c", 'reason "r"\nreading a "A" {}\nreading a "B" {}\nchoose a'))
    add("E115 reading twice", "E115", t, "reading 'a' is declared twice in clause 'c'", at(t, "reading a", 1, 8))
    t = minimal(interpreted("c", 'reason "r"\nreading a "A" {}\nreading b "B" {}'))
    add("E116 readings without choose", "E116", t, "clause 'c' declares readings but chooses none",
        at(t, "clause c", offset=7))
    t = minimal(interpreted("c", 'reason "r"\nreading alpha "A" {}\nreading beta "B" {}\nchoose alpah'))
    add("E117 choose unknown reading", "E117", t, "clause 'c' chooses 'alpah', which is not one of its readings; "
        "did you mean 'alpha'?", at(t, "alpah"))
    t = minimal(clause("base", "", cites="003:2"))
    add("E118 clause twice", "E118", t, "clause 'base' is defined already", at(t, "clause base", 1, 7))

    # --- settings (E2xx) ---
    t = minimal(clause("c", "set level.strat = 2"))
    add("E201 unknown setting", "E201", t, "unknown setting 'level.strat'; did you mean 'level.start'?",
        at(t, "level.strat"))
    t = minimal(clause("c", "set follow.ladders = {}"))
    add("E201 collected setting", "E201", t, "unknown setting 'follow.ladders'; use 'follow' statements instead",
        at(t, "follow.ladders"))
    t = minimal(values=settings(equipment__decks='"two"'))
    add("E202 string for an int", "E202", t, "equipment.decks: expected a whole number from 1 to 4, found the "
        "string 'two'", at(t, '"two"'))
    t = minimal(values=settings(equipment__decks="9"))
    add("E202 int out of range", "E202", t, "equipment.decks: 9 is out of range: expected a whole number from 1 "
        "to 4", at(t, "decks = 9", offset=8))
    t = minimal(values=settings(equipment__players="6"))
    add("E202 more than four players: out of scope, with the reason", "E202", t,
        "equipment.players: 6 is out of range: expected a whole number from 4 to 4; the rule language is for four "
        "players in two fixed partnerships, partners opposite: more players, partners found in play (找朋友, Finding "
        "Friends), one banker against three (一打三) and other table sizes are other games, out of scope",
        at(t, "players = 6", offset=10),
        also=("E205",))
    t = minimal(values=settings(deal__direction="clockwize"))
    add("E202 enum with did-you-mean", "E202", t, "deal.direction: 'clockwize' is not one of counter_clockwise, "
        "clockwise; did you mean 'clockwise'?", at(t, "clockwize"))
    t = minimal(values=settings(penalty__revoke="{ points_per_card: 10, ends_hand: false, banker_side: none, "
                                                 "attackerz: none }"))
    add("E202 record unknown field", "E202", t, "penalty.revoke: unknown field 'attackerz'; did you mean "
        "'attackers'?", at(t, "attackerz"))
    t = minimal(values=settings(penalty__revoke="{ points_per_card: 10, ends_hand: false, banker_side: none }"))
    add("E202 record missing field", "E202", t, "penalty.revoke: missing field(s) attackers in a record",
        at(t, "revoke = {", offset=9))
    t = minimal(values=settings(kitty__multiplier="{ trump: { single: 2, pair: 4, tractor: 2 * card }, "
                                                   "side: { single: 1, pair: 2, tractor: cards } }"))
    add("E202 formula variable", "E202", t, "kitty.multiplier: unknown variable 'card' in formula; the variables "
        "are 'cards' and 'pairs'", at(t, "2 * card ", offset=4))
    t = minimal(values=settings(kitty__multiplier="{ trump: { single: 2, pair: 4, tractor: 2 ^ pair }, "
                                                   "side: { single: 1, pair: 2, tractor: cards } }"))
    add("E202 formula variable pair", "E202", t, "kitty.multiplier: unknown variable 'pair' in formula; the "
        "variables are 'cards' and 'pairs'", at(t, "2 ^ pair ", offset=4))
    t = minimal(values=settings(level__must_play="[A, A]"))
    add("E202 list item twice", "E202", t, "level.must_play: 'A' appears twice in the list", at(t, "[A, A]", offset=4))
    t = minimal(values=settings(tractor__mixed="yes"))
    add("E202 bool", "E202", t, "tractor.mixed: expected true or false, found 'yes'", at(t, "= yes", offset=2))
    t = minimal(clause("c", "set match.minutes = 3"))
    add("E203 set twice", "E203", t, "'match.minutes' is set twice: here and in clause 'base' (t.tractor:",
        at(t, "match.minutes", 1))
    t = minimal(values=settings(deal__direction=None))
    add("E204 required setting missing", "E204", t, "ruleset 'rmin' does not set 'deal.direction'",
        at(t, "rmin"))
    t = minimal(values=settings(equipment__hand_size="26"))
    add("E205 impossible equipment", "E205", t, "impossible equipment: 4 hands of 26 plus a kitty of 8 is 112 "
        "cards, but 2 deck(s) hold 108", at(t, "equipment.hand_size"))
    t = minimal(values=settings(level__start="3", level__ranks="[2, 4, A]"))
    add("E206 start not a level", "E206", t, "level.start 3 is not one of level.ranks (2, 4, A)",
        at(t, "level.start"))
    t = minimal(values=settings(level__must_play="[3]", level__ranks="[2, 4, A]"))
    add("E206 must-play not a level", "E206", t, "must-play level 3 is not one of level.ranks",
        at(t, "level.must_play"))
    t = minimal(values=settings(trump__fixed_ranks="[2]", trump__order="[big_joker, small_joker, trump_level, "
                                "off_level, trump_fixed, off_fixed, trump_suit]"))
    add("E207 fixed trump is a level", "E207", t, "rank 2 is both a fixed trump and a level",
        at(t, "trump.fixed_ranks"))
    t = minimal(values=settings(level__ranks="[2, 3, A]", level__end="A", level__knock_back="{ level: J, to: 2 }"))
    add("E206 knock-back level not a level", "E206", t, "level.knock_back names J, which is not one of level.ranks",
        at(t, "level.knock_back"))
    t = minimal(values=settings(level__ranks="[2, 4, A]", level__end="A", level__must_defend="[3]"))
    add("E206 level to defend not a level", "E206", t, "level 3 that must be defended is not one of level.ranks",
        at(t, "level.must_defend"))
    t = minimal(values=settings(level__ranks="[2, J, A]", level__end="A", level__knock_back="{ level: J }"))
    add("E218 knock-back with no target", "E218", t, "level.knock_back sends nobody back", at(t, "level.knock_back"))
    t = minimal(values=settings(level__ranks="[2, J, A]", level__end="A",
                                level__knock_back="{ level: J, to: 2, triple: 2 }"))
    add("E218 knock-back triple with two decks", "E218", t,
        "level.knock_back: a triple of one card needs 3 decks; equipment.decks is 2", at(t, "level.knock_back"))
    t = minimal(values=settings(level__ranks="[2, J, A]", level__end="A",
                                level__knock_back="{ level: J, to: 2, min_points: 900 }"))
    add("E218 knock-back score out of reach", "E218", t,   # H23's min_points: two decks count 200, 800 at most
        "level.knock_back: min_points 900 is out of reach: a hand of 2 deck(s) counts 200 card points",
        at(t, "level.knock_back"))
    t = minimal(values=settings(deal__redeal_at_most="{ points: 15 }"))
    add("E219 weak-hand limit without its condition", "E219", t,
        "deal.redeal_at_most.points needs no_points among deal.redeal_if", at(t, "deal.redeal_at_most"))
    t = minimal(values=settings(deal__redeal_if="[no_trumps]", deal__redeal_at_most="{ trumps: 40 }"))
    add("E219 weak-hand limit every hand meets", "E219", t,
        "deal.redeal_at_most.trumps 40 is every card of a hand of", at(t, "deal.redeal_at_most"))
    t = minimal(values=settings(level__ranks="[2, 3, A]", level__end="A", level__wrap="true"))
    add("E215 wrap with an end level", "E215", t,
        "level.wrap = true needs level.end = none: a climb that wraps past A never passes A", at(t, "level.wrap"))
    t = minimal(values=settings(throw__banned_in="[trump, side_suits]"))
    add("E230 every suit banned from throws", "E230", t,
        "throw.banned_in bans every throw: write throw.allowed = false instead", at(t, "throw.banned_in"))
    t = minimal(values=settings(throw__banned_in="[trump]", throw__allowed="false"))
    add("E230 a suit banned where no throw is allowed", "E230", t,
        "throw.banned_in has nothing to ban: throw.allowed = false bans every throw", at(t, "throw.banned_in"))
    t = minimal(values=settings(equipment__decks="3", equipment__hand_size="39", equipment__kitty_size="6",
                                throw__penalty_by_blocked="{ single: 10, pair: 20, tractor: 40 }"))
    add("E231 no triple's price with three decks", "E231", t,
        "throw.penalty_by_blocked names no price for a triple, which 3 decks can block a throw with",
        at(t, "throw.penalty_by_blocked"))
    t = minimal(values=settings(throw__penalty_by_blocked="{ single: 10, pair: 200, tractor: 40 }"))
    add("E202 a price of a blocked throw out of bounds", "E202", t, "200 is out of range: expected a whole number "
        "from 0 to 100", at(t, "200"))
    t = minimal(values=settings(declare__joker_pairs="false", declare__joker_count="all_decks"))
    add("E232 a joker count where jokers never declare", "E232", t,
        "declare.joker_count has nothing to rule: declare.joker_pairs = false, jokers never declare",
        at(t, "declare.joker_count"))
    t = minimal(values=settings(declare__first_hand_banker="last_declarer", declare__overcall_moves_bank="never"))
    add("E233 the first hand's bank taken by the last declarer, yet overcalls never move it", "E233", t,
        "declare.first_hand_banker = last_declarer needs declare.overcall_moves_bank = first_hand or every_hand (it "
        "is never)", at(t, "declare.first_hand_banker"))
    t = minimal(values=settings(declare__first_hand_banker="first_declarer", declare__overcall_moves_bank="every_hand"))
    add("E233 the bank bid for in every hand (H31), yet the first hand's bank kept by the first declarer", "E233", t,
        "declare.first_hand_banker = first_declarer needs declare.overcall_moves_bank = never (it is every_hand)",
        at(t, "declare.first_hand_banker"))
    t = minimal(values=settings(trump__off_suit_order="[spades, hearts, diamonds]"))
    add("E234 an off-suit order without clubs", "E234", t, "trump.off_suit_order lacks clubs: it ranks the off-suit "
        "trumps of one rank by suit, so it names all four suits", at(t, "trump.off_suit_order"))
    t = minimal(values=settings(trump__off_suit_order="[spades, hearts, spades, clubs]"))
    add("E202 a suit twice in the off-suit order", "E202", t,
        "trump.off_suit_order: 'spades' appears twice in the list", at(t, "spades, clubs"))
    t = minimal(values=settings(trump__off_suit_order="[spades, hearts, diamonds, clubs]",
                                trump__order="[big_joker, small_joker, trump_suit]"))
    add("E234 an off-suit order with the level cards in their suits", "E234", t,
        "trump.off_suit_order has nothing to rank: trump.order has neither the tier off_level nor off_fixed",
        at(t, "trump.off_suit_order"))
    t = minimal(values=settings(follow__fill="lowest_first", equipment__decks="3", equipment__hand_size="39",
                                equipment__kitty_size="6"))
    add("E236 the lowest fill with three decks", "E236", t,
        "follow.fill = lowest_first dictates the fill of a tractor of pairs with two decks", at(t, "follow.fill"))
    t = minimal(values=settings(level__end_on="reach", level__end="none"))
    add("E235 the game won on reaching no end level", "E235", t,
        "level.end_on = reach needs a level.end for a team to reach", at(t, "level.end_on"))
    t = minimal(values=settings(level__end_on="reach", level__end="A", level__must_play="[A]"))
    add("E235 the game won on reaching a must-play level", "E235", t,
        "level.end_on = reach ends the game on reaching A, which level.must_play or level.must_defend makes a level "
        "to be played", at(t, "level.end_on"))
    t = minimal(values=settings(declare__joker_count="every"))
    add("E202 a joker count misspelt", "E202", t, "'every' is not one of pair, all_decks", at(t, "every"))
    t = minimal(values=settings(throw__banned_in="[trumps]"))
    add("E202 a suit of throws misspelt", "E202", t, "'trumps' is not one of trump, side_suits", at(t, "trumps"))
    t = minimal(values=settings(level__ranks="[2, NT, A]", level__end="A"))
    add("E217 the no-trump level among the ranks", "E217", t,
        "NT, the no-trump level, can only be the last of level.ranks", at(t, "level.ranks"))
    t = minimal(values=settings(level__ranks="[2, A, NT]", level__start="NT", level__end="NT"))
    add("E217 a game starting at the no-trump level", "E217", t, "level.start cannot be NT", at(t, "level.start"))
    t = minimal(values=settings(level__ranks="[2, A, NT]", level__end="NT", level__knock_back="{ level: NT, to: 2 }"))
    add("E202 a knock-back at the no-trump level", "E202", t, "expected a rank (2 to 10, J, Q, K, A), found 'NT'",
        at(t, "NT, to"))
    t = minimal(head='title "Minimal" "最小"\n  document "003"\n  variants V14, V87')
    add("E120 unknown house-rule id", "E120", t, "unknown house-rule reading 'V87': the catalogues name "
        "V01 to V86 (VARIANTS.md)", at(t, "V87"))
    t = minimal(values=settings(trump__order="[named, big_joker, small_joker, trump_level, off_level, trump_suit]"))
    add("E213 named tier without cards", "E213", t, "trump.order has the tier 'named' but trump.named_cards names no "
        "card", at(t, "trump.order"))
    t = minimal(values=settings(trump__named_cards="[{ rank: 5, suit: hearts }]"))
    add("E213 named cards without their tier", "E213", t, "the cards are named but trump.order has no tier 'named'",
        at(t, "trump.named_cards"))
    t = minimal(values=settings(equipment__removed="[{ rank: 3, suit: clubs }, { rank: 3, suit: clubs }, "
                                                   "{ rank: 3, suit: clubs }]", equipment__hand_size="25",
                                equipment__kitty_size="5"))
    add("E214 more copies removed than the decks hold", "E214", t,
        "equipment.removed takes 3 copies of the 3 of clubs out of 2 deck(s)", at(t, "equipment.removed"))
    t = minimal(values=settings(equipment__removed="[{ rank: 3, suit: clubs }]"))
    add("E205 removed cards counted", "E205", t, "is 108 cards, but 2 deck(s) less the 1 removed hold 107",
        at(t, "equipment.hand_size"))
    t = minimal(values=settings(tractor__junctions="[[off_level, off_level]]"))
    add("E216 junction of a tier with itself", "E216", t, "junction [off_level, off_level] joins a tier to itself",
        at(t, "tractor.junctions"))
    t = minimal(clause("c", "follow tractor(triple, 2): tractor(triple, 2) / 6 single"))
    add("W311 ladder for a tractor the decks cannot make", "W311", t,
        "the follow ladder for 'tractor(triple, 2)' can never apply: 2 deck(s) hold no triple",
        at(t, "tractor(triple, 2):"), severity="warning")
    t = minimal(clause("c", "follow tractor(pair, 3): tractor(pair, 3) / tractor(pair, 2) + pair / 6 single"),
                values=settings(tractor__min_length="3"))
    add("W311 entry shorter than the shortest tractor", "W311", t,
        "follow entry 'tractor(pair, 2) + pair' can never be played: tractor.min_length = 3 makes no tractor of "
        "2 pairs", at(t, "tractor(pair, 2)"), severity="warning")
    t = minimal(values=settings(tractor__mixed="true"))
    add("W311 mixed tractors with pairs only", "W311", t, "tractor.mixed = true can never apply",
        at(t, "tractor.mixed"), severity="warning")
    t = minimal(values=settings(trump__order="[small_joker, trump_level, off_level, trump_suit]"))
    add("E208 trump order incomplete", "E208", t, "trump.order lacks big_joker", at(t, "trump.order"))
    t = minimal(values=settings(trump__order="[big_joker, small_joker, off_level, trump_suit]"))
    add("E208 one level tier without the other", "E208", t,
        "trump.order lacks trump_level (trump_level and off_level may be left out together)", at(t, "trump.order"))

    # --- follow ladders (E3xx) ---
    t = minimal(clause("c", "follow tractor(quad, 2): 4 pair"))
    add("E301 tractor of quads", "E301", t, "a tractor is made of 'pair' or 'triple', not 'quad'",
        at(t, "tractor(quad"))
    t = minimal(clause("c", "follow tractor(pair, 1): pair"))
    add("E302 tractor too short", "E302", t, "a tractor has at least 2 pairs or triples", at(t, "tractor(pair, 1)"))
    t = minimal(clause("c", "follow pear: pair"))
    add("E303 unknown unit", "E303", t, "unknown unit 'pear'; did you mean 'pair'?", at(t, "pear"))
    t = minimal(clause("c", "follow pair: 0 triple + 2 single"))
    add("E304 zero count", "E304", t, "a count in a follow entry must be at least 1", at(t, "0 triple"))
    t = minimal(clause("c", "follow pair: pair / single / 2 single"))
    add("E305 wrong card count", "E305", t, "follow entry 'single' has 1 cards but the lead 'pair' has 2",
        at(t, "/ single", offset=2))
    t = minimal(clause("c", "follow triple: pair + single / triple / 3 single"),   # 3 decks: triples exist
                values=settings(equipment__decks="3", equipment__hand_size="39", equipment__kitty_size="6"))
    add("W306 shadowed entry", "W306", t, "follow entry 'triple' is shadowed by the earlier entry 'pair + single'",
        at(t, "/ triple", offset=2), severity="warning")
    t = minimal(clause("c", "follow pair: pair"))
    add("W307 no singles at the end", "W307", t, "the follow ladder for 'pair' does not end with 2 singles",
        at(t, "follow pair"), severity="warning")
    t = minimal(clause("c", "follow pair: pair / 2 single") + clause("d", "follow pair: pair / 2 single",
                                                                       cites="003:3.1"))
    add("E308 two ladders", "E308", t, "two follow ladders for lead 'pair' (the other is in clause 'c')",
        at(t, "follow pair", 1))
    t = minimal(clause("c", "follow tractor(pair, 31): 62 single"))
    add("E309 lead larger than a hand", "E309", t, "a lead of 62 cards is more than any hand holds (at most 60)",
        at(t, "tractor(pair, 31)"))
    t = minimal(clause("c", "follow pair: 99999999999 pair / 2 single"))
    add("E305 huge count", "E305", t, "follow entry '99999999999 pair' has 199999999998 cards but the lead 'pair' "
        "has 2", at(t, "99999999999"))

    lead = "follow tractor(pair, 30): 15 tractor(pair, 2) / tractor(pair, 29) + 2 single"
    t = minimal(clause("c", lead))
    add("W307 the slow ladder of the fuzzing report", "W307", t, "does not end with 60 singles",
        at(t, "follow tractor(pair, 30)"), severity="warning")
    t = minimal(clause("c", "follow pair: " + " / ".join(["2 single"] * 33)))
    add("E310 ladder too long", "E310", t, "the follow ladder for 'pair' has 33 entries; at most 32",
        at(t, "follow pair"))

    # --- score tables (E4xx) ---
    t = minimal(bands=("band ..35 -> bankr +2", "band 40..75 -> banker +1", "band 80.. -> attackers +0"))
    add("E401 unknown side", "E401", t, "unknown side 'bankr' in band; did you mean 'banker'?", at(t, "band ..35"))
    t = minimal(bands=("band ..35 -> banker +2", "band 75..40 -> banker +1", "band 80.. -> attackers +0"))
    add("E402 empty band", "E402", t, "band 75..40 is empty (low above high)", at(t, "band 75..40"), also=("E411",))
    t = minimal(bands=("band ..35 -> banker +2", "band 40..75 -> banker -1", "band 80.. -> attackers +0"))
    add("E403 negative levels", "E403", t, "a band gains zero or more levels", at(t, "band 40..75"))
    t = minimal(bands=("band ..35 -> banker +2 step 5", "band 40..75 -> banker +1", "band 80.. -> attackers +0"))
    add("E404 step on a closed band", "E404", t, "only the open-ended top band may have a step", at(t, "band ..35"))
    t = minimal(bands=("band ..35 -> banker +2", "band 40..75 -> banker +1", "band 80.. -> attackers +0 step 0"))
    add("E405 zero step", "E405", t, "a band step must be positive", at(t, "band 80.."))
    t = minimal(clause("c", "band 80.. -> attackers +0"), bands=("band ..35 -> banker +2", "band 40..75 -> banker +1"))
    add("E406 split table", "E406", t, "score bands are split between clauses 'base' and 'c'",
        at(t, "band 80.."), also=("E409",))
    t = minimal(bands=())
    add("E407 no table", "E407", t, "ruleset 'rmin' has no score table", at(t, "rmin"))
    t = minimal(bands=("band 0..35 -> banker +2", "band 40..75 -> banker +1", "band 80.. -> attackers +0"))
    add("E408 table not open below", "E408", t, "the score table starts at 0: points below it are not covered",
        at(t, "band 0..35"))
    t = minimal(bands=("band ..35 -> banker +2", "band 40..75 -> banker +1", "band 80..200 -> attackers +0"))
    add("E409 table not open above", "E409", t, "the score table stops at 200: points above it are not covered",
        at(t, "band 80..200"))
    t = minimal(bands=("band ..35 -> banker +2", "band 30..75 -> banker +1", "band 80.. -> attackers +0"))
    add("E410 overlap", "E410", t, "score bands overlap: ..35 and 30..75", at(t, "band 30..75"))
    t = minimal(bands=("band ..35 -> banker +2", "band 50..75 -> banker +1", "band 80.. -> attackers +0"))
    add("E411 gap", "E411", t, "score bands leave a gap: 40..45 is not covered", at(t, "band 50..75"))

    # --- rulesets, extends, overrides (E5xx) ---
    add("E502 ruleset twice", "E502", base, "ruleset 'rmin' is defined twice", at(base, "rmin"),
        file="u.tractor", extra={"u.tractor": base})
    cyc = {"a.tractor": "ruleset ra extends rb {\n}\n", "b.tractor": "ruleset rb extends ra {\n}\n"}
    add("E503 circular extends", "E503", base, "circular 'extends': ra -> rb -> ra", (1, 20),
        file="a.tractor", extra=cyc)
    t = 'ruleset ra extends rmni {\n  override base choose x because "y"\n}\n'
    add("E504 extends unknown", "E504", base, "'ra' extends unknown ruleset 'rmni'; did you mean 'rmin'?",
        at(t, "rmni"), file="a.tractor", extra={"a.tractor": t})
    chain = {f"c{i}.tractor": f"ruleset rc{i} extends {'rc%d' % (i - 1) if i else 'rmin'} {{\n}}\n"
             for i in range(16)}   # rmin, rc0 ... rc15: 17 rulesets
    add("E511 extends chain too deep", "E511", base, "'rc15' makes a chain of 17 rulesets down to 'rmin' (following "
        "'extends'); a chain may hold at most 16 rulesets", (1, 22), file="c15.tractor", extra=chain)
    t = minimal(head='document "003"')
    add("E505 no title", "E505", t, "ruleset 'rmin' has no title", at(t, "rmin"))
    with_readings = minimal(interpreted("c", 'reason "r"\nreading alpha "A" {}\nreading beta "B" {}\nchoose alpha'))
    t = 'ruleset rd extends rmin {\n  override c choose beta because "  "\n}\n'
    add("E506 empty because", "E506", with_readings, "the override of 'c' must give a reason after 'because'",
        at(t, "c choose"), file="d.tractor", extra={"d.tractor": t})
    t = 'ruleset rd extends rmin {\n  override cc choose beta because "x"\n}\n'
    add("E507 override of unknown clause", "E507", with_readings, "override of unknown clause 'cc'; did you mean "
        "'c'?", at(t, "cc"), file="d.tractor", extra={"d.tractor": t})
    t = 'ruleset rd extends rmin {\n  override c choose gamma because "x"\n}\n'
    add("E508 override chooses a missing reading", "E508", with_readings, "cannot choose 'gamma' for clause 'c': "
        "it has no reading 'gamma'", at(t, "c choose"), file="d.tractor", extra={"d.tractor": t})
    t = 'ruleset rd extends rmin {\n  override base choose gamma because "x"\n}\n'
    add("E508 override of a clause without readings", "E508", with_readings, "cannot choose 'gamma' for clause "
        "'base': it declares no readings", at(t, "base choose"), file="d.tractor", extra={"d.tractor": t})
    t = 'ruleset rd extends rmin {\n  clause c {\n    cites 003:2\n    status stated\n    says "s"\n    zh "z"\n  }\n}\n'
    add("E118 clause of the base redefined", "E118", with_readings, "clause 'c' is defined in the ruleset it "
        "extends; use 'override'", at(t, "c {"), file="d.tractor", extra={"d.tractor": t})
    t = minimal(head='title "T"')
    add("E509 no document", "E509", t, "ruleset 'rmin' names no source document", at(t, "rmin"))
    t = minimal(head='title "T"\n  document "004"')
    add("E510 unknown document", "E510", t, "unknown document '004'; did you mean '003'?", at(t, "rmin"))
    return cases


LIBRARY_FILE = str(default_spec_dir() / "t_library.tractor")   # never written: a name inside spec/


def _untranslated_cases() -> dict[str, tuple[str, str, tuple[int, int]]]:
    """Each kind of prose without its Chinese text: (text, message, where)."""
    out = {}
    t = minimal(head='title "Minimal"\n  document "003"', name="rlib")
    out["title"] = (t, "the title of ruleset 'rlib' has no Chinese text", at(t, '"Minimal"'))
    t = minimal(interpreted("c", 'reason "why"\nalternative "other" "另一种"'), name="rlib")
    out["reason"] = (t, "the reason of clause 'c' has no Chinese text", at(t, '"why"'))
    t = minimal(interpreted("c", 'reason "why" "因为"\nalternative "one" "一"\nalternative "two"'), name="rlib")
    out["alternative"] = (t, "alternative 2 of clause 'c' has no Chinese text", at(t, '"two"'))
    t = minimal(interpreted("c", 'reason "why" "因为"\nreading a "A" "甲" {}\nreading b "B" {}\nchoose a'), name="rlib")
    out["reading"] = (t, "the description of reading 'b' of clause 'c' has no Chinese text", at(t, "reading b", offset=8))
    t = minimal(interpreted("c", 'reason "why" "因为"\nreading a "A" "甲" {\nsays "x"\n}\nreading b "B" "乙" {}\n'
                                 'choose a'), name="rlib")
    out["reading says"] = (t, "the statement ('says') of reading 'a' of clause 'c' has no Chinese text",
                           at(t, "reading a", offset=8))
    t = minimal(interpreted("c", 'reason "why" "because"\nalternative "other" "另一种"'), name="rlib")
    out["not Chinese"] = (t, "the Chinese text of the reason of clause 'c' holds no Chinese character", at(t, '"why"'))
    # A raw control character is refused by the parser (E010); an escaped new line is a control
    # character only the Chinese check sees.
    t = minimal(interpreted("c", 'reason "why" "因为\\n"\nalternative "other" "另一种"'), name="rlib")
    out["control character"] = (t, "the Chinese text of the reason of clause 'c' holds a control character",
                                at(t, '"why"'))
    return out


UNTRANSLATED = _untranslated_cases()


@pytest.mark.parametrize("kind", list(UNTRANSLATED))
def test_prose_without_chinese_is_an_error_in_the_library(kind):
    text, message, where = UNTRANSLATED[kind]
    lib = check(minimal(), {LIBRARY_FILE: text})
    found = [d for d in lib.diagnostics if d.code not in ("E601", "E602") and d.span.file == LIBRARY_FILE]
    assert [(d.code, d.severity) for d in found] == [("E119", "error")], [d.headline() for d in found]
    assert message in found[0].message and "bilingual" in found[0].message
    assert (found[0].span.line, found[0].span.column) == where


@pytest.mark.parametrize("kind", list(UNTRANSLATED))
def test_prose_without_chinese_is_a_warning_in_a_users_file(kind):
    text, message, where = UNTRANSLATED[kind]
    lib = check(text)
    found = [d for d in lib.diagnostics if d.code not in ("E601", "E602")]
    assert [(d.code, d.severity) for d in found] == [("W119", "warning")], [d.headline() for d in found]
    assert message in found[0].message
    assert (found[0].span.file, found[0].span.line, found[0].span.column) == (FILE, *where)
    assert not [e for e in lib.errors if e.code not in ("E601", "E602")]


def test_a_clause_without_zh_is_only_a_warning_in_a_users_file():
    t = minimal('  clause c {\n    cites 003:2\n    status stated\n    says "S"\n  }\n')
    found = [d for d in check(t).diagnostics if d.code not in ("E601", "E602")]
    assert [(d.code, d.message) for d in found] == [("W119", "clause 'c' ('zh') has no Chinese text")]


def test_an_override_without_chinese_because():
    base = minimal(interpreted("c", 'reason "r" "理由"\nreading alpha "A" "甲" {}\nreading beta "B" "乙" {}\n'
                                    'choose alpha'))
    over = 'ruleset rd extends rmin {\n  title "D" "丁"\n  override c choose beta because "x"\n}\n'
    user = [d for d in check(base, {"d.tractor": over}).diagnostics if d.span.file == "d.tractor"]
    assert [(d.code, d.span.line, d.span.column) for d in user] == [("W119", 3, 12)]
    lib = check(base, {LIBRARY_FILE: over})
    found = [d for d in lib.diagnostics if d.span.file == LIBRARY_FILE]
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("E119", 3, 12)]
    assert "the reason ('because') of the override of 'c' has no Chinese text" in found[0].message


CASES = _cases()


def test_minimal_ruleset_checks_clean():
    lib = check(minimal())
    assert problems(lib) == []
    assert "rmin" in lib.rulesets
    assert {d.code for d in lib.diagnostics} <= {"E601", "E602"}


def test_there_are_enough_cases():
    assert len(CASES) >= 30
    assert len({c.code for c in CASES.values()}) >= 30


@pytest.mark.parametrize("name", list(CASES))
def test_error_case(name):
    case = CASES[name]
    lib = check(case.text, case.extra)
    found = problems(lib)
    matching = [d for d in found if d.code == case.code]
    shown = "\n".join(d.headline() for d in found)
    assert matching, f"no {case.code} among:\n{shown}"
    d = matching[0]
    assert case.message in d.message, shown
    assert (d.span.file, d.span.line, d.span.column) == (case.file, *case.where), shown
    assert d.severity == case.severity
    unexpected = {x.code for x in found} - {case.code, *case.also}
    assert not unexpected, f"unexpected problems besides {case.code}:\n{shown}"


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c.code[:3] in ("E00",)])
def test_syntax_errors_raise_spec_error_from_parse(name):
    case = CASES[name]
    with pytest.raises(SpecError) as info:
        parse(case.text, case.file)
    assert [d.code for d in info.value.diagnostics] == [case.code]
    assert (info.value.diagnostics[0].span.line, info.value.diagnostics[0].span.column) == case.where


def test_unknown_ruleset_has_did_you_mean():
    lib = check(minimal())
    with pytest.raises(SpecError) as info:
        lib.get("rmni")
    (d,) = info.value.diagnostics
    assert d.code == "E501"
    assert "unknown ruleset 'rmni'; did you mean 'rmin'?" in d.message


def test_problems_are_sorted_by_position():
    text = minimal(clause("c", "", status="stater") + clause("d", "set level.strat = 2", cites="003:3.1"))
    found = problems(check(text))
    assert [d.code for d in found] == ["E102", "E201"]
    assert found == sorted(found, key=Diagnostic.sort_key)


# --- rendering ------------------------------------------------------------------

def test_render_points_at_the_column():
    text = minimal(clause("c", "", status="stater"))
    lib = check(text)
    (d,) = problems(lib)
    line, col = at(text, "stater")
    out = d.render(lib.sources).split("\n")
    assert out[0] == f"{FILE}:{line}:{col}: error[E102]: unknown status 'stater'; did you mean 'stated'?"
    assert out[1] == "    " + text.split("\n")[line - 1]
    assert out[2] == "    " + " " * (col - 1) + "^" * len("stater")


def test_render_syntax_error_caret():
    text = "ruleset r {\n  title 5\n}\n"
    with pytest.raises(SpecError) as info:
        parse(text, "x.tractor")
    (d,) = info.value.diagnostics
    assert d.render({"x.tractor": text}).split("\n") == [
        "x.tractor:2:9: error[E003]: unexpected '5'; expected a quoted string",
        "      title 5",
        "            ^",
    ]


def test_render_without_source_is_the_headline():
    d = Diagnostic("E999", "something", Span("f.tractor", 3, 4))
    assert d.render({}) == "f.tractor:3:4: error[E999]: something"
    assert d.render(None) == d.headline()


def test_render_keeps_tabs_and_ignores_carriage_returns():
    text = "ruleset r {\r\n\ttitle 5\r\n}\r\n"
    with pytest.raises(SpecError) as info:
        parse(text, "x.tractor")
    (d,) = info.value.diagnostics
    assert (d.span.line, d.span.column) == (2, 8)
    assert d.render({"x.tractor": text}).split("\n")[1:] == ["    \ttitle 5", "    \t      ^"]


def test_render_warning():
    text = minimal(clause("c", "follow pair: pair"))
    (d,) = problems(check(text))
    assert d.headline().startswith(f"{FILE}:{at(text, 'follow pair')[0]}:5: warning[W307]: ")
