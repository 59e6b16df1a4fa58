"""Through the Ages speed in CPU time, best of several runs: ``python benchmarks/tta_speed.py``.

Issue 21's three measures, each the fastest of a few runs of CPU time (``time.process_time``),
which a busy shared machine disturbs much less than the wall clock:

* ``random``: random 4-player full games per CPU-second, as ``civtable bench`` plays them
  (:func:`civtable.sim.bench.random_game`: seeded random bots that never resign);
* ``view``: CPU microseconds of one ``state.view(seat)`` for the seat to move, over the
  positions at every decision of two random 4-player games (legal actions already cached, as
  the bench's best-of run has them);
* ``views-all``: CPU microseconds of one view when, after every decision of two random
  4-player games, each seat and a spectator get theirs in turn (what a server sends);
* ``heuristic``: whole 4-player games of four heuristic bots per CPU-second.

Run it with two checkouts' interpreters back to back to compare engines (ratios, not absolute
figures, on a shared machine).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from civtable.bots import make_bot
from civtable.core.api import State
from civtable.games import get as get_game
from civtable.sim.bench import random_game
from civtable.sim.simulate import bot_seed, game_seed

GAME = get_game("through-the-ages")


def best_cpu(fn: Callable[[], object], rounds: int) -> float:
    """The fewest CPU seconds ``fn`` took in ``rounds`` runs."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def random_games(games: int, rounds: int) -> str:
    """Random 4-player games per CPU-second."""
    random_game(GAME, 4, game_seed(0, 10_000))  # warm-up (effect tables, memos)
    seeds = [game_seed(0, i) for i in range(games)]
    seconds = best_cpu(lambda: [random_game(GAME, 4, s) for s in seeds], rounds)
    return f"random 4p: {games / seconds:.1f} games per CPU-second (best of {rounds} x {games})"


def views(games: int, rounds: int) -> str:
    """CPU microseconds per view of the seat to move."""
    positions: list[State] = []
    for i in range(games):
        random_game(GAME, 4, game_seed(0, i), positions)
    movers = [(p, p.to_move()[0]) for p in positions if p.to_move()]
    for p, seat in movers:
        p.view(seat)  # legal actions cached
    seconds = best_cpu(lambda: [p.view(seat) for p, seat in movers], rounds)
    return f"view 4p: {1e6 * seconds / len(movers):.1f} us CPU per view ({len(movers)} positions)"


def views_all(games: int, rounds: int) -> str:
    """CPU microseconds per view, every seat and a spectator after every decision."""
    positions: list[State] = []
    for i in range(games):
        random_game(GAME, 4, game_seed(0, i), positions)
    viewers = (0, 1, 2, 3, None)
    for p in positions:
        p.view(p.to_move()[0] if p.to_move() else None)  # legal actions cached

    def run() -> None:
        for p in positions:
            for seat in viewers:
                p.view(seat)

    seconds = best_cpu(run, rounds)
    n = len(positions) * len(viewers)
    return f"view 4p, every seat and a spectator: {1e6 * seconds / n:.1f} us CPU per view ({n})"


def heuristic_game(seed: int) -> None:
    """One whole 4-player game of heuristic bots."""
    state = GAME.new_game(4, seed)
    bots = [make_bot("heuristic", bot_seed(seed, s)) for s in range(4)]
    while not state.is_terminal():
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(state, seat))


def heuristic_games(games: int, rounds: int) -> str:
    """Heuristic 4-player games per CPU-second."""
    seeds = [game_seed(0, i) for i in range(games)]

    def play() -> None:
        for s in seeds:
            heuristic_game(s)

    seconds = best_cpu(play, rounds)
    return f"heuristic 4p: {games / seconds:.2f} games per CPU-second (best of {rounds} x {games})"


def main() -> None:
    """Print the chosen measures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "measures", nargs="*", default=["random", "view", "heuristic"], help="what to measure"
    )
    parser.add_argument("--rounds", type=int, default=5, help="runs per measure (the best kept)")
    args = parser.parse_args()
    runs = {
        "random": lambda: random_games(3, args.rounds),
        "view": lambda: views(2, args.rounds),
        "views-all": lambda: views_all(2, args.rounds),
        "heuristic": lambda: heuristic_games(1, max(1, args.rounds // 2)),
    }
    for name in args.measures:
        print(runs[name]())


if __name__ == "__main__":
    main()
