"""The 7 Wonders observation encoder (civtable.rl.encoders.seven_wonders)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from civtable.core.rng import Rng  # noqa: E402
from civtable.games.seven_wonders.catalog import CARD_INDEX, CARDS, N_CARDS  # noqa: E402
from civtable.rl.encoders import encoder_for  # noqa: E402
from civtable.rl.encoders.seven_wonders import CITY_SIZE, city_order  # noqa: E402
from tests.rl.helpers import SW, first_step_position, random_positions  # noqa: E402


def _feature(encoder, name):
    return encoder.feature_names().index(name)


@pytest.mark.parametrize("players", range(2, 8))
def test_size_and_names_agree_for_every_player_count(players):
    encoder = encoder_for(SW, players)
    cities = 3 if players == 2 else players
    names = encoder.feature_names()
    assert len(names) == encoder.size
    assert len(set(names)) == encoder.size
    assert encoder.size == 22 + 4 * N_CARDS + cities * CITY_SIZE
    state = first_step_position(players, seed=players)
    vec = encoder.encode(state.view(0))
    assert vec.shape == (encoder.size,)
    assert vec.dtype == np.float32


def test_sw_0_6_cities_are_ordered_self_left_right_then_onwards_left():
    # LEFT(i) = i + 1, RIGHT(i) = i - 1
    assert city_order(0, 3) == [0, 1, 2]
    assert city_order(1, 4) == [1, 2, 0, 3]
    assert city_order(6, 7) == [6, 0, 5, 1, 2, 3, 4]
    for n in range(3, 8):
        for me in range(n):
            assert sorted(city_order(me, n)) == list(range(n))


@pytest.mark.parametrize("players", [2, 3, 5, 7])
def test_features_match_the_view(players):
    encoder = encoder_for(SW, players)
    for state, seat in random_positions(players, seed=11 * players, every=7):
        view = state.view(seat)
        vec = encoder.encode(view)
        for slot, c in enumerate(city_order(view["city"], len(view["cities"]))):
            doc = view["cities"][c]
            assert vec[_feature(encoder, f"city{slot}:coins")] == min(doc["coins"], 255)
            assert vec[_feature(encoder, f"city{slot}:shields")] == doc["shields"]
            assert vec[_feature(encoder, f"city{slot}:stages_built")] == doc["stages_built"]
            assert vec[_feature(encoder, f"city{slot}:defeat_tokens")] == doc["defeat_tokens"]
            wins = sum(t for t in doc["tokens"] if t > 0)
            assert vec[_feature(encoder, f"city{slot}:victory_points")] == wins
            for color, count in doc["colors"].items():
                assert vec[_feature(encoder, f"city{slot}:color_{color}")] == count
            for symbol, count in doc["science"].items():
                assert vec[_feature(encoder, f"city{slot}:{symbol}")] == count
            built = set(doc["structures"])
            for card in CARDS:
                expected = 1.0 if card.id in built else 0.0
                assert vec[_feature(encoder, f"city{slot}:built:{card.id}")] == expected
            free_city = players == 2 and c == 0
            assert vec[_feature(encoder, f"city{slot}:is_free_city")] == free_city
        hand = [0] * N_CARDS
        for cid in view["hand"]:
            hand[CARD_INDEX[cid]] += 1
        start = _feature(encoder, f"hand:{CARDS[0].id}")
        assert vec[start : start + N_CARDS].tolist() == hand
        assert vec[_feature(encoder, f"age_{view['age']}")] == 1.0
        assert vec[_feature(encoder, f"turn_{view['turn']}")] == 1.0


@pytest.mark.parametrize("players", [2, 3, 4, 7])
def test_sw_3_9_observation_ignores_what_the_seat_cannot_see(players):
    """Re-dealing every card the seat cannot see leaves its observation unchanged."""
    encoder = encoder_for(SW, players)
    rng = Rng(5)
    changed = 0
    for state, seat in random_positions(players, seed=3 + players, every=5):
        world = state.determinize(seat, rng)
        assert np.array_equal(encoder.encode(state.view(seat)), encoder.encode(world.view(seat)))
        other = (seat + 1) % players
        if sorted(state.view(other)["hand"]) != sorted(world.view(other)["hand"]):
            changed += 1
    assert changed > 0, "the determinizations must actually change hidden cards"


@pytest.mark.parametrize("players", [3, 7])
def test_sw_3_9_sw_8_1_an_earlier_pick_of_the_same_step_is_not_revealed(players):
    """Seat 1's observation is the same whichever card seat 0 committed before it."""
    encoder = encoder_for(SW, players)
    base = first_step_position(players, seed=21)
    observations = set()
    for action in base.legal_actions(0):
        state = base.copy()
        state.apply(0, action)
        if state.owes_decision(0):  # a payment choice follows: finish it
            state.apply(0, state.legal_actions(0)[0])
        observations.add(encoder.encode(state.view(1)).tobytes())
    assert len(base.legal_actions(0)) > 3
    assert len(observations) == 1


def test_own_hand_is_visible_and_changes_the_observation():
    encoder = encoder_for(SW, 4)
    a = first_step_position(4, seed=1)
    b = first_step_position(4, seed=2)
    assert sorted(a.view(0)["hand"]) != sorted(b.view(0)["hand"])
    assert not np.array_equal(encoder.encode(a.view(0)), encoder.encode(b.view(0)))


def test_a_spectator_view_cannot_be_encoded():
    encoder = encoder_for(SW, 3)
    with pytest.raises(ValueError, match="seat"):
        encoder.encode(first_step_position(3, seed=1).view(None))


def test_pending_payment_is_encoded():
    encoder = encoder_for(SW, 3)
    found = 0
    for seed in range(8):
        for state, seat in random_positions(3, seed=seed):
            view = state.view(seat)
            pending = [d for d in view["commitments"].values() if "choosing_payment" in d]
            vec = encoder.encode(view)
            assert vec[_feature(encoder, "choosing_payment")] == (1.0 if pending else 0.0)
            if pending:
                found += 1
                card = pending[0]["card"]
                assert vec[_feature(encoder, f"pending_card:{card}")] == 1.0
                kind = "pending_build" if pending[0]["action"] == "build" else "pending_stage"
                assert vec[_feature(encoder, kind)] == 1.0
    assert found, "no payment choice in the sampled games"
