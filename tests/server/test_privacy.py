"""SW-3.9 hidden information on the wire: every HTTP and WebSocket payload of whole games.

Each seat (and a spectator) is followed through a whole game; every payload it received is
checked against the true position at the payload's ``seq``: its ``view`` must be exactly
``state.view(seat)``, and no card hidden from that seat (other hands, unresolved choices,
face-down wonder markers, others' discards) may appear anywhere in it.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from civtable import games
from civtable.core.api import State
from civtable.core.rng import Rng
from civtable.server.hub import rebuild
from tests.server.helpers import auth, create, hidden_from, leaks, make_client, merge_push


def test_sw_3_9_scanner_finds_a_planted_leak() -> None:
    """The scanner itself: the full state (all hands) must be flagged, a seat's view not."""
    state = games.get("seven-wonders").new_game(4, 3, {"sides": "A"})
    ids, names = hidden_from(state, 0)
    assert len(ids) >= 10  # three other hands of 7 cards, minus repeats of own cards
    assert leaks(state.to_json(), ids, names)
    assert leaks({"log": [{"text": f"Player 2 builds {sorted(names)[0]}"}]}, ids, names)
    assert not leaks(state.view(0), ids, names)
    assert not leaks(state.view(None), *hidden_from(state, None))


def _play_and_record(
    client: TestClient, players: int, bots: int, seed: int
) -> tuple[str, list[tuple[int | None, Any]]]:
    seats = ["human"] * (players - bots) + ["heuristic"] * bots
    doc = create(client, seats, seed=seed, take_seat=None, autostart=True)
    gid = doc["game"]["id"]
    received: list[tuple[int | None, Any]] = [(None, doc)]
    tokens: dict[int, str] = {}
    for _ in range(players - bots):
        r = client.post(f"/api/games/{gid}/join", json={"name": "x"})
        tokens[r.json()["seat"]] = r.json()["token"]
        received.append((r.json()["seat"], r.json()))
    sockets = {}
    for seat in [None, *tokens]:
        ws = client.websocket_connect(f"/api/games/{gid}/ws").__enter__()
        ws.send_json({"token": tokens[seat]} if seat is not None else {})
        sockets[seat] = ws
    rng = Rng(seed)
    over = False
    while not over:
        moved = False
        for seat, token in tokens.items():
            st = client.get(f"/api/games/{gid}/state", headers=auth(token)).json()
            received.append((seat, st))
            if st["status"] == "over":
                over = True
                break
            legal = st["view"]["legal"]
            if legal:
                r = client.post(
                    f"/api/games/{gid}/moves",
                    json={"seq": st["seq"], "action": rng.choice(legal)["id"]},
                    headers=auth(token),
                )
                assert r.status_code in (200, 409), r.text
                received.append((seat, r.json()))
                moved = True
        spectator = client.get(f"/api/games/{gid}/state").json()
        received.append((None, spectator))
        over = over or spectator["status"] == "over"
        if not moved and not over:
            import time

            time.sleep(0.005)  # the bot is thinking
    received.append((None, client.get("/api/games").json()))
    received.append((None, client.get(f"/api/games/{gid}").json()))
    deltas = 0
    for seat, ws in sockets.items():
        held: dict[str, Any] | None = None
        while True:
            msg = ws.receive_json()
            deltas += msg.get("type") == "delta"
            # a delta is checked as the whole payload it makes with the one before: it holds
            # nothing that payload does not (its view is the new view, its log a tail)
            held = merge_push(held, msg)
            assert held is not None, "a delta not based on the payload pushed before it"
            received.append((seat, held))
            if held.get("status") == "over":
                break
        ws.__exit__(None, None, None)
    assert deltas > 10
    return gid, received


@pytest.mark.parametrize(("players", "bots", "seed"), [(4, 1, 21), (2, 0, 4)])
def test_sw_3_9_no_payload_of_a_whole_game_shows_hidden_cards(
    sqlite_url: str, players: int, bots: int, seed: int
) -> None:
    with make_client(sqlite_url) as client:
        gid, received = _play_and_record(client, players, bots, seed)
        store = client.app.state.store  # type: ignore[attr-defined]
        record = store.get_game(gid)
        log = store.moves(gid)
    assert record.status == "over"
    states: dict[int, State] = {}
    ws_or_state = 0
    for seat, payload in received:
        if (
            not isinstance(payload, dict)
            or payload.get("type") != "state"
            or payload.get("view") is None
        ):
            assert not leaks(payload, *hidden_from(rebuild(record, log), None))
            continue
        ws_or_state += 1
        seq = payload["seq"]
        assert payload["you"] == seat
        if seq not in states:
            states[seq] = rebuild(record, log[:seq])
        state = states[seq]
        import json

        if not payload.get("tentative"):  # a compound move in progress shows the seat its steps
            assert payload["view"] == json.loads(json.dumps(state.view(seat))), (seat, seq)
        found = leaks(payload, *hidden_from(state, seat))
        assert not found, f"seat {seat} at seq {seq} was sent hidden cards {found}"
    assert ws_or_state > 50
    assert len(states) > 10
