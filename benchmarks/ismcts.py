"""Measure the ISMCTS bot: search speed and 4-player 7 Wonders strength (not part of the tests).

Speed: iterations per second on positions sampled from heuristic games (start, middle and end of
each age), one core::

    python benchmarks/ismcts.py speed --spec ismcts:1s --positions 12

It reports iterations per wall-clock second (what a time budget gets) and per second of the
process's CPU time, which other jobs on a busy machine hardly change; an iteration budget
(``ismcts:300i``) makes the work itself independent of the machine's load.

Strength: ISMCTS in one seat against three copies of an opponent bot, seats rotated, win rate
with a 95 % Wilson interval (chance 25 %); results are saved and resumable with ``--out``::

    python benchmarks/ismcts.py strength --opponent heuristic --spec ismcts:1s --games 100 \\
        --workers 2 --out runs/ismcts-vs-heuristic

Both print one JSON object. The issue's targets (issue 4): at 1 s per decision, at least 90 % of
games won against three random bots and 60 % against three heuristic bots; at least 5,000
iterations per second.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from civtable import games
from civtable.bots import make_bot
from civtable.bots.ismcts import IsmctsBot
from civtable.core.api import State
from civtable.sim.simulate import bot_seed, game_seed
from civtable.sim.tournament import TournamentConfig, run_tournament

GAME = "seven-wonders"


def sample_positions(count: int, players: int = 4, seed: int = 0) -> list[tuple[State, int]]:
    """Positions (and a seat to move) from heuristic games, spread over the three ages."""
    out: list[tuple[State, int]] = []
    g = 0
    while len(out) < count:
        gs = game_seed(seed, g)
        state = games.get(GAME).new_game(players, gs)
        bots = [make_bot("heuristic", bot_seed(gs, s)) for s in range(players)]
        step = 0
        while not state.is_terminal() and len(out) < count:
            movers = state.to_move()
            if step % 5 == g % 5 and len(movers) == players:
                out.append((state.copy(), movers[step % len(movers)]))
            for seat in movers:
                if state.legal_actions(seat):
                    state.apply(seat, bots[seat].choose(state, seat))
            step += 1
        g += 1
    return out


def speed(spec: str, positions: int, seed: int) -> dict[str, Any]:
    """Iterations per second of one search per sampled position."""
    rates = []
    iterations = 0
    seconds = 0.0
    cpu = 0.0
    for i, (state, seat) in enumerate(sample_positions(positions, seed=seed)):
        bot = make_bot(spec, seed + i)
        assert isinstance(bot, IsmctsBot)
        start = time.process_time()
        bot.explain(state, seat)
        cpu += time.process_time() - start
        rates.append(bot.last.iterations_per_second)
        iterations += bot.last.iterations
        seconds += bot.last.seconds
    return {
        "spec": spec,
        "config": make_bot(spec, 0).config.describe(),  # type: ignore[attr-defined]
        "positions": positions,
        "iterations_per_second": round(iterations / seconds, 1),
        # per second of this process's CPU time: hardly affected by other jobs on the machine
        "iterations_per_cpu_second": round(iterations / cpu, 1),
        "iterations": iterations,
        "median_per_position": round(statistics.median(rates), 1),
        "min": round(min(rates), 1),
        "max": round(max(rates), 1),
    }


def strength(
    spec: str, opponent: str, games_: int, seed: int, workers: int, out: str | None
) -> dict[str, Any]:
    """ISMCTS in one seat against three ``opponent`` bots, seats rotated."""
    config = TournamentConfig(GAME, 4, (spec, opponent, opponent, opponent), games_, seed)
    start = time.perf_counter()

    def progress(r: Any) -> None:
        sys.stderr.write(f"\rgame {r.index} done")
        sys.stderr.flush()

    summary = run_tournament(config, workers=workers, out_dir=out, on_result=progress)
    sys.stderr.write("\n")
    doc = summary.to_json()
    me = next(b for b in doc["bots"] if b["bot"] == spec)
    decisions = sum(r.decisions for r in summary.completed) / max(1, len(summary.completed))
    return {
        "spec": spec,
        "opponent": opponent,
        "games": doc["completed"],
        "errors": doc["errors"],
        "win_rate": me["win_rate"],
        "ci95": me["ci95"],
        "mean_score": me["mean_score"],
        "opponent_mean_score": next(b for b in doc["bots"] if b["bot"] == opponent)["mean_score"],
        "ismcts_think_seconds_per_game": round(me["think_seconds"] / max(1, me["seat_games"]), 2),
        "decisions_per_game": round(decisions, 1),
        "wall_seconds": round(time.perf_counter() - start, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Command line of the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("speed", help="iterations per second")
    p.add_argument("--spec", default="ismcts:1s")
    p.add_argument("--positions", type=int, default=12)
    p.add_argument("--seed", type=int, default=0)
    p = sub.add_parser("strength", help="win rate against three copies of a bot")
    p.add_argument("--spec", default="ismcts:1s")
    p.add_argument("--opponent", default="heuristic")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", help="result directory (resumable)")
    args = parser.parse_args(argv)
    if args.what == "speed":
        doc = speed(args.spec, args.positions, args.seed)
    else:
        doc = strength(args.spec, args.opponent, args.games, args.seed, args.workers, args.out)
    print(json.dumps(doc, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
