"""The speed suite of issue 21: every game, every table size, one core.

``python benchmarks/suite.py [--quick] [--json] [--game G,...] [--players 2,3,...] [--wall]``

For each game (7 Wonders, Through the Ages, Civilization: A New Dawn, Deus) and player count
(2, 3 and 4; 7 Wonders also 7) it prints:

* **random games/s**: whole games of random bots (``civtable bench``'s full games);
* **heuristic games/s**: a few whole games with the heuristic bot at every seat, in games per
  CPU-second (how many finished is shown next to it);
* **apply / copy / view µs**: a validated ``apply``, ``State.copy`` and ``State.view(seat)``
  (with the labels of the legal actions), each the fastest of three runs over the positions of
  the random games;
* for 7 Wonders, the random games/s as a multiple of TAG's (the Java tabletop-games framework:
  1,148 / 923 / 880 random games/s at 3 / 4 / 7 players, issue 21's measurement).

Times are CPU time of this process (``time.process_time``), steadier than the wall clock on a
shared machine and the same on an idle one; ``--wall`` uses the wall clock. The measuring code is
:mod:`civtable.sim.bench`; what each figure means is in benchmarks/README.md. ``--quick`` plays
fewer games (a smoke run, a minute or two); the full run takes several minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from typing import Any

from civtable import compiled
from civtable.games import get as get_game
from civtable.sim import bench

GAMES = ("seven-wonders", "through-the-ages", "civilization-a-new-dawn", "deus")
#: TAG's random whole games/s for 7 Wonders (issue 21: a quiet machine, medians of three rounds)
TAG_RANDOM = {3: 1148.0, 4: 923.0, 7: 880.0}

#: (random games, warm-up games, heuristic games, heuristic CPU-second budget) per run kind;
#: 7 Wonders is two orders of magnitude faster than the other games and gets more games
SETTINGS: dict[tuple[str, bool], tuple[int, int, int, float]] = {
    ("seven-wonders", False): (200, 20, 20, 10.0),
    ("seven-wonders", True): (20, 2, 3, 2.0),
    ("other", False): (10, 1, 3, 30.0),
    ("other", True): (2, 0, 1, 10.0),
}


def player_counts(game_id: str) -> tuple[int, ...]:
    """The measured table sizes: 2, 3 and 4, and for 7 Wonders also 7."""
    game = get_game(game_id)
    counts = [n for n in (2, 3, 4, 7) if game.min_players <= n <= game.max_players]
    return tuple(counts if game_id == "seven-wonders" else [n for n in counts if n <= 4])


def measure(
    game_id: str, players: int, quick: bool, clock: bench.Clock, seed: int = 0
) -> dict[str, Any]:
    """Every figure of one game at one player count, as a JSON-ready row."""
    games, warmup, h_games, h_budget = SETTINGS[
        (game_id if game_id == "seven-wonders" else "other", quick)
    ]
    r = bench.bench_players(
        game_id, players, games=games, warmup=warmup, seed=seed, rounds=3, clock=clock
    )
    h = bench.bench_heuristic(game_id, players, games=h_games, seed=seed, max_seconds=h_budget)
    row: dict[str, Any] = {
        "game": game_id,
        "players": players,
        "random_games": r.games,
        "random_games_per_second": round(r.games_per_second, 2),
        "decisions_per_game": round(r.mean_decisions, 1),
        "heuristic_games": h.games,
        "heuristic_completed": h.completed,
        "heuristic_games_per_cpu_second": round(h.games_per_cpu_second, 3),
        "apply_us": round(r.apply_us, 2),
        "copy_us": round(r.copy_us, 2),
        "view_us": round(r.view_us, 2),
    }
    if game_id == "seven-wonders" and players in TAG_RANDOM:
        row["tag_random_games_per_second"] = TAG_RANDOM[players]
        row["ratio_to_tag"] = round(r.games_per_second / TAG_RANDOM[players], 3)
    return row


def format_row(row: dict[str, Any]) -> str:
    """One line of the printed table."""
    ratio = f"{row['ratio_to_tag']:.2f}×" if "ratio_to_tag" in row else "—"
    heur = (
        f"{row['heuristic_games_per_cpu_second']:,.2f} "
        f"({row['heuristic_completed']}/{row['heuristic_games']})"
    )
    return (
        f"{row['game']:<24} {row['players']:>2} {row['random_games_per_second']:>10,.1f} "
        f"{heur:>16} {row['apply_us']:>8.1f} {row['copy_us']:>8.1f} {row['view_us']:>8.1f} "
        f"{ratio:>8}"
    )


HEADER = (
    f"{'game':<24} {'p':>2} {'random g/s':>10} {'heur. g/CPU-s':>16} "
    f"{'apply µs':>8} {'copy µs':>8} {'view µs':>8} {'vs TAG':>8}"
)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the suite; returns the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few games: a smoke run")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--game", default=",".join(GAMES), help="comma-separated game ids")
    parser.add_argument("--players", default=None, help="comma-separated player counts")
    parser.add_argument("--seed", type=int, default=0, help="seed of the measured games")
    parser.add_argument("--wall", action="store_true", help="time with the wall clock")
    args = parser.parse_args(argv)
    game_ids = [g.strip() for g in args.game.split(",") if g.strip()]
    for g in game_ids:
        if g not in GAMES:
            parser.error(f"unknown game {g!r}; games: {', '.join(GAMES)}")
    wanted = None if args.players is None else {int(x) for x in args.players.split(",")}
    clock: bench.Clock = time.perf_counter if args.wall else time.process_time
    load = os.getloadavg()
    doc: dict[str, Any] = {
        "quick": args.quick,
        "clock": "wall" if args.wall else "cpu",
        "seed": args.seed,
        "load_average": [round(x, 2) for x in load],
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        # which rules ran: "pure" or "compiled (...)" (CIVTABLE_COMPILED=1, civtable.compiled)
        "build": compiled.status().label(),
        "results": [],
    }
    if not args.json:
        print(
            f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
            f"{doc['implementation']} {doc['python']}; {doc['clock']} time; {doc['build']} build"
        )
        print(HEADER)
    for game_id in game_ids:
        for n in player_counts(game_id):
            if wanted is not None and n not in wanted:
                continue
            row = measure(game_id, n, args.quick, clock, args.seed)
            doc["results"].append(row)
            if not args.json:
                print(format_row(row), flush=True)
    if args.json:
        print(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
