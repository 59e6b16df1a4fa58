"""Replays come from states kept at intervals (issue 23): a finished game is replayed once, and
every step's view is the one a full replay of its first moves gives."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from civtable.server import hub as hub_module
from civtable.server.hub import rebuild
from tests.server.helpers import make_client


@pytest.fixture
def client(sqlite_url: str) -> Any:
    with make_client(sqlite_url) as c:
        yield c


@pytest.mark.parametrize(("game", "players"), [("seven-wonders", 3), ("deus", 2)])
def test_replay_steps_from_kept_states_equal_a_full_replay(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, game: str, players: int
) -> None:
    monkeypatch.setattr(hub_module, "REPLAY_EVERY", 5)
    built: list[str] = []
    real = hub_module.build_replay

    def counting(record: Any, actions: Any) -> Any:
        built.append(record.id)
        return real(record, actions)

    monkeypatch.setattr(hub_module, "build_replay", counting)
    body = {
        "game": game,
        "players": players,
        "seed": 9,
        "seats": [{"kind": "bot", "bot": "random"}] * players,
    }
    gid = client.post("/api/games", json=body).json()["game"]["id"]
    end = time.monotonic() + 60
    while client.get(f"/api/games/{gid}").json()["status"] != "over":
        assert time.monotonic() < end
        time.sleep(0.05)
    store = client.app.state.store  # type: ignore[attr-defined]
    record, actions = store.get_game(gid), store.moves(gid)
    n = len(actions)
    assert n > 20
    index = client.get(f"/api/games/{gid}/replay").json()
    assert index["actions"] == [list(a) for a in actions]
    for step in sorted({0, 1, 4, 5, 6, 10, n // 2, n - 1, n}):
        truth = rebuild(record, actions[:step])
        for seat in (None, 0):
            q = f"?seat={seat}" if seat is not None else ""
            doc = client.get(f"/api/games/{gid}/replay/{step}{q}").json()
            assert doc["view"] == truth.view(seat), (step, seat)
        worded = client.get(f"/api/games/{gid}/replay/{step}?seat=0&lang=en").json()
        assert worded["view"] == truth.view(0)
        if step:
            assert worded["move"]["action"] == actions[step - 1][1]
    assert built == [gid]  # one pass over the log for all those calls
