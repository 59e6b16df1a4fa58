"""Moves without FastAPI's request machinery, and moves on the push socket (issue 23).

``POST /api/games/{id}/moves`` is answered by :class:`civtable.server.app.FastMoves` when the
request is one it answers exactly as the route does; every other request goes to the route.
A move may also be sent on the game's WebSocket: the same checks and the same errors, answered
by a ``move_result`` message, the new payload coming as the next push.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from civtable.server import app as app_module
from tests.server.helpers import auth, create, make_client, merge_push


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as c:
        yield c


@pytest.fixture
def answered_fast(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, int | None]]:
    """The move bodies the fast path took (it answers a body only once ``move_fields``
    accepted it)."""
    taken: list[tuple[int, int, int | None]] = []
    real = app_module.move_fields

    def spy(doc: Any) -> tuple[int, int, int | None] | None:
        fields = real(doc)
        if fields is not None:
            taken.append(fields)
        return fields

    monkeypatch.setattr(app_module, "move_fields", spy)
    return taken


def _state(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    doc: dict[str, Any] = client.get(f"/api/games/{gid}/state", headers=auth(token)).json()
    return doc


def _both_ways(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, *args: Any, **kwargs: Any
) -> tuple[Any, Any]:
    """The same request answered by the fast path, then by the route alone."""
    fast = client.post(*args, **kwargs)
    with monkeypatch.context() as m:
        m.setattr(app_module, "move_fields", lambda _doc: None)  # every move to the route
        slow = client.post(*args, **kwargs)
    return fast, slow


def test_sw_move_refusals_are_answered_by_the_fast_path_as_by_the_route(
    client: TestClient,
    monkeypatch: pytest.MonkeyPatch,
    answered_fast: list[tuple[int, int, int | None]],
) -> None:
    doc = create(client, ["human", "human", "human"], seed=3)
    gid, token = doc["game"]["id"], doc["token"]
    other = client.post(f"/api/games/{gid}/join", json={}).json()["token"]
    client.post(f"/api/games/{gid}/join", json={})
    st = _state(client, gid, token)
    legal = {a["id"] for a in st["view"]["legal"]}
    illegal = max(legal) + 1000
    cases = [
        (f"/api/games/{gid}/moves", {"seq": st["seq"], "action": illegal}, token),  # 422
        (f"/api/games/{gid}/moves", {"seq": st["seq"] + 5, "action": min(legal)}, token),  # 409
        (f"/api/games/{gid}/moves", {"seq": 0, "action": min(legal)}, "not-a-seat-token"),
        ("/api/games/nosuchgame/moves", {"seq": 0, "action": 1}, token),  # 404
    ]
    for path, body, tok in cases:
        fast, slow = _both_ways(client, monkeypatch, path, json=body, headers=auth(tok))
        assert fast.status_code == slow.status_code
        assert fast.status_code in (403, 404, 409, 422)
        assert fast.json() == slow.json()
    assert len(answered_fast) == len(cases)  # each was the fast path's (then the route's)
    assert _state(client, gid, token)["seq"] == st["seq"]  # nothing changed
    assert _state(client, gid, other)["seq"] == st["seq"]


@pytest.mark.parametrize(
    ("body", "headers"),
    [
        ({"seq": True, "action": 1}, None),  # a boolean is not an integer (StrictInt)
        ({"seq": 0, "action": 1.0}, None),
        ({"seq": -1, "action": 1}, None),
        ({"seq": 0, "action": 1, "tentative": -2}, None),
        ({"seq": 0, "action": 1, "extra": 1}, None),
        ({"seq": 0}, None),
        ([0, 1], None),
        ("{not json", None),
        ({"seq": 0, "action": 1}, {"Content-Type": "text/plain"}),
        ({"seq": 0, "action": 1}, {"Authorization": "Basic abc"}),
        ({"seq": 0, "action": 1}, {"Authorization": ""}),
    ],
)
def test_malformed_moves_go_to_the_route_and_change_nothing(
    client: TestClient,
    answered_fast: list[tuple[int, int, int | None]],
    body: Any,
    headers: dict[str, str] | None,
) -> None:
    doc = create(client, ["human", "human", "human"], seed=4)
    gid, token = doc["game"]["id"], doc["token"]
    for _ in range(2):
        client.post(f"/api/games/{gid}/join", json={})
    before = _state(client, gid, token)
    sent = {**auth(token), "Content-Type": "application/json", **(headers or {})}
    raw = body if isinstance(body, str) else json.dumps(body)
    r = client.post(f"/api/games/{gid}/moves", content=raw, headers=sent)
    assert r.status_code in (400, 401, 422), r.text
    assert r.json()["code"] in ("bad_json", "invalid_request", "token_required")
    assert answered_fast == []
    assert _state(client, gid, token)["seq"] == before["seq"]


def test_sw_a_move_by_the_fast_path_is_stored_answered_and_counted_as_the_route(
    client: TestClient, answered_fast: list[tuple[int, int, int | None]]
) -> None:
    doc = create(client, ["human", "random", "random"], seed=5)
    gid, token = doc["game"]["id"], doc["token"]
    st = _state(client, gid, token)
    action = st["view"]["legal"][0]["id"]
    r = client.post(
        f"/api/games/{gid}/moves", json={"seq": st["seq"], "action": action}, headers=auth(token)
    )
    assert r.status_code == 200
    assert r.headers["content-type"] == "application/json"
    assert answered_fast == [(st["seq"], action, None)]
    answer = r.json()
    assert answer["type"] == "state"
    assert answer["you"] == 0
    assert answer["seq"] > st["seq"] or answer["tentative"] == 1
    metrics = client.get("/metrics").text
    assert (
        'civtable_http_requests_total{method="POST",route="/api/games/{game_id}/moves",'
        'status="200"} 1' in metrics
    )
    # the same move again: its seq is stale now
    again = client.post(
        f"/api/games/{gid}/moves", json={"seq": st["seq"], "action": action}, headers=auth(token)
    )
    assert again.status_code in (409, 422)


def _until_seq(ws: Any, held: dict[str, Any] | None, seq: int) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        assert msg["type"] in ("state", "delta"), msg
        merged = merge_push(held, msg)
        assert merged is not None
        held = merged
        if held["seq"] >= seq:
            return held


def test_sw_moves_on_the_socket_are_checked_as_over_http_and_answered_by_a_result(
    client: TestClient,
) -> None:
    doc = create(client, ["human", "human", "human"], seed=6)
    gid, token = doc["game"]["id"], doc["token"]
    tokens = [token]
    for _ in range(2):
        tokens.append(client.post(f"/api/games/{gid}/join", json={}).json()["token"])
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_json({"token": token})
        held = ws.receive_json()
        assert held["type"] == "state"
        legal = [a["id"] for a in held["view"]["legal"]]
        # malformed, illegal and stale moves: a result with the route's status and code, the
        # socket stays open and nothing changes
        ws.send_json({"type": "move", "ref": 1, "seq": held["seq"], "action": True})
        bad = ws.receive_json()
        assert bad == {**bad, "type": "move_result", "ref": 1, "status": 422}
        assert bad["code"] == "invalid_request"
        ws.send_json({"type": "move", "ref": "b", "seq": held["seq"], "action": max(legal) + 999})
        illegal = ws.receive_json()
        assert illegal == {**illegal, "ref": "b", "status": 422, "code": "illegal_action"}
        ws.send_json({"type": "move", "ref": 3, "seq": held["seq"] + 1, "action": legal[0]})
        ahead = ws.receive_json()
        assert ahead == {**ahead, "ref": 3, "status": 409, "code": "bad_seq"}
        ws.send_text("ping")
        assert ws.receive_text() == "pong"
        assert _state(client, gid, token)["seq"] == held["seq"]
        # a legal move: its result, then the push of the new payload
        ws.send_json({"type": "move", "ref": 4, "seq": held["seq"], "action": legal[0]})
        ok = ws.receive_json()
        assert ok["type"] == "move_result"
        assert ok["ref"] == 4
        assert ok["status"] == 200
        pushed = _until_seq(ws, held, ok["seq"])
        assert pushed["version"] >= ok["version"]
        assert pushed["tentative"] == ok["tentative"]
        now = _state(client, gid, token)
        assert (now["seq"], now["tentative"]) == (ok["seq"], ok["tentative"])
        # the other two seats play over HTTP: the round ends, the seq moves on
        for t in tokens[1:]:
            st = _state(client, gid, t)
            r = client.post(
                f"/api/games/{gid}/moves",
                json={"seq": st["seq"], "action": st["view"]["legal"][0]["id"]},
                headers=auth(t),
            )
            assert r.status_code == 200
        # the socket's seat sees the new round; its old seq is stale there
        after = _until_seq(ws, pushed, _state(client, gid, tokens[1])["seq"])
        ws.send_json({"type": "move", "seq": held["seq"], "action": legal[0]})
        stale = ws.receive_json()
        while stale["type"] != "move_result":  # pushes may come first
            stale = ws.receive_json()
        assert stale["status"] == 409
        assert stale["code"] == "stale"
        assert stale["ref"] is None
        assert after["seq"] == _state(client, gid, token)["seq"]


def test_sw_a_spectator_socket_cannot_move(client: TestClient) -> None:
    doc = create(client, ["human", "human", "human"], seed=8)
    gid, token = doc["game"]["id"], doc["token"]
    for _ in range(2):
        client.post(f"/api/games/{gid}/join", json={})
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_json({})
        first = ws.receive_json()
        ws.send_json({"type": "move", "seq": first["seq"], "action": 0})
        answer = ws.receive_json()
        while answer["type"] != "move_result":
            answer = ws.receive_json()
        assert answer["status"] == 401
        assert answer["code"] == "token_required"
    assert _state(client, gid, token)["seq"] == first["seq"]
    # the socket's move is timed as a move (no move went over HTTP in this test)
    assert 'civtable_move_seconds_count{game="seven-wonders"} 1' in client.get("/metrics").text
