"""Random full games of Through the Ages per CPU-second: ``python benchmarks/tta_full_game.py``.

Issue 8's measure: random 4-player *full* games (``{"mode": "full"}``: Ages A-III, Age IV,
politics, events, colonies, wars; TTA-13) on one core, through the core API only
(``to_move``, ``legal_actions``, a uniformly random choice, ``apply``). The random players
never resign (a resignation is one legal action among many every turn, and a random player
would resign in most games within a few rounds, so the games would not be full games);
``civtable bench --game through-the-ages`` times the same loop with resignations allowed.

Time is CPU time (``time.process_time``) so other jobs on a shared machine disturb it little.
Each game is checked to end by the rules (the game-ending age reached, TTA-4.4).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from civtable.core.rng import Rng
from civtable.games.through_the_ages import GAME
from civtable.games.through_the_ages.actions import RESIGN


def play(players: int, seed: int, mode: str) -> tuple[int, int, int]:
    """One random game: (decisions, rounds, age at the end)."""
    state = GAME.new_game(players, seed, {"mode": mode})
    rng = Rng(seed)
    steps = 0
    while not state.is_terminal():
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        choices = [a for a in legal if a != RESIGN] or legal
        state.apply(seat, choices[rng.randbelow(len(choices))])
        steps += 1
    return steps, state.round, state.age


def main() -> None:
    """Run the measure and print it (``--json`` for a machine-readable line)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--mode", default="full", choices=("full", "first"))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rates = []
    steps_total = rounds_total = 0
    ages = set()
    for r in range(args.repeats):
        t0 = time.process_time()
        for g in range(args.games):
            steps, rounds, age = play(args.players, r * 10_000 + g, args.mode)
            steps_total += steps
            rounds_total += rounds
            ages.add(age)
        rates.append(args.games / (time.process_time() - t0))
    n = args.games * args.repeats
    doc = {
        "players": args.players,
        "mode": args.mode,
        "games_per_cpu_second_median": round(statistics.median(rates), 1),
        "games_per_cpu_second_min": round(min(rates), 1),
        "games_per_cpu_second_max": round(max(rates), 1),
        "decisions_per_game": round(steps_total / n, 1),
        "rounds_per_game": round(rounds_total / n, 1),
        "ages_at_end": sorted(ages),
    }
    print(json.dumps(doc) if args.json else "\n".join(f"{k}: {v}" for k, v in doc.items()))


if __name__ == "__main__":
    main()
