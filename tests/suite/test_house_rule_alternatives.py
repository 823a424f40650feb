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
             "V68": ("score.banker_needs_last_trick", "hand")},          # two decks: no V29; no fixed 2s: no V09
    "r001": {"V06": ("trump.order", None), "V21": ("tractor.off_level_chain", "classify"),
             "V10": ("trump.named_cards", None), "V09": ("trump.fixed_ranks", None),
             "V29": ("follow.pairs_before_triples", "follow"), "V67": ("level.knock_back", "hand"),
             "V68": ("score.banker_needs_last_trick", "hand")},
    "r003": {"V06": ("trump.order", None), "V21": ("tractor.off_level_chain", "classify"),
             "V10": ("trump.named_cards", None), "V29": ("follow.pairs_before_triples", "follow"),
             "V67": ("level.knock_back", "hand"), "V68": ("score.banker_needs_last_trick", "hand")},
}


def _house(rules):
    out = {}
    for a in alternatives(rules):
        for vid in ("V06", "V09", "V10", "V21", "V29", "V67", "V68"):
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
