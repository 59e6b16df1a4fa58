"""Shared helpers of the RL interface tests: reach positions by seeded random play, and play
OpenSpiel games at random (chance nodes sampled by their probabilities)."""

from __future__ import annotations

from typing import Any

from civtable import games
from civtable.core.api import State
from civtable.core.rng import Rng

SW = "seven-wonders"


def random_positions(
    players: int,
    seed: int,
    every: int = 1,
    game: str = SW,
    avoid: frozenset[int] = frozenset(),
    **options: Any,
) -> list[tuple[State, int]]:
    """(state copy, seat to move) at every ``every``-th decision of one seeded random game
    (``avoid``: actions the random players take only when nothing else is legal, e.g. Through
    the Ages' resignation, which would end most random games at once)."""
    state = games.get(game).new_game(players, seed, options or None)
    rng = Rng(seed + 1000)
    out: list[tuple[State, int]] = []
    k = 0
    while not state.is_terminal():
        seat = state.to_move()[0]
        if k % every == 0:
            out.append((state.copy(), seat))
        legal = state.legal_actions(seat)
        state.apply(seat, rng.choice([a for a in legal if a not in avoid] or legal))
        k += 1
    return out


def check_fast_path_in_any_order(
    game: str,
    players: int,
    options: dict[str, Any],
    seeds: tuple[int, ...],
    in_order: int,
    shuffled: int,
) -> None:
    """Every seat's ``encode_state`` equals encoding its view, for one encoder over the
    positions of random games: every ``in_order``-th position in play order, then every
    ``shuffled``-th in a shuffled order (each call starting from an unrelated position), so
    blocks the encoder keeps between calls are checked both kept and redone."""
    import random

    import numpy as np

    from civtable.rl.encoders import encoder_for

    encoder = encoder_for(game, players, options)
    positions = [
        position
        for seed in seeds
        for position in random_positions(game=game, players=players, seed=seed, **options)
    ]
    mixed = positions[::shuffled]
    random.Random(players).shuffle(mixed)
    for state, _ in positions[::in_order] + mixed:
        for seat in range(players):
            expected = encoder.encode(state.view(seat, labels=False))
            assert np.array_equal(encoder.encode_state(state, seat), expected), (state, seat)


def first_step_position(players: int, seed: int) -> State:
    """A new game (the first simultaneous step of Age I, nobody committed yet)."""
    return games.get(SW).new_game(players, seed)


def sample_chance(state: Any, rs: Any) -> int:
    """A chance outcome of an OpenSpiel state drawn with its probability."""
    import numpy as np

    actions, probs = zip(*state.chance_outcomes(), strict=True)
    return int(rs.choice(actions, p=np.asarray(probs) / sum(probs)))


def play_random(game: Any, seed: int, stop: Any = None) -> Any:
    """A uniformly random OpenSpiel playthrough from the initial state (until ``stop(state)``)."""
    import numpy as np

    rs = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and not (stop and stop(state)):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rs))
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    return state
