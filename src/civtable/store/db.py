"""The game store: setup plus an append-only move log, on SQLite or PostgreSQL.

>>> store = Store.open("sqlite:///:memory:")
>>> g = store.create_game(NewGame("seven-wonders", 3, seed=1, options={}, seats=[
...     SeatSpec("human"), SeatSpec("bot", bot="random"), SeatSpec("bot", bot="random")]))
>>> store.set_status(g.id, "active")
>>> store.append_move(g.id, 0, seat=1, action=5)
>>> store.moves(g.id)
[(1, 5)]

A move is written in one transaction that inserts it into ``moves`` and bumps ``games.seq`` only
if nobody else did (:class:`StaleSequenceError` otherwise); :meth:`Store.append_move` returns
after the commit, so a caller that acknowledges a move after it returns never loses it. SQLite
runs in WAL mode with ``synchronous=FULL``.

On PostgreSQL every change of a game also sends a ``NOTIFY civtable`` line
``'<game id> <seq> <origin> <what>'`` in its transaction (delivered only once it commits), so the
other server processes on the same database learn of it (:mod:`civtable.server.cluster`). The
appends of one group commit send their notices together: one payload of several such lines,
split before :data:`NOTICE_MAX` characters (:func:`notice_lines`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import queue
import secrets
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool

from civtable.core.errors import CivtableError
from civtable.store.schema import games, moves, pending, seats

STATUSES = ("lobby", "active", "over")
#: the PostgreSQL ``LISTEN``/``NOTIFY`` channel of game changes (payload: lines of
#: ``"<game id> <seq> <origin> <what>"``, see :func:`notice_lines`)
NOTIFY_CHANNEL = "civtable"
#: a notice payload is cut before this many characters (PostgreSQL takes up to 7,999 bytes)
NOTICE_MAX = 7000


def notice_lines(payload: str) -> list[tuple[str, int, str, str]]:
    """The changes one notice payload tells of: ``(game id, seq, origin, what)`` per line.

    ``seq``: the game's moves after the change (-1: a seat's steps in progress changed);
    ``origin``: the sending store's :attr:`Store.origin` (sent as ``-`` when it has none), or
    ""; ``what`` (may be ""): the moves appended, ``"seat.action,seat.action"`` (an append
    that did not end the game), or a seat's steps in progress now, ``"seat:action,action"``
    (``"seat:"``: none), so that a listener whose copy has the rest needs no read. A
    malformed line is skipped."""
    out = []
    for line in payload.split("\n"):
        game_id, seq, origin, what = [*line.split(" "), "", "", ""][:4]
        try:
            out.append((game_id, int(seq), "" if origin == "-" else origin, what))
        except ValueError:
            continue
    return out


def _moves_text(steps: Sequence[tuple[int, int]], finished: dict[str, Any] | None) -> str:
    """The ``what`` of an append's notice: its moves, or "" for one that ended the game (the
    listeners read the result)."""
    if finished is not None:
        return ""
    return ",".join(f"{seat}.{action}" for seat, action in steps)


class StoreError(CivtableError):
    """A store operation could not be done (unknown game, seat taken, conflict)."""


class UnknownGameIdError(StoreError, KeyError):
    """No stored game with that id."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


class SeatTakenError(StoreError):
    """The seat is a bot's or already taken by another player."""


class StaleSequenceError(StoreError):
    """Another move was appended first: the caller's sequence number is out of date."""


@dataclass(frozen=True)
class SeatSpec:
    """How a seat is filled at creation: ``kind`` is ``"human"`` or ``"bot"``."""

    kind: str
    bot: str | None = None
    name: str = ""


@dataclass(frozen=True)
class NewGame:
    """The setup of a game to create."""

    game: str
    players: int
    seed: int
    options: dict[str, Any]
    seats: Sequence[SeatSpec]
    name: str = ""
    autostart: bool = True
    id: str | None = None
    #: may the players ask a bot for a suggested move
    suggestions: bool = False


@dataclass(frozen=True)
class Append:
    """Moves to append to one game: ``steps`` (``(seat, action)``) as numbers ``seq, ...``;
    ``finished`` (the result) ends the game in the same transaction."""

    game_id: str
    seq: int
    steps: tuple[tuple[int, int], ...]
    finished: dict[str, Any] | None = None


@dataclass(frozen=True)
class SeatRecord:
    """A stored seat. ``token_hash`` is the sha256 of its secret token, once taken."""

    seat: int
    kind: str
    bot: str | None
    name: str
    token_hash: str | None
    joined_at: datetime | None

    @property
    def taken(self) -> bool:
        """A bot seat, or a human seat somebody joined."""
        return self.kind == "bot" or self.token_hash is not None


@dataclass(frozen=True)
class GameRecord:
    """A stored game's setup and status (the move log is read separately)."""

    id: str
    game: str
    name: str
    players: int
    seed: int
    options: dict[str, Any]
    status: str
    seq: int
    autostart: bool
    result: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    seats: tuple[SeatRecord, ...] = field(default_factory=tuple)
    #: may the players ask a bot for a suggested move
    suggestions: bool = False


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def default_db_url() -> str:
    """The embedded default: ``civtable.db`` in the user's data directory (platformdirs).

    ``CIVTABLE_DB`` in the environment overrides it.
    """
    env = os.environ.get("CIVTABLE_DB")
    if env:
        return env
    from platformdirs import user_data_dir

    path = Path(user_data_dir("civtable", appauthor=False)) / "civtable.db"
    return f"sqlite:///{path}"


def normalize_url(url: str) -> str:
    """Accept ``postgresql://`` / ``postgres://`` (psycopg 3 driver), ``sqlite:///path``."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://") :]
    return url


def new_game_id() -> str:
    """A short random URL-safe game id."""
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


class Store:
    """Games on one database (thread-safe: each call uses its own connection)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        #: added to this store's change notices (PostgreSQL), so that the server process that
        #: made a change can tell its own notices from the other processes'
        self.origin = ""
        #: SQLite: the connection :meth:`_append_raw` keeps between batches (taking one from
        #: the pool and giving it back, with the pool's rollback on return, cost more CPU than
        #: a small batch's writes, issue 23); ``_raw_lock`` is held while it is in use
        self._raw: Any = None
        self._raw_lock = threading.Lock()

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    # --- opening ------------------------------------------------------------------------------
    @classmethod
    def open(cls, url: str | None = None, *, migrate: bool = True) -> Store:
        """Connect to ``url`` (default: :func:`default_db_url`) and apply pending migrations."""
        url = normalize_url(url or default_db_url())
        parsed = make_url(url)
        kwargs: dict[str, Any] = {}
        if parsed.get_backend_name() == "sqlite":
            database = parsed.database or ""
            if database in ("", ":memory:"):
                kwargs["poolclass"] = StaticPool
            else:
                Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
        engine = create_engine(url, **kwargs)
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
        store = cls(engine)
        if migrate:
            store.migrate()
        return store

    def migrate(self, revision: str = "head") -> None:
        """Upgrade the schema to the newest Alembic revision (or to ``revision``)."""
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        location = resources.files("civtable.store").joinpath("migrations")
        cfg.set_main_option("script_location", str(location))
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)

    def schema_revision(self) -> str | None:
        """The Alembic revision the database is at."""
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as conn:
            rev: str | None = MigrationContext.configure(conn).get_current_revision()
            return rev

    def close(self) -> None:
        """Release the connection pool (and the connection kept for the moves' writes)."""
        with self._raw_lock:
            fairy, self._raw = self._raw, None
        if fairy is not None:
            with contextlib.suppress(Exception):
                fairy.close()
        self.engine.dispose()

    @contextmanager
    def _tx(self) -> Iterator[Connection]:
        with self.engine.begin() as conn:
            yield conn

    # --- games --------------------------------------------------------------------------------
    def create_game(self, setup: NewGame) -> GameRecord:
        """Store a new game in the lobby (or active at once if every seat is a bot)."""
        if len(setup.seats) != setup.players:
            raise StoreError(f"{setup.players} players need {setup.players} seats")
        now = _now()
        game_id = setup.id or new_game_id()
        with self._tx() as conn:
            conn.execute(
                games.insert().values(
                    id=game_id,
                    game=setup.game,
                    name=setup.name,
                    players=setup.players,
                    seed=setup.seed,
                    options=json.dumps(setup.options, sort_keys=True),
                    status="lobby",
                    seq=0,
                    autostart=int(setup.autostart),
                    suggestions=int(setup.suggestions),
                    result=None,
                    created_at=now,
                    updated_at=now,
                )
            )
            conn.execute(
                seats.insert(),
                [
                    {
                        "game_id": game_id,
                        "seat": i,
                        "kind": s.kind,
                        "bot": s.bot,
                        "name": s.name,
                        "token_hash": None,
                        "joined_at": now if s.kind == "bot" else None,
                    }
                    for i, s in enumerate(setup.seats)
                ],
            )
        return self.get_game(game_id)

    def get_game(self, game_id: str) -> GameRecord:
        """The game's setup, status and seats; :class:`UnknownGameIdError` if there is none."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                raise UnknownGameIdError(f"no game {game_id!r}")
            seat_rows = (
                conn.execute(select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat))
                .mappings()
                .all()
            )
        return _game_record(row, seat_rows)

    def list_games(self, status: str | None = None, limit: int = 100) -> list[GameRecord]:
        """Games, most recently updated first (optionally of one status)."""
        query = select(games).order_by(games.c.updated_at.desc(), games.c.id).limit(limit)
        if status is not None:
            query = query.where(games.c.status == status)
        with self.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
            ids = [r["id"] for r in rows]
            seat_rows = (
                conn.execute(select(seats).where(seats.c.game_id.in_(ids)).order_by(seats.c.seat))
                .mappings()
                .all()
                if ids
                else []
            )
        by_game: dict[str, list[Any]] = {}
        for s in seat_rows:
            by_game.setdefault(s["game_id"], []).append(s)
        return [_game_record(r, by_game.get(r["id"], [])) for r in rows]

    def game_ids(self, status: str) -> list[str]:
        """Ids of every game with that status."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(games.c.id).where(games.c.status == status)).scalars())

    def take_seat(self, game_id: str, seat: int, name: str, token_hash: str) -> None:
        """Give a free human seat to a player (identified from now on by ``token_hash``)."""
        with self._tx() as conn:
            done = conn.execute(
                update(seats)
                .where(*_free_human_seat(game_id, seat))
                .values(name=name, token_hash=token_hash, joined_at=_now())
            )
            if done.rowcount != 1:
                self._raise_unknown(conn, game_id)
                raise SeatTakenError(f"seat {seat} of game {game_id} is not free")
            conn.execute(update(games).where(games.c.id == game_id).values(updated_at=_now()))
            self._notify(conn, game_id, 0)

    def make_bot(self, game_id: str, seat: int, bot: str) -> None:
        """Turn a free human seat into a bot seat (before the game starts)."""
        with self._tx() as conn:
            done = conn.execute(
                update(seats)
                .where(*_free_human_seat(game_id, seat))
                .values(kind="bot", bot=bot, name="", joined_at=_now())
            )
            if done.rowcount != 1:
                self._raise_unknown(conn, game_id)
                raise SeatTakenError(f"seat {seat} of game {game_id} is not free")
            self._notify(conn, game_id, 0)

    def set_status(self, game_id: str, status: str, *, expect: str | None = None) -> None:
        """Change a game's status (optionally only from ``expect``)."""
        if status not in STATUSES:
            raise StoreError(f"unknown status {status!r}")
        with self._tx() as conn:
            query = update(games).where(games.c.id == game_id)
            if expect is not None:
                query = query.where(games.c.status == expect)
            done = conn.execute(query.values(status=status, updated_at=_now()))
            if done.rowcount != 1:
                self._raise_unknown(conn, game_id)
                raise StoreError(f"game {game_id} is not {expect}")
            self._notify(conn, game_id, 0)

    # --- moves --------------------------------------------------------------------------------
    def append_move(
        self,
        game_id: str,
        seq: int,
        seat: int,
        action: int,
        *,
        finished: dict[str, Any] | None = None,
    ) -> None:
        """Append move number ``seq`` (0-based) and commit; returns only after the commit.

        ``finished`` (the result) marks the game over in the same transaction. Raises
        :class:`StaleSequenceError` if the log does not have exactly ``seq`` moves.
        """
        self.append_moves(game_id, seq, [(seat, action)], finished=finished)

    def append_moves(
        self,
        game_id: str,
        seq: int,
        steps: Sequence[tuple[int, int]],
        *,
        finished: dict[str, Any] | None = None,
    ) -> None:
        """Append the moves ``steps`` (``(seat, action)``) as numbers ``seq, seq+1, ...`` in one
        transaction: all of them are stored or none (a compound move commits whole).

        ``finished`` (the result) marks the game over in the same transaction. Raises
        :class:`StaleSequenceError` if the log does not have exactly ``seq`` moves.
        """
        try:
            with self._tx() as conn:
                self._append(conn, Append(game_id, seq, tuple(steps), finished))
        except IntegrityError as exc:  # a concurrent writer took this seq
            raise StaleSequenceError(f"move {seq} of game {game_id} exists already") from exc

    def append_batch(self, batch: Sequence[Append]) -> list[StoreError | None]:
        """Append the moves of several games in **one** transaction (one commit, one fsync),
        each checked as :meth:`append_moves` checks it; returns, per entry, None (stored) or
        the error that refused it (nothing of that entry is stored; the others are).

        A refused entry is refused by its ``UPDATE games ... WHERE seq = :seq``, before it
        writes anything, so it does not spoil the transaction. Only the unexpected (a move row
        that exists although ``games.seq`` said it did not) rolls the batch back; the entries
        are then written one transaction each. Returns only after the commit.
        """
        if self.dialect == "postgresql" and len({e.game_id for e in batch}) == len(batch):
            try:
                with self._tx() as conn:
                    return self._append_set(conn, batch)
            except IntegrityError:
                pass  # one transaction per entry below tells which one
        if self.dialect == "sqlite":
            try:
                return self._append_raw(batch)
            except sqlite3.IntegrityError:
                pass  # one transaction per entry below tells which one
        results: list[StoreError | None] = []
        try:
            with self._tx() as conn:
                for entry in batch:
                    try:
                        self._append(conn, entry)
                    except StoreError as exc:
                        results.append(exc)
                    else:
                        results.append(None)
        except IntegrityError:
            results = []
            for entry in batch:
                try:
                    self.append_moves(
                        entry.game_id, entry.seq, entry.steps, finished=entry.finished
                    )
                except StoreError as exc:
                    results.append(exc)
                else:
                    results.append(None)
        return results

    def _append(self, conn: Connection, entry: Append) -> None:
        """Write one append inside the caller's transaction; raises before writing anything
        when the game is not active at ``entry.seq`` moves."""
        if not entry.steps:
            raise StoreError("append_moves needs at least one move")
        game_id, seq, steps = entry.game_id, entry.seq, entry.steps
        now = _now()
        params: dict[str, Any] = {"b_id": game_id, "b_seq": seq, "b_new": seq + len(steps)}
        params["b_now"] = now
        if entry.finished is None:
            done = conn.execute(_ADVANCE, params)
        else:
            params["b_result"] = json.dumps(entry.finished, sort_keys=True)
            done = conn.execute(_FINISH, params)
        if done.rowcount != 1:
            self._raise_unknown(conn, game_id)
            raise StaleSequenceError(f"game {game_id} is not active with {seq} moves; reload it")
        conn.execute(
            _INSERT_MOVES,
            [
                {
                    "game_id": game_id,
                    "seq": seq + i,
                    "seat": seat,
                    "action": action,
                    "created_at": now,
                }
                for i, (seat, action) in enumerate(steps)
            ],
        )
        if self.dialect == "postgresql":  # the movers' steps in progress are now the move
            movers = sorted({seat for seat, _ in steps})
            conn.execute(
                delete(pending).where(pending.c.game_id == game_id, pending.c.seat.in_(movers))
            )
        self._notify(conn, game_id, seq + len(steps), _moves_text(steps, entry.finished))

    def _append_raw(self, batch: Sequence[Append]) -> list[StoreError | None]:
        """:meth:`append_batch` on SQLite through the driver's own connection: each entry's
        ``UPDATE games`` (the same check as :meth:`_append`) and one ``executemany`` insert of
        every stored move, in one transaction. SQLAlchemy's execution of two statements per
        entry cost more CPU than the writes (issue 23). Raises ``sqlite3.IntegrityError``
        (nothing stored) when a move row exists although ``games.seq`` said it did not."""
        if isinstance(self.engine.pool, StaticPool) or not self._raw_lock.acquire(blocking=False):
            # one shared connection (an in-memory database), or another thread is writing
            # through the kept one: a connection of the pool, as any other statement
            fairy = self.engine.raw_connection()
            try:
                return self._append_on(fairy.driver_connection, batch)
            finally:
                fairy.close()
        try:
            if self._raw is None:
                self._raw = self.engine.raw_connection()
            try:
                return self._append_on(self._raw.driver_connection, batch)
            except sqlite3.IntegrityError:
                raise  # rolled back: the connection is sound
            except BaseException:
                # a connection that failed is not kept (the next batch takes a new one)
                fairy, self._raw = self._raw, None
                with contextlib.suppress(Exception):
                    fairy.close()
                raise
        finally:
            self._raw_lock.release()

    def _append_on(self, raw: Any, batch: Sequence[Append]) -> list[StoreError | None]:
        """:meth:`_append_raw`'s transaction on the driver's connection ``raw`` (committed, or
        rolled back and raised)."""
        now = _sqlite_time(_now())
        results: list[StoreError | None] = []
        rows: list[tuple[str, int, int, int, str]] = []
        assert isinstance(raw, sqlite3.Connection)
        try:
            cur = raw.cursor()
            for entry in batch:
                game_id, seq, steps = entry.game_id, entry.seq, entry.steps
                if not steps:
                    results.append(StoreError("append_moves needs at least one move"))
                    continue
                if entry.finished is None:
                    cur.execute(_SQLITE_ADVANCE, (seq + len(steps), now, game_id, seq))
                else:
                    result = json.dumps(entry.finished, sort_keys=True)
                    cur.execute(_SQLITE_FINISH, (seq + len(steps), now, result, game_id, seq))
                if cur.rowcount != 1:
                    if cur.execute(_SQLITE_EXISTS, (game_id,)).fetchone() is None:
                        results.append(UnknownGameIdError(f"no game {game_id!r}"))
                    else:
                        results.append(
                            StaleSequenceError(
                                f"game {game_id} is not active with {seq} moves; reload it"
                            )
                        )
                    continue
                rows.extend(
                    (game_id, seq + i, seat, action, now) for i, (seat, action) in enumerate(steps)
                )
                results.append(None)
            if rows:
                cur.executemany(_SQLITE_INSERT_MOVES, rows)
            raw.commit()
        except BaseException:
            raw.rollback()
            raise
        return results

    def _append_set(self, conn: Connection, batch: Sequence[Append]) -> list[StoreError | None]:
        """:meth:`append_batch` on PostgreSQL in a few statements whatever the batch's size
        (one statement per entry cost most of a move's CPU in the server, issue 23): lock the
        games in id order (two processes' batches never wait on each other in a cycle), advance
        every unfinished game in one ``UPDATE``, insert every move in one statement, forget the
        movers' steps in progress and send the notices in one each. The game ids are distinct."""
        now = _now()
        results: list[StoreError | None] = [None] * len(batch)
        if len(batch) > 1:
            conn.execute(_LOCK_GAMES, {"ids": sorted(e.game_id for e in batch)})
        plain = [e for e in batch if e.finished is None and e.steps]
        advanced: set[str] = set()
        if plain:
            rows = conn.execute(
                _ADVANCE_SET,
                {
                    "ids": [e.game_id for e in plain],
                    "olds": [e.seq for e in plain],
                    "news": [e.seq + len(e.steps) for e in plain],
                    "now": now,
                },
            )
            advanced = {str(r[0]) for r in rows}
        for i, entry in enumerate(batch):
            if not entry.steps:
                results[i] = StoreError("append_moves needs at least one move")
                continue
            if entry.finished is None:
                ok = entry.game_id in advanced
            else:
                params = {
                    "b_id": entry.game_id,
                    "b_seq": entry.seq,
                    "b_new": entry.seq + len(entry.steps),
                    "b_now": now,
                    "b_result": json.dumps(entry.finished, sort_keys=True),
                }
                ok = conn.execute(_FINISH, params).rowcount == 1
            if not ok:
                try:
                    self._raise_unknown(conn, entry.game_id)
                except UnknownGameIdError as exc:
                    results[i] = exc
                    continue
                results[i] = StaleSequenceError(
                    f"game {entry.game_id} is not active with {entry.seq} moves; reload it"
                )
        stored = [e for e, r in zip(batch, results, strict=True) if r is None]
        if not stored:
            return results
        conn.execute(
            _INSERT_MOVES,
            [
                {"game_id": e.game_id, "seq": e.seq + i, "seat": s, "action": a, "created_at": now}
                for e in stored
                for i, (s, a) in enumerate(e.steps)
            ],
        )
        movers = sorted({(e.game_id, s) for e in stored for s, _ in e.steps})
        conn.execute(
            _FORGET_PENDING, {"ids": [g for g, _ in movers], "seats": [s for _, s in movers]}
        )
        self._notify_many(
            conn,
            [(e.game_id, e.seq + len(e.steps), _moves_text(e.steps, e.finished)) for e in stored],
        )
        return results

    def moves(self, game_id: str, upto: int | None = None) -> list[tuple[int, int]]:
        """The move log ``[(seat, action), ...]`` (the first ``upto`` moves if given)."""
        query = select(moves.c.seat, moves.c.action).where(moves.c.game_id == game_id)
        if upto is not None:
            query = query.where(moves.c.seq < upto)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(moves.c.seq)).all()
        return [(int(s), int(a)) for s, a in rows]

    def since(
        self, game_id: str, seq: int, known: tuple[SeatRecord, ...] | None = None
    ) -> tuple[GameRecord, list[tuple[int, int]], dict[int, list[int]]]:
        """The game as stored now, its moves from number ``seq`` on, and the seats' steps in
        progress (:meth:`set_pending`): what a server process whose copy has ``seq`` moves
        lacks (another process wrote the rest). The moves match the record: a move committed
        between the two reads is left for the next call. ``known``: the seats the caller
        holds, used as they are once the game has left the lobby (seats change only there)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                raise UnknownGameIdError(f"no game {game_id!r}")
            if known is None or row["status"] == "lobby":
                seat_rows: Sequence[Any] = (
                    conn.execute(
                        select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat)
                    )
                    .mappings()
                    .all()
                )
            rows: Sequence[Any] = []
            if row["seq"] > seq:
                rows = conn.execute(
                    select(moves.c.seat, moves.c.action)
                    .where(moves.c.game_id == game_id, moves.c.seq >= seq, moves.c.seq < row["seq"])
                    .order_by(moves.c.seq)
                ).all()
            held = conn.execute(
                select(pending.c.seat, pending.c.actions).where(pending.c.game_id == game_id)
            ).all()
        steps = {int(s): [int(a) for a in json.loads(acts)] for s, acts in held}
        if known is None or row["status"] == "lobby":
            record = _game_record(row, seat_rows)
        else:
            from dataclasses import replace

            record = replace(_game_record(row, []), seats=known)
        return record, [(int(s), int(a)) for s, a in rows], steps

    def set_pending(self, game_id: str, seat: int, actions: Sequence[int]) -> None:
        """Keep (or, with no ``actions``, forget) the tentative steps of ``seat``'s move in
        progress, so that another server process can take its next step; storing the seat's
        move forgets them in the same transaction. Notifies ``'<game id> -1'``."""
        if self.dialect == "postgresql":  # one statement: a step's write is one round trip
            steps = ",".join(str(int(a)) for a in actions)
            note = self._note(game_id, -1, f"{int(seat)}:{steps}")
            with self._tx() as conn:
                if actions:
                    steps = json.dumps([int(a) for a in actions])
                    params = {"g": game_id, "s": seat, "a": steps, "now": _now(), "note": note}
                    conn.execute(_SET_PENDING, params)
                else:
                    conn.execute(_CLEAR_PENDING, {"g": game_id, "s": seat, "note": note})
            return
        with self._tx() as conn:
            mine = (pending.c.game_id == game_id, pending.c.seat == seat)
            conn.execute(delete(pending).where(*mine))
            if actions:
                conn.execute(
                    pending.insert().values(
                        game_id=game_id,
                        seat=seat,
                        actions=json.dumps([int(a) for a in actions]),
                        updated_at=_now(),
                    )
                )
            self._notify(conn, game_id, -1)

    def drop_pending(self, game_id: str, seat: int, actions: Sequence[int], seq: int) -> bool:
        """Forget ``seat``'s steps in progress if they are still ``actions`` and the game still
        has ``seq`` moves (the position on which the caller found that they no longer apply);
        True if they were forgotten. Notifies ``'<game id> -1'`` then."""
        with self._tx() as conn:
            done = conn.execute(
                delete(pending).where(
                    pending.c.game_id == game_id,
                    pending.c.seat == seat,
                    pending.c.actions == json.dumps([int(a) for a in actions]),
                    select(games.c.seq).where(games.c.id == game_id).scalar_subquery() == seq,
                )
            )
            if done.rowcount != 1:
                return False
            self._notify(conn, game_id, -1)
            return True

    def positions(self, game_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """``(seq, status)`` of each of these games as stored (unknown ids are left out): one
        query for a server process to check the games it holds against the store."""
        if not game_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games.c.id, games.c.seq, games.c.status).where(
                    games.c.id.in_(list(game_ids))
                )
            ).all()
        return {str(i): (int(q), str(st)) for i, q, st in rows}

    def move_count(self, game_id: str) -> int:
        """Number of moves in the log."""
        with self.engine.connect() as conn:
            n = conn.execute(
                select(func.count()).select_from(moves).where(moves.c.game_id == game_id)
            ).scalar_one()
        return int(n)

    def seats_by_token_hash(self, hashes: Sequence[str]) -> list[tuple[str, int]]:
        """``(game_id, seat)`` of every seat held by one of these token hashes."""
        if not hashes:
            return []
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(seats.c.game_id, seats.c.seat).where(seats.c.token_hash.in_(list(hashes)))
            ).all()
        return [(str(g), int(s)) for g, s in rows]

    # --- helpers ------------------------------------------------------------------------------
    def _notify(self, conn: Connection, game_id: str, seq: int, what: str = "") -> None:
        """On PostgreSQL, tell the listening server processes that the game changed (sent when
        the caller's transaction commits; never if it rolls back)."""
        if self.dialect == "postgresql":
            conn.execute(_NOTIFY, {"note": self._note(game_id, seq, what)})

    def _note(self, game_id: str, seq: int, what: str = "") -> str:
        """One line of a notice (:func:`notice_lines`)."""
        line = f"{game_id} {seq} {self.origin or '-'} {what}"
        if what and len(line) < NOTICE_MAX:  # too long: the listeners read the change
            return line
        return f"{game_id} {seq} {self.origin}".rstrip()

    def _notify_many(self, conn: Connection, changes: Sequence[tuple[str, int, str]]) -> None:
        """One notice (or a few, each under :data:`NOTICE_MAX`) for many changes: a line each."""
        notes: list[str] = []
        size = NOTICE_MAX
        for game_id, seq, what in changes:
            line = self._note(game_id, seq, what)
            if size + len(line) + 1 > NOTICE_MAX:
                notes.append(line)
                size = len(line)
            else:
                notes[-1] += "\n" + line
                size += len(line) + 1
        if len(notes) == 1:
            conn.execute(_NOTIFY, {"note": notes[0]})
        elif notes:
            conn.execute(_NOTIFY_MANY, {"notes": notes})

    @staticmethod
    def _raise_unknown(conn: Connection, game_id: str) -> None:
        if conn.execute(select(games.c.id).where(games.c.id == game_id)).first() is None:
            raise UnknownGameIdError(f"no game {game_id!r}")


#: the statements of :meth:`Store._append`, built once: building and keying a statement per
#: move cost more CPU than running it (issue 23)
_ADVANCE = (
    update(games)
    .where(
        games.c.id == bindparam("b_id"),
        games.c.seq == bindparam("b_seq"),
        games.c.status == "active",
    )
    .values(seq=bindparam("b_new"), updated_at=bindparam("b_now"))
)
_FINISH = _ADVANCE.values(status="over", result=bindparam("b_result"))
# SQLite only: the same checks as plain SQL for the driver's connection (:meth:`Store._append_raw`)
_SQLITE_ADVANCE = (
    "UPDATE games SET seq = ?, updated_at = ? WHERE id = ? AND seq = ? AND status = 'active'"
)
_SQLITE_FINISH = (
    "UPDATE games SET seq = ?, updated_at = ?, status = 'over', result = ?"
    " WHERE id = ? AND seq = ? AND status = 'active'"
)
_SQLITE_EXISTS = "SELECT 1 FROM games WHERE id = ?"
_SQLITE_INSERT_MOVES = (
    "INSERT INTO moves (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)"
)


def _sqlite_time(moment: datetime) -> str:
    """A time as SQLAlchemy writes a ``DateTime`` column on SQLite (its text form)."""
    return moment.strftime("%Y-%m-%d %H:%M:%S.%f")


_INSERT_MOVES = moves.insert()
# PostgreSQL only: the set-based statements of :meth:`Store._append_set` and the notices
_LOCK_GAMES = text("SELECT id FROM games WHERE id = ANY(:ids) ORDER BY id FOR UPDATE")
_ADVANCE_SET = text(
    "UPDATE games AS g SET seq = v.new, updated_at = :now"
    " FROM unnest(CAST(:ids AS varchar[]), CAST(:olds AS integer[]), CAST(:news AS integer[]))"
    " AS v(id, old, new)"
    " WHERE g.id = v.id AND g.seq = v.old AND g.status = 'active' RETURNING g.id"
)
_FORGET_PENDING = text(
    "DELETE FROM pending AS p USING unnest(CAST(:ids AS varchar[]), CAST(:seats AS integer[]))"
    " AS v(id, seat) WHERE p.game_id = v.id AND p.seat = v.seat"
)
_NOTIFY = text(f"SELECT pg_notify('{NOTIFY_CHANNEL}', :note)")
_NOTIFY_MANY = text(
    f"SELECT pg_notify('{NOTIFY_CHANNEL}', n) FROM unnest(CAST(:notes AS text[])) AS n"
)
_SET_PENDING = text(
    "WITH w AS (INSERT INTO pending (game_id, seat, actions, updated_at)"
    " VALUES (:g, :s, :a, :now) ON CONFLICT (game_id, seat)"
    " DO UPDATE SET actions = EXCLUDED.actions, updated_at = EXCLUDED.updated_at)"
    f" SELECT pg_notify('{NOTIFY_CHANNEL}', :note)"
)
_CLEAR_PENDING = text(
    "WITH d AS (DELETE FROM pending WHERE game_id = :g AND seat = :s)"
    f" SELECT pg_notify('{NOTIFY_CHANNEL}', :note)"
)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL journal, full fsync on commit, foreign keys (SQLite defaults them off)."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
    finally:
        cursor.close()


def _game_record(row: Any, seat_rows: Sequence[Any]) -> GameRecord:
    return GameRecord(
        id=row["id"],
        game=row["game"],
        name=row["name"],
        players=int(row["players"]),
        seed=int(row["seed"]),
        options=json.loads(row["options"]),
        status=row["status"],
        seq=int(row["seq"]),
        autostart=bool(row["autostart"]),
        suggestions=bool(row["suggestions"]),
        result=json.loads(row["result"]) if row["result"] else None,
        created_at=_utc(row["created_at"]) or _now(),
        updated_at=_utc(row["updated_at"]) or _now(),
        seats=tuple(
            SeatRecord(
                seat=int(s["seat"]),
                kind=s["kind"],
                bot=s["bot"],
                name=s["name"],
                token_hash=s["token_hash"],
                joined_at=_utc(s["joined_at"]),
            )
            for s in seat_rows
        ),
    )


def _free_human_seat(game_id: str, seat: int) -> tuple[Any, ...]:
    """The conditions of a human seat nobody has taken yet."""
    return (
        seats.c.game_id == game_id,
        seats.c.seat == seat,
        seats.c.kind == "human",
        seats.c.token_hash.is_(None),
    )


@dataclass(eq=False)
class _LoopWaiter:
    """A waiter on the event loop (:meth:`GroupCommit.submit_async`): its asyncio future, set
    from the loop's own thread."""

    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[None]


def _resolve_on_loop(done: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    """On the event loop: answer the waiters of one batch (a waiter cancelled meanwhile is
    left alone)."""
    for future, error in done:
        if future.done():
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)


class GroupCommit:
    """One writer thread that commits the appends of many games together (issue 23).

    :meth:`submit` queues an append and returns a future; the writer takes everything queued
    (up to ``max_batch``), writes it in one transaction with :meth:`Store.append_batch` and only
    after the commit resolves each future (None, or the :class:`StoreError` that refused it).
    While one commit waits for the disk the next batch gathers, so under load one fsync
    carries many moves; alone, a move is committed at once. Nothing is acknowledged before its
    commit returned. :meth:`close` commits whatever is queued, then stops the thread.

    The thread starts with the first append: an application that is built but never served
    (an OpenAPI document, a server that could not listen) leaves no thread behind.
    """

    def __init__(self, store: Store, *, max_batch: int = 256) -> None:
        self.store = store
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[tuple[Append, Future[None] | _LoopWaiter] | None] = (
            queue.SimpleQueue()
        )
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._closed = False

    @property
    def running(self) -> bool:
        """Is the writer thread alive (started by an append and not stopped yet)?"""
        return self._thread is not None and self._thread.is_alive()

    def _put(self, item: tuple[Append, Future[None] | _LoopWaiter]) -> bool:
        """Queue an append (starting the writer with the first); False once closed."""
        if self._thread is None:
            with self._start_lock:
                if self._closed:
                    return False
                if self._thread is None:
                    thread = threading.Thread(target=self._run, name="civtable-commit", daemon=True)
                    thread.start()
                    self._thread = thread
        if self._closed:
            return False
        self._queue.put(item)
        return True

    def submit(self, entry: Append) -> Future[None]:
        """Queue ``entry``; the future resolves once it is committed (or refused)."""
        future: Future[None] = Future()
        if not self._put((entry, future)):
            future.set_exception(StoreError("the store is closing"))
        return future

    def submit_async(self, entry: Append) -> asyncio.Future[None]:
        """:meth:`submit` for a caller on an event loop: the answer is an asyncio future of
        that loop. The writer answers all of a batch's waiters on one loop with one call into
        it (``call_soon_threadsafe``), where a thread-safe future per move cost each move a
        lock, a callback chain and a wake-up of the loop (issue 23). A waiter cancelled before
        its batch is written is left out of it, as with :meth:`submit`."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        if not self._put((entry, _LoopWaiter(loop, future))):
            future.set_exception(StoreError("the store is closing"))
        return future

    def close(self) -> None:
        """Commit what is queued and stop the writer (no new append is taken from now on)."""
        if not self._closed:
            self._closed = True
            with self._start_lock:  # an append racing with this one started it, or never will
                thread = self._thread
            if thread is not None:
                self._queue.put(None)
                thread.join()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            stop = False
            while len(batch) < self.max_batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            try:
                self._commit(batch)
            except Exception:  # the writer must outlive any one batch
                logging.getLogger("civtable.store").exception("group commit failed")
            if stop:
                return

    def _commit(self, batch: list[tuple[Append, Future[None] | _LoopWaiter]]) -> None:
        # a waiter that gave up before its commit began (its task was cancelled) never had its
        # move applied: the move is not written; from here on a thread-safe waiter can no
        # longer cancel (a loop's waiter cancelled from here on is answered with nothing: as a
        # waiter cancelled after its commit began, it has given up on the answer)
        batch = [
            (entry, w)
            for entry, w in batch
            if (
                not w.future.cancelled()
                if isinstance(w, _LoopWaiter)
                else w.set_running_or_notify_cancel()
            )
        ]
        if not batch:
            return
        results: list[BaseException | None]
        try:
            results = list(self.store.append_batch([entry for entry, _ in batch]))
        except Exception as exc:  # the commit itself failed: nothing of the batch is stored
            results = [exc] * len(batch)
        by_loop: dict[
            asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], BaseException | None]]
        ] = {}
        for (_, waiter), error in zip(batch, results, strict=True):
            if isinstance(waiter, _LoopWaiter):
                by_loop.setdefault(waiter.loop, []).append((waiter.future, error))
            elif error is None:
                waiter.set_result(None)
            else:
                waiter.set_exception(error)
        for loop, done in by_loop.items():
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(_resolve_on_loop, done)
