"""The heuristic player (choose/evaluate) is legal, deterministic and beats random play."""

from __future__ import annotations

from civtable.core.rng import Rng
from civtable.games.civilization_a_new_dawn import heuristic

from .test_properties import new_game


def test_heuristic_choices_are_legal_and_evaluate_in_unit_interval() -> None:
    s = new_game(3, 5)
    rng = Rng(5)
    for _ in range(60):
        seat = s.to_move()[0]
        a = heuristic.choose(s, seat, rng)
        assert a in s.legal_actions(seat)
        v = heuristic.evaluate(s, seat)
        assert 0.0 <= v <= 1.0
        s.apply(seat, a)


def test_heuristic_beats_random_in_two_player_games() -> None:
    wins = 0.0
    for g in range(2):
        s = new_game(2, 300 + g)
        rng, rnd = Rng(g), Rng(g + 99)
        while not s.is_terminal():
            seat = s.to_move()[0]
            acts = s.legal_actions(seat)
            s.apply(seat, heuristic.choose(s, seat, rng) if seat == g % 2 else rnd.choice(acts))
        wins += s.result().rewards()[g % 2]
    assert wins == 2.0
