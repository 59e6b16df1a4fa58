"""Through the Ages' compound moves at the table (TTAState.move_open, issue 18): a step that
continues one's own move (an action card's choice, discards after ending the turn, a defence,
a colonizing force) is held back, seen only by its seat, and withdrawn without a trace."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from tests.server.helpers import auth, create, make_client
from tests.server.test_tentative import _live, _state, _to_open_move


@pytest.fixture
def client(sqlite_url: str) -> TestClient:
    with make_client(sqlite_url) as c:
        yield c


def test_tta_a_held_step_is_private_and_cancelled_without_trace(client: TestClient) -> None:
    doc = create(
        client,
        ["human", "heuristic", "heuristic"],
        seed=4,
        game="through-the-ages",
        options={"mode": "full"},
    )
    gid, token = doc["game"]["id"], doc["token"]
    st, action = _to_open_move(client, gid, token)
    store = client.app.state.store  # type: ignore[attr-defined]
    stored = store.move_count(gid)
    spectator_before = _state(client, gid, None)

    r = client.post(
        f"/api/games/{gid}/moves",
        headers=auth(token),
        params={"lang": "en"},
        json={"seq": st["seq"], "action": action},
    )
    assert r.status_code == 200, r.text
    held = r.json()
    assert held["tentative"] == 1
    assert held["seq"] == st["seq"]
    assert store.move_count(gid) == stored
    trial = _live(client, gid).state.copy()
    trial.apply(0, action)
    assert held["view"] == json.loads(json.dumps(trial.view(0)))
    assert held["words"]["prompt"]  # the next step of the move, in words
    assert _state(client, gid, None) == spectator_before

    r = client.post(f"/api/games/{gid}/cancel", headers=auth(token), json={"seq": st["seq"]})
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["tentative"] == 0
    assert back["view"] == st["view"]
    assert store.move_count(gid) == stored
    assert _state(client, gid, None) == spectator_before

    # the move made again and finished: every step stored at once
    steps = [action]
    r = client.post(
        f"/api/games/{gid}/moves", headers=auth(token), json={"seq": st["seq"], "action": action}
    )
    payload = r.json()
    while payload["tentative"]:
        nxt = payload["view"]["legal"][0]["id"]
        steps.append(nxt)
        r = client.post(
            f"/api/games/{gid}/moves", headers=auth(token), json={"seq": st["seq"], "action": nxt}
        )
        assert r.status_code == 200, r.text
        payload = r.json()
    assert len(steps) >= 2
    assert store.moves(gid)[stored : stored + len(steps)] == [(0, a) for a in steps]
