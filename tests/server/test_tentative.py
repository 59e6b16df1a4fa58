"""Compound moves at the table: steps held back until the move is complete, withdrawn without a
trace; player words in the reader's language; the language endpoints."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.helpers import auth, create, make_client


@pytest.fixture
def client(sqlite_url: str) -> TestClient:
    with make_client(sqlite_url) as c:
        yield c


def _live(client: TestClient, gid: str) -> Any:
    return client.app.state.hub._live[gid]  # type: ignore[attr-defined]


def _state(client: TestClient, gid: str, token: str | None, **params: Any) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/state", headers=auth(token), params=params)
    assert r.status_code == 200, r.text
    doc: dict[str, Any] = r.json()
    return doc


def _my_turn(
    client: TestClient, gid: str, token: str, others: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Wait until ``token``'s seat must decide; other human seats (``others``) play their first
    legal action meanwhile."""
    end = time.monotonic() + 10
    while True:
        for o in others:
            ost = _state(client, gid, o)
            if ost["status"] == "active" and ost["view"]["legal"]:
                client.post(
                    f"/api/games/{gid}/moves",
                    headers=auth(o),
                    json={"seq": ost["seq"], "action": ost["view"]["legal"][0]["id"]},
                )
        st = _state(client, gid, token)
        if st["status"] == "over" or st["view"]["legal"]:
            return st
        assert time.monotonic() < end, "timed out waiting for the bots"
        time.sleep(0.01)


def _to_open_move(
    client: TestClient, gid: str, token: str, others: tuple[str, ...] = ()
) -> tuple[dict[str, Any], int]:
    """Play the first legal action until one of ours would open a compound move (a card whose
    payment is still to choose); returns the payload and that action."""
    for _ in range(60):
        st = _my_turn(client, gid, token, others)
        assert st["status"] != "over"
        state = _live(client, gid).state
        for a in st["view"]["legal"]:
            trial = state.copy()
            trial.apply(0, a["id"])
            if trial.move_open(0):
                return st, a["id"]
        r = client.post(
            f"/api/games/{gid}/moves",
            headers=auth(token),
            json={"seq": st["seq"], "action": st["view"]["legal"][0]["id"]},
        )
        assert r.status_code == 200, r.text
    raise AssertionError("no compound move came up")


def test_a_tentative_step_is_held_seen_only_by_its_seat_and_cancelled_without_trace(
    client: TestClient,
) -> None:
    doc = create(client, ["human", "human", "random"], seed=2)
    gid, token = doc["game"]["id"], doc["token"]
    other = client.post(f"/api/games/{gid}/join", json={"name": "Bob"}).json()["token"]
    st, action = _to_open_move(client, gid, token, (other,))
    # Bob has chosen too (his choice is hidden and cannot complete the step without ours)
    _my_turn(client, gid, token, (other,))
    store = client.app.state.store  # type: ignore[attr-defined]
    stored = store.move_count(gid)
    other_before = _state(client, gid, other)
    spectator_before = _state(client, gid, None)

    r = client.post(
        f"/api/games/{gid}/moves", headers=auth(token), json={"seq": st["seq"], "action": action}
    )
    assert r.status_code == 200, r.text
    held = r.json()
    assert held["tentative"] == 1
    assert held["seq"] == st["seq"]  # nothing committed
    assert store.move_count(gid) == stored
    trial = _live(client, gid).state.copy()
    trial.apply(0, action)
    assert held["view"] == json.loads(json.dumps(trial.view(0)))  # the seat's view after its step
    pays = [a["id"] for a in held["view"]["legal"]]
    assert len(pays) >= 2  # the payment plans of the chosen card
    # nobody else sees anything of it
    assert _state(client, gid, other) == other_before
    assert _state(client, gid, None) == spectator_before

    r = client.post(f"/api/games/{gid}/cancel", headers=auth(token), json={"seq": st["seq"]})
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["tentative"] == 0
    assert back["view"] == st["view"]
    assert store.move_count(gid) == stored
    assert _live(client, gid).state.history == _live(client, gid).state.history[: st["seq"]]

    # nothing left to cancel: a clear 409 that changes nothing
    r = client.post(f"/api/games/{gid}/cancel", headers=auth(token), json={"seq": st["seq"]})
    assert r.status_code == 409
    assert r.json()["code"] == "nothing_to_cancel"

    # choose again, then pay: both steps are stored together
    r = client.post(
        f"/api/games/{gid}/moves", headers=auth(token), json={"seq": st["seq"], "action": action}
    )
    assert r.json()["tentative"] == 1
    r = client.post(
        f"/api/games/{gid}/cancel", headers=auth(token), json={"seq": st["seq"], "steps": 2}
    )
    assert r.status_code == 422
    assert r.json()["code"] == "bad_steps"
    r = client.post(
        f"/api/games/{gid}/moves", headers=auth(token), json={"seq": st["seq"], "action": pays[0]}
    )
    assert r.status_code == 200, r.text
    done = r.json()
    assert done["tentative"] == 0
    assert done["seq"] == st["seq"] + 2
    seq = st["seq"]
    assert store.moves(gid)[seq : seq + 2] == [(0, action), (0, pays[0])]


def test_a_game_holding_tentative_steps_is_not_evicted_from_memory(client: TestClient) -> None:
    """Issue 23: past ``Hub.max_live`` idle games leave memory, and tentative steps live only
    there. A seat without a socket (a page reloading, an HTTP-only client) must still find its
    step held when the hub evicts games meanwhile; before, the next step got 422."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    doc = create(client, ["human", "random", "random"], seed=2)
    gid, token = doc["game"]["id"], doc["token"]
    st, action = _to_open_move(client, gid, token)
    r = client.post(
        f"/api/games/{gid}/moves", headers=auth(token), json={"seq": st["seq"], "action": action}
    )
    assert r.json()["tentative"] == 1
    pays = [a["id"] for a in r.json()["view"]["legal"]]
    hub.max_live = 2
    for seed in range(3):  # each new game's load evicts idle games
        create(client, ["human", "random", "random"], seed=seed)
    assert gid in hub._live
    r = client.post(
        f"/api/games/{gid}/moves", headers=auth(token), json={"seq": st["seq"], "action": pays[0]}
    )
    assert r.status_code == 200, r.text
    assert r.json()["tentative"] == 0
    store = client.app.state.store  # type: ignore[attr-defined]
    stored = store.moves(gid)[st["seq"] :]  # the bots' choices may land in between
    assert [m for m in stored if m[0] == 0][:2] == [(0, action), (0, pays[0])]
    assert r.json()["seq"] == st["seq"] + stored.index((0, pays[0])) + 1


def test_words_come_in_the_language_asked(client: TestClient) -> None:
    doc = create(client, ["human", "random", "random"], player_name="Ann")
    gid, token = doc["game"]["id"], doc["token"]
    plain = _state(client, gid, token)
    assert "words" not in plain
    worded = _state(client, gid, token, lang="en")
    assert worded["words"]["names"][0] == "Ann"
    assert worded["words"]["names"][1] == "Bot 2 (random)"
    r = client.get(f"/api/games/{gid}/state", headers=auth(token), params={"lang": "xx"})
    assert r.status_code == 422
    assert "choose one of" in r.json()["detail"]


def test_language_endpoints(client: TestClient) -> None:
    r = client.get("/api/languages", headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    assert r.status_code == 200
    doc = r.json()
    assert doc["default"] == "en"
    assert {"code": "en", "name": "English"} in doc["languages"]
    r = client.get("/api/i18n/en", params={"domain": "common"})
    assert r.status_code == 200
    assert r.json()["messages"]["n.card"] == ["{n} card", "{n} cards"]
    assert client.get("/api/i18n/xx").status_code == 404
    r = client.get("/api/i18n/en", params={"domain": "nope"})
    assert r.status_code == 422


@pytest.mark.parametrize(
    "hello",
    [{"token": 123}, {"token": ["a"]}, {"token": {"a": 1}}, [1, 2], "x", {"lang": "xx"}],
)
def test_malformed_websocket_hello_gets_a_close_code(client: TestClient, hello: Any) -> None:
    doc = create(client, ["human", "random", "random"])
    gid = doc["game"]["id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_json(hello)
        msg = ws.receive_json()
        assert msg["type"] == "error"
        assert msg["status"] in (400, 422)


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("seven-wonders", 3, {"boards": [["a"], ["b"], ["c"]]}),
        ("civilization-a-new-dawn", 2, {"leaders": [["x"], ["y"]]}),
        ("deus", 2, {"board": [[float("inf"), "a", 0]]}),
    ],
)
def test_malformed_options_get_422_and_create_nothing(
    client: TestClient, game: str, players: int, options: dict[str, Any]
) -> None:
    before = client.get("/api/games").json()["games"]
    body = {"game": game, "players": players, "options": options}
    r = client.post(
        "/api/games",
        content=json.dumps(body).replace("Infinity", "1e400"),
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 422, r.text
    assert r.json()["code"] == "bad_options"
    assert client.get("/api/games").json()["games"] == before


def test_unseeded_games_get_large_random_seeds(client: TestClient) -> None:
    seeds = set()
    for _ in range(4):
        r = client.post("/api/games", json={"game": "seven-wonders", "players": 3})
        gid = r.json()["game"]["id"]
        seeds.add(_live(client, gid).record.seed)
    assert len(seeds) == 4
    assert max(seeds) >= 2**40  # 62-bit seeds: all four below 2^40 has odds 2^-88


def test_sw_a_step_sent_for_another_count_of_steps_in_progress_is_stale(
    client: TestClient,
) -> None:
    """A move whose sender says it holds ``tentative`` steps of a compound move while the seat
    holds another number was chosen on an out-of-date view: 409 ``stale``, nothing changed
    (without the check, a card meant as a first step could be taken as the payment step)."""
    doc = create(client, ["human", "human", "random"], seed=2)
    gid, token = doc["game"]["id"], doc["token"]
    other = client.post(f"/api/games/{gid}/join", json={"name": "Bob"}).json()["token"]
    st, action = _to_open_move(client, gid, token, (other,))
    r = client.post(
        f"/api/games/{gid}/moves",
        headers=auth(token),
        json={"seq": st["seq"], "action": action, "tentative": 1},  # it holds none
    )
    assert r.status_code == 409
    assert r.json()["code"] == "stale"
    assert _state(client, gid, token)["tentative"] == 0
    r = client.post(
        f"/api/games/{gid}/moves",
        headers=auth(token),
        json={"seq": st["seq"], "action": action, "tentative": 0},
    )
    assert r.status_code == 200, r.text
    held = r.json()
    assert held["tentative"] == 1
    pays = [a["id"] for a in held["view"]["legal"]]
    stored = client.app.state.store.move_count(gid)  # type: ignore[attr-defined]
    r = client.post(
        f"/api/games/{gid}/moves",
        headers=auth(token),
        json={"seq": st["seq"], "action": pays[0], "tentative": 0},  # a view from before
    )
    assert r.status_code == 409
    assert r.json()["code"] == "stale"
    assert _state(client, gid, token)["tentative"] == 1
    assert client.app.state.store.move_count(gid) == stored  # type: ignore[attr-defined]
    r = client.post(
        f"/api/games/{gid}/moves",
        headers=auth(token),
        json={"seq": st["seq"], "action": pays[0], "tentative": 1},
    )
    assert r.status_code == 200, r.text
    assert r.json()["tentative"] == 0
