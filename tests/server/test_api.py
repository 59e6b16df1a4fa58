"""The HTTP API: lobby, moves, sequence numbers, refusals that change nothing, bots, replays."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from civtable import games
from civtable.bots import register
from civtable.bots.random_bot import RandomBot
from civtable.core.api import State
from civtable.games.seven_wonders.actions import BUILD, STAGE
from civtable.games.seven_wonders.catalog import CARD_INDEX, CARDS
from civtable.server.app import CSP, static_dir
from tests.server.helpers import auth, create, make_client


@pytest.fixture
def client(sqlite_url: str) -> TestClient:
    with make_client(sqlite_url) as c:
        yield c


def _state(client: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/state", headers=auth(token))
    assert r.status_code == 200, r.text
    doc: dict[str, Any] = r.json()
    return doc


def _wait(
    client: TestClient, gid: str, token: str, pred: Any, timeout: float = 10
) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        st = _state(client, gid, token)
        if pred(st):
            return st
        assert time.monotonic() < end, "timed out waiting for the game"
        time.sleep(0.01)


def _my_turn(st: dict[str, Any]) -> bool:
    return st["status"] == "over" or bool(st["view"]["legal"])


def _stored_moves(client: TestClient, gid: str) -> int:
    store = client.app.state.store  # type: ignore[attr-defined]
    return int(store.move_count(gid))


# --- lobby ------------------------------------------------------------------------------------
def test_create_with_bots_starts_at_once_and_bots_move(client: TestClient) -> None:
    doc = create(client, ["human", "heuristic", "random", "heuristic"])
    gid, token = doc["game"]["id"], doc["token"]
    assert doc["game"]["status"] == "active"
    assert doc["seat"] == 0
    assert doc["links"]["seat"] == f"/game/{gid}#token={token}"
    st = _wait(client, gid, token, lambda s: all(c["committed"] for c in s["view"]["cities"][1:]))
    assert st["view"]["to_move"] == [0]  # the three bots have chosen, hidden until we choose
    assert st["you"] == 0
    assert st["view"]["hand"]
    assert "hand" not in st["view"]["cities"][1]


def test_join_by_link_then_autostart(client: TestClient) -> None:
    doc = create(client, ["human", "human", "random"], player_name="Ann")
    gid = doc["game"]["id"]
    assert doc["game"]["status"] == "lobby"
    assert doc["game"]["free_seats"] == [1]
    lobby = _state(client, gid)
    assert lobby["status"] == "lobby"
    assert lobby["view"] is None
    r = client.post(f"/api/games/{gid}/join", json={"name": "Bob"})
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 1
    assert r.json()["game"]["status"] == "active"
    again = client.post(f"/api/games/{gid}/join", json={"seat": 1, "name": "Eve"})
    assert again.status_code == 409
    assert again.json()["code"] == "not_in_lobby"
    names = [s["name"] for s in _state(client, gid)["seats"]]
    assert names[:2] == ["Ann", "Bob"]


def test_join_taken_seat_and_bad_seat_are_refused(client: TestClient) -> None:
    gid = create(client, ["human", "human", "human"])["game"]["id"]
    assert client.post(f"/api/games/{gid}/join", json={"seat": 0}).json()["code"] == "seat_taken"
    assert client.post(f"/api/games/{gid}/join", json={"seat": 9}).status_code == 422
    assert client.post("/api/games/nope/join", json={}).status_code == 404


def test_start_needs_a_seat_and_free_seats_filled(client: TestClient) -> None:
    doc = create(client, ["human", "human", "human"])
    gid, token = doc["game"]["id"], doc["token"]
    assert client.post(f"/api/games/{gid}/start", json={}).status_code == 401
    assert client.post(f"/api/games/{gid}/start", json={}, headers=auth("bad")).status_code == 403
    r = client.post(f"/api/games/{gid}/start", json={}, headers=auth(token))
    assert r.status_code == 409
    assert r.json()["code"] == "seats_free"
    r = client.post(f"/api/games/{gid}/start", json={"fill_with": "nobot"}, headers=auth(token))
    assert r.status_code == 422
    assert _state(client, gid)["status"] == "lobby"
    r = client.post(f"/api/games/{gid}/start", json={"fill_with": "random"}, headers=auth(token))
    assert r.status_code == 200
    assert r.json()["status"] == "active"
    assert [s["kind"] for s in r.json()["seats"]] == ["human", "bot", "bot"]


@pytest.mark.usefixtures("planned_game")
def test_create_refuses_bad_setups(client: TestClient) -> None:
    def post(**body: Any) -> Any:
        return client.post("/api/games", json={"players": 3, **body})

    assert post(game="chess").json()["code"] == "unknown_game_type"
    assert post(game="planned-game").json()["code"] == "unknown_game_type"  # planned
    assert post(players=9).json()["code"] == "bad_players"
    assert post(options={"sides": "C"}).json()["code"] == "bad_options"
    assert post(seats=[{"kind": "bot", "bot": "x"}] * 3).json()["code"] == "unknown_bot"
    assert post(seats=[{"kind": "human"}] * 2).json()["code"] == "bad_seats"
    assert post(take_seat=5).json()["code"] == "bad_seats"
    assert client.get("/api/games").json()["games"] == []


def test_list_and_my_games(client: TestClient) -> None:
    a = create(client, ["human", "random", "random"])
    b = create(client, ["human", "human", "human"], seed=3)
    listed = client.get("/api/games").json()["games"]
    assert {g["id"] for g in listed} == {a["game"]["id"], b["game"]["id"]}
    assert all("token" not in str(g) for g in listed)
    assert [g["id"] for g in client.get("/api/games?status=lobby").json()["games"]] == [
        b["game"]["id"]
    ]
    mine = client.post("/api/my-games", json={"tokens": [a["token"], "forged"]}).json()["games"]
    assert [(g["id"], g["you"]) for g in mine] == [(a["game"]["id"], 0)]


# --- moves and refusals -------------------------------------------------------------------------
def test_every_refused_move_changes_nothing(client: TestClient) -> None:
    doc = create(client, ["human", "human", "random"], take_seat=0)
    gid, token = doc["game"]["id"], doc["token"]
    token1 = client.post(f"/api/games/{gid}/join", json={}).json()["token"]
    # wait for the bot to choose too: from then on only this test moves
    st = _wait(client, gid, token, lambda s: _my_turn(s) and s["view"]["cities"][2]["committed"])
    seq, legal = st["seq"], [a["id"] for a in st["view"]["legal"]]
    illegal = next(a for a in range(2000) if a not in legal)
    url = f"/api/games/{gid}/moves"
    cases = [
        (client.post(url, json={"seq": seq, "action": legal[0]}), 401, "token_required"),
        (
            client.post(url, json={"seq": seq, "action": legal[0]}, headers=auth("x")),
            403,
            "wrong_token",
        ),
        (
            client.post("/api/games/zzz/moves", json={"seq": 0, "action": 1}, headers=auth(token)),
            404,
            "not_found",
        ),
        (
            client.post(
                url,
                content=b'{"seq": 1,',
                headers={**auth(token), "Content-Type": "application/json"},
            ),
            400,
            "bad_json",
        ),
        (
            client.post(url, json={"seq": "0", "action": legal[0]}, headers=auth(token)),
            422,
            "invalid_request",
        ),
        (
            client.post(url, json={"seq": seq, "action": legal[0], "x": 1}, headers=auth(token)),
            422,
            "invalid_request",
        ),
        (client.post(url, json={"seq": seq}, headers=auth(token)), 422, "invalid_request"),
        (
            client.post(
                url,
                content=b"[" + b"1," * 40000 + b"1]",
                headers={**auth(token), "Content-Type": "application/json"},
            ),
            413,
            "too_large",
        ),
        (
            client.post(url, json={"seq": seq, "action": illegal}, headers=auth(token)),
            422,
            "illegal_action",
        ),
        (
            client.post(url, json={"seq": seq, "action": -1}, headers=auth(token)),
            422,
            "illegal_action",
        ),
        (
            client.post(url, json={"seq": seq + 5, "action": legal[0]}, headers=auth(token)),
            409,
            "bad_seq",
        ),
    ]
    for response, status, code in cases:
        assert (response.status_code, response.json()["code"]) == (status, code), response.text
        assert response.json()["detail"]
    after = _state(client, gid, token)
    assert after["seq"] == seq
    assert after["view"] == st["view"]
    assert _stored_moves(client, gid) == seq
    # the same move, well formed, is then accepted
    ok = client.post(url, json={"seq": seq, "action": legal[0]}, headers=auth(token))
    assert ok.status_code == 200
    assert ok.json()["seq"] == seq + 1
    # seat 0 has chosen: it owes nothing more this step
    again = client.post(url, json={"seq": seq + 1, "action": legal[0]}, headers=auth(token))
    assert again.status_code == 409
    assert again.json()["code"] == "not_your_turn"
    assert token1


def test_two_tabs_cannot_both_play_the_same_decision(client: TestClient) -> None:
    doc = create(client, ["human", "random", "random"])
    gid, token = doc["game"]["id"], doc["token"]
    st = _wait(client, gid, token, _my_turn)
    tab_a = tab_b = st["seq"]
    first = client.post(
        f"/api/games/{gid}/moves",
        json={"seq": tab_a, "action": st["view"]["legal"][0]["id"]},
        headers=auth(token),
    )
    assert first.status_code == 200
    nxt = _wait(client, gid, token, _my_turn)  # the step resolved: a new hand
    second = client.post(
        f"/api/games/{gid}/moves",
        json={"seq": tab_b, "action": nxt["view"]["legal"][0]["id"]},
        headers=auth(token),
    )
    assert second.status_code == 409
    assert second.json()["code"] == "stale"
    store = client.app.state.store  # type: ignore[attr-defined]
    assert [seat for seat, _ in store.moves(gid)].count(0) == 1  # bots may have moved on


def test_sw_8_others_committing_does_not_make_a_view_stale(client: TestClient) -> None:
    """SW-8.1: a simultaneous step. Seat 1 commits after seat 0 looked; seat 0's move stands."""
    doc = create(client, ["human", "human", "human"])
    gid, t0 = doc["game"]["id"], doc["token"]
    t1 = client.post(f"/api/games/{gid}/join", json={}).json()["token"]
    t2 = client.post(f"/api/games/{gid}/join", json={}).json()["token"]
    seen0 = _state(client, gid, t0)
    s1 = _state(client, gid, t1)
    r = client.post(
        f"/api/games/{gid}/moves",
        json={"seq": s1["seq"], "action": s1["view"]["legal"][0]["id"]},
        headers=auth(t1),
    )
    assert r.status_code == 200
    # everybody sees that seat 1 has chosen, nobody sees what
    spectator = _state(client, gid)
    assert [c["committed"] for c in spectator["view"]["cities"]] == [False, True, False]
    assert "1" not in _state(client, gid, t0)["view"]["commitments"]
    r = client.post(
        f"/api/games/{gid}/moves",
        json={"seq": seen0["seq"], "action": seen0["view"]["legal"][0]["id"]},
        headers=auth(t0),
    )
    assert r.status_code == 200, r.text
    assert r.json()["seq"] == 2
    assert t2


def test_a_whole_game_with_bots_ends_with_scores_and_a_replay(client: TestClient) -> None:
    doc = create(client, ["human", "heuristic", "heuristic"], seed=5)
    gid, token = doc["game"]["id"], doc["token"]
    assert client.get(f"/api/games/{gid}/replay").status_code == 409  # not before the end
    moves = 0
    while True:
        st = _wait(client, gid, token, _my_turn)
        if st["status"] == "over":
            break
        r = client.post(
            f"/api/games/{gid}/moves",
            json={"seq": st["seq"], "action": st["view"]["legal"][-1]["id"]},
            headers=auth(token),
        )
        assert r.status_code == 200, r.text
        moves += 1
    assert moves >= 18
    result = st["view"]["result"]
    assert len(result["scores"]) == 3
    assert set(result["breakdown"][0]) == set(result["categories"])
    assert client.get(f"/api/games/{gid}").json()["status"] == "over"
    r = client.post(
        f"/api/games/{gid}/moves", json={"seq": st["seq"], "action": 0}, headers=auth(token)
    )
    assert r.json()["code"] == "game_over"
    replay = client.get(f"/api/games/{gid}/replay").json()
    assert replay["format"] == "civtable-replay"
    assert len(replay["steps"]) == st["seq"]
    assert replay["steps"][-1]["age"] == 3
    assert replay["result"]["scores"] == result["scores"]
    start = client.get(f"/api/games/{gid}/replay/0?seat=1").json()
    assert start["view"]["age"] == 1
    assert len(start["view"]["hand"]) == 7
    end = client.get(f"/api/games/{gid}/replay/{st['seq']}").json()
    assert end["view"]["result"]["scores"] == result["scores"]
    assert client.get(f"/api/games/{gid}/replay/{st['seq'] + 1}").status_code == 404
    assert client.get(f"/api/games/{gid}/replay/3?seat=7").status_code == 422
    # in player words: the view's words, and the move that led to the step as its mover read it
    step = client.get(f"/api/games/{gid}/replay/1?lang=en&seat=0").json()
    mover, action = replay["actions"][0]
    assert step["move"]["seat"] == mover
    assert step["move"]["action"] == action
    assert step["move"]["label"][0].isupper()
    assert step["move"]["label"] != replay["steps"][0]["label"]  # not the developer's describe()
    assert step["words"]["log"] is not None
    assert client.get(f"/api/games/{gid}/replay/0?lang=en").json()["move"] is None
    assert client.get(f"/api/games/{gid}/replay/1").json()["move"] is None  # no lang: neutral


def test_bots_choose_in_the_pool_not_on_the_event_loop(sqlite_url: str) -> None:
    threads: list[str] = []

    class Recording(RandomBot):
        def choose(self, state: State, seat: int) -> int:
            threads.append(threading.current_thread().name)
            return super().choose(state, seat)

    register("recording-test", lambda arg, seed: Recording(seed))
    with make_client(sqlite_url) as client:
        doc = create(client, ["human", "recording-test", "recording-test"])
        _wait(client, doc["game"]["id"], doc["token"], _my_turn)
        _wait(
            client,
            doc["game"]["id"],
            doc["token"],
            lambda s: all(c["committed"] for c in s["view"]["cities"][1:]),
        )
    assert threads
    assert all(t.startswith("civtable-bot") for t in threads)


# --- hints and catalog ----------------------------------------------------------------------------
def test_sw_7_payment_hints_agree_with_the_legal_builds(client: TestClient) -> None:
    """SW-7 / SW-5.5: a card shows a payment (or a chain) exactly when building it is legal,
    and the cheapest hint is the engine's cheapest plan. Checked at every decision of a game."""
    doc = create(client, ["human", "heuristic", "heuristic", "heuristic"], seed=9)
    gid, token = doc["game"]["id"], doc["token"]
    checked = 0
    while True:
        st = _wait(client, gid, token, _my_turn)
        if st["status"] == "over":
            break
        hints, legal = st["hints"], {a["id"] for a in st["view"]["legal"]}
        if hints is not None:
            for cid, h in hints["cards"].items():
                t = CARD_INDEX[cid]
                assert (BUILD + t in legal) == (bool(h["payments"]) and h["reason"] is None), cid
                checked += 1
            stage_ok = bool(hints["stage"]["payments"])
            assert any(STAGE <= a < STAGE + len(CARDS) for a in legal) == stage_ok
        r = client.post(
            f"/api/games/{gid}/moves",
            json={"seq": st["seq"], "action": st["view"]["legal"][0]["id"]},
            headers=auth(token),
        )
        assert r.status_code == 200
    assert checked > 60


def test_catalog_lists_every_card_and_board(client: TestClient) -> None:
    cat = client.get("/api/game-types/seven-wonders/catalog").json()
    assert len(cat["cards"]) == len(CARDS)
    assert [c["index"] for c in cat["cards"].values()] == list(range(len(CARDS)))
    assert cat["cards"]["baths"]["cost"] == {"S": 1}
    assert cat["cards"]["baths"]["color"] == "blue"
    assert len(cat["boards"]) == 7
    assert cat["actions"]["STAGE"] == len(CARDS)
    assert client.get("/api/game-types/no-such-game/catalog").status_code == 404
    for planned in set(games.ids()) - set(games.available()):
        assert client.get(f"/api/game-types/{planned}/catalog").status_code == 404
    types = client.get("/api/game-types").json()
    assert types["bots"] == ["random", "easy", "normal", "hard", "expert"]
    assert [g["id"] for g in types["games"] if g["playable"]] == games.available()


def test_a_game_without_ui_extras_gets_the_generic_catalog(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The browser's generic table needs only the game's name; no extras module is required."""
    from civtable.server import extras

    monkeypatch.setattr(extras, "EXTRAS", {})
    cat = client.get("/api/game-types/seven-wonders/catalog").json()
    assert cat == {
        "game": "seven-wonders",
        "name": "7 Wonders",
        "generic": True,
        "min_players": 2,
        "max_players": 7,
    }
    assert extras.hints("seven-wonders") is None


# --- pages and docs -------------------------------------------------------------------------------
def test_pages_docs_and_assets_need_no_network(client: TestClient) -> None:
    for path in ("/", "/game/abc", "/replay/abc"):
        r = client.get(path)
        assert r.status_code == 200
        assert r.headers["content-security-policy"] == CSP
    r = client.get("/docs")
    docs = r.text
    assert r.headers["content-security-policy"] == CSP  # no inline script on the docs page
    assert "/static/vendor/swagger-ui/swagger-ui-bundle.js" in docs
    assert "<script>" not in docs
    assert "http://" not in docs  # no CDN: every asset from this server
    assert "https://" not in docs
    bundle = client.get("/static/vendor/swagger-ui/swagger-ui-bundle.js")
    assert bundle.status_code == 200
    assert "SwaggerUIBundle" in bundle.text
    assert client.get("/openapi.json").json()["openapi"].startswith("3.1")
    assert "/api/games/{game_id}/moves" in client.get("/openapi.json").json()["paths"]
    for f in static_dir().rglob("*"):
        if "vendor" in f.relative_to(static_dir()).parts:
            continue  # third-party code, whose strings mention its project's sites
        if f.is_file() and f.suffix in {".html", ".js", ".css"}:
            text = f.read_text(encoding="utf-8").replace("http://www.w3.org/2000/svg", "")
            assert "http://" not in text, f  # nothing is fetched from elsewhere
            assert "https://" not in text, f
    assert client.get("/static/js/game.js").status_code == 200
    assert client.get("/nowhere").status_code == 404
    assert client.get("/healthz").json()["database"] == "sqlite"


def test_rules_pages_are_served_inside_the_site_for_every_game_that_has_one(
    client: TestClient,
) -> None:
    r = client.get("/rules/seven-wonders")
    assert r.status_code == 200
    assert r.headers["content-security-policy"] == CSP
    assert 'data-testid="rules"' in r.text
    assert "7 Wonders — how to play" in r.text
    assert '<nav class="site">' in r.text  # the site's chrome around the fragment
    # a language without a page of its own falls back to English
    assert client.get("/rules/seven-wonders", headers={"Accept-Language": "xx"}).status_code == 200
    assert client.get("/rules/seven-wonders?lang=zz").status_code == 200
    # unknown games are 404s; so is a registered game without a page
    r = client.get("/rules/no-such-game")
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    for info in games.REGISTRY.values():
        pkg = info.id.replace("-", "_")
        has_page = (static_dir() / "rules" / f"{pkg}.en.html").is_file()
        assert client.get(f"/rules/{info.id}").status_code == (200 if has_page else 404)


def test_rules_fragments_are_plain_html_without_scripts() -> None:
    """Players' rules pages (web/static/rules/<pkg>.<lang>.html): fragments, no scripts."""
    found = sorted((static_dir() / "rules").glob("*.html"))
    assert any(f.name == "seven_wonders.en.html" for f in found)
    for f in found:
        text = f.read_text(encoding="utf-8")
        assert not re.search(r"<\s*script|\bon[a-z]+\s*=|javascript:", text, re.I), f
        assert "<html" not in text.lower(), f  # a fragment: the server adds the page around it
        assert "<body" not in text.lower(), f
        assert not re.search(r"\b(?:SW|TTA|CIV|DEUS|AMB)-\d", text), f  # no rule ids


# --- push -----------------------------------------------------------------------------------------
def test_websocket_pushes_each_change_to_seats_and_spectators(client: TestClient) -> None:
    doc = create(client, ["human", "human", "random"])
    gid, t0 = doc["game"]["id"], doc["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as bad:
        bad.send_json({"token": "forged"})
        msg = bad.receive_json()
        assert (msg["type"], msg["status"]) == ("error", 403)
    with (
        client.websocket_connect(f"/api/games/{gid}/ws") as seat0,
        client.websocket_connect(f"/api/games/{gid}/ws") as watcher,
    ):
        seat0.send_json({"token": t0})
        watcher.send_json({})
        first = seat0.receive_json()
        assert (first["status"], first["you"], first["view"]) == ("lobby", 0, None)
        assert watcher.receive_json()["you"] is None
        client.post(f"/api/games/{gid}/join", json={"name": "Bob"})  # the game starts
        while (msg := seat0.receive_json())["status"] != "active":
            pass
        assert msg["you"] == 0
        assert len(msg["view"]["hand"]) == 7
        while (msg := watcher.receive_json())["status"] != "active":
            pass
        assert "hand" not in msg["view"]
        assert msg["seats"][1]["name"] == "Bob"


def test_idle_games_leave_memory_and_come_back_by_replay(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        hub.max_live = 4
        made = [create(client, ["human", "random", "random"], seed=s) for s in range(6)]
        assert len(hub._live) < 6
        for doc in made:
            st = _wait(client, doc["game"]["id"], doc["token"], _my_turn)
            assert len(st["view"]["hand"]) == 7


def test_a_game_loaded_for_several_callers_is_the_one_in_memory(sqlite_url: str) -> None:
    """Issue 23: callers waiting for a game another caller loads must get the game the hub
    holds. Another load could evict it before they resumed; they then got an object out of
    memory (a socket subscribed to it saw no more moves, tentative steps were lost)."""
    import asyncio

    from civtable.server.hub import Hub
    from civtable.store.db import NewGame, SeatSpec, Store

    store = Store.open(sqlite_url)
    seats = [SeatSpec("human"), SeatSpec("human")]
    setup = NewGame("seven-wonders", 2, seed=1, options={}, seats=seats)
    ids = [store.create_game(setup).id for _ in "ab"]

    async def run() -> tuple[Any, Any]:
        hub = Hub(store)
        hub.max_live = 1  # every load evicts every idle game
        gates = {i: asyncio.Event() for i in ids}
        at_gate: list[str] = []
        load = hub._load

        async def gated(game_id: str) -> Any:
            live = await load(game_id)
            at_gate.append(game_id)
            await gates[game_id].wait()
            return live

        hub._load = gated  # type: ignore[method-assign]
        first = asyncio.create_task(hub.live(ids[0]))
        waiter = asyncio.create_task(hub.live(ids[0]))  # waits for ``first``'s load
        other = asyncio.create_task(hub.live(ids[1]))
        while len(at_gate) < 2:
            await asyncio.sleep(0.01)
        gates[ids[0]].set()  # ``first`` finishes, then ``other`` evicts it, then ``waiter`` runs
        gates[ids[1]].set()
        await asyncio.gather(first, other)
        got = await waiter
        held = hub._live.get(ids[0])
        await hub.close()
        return got, held

    got, held = asyncio.run(run())
    store.close()
    assert got is held


def test_created_games_store_every_default_option(client: TestClient) -> None:
    """A later change of a game's default cannot change a stored game (TTA's default mode)."""
    body = {"game": "through-the-ages", "players": 2, "seed": 3, "options": {}}
    gid = client.post("/api/games", json=body).json()["game"]["id"]
    assert client.get(f"/api/games/{gid}").json()["options"] == {"mode": "full"}


def test_tta_records_from_before_the_full_game_replay_as_first_games(sqlite_url: str) -> None:
    from civtable.server.hub import rebuild
    from civtable.store.db import NewGame, SeatSpec, Store

    store = Store.open(sqlite_url)
    seats = [SeatSpec("human"), SeatSpec("bot", bot="random")]
    record = store.create_game(NewGame("through-the-ages", 2, seed=3, options={}, seats=seats))
    assert record.options == {}  # as an earlier version stored it
    assert rebuild(record, []).options["mode"] == "first"  # type: ignore[attr-defined]
