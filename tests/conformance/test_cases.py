"""The case generator: deterministic, content-addressed, and varied enough to exercise every rule."""
from collections import Counter, defaultdict

import pytest

from conformance import protocol
from conformance.cases import case_id, generate
from conformance.runner import vector_cases
from reference_impl.rules import ruleset_names, rules_for


def test_generation_is_deterministic_per_seed():
    a = list(generate("r003", ["follow", "lead"], seed=3, counts=15))
    b = list(generate("r003", ["follow", "lead"], seed=3, counts=15))
    c = list(generate("r003", ["follow", "lead"], seed=4, counts=15))
    assert a == b and len(a) == 30
    assert [x["id"] for x in a] != [x["id"] for x in c]


def test_ids_are_content_addressed():
    x = next(generate("r001", ["follow"], seed=1, counts=1))
    assert x["id"] == case_id("r001", "follow", dict(reversed(list(x["input"].items()))))
    assert x["id"].startswith("r001:follow:")


def test_counts_and_operations():
    got = Counter(c["op"] for c in generate("r000", ["classify", "advance"], seed=0, counts={"classify": 7}))
    assert got["classify"] == 7 and got["advance"] > 100  # advance: every level × gain × side


@pytest.fixture(scope="module")
def all_vectors():
    by = defaultdict(list)
    for c in vector_cases():
        by[c["op"]].append(c)
    return by


def test_positions_exercise_every_reason_and_kind(all_vectors):
    """Across the rulesets the checked-in vectors reach every answer that matters."""
    follow = Counter(c["expected"]["reason"] for c in all_vectors["follow"])
    assert set(follow) >= {"ok", "must_follow_suit", "must_play_pair", "must_play_tractor", "cards_not_held",
                           "wrong_card_count"}, follow
    lead = Counter(c["expected"]["reason"] for c in all_vectors["lead"])
    assert set(lead) >= {"ok", "throw_beaten", "mixed_suits"}, lead
    kinds = Counter(c["expected"]["kind"] for c in all_vectors["classify"])
    assert set(kinds) >= {"single", "pair", "triple", "tractor", "throw", "mixed"}, kinds
    declare = Counter(c["expected"]["reason"] for c in all_vectors["declare"])
    assert len(declare) >= 8 and "ok" in declare, declare
    undeclared = Counter(c["expected"]["redeal"] for c in all_vectors["undeclared"])
    assert set(undeclared) == {True, False}
    kitty = [c["expected"]["points"] for c in all_vectors["kitty"]]
    assert min(kitty) < 0 < max(kitty) and 0 in kitty
    winners = Counter(c["expected"]["winner"] == c["input"]["leader"] for c in all_vectors["winner"])
    assert winners[True] and winners[False]
    assert all(c["input"]["transcript"]["tricks"] for c in all_vectors["hand"])


def test_result_cases_reach_every_band_edge(all_vectors):
    for name in ruleset_names():
        rules = rules_for(name)
        points = {c["input"]["attackers_points"] for c in all_vectors["result"] if c["ruleset"] == name}
        for band in rules.bands:
            for edge in (band.low, band.high):
                if edge is not None:
                    assert edge in points, (name, band)


def test_advance_cases_cover_every_level(all_vectors):
    for name in ruleset_names():
        levels = {c["input"]["level"] for c in all_vectors["advance"] if c["ruleset"] == name}
        assert levels == set(rules_for(name)["level.ranks"])
        assert any(c["expected"]["won"] for c in all_vectors["advance"] if c["ruleset"] == name)


def test_every_operation_has_a_generator():
    from conformance.cases import Positions
    for op in protocol.OPERATIONS:
        assert callable(getattr(Positions, op))
