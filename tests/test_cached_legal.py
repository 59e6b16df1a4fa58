"""``CachedLegalState``: the shared ``apply`` of games that cache their legal actions (issue 21).

A toy state counts how often the general checks run, so the tests see which path an ``apply``
took; the real games (Deus, 7 Wonders) then check that bad input still gets their own errors
and leaves the position unchanged.
"""

from __future__ import annotations

from typing import Any

import pytest

from civtable import games
from civtable.core.api import JSON, CachedLegalState, Result
from civtable.core.errors import IllegalActionError, NotYourTurnError
from civtable.core.rng import Rng


class Toy(CachedLegalState):
    """Two seats; seat 0 owes a choice among 3, 5, 7; ``checks`` counts general validations."""

    def __init__(self) -> None:
        self.players = 2
        self.seed = 0
        self.options = {}
        self.history = []
        self._legal = {}
        self.checks = 0
        self.applied: list[tuple[int, int]] = []

    def to_move(self) -> tuple[int, ...]:
        return (0,)

    def owes_decision(self, seat: int) -> bool:
        self.checks += 1
        return seat == 0

    def legal_actions(self, seat: int) -> list[int]:
        hit = self._legal.get(seat)
        if hit is None:
            hit = self._legal[seat] = [3, 5, 7] if seat == 0 else []
        return hit

    def describe(self, seat: int, action: int) -> str:
        return str(action)

    def _apply(self, seat: int, action: int) -> None:
        self._legal = {}
        self.applied.append((seat, action))

    def is_terminal(self) -> bool:
        return False

    def result(self) -> Result:
        raise NotImplementedError

    def view(self, seat: int | None, *, labels: bool = True) -> JSON:
        return {}

    def determinize(self, seat: int, rng: Rng) -> Any:
        return self

    def copy(self) -> Any:
        return self

    def to_json(self) -> JSON:
        return {"applied": self.applied}


def test_cached_action_skips_the_general_checks() -> None:
    s = Toy()
    s.legal_actions(0)
    s.apply(0, 5)
    assert s.checks == 0
    assert s.applied == [(0, 5)]
    assert s.history == [(0, 5)]


def test_without_a_cached_list_the_general_checks_run() -> None:
    s = Toy()
    s.apply(0, 7)
    assert s.checks == 1
    assert s.history == [(0, 7)]


@pytest.mark.parametrize(
    ("seat", "action", "error"),
    [
        (0, 4, IllegalActionError),  # not in the cached list
        (0, True, IllegalActionError),  # a bool is not an action id, though True == 1
        (0, 5.0, IllegalActionError),  # a float equal to a legal id
        (True, 5, IllegalActionError),  # a bool is not a seat
        (-1, 5, IllegalActionError),
        (2, 5, IllegalActionError),
        (1, 5, NotYourTurnError),  # seat 1 owes nothing (its cached list is empty)
    ],
)
def test_bad_input_gets_the_general_error_and_changes_nothing(
    seat: Any, action: Any, error: type[Exception]
) -> None:
    s = Toy()
    s.legal_actions(0)
    s.legal_actions(1)
    with pytest.raises(error):
        s.apply(seat, action)
    assert s.applied == []
    assert s.history == []


@pytest.mark.parametrize("game_id", ["deus", "seven-wonders"])
def test_games_keep_their_errors_and_state_on_bad_input(game_id: str) -> None:
    state = games.get(game_id).new_game(players=3, seed=21)
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    before = state.state_hash()
    idle = [s for s in range(state.players) if not state.owes_decision(s)]
    bad: list[tuple[Any, Any]] = [
        (seat, max(legal) + 1),
        (seat, float(legal[0])),
        (seat, legal[0] == 1),
        (-1, legal[0]),
        (state.players, legal[0]),
    ]
    for s, a in bad:
        with pytest.raises(IllegalActionError):
            state.apply(s, a)
    for s in idle:
        state.legal_actions(s)
        with pytest.raises(NotYourTurnError):
            state.apply(s, legal[0])
    assert state.state_hash() == before
    assert state.history == []
    state.apply(seat, legal[0])
    assert state.history == [(seat, legal[0])]
