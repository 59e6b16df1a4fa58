"""The heuristic player: legal choices, evaluation range, and it clearly beats random play."""

from __future__ import annotations

from civtable.core.rng import Rng
from civtable.games.through_the_ages import GAME, heuristic

FIRST = {"mode": "first"}  # these tests are of the first game (TTA-14)


def _game(players: int, seed: int, hseat: int) -> tuple[bool, tuple[int, ...]]:
    s = GAME.new_game(players, seed, FIRST)
    rng = Rng(seed)
    while not s.is_terminal():
        seat = s.to_move()[0]
        legal = s.legal_actions(seat)
        a = heuristic.choose(s, seat, rng) if seat == hseat else rng.choice(legal)
        assert a in legal
        ev = heuristic.evaluate(s, seat)
        assert 0.0 <= ev <= 1.0
        s.apply(seat, a)
    r = s.result()
    return hseat in r.winners and len(r.winners) == 1, r.scores


def test_heuristic_clearly_beats_random() -> None:
    wins = 0
    games = 0
    for seed in range(6):
        players = 2 + seed % 3
        won, _scores = _game(players, seed, seed % players)
        wins += won
        games += 1
    assert wins >= 5, f"heuristic won {wins}/{games} against random players"


def test_evaluate_at_the_end_is_the_result() -> None:
    s = GAME.new_game(2, 3, FIRST)
    rng = Rng(3)
    while not s.is_terminal():
        seat = s.to_move()[0]
        s.apply(seat, heuristic.choose(s, seat, rng))
    r = s.result()
    for seat in range(2):
        expect = (1.0 / len(r.winners)) if seat in r.winners else 0.0
        assert heuristic.evaluate(s, seat) == expect
