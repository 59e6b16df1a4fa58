"""The Ray backend of tournaments: the same games, played as Ray tasks.

``civtable tournament … --backend ray`` connects to a running cluster with
``--ray-address ADDRESS`` (``ray.init(address=…)``; every node needs civtable installed) or, without
an address, starts a local Ray with ``--workers`` CPUs and stops it afterwards. Each game is one
task running :func:`civtable.sim.tournament.play_game_json`; results come back as they finish.
A game's result depends only on the config and its index, so the records equal the local
backend's (see the module docstring of :mod:`civtable.sim.tournament`).

Ray is an optional dependency (``pip install 'civtable[ray]'``).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from civtable.core.errors import CivtableError

if TYPE_CHECKING:
    from civtable.sim.tournament import GameResult, TournamentConfig


class RayUnavailableError(CivtableError):
    """Ray is not installed."""


def import_ray() -> Any:
    """The ``ray`` module, or :class:`RayUnavailableError` with the install hint."""
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise RayUnavailableError(
            "the Ray backend needs Ray: pip install 'civtable[ray]' (or pip install ray)"
        ) from exc


def _play(config_doc: dict[str, Any], index: int) -> dict[str, Any]:
    from civtable.sim.tournament import play_game_json

    return play_game_json(config_doc, index)


def iter_ray(
    config: TournamentConfig,
    indices: Sequence[int],
    *,
    workers: int = 1,
    address: str | None = None,
) -> Iterator[GameResult]:
    """Play the games ``indices`` as Ray tasks and yield their results as they finish.

    At most ``4 * workers`` tasks are in flight at once (at least 8 on a cluster), so a long
    tournament does not flood the scheduler.
    """
    from civtable.sim.tournament import GameResult

    if not indices:
        return
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
        else:
            ray.init(
                num_cpus=max(1, workers),
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        started = True
    try:
        task = ray.remote(num_cpus=1, max_retries=0)(_play)
        doc = config.to_json()
        doc_ref = ray.put(doc)
        queue = list(reversed(indices))
        in_flight = max(8, 4 * workers) if address else max(1, 2 * workers)
        pending: list[Any] = []
        while queue or pending:
            while queue and len(pending) < in_flight:
                pending.append(task.remote(doc_ref, queue.pop()))
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield GameResult.from_json(ray.get(ref))
    finally:
        if started:
            ray.shutdown()


__all__ = ["RayUnavailableError", "import_ray", "iter_ray"]
