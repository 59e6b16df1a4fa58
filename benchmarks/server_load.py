"""Server load: many live games at once, human seats driven over HTTP and WebSocket.

Starts ``civtable serve`` on a fresh SQLite file in a temporary directory, creates ``--games``
live games (the four games in turn, ``--players`` seats each: seat 0 a person driven from
here, the others ``--bot`` bots), and keeps that many live: a finished game is replaced by a new
one. Every human seat holds a WebSocket subscription; whenever its pushed state offers a
decision, the driver sends a random legal move with the ``seq`` it saw: over HTTP, or for a
share of the seats (``--socket-moves``, default half) on the seat's socket, answered by a
``move_result`` (set it to 0 for a server from before socket moves). A separate task
polls ``/healthz``. After ``--warmup`` seconds it measures for ``--seconds`` seconds and prints:

- live games, human moves/s (answered 200), all stored moves/s (rows added to the ``moves``
  table of the database during the window: human and bot moves);
- move latency p50/p99 (POST to answer) and ``/healthz`` latency p50/p99;
- errors: 5xx answers, 4xx other than 409 (a 409 ``stale`` is the normal answer to a view a
  newer push has overtaken; those are counted apart), failed connections and timeouts;
- the CPU seconds of the server and of this driver (both share the machine);
- the first 20 errors in detail (a refused move: the payload it was chosen from, the action and
  the server's answer).

    .venv/bin/python benchmarks/server_load.py --games 50 --seconds 30
    .venv/bin/python benchmarks/server_load.py --games 200 --seconds 60 --json
    .venv/bin/python benchmarks/server_load.py --db postgresql://u:pw@127.0.0.1/db --workers 2

``--db`` measures on a PostgreSQL database instead (its moves are counted before and after the
window, so it need not be empty); ``--workers N`` serves with N processes on it. How requests
reach them: ``--balance connection`` (default) is ``civtable serve --workers N`` on one port,
the kernel handing each connection to any process (so every process holds every game);
``--balance game`` starts N single ``civtable serve`` processes on N ports and sends each game's
requests and sockets to one of them, chosen by the game when it is created (what the ``hash``
balancer of ``docs/deployment.md`` §8 does). The server CPU is then the N processes' sum.

The driver understands both push forms of the server: a whole payload (``type: state``) and a
delta (``type: delta``, what changed since the payload it ``base``-s on); on a gap it asks for
the whole state (``{"type": "full"}``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

GAMES = ("seven-wonders", "through-the-ages", "civilization-a-new-dawn", "deus")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _serve_command() -> list[str]:
    exe = Path(sys.executable).with_name("civtable")
    if exe.exists():
        return [str(exe), "serve"]
    found = shutil.which("civtable")
    return [found, "serve"] if found else [sys.executable, "-m", "civtable.server"]


def _start(
    db: str, port: int, log: Path, extra: list[str], civtable: str | None
) -> subprocess.Popen[bytes]:
    cmd = [
        *([civtable, "serve"] if civtable else _serve_command()),
        "--port",
        str(port),
        "--db",
        db,
        "--log-level",
        "warning",
        "--max-games-per-hour",
        "0",
        "--max-sockets-per-client",
        "0",
        *extra,
    ]
    return start_server(cmd, port, log)


def start_server(
    cmd: list[str], port: int, log: Path, seconds: float = 60
) -> subprocess.Popen[bytes]:
    """Start a server command (its output to ``log``) and wait until ``/healthz`` answers 200;
    exit with the log if it does not within ``seconds``. ``server_moves.py`` uses it too."""
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"server did not start; log:\n{log.read_text()}")


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of a process (and its reaped children) from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def _children_cpu(pid: int) -> float:
    """CPU of the live descendants of ``pid`` (server processes of ``--workers`` and the bot
    worker pools, if any)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(stat[1])
    total = 0.0
    for child in parents:
        up = parents.get(child)
        while up is not None and up != pid:
            up = parents.get(up)
        if up == pid:
            total += _cpu_seconds(child)
    return total


def _takes_tentative(port: int) -> bool:
    """Does the server's move body have ``tentative`` (as the web client sends it)?"""
    doc = httpx.get(f"http://127.0.0.1:{port}/openapi.json", timeout=30).json()
    schema = doc.get("components", {}).get("schemas", {}).get("MoveIn", {})
    return "tentative" in schema.get("properties", {})


def _stored_moves(db: str) -> int:
    """Rows in the ``moves`` table of the database ``db`` (a SQLite file or a PostgreSQL URL)."""
    if db.startswith(("postgresql://", "postgres://")):
        import psycopg

        with psycopg.connect(db) as pg:
            row = pg.execute("SELECT count(*) FROM moves").fetchone()
            return int(row[0]) if row else 0
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        conn.execute("PRAGMA busy_timeout=10000")
        return int(conn.execute("SELECT count(*) FROM moves").fetchone()[0])


class _ClosedBeforeAnswerError(Exception):
    """A connection ended before any byte of the answer."""


class MovePoster:
    """Moves posted over a few kept-alive HTTP/1.1 connections with asyncio streams. httpx took
    three quarters of this driver's CPU (its pool looks at every connection on every request),
    so the figures measured the driver as much as the server. The server answers a move with
    ``Content-Length``; a connection idle for 3 s is not reused (the server closes one after
    5 s).

    That margin is counted on this process's clock from when it read the last answer; a driver
    starved of CPU reads an answer seconds after the server sent it, so a connection it thinks
    idle for under 3 s may be one the server closed already (its kernel then resets the request:
    ``ConnectionResetError``, or an end of stream before any byte). A reused connection that
    fails so, before any byte of the answer, is retried once on a new connection: the server
    never read that request, and a move carries its ``seq``, so a move the server did take is
    refused as stale (409), never made twice. The retries are counted (``keepalive_retries``)."""

    def __init__(self, port: int, connections: int) -> None:
        self.port = port
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter, float]] = []
        self.slots = asyncio.Semaphore(max(1, connections))
        #: requests sent again on a new connection after a reused one was found closed
        self.keepalive_retries = 0

    async def post(self, path: str, token: str, body: bytes) -> tuple[int, bytes]:
        """``POST path`` with a JSON body and the seat's token: (status, body)."""
        async with self.slots:
            conn = None
            while self.idle:
                reader, writer, since = self.idle.pop()
                if time.monotonic() - since < 3 and not reader.at_eof():
                    conn = (reader, writer)
                    break
                writer.close()
            if conn is not None:
                try:
                    return await self._exchange(*conn, path, token, body)
                except (ConnectionResetError, BrokenPipeError, _ClosedBeforeAnswerError):
                    self.keepalive_retries += 1  # closed by the server while idle: once more
            conn = await asyncio.open_connection("127.0.0.1", self.port)
            try:
                return await self._exchange(*conn, path, token, body)
            except _ClosedBeforeAnswerError as exc:
                raise ConnectionError("the server closed a new connection unanswered") from exc

    async def _exchange(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        path: str,
        token: str,
        body: bytes,
    ) -> tuple[int, bytes]:
        """One request and its answer on a connection (kept for reuse if the server keeps
        it); :class:`_ClosedBeforeAnswerError` if it ends before any byte of the answer."""
        try:
            writer.write(
                f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError as exc:
                if exc.partial:
                    raise
                raise _ClosedBeforeAnswerError from exc
            lines = head.split(b"\r\n")
            status = int(lines[0].split(b" ", 2)[1])
            length = 0
            keep = True
            for line in lines[1:]:
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                if name == b"content-length":
                    length = int(value)
                elif name == b"connection" and value.strip().lower() == b"close":
                    keep = False
            data = await reader.readexactly(length)
        except BaseException:
            writer.close()
            raise
        if keep:
            self.idle.append((reader, writer, time.monotonic()))
        else:
            writer.close()
        return status, data

    def close(self) -> None:
        """Close the idle connections."""
        for _, writer, _ in self.idle:
            writer.close()
        self.idle.clear()


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


@dataclass
class Stats:
    """What the driver saw (only what happens inside the measuring window counts)."""

    measuring: bool = False
    human_moves: int = 0
    stale: int = 0
    move_latency: list[float] = field(default_factory=list)
    health_latency: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    games_finished: int = 0
    pushes: int = 0
    push_bytes: int = 0
    full_requests: int = 0
    #: ``/healthz`` polls sent again after their kept-alive connection was found closed
    healthz_retries: int = 0
    #: human moves sent (and answered 200) on the push socket instead of HTTP
    socket_moves: int = 0
    #: moves answered 200 by path over the whole run, warm-up included
    moves_by_path: dict[str, int] = field(default_factory=lambda: {"http": 0, "socket": 0})
    #: the first errors in detail (what was posted from which payload, and the answer)
    details: list[dict[str, Any]] = field(default_factory=list)

    def error(self, kind: str, detail: dict[str, Any] | None = None) -> None:
        """Count an error (always, warm-up included: an error is an error)."""
        self.errors[kind] = self.errors.get(kind, 0) + 1
        if len(self.details) < 20:
            self.details.append({"kind": kind, "at": round(time.monotonic(), 3), **(detail or {})})


def merge(held: dict[str, Any] | None, msg: dict[str, Any]) -> dict[str, Any] | None:
    """The payload after a push: a whole one replaces, a delta extends the one it is based on
    (None: the delta does not fit what is held, ask for the whole state)."""
    if msg.get("type") != "delta":
        return msg
    if held is None or held.get("version") != msg.get("base"):
        return None
    doc = dict(msg)
    doc["type"] = "state"
    view = msg.get("view")
    if isinstance(view, dict) and "log_from" in msg:
        old = (held.get("view") or {}).get("log") or []
        view = dict(view)
        view["log"] = old[: msg["log_from"]] + list(view.get("log") or [])
        doc["view"] = view
    return doc


class Seat:
    """One human seat: its socket, the newest payload, and at most one move in flight."""

    def __init__(
        self, driver: Driver, game_id: str, token: str, home: int = 0, socket_moves: bool = False
    ) -> None:
        self.driver = driver
        #: send moves on the push socket (answered by a ``move_result``) instead of HTTP
        self.socket_moves = socket_moves
        self.ws: Any = None
        self.results: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.refs = 0
        #: the version of the payload after this seat's last socket move: older ones are stale
        self.floor = 0
        #: which server (of ``--balance game``) the game's requests go to
        self.home = home
        self.game_id = game_id
        self.token = token
        self.latest: dict[str, Any] | None = None
        self.acting = False
        self.done = asyncio.Event()
        self.rng = random.Random(f"{game_id}:{token}")

    def offer(self, doc: dict[str, Any]) -> None:
        """A newer payload arrived (push or a move's answer): act on it if it asks."""
        if self.latest is not None and doc.get("version", 0) < self.latest.get("version", 0):
            return
        self.latest = doc
        if doc.get("status") == "over":
            self.done.set()
            return
        if not self.acting:
            self.acting = True
            asyncio.get_running_loop().create_task(self.act())

    async def act(self) -> None:
        """Post moves while the newest payload offers a decision."""
        d = self.driver
        try:
            while not self.done.is_set() and not d.stopping:
                doc = self.latest
                view = (doc or {}).get("view") or {}
                legal = view.get("legal") or []
                if doc is None or doc.get("status") != "active" or not legal:
                    return
                if doc.get("version", 0) < self.floor:
                    return  # wait for the push of the payload after the last move
                action = self.rng.choice(legal)["id"]
                body = {"seq": doc["seq"], "action": action}
                if d.says_tentative:
                    body["tentative"] = doc.get("tentative") or 0
                t0 = time.perf_counter()
                try:
                    if self.socket_moves and self.ws is not None:
                        status, text, answer = await self._socket_move(body)
                    else:
                        status, raw = await d.posters[self.home].post(
                            f"/api/games/{self.game_id}/moves", self.token, orjson.dumps(body)
                        )
                        answer = orjson.loads(raw) if status == 200 else None
                        text = "" if status == 200 else raw.decode(errors="replace")
                except (
                    httpx.HTTPError,
                    RuntimeError,
                    OSError,
                    ValueError,
                    asyncio.IncompleteReadError,
                    websockets.WebSocketException,
                ) as exc:
                    if d.stopping:
                        return
                    d.stats.error(f"move {type(exc).__name__} {exc}"[:100])
                    await asyncio.sleep(0.5)
                    continue
                took = time.perf_counter() - t0
                if status == 200:
                    d.stats.moves_by_path["http" if answer is not None else "socket"] += 1
                    if d.stats.measuring:
                        d.stats.human_moves += 1
                        d.stats.socket_moves += self.socket_moves and answer is None
                        d.stats.move_latency.append(took)
                    if answer is not None:  # an HTTP answer carries the payload
                        if answer.get("version", 0) >= (self.latest or {}).get("version", 0):
                            self.latest = answer
                        if answer.get("status") == "over":
                            self.done.set()
                elif status == 409:
                    if d.stats.measuring:
                        d.stats.stale += 1
                    if self.latest is doc:  # wait for a newer push
                        return
                elif not d.stopping:  # the sockets closing at the end may leave moves in flight
                    detail = {
                        "game_id": self.game_id,
                        "game": doc.get("game"),
                        "seq": doc["seq"],
                        "version": doc.get("version"),
                        "tentative": doc.get("tentative"),
                        "action": action,
                        "legal": len(legal),
                        "newer_payload": self.latest is not doc,
                        "answer": text[:300],
                    }
                    d.stats.error(f"move {status} {text[:80]}", detail)
                    return
                else:
                    return
                if self.latest is doc:
                    return  # nothing newer to act on: wait for a push
        finally:
            self.acting = False

    async def _socket_move(self, body: dict[str, Any]) -> tuple[int, str, dict[str, Any] | None]:
        """Send a move on the socket; (status, error text, None) from its ``move_result``."""
        self.refs += 1
        ref = self.refs
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.results[ref] = future
        try:
            await self.ws.send(orjson.dumps({"type": "move", "ref": ref, **body}).decode())
            result = await asyncio.wait_for(future, 60)
        finally:
            self.results.pop(ref, None)
        status = int(result.get("status", 0))
        if status == 200:  # a push older than this move may still come: not to be acted on
            self.floor = max(self.floor, int(result.get("version") or 0))
        return status, "" if status == 200 else orjson.dumps(result).decode(), None

    def _socket_lost(self) -> None:
        self.ws = None
        for future in self.results.values():
            if not future.done():
                future.set_exception(ConnectionError("the socket closed"))

    async def listen(self) -> None:
        """Hold the seat's socket until the game ends (reconnecting if it drops)."""
        d = self.driver
        url = f"ws://127.0.0.1:{d.ports[self.home]}/api/games/{self.game_id}/ws"
        while not self.done.is_set() and not d.stopping:
            try:
                async with websockets.connect(url, max_size=None, open_timeout=30) as ws:
                    await ws.send(json.dumps({"token": self.token}))
                    self.ws = ws
                    held: dict[str, Any] | None = None
                    async for raw in ws:
                        if raw == "pong":
                            continue
                        msg = orjson.loads(raw)
                        if msg.get("type") == "move_result":
                            future = self.results.get(msg.get("ref"))
                            if future is not None and not future.done():
                                future.set_result(msg)
                            continue
                        if d.stats.measuring:
                            d.stats.pushes += 1
                            d.stats.push_bytes += len(raw)
                        if msg.get("type") == "error":
                            d.stats.error(f"socket {msg.get('code')}")
                            return
                        doc = merge(held, msg)
                        if doc is None:
                            d.stats.full_requests += 1
                            await ws.send(json.dumps({"type": "full"}))
                            continue
                        held = doc
                        self.offer(doc)
                        if self.done.is_set():
                            return
            except (OSError, websockets.WebSocketException, TimeoutError) as exc:
                self._socket_lost()
                if d.stopping:
                    return
                d.stats.error(f"socket {type(exc).__name__}")
                await asyncio.sleep(0.5)
            finally:
                self._socket_lost()


class Driver:
    """Keeps ``games`` games live and drives their human seats."""

    def __init__(self, ports: list[int], args: argparse.Namespace) -> None:
        #: the servers' ports (several with ``--balance game``: a game's requests go to one)
        self.ports = ports
        self.args = args
        self.stats = Stats()
        self.stopping = False
        #: does the server take ``tentative`` in a move (code from before it refuses it)
        self.says_tentative = _takes_tentative(ports[0])
        self.https = [
            httpx.AsyncClient(
                base_url=f"http://127.0.0.1:{port}",
                timeout=60,
                # game creations only: each on a new connection. Kept alive, a connection
                # idle for under 3 s on this process's clock could be one the server (5 s on
                # its clock) had closed when this driver was starved of CPU: the 8 `create
                # ReadError`s at 500 games (session 30), and a creation cannot be sent twice
                limits=httpx.Limits(
                    max_connections=max(1, args.connections // len(ports)),
                    max_keepalive_connections=0,
                ),
            )
            for port in ports
        ]
        self.created = 0
        #: the moves' HTTP connections to each server
        share = max(1, args.connections // len(ports))
        self.posters = [MovePoster(port, share) for port in ports]

    async def create(self) -> Seat | None:
        """Create one game (the next of the four) with seat 0 held here."""
        game = GAMES[self.created % len(GAMES)]
        # the servers in turn, each of the four games on every server in turn too
        home = (self.created + self.created // len(GAMES)) % len(self.ports)
        self.created += 1
        # a share of the seats move on their socket (--socket-moves), spread over the games
        # by the golden-ratio sequence (not every other game: that would be two game types);
        # decided before the request (other games are created while it is answered)
        on_socket = (self.created * 0.6180339887498949) % 1.0 < self.args.socket_moves
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": self.args.bot}] * (
            self.args.players - 1
        )
        body = {"game": game, "players": self.args.players, "seats": seats, "take_seat": 0}
        try:
            r = await self.https[home].post("/api/games", json=body)
        except httpx.HTTPError as exc:
            self.stats.error(f"create {type(exc).__name__}")
            return None
        if r.status_code != 201:
            self.stats.error(f"create {r.status_code} {r.text[:80]}")
            return None
        doc = orjson.loads(r.content)
        return Seat(self, doc["game"]["id"], doc["token"], home, on_socket)

    async def keep_one(self) -> None:
        """One game slot: play a game to its end, then start another."""
        while not self.stopping:
            seat = await self.create()
            if seat is None:
                await asyncio.sleep(1)
                continue
            listener = asyncio.get_running_loop().create_task(seat.listen())
            stop = asyncio.get_running_loop().create_task(self._stopped())
            await asyncio.wait([listener, stop], return_when=asyncio.FIRST_COMPLETED)
            stop.cancel()
            if seat.done.is_set() and self.stats.measuring:
                self.stats.games_finished += 1
            if self.stopping:
                listener.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await listener
                return

    async def _stopped(self) -> None:
        while not self.stopping:
            await asyncio.sleep(0.2)

    async def poll_health(self) -> None:
        """``/healthz`` every ``--health-interval`` seconds on its own connection (the servers
        in turn). A poll whose kept-alive connection the server had closed (the race of
        :class:`MovePoster`: a starved driver's idle time is not the server's) is sent once
        more, on a new connection (a GET changes nothing); its latency counts from the first
        try, and the retries are counted (``healthz_retries``)."""
        async with httpx.AsyncClient(timeout=60) as c:
            turn = 0
            while not self.stopping:
                port = self.ports[turn % len(self.ports)]
                turn += 1
                t0 = time.perf_counter()
                try:
                    try:
                        r = await c.get(f"http://127.0.0.1:{port}/healthz")
                    except (httpx.RemoteProtocolError, httpx.ReadError):
                        self.stats.healthz_retries += 1
                        r = await c.get(f"http://127.0.0.1:{port}/healthz")
                    if r.status_code != 200:
                        self.stats.error(f"healthz {r.status_code}")
                except httpx.HTTPError as exc:
                    self.stats.error(f"healthz {type(exc).__name__}")
                if self.stats.measuring:
                    self.stats.health_latency.append(time.perf_counter() - t0)
                await asyncio.sleep(self.args.health_interval)


def _servers_cpu(pids: list[int]) -> float:
    """CPU of the server processes and their descendants."""
    return sum(_cpu_seconds(pid) + _children_cpu(pid) for pid in pids)


async def _run(
    ports: list[int], db: str, server_pids: list[int], args: argparse.Namespace
) -> dict[str, Any]:
    driver = Driver(ports, args)
    loop = asyncio.get_running_loop()
    slots = []
    for _ in range(args.games):  # one after another: creation itself is not what is measured
        slots.append(loop.create_task(driver.keep_one()))
        await asyncio.sleep(args.create_gap)
    health = loop.create_task(driver.poll_health())
    await asyncio.sleep(args.warmup)
    moves0 = _stored_moves(db)
    cpu0 = _servers_cpu(server_pids)
    me0 = time.process_time()
    driver.stats.measuring = True
    t0 = time.perf_counter()
    await asyncio.sleep(args.seconds)
    driver.stats.measuring = False
    elapsed = time.perf_counter() - t0
    moves1 = _stored_moves(db)
    cpu1 = _servers_cpu(server_pids)
    me1 = time.process_time()
    driver.stopping = True
    await asyncio.gather(*slots, health, return_exceptions=True)
    for http in driver.https:
        await http.aclose()
    for poster in driver.posters:
        poster.close()
    s = driver.stats
    return {
        "live_games": args.games,
        "database": "postgresql" if db.startswith("postgres") else "sqlite",
        "workers": args.workers,
        "balance": args.balance,
        "players": args.players,
        "bot": args.bot,
        "seconds": round(elapsed, 1),
        "human_moves_per_s": round(s.human_moves / elapsed, 1),
        "stored_moves_per_s": round((moves1 - moves0) / elapsed, 1),
        "move_ms": {"p50": _pct(s.move_latency, 0.5), "p99": _pct(s.move_latency, 0.99)},
        "healthz_ms": {"p50": _pct(s.health_latency, 0.5), "p99": _pct(s.health_latency, 0.99)},
        "errors": sum(s.errors.values()),
        "error_kinds": s.errors,
        "error_details": s.details,
        "stale_409": s.stale,
        "games_finished": s.games_finished,
        "pushes": s.pushes,
        "push_kb_per_push": round(s.push_bytes / 1024 / max(1, s.pushes), 1),
        "full_requests": s.full_requests,
        # moves sent again on a new connection: a kept-alive one was closed by the server
        "keepalive_retries": sum(p.keepalive_retries for p in driver.posters),
        "healthz_retries": s.healthz_retries,
        "socket_moves_share": round(s.socket_moves / max(1, s.human_moves), 2),
        "moves_by_path": s.moves_by_path,
        "server_cpu_s": round(cpu1 - cpu0, 1),
        # what a stored move costs the server (bot workers included), whatever share of the
        # machine it got: the figure to compare on a shared machine
        "server_cpu_ms_per_stored_move": round(1000 * (cpu1 - cpu0) / max(1, moves1 - moves0), 2),
        "driver_cpu_s": round(me1 - me0, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; prints a summary (or JSON)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50, help="live games (default 50)")
    ap.add_argument("--players", type=int, default=3, help="seats per game (default 3)")
    ap.add_argument("--bot", default="random", help="the bots' level (default random)")
    ap.add_argument("--seconds", type=float, default=30, help="measuring window (default 30)")
    ap.add_argument("--warmup", type=float, default=5, help="seconds before measuring")
    ap.add_argument("--create-gap", type=float, default=0.01, help="pause between creations")
    ap.add_argument("--health-interval", type=float, default=0.1, help="healthz poll period")
    ap.add_argument("--connections", type=int, default=100, help="HTTP connections (default 100)")
    ap.add_argument("--server-arg", action="append", default=[], help="extra `serve` argument")
    ap.add_argument(
        "--civtable",
        metavar="PATH",
        help="the civtable command to serve with (default: this environment's), e.g. "
        "/work/main/.venv/bin/civtable to measure another checkout back to back",
    )
    ap.add_argument(
        "--db", metavar="URL", help="a PostgreSQL URL to serve from (default: a fresh SQLite file)"
    )
    ap.add_argument(
        "--workers", type=int, default=1, help="server processes (default 1; >1 needs --db)"
    )
    ap.add_argument(
        "--balance",
        choices=("connection", "game"),
        default="connection",
        help="with --workers N: one port, connections spread by the kernel (default), or N "
        "ports, each game's requests to one (as a per-game hash balancer)",
    )
    ap.add_argument(
        "--socket-moves",
        type=float,
        default=0.5,
        metavar="SHARE",
        help="share of the human seats that send their moves on the push socket instead of "
        "HTTP (default 0.5; 0 for a server without socket moves)",
    )
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args(argv)
    if not 0 <= args.socket_moves <= 1:
        ap.error("--socket-moves is a share between 0 and 1")
    if args.workers > 1 and not args.db:
        ap.error("--workers more than 1 needs --db postgresql://...")
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "load.db")
        url = args.db or f"sqlite:///{db}"
        several = args.balance == "game" and args.workers > 1
        ports = [free_port() for _ in range(args.workers if several else 1)]
        logs = [Path(tmp) / f"server{i}.log" for i in range(len(ports))]
        extra = [*args.server_arg]
        if args.workers > 1 and not several:
            extra += ["--workers", str(args.workers)]
        procs: list[subprocess.Popen[bytes]] = []
        try:
            for port, log in zip(ports, logs, strict=True):
                procs.append(_start(url, port, log, extra, args.civtable))
            result = asyncio.run(_run(ports, db, [p.pid for p in procs], args))
        finally:
            for proc in procs:
                os.kill(proc.pid, signal.SIGTERM)
            for proc in procs:
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
        result["server_log_errors"] = sum(
            "Traceback" in line
            for log in logs
            for line in log.read_text(errors="replace").splitlines()
        )
    result["uptime"] = Path("/proc/loadavg").read_text().split()[:3]
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        m, h = result["move_ms"], result["healthz_ms"]
        print(
            f"{result['live_games']} live games on {result['database']}, {args.workers} "
            f"process(es) ({args.balance} balance, {args.players} seats, 1 human + "
            f"{args.bot} bots), "
            f"{result['seconds']} s: human moves/s {result['human_moves_per_s']} (on sockets "
            f"{result['socket_moves_share']}), stored moves/s "
            f"{result['stored_moves_per_s']}; move p50 {m['p50']} ms p99 {m['p99']} ms; /healthz "
            f"p50 {h['p50']} ms p99 {h['p99']} ms; errors {result['errors']} "
            f"{result['error_kinds'] or ''}; 409 stale {result['stale_409']}; keep-alive "
            f"retries {result['keepalive_retries']} (healthz {result['healthz_retries']}); games "
            f"finished "
            f"{result['games_finished']}; pushes {result['pushes']} "
            f"({result['push_kb_per_push']} KB each); CPU s server {result['server_cpu_s']} "
            f"({result['server_cpu_ms_per_stored_move']} ms per stored move), "
            f"driver {result['driver_cpu_s']}; load {' '.join(result['uptime'])}"
        )
        for detail in result["error_details"]:
            print("  error:", json.dumps(detail))
    return 0


if __name__ == "__main__":
    sys.exit(main())
