"""A seat's determinizations depend on what it knows only (issue 22: a suggestion or a search
from a seat's view must be the same for two hidden states that give the same view)."""

from __future__ import annotations

import random

import pytest

from civtable import games
from civtable.core.api import State
from civtable.core.rng import Rng
from civtable.games.seven_wonders.view import remembered_hands


def _knows_only_the_view(state: State, seat: int) -> bool:
    # 7 Wonders: a seat also remembers the hands passed to it (SW-3.9), which the view does not
    # show; positions without such memory have an information set equal to the view
    return state.game.id != "seven-wonders" or not remembered_hands(state, seat)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "game_id", ["seven-wonders", "through-the-ages", "civilization-a-new-dawn", "deus"]
)
def test_determinize_depends_on_the_seats_view_only(game_id: str) -> None:
    game = games.get(game_id)
    checked = 0
    for seed in range(2):
        state = game.new_game(3, seed=seed)
        rng = random.Random(seed)
        step = 0
        while not state.is_terminal() and step < 400:
            seat = state.to_move()[0]
            if _knows_only_the_view(state, seat) and (step % 7 == 3 or game_id == "seven-wonders"):
                other = state.determinize(seat, Rng(1000 + step))  # same view, other hidden cards
                assert other.view(seat) == state.view(seat)
                a = state.determinize(seat, Rng(7))
                b = other.determinize(seat, Rng(7))
                assert a.state_hash() == b.state_hash(), f"{game_id} seed {seed} step {step}"
                checked += 1
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            step += 1
    assert checked >= 10


@pytest.mark.parametrize(
    "game_id", ["seven-wonders", "through-the-ages", "civilization-a-new-dawn", "deus"]
)
def test_determinize_does_not_keep_the_true_generator(game_id: str) -> None:
    """The state's own generator fixes every future shuffle and die (TTA-12.2 events, TTA-8.8
    military decks): a sample that kept it would let a search see the real future. Two states
    that differ only in their generator give the same determinization."""
    game = games.get(game_id)
    rng = random.Random(3)
    state = game.new_game(3, seed=5)
    checked = 0
    for step in range(60):
        if state.is_terminal():
            break
        seat = state.to_move()[0]
        if step % 6 == 2:
            other = state.copy()
            other.rng = Rng(987_654 + step)  # type: ignore[attr-defined]
            assert other.view(seat) == state.view(seat)
            a = state.determinize(seat, Rng(11))
            b = other.determinize(seat, Rng(11))
            assert a.state_hash() == b.state_hash(), f"{game_id} step {step}"
            checked += 1
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked >= 5
