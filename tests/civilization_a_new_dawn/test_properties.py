"""Property tests under random legal play (hypothesis, derandomized): ``invariants.check`` after
every apply (CIV-1.1 component conservation, CIV-7.2 trade cap, CIV-23.1), determinism, JSON
round trip, copies, and illegal input leaving the state unchanged (core contract)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from civtable import games
from civtable.core.errors import IllegalActionError, NotYourTurnError
from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn.invariants import check
from civtable.games.civilization_a_new_dawn.state import CivState

GAME = games.get("civilization-a-new-dawn")
SETTINGS = settings(max_examples=8, derandomize=True, database=None, deadline=None)
STEPS = 400

players_st = st.integers(min_value=2, max_value=4)
seed_st = st.integers(min_value=0, max_value=2**40)


def new_game(players: int, seed: int, map_: str = "first_game") -> CivState:
    """A fresh game (typed)."""
    s = GAME.new_game(players, seed, {"map": map_})
    assert isinstance(s, CivState)
    return s


def random_step(s: CivState, rng: Rng) -> None:
    """One random legal action; every invariant of the box holds after it (issue 20, item 8)."""
    seat = s.to_move()[0]
    s.apply(seat, rng.choice(s.legal_actions(seat)))
    assert check(s) == []


def check_invariants(s: CivState) -> None:
    """Component conservation (``invariants.check``, CIV-1.1/CIV-23.1) and legal-action bounds."""
    assert check(s) == []
    size = GAME.action_space_size(s.players)
    if not s.is_terminal():
        seat = s.to_move()[0]
        acts = s.legal_actions(seat)
        assert acts
        assert acts == sorted(acts)
        assert all(0 <= a < size for a in acts)


@SETTINGS
@given(players_st, seed_st, st.sampled_from(["first_game", "standard_random"]))
def test_civ_23_random_play_never_raises_and_conserves(players: int, seed: int, map_: str) -> None:
    s = new_game(players, seed, map_)
    rng = Rng(seed)
    for _ in range(STEPS):
        if s.is_terminal():
            break
        random_step(s, rng)
        check_invariants(s)


@SETTINGS
@given(players_st, seed_st)
def test_civ_26_determinism_and_json_round_trip(players: int, seed: int) -> None:
    a, b = new_game(players, seed), new_game(players, seed)
    ra, rb = Rng(seed), Rng(seed)
    for _ in range(150):
        if a.is_terminal():
            break
        random_step(a, ra)
        random_step(b, rb)
    assert a.state_hash() == b.state_hash()
    doc = json.loads(json.dumps(a.to_json()))
    c = GAME.state_from_json(doc)
    assert c.state_hash() == a.state_hash()
    assert c.to_json() == a.to_json()
    if not a.is_terminal():
        seat = a.to_move()[0]
        assert c.legal_actions(seat) == a.legal_actions(seat)
    replayed = GAME.replay(players, seed, a.history)
    assert replayed.state_hash() == a.state_hash()


@SETTINGS
@given(players_st, seed_st)
def test_civ_26_copy_is_independent(players: int, seed: int) -> None:
    s = new_game(players, seed)
    rng = Rng(seed)
    for _ in range(60):
        random_step(s, rng)
    h = s.state_hash()
    c = s.copy()
    for _ in range(40):
        if c.is_terminal():
            break
        random_step(c, rng)
    assert s.state_hash() == h


@SETTINGS
@given(players_st, seed_st)
def test_civ_26_illegal_actions_leave_state_unchanged(players: int, seed: int) -> None:
    s = new_game(players, seed)
    rng = Rng(seed)
    for _ in range(80):
        random_step(s, rng)
    h = s.state_hash()
    seat = s.to_move()[0]
    legal = set(s.legal_actions(seat))
    bad = next(a for a in range(GAME.action_space_size(players)) if a not in legal)
    with pytest.raises(IllegalActionError):
        s.apply(seat, bad)
    with pytest.raises(IllegalActionError):
        s.apply(seat, -1)
    other = (seat + 1) % players
    with pytest.raises(NotYourTurnError):
        s.apply(other, min(legal))
    with pytest.raises(IllegalActionError):
        s.apply(seat, "1")  # type: ignore[arg-type]
    assert s.state_hash() == h


def test_civ_4_standard_map_random_play_conserves() -> None:
    s = new_game(2, 17, "standard")
    rng = Rng(17)
    for _ in range(250):
        random_step(s, rng)
        check_invariants(s)


def test_civ_22_4_turn_cap_ends_unfinished() -> None:
    s = GAME.new_game(2, 4, {"turn_limit": 3})
    rng = Rng(4)
    while not s.is_terminal():
        random_step(s, rng)  # type: ignore[arg-type]
    assert s.unfinished
    assert s.result().extra["unfinished"]
    assert s.fp_turns == 4  # type: ignore[attr-defined]


def test_civ_3_bad_options_raise() -> None:
    from civtable.core.errors import InvalidOptionsError

    for opts in ({"map": "x"}, {"nope": 1}, {"leaders": ["rome"]}, {"turn_limit": -1}):
        with pytest.raises(InvalidOptionsError):
            GAME.new_game(2, 0, opts)
    with pytest.raises(InvalidOptionsError):
        GAME.new_game(5, 0)


def test_civ_22_result_breakdown_sums() -> None:
    s = new_game(3, 9)
    rng = Rng(9)
    while not s.is_terminal():
        random_step(s, rng)
    res = s.result()
    for sc, bd in zip(res.scores, res.breakdown, strict=True):
        assert sum(bd.values()) == sc
    if not s.unfinished:
        assert set(res.winners) == set(s.winners)
        full = (1 << len(s.victory)) - 1
        assert all(s.marks[w] & full == full for w in res.winners)  # CIV-22.3
