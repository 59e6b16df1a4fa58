"""The 7 Wonders observation encoder (civtable.rl.encoders.seven_wonders)."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from civtable import games  # noqa: E402
from civtable.core.rng import Rng  # noqa: E402
from civtable.games.seven_wonders.actions import DISCARD, STAGE  # noqa: E402
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


# --- the fast path: encode_state(state, seat) == encode(view(seat)) --------------------------


def _check_every_seat(encoder, state, players):
    """encode_state equals the encoding of view(seat) for every seat; returns the views."""
    views = []
    for seat in range(players):
        view = state.view(seat, labels=False)
        fast = encoder.encode_state(state, seat)
        assert fast.dtype == np.float32
        assert fast.shape == (encoder.size,)
        assert np.array_equal(fast, encoder.encode(view)), (state.age, state.turn, seat)
        views.append(view)
    return views


@pytest.mark.parametrize("players", range(2, 8))
def test_sw_3_9_fast_encoding_equals_the_encoding_of_the_view(players):
    """At every position of several random games (the final one included), for every seat."""
    game = games.get(SW)
    encoder = encoder_for(SW, players)
    checked = 0
    for seed in range(3):
        state = game.new_game(players, 40 + seed)
        rng = Rng(seed)
        while True:
            _check_every_seat(encoder, state, players)
            checked += players
            if state.is_terminal():
                break
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked > 100 * players


def test_sw_3_9_fast_encoding_equals_the_view_in_the_special_decisions():
    """Halikarnassus (SW-10.11, the pile is visible while choosing), Babylon's extra step
    (SW-10.7), Olympia's free build (SW-10.8), payment choices and the 2-player Free City
    (SW-14.4): stage-hungry play on boards that have them, every seat at every position."""
    game = games.get(SW)
    seen = {"pile": 0, "extra": 0, "paying": 0, "free_build": 0, "controller": 0}
    setups = [
        (3, ["halikarnassus", "babylon", "olympia"], ["B", "B", "A"]),
        (4, ["olympia", "halikarnassus", "giza", "babylon"], ["A", "A", "B", "B"]),
        (2, ["giza", "halikarnassus", "babylon"], ["A", "A", "B"]),
        (2, ["olympia", "babylon", "halikarnassus"], ["A", "B", "B"]),
    ]
    for players, boards, sides in setups:
        encoder = encoder_for(SW, players)
        for seed in range(3):
            state = game.new_game(players, seed, {"boards": boards, "sides": sides})
            rng = Rng(100 + seed)
            while True:
                views = _check_every_seat(encoder, state, players)
                for view in views:
                    seen["pile"] += "discard_pile" in view
                    seen["extra"] += view["phase"] == "babylon_extra_step"
                    seen["paying"] += any(
                        "choosing_payment" in d for d in view["commitments"].values()
                    )
                    seen["free_build"] += any(c["free_build_available"] for c in view["cities"])
                    seen["controller"] += view["controller"] == view["seat"]
                if state.is_terminal():
                    break
                seat = state.to_move()[0]
                legal = state.legal_actions(seat)
                stages = [a for a in legal if STAGE <= a < DISCARD]
                state.apply(seat, rng.choice(stages if stages and rng.random() < 0.7 else legal))
    assert all(seen.values()), seen


def test_fast_encoding_vectors_are_independent_and_seats_are_checked():
    encoder = encoder_for(SW, 3)
    state = first_step_position(3, seed=4)
    a = encoder.encode_state(state, 0)
    b = encoder.encode_state(state, 0)
    a[:] = 7.0
    assert not np.array_equal(a, b)
    assert np.array_equal(b, encoder.encode(state.view(0)))
    for seat in (-1, 3):
        with pytest.raises(ValueError, match="seat"):
            encoder.encode_state(state, seat)


@pytest.mark.parametrize("players", [2, 5])
def test_sw_3_9_fast_encoding_ignores_what_the_seat_cannot_see(players):
    """Re-dealing every hidden card leaves the fast encoding unchanged too."""
    encoder = encoder_for(SW, players)
    rng = Rng(9)
    for state, seat in random_positions(players, seed=30 + players, every=4):
        world = state.determinize(seat, rng)
        assert np.array_equal(encoder.encode_state(state, seat), encoder.encode_state(world, seat))
