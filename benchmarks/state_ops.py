"""Repeat one state operation over the positions of a random game (issue 21; not a test).

Plays one random game of ``--game`` (``--players``, ``--seed``), keeps a copy of the position
at every decision round (as ``civtable bench`` does) and then runs ``--op`` (``copy``,
``branch`` where the state has it, or ``view`` of the seat to move) ``--passes`` times over
those positions. Meant to be counted with valgrind, with ``--passes 0`` for the set-up alone::

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        .venv/bin/python benchmarks/state_ops.py --game deus --op branch --passes 20
"""

from __future__ import annotations

import argparse

from civtable.core.api import State
from civtable.games import get as get_game
from civtable.sim.bench import random_game


def main() -> None:
    """Parse the options, play the game, repeat the operation, print the position count."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--game", default="deus")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--op", choices=("copy", "branch", "view"), default="copy")
    parser.add_argument("--passes", type=int, default=20)
    args = parser.parse_args()
    positions: list[State] = []
    random_game(get_game(args.game), args.players, args.seed, positions)
    movers = [(p, p.to_move()[0]) for p in positions if p.to_move()]
    for _ in range(args.passes):
        if args.op == "view":
            for p, seat in movers:
                p.view(seat)
        elif args.op == "branch":
            for p in positions:
                p.branch()  # type: ignore[attr-defined]
        else:
            for p in positions:
                p.copy()
    print(f"{len(positions)} positions, {args.passes} passes of {args.op}")


if __name__ == "__main__":
    main()
