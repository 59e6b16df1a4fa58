"""The load benchmark (``benchmarks/server_load.py``) runs against a real ``civtable serve``
and reports every figure it promises; no timing is asserted (the machine is shared)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "server_load", ROOT / "benchmarks" / "server_load.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["server_load"] = module
    spec.loader.exec_module(module)
    return module


def _run(bench: Any, *extra: str) -> dict[str, Any]:
    """A short run of the load benchmark (4 games, 3 s after 2 s of warm-up) with ``extra``
    options; its JSON report (the run must end with exit code 0)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        short = ["--games", "4", "--seconds", "3", "--warmup", "2", "--health-interval", "0.2"]
        code = bench.main([*extra, *short, "--json"])
    assert code == 0
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


def test_load_benchmark_drives_live_games_and_reports_every_figure() -> None:
    result = _run(_bench())
    assert result["live_games"] == 4
    assert result["errors"] == 0, result["error_kinds"]
    assert result["server_log_errors"] == 0
    assert result["human_moves_per_s"] > 0
    assert result["stored_moves_per_s"] >= result["human_moves_per_s"]
    for key in ("move_ms", "healthz_ms"):
        assert result[key]["p50"] is not None
        assert result[key]["p99"] >= result[key]["p50"]
    assert result["pushes"] > 0
    # half the seats send their moves on the socket, the others over HTTP: both paths ran
    assert result["moves_by_path"]["socket"] > 0, result
    assert result["moves_by_path"]["http"] > 0, result


def test_merge_extends_the_payload_a_delta_is_based_on() -> None:
    merge = _bench().merge
    full = {"type": "state", "version": 5, "seq": 2, "view": {"log": [1, 2], "x": 0}}
    assert merge(None, full) is full
    delta = {
        "type": "delta",
        "base": 5,
        "version": 7,
        "seq": 3,
        "log_from": 2,
        "view": {"log": [3], "x": 1},
    }
    merged = merge(full, delta)
    assert merged is not None
    assert merged["view"] == {"log": [1, 2, 3], "x": 1}
    assert merged["type"] == "state"
    assert merged["version"] == 7
    assert merge(full, {**delta, "base": 6}) is None  # a gap: ask for the whole state


def test_load_benchmark_sends_each_game_to_one_of_several_processes(pg_url: str) -> None:
    """``--balance game``: two server processes on one PostgreSQL; each game's requests and
    socket go to the one that created it (as a per-game hash balancer sends them). The games
    are spread over both processes, and nothing fails."""
    bench = _bench()
    seen: list[int] = []
    real = bench.Seat.__init__

    def spy(
        self: object, driver: object, game_id: str, token: str, home: int = 0, *more: Any
    ) -> None:
        seen.append(home)
        real(self, driver, game_id, token, home, *more)

    bench.Seat.__init__ = spy
    result = _run(bench, "--db", pg_url, "--workers", "2", "--balance", "game")
    assert result["balance"] == "game"
    assert result["errors"] == 0, result["error_kinds"]
    assert result["server_log_errors"] == 0
    assert result["stored_moves_per_s"] > 0
    assert sorted(set(seen)) == [0, 1], seen
