"""Simulations and benchmarks: many bot games in a row, measured and summarized.

:mod:`civtable.sim.simulate` runs seeded bot-vs-bot games (``civtable simulate``, tournaments);
:mod:`civtable.sim.bench` measures the engine's speed (``civtable bench``, ``benchmarks/run.py``).
"""

from civtable.sim.simulate import (
    GameRecord,
    SimConfig,
    SimSummary,
    default_bot,
    game_seed,
    play_one,
    simulate,
)

__all__ = [
    "GameRecord",
    "SimConfig",
    "SimSummary",
    "default_bot",
    "game_seed",
    "play_one",
    "simulate",
]
