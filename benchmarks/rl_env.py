"""Environment step rate vs the raw engine: ``python benchmarks/rl_env.py [--game ID] [--json]``.

Both loops play uniformly random games (a :class:`~civtable.core.Rng` seeded per game) in the
same process, on one core, alternating game by game on fresh seeds:

* **raw engine**: what a raw-engine user needs for the agent to move: ``to_move()``,
  ``legal_actions(seat)``, a random choice among them, ``apply(seat, action)``;
* **PettingZoo env**: ``env.last()`` (the seat's observation vector and action mask), a random
  choice among the mask's ones, ``env.step(action)`` (which applies it and selects the next
  agent; the dead steps after the game are not counted). The ones are found as gymnasium's
  ``Discrete.sample(mask)`` finds them (gymnasium 1.x), ``np.where(mask == 1)[0]``: NumPy's
  ``nonzero`` is fast only on booleans, and ``np.flatnonzero`` adds 3-4 µs of Python-level
  dispatch per call (used here until 2026-11-26), which timed NumPy, not the env.

A step is one decision of one seat. Each round gives a ratio ``env steps/s / raw steps/s``; the
table shows the median ratio of ``--repeats`` rounds and its spread (min-max), since the machine
may be shared. The target (issue 9) is an environment at least half as fast as the raw engine:
``ratio >= 0.5``. The last columns split the environment's extra cost per decision (see
:func:`breakdown`): the reference path ``view(seat)`` + ``encode(view)``, the environment's fast
path ``encode_state(state, seat)`` (equal vectors, tested in ``tests/rl``) and the mask.
``--game`` picks any game with an observation encoder (default 7 Wonders; ``deus``,
``civilization-a-new-dawn``); ``--players`` defaults to all its player counts. Needs the ``rl``
extra."""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from civtable import games
from civtable.core.api import State
from civtable.core.rng import Rng
from civtable.rl import pettingzoo_env
from civtable.rl.aec_env import CivtableAECEnv
from civtable.rl.encoders import encoder_for
from civtable.sim.simulate import game_seed

GAME = "seven-wonders"


def raw_game(players: int, seed: int, game_id: str = GAME) -> tuple[int, float]:
    """Steps and seconds of one random game through the core API."""
    game = games.get(game_id)
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
        env.step(rng.choice(np.where(obs["action_mask"] == 1)[0].tolist()))
        steps += 1
    return steps, time.perf_counter() - start


def _fastest(fn: Callable[..., object], *args: Any) -> float:
    """The fastest of three timed calls ``fn(*args)`` (filters out preemption by other jobs)."""
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best


def breakdown(players: int, n_games: int, game_id: str = GAME) -> dict[str, float]:
    """Mean microseconds per decision of the observation's parts (fresh games, every decision;
    each part's fastest of three calls, so a busy machine disturbs it less).

    ``view_us``: ``view(seat, labels=False)``; ``encode_us``: encoding that view (the reference
    path, ``encoder.encode(view)``); ``fast_us``: ``encoder.encode_state(state, seat)``, the
    environment's path, which reads the same fields straight from the state; ``mask_us``: the
    action mask from ``legal_actions(seat)`` (already cached by then, as in the environment).
    """
    game = games.get(game_id)
    encoder = encoder_for(game_id, players)
    n_actions = game.action_space_size(players)
    view_time = encode_time = fast_time = mask_time = 0.0
    n = 0

    def view_ids(state: State, seat: int) -> object:
        return state.view(seat, labels=False)

    def mask(state: State, seat: int) -> np.ndarray:
        buf = bytearray(n_actions)
        for a in state.legal_actions(seat):
            buf[a] = 1
        return np.frombuffer(buf, dtype=np.int8)

    for i in range(n_games):
        seed = game_seed(players + 100, i)
        rng = Rng(seed)
        state = game.new_game(players, seed)
        while not state.is_terminal():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            view = state.view(seat, labels=False)
            view_time += _fastest(view_ids, state, seat)
            encode_time += _fastest(encoder.encode, view)
            fast_time += _fastest(encoder.encode_state, state, seat)
            mask_time += _fastest(mask, state, seat)
            n += 1
            state.apply(seat, rng.choice(legal))
    return {
        "view_us": round(1e6 * view_time / n, 1),
        "encode_us": round(1e6 * encode_time / n, 1),
        "fast_us": round(1e6 * fast_time / n, 1),
        "mask_us": round(1e6 * mask_time / n, 1),
    }


def measure(players: int, n_games: int, repeats: int = 5, game_id: str = GAME) -> dict[str, Any]:
    """Steps per second of both loops for one player count, and their ratio.

    Every game is new to both loops: the engine memoizes trade computations across games, so
    replaying a game the other loop just played would flatter the second one. Within a round
    the two loops alternate game by game on different seeds (so a busy machine slows both
    alike) and the round's ratio is its env rate over its raw rate; ``repeats`` rounds on fresh
    seeds give the median ratio and its spread (min, max), and the median rates.
    """
    env = pettingzoo_env(game_id, players=players)
    raw_game(players, game_seed(players, -1), game_id)
    env_game(env, game_seed(players, -2))
    raw_rates: list[float] = []
    env_rates: list[float] = []
    ratios: list[float] = []
    raw_steps = env_steps = 0
    for r in range(repeats):
        gc.collect()
        raw_time = env_time = 0.0
        raw_n = env_n = 0
        for i in range(n_games):
            n, t = raw_game(players, game_seed(players, 2 * (r * n_games + i)), game_id)
            raw_n, raw_time = raw_n + n, raw_time + t
            n, t = env_game(env, game_seed(players, 2 * (r * n_games + i) + 1))
            env_n, env_time = env_n + n, env_time + t
        raw_rates.append(raw_n / raw_time)
        env_rates.append(env_n / env_time)
        ratios.append(env_rates[-1] / raw_rates[-1])
        raw_steps, env_steps = raw_steps + raw_n, env_steps + env_n
    return {
        "players": players,
        "games": n_games * repeats,
        "raw_steps": raw_steps,
        "env_steps": env_steps,
        "raw_steps_per_second": round(statistics.median(raw_rates), 1),
        "env_steps_per_second": round(statistics.median(env_rates), 1),
        "ratio": round(statistics.median(ratios), 3),
        "ratio_min": round(min(ratios), 3),
        "ratio_max": round(max(ratios), 3),
        **breakdown(players, n_games, game_id),
    }


def main(argv: list[str] | None = None) -> int:
    """Measure and print a table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=GAME, help="game id (default: seven-wonders)")
    parser.add_argument("--games", type=int, default=20, help="games per player count and round")
    parser.add_argument("--players", default=None, help="player counts (default: all)")
    parser.add_argument("--repeats", type=int, default=5, help="rounds (the median counts)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    game = games.get(args.game)
    counts = (
        [int(p) for p in args.players.split(",")]
        if args.players
        else list(range(game.min_players, game.max_players + 1))
    )
    rows = [measure(p, args.games, args.repeats, args.game) for p in counts]
    if args.json:
        print(json.dumps({"game": args.game, "results": rows}, indent=2))
        return 0
    print(
        f"{'players':>7} {'games':>6} {'raw steps/s':>12} {'env steps/s':>12} {'ratio':>6}"
        f" {'min-max':>10} {'view us':>8} {'encode us':>9} {'fast us':>8} {'mask us':>8}"
    )
    for r in rows:
        spread = f"{r['ratio_min']:.2f}-{r['ratio_max']:.2f}"
        print(
            f"{r['players']:>7} {r['games']:>6} {r['raw_steps_per_second']:>12.0f} "
            f"{r['env_steps_per_second']:>12.0f} {r['ratio']:>6.2f} {spread:>10} "
            f"{r['view_us']:>8.1f} {r['encode_us']:>9.1f} {r['fast_us']:>8.1f} "
            f"{r['mask_us']:>8.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
