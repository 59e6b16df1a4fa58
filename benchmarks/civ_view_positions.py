"""Civilization views on fixed positions, for instruction counts (issue 21).

``python benchmarks/civ_view_positions.py WHAT [GAMES]``

Plays ``GAMES`` (default 2) seeded random 4-player games (the seeds ``civtable bench`` uses,
``game_seed(0, i)``), keeps a copy of every position at the start of a decision round, then
calls WHAT once per position, in order, with the garbage collector paused (as ``civtable
bench`` times its operations): ``none`` (nothing: the cost of playing the games), ``view``
(``view(seat)`` with labels for the seat to move), ``spectator`` (``view(None)``), ``players``
(the players' parts), ``facts`` (the seat's facts). Run under ``valgrind --tool=cachegrind``;
(instructions of WHAT - instructions of ``none``) / positions is the cost of one call,
independent of the machine's load. The positions are printed on stderr.
"""

from __future__ import annotations

import gc
import sys

from civtable.core.api import State
from civtable.games import get as get_game
from civtable.games.civilization_a_new_dawn import view as V  # noqa: N812
from civtable.sim.bench import random_game
from civtable.sim.simulate import game_seed


def main() -> None:
    """Play the games, then call WHAT on every position."""
    what = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    game = get_game("civilization-a-new-dawn")
    positions: list[State] = []
    for i in range(games):
        random_game(game, 4, game_seed(0, i), positions)
    movers = [(p, p.to_move()[0]) for p in positions if p.to_move()]
    gc.collect()
    gc.disable()
    if what == "view":
        for p, seat in movers:
            p.view(seat)
    elif what == "spectator":
        for p, _ in movers:
            p.view(None)
    elif what == "players":
        for p, _ in movers:
            V._players(p)  # type: ignore[arg-type]
    elif what == "facts":
        for p, seat in movers:
            V.facts(p, seat)  # type: ignore[arg-type]
    elif what != "none":
        raise SystemExit(f"unknown: {what}")
    print(len(movers), "positions", file=sys.stderr)


if __name__ == "__main__":
    main()
