"""Declaring trump (亮主/叫主), overcalls (反主), reinforcing (加固), the bank (抢庄), nobody declaring."""
import pytest

from reference_impl.declaring import REASONS, Undeclared, judge_declarations, judge_undeclared
from reference_impl.rules import rules_for
from tests.interp.helpers import cards
from tests.interp.rule_variants import variant

S, H, D, C = 0, 1, 2, 3


def judge(rules, level, seq, first_hand=True, **kw):
    return judge_declarations(rules, level, [(seat, cards(shown)) for seat, shown in seq], first_hand, **kw)


# --- 003 -------------------------------------------------------------------

def test_003_6_1_grab_the_bank_with_two_then_three_twos():
    r = rules_for("r003")
    j = judge(r, "2", [(0, "2S")])
    assert j.value.legal and (j.value.trump, j.value.banker) == (S, 0)
    j = judge(r, "2", [(0, "2S"), (1, "2H 2H")])
    assert j.value.legal and (j.value.trump, j.value.banker, j.value.declarer) == (H, 1, 1)
    j = judge(r, "2", [(0, "2S"), (1, "2H 2H"), (2, "2D 2D 2D")])
    assert j.value.legal and (j.value.trump, j.value.banker) == (D, 2)
    assert "declare.first_hand" in j.clauses


def test_003_6_2_overcall_later_changes_trump_not_banker():
    # 003:6.1 grabbing only in the first hand; 6.2 反主不反庄
    j = judge(rules_for("r003"), "7", [(3, "7S"), (1, "7H 7H")], first_hand=False, banker=0)
    assert j.value.legal and (j.value.trump, j.value.banker, j.value.declarer) == (H, 0, 1)


def test_003_6_2_no_self_overcall_but_reinforce():
    r = rules_for("r003")
    j = judge(r, "2", [(0, "2S"), (0, "2H 2H")])
    assert not j.value.legal and j.reason == "self_overcall" and j.extra["index"] == 1
    j = judge(r, "2", [(0, "2S"), (0, "2S")])
    assert j.value.legal and j.value.strength == (2, 0) and j.value.trump == S
    # a reinforced single counts two copies: another pair no longer beats it
    j = judge(r, "2", [(0, "2S"), (0, "2S"), (1, "2H 2H")])
    assert j.reason == "too_weak"
    # the partner may overcall (对家和其他队员都可以反主)
    assert judge(r, "2", [(0, "2S"), (2, "2H 2H")]).value.legal


@pytest.mark.parametrize("seq,reason", [
    ([(0, "2S"), (1, "2H")], "too_weak"),          # a single 2 after a single 2
    ([(0, "3S")], "not_level_card"),               # showing a 3 at level 2
], ids=["single-after-single", "not-a-level-card"])
def test_003_6_3_wrong_declarations_cost_ten(seq, reason):
    j = judge(rules_for("r003"), "2", seq)
    assert not j.value.legal and j.reason == reason
    assert j.extra["penalty_points"] == 10
    assert "declare.wrong" in j.clauses


def test_003_6_5_no_declaration_after_the_kitty_is_taken():
    j = judge(rules_for("r003"), "2", [(0, "2S"), (1, "2H 2H")], kitty_taken=True)
    assert j.reason == "kitty_taken" and j.extra["index"] == 1
    assert j.value.trump == S   # the state before the refused declaration


def test_003_jokers_do_not_declare():
    assert judge(rules_for("r003"), "2", [(0, "J- J-")]).reason == "jokers_not_allowed"


# --- 000 -------------------------------------------------------------------

def test_000_2_6_overcall_by_a_pair_keeps_the_first_declarer_banker():
    j = judge(rules_for("r000"), "2", [(0, "2S"), (1, "2H 2H")])
    assert j.value.legal and (j.value.trump, j.value.declarer, j.value.banker) == (H, 1, 0)


@pytest.mark.parametrize("jokers", ["J- J-", "J+ J+"])
def test_000_2_6_joker_pairs_overcall_to_no_trump(jokers):
    j = judge(rules_for("r000"), "2", [(0, "2S"), (1, jokers)])
    assert j.value.legal and j.value.trump == "no_trump"   # 000:g2 joker_trump = no_trump


def test_000_2_6_after_an_overcall_only_jokers():
    r = rules_for("r000")
    j = judge(r, "2", [(0, "2S"), (1, "2H 2H"), (3, "2D 2D")])
    assert j.reason == "jokers_only" and j.extra["index"] == 2
    j = judge(r, "2", [(0, "2S"), (1, "2H 2H"), (2, "J- J-"), (3, "J+ J+")])
    assert j.value.legal and j.value.declarer == 3 and j.value.trump == "no_trump"
    assert judge(r, "2", [(0, "2S"), (1, "2H 2H"), (2, "J+ J+"), (3, "J- J-")]).reason == "too_weak"


def test_000_2_6_equal_copies_jokers_beat_level_cards():
    # copies_then_jokers: a pair of small jokers beats a pair of level cards
    assert judge(rules_for("r000"), "2", [(0, "2S 2S"), (1, "J- J-")]).value.legal


def test_000_2_6_no_self_overcall_but_reinforce():
    r = rules_for("r000")
    assert judge(r, "2", [(0, "2S"), (0, "2H 2H")]).reason == "self_overcall"
    assert judge(r, "2", [(0, "2S"), (0, "2S")]).value.strength == (2, 0)


@pytest.mark.parametrize("shown,reason", [
    ("J-", "wrong_count"),          # a joker declares only as a pair
    ("2S 2H", "mixed_cards"),
    ("2S 2S 2S", "wrong_count"),    # two decks hold two 2S
])
def test_000_malformed(shown, reason):
    j = judge(rules_for("r000"), "2", [(0, shown)])
    assert j.reason == reason and reason in REASONS
    assert j.extra["penalty_points"] == 0    # 000 declare.wrong: no_penalty


# --- 001 -------------------------------------------------------------------

def test_001_6_first_hand_needs_the_heart_two():
    r = rules_for("r001")
    j = judge(r, "3", [(0, "3S 2H")])
    assert j.value.legal and (j.value.trump, j.value.banker) == (S, 0)
    assert judge(r, "3", [(0, "3S")]).reason == "missing_first_hand_card"
    # the heart 2 is a token shown with the level cards, not itself a declaration (spec declare.first_hand)
    assert judge(r, "3", [(0, "2H")]).reason == "not_level_card"
    assert judge(r, "3", [(0, "3H 2H")]).value.trump == H
    # later hands need no heart 2
    assert judge(r, "3", [(0, "3S")], first_hand=False, banker=2).value.legal


def test_001_6_two_beat_one_three_beat_two_and_the_bank_moves_in_the_first_hand():
    r = rules_for("r001")
    seq = [(0, "3S 2H"), (1, "3H 3H 2H")]
    j = judge(r, "3", seq)
    assert j.value.legal and (j.value.trump, j.value.banker) == (H, 1)      # 反主反庄
    j = judge(r, "3", seq + [(2, "3D 3D 3D 2H")])
    assert j.value.legal and (j.value.trump, j.value.banker) == (D, 2)
    assert judge(r, "3", [(0, "3S 2H"), (1, "3H 2H")]).reason == "too_weak"
    # later hands: 反主 only
    j = judge(r, "9", [(0, "9S"), (1, "9H 9H")], first_hand=False, banker=0)
    assert (j.value.trump, j.value.banker) == (H, 0)


def test_001_reinforce_needs_no_second_token():
    j = judge(rules_for("r001"), "3", [(0, "3S 2H"), (0, "3S")])
    assert j.value.legal and j.value.strength == (2, 0)


@pytest.mark.parametrize("rules,reason", [
    (rules_for("r001"), "self_overcall"),                         # reading as_003
    (variant("r001", "declare.own", "open"), "ok"),               # reading open: 2张反1张 names no exception
], ids=["as_003", "open"])
def test_001_self_overcall_readings(rules, reason):
    assert judge(rules, "3", [(0, "3S 2H"), (0, "3H 3H 2H")]).reason == reason


# --- the same position in each ruleset (a later hand at level 5, banker seat 0) ----------

@pytest.mark.parametrize("name,seq,reason", [
    ("r000", [(0, "5S"), (1, "5H 5H"), (2, "J- J-")], "ok"),                  # 000:2.6 jokers overcall
    ("r001", [(0, "5S"), (1, "5H 5H"), (2, "J- J-")], "jokers_not_allowed"),   # 001:6 level cards only
    ("r003", [(0, "5S"), (1, "5H 5H"), (2, "J- J-")], "jokers_not_allowed"),   # 003:6.1–6.2 level cards only
    ("r000", [(0, "5S"), (1, "5H 5H"), (2, "5D 5D")], "jokers_only"),          # 000:2.6 after an overcall
    ("r001", [(0, "5S"), (1, "5H 5H"), (2, "5D 5D")], "too_weak"),             # 001:6 2 do not beat 2
    ("r003", [(0, "5S"), (1, "5H 5H"), (2, "5D 5D 5D")], "ok"),                # 003:6.2 three beat two
    ("r001", [(0, "5S"), (1, "5H 5H"), (2, "5D 5D 5D")], "ok"),                # 001:6 3张反2张
])
def test_same_declarations_across_rulesets(name, seq, reason):
    j = judge(rules_for(name), "5", seq, first_hand=False, banker=0)
    assert j.reason == reason
    assert j.value.banker == 0


@pytest.mark.parametrize("name,seq,banker", [
    ("r000", [(0, "2S"), (1, "2H 2H")], 0),            # 000:2.4/2.16a first declarer, 反主不反庄
    ("r003", [(0, "2S"), (1, "2H 2H")], 1),            # 003:6.1 抢庄
    ("r001", [(0, "3S 2H"), (1, "3H 3H 2H")], 1),      # 001:6 反主反庄
])
def test_first_hand_banker_across_rulesets(name, seq, banker):
    level = "3" if name == "r001" else "2"
    assert judge(rules_for(name), level, seq).value.banker == banker


# --- nobody declares ----------------------------------------------------------

def test_003_6_4_third_kitty_card_skipping_jokers():
    r = rules_for("r003")
    j = judge_undeclared(r, cards("J+ 3H J- 4C 5D 6D"), False, "5", "7")
    assert j.value.trump == C and j.value.kitty_index == 3 and not j.value.redeal
    assert (j.value.banker_side, j.value.level) == ("banker", "5")
    # jokers before the third card still count as turned cards
    assert judge_undeclared(r, cards("J+ J- 5S 6D 7C 8C"), False, "5", "7").value.trump == S


def test_003_6_4_first_hand_banker_is_the_first_drawer():
    j = judge_undeclared(rules_for("r003"), cards("3H 4H 5S 6D 7C 8C"), True, "2", "2")
    assert j.value.trump == S and j.value.first_hand_banker == "first_drawer"


@pytest.mark.parametrize("rules,expected", [
    (rules_for("r000"), D),                                              # reading skip_jokers
    (variant("r000", "declare.none", "joker_no_trump"), "no_trump"),     # reading joker_no_trump
], ids=["skip_jokers", "joker_no_trump"])
def test_000_2_6_first_kitty_card(rules, expected):
    assert judge_undeclared(rules, cards("7D 3H 4S 5S 6C 7C 8C 9C"), False, "4", "6").value.trump == D
    assert judge_undeclared(rules, cards("J+ 7D 4S 5S 6C 7C 8C 9C"), False, "4", "6").value.trump == expected


def test_001_6_first_hand_redeal():
    j = judge_undeclared(rules_for("r001"), cards("3H 4H 5S 6D 7C 8C"), True, "3", "3")
    assert j.value.redeal and j.value.trump is None


@pytest.mark.parametrize("rules,banker_side", [
    (rules_for("r001"), "attackers"),   # 001:6 重起局按原攻庄方所打到的点数开打: the former attackers bank (001:g9)
    (variant("r001", "declare.none", "same_banker"), "banker"),
], ids=["attackers", "same_banker"])
def test_001_6_smothered_banker_redeals_at_the_attackers_level(rules, banker_side):
    # 001:6 庄家打9，攻庄方打6，当庄家被憋死后，重新起牌打6
    j = judge_undeclared(rules, cards("3H 4H 5S 6D 7C 8C"), False, "9", "6")
    assert j.value == Undeclared(None, True, banker_side, "attackers", "6")


@pytest.mark.parametrize("name,trump,redeal", [
    ("r000", H, False),      # 000:2.6 the first card
    ("r003", S, False),      # 003:6.4 the third card
    ("r001", None, True),    # 001:6 smothered
])
def test_same_undeclared_hand_across_rulesets(name, trump, redeal):
    j = judge_undeclared(rules_for(name), cards("3H J+ 5S 6D 7C 8C"), False, "9", "6")
    assert (j.value.trump, j.value.redeal) == (trump, redeal)


# --- H31: the bank bid for in every hand (declare.overcall_moves_bank = every_hand) ----------------------------
# Expected values from the tuolaji engine (code index id 41857568324, no repository given; spec/house_rules.tsv H31):
# src/tuolaji_core.py GameState.declare_trump (a bid stands only if stronger: declaration = (player, cards)) and
# GameState._finalize_declaration (declaring_player = the standing declaration's player, in every hand).

@pytest.mark.parametrize("seq,trump,banker", [
    ([(3, "7S")], S, 3),                          # _finalize_declaration: the declarer banks, not the standing 0
    ([(3, "7S"), (1, "7H 7H")], H, 1),            # declare_trump: the pair outbids; _finalize_declaration: seat 1
    ([(2, "7S"), (3, "7H 7H"), (0, "J- J-")], None, 0),   # a joker pair outbids: seat 0 (trump not compared: the
])                                                       # engine keeps the last suit, r000 declares no trump)
def test_h31_a_later_hands_last_declarer_banks(seq, trump, banker):
    r = rules_for("h31_bank_every_hand")
    j = judge(r, "7", seq, first_hand=False, banker=0)
    assert j.value.legal and j.value.banker == banker == j.value.declarer
    if not any("J" in shown for _, shown in seq):
        assert j.value.trump == trump
    assert "declare.bank" in j.clauses
    # r000, which H31 extends: a later hand's declarations change trump only (000:2.4, 反主不反庄)
    assert judge(rules_for("r000"), "7", seq, first_hand=False, banker=0).value.banker == 0


def test_h31_a_refused_bid_leaves_the_bank_with_the_standing_declaration():
    # GameState.declare_trump: "strength <= self.declaration_strength" -> refused, declaration unchanged
    j = judge(rules_for("h31_bank_every_hand"), "7", [(3, "7S"), (1, "7H")], first_hand=False, banker=0)
    assert not j.value.legal and j.reason == "too_weak" and (j.value.banker, j.value.declarer) == (3, 3)


def test_h31_the_first_hand_as_001_and_003_grab_it():
    # _finalize_declaration in the first hand too: the last declarer (as 001:6 反主反庄 and 003:6.1 抢庄)
    j = judge(rules_for("h31_bank_every_hand"), "2", [(0, "2S"), (1, "2H 2H")])
    assert j.value.legal and j.value.banker == 1


def test_h31_needs_the_last_declarer():
    from reference_impl.declaring import Declaring
    from conformance.generation.features import changed
    bad = changed(rules_for("h31_bank_every_hand"), {"declare.first_hand_banker": "first_declarer"})
    with pytest.raises(ValueError, match="contradicts declare.overcall_moves_bank = every_hand"):
        Declaring(bad, "7", False, banker=0)
