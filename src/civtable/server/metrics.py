"""Prometheus-style metrics of one server process: ``GET /metrics`` (text exposition format 0.0.4).

Written by hand (no client library): a few counters, gauges and histograms with labels, and
:class:`ServerMetrics`, which knows what civtable measures:

- ``civtable_moves_committed_total{game,kind}``: moves stored, by game type and seat kind
  (``human`` or ``bot``); ``rate(...[1m])`` is the moves per second;
- ``civtable_commit_seconds``: how long the store took to commit a move, or a group of moves
  committed together (a histogram);
- ``civtable_move_seconds{game}``: how long ``POST /api/games/{id}/moves`` (or a move sent on
  the push socket) took to answer;
- ``civtable_http_requests_total{method,route,status}`` and ``civtable_http_request_seconds
  {route}``: every HTTP request, by route template (``/api/games/{game_id}/moves``, never the
  game id itself, so the number of series stays small);
- gauges read when scraped: live games by status, open sockets, push subscribers, games whose
  bots owe a move, bot decisions pending (running and queued) and the bot workers.

Labels never hold a game id, a token or anything hidden. The numbers are per process: with
several processes, scrape each one (Prometheus adds them up with ``sum``).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from civtable import __version__

if TYPE_CHECKING:
    from civtable.server.app import ASGIApp, Message, Receive, Scope, Send
    from civtable.server.hub import Hub
    from civtable.store import Store

#: the exposition format's content type
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

#: latency buckets (seconds) of every histogram: 1 ms to 30 s
BUCKETS: tuple[float, ...] = (
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
    30.0,
)

Labels = tuple[str, ...]

access_log = logging.getLogger("civtable.access")
store_log = logging.getLogger("civtable.store")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if value == int(value) and abs(value) < 2**53:
        return str(int(value))
    return repr(value)


def _labels(names: Sequence[str], values: Sequence[str], extra: str = "") -> str:
    parts = [f'{n}="{_escape(v)}"' for n, v in zip(names, values, strict=True)]
    if extra:
        parts.append(extra)
    return "{" + ",".join(parts) + "}" if parts else ""


@dataclass
class Counter:
    """A monotonically rising number per label set."""

    name: str
    help: str
    labels: Labels = ()
    values: dict[Labels, float] = field(default_factory=dict)

    def inc(self, *labels: str, amount: float = 1.0) -> None:
        """Add ``amount`` (≥ 0) to the series of ``labels``."""
        if amount < 0:
            raise ValueError("a counter only rises")
        key = tuple(labels)
        self.values[key] = self.values.get(key, 0.0) + amount

    def render(self) -> list[str]:
        """Exposition lines."""
        out = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} counter"]
        for key, value in sorted(self.values.items()):
            out.append(f"{self.name}{_labels(self.labels, key)} {_number(value)}")
        return out


@dataclass
class Gauge:
    """A number read when the metrics are scraped: ``read()`` gives (labels, value) pairs."""

    name: str
    help: str
    read: Callable[[], Iterable[tuple[Labels, float]]]
    labels: Labels = ()

    def render(self) -> list[str]:
        """Exposition lines."""
        out = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} gauge"]
        for key, value in sorted(self.read()):
            out.append(f"{self.name}{_labels(self.labels, key)} {_number(value)}")
        return out


@dataclass
class _Series:
    counts: list[int]
    total: float = 0.0
    count: int = 0


@dataclass
class Histogram:
    """Observations counted into cumulative buckets, per label set."""

    name: str
    help: str
    labels: Labels = ()
    buckets: tuple[float, ...] = BUCKETS
    series: dict[Labels, _Series] = field(default_factory=dict)

    def observe(self, value: float, *labels: str) -> None:
        """Count one observation of ``value`` seconds."""
        key = tuple(labels)
        s = self.series.get(key)
        if s is None:
            s = self.series[key] = _Series([0] * len(self.buckets))
        for i, bound in enumerate(self.buckets):
            if value <= bound:
                s.counts[i] += 1
        s.total += value
        s.count += 1

    def render(self) -> list[str]:
        """Exposition lines."""
        out = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} histogram"]
        for key, s in sorted(self.series.items()):
            for bound, n in zip(self.buckets, s.counts, strict=True):
                le = f'le="{_number(bound)}"'
                out.append(f"{self.name}_bucket{_labels(self.labels, key, le)} {n}")
            inf = _labels(self.labels, key, 'le="+Inf"')
            out.append(f"{self.name}_bucket{inf} {s.count}")
            out.append(f"{self.name}_sum{_labels(self.labels, key)} {_number(s.total)}")
            out.append(f"{self.name}_count{_labels(self.labels, key)} {s.count}")
        return out


Metric = Counter | Gauge | Histogram


class ServerMetrics:
    """Everything one server process measures (see the module doc)."""

    def __init__(self) -> None:
        self.started = time.time()
        self.moves = Counter(
            "civtable_moves_committed_total",
            "Moves stored, by game type and seat kind.",
            ("game", "kind"),
        )
        self.commit_seconds = Histogram(
            "civtable_commit_seconds", "Time the store took to commit a move (seconds)."
        )
        self.move_seconds = Histogram(
            "civtable_move_seconds",
            "Time a move (POST /api/games/{id}/moves or on the socket) took to answer (seconds), "
            "by game type.",
            ("game",),
        )
        self.requests = Counter(
            "civtable_http_requests_total",
            "HTTP requests answered, by method, route template and status.",
            ("method", "route", "status"),
        )
        self.request_seconds = Histogram(
            "civtable_http_request_seconds",
            "Time HTTP requests took to answer (seconds), by route template.",
            ("route",),
        )
        self.sockets_opened = Counter(
            "civtable_websockets_opened_total", "WebSocket connections accepted."
        )
        self.open_sockets = 0
        self.bot_decisions_pending = 0
        self.hub: Hub | None = None
        self._gauges: list[Gauge] = [
            Gauge("civtable_up", "1 while the server runs.", lambda: [((), 1.0)]),
            Gauge(
                "civtable_info",
                "The civtable version (always 1).",
                lambda: [((__version__,), 1.0)],
                ("version",),
            ),
            Gauge(
                "civtable_start_time_seconds",
                "When this process started (Unix time).",
                lambda: [((), self.started)],
            ),
            Gauge(
                "civtable_live_games",
                "Games held in memory, by status (lobby, active, over).",
                self._live_games,
                ("status",),
            ),
            Gauge(
                "civtable_open_websockets",
                "WebSocket connections open now.",
                lambda: [((), float(self.open_sockets))],
            ),
            Gauge(
                "civtable_push_subscribers",
                "Sockets subscribed to a game's pushes, by kind (seat or spectator).",
                self._subscribers,
                ("kind",),
            ),
            Gauge(
                "civtable_bot_games",
                "Games whose bots are due to move (waiting for a bot worker or thinking).",
                self._bot_games,
            ),
            Gauge(
                "civtable_bot_decisions_pending",
                "Bot decisions handed to the bot workers and not finished (queued or running).",
                lambda: [((), float(self.bot_decisions_pending))],
            ),
            Gauge(
                "civtable_bot_decisions_running",
                "Bot decisions being worked on now (at most one per bot worker).",
                lambda: self._split_pending()[0],
            ),
            Gauge(
                "civtable_bot_decisions_queued",
                "Bot decisions waiting for a free bot worker (the bot queue).",
                lambda: self._split_pending()[1],
            ),
            Gauge(
                "civtable_bot_workers",
                "Bot worker threads plus bot worker processes.",
                self._bot_workers,
            ),
        ]

    # --- gauges read from the hub ----------------------------------------------------------
    def _live_games(self) -> list[tuple[Labels, float]]:
        counts = {"lobby": 0, "active": 0, "over": 0}
        if self.hub is not None:
            for g in self.hub.held_games():
                counts[g.status] = counts.get(g.status, 0) + 1
        return [((k,), float(v)) for k, v in counts.items()]

    def _subscribers(self) -> list[tuple[Labels, float]]:
        seats = spectators = 0
        if self.hub is not None:
            for g in self.hub.held_games():
                for sub in g.subscribers:
                    if sub.seat is None:
                        spectators += 1
                    else:
                        seats += 1
        return [(("seat",), float(seats)), (("spectator",), float(spectators))]

    def _bot_games(self) -> list[tuple[Labels, float]]:
        if self.hub is None:
            return [((), 0.0)]
        return [((), float(sum(g.bot_task is not None for g in self.hub.held_games())))]

    def _workers(self) -> int | None:
        """Bot threads plus bot worker processes (decisions run in either)."""
        pool = getattr(self.hub, "pool", None)
        workers = getattr(pool, "_max_workers", None)
        if not isinstance(workers, int):
            return None
        processes = getattr(self.hub, "bot_processes", 0)
        return workers + (processes if isinstance(processes, int) else 0)

    def _bot_workers(self) -> list[tuple[Labels, float]]:
        workers = self._workers()
        return [((), float(workers))] if workers is not None else []

    def _split_pending(self) -> tuple[list[tuple[Labels, float]], list[tuple[Labels, float]]]:
        """(running, queued): a pool starts a decision as soon as a worker is free, so the
        pending decisions beyond the number of workers are the ones waiting."""
        pending = max(self.bot_decisions_pending, 0)
        workers = self._workers()
        running = pending if workers is None else min(pending, workers)
        return [((), float(running))], [((), float(pending - running))]

    # --- hooks ----------------------------------------------------------------------------
    def game_type(self, game_id: str) -> str:
        """The game type of a game held in memory ("" if it is not)."""
        live = self.hub.held(game_id) if self.hub is not None else None
        return live.record.game if live is not None else ""

    def seat_kind(self, game_id: str, seat: int) -> str:
        """``human`` or ``bot`` ("" if the game is not in memory)."""
        live = self.hub.held(game_id) if self.hub is not None else None
        if live is None:
            return ""
        for s in live.record.seats:
            if s.seat == seat:
                return s.kind
        return ""

    def render(self) -> str:
        """The whole exposition text."""
        metrics: list[Metric] = [
            self.moves,
            self.commit_seconds,
            self.move_seconds,
            self.requests,
            self.request_seconds,
            self.sockets_opened,
            *self._gauges,
        ]
        lines: list[str] = []
        for m in metrics:
            lines.extend(m.render())
        return "\n".join(lines) + "\n"


# --- instrumenting the store, the bot pool and the app ----------------------------------------
def instrument(metrics: ServerMetrics, hub: Hub, store: Store) -> None:
    """Count commits (and log them) by wrapping the store's ``append_moves`` (and, on a store
    that groups the commits of several games, ``append_batch``: entries with ``game_id``,
    ``seq``, ``steps`` and ``finished``, answered per entry by None when stored), and bot
    decisions by wrapping the bot pool's ``submit``. The hub itself is not changed."""
    metrics.hub = hub
    # a store shared by several apps (tests) is wrapped once per app around the bare methods
    bare: dict[str, Any] = store.__dict__.setdefault("_bare_methods", {})
    append = bare.setdefault("append_moves", store.append_moves)
    batch: Callable[[Sequence[Any]], list[Any]] | None = bare.setdefault(
        "append_batch",
        getattr(store, "append_batch", None),
    )
    #: set while a batch runs: a batch that falls back to single appends counts them itself
    batching = threading.local()

    def record(
        game_id: str,
        seq: int,
        steps: Sequence[tuple[int, int]],
        finished: object,
        elapsed: float,
    ) -> None:
        game = metrics.game_type(game_id)
        seat = steps[-1][0] if steps else -1
        kind = metrics.seat_kind(game_id, seat)
        metrics.moves.inc(game, kind, amount=float(len(steps)))
        if not store_log.isEnabledFor(logging.INFO):
            return
        # the action ids are not logged: one may name a card its mover keeps hidden
        store_log.info(
            "move committed",
            extra={
                "event": "move_committed",
                "game_id": game_id,
                "game": game,
                "seat": seat,
                "seat_kind": kind,
                "seq": seq + len(steps),
                "moves": len(steps),
                "finished": finished is not None,
                "latency_ms": round(elapsed * 1000, 3),
            },
        )

    def append_moves(
        game_id: str,
        seq: int,
        steps: Sequence[tuple[int, int]],
        *,
        finished: dict[str, Any] | None = None,
    ) -> None:
        started = time.perf_counter()
        append(game_id, seq, steps, finished=finished)
        if getattr(batching, "on", False):
            return
        elapsed = time.perf_counter() - started
        metrics.commit_seconds.observe(elapsed)
        record(game_id, seq, steps, finished, elapsed)

    def append_batch(entries: Sequence[Any]) -> list[Any]:
        assert batch is not None
        started = time.perf_counter()
        batching.on = True
        try:
            results = batch(entries)
        finally:
            batching.on = False
        elapsed = time.perf_counter() - started
        metrics.commit_seconds.observe(elapsed)  # one commit for the whole batch
        for entry, error in zip(entries, results, strict=True):
            if error is None:
                record(entry.game_id, entry.seq, entry.steps, entry.finished, elapsed)
        return results

    store.append_moves = append_moves  # type: ignore[method-assign]
    if callable(batch):
        store.__dict__["append_batch"] = append_batch
    pool = getattr(hub, "pool", None)
    if isinstance(pool, Executor):
        _count_submissions(metrics, pool)
    # searching bots may think in worker processes, whose pool starts (again) when needed
    hub.on_new_pool = lambda procs: _count_submissions(metrics, procs)


def _count_submissions(metrics: ServerMetrics, pool: Executor) -> None:
    submit = pool.submit

    def counted(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future = submit(fn, *args, **kwargs)
        metrics.bot_decisions_pending += 1

        def done(_f: Future[Any]) -> None:
            metrics.bot_decisions_pending -= 1

        future.add_done_callback(done)
        return future

    pool.submit = counted  # type: ignore[method-assign]


def route_of(scope: Scope) -> str:
    """The route template a request matched (never the concrete path: it holds game ids)."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path
    raw = scope.get("path", "")
    if isinstance(raw, str) and raw.startswith("/static/"):
        return "/static"
    return "unmatched"


class Observer:
    """ASGI middleware: counts and times every HTTP request, counts open WebSockets, and logs
    one ``request`` event per HTTP request (method, route, status, latency, game id; never the
    query string, headers or body, where tokens travel)."""

    def __init__(self, app: ASGIApp, metrics: ServerMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """ASGI entry point."""
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def watching(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, watching)
        finally:
            self._record(scope, status, time.perf_counter() - started)

    def _record(self, scope: Scope, status: int, elapsed: float) -> None:
        m = self.metrics
        route = route_of(scope)
        method = str(scope.get("method", ""))
        m.requests.inc(method, route, str(status))
        m.request_seconds.observe(elapsed, route)
        params = scope.get("path_params") or {}
        game_id = params.get("game_id") if isinstance(params, dict) else None
        game = m.game_type(game_id) if isinstance(game_id, str) else ""
        if route == "/api/games/{game_id}/moves" and method == "POST":
            m.move_seconds.observe(elapsed, game)
        if not access_log.isEnabledFor(logging.INFO):
            return  # (the event's fields cost more than the counting)
        extra: dict[str, Any] = {
            "event": "request",
            "method": method,
            "route": route,
            "status": status,
            "latency_ms": round(elapsed * 1000, 3),
        }
        if isinstance(game_id, str):
            extra["game_id"] = game_id[:32]
        access_log.info("%s %s %s", method, route, status, extra=extra)

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        m = self.metrics
        opened = False

        async def watching(message: Message) -> None:
            nonlocal opened
            if message["type"] == "websocket.accept" and not opened:
                opened = True
                m.open_sockets += 1
                m.sockets_opened.inc()
            await send(message)

        try:
            await self.app(scope, receive, watching)
        finally:
            if opened:
                m.open_sockets -= 1
