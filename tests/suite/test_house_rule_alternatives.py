"""Issue 19: the house-rule readings the bundled rulesets leave unset are alternatives the suite knows (each with
the operations that observe it), and the seeded search finds a position telling each from the ruleset, so a
findings run or a fingerprint can name the reading an engine follows."""
import pytest

from conformance.generation.alternatives import alternatives
from conformance.generation.decisions import answer, distinguish
from reference_impl.rules import rules_for

# reading -> (feature, the operation its position is asked by); None: not offered for that ruleset, and why
EXPECTED = {
    "r000": {"V06": ("trump.order", None), "V21": ("tractor.off_level_chain", "classify"),
             "V10": ("trump.named_cards", None), "V67": ("level.knock_back", "hand"),
             "V68": ("score.banker_needs_last_trick", "hand"),
             "V05": ("equipment.removed", "deal"), "V82": ("deal.redeal_if", "deal")},  # two decks: no V29; no fixed 2s: no V09
    "r001": {"V06": ("trump.order", None), "V21": ("tractor.off_level_chain", "classify"),
             "V10": ("trump.named_cards", None), "V09": ("trump.fixed_ranks", None),
             "V29": ("follow.pairs_before_triples", "follow"), "V67": ("level.knock_back", "hand"),
             "V68": ("score.banker_needs_last_trick", "hand"),
             "V05": ("equipment.removed", "deal"), "V82": ("deal.redeal_if", "deal")},
    "r003": {"V06": ("trump.order", None), "V21": ("tractor.off_level_chain", "classify"),
             "V10": ("trump.named_cards", None), "V29": ("follow.pairs_before_triples", "follow"),
             "V67": ("level.knock_back", "hand"), "V68": ("score.banker_needs_last_trick", "hand"),
             "V05": ("equipment.removed", "deal"), "V82": ("deal.redeal_if", "deal")},
}


def _house(rules):
    out = {}
    for a in alternatives(rules):
        for vid in ("V05", "V06", "V09", "V10", "V21", "V29", "V67", "V68", "V82"):
            if f"({vid})" in a.description:
                out.setdefault(vid, []).append(a)
    return out


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_unset_house_rule_is_an_alternative_with_a_position_that_tells_it(name):
    rules = rules_for(name)
    house = _house(rules)
    assert sorted(house) == sorted(EXPECTED[name])
    for vid, alts in house.items():
        feature, op = EXPECTED[name][vid]
        for alt in alts:
            assert alt.feature == feature and feature in alt.changes
            found = distinguish(rules, alt).found
            assert found is not None, alt.description
            assert op is None or found.op == op, (alt.description, found.op)
            assert answer(rules, found.op, found.input) != answer(alt.rules, found.op, found.input)


def test_the_two_orders_of_v09_are_told_apart_from_each_other_too():
    rules = rules_for("r001")
    twos_above, tens_above = _house(rules)["V09"]
    found = distinguish(rules, tens_above).found
    answers = [answer(r, found.op, found.input) for r in (rules, twos_above.rules, tens_above.rules)]
    assert answers[2] != answers[0] and answers[2] != answers[1]   # a 10 led, a 2 after it: the 10s above win it


def test_the_jack_rule_and_the_last_trick_are_seen_on_whole_hands_only():
    house = _house(rules_for("r000"))
    assert house["V67"][0].observers == ("hand",) and house["V68"][0].observers == ("hand",)
    assert house["V67"][0].changes["level.knock_back"] == {"level": "J", "to": "2"}


@pytest.mark.parametrize("name, kitty", [("r000", 6), ("r001", 4), ("r003", 4)])
def test_the_removed_cards_and_the_redeal_are_seen_on_the_deal_alone(name, kitty):
    """V05 (the two 3s of clubs out, the kitty two cards smaller: r000's 8 becomes 6) and V82 (a redeal for a hand
    with no point card or no card trump in every suit) are observed by ``deal`` only: any other position showing
    them is impossible under one of the two. V82's search is aimed at the poor hands it deals again."""
    house = _house(rules_for(name))
    [v05], [v82] = house["V05"], house["V82"]
    assert v05.observers == ("deal",) and v82.observers == ("deal",)
    assert v05.changes == {"equipment.removed": (("3", "clubs"), ("3", "clubs")), "equipment.kitty_size": kitty}
    assert v82.changes == {"deal.redeal_if": ("no_points", "no_trumps")}
    assert {sc.kind for sc in v82.targets} == {"poor"}
    found = distinguish(rules_for(name), v82).found
    assert answer(v82.rules, "deal", found.input) == {"proper": True, "redeal": True, "buries": None}


def test_a_ruleset_that_removes_cards_or_redeals_is_not_offered_them_again():
    from reference_impl.rules import load_file
    from tractor_dsl.bundled import default_spec_dir
    variants = default_spec_dir() / "variants"
    assert "V05" not in _house(load_file(variants / "v05_kitty_with_cards_removed.tractor"))
    assert "V82" not in _house(load_file(variants / "v82_redeal_poor_hands.tractor"))


def test_a_ruleset_stating_v05_or_v82_has_the_other_readings_of_the_deal_as_alternatives():
    """Where V05 or V82 is stated, the deal's other readings are alternatives seen by ``deal`` (so mutation and
    findings on those catalogue files test their deal cases): every card dealt with a kitty of 8; the redeal for
    one condition only, or for none."""
    from reference_impl.rules import load_file
    from tractor_dsl.bundled import default_spec_dir
    variants = default_spec_dir() / "variants"
    v05 = load_file(variants / "v05_kitty_with_cards_removed.tractor")
    [whole] = [a for a in alternatives(v05) if a.feature == "equipment.removed"]
    assert whole.changes == {"equipment.removed": None, "equipment.kitty_size": 8} and whole.observers == ("deal",)
    v82 = load_file(variants / "v82_redeal_poor_hands.tractor")
    redeals = [a for a in alternatives(v82) if a.feature == "deal.redeal_if"]
    assert [a.changes["deal.redeal_if"] for a in redeals] == [("no_points",), ("no_trumps",), None]
    for rules, alt in [(v05, whole)] + [(v82, a) for a in redeals]:
        found = distinguish(rules, alt).found
        assert found is not None and found.op == "deal", alt.description
        assert answer(rules, "deal", found.input) != answer(alt.rules, "deal", found.input)


@pytest.mark.parametrize("name", ["r000", "r001", "r003"])
def test_the_house_rules_real_engines_follow_are_alternatives_added_last(name):
    """Issue 31, point 5: a throw penalty of 0 (V42), a throw that wins its trick once accepted (H02) and no
    trump when nobody declares (H01) are alternatives, after every other one (no earlier id moves), each with a
    position that tells it from the ruleset; so are the throw rules of issue 32 (H03 singles first after a
    failed throw, H04 no throw of trumps)."""
    rules = rules_for(name)
    everything = alternatives(rules)
    # H34 (tuolaji's GameState.declare_trump: a joker pair wins the contest and the overcalled suit stays trump)
    # comes last of all, where jokers declare (r000: 000:2.6); elsewhere there is no joker declaration to read
    # then H37 (the same engine's Follow.buildExpectedInsufficient: a tractor not matched followed by the lowest fill),
    # with two decks; then, last of all, H38 (tony's followError, abadcafe's illegal_follow_rejection: a follow with
    # too few pairs refused for its pairs first), cited to the clause stating the order (follow.refusal)
    h38 = [a for a in everything if "(H38)" in a.description]
    assert h38 == everything[-1:] and h38[0].changes == {"follow.reason_order": "pairs_first"}
    assert h38[0].observers == ("follow",) and h38[0].clause == rules.clause("follow.reason_order") == "follow.refusal"
    everything = everything[:-1]
    h37 = [a for a in everything if "(H37)" in a.description]
    if rules.decks == 2:
        assert h37 == everything[-1:] and h37[0].changes == {"follow.fill": "lowest_first"} and h37[0].observers == ("follow",)
    else:
        assert h37 == []
    everything = everything[:len(everything) - len(h37)]
    # then H36 (the same engine's GameEngine.finishRound: the game won on reaching the last level), last of all where
    # the game ends at a level not to be played
    h36 = [a for a in everything if "(H36)" in a.description]
    end = rules["level.end"]
    if end is not None and end not in rules["level.must_play"]:
        assert h36 == everything[-1:] and h36[0].changes == {"level.end_on": "reach"}
        assert h36[0].observers == ("advance",) and h36[0].clause == rules.clause("level.end")
    else:
        assert h36 == []
    everything = everything[:len(everything) - len(h36)]
    # then H35 (sunbin1998can/tractor-card-game-codex's Throw.canBeatPart: a void hand's trumps block a side-suit
    # throw), last of all where throws are judged
    h35 = [a for a in everything if "(H35)" in a.description]
    if rules["throw.allowed"] and rules["throw.check"] != "unchecked":
        assert h35 == everything[-1:] and h35[0].changes == {"throw.ruff_blocks": True}
        assert h35[0].observers == ("lead",) and h35[0].clause == rules.clause("throw.check")
    else:
        assert h35 == []
    everything = everything[:len(everything) - len(h35)]
    h34 = [a for a in everything if "(H34)" in a.description]
    if rules["declare.joker_pairs"]:
        assert h34 == everything[-1:] and h34[0].changes == {"declare.joker_trump": "keep_suit"}
        assert h34[0].observers == ("declare",) and h34[0].clause == rules.clause("declare.joker_trump")
    else:
        assert h34 == []
    everything = everything[:len(everything) - len(h34)]
    # the rules of real engines no other alternative states (H28, H29: tuolaji; the whole kitty tables of V47 and
    # V48: tonyyunyang/80-fen-shengji reads V47's; H30: rbtying/shengji's default, every component beating; H31:
    # tuolaji's GameState._finalize_declaration, the bank bid for in every hand; H32: tuolaji's off-suit level cards
    # ranked by suit; H33: sunbin1998can/tractor-card-game-codex's kitty, x2 per pair of a pair or tractor, a throw
    # x2) come last of all, H30, then H31, H32, and H33 last
    marks = ("H28", "H29", "V47", "V48", "H30", "H31", "H32", "H33")
    engine = [a for a in everything if any(f"({x})" in a.description for x in marks)]
    assert set(marks) <= {x for a in engine for x in marks if f"({x})" in a.description}
    assert engine and engine == everything[len(everything) - len(engine):]
    h30, h31, h32, h33 = everything[-4:]
    assert "(H30)" in h30.description and h30.changes == {"compare.multi": "every_component"}
    assert not [a for a in everything[:-4] if a.changes.get("compare.multi") == "every_component"]
    assert "(H31)" in h31.description and h31.changes == {"declare.overcall_moves_bank": "every_hand",
                                                          "declare.first_hand_banker": "last_declarer"}
    assert h31.observers == ("declare",) and h31.clause == rules.clause("declare.overcall_moves_bank")
    assert not [a for a in everything[:-3] if a.changes.get("declare.overcall_moves_bank") == "every_hand"]
    assert "(H32)" in h32.description and h32.changes == {"trump.off_suit_order": ("spades", "hearts", "diamonds",
                                                                                    "clubs")}
    assert h32.observers == ("classify", "winner") and h32.clause == rules.clause("trump.order")
    assert not [a for a in everything[:-2] if "trump.off_suit_order" in a.changes]
    assert "(H33)" in h33.description and h33.observers == ("kitty",)
    assert h33.changes["kitty.multi_unit"] == "whole_play" and h33.changes["kitty.multiplier"] == \
        rules_for("h33_kitty_lead_pairs")["kitty.multiplier"]
    everything = everything[:len(everything) - len(engine)]
    # the other values of bank.succession (issue 32, next_banker_seat) come last before them, after these
    succession = [a for a in everything if a.feature == "bank.succession"]
    assert succession == everything[len(everything) - len(succession):]
    # the house rules of issue 32 on whole hands, the deal, the kitty and the levels (H23-H26), then H27, come just
    # before it
    hand_rules = [a for a in everything if any(f"(H2{i})" in a.description for i in (3, 4, 5, 6, 7))]
    assert hand_rules == everything[len(everything) - len(succession) - len(hand_rules):len(everything) - len(succession)]
    alts = everything[:len(everything) - len(succession) - len(hand_rules)]
    (v42,) = [a for a in alts if "(V42)" in a.description]
    (h02,) = [a for a in alts if "(H02)" in a.description]
    (h04,) = [a for a in alts if "(H04)" in a.description]
    (h03,) = [a for a in alts if a.changes == {"throw.forced_play": "singles_first"}]
    assert not [a for a in alts if a.changes == {"throw.forced_play": "blocked_fewest"}]   # H27: after them all
    h05 = [a for a in alts if "(H05)" in a.description]   # only where a throw is judged component by component
    assert bool(h05) == (rules["throw.check"] == "components_unbeatable")
    declaring = [a for a in alts if any(f"(H0{i})" in a.description for i in (6, 7, 8))]   # H06-H08
    assert declaring and declaring == alts[len(alts) - len(declaring):]
    assert [h03, v42, h02, *h05, h04] == alts[len(alts) - len(declaring) - 4 - len(h05):len(alts) - len(declaring)]
    assert h04.changes == {"throw.banned_in": ("trump",)}
    assert v42.changes == {"throw.penalty_points": 0} and "(V42)" in v42.description
    assert h02.changes == {"throw.wins_trick": True} and h02.observers == ("winner", "kitty") and "(H02)" in h02.description
    h01 = [a for a in alts if a.changes.get("declare.fallback_later") == "no_trump"]
    assert h01 and all(alts.index(a) > alts.index(a0) for a in h01 for a0 in alts
                       if a0.feature.startswith("follow ") or a0.feature == "score.bands")
    for alt in (v42, h02, h03, h04, *h05, *h01, *declaring, h30, h31, h32, h33):
        found = distinguish(rules, alt).found
        assert found is not None, alt.description
        assert answer(rules, found.op, found.input) != answer(alt.rules, found.op, found.input)
    # H31 is told apart by whom the declarations make banker (GameState._finalize_declaration: the last declarer)
    found = distinguish(rules, h31).found
    assert found.op == "declare"
    ours, theirs = answer(rules, "declare", found.input), answer(h31.rules, "declare", found.input)
    assert ours["banker"] != theirs["banker"] == theirs["declarer"]
    found = distinguish(rules, h02).found
    assert answer(h02.rules, found.op, found.input)["winner"] == found.input["leader"]   # the thrower wins (H02)


@pytest.mark.parametrize("name", ["r000", "r001", "r003"])
def test_the_house_rules_of_whole_hands_the_deal_and_the_kitty_are_aimed_alternatives(name):
    """Issue 32: the jack rule by shape and score (H23, seen by ``hand`` at J), the weak-hand redeal (H24, seen by
    ``deal``) and the kitty doubled per pair (H25, seen by ``kitty``) are alternatives of each bundled ruleset, each
    with a position that tells it from the ruleset: under H23 the attackers' J on the last trick sends the banker's
    team back to 7 or 3 (with 80 points or more); under H24 a weak hand is dealt again that V82 (no point card or no
    trump at all) deals as it is; under H25 the kitty counts 2 x 2^pairs; under H27 (after them) a failed throw plays
    another component."""
    rules = rules_for(name)
    alts = {h: [a for a in alternatives(rules) if f"({h})" in a.description] for h in ("H23", "H24", "H25", "H27")}
    (h23,), (h24,), (h25,), (h27,) = alts["H23"], alts["H24"], alts["H25"], alts["H27"]
    assert h27.changes == {"throw.forced_play": "blocked_fewest"} and h27.feature == "throw.forced_play"
    assert h23.observers == ("hand",) and h23.changes["level.knock_back"] == \
        {"level": "J", "to": "7", "pair": "3", "min_points": 80}
    assert h24.observers == ("deal",) and h24.changes["deal.redeal_at_most"] == {"points": 15, "trumps": 3}
    assert {sc.kind for sc in h24.targets} == {"weak"}
    assert h25.observers == ("kitty",)
    found = {h: distinguish(rules, a).found for h, a in (("H23", h23), ("H24", h24), ("H25", h25), ("H27", h27))}
    assert all(f is not None for f in found.values()), found
    spec23, alt23 = (answer(r, "hand", found["H23"].input) for r in (rules, h23.rules))
    assert "knocked_back" not in spec23 and alt23["knocked_back"] in ("7", "3") and alt23["attackers_points"] >= 80
    deal = found["H24"].input
    assert answer(rules, "deal", deal)["redeal"] is False and answer(h24.rules, "deal", deal)["redeal"] is True
    v82 = [a for a in alternatives(rules) if "(V82)" in a.description][0]
    assert answer(v82.rules, "deal", deal)["redeal"] is False   # weak, not empty: V82 deals it as it is
    spec25, alt25 = (answer(r, "kitty", found["H25"].input) for r in (rules, h25.rules))
    assert spec25 != alt25
    spec27, alt27 = (answer(r, found["H27"].op, found["H27"].input) for r in (rules, h27.rules))
    assert found["H27"].op == "lead" and spec27["forced"] != alt27["forced"]


@pytest.mark.parametrize("name, offered", [("r000", True), ("r001", False), ("r003", True)])
def test_the_shanghai_gates_are_an_alternative_where_2_5_10_and_k_are_levels(name, offered):
    """H26 (ChannonTian/80fen docs/RULES.md §H, 必打关卡 2/5/10/K) is an alternative seen by ``advance`` where the four
    are levels (r001 plays 3 to K: no 2); its position is a team at a gate that stays there, where the ruleset climbs."""
    rules = rules_for(name)
    h26 = [a for a in alternatives(rules) if "(H26)" in a.description]
    assert bool(h26) == offered
    if offered:
        (alt,) = h26
        assert alt.changes == {"level.must_defend": ("2", "5", "10", "K")} and alt.observers == ("advance",)
        found = distinguish(rules, alt).found
        spec, house = (answer(r, "advance", found.input) for r in (rules, alt.rules))
        assert house["level"] == found.input["level"] != spec["level"] and not house["won"]


def test_every_house_rule_a_catalogue_file_states_over_a_bundled_ruleset_is_an_alternative_of_it():
    """Issue 32: each setting a house-rule file (spec/variants/h*.tractor) changes over the bundled ruleset it extends
    is, with the file's value, among the changes of some alternative of that ruleset - so a findings run or a
    fingerprint against the ruleset can name an engine that plays the house rule."""
    from reference_impl.rules import catalogue_names
    from tractor_dsl.variants import house_rules
    house = {v.id for v in house_rules()}
    missing = []
    for name in sorted(catalogue_names()):
        rules = rules_for(name)
        if not set(rules.checked.own_variants) & house:
            continue
        parent = rules_for(rules.checked.lineage[1])
        mine, theirs = rules.checked.values, parent.checked.values
        alts = alternatives(parent)
        for key in (k for k in mine if theirs.get(k) != mine[k]):
            if not any(a.changes.get(key) == mine[key] for a in alts):
                missing.append((name, key))
    assert missing == []


@pytest.mark.parametrize("name", ["r000", "r001", "r003"])
def test_the_unchecked_throw_and_the_flat_kitty_are_alternatives_with_a_position_each(name):
    """Issue 31: the rules the tuolaji engine follows (code index id 41857568324) are alternatives of each bundled
    ruleset, so a findings run and a fingerprint can name them: a throw never judged at its lead (H28,
    CardCombo.is_valid_lead checks one suit only), seen by ``lead``, whose position is a throw another hand can beat
    that stands as led; and the kitty at its face value (H29, GameState.play_cards adds its points x1), seen by
    ``kitty``, whose position is a capture the ruleset multiplies and the engine does not."""
    rules = rules_for(name)
    (h28,) = [a for a in alternatives(rules) if "(H28)" in a.description]
    (h29,) = [a for a in alternatives(rules) if "(H29)" in a.description]
    assert h28.changes == {"throw.check": "unchecked"} and h28.observers == ("lead",)
    assert h29.feature == "kitty.multiplier" and h29.observers == ("kitty",)
    assert {str(f) for rows in h29.changes["kitty.multiplier"].values() for f in rows.values()} == {"1"}
    found = distinguish(rules, h28).found
    spec, house = (answer(r, "lead", found.input) for r in (rules, h28.rules))
    assert found.op == "lead" and (spec["legal"], spec["reason"]) == (False, "throw_beaten") and house["legal"]
    found = distinguish(rules, h29).found
    spec, house = (answer(r, "kitty", found.input) for r in (rules, h29.rules))
    from reference_impl.cards import parse_cards
    from reference_impl.trick import points_of
    face = points_of(rules, parse_cards(" ".join(found.input["kitty"])))
    assert found.op == "kitty" and house["points"] == face > 0 and spec["points"] > face   # x1 against x2 or more


def test_the_engine_rules_are_not_offered_where_the_ruleset_states_them():
    """H28 is no alternative of a ruleset that judges no throw, nor H29 of one whose kitty counts x1 already."""
    for name in ("h28_unchecked_throws", "h29_kitty_face_value"):
        rules = rules_for(name)
        house = [a.description for a in alternatives(rules) if "(H28)" in a.description or "(H29)" in a.description]
        assert len(house) == 1 and ("(H28)" in house[0]) == (name.startswith("h29"))

