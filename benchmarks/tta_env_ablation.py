"""Where a Through the Ages environment step goes: ``python benchmarks/tta_env_ablation.py``.

``rl_env.py`` gives the environment's step rate against the raw engine's. This script splits the
environment's extra cost at one player count by timing, in the same process, the raw loop, the
environment and variants of it whose encoder skips a part of its work:

* ``raw``: the raw engine (:func:`rl_env.raw_game`);
* ``env``: the PettingZoo environment as shipped (:func:`rl_env.env_game`): the encoder's
  vector is assembled by the C extension ``_tta_fast`` when it is built;
* ``python``: the environment with the encoder's pure-Python path (``encoder.plan = None``), the
  path of a build without a C compiler; the next two variants are of this path:
* ``no-rebuild``: a civilization's blocks are built once and then reused, never rebuilt when the
  civilization changed (what the encoder's change detection alone costs);
* ``join-only``: the encoder joins and converts the first vector's blocks of each seat on every
  call (the vector's assembly and ``float32`` conversion alone);
* ``no-encoder``: the observation is a constant vector (the environment without an encoder).

The variants' observations are wrong, so they only time. Every game is new (a fresh seed) and is
played by every variant, in an order that rotates game by game: the loop that runs right after
another one pays for refilling the caches, and a fixed order would charge that to one variant
(up to 0.02 of ratio in trials). The table gives each variant's median microseconds per decision
over the rounds and its ratio to the raw loop (raw steps/s over its steps/s, as ``rl_env.py``'s).
Needs the ``rl`` extra.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from typing import Any

import numpy as np

from civtable.core.api import State
from civtable.rl import pettingzoo_env
from civtable.rl.aec_env import CivtableAECEnv
from civtable.rl.encoders.through_the_ages import ThroughTheAgesEncoder
from civtable.sim.simulate import game_seed
from rl_env import env_game, raw_game

GAME = "through-the-ages"
VARIANTS = ("raw", "env", "python", "no-rebuild", "join-only", "no-encoder")


class _NoRebuild(ThroughTheAgesEncoder):
    """Keeps each civilization's first entry (the change is detected, then ignored)."""

    def _civ_entry(self, civ: Any, fields: tuple[Any, ...], old: Any) -> Any:
        return old if old is not None else super()._civ_entry(civ, fields, old)


class _JoinOnly(ThroughTheAgesEncoder):
    """Returns each seat's first list of blocks again (only the join and conversion run)."""

    def __init__(self, players: int) -> None:
        super().__init__(players)
        self._first: dict[int, list[bytes | bytearray]] = {}

    def _parts(self, s: Any, seat: int) -> list[bytes | bytearray]:
        parts = self._first.get(seat)
        if parts is None:
            parts = self._first[seat] = super()._parts(s, seat)
        return parts


def _env(variant: str, players: int) -> CivtableAECEnv:
    env = pettingzoo_env(GAME, players=players)
    if variant in ("python", "no-rebuild", "join-only"):
        encoder = {"python": ThroughTheAgesEncoder, "no-rebuild": _NoRebuild}.get(
            variant, _JoinOnly
        )(players)
        encoder.plan = None  # the pure-Python path
        env.encoder = encoder
    elif variant == "no-encoder":
        zeros = np.zeros(env.encoder.size, np.float32)

        def constant(state: State, seat: int) -> Any:
            return zeros

        env.encoder.encode_state = constant  # type: ignore[method-assign]
    return env


def measure(players: int, games: int, rounds: int) -> dict[str, tuple[float, float]]:
    """Per variant: the median microseconds per decision and the median ratio raw / variant."""
    envs = {v: _env(v, players) for v in VARIANTS if v != "raw"}

    def play(variant: str, seed: int) -> tuple[int, float]:
        if variant == "raw":
            return raw_game(players, seed, GAME)
        return env_game(envs[variant], seed)

    for v in VARIANTS:  # warm-up game
        play(v, game_seed(players, -1))
    us: dict[str, list[float]] = {v: [] for v in VARIANTS}
    ratios: dict[str, list[float]] = {v: [] for v in VARIANTS}
    for r in range(rounds):
        steps = dict.fromkeys(VARIANTS, 0)
        seconds = dict.fromkeys(VARIANTS, 0.0)
        for i in range(games):
            seed = game_seed(players + 200, r * games + i)
            k = i % len(VARIANTS)
            for v in VARIANTS[k:] + VARIANTS[:k]:
                n, t = play(v, seed)
                steps[v] += n
                seconds[v] += t
        for v in VARIANTS:
            us[v].append(1e6 * seconds[v] / steps[v])
            ratios[v].append(us["raw"][-1] / us[v][-1])
    return {v: (statistics.median(us[v]), statistics.median(ratios[v])) for v in VARIANTS}


def main(argv: list[str] | None = None) -> int:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, help="player count (default 4)")
    parser.add_argument("--games", type=int, default=25, help="games per round (default 25)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    args = parser.parse_args(argv)
    rows = measure(args.players, args.games, args.rounds)
    print(f"{'variant':>11} {'us/step':>8} {'ratio':>6}")
    for v, (us, ratio) in rows.items():
        print(f"{v:>11} {us:>8.1f} {ratio:>6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
