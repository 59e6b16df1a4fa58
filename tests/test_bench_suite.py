"""The speed suite of issue 21 (``benchmarks/suite.py``) and the heuristic timing it uses run
and report every figure; nothing here asserts a speed."""

from __future__ import annotations

import importlib.util
import json
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from civtable import compiled
from civtable.core.api import State
from civtable.sim import bench

SUITE_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "suite.py"


def _suite() -> ModuleType:
    spec = importlib.util.spec_from_file_location("civtable_bench_suite", SUITE_PATH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_heuristic_games_are_timed_in_cpu_seconds() -> None:
    r = bench.bench_heuristic("seven-wonders", 3, games=2, seed=5)
    assert (r.games, r.completed) == (2, 2)
    assert r.decisions > 2 * 18  # at least one decision per city and turn
    assert r.cpu_seconds > 0
    assert r.games_per_cpu_second > 0
    doc = r.to_json()
    assert doc["games_per_cpu_second"] > 0


def test_heuristic_budget_stops_after_the_first_game() -> None:
    r = bench.bench_heuristic("seven-wonders", 4, games=5, max_seconds=1e-9)
    assert r.games == 1


def test_bench_players_takes_a_clock() -> None:
    r = bench.bench_players(
        "seven-wonders", 3, games=1, warmup=0, rounds=1, clock=time.process_time
    )
    assert r.games_per_second > 0
    assert r.apply_us > 0
    assert r.view_us > 0


def test_suite_player_counts() -> None:
    suite = _suite()
    assert suite.player_counts("seven-wonders") == (2, 3, 4, 7)
    for game in ("through-the-ages", "civilization-a-new-dawn", "deus"):
        assert suite.player_counts(game) == (2, 3, 4)


def test_suite_json_has_every_figure_and_the_tag_ratio(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    suite = _suite()
    monkeypatch.setitem(suite.SETTINGS, ("seven-wonders", True), (1, 0, 1, 1.0))
    assert suite.main(["--quick", "--json", "--game", "seven-wonders", "--players", "2,4"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["build"] == compiled.status().label()  # which rules ran: pure or compiled
    rows = doc["results"]
    assert [r["players"] for r in rows] == [2, 4]
    for r in rows:
        for key in ("random_games_per_second", "heuristic_games_per_cpu_second", "apply_us"):
            assert r[key] > 0, key
        assert r["copy_us"] > 0
        assert r["view_us"] > 0
    assert "ratio_to_tag" not in rows[0]  # TAG was measured at 3, 4 and 7 players
    assert rows[1]["ratio_to_tag"] == pytest.approx(
        rows[1]["random_games_per_second"] / 923.0, abs=1e-3
    )


def test_suite_table_and_an_unknown_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    suite = _suite()
    monkeypatch.setitem(suite.SETTINGS, ("other", True), (1, 0, 1, 1.0))
    assert suite.main(["--quick", "--game", "deus", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "vs TAG" in out
    assert "deus" in out
    with pytest.raises(SystemExit):
        suite.main(["--game", "chess"])


@pytest.mark.parametrize("game_id", ["seven-wonders", "through-the-ages"])
def test_legal_actions_are_timed_uncached(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench's legal_actions figure times real work: a copy of a position keeps its cached
    legal lists in these games, a restored one (``bench.uncached``) recomputes them."""
    from civtable import games

    game = games.get(game_id)
    positions: list[State] = []
    bench.random_game(game, 3, 11, positions)
    movers = [(p, p.to_move()[0]) for p in positions[1:40] if p.to_move()]
    for p, seat in movers:
        p.legal_actions(seat)  # as a game's own play leaves them
    module = {
        "seven-wonders": "civtable.games.seven_wonders.rules.turn",
        "through-the-ages": "civtable.games.through_the_ages.rules.civil",
    }[game_id]
    calls: list[int] = []
    rules = importlib.import_module(module)
    real = rules.legal_actions

    def counted(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(rules, "legal_actions", counted)
    for p, seat in [(p.copy(), seat) for p, seat in movers]:
        p.legal_actions(seat)
    assert not calls  # a copy answers from the cache it shares
    fresh = bench.uncached(game, movers)
    for (p, seat), (q, _) in zip(fresh, movers, strict=True):
        assert p.state_hash() == q.state_hash()
        assert p.legal_actions(seat) == q.legal_actions(seat)
    assert len(calls) == len(movers)
