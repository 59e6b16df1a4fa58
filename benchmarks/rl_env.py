"""Environment step rate vs the raw engine: ``python benchmarks/rl_env.py [--games K] [--json]``.

Both loops play uniformly random games (a :class:`~civtable.core.Rng` seeded per game), on one
core, alternating game by game on fresh seeds; the best of ``--repeats`` rounds counts (the
machine may be shared):

* **raw engine**: ``to_move()``, ``legal_actions(seat)``, random choice, ``apply(seat, action)``;
* **PettingZoo env**: ``env.last()`` (the seat's view encoded to a float32 vector plus the action
  mask), a random choice among the mask's ones, ``env.step(action)``.

A step is one decision of one seat. The target (issue 9) is an environment at least half as fast
as the raw engine: ``ratio = env steps/s / raw steps/s >= 0.5``. The last two columns split the
environment's extra cost per decision: ``view_us`` is the engine's ``view(seat)`` (the only source
an observation may be built from), ``encode_us`` the encoder. Needs the ``rl`` extra.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time

import numpy as np

from civtable import games
from civtable.core.rng import Rng
from civtable.rl import pettingzoo_env
from civtable.rl.aec_env import CivtableAECEnv
from civtable.rl.encoders import encoder_for
from civtable.sim.simulate import game_seed

GAME = "seven-wonders"


def raw_game(players: int, seed: int) -> tuple[int, float]:
    """Steps and seconds of one random game through the core API."""
    game = games.get(GAME)
    rng = Rng(seed)
    steps = 0
    start = time.perf_counter()
    state = game.new_game(players, seed)
    while not state.is_terminal():
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        steps += 1
    return steps, time.perf_counter() - start


def env_game(env: CivtableAECEnv, seed: int) -> tuple[int, float]:
    """Steps and seconds of the same random game through the PettingZoo environment."""
    rng = Rng(seed)
    steps = 0
    start = time.perf_counter()
    env.reset(seed=seed)
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    return steps, time.perf_counter() - start


def breakdown(players: int, n_games: int) -> dict[str, float]:
    """Mean microseconds per decision of ``view(seat)`` and of encoding it (fresh games)."""
    game = games.get(GAME)
    encoder = encoder_for(GAME, players)
    view_time = encode_time = 0.0
    n = 0
    for i in range(n_games):
        seed = game_seed(players + 100, i)
        rng = Rng(seed)
        state = game.new_game(players, seed)
        while not state.is_terminal():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            t0 = time.perf_counter()
            view = state.view(seat)
            t1 = time.perf_counter()
            encoder.encode(view)
            t2 = time.perf_counter()
            view_time, encode_time, n = view_time + t1 - t0, encode_time + t2 - t1, n + 1
            state.apply(seat, rng.choice(legal))
    return {"view_us": round(1e6 * view_time / n, 1), "encode_us": round(1e6 * encode_time / n, 1)}


def measure(players: int, n_games: int, repeats: int = 3) -> dict[str, float]:
    """Steps per second of both loops for one player count.

    Every game is new to both loops: the engine memoizes trade computations across games, so
    replaying a game the other loop just played would flatter the second one. The two loops
    alternate game by game on different seeds (so a busy machine slows both alike); the rounds
    are played ``repeats`` times on fresh seeds and the fastest round of each loop counts.
    """
    env = pettingzoo_env(GAME, players=players)
    raw_game(players, game_seed(players, -1))
    env_game(env, game_seed(players, -2))
    best_raw = best_env = 0.0
    raw_steps = env_steps = 0
    for r in range(repeats):
        gc.collect()
        raw_time = env_time = 0.0
        raw_n = env_n = 0
        for i in range(n_games):
            n, t = raw_game(players, game_seed(players, 2 * (r * n_games + i)))
            raw_n, raw_time = raw_n + n, raw_time + t
            n, t = env_game(env, game_seed(players, 2 * (r * n_games + i) + 1))
            env_n, env_time = env_n + n, env_time + t
        best_raw = max(best_raw, raw_n / raw_time)
        best_env = max(best_env, env_n / env_time)
        raw_steps, env_steps = raw_steps + raw_n, env_steps + env_n
    return {
        "players": players,
        "games": n_games * repeats,
        "raw_steps": raw_steps,
        "env_steps": env_steps,
        "raw_steps_per_second": round(best_raw, 1),
        "env_steps_per_second": round(best_env, 1),
        "ratio": round(best_env / best_raw, 3),
        **breakdown(players, n_games),
    }


def main(argv: list[str] | None = None) -> int:
    """Measure and print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per player count")
    parser.add_argument("--players", default="2,3,4,5,6,7", help="player counts")
    parser.add_argument("--repeats", type=int, default=3, help="repeats (the best counts)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    rows = [measure(int(p), args.games, args.repeats) for p in args.players.split(",")]
    if args.json:
        print(json.dumps({"game": GAME, "results": rows}, indent=2))
        return 0
    print(
        f"{'players':>7} {'games':>6} {'raw steps/s':>12} {'env steps/s':>12} {'ratio':>6}"
        f" {'view us':>8} {'encode us':>9}"
    )
    for r in rows:
        print(
            f"{r['players']:>7} {r['games']:>6} {r['raw_steps_per_second']:>12.0f} "
            f"{r['env_steps_per_second']:>12.0f} {r['ratio']:>6.2f} {r['view_us']:>8.1f} "
            f"{r['encode_us']:>9.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
