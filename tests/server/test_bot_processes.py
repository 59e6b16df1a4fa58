"""Bots search in worker processes (issue 23): the same choices as in the server's own process
for the same seed, and a worker's death is handled as a bot's crash always was."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from civtable.server import hub as hub_module
from tests.server.helpers import auth, create, make_client


def _play_all_bot_game(url: str, processes: int, game: str, bots: list[str]) -> list[Any]:
    with make_client(url, bot_processes=processes) as client:
        body = {
            "game": game,
            "players": len(bots),
            "seed": 17,
            "seats": [{"kind": "bot", "bot": b} for b in bots],
        }
        gid = client.post("/api/games", json=body).json()["game"]["id"]
        hub = client.app.state.hub  # type: ignore[attr-defined]
        end = time.monotonic() + 300
        while client.get(f"/api/games/{gid}").json()["status"] != "over":
            assert time.monotonic() < end, "the bots did not finish"
            time.sleep(0.1)
            if hub._live[gid].bot_task is None:  # the bots stopped before the end: a crash
                time.sleep(0.5)
                assert client.get(f"/api/games/{gid}").json()["status"] == "over"
        assert (hub._procs is not None) == bool(processes)
        moves: list[Any] = client.app.state.store.moves(gid)  # type: ignore[attr-defined]
    return moves


@pytest.mark.parametrize(
    ("game", "bots"),
    [
        ("seven-wonders", ["easy", "ismcts:20i", "random"]),
        ("deus", ["easy", "random"]),
    ],
)
def test_bots_in_worker_processes_choose_as_in_the_server_process(
    tmp_path: Any, game: str, bots: list[str]
) -> None:
    here = _play_all_bot_game(f"sqlite:///{tmp_path / 'a.db'}", 0, game, bots)
    there = _play_all_bot_game(f"sqlite:///{tmp_path / 'b.db'}", 1, game, bots)
    assert len(here) > 20
    assert here == there


def die_in_worker(*_args: Any) -> Any:
    """A bot worker that dies (imported by the worker process from this module)."""
    os._exit(3)


def test_a_dead_bot_worker_is_a_crashed_bot_and_the_next_turn_gets_a_new_one(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub_module, "_choose_in_worker", die_in_worker)
    with make_client(sqlite_url, bot_processes=1) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        doc = create(client, ["human", "easy", "easy"])
        gid, token = doc["game"]["id"], doc["token"]
        live = hub._live[gid]
        end = time.monotonic() + 60
        while live.bot_task is not None or hub._procs is not None or not live.bots:
            assert time.monotonic() < end, "the dead worker was not noticed"
            time.sleep(0.05)
        st = client.get(f"/api/games/{gid}/state", headers=auth(token)).json()
        assert st["status"] == "active"
        assert not any(c["committed"] for c in st["view"]["cities"][1:])
        monkeypatch.undo()  # the next pool's workers choose
        r = client.post(
            f"/api/games/{gid}/moves",
            json={"seq": st["seq"], "action": st["view"]["legal"][0]["id"]},
            headers=auth(token),
        )
        assert r.status_code == 200
        while True:  # the human's move kicks the bots again, on a new pool
            st = client.get(f"/api/games/{gid}/state", headers=auth(token)).json()
            if st["seq"] > r.json()["seq"] or st["view"]["legal"]:
                break
            assert time.monotonic() < end + 60, "the bots did not move after the crash"
            time.sleep(0.05)
        assert hub._procs is not None
