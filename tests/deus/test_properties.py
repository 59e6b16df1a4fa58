"""Property tests of the Deus engine under random legal play (hypothesis, derandomized): the
invariants at every step, determinism, serialization, copying and illegal input.

Rule ids: DEUS-2.2 (96 cards), DEUS-2.3 (25 pieces per player), DEUS-2.4 / 4.3.1 (temples),
DEUS-4.3.2 / 11.6 (resources limited and conserved), DEUS-5.4 (hand limit), DEUS-7.4.3 ..
7.4.6 (region contents), DEUS-19 (breakdown), DEUS-20 (determinize keeps the public position).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from civtable import games
from civtable.core.errors import IllegalActionError, NotYourTurnError, SerializationError
from civtable.core.rng import Rng
from civtable.games.deus import invariants
from civtable.games.deus.actions import ACTION_SPACE
from civtable.games.deus.state import MAIN, PICK, DeusState

GAME = games.get("deus")
MAX_DECISIONS = 6000
SETTINGS = settings(max_examples=30, derandomize=True, database=None, deadline=None)

players_st = st.integers(min_value=2, max_value=4)
seed_st = st.integers(min_value=0, max_value=2**63)
options_st = st.fixed_dictionaries(
    {
        "board": st.sampled_from(["reference", "random"]),
        "blind_building": st.booleans(),
        "free_start": st.sampled_from([0, 0, 6, 10]),
        "first_player": st.sampled_from([0, "random"]),
    }
)


def new_game(players: int, seed: int, options: dict[str, object] | None = None) -> DeusState:
    """A fresh game (typed as the concrete state)."""
    state = GAME.new_game(players, seed, options)
    assert isinstance(state, DeusState)
    return state


def check_invariants(state: DeusState) -> None:
    """Conservation and no negative stock: the game's invariants module (DEUS-2.2 the 96 cards,
    DEUS-2.3 25 pieces per player, DEUS-4.3.1 temples, DEUS-4.3.2 / 11.6 resources, DEUS-5.4
    hand limit, DEUS-7.4.3 .. 7.4.6 region contents, DEUS-18.1 the end trigger)."""
    problems = invariants.check(state)
    assert not problems, problems


def play_random(state: DeusState, policy: int, check: bool = True) -> list[tuple[int, int]]:
    """Random legal play to the end (or MAX_DECISIONS); returns the moves."""
    rng = Rng(policy)
    moves: list[tuple[int, int]] = []
    while not state.is_terminal() and len(moves) < MAX_DECISIONS:
        seats = state.to_move()
        assert seats
        seat = seats[rng.randbelow(len(seats))]
        legal = state.legal_actions(seat)
        assert legal, f"seat {seat} owes a decision but has no legal action"
        assert legal == sorted(set(legal))
        assert all(0 <= a < ACTION_SPACE for a in legal)
        a = rng.choice(legal)
        state.apply(seat, a)
        moves.append((seat, a))
        if check:
            check_invariants(state)
    return moves


@settings(max_examples=60, derandomize=True, database=None, deadline=None)
@given(players=players_st, seed=seed_st, policy=seed_st, options=options_st)
def test_deus_2_4_19_random_play_never_raises_and_conserves(
    players: int, seed: int, policy: int, options: dict[str, object]
) -> None:
    state = new_game(players, seed, options)
    check_invariants(state)
    play_random(state, policy, check=True)
    assert state.is_terminal()
    r = state.result()
    for s in range(players):
        assert sum(r.breakdown[s].values()) == r.scores[s]  # DEUS-19.1
        assert list(r.breakdown[s]) == list(r.categories)
    assert set(r.winners) == {s for s in range(players) if r.ranking[s] == 0}


@SETTINGS
@given(players=players_st, seed=seed_st, policy=seed_st)
def test_deus_4_6_determinism_same_seed_and_moves_same_hash(
    players: int, seed: int, policy: int
) -> None:
    a = new_game(players, seed, {"blind_building": True})
    moves = play_random(a, policy)
    b = GAME.replay(players, seed, moves, {"blind_building": True})
    assert a.state_hash() == b.state_hash()
    assert new_game(players, seed).state_hash() == new_game(players, seed).state_hash()


@SETTINGS
@given(players=players_st, seed=seed_st, policy=seed_st, cut=st.integers(0, 400))
def test_deus_5_json_round_trip_and_copy(players: int, seed: int, policy: int, cut: int) -> None:
    state = new_game(players, seed, {"board": "random", "free_start": 8})
    rng = Rng(policy)
    for _ in range(cut):
        if state.is_terminal():
            break
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    doc = json.loads(json.dumps(state.to_json()))
    back = GAME.state_from_json(doc)
    assert isinstance(back, DeusState)
    assert back.state_hash() == state.state_hash()
    assert back.to_json() == state.to_json()
    twin = state.copy()
    play_random(twin, policy + 1)
    assert GAME.state_from_json(doc).state_hash() == state.state_hash()  # copy independent
    play_random(back, policy + 1)
    twin_again = state.copy()
    play_random(twin_again, policy + 1)
    assert twin_again.state_hash() == back.state_hash() == twin.state_hash()


@SETTINGS
@given(players=players_st, seed=seed_st, policy=seed_st, cut=st.integers(0, 300))
def test_deus_6_2_illegal_actions_leave_the_state_unchanged(
    players: int, seed: int, policy: int, cut: int
) -> None:
    state = new_game(players, seed)
    rng = Rng(policy)
    for _ in range(cut):
        if state.is_terminal():
            break
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    before = state.state_hash()
    history = len(state.history)
    if not state.is_terminal():
        seat = state.to_move()[0]
        legal = set(state.legal_actions(seat))
        bad = [a for a in range(ACTION_SPACE) if a not in legal]
        for a in (bad[0], bad[-1], rng.choice(bad), -1, ACTION_SPACE):
            with pytest.raises(IllegalActionError):
                state.apply(seat, a)
        other = (seat + 1) % players
        if state.phase != PICK:
            with pytest.raises(NotYourTurnError):
                state.apply(other, next(iter(legal)))
    with pytest.raises(IllegalActionError):
        state.apply(players, 0)
    with pytest.raises(IllegalActionError):
        state.apply(0, "1")  # type: ignore[arg-type]
    assert state.state_hash() == before
    assert len(state.history) == history


def test_deus_5_bad_json_raises_serialization_error() -> None:
    doc = new_game(3, 1).to_json()
    del doc["owner"]
    with pytest.raises(SerializationError):
        GAME.state_from_json(doc)
    with pytest.raises(SerializationError):
        GAME.state_from_json({"game": "seven-wonders"})


@pytest.mark.parametrize(
    "options",
    [
        {"board": "hex"},
        {"free_start": 3},
        {"free_start": 11},
        {"first_player": 5},
        {"blind_building": "yes"},
        {"colour": "red"},
    ],
)
def test_deus_4_bad_options_are_rejected(options: dict[str, object]) -> None:
    from civtable.core.errors import InvalidOptionsError

    with pytest.raises(InvalidOptionsError):
        GAME.new_game(3, 0, options)
    with pytest.raises(InvalidOptionsError):
        GAME.new_game(5, 0)


def _without_history(doc: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in doc.items() if k != "history"}


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {"board": "random", "blind_building": True}),
        (4, {}),
        (4, {"free_start": 6, "board": "random", "blind_building": True}),
    ],
)
def test_deus_issue21_look_ahead_copies_leave_the_position_alone(
    players: int, options: dict[str, object]
) -> None:
    """``DeusState.branch`` shares the lists the rules replace instead of changing in place
    (seat rows, tableau columns, deck, discard pile): at every position of a random game
    (DEUS-6 .. DEUS-21 as random play reaches them), every legal action played on a look-ahead
    copy, and the rest of the turn on copies of that copy, leaves the position unchanged and
    gives what the same moves give on an ordinary copy."""
    state = new_game(players, 5, options)
    rng = Rng(9)
    positions = 0
    while not state.is_terminal():
        seat = state.to_move()[0]
        before = state.to_json()
        for a in state.legal_actions(seat):
            look, plain = state.branch(), state.copy()
            look.apply(seat, a)
            plain.apply(seat, a)
            for _ in range(8):  # the rest of the turn, each step on a copy of the copy
                if look.is_terminal() or look.phase in (MAIN, PICK):
                    break
                mover = look.to_move()[0]
                b = rng.choice(look.legal_actions(mover))
                look = look.branch()
                look.apply(mover, b)
                plain.apply(mover, b)
            assert _without_history(look.to_json()) == _without_history(plain.to_json())
            assert state.to_json() == before
            positions += 1
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert positions > 1000
