"""Whole bot games of one game for speed comparisons (issue 21; not part of the tests).

Plays ``--games`` whole games of ``--game`` with the heuristic bot (or ``--bot``) at every seat
on seeds ``--seed``, ``--seed + 1``, ... (bots seeded as ``civtable simulate`` seeds them; moves
applied through ``State.apply``) and prints the CPU time, the games per CPU-second and a digest
of every decision, so that two builds can be timed on the same games and shown to decide the
same::

    python benchmarks/heuristic_games.py --game deus --games 3 --players 4 --seed 100
    python benchmarks/heuristic_games.py --game deus --games 20 --seed 0 --bot random
    python benchmarks/heuristic_games.py --game deus --games 1 --log   # with the event log on

``deus_heuristic.py`` and ``civ_heuristic.py`` are this script with their game's defaults (the
commands recorded in ``benchmarks/README.md`` use them).
"""

from __future__ import annotations

import argparse
import hashlib
import time

from civtable import games
from civtable.bots import make_bot
from civtable.sim.simulate import bot_seed


def main(game_id: str | None = None, games_default: int = 3, doc: str | None = None) -> None:
    """Play the games and print one line (``game_id``: the default of ``--game``)."""
    parser = argparse.ArgumentParser(description=(doc or __doc__ or "").split("\n\n")[0])
    parser.add_argument("--game", default=game_id, required=game_id is None)
    parser.add_argument("--games", type=int, default=games_default)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--bot", default="heuristic", help="bot spec at every seat")
    parser.add_argument(
        "--log", action="store_true", help="keep the event log, as the server's games do"
    )
    args = parser.parse_args()
    game = games.get(args.game)
    digest = hashlib.blake2b(digest_size=8)
    decisions = 0
    start = time.process_time()
    for seed in range(args.seed, args.seed + args.games):
        state = game.new_game(args.players, seed)
        if args.log:
            state.log = []  # type: ignore[attr-defined]
        bots = [make_bot(args.bot, bot_seed(seed, s)) for s in range(args.players)]
        while not state.is_terminal():
            seat = state.to_move()[0]
            action = bots[seat].choose(state, seat)
            digest.update(f"{seat},{action};".encode())
            state.apply(seat, action)
            decisions += 1
    cpu = time.process_time() - start
    print(
        f"{args.games} {args.bot} {args.players}-player games, {decisions} decisions, "
        f"{cpu:.2f} CPU-s, {args.games / cpu:.2f} games per CPU-second, "
        f"decisions digest {digest.hexdigest()}"
    )


if __name__ == "__main__":
    main()
