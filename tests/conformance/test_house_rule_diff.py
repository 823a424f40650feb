"""Issue 19: ``tractor diff PARENT FILE`` finds, for the house-rule readings the bundled rulesets leave unset, a
position of play that tells the catalogue file from the ruleset it extends, and the two answers are the ones the
reading's wording in VARIANTS.md gives (its id beside each)."""
import pytest

from conformance.analysis.variants import compare
from reference_impl.rules import rules_for


def _difference(name: str, key: str):
    parent = rules_for(name).checked.lineage[1]
    comparison = compare(parent, name)
    (diff,) = [d for d in comparison.differences if d.key == key]
    assert diff.position is not None and diff.position.op != "value", f"{name}: no position shows {key}"
    assert diff.outcome_a.answer != diff.outcome_b.answer
    return diff, diff.outcome_a.result, diff.outcome_b.result   # the parent's answer, the reading's


# (catalogue file, the feature it states, what its answer must show against the parent's)
READINGS = {
    # V05: a kitty of 6, two cards out of the pack so that the deal comes out even
    "V05": ("v05_kitty_with_cards_removed", "equipment.kitty_size",
            lambda p, v: (p["kitty"], v["kitty"]) == (8, 6)),
    # V06: jokers only are fixed trumps; the level cards stay in their suits
    "V06": ("v06_jokers_only", "trump.order", None),
    # V09: 2s and 10s are fixed trumps
    "V09": ("v09_twos_and_tens", "trump.fixed_ranks", None),
    # V10: the heart 5 is above the big joker
    "V10": ("v10_heart_five", "trump.named_cards", None),
    # V21: off-suit level pairs of different suits chain
    "V21": ("v21_off_level_pairs_chain", "tractor.off_level_chain",
            lambda p, v: (p["kind"], v["kind"]) == ("throw", "tractor")),
    # V29: a tractor led, the pairs held come before a broken triple: breaking it while a pair stays is refused
    "V29": ("v29_pairs_before_triples", "follow.pairs_before_triples",
            lambda p, v: (p["legal"], v["legal"]) == (True, False)),
    # V66: a level above A (not a rank): where 000 wins the game by passing A, the team reaches NT
    "V66": ("v66_no_trump_level", "level.ranks",
            lambda p, v: p["won"] and (v["level"], v["won"]) == ("NT", False)),
    # V67: a single J of the attackers wins the last trick at J: the banker's team goes back to 2
    "V67": ("v67_jack_rule", "level.knock_back",
            lambda p, v: "knocked_back" not in p and v["knocked_back"] == "2"),
    # V68: the banker side keeps the bank without the last trick: it rises no level
    "V68": ("v68_banker_needs_last_trick", "score.banker_needs_last_trick",
            lambda p, v: p["next_banker"] == v["next_banker"] == "banker" and p["levels"] > 0 == v["levels"]),
    # H01: nobody declaring, the hand has no trump suit where 000 turns the kitty's first card
    "H01": ("h01_no_declaration_no_trump", "declare.fallback_later",
            lambda p, v: p["trump"] is not None and v["trump"] is None and not v["redeal"]),
    # H02: a throw ruffed: 000 gives the trick to the ruff, the reading to the thrower
    "H02": ("h02_throw_wins_trick", "throw.wins_trick",
            lambda p, v: p["winner"] != v["winner"] and v["winner"] == 0),
    # H03: after a failed throw, the throw's single comes first (001: its smallest card)
    "H03": ("h03_singles_first", "throw.forced_play",
            lambda p, v: p["failure"]["forced"] != v["failure"]["forced"]),
    # H04: an unbeatable throw of trumps is refused
    "H04": ("h04_no_trump_throws", "throw.banned_in",
            lambda p, v: (p["legal"], v["legal"], v["reason"]) == (True, False, "throw_not_allowed")),
    # H05: a failed throw priced by what blocks it: a pair or a tractor blocked costs more than 000's 10 a card
    "H05": ("h05_penalty_by_blocker", "throw.penalty_by_blocked",
            lambda p, v: v["failure"]["penalty"] > p["failure"]["penalty"]),
    # H06: a player overcalls his partner: 000 lets it stand, the reading refuses it
    "H06": ("h06_no_partner_overcall", "declare.overcall_partner",
            lambda p, v: p["legal"] and (v["legal"], v["reason"]) == (False, "partner_overcall")),
    # H07: a small-joker pair declares nothing: 003 refuses jokers outright, the reading asks for all three
    "H07": ("h07_jokers_as_many_as_decks", "declare.joker_count",
            lambda p, v: (p["reason"], v["reason"]) == ("jokers_not_allowed", "wrong_count")),
    # H08: a joker pair before the burial: 000 lets it overcall, the reading refuses it
    "H08": ("h08_jokers_after_burial", "declare.jokers_when",
            lambda p, v: p["legal"] and (v["legal"], v["reason"]) == (False, "jokers_not_allowed")),
    # V42: a failed throw costs no points (001: 10 per card thrown)
    "V42": ("v42_no_throw_penalty", "throw.penalty_points",
            lambda p, v: v["failure"]["penalty"] == 0 < p["failure"]["penalty"]),
    # H20 (rbtying/shengji pull 108): 5, 10, K and A must be defended; H21 (u.360.cn, "只有庄家级牌为A且获胜，才能通过A"):
    # attackers at A take the bank and stay at A, where 000 wins the game by any gain past A
    "H20": ("h20_defend_five_ten_king_ace", "level.must_defend",
            lambda p, v: p["won"] and (v["level"], v["won"]) == ("A", False)),
    "H21": ("h21_ace_must_be_defended", "level.must_defend",
            lambda p, v: p["won"] and (v["level"], v["won"]) == ("A", False)),
    # H22 (sunbin1998can/tractor-card-game-codex docs/RULES.md §9.4): the banker stays when his side keeps the bank, the
    # last trick's winner takes it on a swap, where 000 (000:2.4, reading rotate) gives it to the banker's partner or
    # the player after the banker
    "H22": ("h22_bank_to_last_trick", "bank.succession",
            lambda p, v: (p["seat"], v["seat"]) == (2, 0)),   # the banker side keeps the bank: the banker stays
    # H23 (issue 32's list): at J the attackers' single J sends the banker's team back to 7, a pair back to 3, only
    # with 80 points or more
    "H23": ("h23_jack_rule_by_shape", "level.knock_back",
            lambda p, v: "knocked_back" not in p and v["knocked_back"] in ("7", "3") and v["attackers_points"] >= 80),
    # H24 (ChannonTian/80fen docs/RULES.md §F, 手牌分数 ≤ 15 / 主牌 ≤ 3): a hand of at most 15 points or at most 3 trumps is
    # dealt again; 000 plays every deal
    "H24": ("h24_redeal_weak_hands", "deal.redeal_at_most", lambda p, v: (p["redeal"], v["redeal"]) == (False, True)),
    # H25 (sunbin1998can/tractor-card-game-codex docs/RULES.md §9.2, "2 × 2^(number of pairs in winning play)"): the kitty x2 x 2^pairs; where 000 counts a side pair x2 or a tractor x its cards, the
    # reading's multiplier is 2 to the power of one more than the pairs of the winning unit
    "H25": ("h25_kitty_pairs", "kitty.multiplier",
            lambda p, v: v["multiplier"] >= 2 and v["multiplier"] & (v["multiplier"] - 1) == 0
            and v["multiplier"] != p["multiplier"] and v["kitty_points"] == p["kitty_points"]),
    # H26 (ChannonTian/80fen docs/RULES.md §H, 必打关卡 2/5/10/K): attackers at a gate who take the bank stay on it,
    # where 000 lets them climb (队 0 停在 2，只换庄不升级)
    "H26": ("h26_defend_two_five_ten_king", "level.must_defend",
            lambda p, v: v["level"] in ("2", "5", "10", "K") and p["level"] != v["level"] and not v["won"]),
    # H27 (ChannonTian/80fen docs/RULES.md §D): a failed throw plays its blocked component with the fewest cards and
    # costs nothing, where 000 plays the smallest card and fines 10 a card taken back
    "H27": ("h27_blocked_fewest_no_penalty", "throw.forced_play",
            lambda p, v: p["failure"]["forced"] != v["failure"]["forced"] and v["failure"]["penalty"] == 0),
    # H28 (tuolaji, code index id 41857568324, CardCombo.is_valid_lead): a throw another hand can beat stands as led,
    # where 000 refuses it as beaten
    "H28": ("h28_unchecked_throws", "throw.check",
            lambda p, v: (p["legal"], p["reason"], v["legal"]) == (False, "throw_beaten", True)),
    # H29 (tuolaji, GameState.play_cards: the kitty's points added x1): the multiplier is 1 where 000's table is not
    "H29": ("h29_kitty_face_value", "kitty.multiplier",
            lambda p, v: v["multiplier"] == 1 < p["multiplier"] and v["kitty_points"] == p["kitty_points"]),
    # H30 (rbtying/shengji mechanics/src/trick.rs, ThrowEvaluationPolicy::All): a throw or a ruff of one that beats the
    # winning play's largest component but not every component does not take the trick, where 000 gives it to it
    "H30": ("h30_every_component", "compare.multi", lambda p, v: p["winner"] != v["winner"]),
    # H31 (tuolaji, code index id 41857568324, GameState._finalize_declaration): the declarations make the last
    # declarer banker, where 000 keeps the first declarer (first hand) or the standing banker (later hands)
    "H31": ("h31_bank_every_hand", "declare.overcall_moves_bank",
            lambda p, v: p["banker"] != v["banker"] == v["declarer"]),
    # H32 (tuolaji, code index id 41857568324, TrumpSystem.trump_order: off-suit level cards 500 + their suit's index):
    # two off-suit level cards of different suits, or pairs of them, where 000 makes them equal - a winner or a tractor
    # the two answer differently (checked above: the answers differ)
    "H32": ("h32_off_level_suits", "trump.off_suit_order", None),
    # H33 (sunbin1998can/tractor-card-game-codex, GameEngine.ts finishRound: 2 * 2 ** the lead's pairs, a throw
    # none): the kitty times 2 times a power of 2, where 000's table multiplies otherwise (a side tractor of three
    # pairs: x16, 000 x6)
    "H33": ("h33_kitty_lead_pairs", "kitty.multiplier",
            lambda p, v: v["multiplier"] != p["multiplier"] and v["multiplier"] in (2, 4, 8, 16, 32, 64)
            and v["kitty_points"] == p["kitty_points"]),
    # H34 (tuolaji, code index id 41857568324, GameState.declare_trump: a joker-only bid leaves trump_suit as it was):
    # a joker pair overcalling a suit leaves that suit trump, where 000 makes the hand no-trump (000:2.6)
    "H34": ("h34_joker_keeps_suit", "declare.joker_trump",
            lambda p, v: p["trump"] is None and v["trump"] in ("S", "H", "D", "C") and v["legal"]),
    # H35 (sunbin1998can/tractor-card-game-codex, Throw.ts canBeatPart): a side-suit throw that only a void hand's
    # trumps could beat fails, where 000 lets it stand (000:2.16b)
    "H35": ("h35_ruff_blocks_throw", "throw.ruff_blocks",
            lambda p, v: (p["legal"], v["legal"], v["reason"]) == (True, False, "throw_beaten")),
    # H36 (sunbin1998can/tractor-card-game-codex, GameEngine.ts finishRound: GAME_OVER once levelTo is A): a climb
    # reaching A wins, where 000 (an end at A) needs A passed
    "H36": ("h36_reach_ace_wins", "level.end_on", lambda p, v: (p["won"], v["won"], v["level"]) == (False, True, "A")),
    # H37 (sunbin1998can/tractor-card-game-codex, Follow.ts buildExpectedInsufficient): a fill of a tractor not
    # matched that is not the lowest is refused as not following the tractor, where 000 allows any fill meeting the
    # ladder or names the pair it lacks (000:2.16a)
    "H37": ("h37_lowest_fill", "follow.fill",
            lambda p, v: (v["legal"], v["reason"]) == (False, "must_play_tractor") and
            (p["legal"] or p["reason"] != "must_play_tractor")),
    # H38 (tonyyunyang/80-fen-shengji, rules.js followError; abadcafe/tractor-game, follow.py
    # illegal_follow_rejection): a follow refused by both readings, for too few pairs, where 000 names the tractor it
    # lacks (000:2.16c)
    "H38": ("h38_pairs_named_first", "follow.reason_order",
            lambda p, v: (p["legal"], v["legal"], p["reason"], v["reason"]) ==
            (False, False, "must_play_tractor", "must_play_pair")),
    # V82: a player dealt no point card or no card trump in every suit: the cards are dealt again
    "V82": ("v82_redeal_poor_hands", "deal.redeal_if", lambda p, v: (p["redeal"], v["redeal"]) == (False, True)),
}


@pytest.mark.parametrize("vid", sorted(READINGS))
def test_diff_finds_a_position_telling_the_reading_from_its_parent(vid):
    name, key, expected = READINGS[vid]
    assert vid in rules_for(name).checked.variants
    diff, parent_answer, reading_answer = _difference(name, key)
    if expected is not None:
        assert expected(parent_answer, reading_answer), (vid, diff.position.to_dict(), parent_answer, reading_answer)


def test_the_whole_hand_of_v68_is_one_the_banker_side_keeps_without_the_last_trick():
    diff, _, _ = _difference("v68_banker_needs_last_trick", "score.banker_needs_last_trick")
    t = diff.position.input["transcript"]
    assert diff.position.op == "hand"
    from conformance.protocol.engine import _ctx, _judge_trick, _trick
    rules = rules_for("r000")
    ctx = _ctx(rules, t)
    last = t["tricks"][-1]
    leader, plays = _trick(rules, ctx, last, "last")
    winner, _ = _judge_trick(ctx, leader, plays)
    assert winner % 2 != t["banker"] % 2      # the attackers won the last trick


def test_every_house_rule_a_catalogue_file_states_has_its_answers_checked_here():
    """Each reading of spec/house_rules.tsv that a file of spec/variants/ states is in READINGS, so its position's two
    answers are checked against the reading's wording."""
    from reference_impl.rules import catalogue_names
    from tractor_dsl.variants import house_rules
    house = {v.id for v in house_rules()}
    stated = {vid for name in catalogue_names() for vid in rules_for(name).checked.own_variants if vid in house}
    assert stated and sorted(stated - set(READINGS)) == []


def _catalogue_names():
    from reference_impl.rules import catalogue_names
    return sorted(catalogue_names())


@pytest.mark.parametrize("name", _catalogue_names())
def test_every_catalogue_reading_is_told_from_its_parent_by_a_position_of_play(name):
    """Issue 32: ``tractor diff PARENT FILE`` finds, for every file of spec/variants/ (every reading of the catalogue,
    V and H), at least one position of play - not a bare setting value - where the two give different answers."""
    parent = rules_for(name).checked.lineage[1]
    comparison = compare(parent, name)
    shown = [d for d in comparison.differences if d.position is not None and d.position.op != "value"
             and d.outcome_a.answer != d.outcome_b.answer]
    assert shown, f"{name}: no position of play tells it from {parent}"
