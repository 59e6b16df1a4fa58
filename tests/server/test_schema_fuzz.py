"""Property-based API test (issue 23): schemathesis over the OpenAPI document, in process.

Every operation of ``/openapi.json`` gets generated requests, valid and malformed (schemathesis'
positive and negative modes). Whatever they hold, the server answers below 500, and a refused
request (4xx) leaves the stored games exactly as they were. The game-id path parameter is
pointed at a real game in progress for most cases, so moves, joins and starts reach the hub
instead of stopping at 404.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.python.asgi import get_client
from sqlalchemy import func, select

from civtable.games import REGISTRY
from civtable.games import get as get_game
from civtable.server.app import create_app
from civtable.server.limits import ClientLimits
from civtable.store import Store
from civtable.store.schema import games, moves, seats

_GAMES: dict[str, Any] = {}


@pytest.fixture(scope="module")
def api_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One app on a fresh SQLite file, with a 7 Wonders game in progress (two humans, one bot)."""
    path = Path(tmp_path_factory.mktemp("schema")) / "civtable.db"
    store = Store.open(f"sqlite:///{path}")
    app = create_app(store=store)
    # schemathesis' own in-process client: the app's lifespan (and its bots) runs once, on the
    # event loop the generated requests use too
    with get_client(app) as client:
        body = {
            "game": "seven-wonders",
            "players": 3,
            "seed": 5,
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}],
            "take_seat": 0,
        }
        created = client.post("/api/games", json=body).json()
        game_id = created["game"]["id"]
        client.post(f"/api/games/{game_id}/join", json={"seat": 1})
        _GAMES["id"] = game_id
        _GAMES["token"] = created["token"]
        _GAMES["store"] = store
    yield app
    store.close()


def _document() -> dict[str, Any]:
    """The OpenAPI document (built by an app on an empty in-memory store)."""
    store = Store.open("sqlite://", migrate=False)
    try:
        doc: dict[str, Any] = create_app(store=store).openapi()
    finally:
        store.close()
    return doc


DOCUMENT = _document()
SCHEMA = schemathesis.openapi.from_dict(DOCUMENT)
OPERATIONS = [(op.method.upper(), op.path) for op in (r.ok() for r in SCHEMA.get_all_operations())]


def _malformable(method: str, path: str) -> bool:
    """Can a request of this operation be malformed? Only if it has a body or a parameter with a
    type or constraint (any string is a valid game id, and an operation without parameters
    cannot be got wrong)."""
    op = DOCUMENT["paths"][path][method.lower()]
    if "requestBody" in op:
        return True
    for param in op.get("parameters", []):
        schema = param.get("schema", {})
        if schema.get("type") != "string" or set(schema) - {"type", "title"}:
            return True
    return False


CASES = [
    (method, path, mode)
    for method, path in OPERATIONS
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    if mode == GenerationMode.POSITIVE or _malformable(method, path)
]


def _snapshot(store: Store) -> tuple[Any, ...]:
    """What a refused request must not change: every game row, seat and the number of moves."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(games.c.id, games.c.status, games.c.seq).order_by(games.c.id)
        ).all()
        count = conn.execute(select(func.count()).select_from(moves)).scalar_one()
        held = conn.execute(
            select(seats.c.game_id, seats.c.seat, seats.c.kind, seats.c.token_hash).order_by(
                seats.c.game_id, seats.c.seat
            )
        ).all()
    return (tuple(tuple(r) for r in rows), count, tuple(tuple(r) for r in held))


@pytest.mark.parametrize(
    ("method", "path", "mode"), CASES, ids=[f"{o.value}-{m} {p}" for m, p, o in CASES]
)
def test_no_request_gets_a_server_error_and_refusals_change_nothing(
    api_app: Any, method: str, path: str, mode: Any
) -> None:
    """Issue 23: every generated request, valid or malformed, is answered below 500; a 4xx
    answer leaves the stored games, seats and moves as they were."""
    operation = SCHEMA[path][method]
    store: Store = _GAMES["store"]

    @settings(
        max_examples=12,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def check(case: Any) -> None:
        params = case.path_parameters or {}
        pick = zlib.crc32(repr((case.body, case.query)).encode())
        headers = {}
        if "game_id" in params and pick % 4:
            params["game_id"] = _GAMES["id"]
            if pick % 4 != 3:  # the seat's own token, so that the request reaches the hub
                headers["Authorization"] = f"Bearer {_GAMES['token']}"
            if case.query and pick % 3:
                case.query.pop("lang", None)
        before = _snapshot(store)
        response = case.call(app=api_app, headers=headers)
        what = (case.method, case.formatted_path, case.body, response.status_code, response.text)
        assert response.status_code < 500, what
        if 400 <= response.status_code < 500:
            assert _snapshot(store) == before, what

    check()


# --- game options: the one free-form part of the schema -------------------------------------------
PLAYABLE = sorted(g for g, info in REGISTRY.items() if info.module is not None)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
)
_json = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@pytest.mark.parametrize("game_id", PLAYABLE)
def test_any_options_get_201_or_a_clear_4xx_and_the_game_stays_readable(
    game_id: str, sqlite_url: str
) -> None:
    """The game options are a free JSON object in the schema, so schemathesis cannot reach the
    engines' option checks: here each known option key (and unknown ones) gets any JSON value,
    NaN and Infinity included (Python's JSON reader accepts them). The answer is 201 or a 4xx
    with a code; a refused one stores nothing; a created game is readable afterwards."""
    from fastapi.testclient import TestClient

    game = get_game(game_id)
    keys = [*sorted(game.default_options()), "x"]
    presets = [dict(p) for p in (getattr(game, "option_presets", None) or {}).values()]
    options = st.one_of(
        st.dictionaries(st.sampled_from(keys), _json, max_size=3),
        st.sampled_from(presets or [{}]).flatmap(
            lambda base: st.dictionaries(st.sampled_from(keys), _json, max_size=1).map(
                lambda extra: {**base, **extra}
            )
        ),
    )
    store = Store.open(sqlite_url)
    app = create_app(store=store, client_limits=ClientLimits(games_per_hour=0))

    @settings(max_examples=40, deadline=None, derandomize=True, database=None)
    @given(opts=options, players=st.integers(game.min_players, game.max_players))
    def check(opts: dict[str, Any], players: int) -> None:
        body = {"game": game_id, "players": players, "options": opts, "seed": 1}
        raw = json.dumps(body, allow_nan=True)  # NaN and Infinity as JavaScript writes them
        before = _snapshot(store)
        r = client.post("/api/games", content=raw, headers={"content-type": "application/json"})
        assert r.status_code in (201, 400, 422), (opts, r.status_code, r.text)
        if r.status_code != 201:
            assert r.json()["code"], r.text
            assert _snapshot(store) == before, opts
            return
        gid = r.json()["game"]["id"]
        assert client.get(f"/api/games/{gid}").status_code == 200
        assert client.get("/api/games", params={"limit": 5}).status_code == 200

    try:
        with TestClient(app) as client:
            check()
    finally:
        store.close()


# --- the WebSocket's first message: outside the OpenAPI document ---------------------------------
_hello_values = st.one_of(_json, st.text(max_size=40), st.sampled_from(["en", "ru", "uk", "xx"]))
_hellos = st.one_of(
    st.dictionaries(st.sampled_from(["token", "lang", "seat", "x"]), _hello_values, max_size=3).map(
        lambda d: json.dumps(d, allow_nan=True)
    ),
    _json.map(lambda v: json.dumps(v, allow_nan=True)),
    st.text(max_size=30),  # not JSON at all, lone surrogates included
)


def test_any_first_socket_message_gets_a_state_or_an_error_and_a_4xxx_close(
    sqlite_url: str,
) -> None:
    """Whatever a client sends first (any JSON, any token or language of any type, text that is
    not JSON), the server answers with the state (a spectator's hello) or closes with a 4xxx code
    (after an error message when the hello was JSON); it never drops the connection (1006) or
    fails (1011). Issue 23, abuse item 4."""
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    store = Store.open(sqlite_url)
    app = create_app(store=store)

    @settings(max_examples=60, deadline=None, derandomize=True, database=None)
    @given(hello=_hellos)
    def check(hello: str) -> None:
        with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_text(hello)
            code: int | None = None
            try:
                first = ws.receive_json()
            except WebSocketDisconnect as closed:
                code = closed.code
            if code is not None:  # not JSON: closed at once
                assert 4000 <= code < 5000, (hello, code)
                return
            if first["type"] == "state":
                assert first["you"] is None  # no token takes a seat but a real one
                return
            assert first["type"] == "error", (hello, first)
            assert 400 <= first["status"] < 500, (hello, first)
            with pytest.raises(WebSocketDisconnect) as closed_after:
                ws.receive_json()
            assert closed_after.value.code == 4000 + first["status"], hello

    try:
        with TestClient(app) as client:
            created = client.post(
                "/api/games", json={"game": "seven-wonders", "players": 3, "take_seat": 0}
            ).json()
            gid = created["game"]["id"]
            check()
    finally:
        store.close()
