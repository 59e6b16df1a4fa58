"""Shared helpers of the RL interface tests: reach positions by seeded random play."""

from __future__ import annotations

from civtable import games
from civtable.core.api import State
from civtable.core.rng import Rng

SW = "seven-wonders"


def random_positions(players: int, seed: int, every: int = 1) -> list[tuple[State, int]]:
    """(state copy, seat to move) at every ``every``-th decision of one seeded random game."""
    state = games.get(SW).new_game(players, seed)
    rng = Rng(seed + 1000)
    out: list[tuple[State, int]] = []
    k = 0
    while not state.is_terminal():
        seat = state.to_move()[0]
        if k % every == 0:
            out.append((state.copy(), seat))
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        k += 1
    return out


def first_step_position(players: int, seed: int) -> State:
    """A new game (the first simultaneous step of Age I, nobody committed yet)."""
    return games.get(SW).new_game(players, seed)
