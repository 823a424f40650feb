"""Card notation: unambiguous jokers, clear errors, copy limits."""
import pytest

from reference_impl.cards import BIG_JOKER, SMALL_JOKER, CardError, check_copies, format_cards, parse_cards


def test_round_trip_of_every_card():
    text = format_cards(range(54))
    assert parse_cards(text) == list(range(54))


def test_jokers_have_a_form_no_suited_card_can_take():
    assert parse_cards("J+ J-") == [BIG_JOKER, SMALL_JOKER]
    assert parse_cards("JH JS") != [BIG_JOKER, SMALL_JOKER]


@pytest.mark.parametrize("token, fragment", [
    ("BJ", "ambiguous"), ("SJ", "ambiguous"), ("HJ", "ambiguous"),
    ("H5", "suit-first"), ("5h", "upper case"), ("TS", "ten is written 10"), ("1S", "ten is written 10"),
    ("ZZ", "not a card"),
])
def test_bad_tokens_get_specific_messages(token, fragment):
    with pytest.raises(CardError, match=fragment):
        parse_cards(token)


def test_more_copies_than_decks_is_rejected():
    check_copies(parse_cards("5H 5H"), 2)
    with pytest.raises(CardError, match="3 × 5H"):
        check_copies(parse_cards("5H 5H 5H"), 2, "the hand")
