"""Through the Ages views and random games in instructions (load-independent), under callgrind.

Each measured part runs inside one ``functools.reduce`` call, so callgrind can count it alone
and write it to a file of its own::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --collect-atstart=no \\
        --toggle-collect=functools_reduce --dump-after=functools_reduce \\
        --callgrind-out-file=OUT .venv/bin/python benchmarks/tta_instructions.py
    grep -h '^totals:' OUT.1 OUT.2 OUT.3

The parts (positions of two random 4-player games, seeds of ``civtable bench``):

1. ``view(seat)`` of the seat to move at every decision (legal lists already cached);
2. every seat's view and a spectator's after every decision, position after position (what a
   server sends);
3. the two random games played again.

Run it with ``PYTHONPATH`` set to another checkout's ``src`` to count that engine's work.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable

from civtable.core.api import State
from civtable.games import get as get_game
from civtable.sim.bench import random_game
from civtable.sim.simulate import game_seed

GAME = get_game("through-the-ages")


def main() -> None:
    """Prepare the positions, then run the three parts, each inside ``functools.reduce``."""
    positions: list[State] = []
    for i in range(2):
        random_game(GAME, 4, game_seed(0, i), positions)
    movers = [(p, p.to_move()[0]) for p in positions if p.to_move()]
    for p, seat in movers:
        p.view(seat)  # legal lists cached
    random_game(GAME, 4, game_seed(0, 10_000))  # warm-up of the memos

    def view_pass() -> None:
        for p, seat in movers:
            p.view(seat)

    def every_seat_pass() -> None:
        for p in positions:
            for viewer in (0, 1, 2, 3, None):
                p.view(viewer)

    def random_pass() -> None:
        for i in range(2):
            random_game(GAME, 4, game_seed(0, i))

    print(f"{len(movers)} views of the seat to move, {5 * len(positions)} views", file=sys.stderr)
    for part in (view_pass, every_seat_pass, random_pass):
        _measured(part)


def _measured(part: Callable[[], None]) -> None:
    """Run ``part`` once inside ``functools.reduce`` (callgrind's toggle)."""
    functools.reduce(lambda _acc, _item: part(), [0], None)


if __name__ == "__main__":
    main()
