"""The FastAPI application: JSON API, WebSocket push and the web UI's pages.

``create_app(db_url=...)`` builds an app around a :class:`~civtable.store.Store`; ``civtable
serve`` runs it with uvicorn. The API is documented at ``/docs`` (Swagger UI 5, which reads the
OpenAPI 3.1 document, vendored into ``web/static/vendor/swagger-ui``: no CDN) and
``/openapi.json``. ``/rules/{game}`` serves a game's rules page for players.

Authentication: a seat's secret token goes in ``Authorization: Bearer <token>`` (HTTP) or in the
first WebSocket message ``{"token": "..."}``. Without a token a client is a spectator and sees
``view(None)`` only.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

import orjson
from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from starlette.exceptions import HTTPException as StarletteHTTPException

from civtable import __version__, games, present
from civtable.bots import BotLimits
from civtable.core.api import JSON
from civtable.core.errors import UnknownGameError
from civtable.server import extras
from civtable.server.errors import ApiError, not_found
from civtable.server.hub import SUGGEST_BOT, Hub, encode_json
from civtable.server.limits import ClientLimits, Limiter
from civtable.server.metrics import CONTENT_TYPE, Observer, ServerMetrics, instrument
from civtable.store import SeatSpec, Store

log = logging.getLogger("civtable.server")

#: largest request body accepted (bytes); bigger ones get 413
MAX_BODY = 64 * 1024

#: Content-Security-Policy of the UI pages: everything from this origin, nothing else
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def static_dir() -> Path:
    """The web UI's files (``civtable/web/static``)."""
    return Path(str(resources.files("civtable.web").joinpath("static")))


# --- request bodies -------------------------------------------------------------------------------
class SeatIn(BaseModel):
    """How a seat is filled."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["human", "bot"] = "human"
    bot: str | None = Field(default=None, max_length=64, description="bot name for a bot seat")
    name: str = Field(default="", max_length=60)


class CreateGameIn(BaseModel):
    """A new game: the creator may take a seat at once (``take_seat``)."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(default="seven-wonders", max_length=64, description="game id")
    players: StrictInt = Field(ge=1, le=16)
    seats: list[SeatIn] | None = Field(
        None, max_length=16, description="one per player; default: all human"
    )
    options: dict[str, Any] = Field(default_factory=dict, description="game options")
    seed: StrictInt | None = Field(default=None, ge=0, lt=2**62, description="default: random")
    name: str = Field(default="", max_length=120)
    take_seat: StrictInt | None = Field(default=None, description="the creator's seat (token)")
    player_name: str = Field(default="", max_length=60)
    autostart: bool = Field(default=True, description="start as soon as every seat is taken")
    suggestions: bool | None = Field(
        default=None,
        description="may players ask a bot to suggest a move (default: only when at most one "
        "seat is a person)",
    )


class JoinIn(BaseModel):
    """Take a free seat (the first free one if ``seat`` is omitted)."""

    model_config = ConfigDict(extra="forbid")
    seat: StrictInt | None = None
    name: str = Field(default="", max_length=60)


class StartIn(BaseModel):
    """Start now; free seats become ``fill_with`` bots (refused if seats are free without it)."""

    model_config = ConfigDict(extra="forbid")
    fill_with: str | None = Field(default=None, max_length=64)


class MoveIn(BaseModel):
    """One decision: the action id and the ``seq`` of the payload the client acted on."""

    model_config = ConfigDict(extra="forbid")
    seq: StrictInt = Field(ge=0)
    action: StrictInt
    #: the ``tentative`` of that payload (the sender's steps of a compound move in progress);
    #: optional, and with several server processes it spares the server a database read
    #: when it agrees with the server's copy
    tentative: StrictInt | None = Field(default=None, ge=0)


class SuggestIn(BaseModel):
    """Ask for suggested moves for the position ``seq`` (your current decision)."""

    model_config = ConfigDict(extra="forbid")
    seq: StrictInt = Field(ge=0)


class CancelIn(BaseModel):
    """Withdraw tentative steps of a compound move: the last ``steps`` of them, or all."""

    model_config = ConfigDict(extra="forbid")
    seq: StrictInt = Field(ge=0)
    steps: StrictInt | None = Field(default=None, ge=1, description="default: the whole move")


class MyGamesIn(BaseModel):
    """The tokens a browser holds."""

    model_config = ConfigDict(extra="forbid")
    tokens: list[Annotated[str, Field(max_length=100)]] = Field(max_length=200)


def _socket_message(message: str) -> JSON | None:
    """A client's JSON object on the push socket (``{"type": "full"}``, ``{"type": "move",
    ...}``); None for anything else (ignored, as before)."""
    if not message.startswith("{") or len(message) > 1000:
        return None
    try:
        doc = orjson.loads(message)
    except orjson.JSONDecodeError:
        return None
    return doc if isinstance(doc, dict) else None


def _plain_ref(ref: Any) -> bool:
    """May a socket move's ``ref`` be echoed: an integer or a short string."""
    return (type(ref) is int and abs(ref) < 2**53) or (isinstance(ref, str) and len(ref) <= 64)


def _json_text(text: str) -> Response:
    """An already encoded JSON answer (payloads are encoded once per view and version)."""
    return Response(content=text, media_type="application/json")


# --- middleware ---
class StaticHeaders:
    """Cache headers of ``/static/``: vendored files a day, the site's own ``no-cache``; and
    ``nosniff`` on both. Plain ASGI (a ``BaseHTTPMiddleware`` costs every request a task)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """ASGI entry point."""
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if not path.startswith("/static/"):
            await self.app(scope, receive, send)
            return
        cache = b"public, max-age=86400" if path.startswith("/static/vendor/") else b"no-cache"

        async def headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if k.lower() not in (b"cache-control", b"x-content-type-options")
                ]
                headers += [(b"cache-control", cache), (b"x-content-type-options", b"nosniff")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, headed)


# --- request bodies -----------------------------------------------------------------------------
class _TooLargeError(Exception):
    pass


#: seconds a client has to send a request's whole body once the request has started
BODY_TIMEOUT = 10.0


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413 (declared or streamed), and bodies
    that do not arrive within ``timeout`` seconds with 408 (a client that declares
    ``Content-Length: 1000`` and sends one byte does not hold a connection for ever)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY, timeout: float = BODY_TIMEOUT) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """ASGI entry point."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", []):
            if key == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared > self.limit or declared < 0:
                    await self._refuse(send)
                    return
        seen = 0
        started = False
        deadline = asyncio.get_running_loop().time() + self.timeout
        body_done = False
        timed_out = False

        async def limited() -> Message:
            nonlocal seen, body_done, timed_out
            if body_done or timed_out:
                return await receive()  # after the body: only a disconnect may come
            try:
                # (a deadline on this task: ``wait_for`` cost a task per receive on 3.11)
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                timed_out = True  # the app sees a disconnect; the client gets our 408
                return {"type": "http.disconnect"}
            if message["type"] == "http.request":
                body_done = not message.get("more_body", False)
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLargeError
            return message

        async def tracking(message: Message) -> None:
            nonlocal started
            if timed_out:
                return  # whatever the app makes of the missing body, the answer is 408
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited, tracking)
        except _TooLargeError:
            if not started:
                await self._refuse(send)
        except Exception:
            if not timed_out:
                raise
        if timed_out and not started:
            detail = f"the request body did not arrive within {self.timeout:g} s"
            await self._refuse(send, 408, "body_timeout", detail)

    async def _refuse(
        self, send: Send, status: int = 413, code: str = "too_large", detail: str = ""
    ) -> None:
        body = json.dumps(
            {
                "detail": detail or f"request body too large (limit {self.limit} bytes)",
                "code": code,
                "status": status,
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


# --- moves without FastAPI's request machinery ----------------------------------------------
_MOVE_PATH = re.compile(r"/api/games/([^/]+)/moves")
_MOVE_KEYS = frozenset(("seq", "action", "tentative"))


def move_fields(doc: Any) -> tuple[int, int, int | None] | None:
    """``(seq, action, tentative)`` of a move body exactly as :class:`MoveIn` accepts it (an
    object with integer ``seq`` ≥ 0 and ``action``, optional ``tentative`` ≥ 0 or null, no
    other key); None for anything else."""
    if not isinstance(doc, dict) or not doc.keys() <= _MOVE_KEYS:
        return None
    seq, action, tentative = doc.get("seq"), doc.get("action"), doc.get("tentative")
    if type(seq) is not int or seq < 0 or type(action) is not int:
        return None
    if tentative is not None and (type(tentative) is not int or tentative < 0):
        return None
    return seq, action, tentative


class FastMoves:
    """``POST /api/games/{game_id}/moves`` answered without FastAPI's per-request machinery
    (router, dependencies, body validation, response handling: about a fifth of the server's
    CPU per move, issue 23), for the requests whose answer it gives exactly as the route does:
    a JSON body that :func:`move_fields` accepts, ``Content-Type: application/json``, a
    ``Bearer`` token and no query string. Anything else (a malformed body, ``?lang=``, no
    token, ...) goes to the route, with the body it sent. The route stays the documented API
    (OpenAPI); the metrics and logs see the same route and game id."""

    def __init__(self, app: ASGIApp, hub: Hub, route: Callable[[], Any]) -> None:
        self.app = app
        self.hub = hub
        #: the route object of the move (what the metrics read from ``scope["route"]``)
        self.route = route

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """ASGI entry point."""
        if scope["type"] != "http" or scope.get("method") != "POST" or scope.get("query_string"):
            await self.app(scope, receive, send)
            return
        found = _MOVE_PATH.fullmatch(scope.get("path", ""))
        if found is None:
            await self.app(scope, receive, send)
            return
        token = content_type = None
        for key, value in scope.get("headers", ()):
            if key == b"authorization" and token is None:
                scheme, _, param = value.decode("latin-1").partition(" ")
                token = param.strip() if scheme.lower() == "bearer" else ""
            elif key == b"content-type" and content_type is None:
                content_type = value.split(b";", 1)[0].strip().lower()
        messages: list[Message] = []
        chunks: list[bytes] = []
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        fields = None
        if token and content_type == b"application/json" and messages[-1]["type"] == "http.request":
            try:
                fields = move_fields(orjson.loads(b"".join(chunks)))
            except orjson.JSONDecodeError:
                fields = None
        if fields is None:  # the route answers it, reading the body as it came
            pending = iter(messages)

            async def replay() -> Message:
                return next(pending, None) or await receive()

            await self.app(scope, replay, send)
            return
        game_id = found.group(1)
        scope["route"] = self.route()
        scope["path_params"] = {"game_id": game_id}
        seq, action, tentative = fields
        try:
            text = await self.hub.move_encoded(game_id, token, seq, action, tentative=tentative)
        except ApiError as exc:
            await JSONResponse(exc.to_json(), status_code=exc.status)(scope, receive, send)
            return
        await _json_text(text)(scope, receive, send)


# --- the app --------------------------------------------------------------------------------------
bearer = HTTPBearer(auto_error=False, description="the seat token from create/join")


# dependencies are ``async``: FastAPI runs a plain ``def`` one in a worker thread, per request
async def _token(
    creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> str | None:
    return creds.credentials if creds is not None else None


Token = Annotated[str | None, Depends(_token)]


async def _lang(
    lang: Annotated[
        str | None,
        Query(
            max_length=16,
            description="add the player words of the view (`words`) in this language",
        ),
    ] = None,
) -> str | None:
    if lang is None:
        return None
    try:
        return present.check_language(lang)
    except present.UnknownLanguageError as exc:
        raise ApiError(422, "unknown_language", str(exc)) from exc


Lang = Annotated[str | None, Depends(_lang)]


def _client(request: Request) -> str:
    return request.client.host if request.client else "?"


def _links(game_id: str, token: str | None) -> JSON:
    links: JSON = {"table": f"/game/{game_id}", "spectate": f"/game/{game_id}?spectate=1"}
    if token:
        links["seat"] = f"/game/{game_id}#token={token}"
    return links


#: what a rules fragment may not contain: it is HTML written for players, without scripts
_UNSAFE = re.compile(r"<\s*(script|iframe|object|embed|form)\b|\bon[a-z]+\s*=|javascript:", re.I)


def rules_fragment(web: Path, game_id: str, lang: str) -> tuple[str, str]:
    """The rules fragment of a game in ``lang`` (or English) and the language it is in; raises
    :class:`ApiError` 404 for an unknown game or one without a rules page."""
    try:
        info = games.REGISTRY[game_id]
    except KeyError:
        raise not_found(f"no game {game_id!r}") from None
    pkg = info.id.replace("-", "_")
    for code in dict.fromkeys((lang, present.SOURCE_LANGUAGE)):
        path = web / "rules" / f"{pkg}.{code}.html"
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            if _UNSAFE.search(text):
                raise ApiError(500, "unsafe_rules", f"the rules page of {game_id} has a script")
            return text, code
    raise not_found(f"{info.name} has no rules page yet")


def rules_response(web: Path, game_id: str, request: Request, lang: str | None) -> Response:
    """The rules page: the fragment inside the site's chrome, served with the pages' CSP."""
    if lang is not None and lang not in present.languages():
        lang = None
    chosen = lang or present.negotiate(request.headers.get("accept-language"))
    try:
        body, code = rules_fragment(web, game_id, chosen)
    except ApiError as exc:
        return JSONResponse(exc.to_json(), status_code=exc.status)
    tr = present.translator(code)
    name = present.game_name(game_id, tr, games.REGISTRY[game_id].name)
    template = (web / "rules.html").read_text(encoding="utf-8")
    title = html.escape(tr.t("rules.title", game=name))
    doc = (
        template.replace("{lang}", code)
        .replace("{title}", title)
        .replace("{lobby}", html.escape(tr.t("nav.lobby")))
        .replace("{game}", html.escape(game_id))
        .replace("{body}", body)
    )
    return HTMLResponse(doc, headers={"Content-Security-Policy": CSP, "Cache-Control": "no-cache"})


def create_app(
    db_url: str | None = None,
    *,
    store: Store | None = None,
    bot_delay: float = 0.0,
    bot_workers: int = 2,
    bot_processes: int = 0,
    bot_limits: BotLimits | None = None,
    body_timeout: float = BODY_TIMEOUT,
    client_limits: ClientLimits | None = None,
    suggest_bot: str = SUGGEST_BOT,
) -> FastAPI:
    """The web application on the store at ``db_url`` (or an open ``store``).

    ``bot_processes``: bot worker processes for the searching bots (``civtable serve`` starts
    two); 0 keeps them in ``bot_workers`` threads of this process."""
    owned = store is None
    the_store = store if store is not None else Store.open(db_url)
    hub = Hub(
        the_store,
        bot_delay=bot_delay,
        bot_workers=bot_workers,
        bot_processes=bot_processes,
        bot_limits=bot_limits,
        suggest_bot=suggest_bot,
    )
    limiter = Limiter(client_limits or ClientLimits())
    metrics = ServerMetrics()
    instrument(metrics, hub, the_store)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.resume()
        try:
            yield
        finally:
            log.info(
                "shutting down: stopping bots",
                extra={"event": "shutdown", "live_games": len(hub.held_games())},
            )
            await hub.close()
            if owned:
                the_store.close()

    app = FastAPI(
        title="civtable",
        version=__version__,
        summary="Play civilization board games in the browser: lobby, moves, push, replays.",
        description=(
            "Every payload about a game is built from the engine's per-seat view. Send the "
            "seat token as `Authorization: Bearer <token>`; without it you are a spectator. "
            "Moves carry the `seq` of the payload they answer; a stale one gets 409. "
            'Push: connect to `/api/games/{id}/ws` and send `{"token": ...}` (or `{}`). The '
            "first push is the whole payload (`type: state`); later ones are deltas (`type: "
            "delta`) on the payload sent before (`base` = its `version`): the new view, whose "
            "`log` (and the words' `log`) holds only the entries after the first `log_from` "
            '(`words_log_from`) kept from before. Send `{"type": "full"}` for the whole payload. '
            'A seat may send its moves on the socket too: `{"type": "move", "seq": ..., "action": '
            '..., "tentative": ..., "ref": ...}` (the body of `POST .../moves` plus an optional '
            '`ref`), checked as that route checks it and answered by `{"type": "move_result", '
            '"ref": ..., "status": 200, "seq": ..., "version": ..., "tentative": ...}` or by the '
            "route's error (`status`, `code`, `detail`); the new payload comes as the next push."
        ),
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.store = the_store
    app.state.metrics = metrics
    # innermost: inside the metrics and the body limits, which it relies on
    routes: dict[str, Any] = {}  # the move's route, once it is defined below
    app.add_middleware(FastMoves, hub=hub, route=lambda: routes["move"])
    app.add_middleware(BodyLimit, limit=MAX_BODY, timeout=body_timeout)
    # outermost: it also sees the 413 and 408 answers of BodyLimit
    app.add_middleware(Observer, metrics=metrics)

    # --- errors -----------------------------------------------------------------------------
    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            first = next(e for e in errors if e.get("type") == "json_invalid")
            ctx = first.get("ctx") or {}
            msg = f"malformed JSON: {ctx.get('error', 'cannot parse the body')}"
            return JSONResponse({"detail": msg, "code": "bad_json", "status": 400}, 400)
        parts = []
        for e in errors[:5]:
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
            parts.append(f"{where}: {e.get('msg', 'invalid')}")
        body = {"detail": "invalid request: " + "; ".join(parts), "code": "invalid_request"}
        return JSONResponse({**body, "status": 422}, 422)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else "error"
        if exc.status_code == 404:
            detail = "not found"
        body = {"detail": detail, "code": f"http_{exc.status_code}", "status": exc.status_code}
        return JSONResponse(body, exc.status_code, headers=getattr(exc, "headers", None))

    # --- games and bots -----------------------------------------------------------------------
    @app.get("/api/game-types", tags=["catalog"])
    async def game_types() -> JSON:
        """Registered games (playable or planned), their player counts and default options."""
        out = []
        for info in games.REGISTRY.values():
            doc: JSON = {"id": info.id, "name": info.name, "players": info.players}
            doc["playable"] = info.module is not None
            if info.module is not None:
                game = games.get(info.id)
                doc["min_players"] = game.min_players
                doc["max_players"] = game.max_players
                doc["default_options"] = game.default_options()
                # named option sets the lobby offers (rule variants, first game, ...)
                doc["option_presets"] = dict(getattr(game, "option_presets", None) or {})
            out.append(doc)
        return {"games": out, "bots": hub.bot_limits.offered()}

    @app.get("/api/languages", tags=["catalog"])
    async def languages(request: Request) -> JSON:
        """The languages civtable speaks, and the best one for this browser's Accept-Language."""
        return {
            "languages": [
                {"code": c, "name": present.language_name(c)} for c in present.languages()
            ],
            "default": present.negotiate(request.headers.get("accept-language")),
            "domains": list(present.domains()),
        }

    @app.get("/api/i18n/{lang}", tags=["catalog"])
    async def messages(
        lang: str,
        domain: Annotated[
            list[str] | None, Query(max_length=16, description="catalogue domains; default all")
        ] = None,
    ) -> JSON:
        """The message catalogue of one language, as the browser's ``i18n.js`` reads it."""
        try:
            return present.browser_catalog(lang, domain)
        except present.UnknownLanguageError as exc:
            raise not_found(str(exc)) from exc
        except present.MessageError as exc:
            raise ApiError(422, "unknown_domain", str(exc)) from exc

    @app.get("/api/game-types/{game_id}/catalog", tags=["catalog"])
    async def catalog(game_id: str, lang: Lang) -> JSON:
        """Card and board data for the UI, built from the game's catalog (names and texts in
        ``lang``, default English)."""
        try:
            return extras.catalog(game_id, lang or present.SOURCE_LANGUAGE)
        except UnknownGameError as exc:
            raise not_found(str(exc)) from exc

    # --- lobby ----------------------------------------------------------------------------------
    @app.get("/api/games", tags=["lobby"])
    async def list_games(
        status: Annotated[Literal["lobby", "active", "over"] | None, Query()] = None,
        limit: Annotated[int, Query(ge=1, le=500)] = 100,
    ) -> JSON:
        """Stored games, most recent first (public facts only)."""
        return {"games": await hub.list_games(status, limit)}

    @app.post("/api/games", status_code=201, tags=["lobby"])
    async def create_game(body: CreateGameIn, request: Request) -> JSON:
        """Create a game. With ``take_seat`` the answer holds that seat's secret token.
        One address may create a limited number of games an hour (429 beyond)."""
        seats = body.seats or [SeatIn() for _ in range(body.players)]
        client = _client(request)
        limiter.game_created(client)
        try:
            created = await _create(body, seats)
        except BaseException:
            limiter.forget_game(client)
            raise
        return created

    async def _create(body: CreateGameIn, seats: list[SeatIn]) -> JSON:
        summary, seat, token = await hub.create(
            game_id=body.game,
            players=body.players,
            seats=[SeatSpec(s.kind, s.bot, s.name) for s in seats],
            options=body.options,
            seed=body.seed,
            name=body.name,
            take_seat=body.take_seat,
            player_name=body.player_name,
            autostart=body.autostart,
            suggestions=body.suggestions,
        )
        links = _links(summary["id"], token)
        return {"game": summary, "seat": seat, "token": token, "links": links}

    @app.get("/api/games/{game_id}", tags=["lobby"])
    async def get_game(game_id: str) -> JSON:
        """Public facts about one game: seats, status, sequence number."""
        return hub.summary((await hub.fresh(game_id)).record)

    @app.post("/api/games/{game_id}/join", tags=["lobby"])
    async def join_game(game_id: str, body: JoinIn) -> JSON:
        """Take a free seat; the answer holds its secret token (keep it: it is shown once)."""
        summary, seat, token = await hub.join(game_id, body.seat, body.name)
        return {"game": summary, "seat": seat, "token": token, "links": _links(game_id, token)}

    @app.post("/api/games/{game_id}/start", tags=["lobby"])
    async def start_game(game_id: str, body: StartIn, token: Token) -> JSON:
        """Start a game waiting in the lobby (any seated player may)."""
        return await hub.start(game_id, token, body.fill_with)

    @app.post("/api/my-games", tags=["lobby"])
    async def my_games(body: MyGamesIn) -> JSON:
        """The games these seat tokens hold (a browser keeps its tokens locally)."""
        return {"games": await hub.my_games(body.tokens)}

    # --- play -----------------------------------------------------------------------------------
    @app.get("/api/games/{game_id}/state", tags=["play"], response_model=JSON)
    async def game_state(game_id: str, token: Token, lang: Lang) -> Response:
        """The current payload: ``view(seat)`` for a seat token, ``view(None)`` without one."""
        live = await hub.fresh(game_id)
        seat = hub.seat_of(live, token) if token else None
        return _json_text(hub.encoded(live, seat, lang))

    @app.post("/api/games/{game_id}/moves", tags=["play"], response_model=JSON)
    async def post_move(game_id: str, body: MoveIn, token: Token, lang: Lang) -> Response:
        """Make a decision. Answered once the move is committed to the store — or, for a step
        that leaves a compound move open, once it is held as a tentative step (``tentative`` in
        the answer counts them; nobody else sees them; ``/cancel`` withdraws them)."""
        return _json_text(
            await hub.move_encoded(
                game_id, token, body.seq, body.action, lang, tentative=body.tentative
            )
        )

    routes["move"] = app.routes[-1]  # (FastMoves sets it as the route of the moves it answers)
    assert getattr(routes["move"], "path", "") == "/api/games/{game_id}/moves"

    @app.post("/api/games/{game_id}/suggest", tags=["play"])
    async def suggest_move(game_id: str, body: SuggestIn, token: Token, lang: Lang) -> JSON:
        """The bot's three best moves for your current decision, with visits and estimated win
        rates, searched from your view only (403 ``suggestions_off`` if the table's creator
        did not allow suggestions; 409 when you have no decision to make). Changes nothing."""
        return await hub.suggest(game_id, token, body.seq, lang)

    @app.post("/api/games/{game_id}/cancel", tags=["play"])
    async def cancel_move(game_id: str, body: CancelIn, token: Token, lang: Lang) -> JSON:
        """Withdraw the tentative steps of your compound move in progress (all, or the last
        ``steps``); nothing was stored and nobody else saw them."""
        return await hub.cancel(game_id, token, body.seq, body.steps, lang)

    @app.websocket("/api/games/{game_id}/ws")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        """Push channel: send ``{"token": ..., "lang": ...}`` (or ``{}`` to spectate) first."""
        await websocket.accept()
        client = websocket.client.host if websocket.client else "?"
        try:
            limiter.socket_opened(client)
        except ApiError as exc:
            await websocket.send_json({"type": "error", **exc.to_json()})
            await websocket.close(code=4000 + exc.status)
            return
        try:
            await _socket(websocket, game_id)
        finally:
            limiter.socket_closed(client)

    async def _socket(websocket: WebSocket, game_id: str) -> None:
        try:
            hello = await asyncio.wait_for(websocket.receive_json(), timeout=15)
        except (TimeoutError, WebSocketDisconnect, ValueError, KeyError):
            with contextlib.suppress(Exception):
                await websocket.close(code=4400)
            return
        try:
            if not isinstance(hello, dict):
                raise ApiError(400, "bad_hello", "the first message is a JSON object")
            token = hello.get("token")
            if token is not None and not (isinstance(token, str) and token.isascii()):
                raise ApiError(400, "bad_token", "a seat token is a string")
            lang = hello.get("lang")
            if lang is not None:
                try:
                    lang = present.check_language(lang)
                except present.UnknownLanguageError as exc:
                    raise ApiError(422, "unknown_language", str(exc)) from exc
            live = await hub.fresh(game_id)
            seat = hub.seat_of(live, token) if token else None
            if seat is None:
                limiter.check_spectators(sum(s.seat is None for s in live.subscribers))
        except ApiError as exc:
            await websocket.send_json({"type": "error", **exc.to_json()})
            await websocket.close(code=4000 + exc.status)
            return
        sub = hub.subscribe(live, seat, lang)

        async def sender() -> None:
            while True:
                await websocket.send_text(await hub.next_message(live, sub))

        async def receiver() -> None:
            while True:
                message = await websocket.receive_text()
                if message == "ping":
                    await websocket.send_text("pong")
                    continue
                doc = _socket_message(message)
                if doc is None:
                    continue
                if doc.get("type") == "full":
                    hub.resend(live, sub)
                elif doc.get("type") == "move":
                    await websocket.send_text(await _socket_move(game_id, token, doc))

        tasks = [asyncio.create_task(sender()), asyncio.create_task(receiver())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            hub.unsubscribe(live, sub)
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            with contextlib.suppress(Exception):
                await websocket.close()

    async def _socket_move(game_id: str, token: str | None, doc: JSON) -> str:
        """A move sent on the socket: checked and made as ``POST .../moves`` makes it, answered
        with a ``move_result`` (the ``ref`` the client gave; ``status`` 200 with the new
        ``seq``, ``version`` and ``tentative``, or the status, ``code`` and ``detail`` the
        route would answer with). The new payload itself comes as the next push."""
        ref = doc.get("ref")
        out: JSON = {"type": "move_result", "ref": ref if _plain_ref(ref) else None}
        fields = move_fields({k: v for k, v in doc.items() if k not in ("type", "ref")})
        if fields is None:
            out.update(
                detail="invalid move: an object with seq (an integer ≥ 0), action (an integer) "
                "and optionally tentative (an integer ≥ 0)",
                code="invalid_request",
                status=422,
            )
            return encode_json(out)
        seq, action, tentative = fields
        started = time.perf_counter()
        try:
            out.update(await hub.move_ack(game_id, token, seq, action, tentative=tentative))
        except ApiError as exc:
            out.update(exc.to_json())
        metrics.move_seconds.observe(time.perf_counter() - started, metrics.game_type(game_id))
        return encode_json(out)

    # --- replays --------------------------------------------------------------------------------
    @app.get("/api/games/{game_id}/replay", tags=["replay"])
    async def replay(game_id: str) -> JSON:
        """A finished game's setup and every move with its label (civtable-replay format)."""
        return await hub.replay_index(game_id)

    @app.get("/api/games/{game_id}/replay/{step}", tags=["replay"])
    async def replay_step(
        game_id: str,
        step: int,
        lang: Lang,
        seat: Annotated[int | None, Query(description="whose view; omit for a spectator")] = None,
    ) -> JSON:
        """The view after ``step`` moves of a finished game. With ``lang``: its player words
        (``words``) and the move that led to it (``move``: seat, action and its label as its
        mover read it)."""
        return await hub.replay_view(game_id, step, seat, lang)

    @app.get("/healthz", tags=["meta"])
    async def healthz() -> JSON:
        """Liveness and the database in use."""
        return {"ok": True, "version": __version__, "database": the_store.dialect}

    @app.get("/metrics", include_in_schema=False)
    async def metrics_page() -> Response:
        """Prometheus text exposition of this process's metrics (:mod:`.metrics`)."""
        return Response(metrics.render(), media_type=CONTENT_TYPE)

    # --- docs and pages -------------------------------------------------------------------------
    web = static_dir()

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Response:
        return page("apidocs.html")

    @app.get("/rules/{game_id}", include_in_schema=False)
    async def rules_page(game_id: str, request: Request, lang: str | None = None) -> Response:
        """A game's rules for players: the fragment ``rules/<pkg>.<lang>.html`` (English when
        the language has none) inside the site's page."""
        return rules_response(web, game_id, request, lang)

    def page(name: str) -> Response:
        return FileResponse(
            web / name,
            media_type="text/html",
            headers={"Content-Security-Policy": CSP, "Cache-Control": "no-cache"},
        )

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> Response:
        return page("index.html")

    @app.get("/game/{game_id}", include_in_schema=False)
    async def table_page(game_id: str) -> Response:
        return page("game.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> Response:
        return page("replay.html")

    app.add_middleware(StaticHeaders)

    app.mount("/static", StaticFiles(directory=web), name="static")
    return app
