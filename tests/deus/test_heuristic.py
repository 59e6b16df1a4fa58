"""The Deus greedy policy: legal choices, a value in [0, 1], and clearly better than random."""

from __future__ import annotations

from civtable import games
from civtable.bots import make_bot
from civtable.core.rng import Rng
from civtable.games.deus import heuristic

from .test_properties import new_game


def test_deus_heuristic_choices_are_legal_and_evaluate_is_bounded() -> None:
    state = new_game(3, 9)
    rng = Rng(1)
    for _ in range(120):
        if state.is_terminal():
            break
        seat = state.to_move()[0]
        a = heuristic.choose(state, seat, rng)
        assert a in state.legal_actions(seat)
        state.apply(seat, a)
        for s in range(3):
            assert 0.0 <= heuristic.evaluate(state, s) <= 1.0


def test_deus_heuristic_beats_random_players() -> None:
    game = games.get("deus")
    wins = 0.0
    n = 6
    for i in range(n):
        hseat = i % 3
        bots = [make_bot("heuristic" if p == hseat else "random", 100 * i + p) for p in range(3)]
        state = game.new_game(3, 500 + i)
        while not state.is_terminal():
            seat = state.to_move()[0]
            state.apply(seat, bots[seat].choose(state, seat))
        r = state.result()
        if hseat in r.winners:
            wins += 1 / len(r.winners)
    assert wins >= 5  # random seats would win about 1/3 of the games each
