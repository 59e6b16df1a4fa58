"""Pushes carry what changed (issue 23): the first push of a connection is the whole payload,
later ones are deltas on the payload sent before (the new view with only the new log entries);
a client can ask for the whole payload at any time; a payload is encoded once per view."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from civtable.server import hub as hub_module
from tests.server.helpers import auth, create, make_client, merge_push


@pytest.fixture
def client(sqlite_url: str) -> Any:
    with make_client(sqlite_url) as c:
        yield c


def _three_people(client: TestClient) -> tuple[str, dict[int, str]]:
    doc = create(client, ["human", "human", "human"], seed=11)
    gid = doc["game"]["id"]
    tokens = {0: doc["token"]}
    for _ in range(2):
        r = client.post(f"/api/games/{gid}/join", json={}).json()
        tokens[r["seat"]] = r["token"]
    return gid, tokens


def _play_round(client: TestClient, gid: str, tokens: dict[int, str]) -> None:
    """Every seat plays its first legal card (7 Wonders: one simultaneous turn)."""
    for token in tokens.values():
        st = client.get(f"/api/games/{gid}/state", headers=auth(token)).json()
        legal = st["view"]["legal"]
        r = client.post(
            f"/api/games/{gid}/moves",
            json={"seq": st["seq"], "action": legal[0]["id"]},
            headers=auth(token),
        )
        assert r.status_code == 200, r.text


def _until(ws: Any, held: dict[str, Any] | None, seq: int) -> tuple[dict[str, Any], list[Any]]:
    raw = []
    while True:
        msg = ws.receive_json()
        raw.append(msg)
        merged = merge_push(held, msg)
        assert merged is not None
        held = merged
        if held["seq"] >= seq:
            return held, raw


@pytest.mark.parametrize("lang", [None, "ru"])
def test_pushes_after_the_first_are_deltas_that_rebuild_the_whole_payload(
    client: TestClient, lang: str | None
) -> None:
    gid, tokens = _three_people(client)
    q = f"?lang={lang}" if lang else ""
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_json({"token": tokens[1], **({"lang": lang} if lang else {})})
        first = ws.receive_json()
        assert first["type"] == "state"
        held: dict[str, Any] = first
        for _ in range(3):
            before = len(held["view"]["log"])
            _play_round(client, gid, tokens)
            seq = client.get(f"/api/games/{gid}").json()["seq"]
            held, raw = _until(ws, held, seq)
            assert all(m["type"] == "delta" for m in raw)
            assert raw[0]["log_from"] == before  # only the new entries travel
            assert len(raw[-1]["view"]["log"]) < len(held["view"]["log"])
            if lang:
                assert raw[-1]["words_log_from"] > 0
            whole = client.get(f"/api/games/{gid}/state{q}", headers=auth(tokens[1])).json()
            assert held == whole


def test_the_client_can_ask_for_the_whole_payload(client: TestClient) -> None:
    gid, tokens = _three_people(client)
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_json({})
        assert ws.receive_json()["type"] == "state"
        _play_round(client, gid, tokens)
        seq = client.get(f"/api/games/{gid}").json()["seq"]
        held = ws.receive_json()
        while held["seq"] < seq:
            held = ws.receive_json()
        assert held["type"] == "delta"
        ws.send_text(json.dumps({"type": "full"}))
        whole = ws.receive_json()
        assert whole["type"] == "state"
        assert whole == client.get(f"/api/games/{gid}/state").json()
        ws.send_text("ping")
        assert ws.receive_text() == "pong"
        ws.send_text('{"type": "nonsense"}')  # ignored: nothing comes back, the socket lives
        ws.send_text("ping")
        assert ws.receive_text() == "pong"


def test_a_move_is_encoded_once_per_view_not_once_per_subscriber(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, tokens = _three_people(client)
    spectators = [client.websocket_connect(f"/api/games/{gid}/ws") for _ in range(8)]
    sockets = [ws.__enter__() for ws in spectators]
    try:
        for ws in sockets:
            ws.send_json({})
            assert ws.receive_json()["type"] == "state"
        encoded: list[Any] = []
        real = hub_module.encode_json

        def counting(obj: Any) -> str:
            encoded.append(obj)
            return real(obj)

        monkeypatch.setattr(hub_module, "encode_json", counting)
        st = client.get(f"/api/games/{gid}/state", headers=auth(tokens[0])).json()
        r = client.post(
            f"/api/games/{gid}/moves",
            json={"seq": st["seq"], "action": st["view"]["legal"][0]["id"]},
            headers=auth(tokens[0]),
        )
        assert r.status_code == 200
        pushed = [ws.receive_json() for ws in sockets]
        assert all(p["type"] == "delta" and p["you"] is None for p in pushed)
        assert all(p == pushed[0] for p in pushed)
        spectator_docs = [d for d in encoded if d.get("you", 0) is None]
        assert len(spectator_docs) == 1  # eight sockets, one encoding
    finally:
        for ws in spectators:
            ws.__exit__(None, None, None)


def test_random_bots_moving_in_a_row_send_one_push(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 23: the moves random bots make one after another (Deus: each bot's whole turn)
    wake a seat's socket once, not once per move; every push still has the newest state."""
    import time

    body = {
        "game": "deus",
        "players": 3,
        "seed": 5,
        "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 2,
        "take_seat": 0,
    }
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    gid, token = r.json()["game"]["id"], r.json()["token"]
    wakes: list[int] = []
    real = hub_module.Subscriber.wake

    def counting(sub: Any) -> None:
        wakes.append(1)
        real(sub)

    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_json({"token": token})
        held = ws.receive_json()
        monkeypatch.setattr(hub_module.Subscriber, "wake", counting)
        for _ in range(40):
            st = client.get(f"/api/games/{gid}/state", headers=auth(token)).json()
            if st["status"] == "over" or not st["view"]["legal"]:
                time.sleep(0.01)
                continue
            wakes.clear()
            r = client.post(
                f"/api/games/{gid}/moves",
                json={"seq": st["seq"], "action": st["view"]["legal"][0]["id"]},
                headers=auth(token),
            )
            assert r.status_code == 200, r.text
            moved = r.json()["seq"]
            if moved == st["seq"]:
                continue  # a tentative step: nothing stored, the bots do not move
            end = time.monotonic() + 10
            while True:  # the bots' turns, up to the human seat's next decision
                now = client.get(f"/api/games/{gid}/state", headers=auth(token)).json()
                if now["status"] == "over" or now["view"]["legal"]:
                    break
                assert time.monotonic() < end
                time.sleep(0.01)
            if now["seq"] - moved >= 2:
                assert len(wakes) <= 2  # the human's move, then the bots' moves together
                held, _ = _until(ws, held, now["seq"])
                assert held["view"] == now["view"]  # the last push has the newest state
                return
        pytest.fail("the bots never moved twice in a row")
