"""The Ray backend (civtable.sim.ray_backend): a small tournament on a local Ray gives exactly
the local backend's results for the same seed."""

from __future__ import annotations

import pytest

from civtable.sim.tournament import TournamentConfig, run_tournament

pytest.importorskip("ray", reason="the Ray backend needs the optional dependency ray")


def test_local_ray_tournament_equals_local_backend() -> None:
    # ISMCTS with an iteration budget is deterministic, so it can take part too
    config = TournamentConfig(
        "seven-wonders",
        players=3,
        bots=("ismcts:10i:policy=random", "heuristic", "random"),
        games=3,
        seed=17,
    )
    local = run_tournament(config, backend="local")
    on_ray = run_tournament(config, backend="ray", workers=2)
    assert on_ray.played == 3
    assert [r.outcome() for r in on_ray.results] == [r.outcome() for r in local.results]
    assert [b.to_json()["rating"] for b in on_ray.bot_stats()] == [
        b.to_json()["rating"] for b in local.bot_stats()
    ]
