"""Per-client limits (issue 23): games created per hour, sockets per client, spectators per game;
over a limit the answer is 429 (or close code 4429) and nothing changes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from civtable.server.app import create_app
from civtable.server.limits import ClientLimits
from tests.server.helpers import create


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    limits = ClientLimits(games_per_hour=3, sockets_per_client=3, spectators_per_game=2)
    with TestClient(create_app(sqlite_url, client_limits=limits)) as c:
        yield c


def test_games_per_hour(client: TestClient) -> None:
    body = {"game": "seven-wonders", "players": 3}
    # a refused creation (bad options) does not count
    assert client.post("/api/games", json={**body, "options": {"sides": "C"}}).status_code == 422
    for _ in range(3):
        assert client.post("/api/games", json=body).status_code == 201
    before = client.get("/api/games").json()["games"]
    r = client.post("/api/games", json=body)
    assert r.status_code == 429
    assert r.json()["code"] == "too_many"
    assert "3 new games an hour" in r.json()["detail"]
    assert client.get("/api/games").json()["games"] == before


def test_spectators_and_sockets(client: TestClient) -> None:
    gid = create(client, ["human", "random", "random"])["game"]["id"]
    url = f"/api/games/{gid}/ws"
    with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
        a.send_json({})
        b.send_json({})
        assert a.receive_json()["type"] == "state"
        assert b.receive_json()["type"] == "state"
        with client.websocket_connect(url) as c:
            c.send_json({})
            msg = c.receive_json()
            assert msg["status"] == 429
            assert "2 spectators" in msg["detail"]
            with pytest.raises(WebSocketDisconnect) as closed:
                c.receive_json()
            assert closed.value.code == 4429
        # the third socket was closed: a fourth may open, but not past 3 at once
        with client.websocket_connect(url) as d, client.websocket_connect(url) as e:
            msg = e.receive_json()
            assert msg["status"] == 429
            assert "3 open connections" in msg["detail"]
            del d
    # all closed: spectators may watch again
    with client.websocket_connect(url) as f:
        f.send_json({})
        assert f.receive_json()["type"] == "state"
