"""Several server processes on one PostgreSQL (issue 23): change notices and bot ownership.

Each server process on a PostgreSQL store holds one :class:`Cluster` with two connections of
its own:

- a **listener** (``LISTEN civtable``): the store sends ``NOTIFY civtable, '<game id> <seq>'``
  in the transaction of every change (:data:`civtable.store.NOTIFY_CHANNEL`; a group commit
  one notice of several lines), so each process hears of the moves the others commit and
  catches up the games it holds from the store's log (the hub then pushes to its sockets).
  While it listens (:attr:`Cluster.listening`), a game nobody else changed since this
  process last read it needs no read before a request; :attr:`Cluster.epoch` counts the
  connections, so that the hub can tell a read made before a lost connection (whose notices
  may be lost) from one made after;
- an **owner** connection holding a session-level advisory lock per game whose bots this
  process moves (``pg_try_advisory_lock``): the bots of a game are moved by exactly one
  process. The locks live as long as that connection: when a process dies (even by SIGKILL)
  PostgreSQL ends its session and frees them, and another process's :meth:`orphans` sweep
  takes the games over.

- the same owner connection holds this process's **membership** (:data:`MEMBER_LOCK`): a
  process alone on the database holds it exclusively and is :attr:`Cluster.solo`; every other
  process holds it shared. A solo process keeps a seat's tentative steps in memory only (no
  other process can be sent the next step). A process that starts waits for the membership
  shared (:meth:`Cluster.join`); the solo process sees it waiting (:meth:`Cluster.joiners`),
  writes its steps in progress to the store and shares (:meth:`Cluster.share`); only then does
  the new process get its lock and take requests. A process left alone becomes solo again
  (:meth:`Cluster.try_solo`).

Neither is needed for correctness of the log: the store refuses a second commit of one move
number whoever sends it (:class:`civtable.store.StaleSequenceError`). Notices keep the other
processes' pushes timely; ownership keeps two processes from searching for the same bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from civtable.store import NOTIFY_CHANNEL, Store, notice_lines

log = logging.getLogger("civtable.server")

#: the ``application_name`` of the listening connections (so an operator sees them)
LISTENER_NAME = "civtable-listen"
#: first key of the two-key advisory locks civtable takes ("civt"); the second is the game id's
#: ``hashtext``. Two game ids with one hash share a lock: one process then moves both games' bots.
LOCK_SPACE = 0x63697674
_LOCK = f"{LOCK_SPACE}, hashtext(%s)"
#: the membership lock (its own first key, so that no game's lock is the same): exclusive for a
#: process alone on the database, shared by each of several
MEMBER_SPACE = LOCK_SPACE + 1
MEMBER_LOCK = f"{MEMBER_SPACE}, 0"


def psycopg_url(store: Store) -> str:
    """The store's database URL in the form psycopg's own ``connect`` takes."""
    url = store.engine.url.set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class Cluster:
    """This process's part in a cluster of server processes on one PostgreSQL database."""

    def __init__(self, store: Store, *, sweep_every: float = 1.0, sweep_batch: int = 32) -> None:
        if store.dialect != "postgresql":
            raise ValueError("several server processes need PostgreSQL")
        self.url = psycopg_url(store)
        #: seconds between two looks for games whose bots nobody moves
        self.sweep_every = sweep_every
        #: games taken over per look at most (so that several processes share the work)
        self.sweep_batch = sweep_batch
        self._owner: Any = None  # psycopg.AsyncConnection holding the advisory locks
        self._owner_lock = asyncio.Lock()
        self._owned: set[str] = set()
        self._listen_task: asyncio.Task[None] | None = None
        self._closed = False
        #: the listener is connected and listening: every change committed from now on will be
        #: heard (until this turns False)
        self.listening = False
        #: how many times the listener started listening (a read made under an older epoch
        #: may have missed notices sent while it was away)
        self.epoch = 0
        #: this process holds the membership lock exclusively: no other process is on the
        #: database, none can start taking requests before this one :meth:`share`-s
        self.solo = False
        #: how this process holds the membership lock: "exclusive", "shared" or None
        self.mode: str | None = None
        self._join_lock = asyncio.Lock()

    # --- notices ------------------------------------------------------------------------------
    def listen(
        self, on_notice: Callable[[str, int, str, str], None], on_reconnect: Callable[[], None]
    ) -> None:
        """Start listening: ``on_notice(game_id, seq, origin, what)`` for every change
        committed by any process (``origin``: the committing store's :attr:`Store.origin`;
        ``what``: the moves or steps, see :func:`civtable.store.notice_lines`);
        ``on_reconnect()`` after the listener lost its connection and got it back (notices may
        have been missed meanwhile)."""
        self._listen_task = asyncio.get_running_loop().create_task(
            self._listen(on_notice, on_reconnect), name="civtable-listen"
        )

    async def _listen(
        self, on_notice: Callable[[str, int, str, str], None], on_reconnect: Callable[[], None]
    ) -> None:
        import psycopg

        first = True
        while not self._closed:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, application_name=LISTENER_NAME
                )
            except psycopg.Error as exc:
                log.warning("cluster: cannot connect the listener: %s", exc)
                await asyncio.sleep(1.0)
                continue
            try:
                await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                self.epoch += 1
                self.listening = True
                if not first:
                    on_reconnect()
                first = False
                async for notice in conn.notifies():
                    for game_id, seq, origin, what in notice_lines(notice.payload):
                        try:
                            on_notice(game_id, seq, origin, what)
                        except Exception:  # one bad notice must not stop the listener
                            log.exception("cluster: notice %r", notice.payload)
            except psycopg.Error as exc:
                self.listening = False  # from here on notices may be lost
                self.doubt()
                log.warning("cluster: listener connection lost: %s", exc)
                await asyncio.sleep(0.2)
            finally:
                self.listening = False
                with contextlib.suppress(Exception):
                    await conn.close()

    # --- bot ownership ------------------------------------------------------------------------
    def owns(self, game_id: str) -> bool:
        """Does this process move the game's bots (hold its lock)?"""
        return game_id in self._owned

    def owned(self) -> list[str]:
        """The games whose bots this process moves."""
        return sorted(self._owned)

    async def _query(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Run ``sql`` on the owner connection (connected on first use). A lost connection has
        freed every lock it held: ownership is forgotten, and the error goes to the caller."""
        import psycopg

        async with self._owner_lock:
            if self._owner is None or self._owner.closed:
                self._lost()
                self._owner = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            try:
                cur = await self._owner.execute(sql, params)
                return list(await cur.fetchall()) if cur.description else []
            except psycopg.OperationalError:
                self._lost()
                with contextlib.suppress(Exception):
                    await self._owner.close()
                self._owner = None
                raise

    def _lost(self) -> None:
        """The owner connection is gone, and every lock it held with it."""
        self._owned.clear()
        self.solo = False
        self.mode = None

    # --- membership ---------------------------------------------------------------------------
    @property
    def member(self) -> bool:
        """Does this process hold the membership lock (as far as it knows)?"""
        return self.mode is not None

    async def join(self) -> None:
        """Become a member: solo if no other process is one, else wait until the membership
        can be shared (a solo process shares once it has written its steps in progress)."""
        async with self._join_lock:
            if self.mode is not None or self._closed:
                return
            rows = await self._query(f"SELECT pg_try_advisory_lock({MEMBER_LOCK})", ())
            if rows and rows[0][0]:
                self.mode = "exclusive"
                self.solo = True
                return
            log.info("cluster: waiting for the other processes to let this one in")
            await self._query(f"SELECT pg_advisory_lock_shared({MEMBER_LOCK})", ())
            self.mode = "shared"

    async def joiners(self) -> bool:
        """Is a process waiting to join (for this solo process to :meth:`share`)?"""
        rows = await self._query(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            f" AND classid = {MEMBER_SPACE} AND objid = 0 AND objsubid = 2 AND NOT granted)",
            (),
        )
        return bool(rows and rows[0][0])

    async def share(self) -> None:
        """Stop being solo: hold the membership shared, so that waiting processes join. The
        caller has written its steps in progress first (and sets :attr:`solo` False before
        that, so that no later step is kept in memory only)."""
        self.solo = False
        if self.mode != "exclusive":
            return
        await self._query(f"SELECT pg_advisory_lock_shared({MEMBER_LOCK})", ())
        self.mode = "shared"
        await self._query(f"SELECT pg_advisory_unlock({MEMBER_LOCK})", ())

    async def try_solo(self) -> bool:
        """Become solo again if every other process has left (none holds the membership, none
        waits for it); True if this process is solo now."""
        if self.solo or self.mode is None or self._closed:
            return self.solo
        if self.mode == "exclusive":  # (after :meth:`doubt`) still held: nobody came in
            rows = await self._query(
                "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'"
                f" AND classid = {MEMBER_SPACE} AND objid = 0 AND objsubid = 2"
                " AND pid = pg_backend_pid() AND mode = 'ExclusiveLock' AND granted)",
                (),
            )
            if rows and rows[0][0]:
                self.solo = True
            else:
                self._lost()
            return self.solo
        rows = await self._query(f"SELECT pg_try_advisory_lock({MEMBER_LOCK})", ())
        if rows and rows[0][0]:
            self.mode = "exclusive"
            await self._query(f"SELECT pg_advisory_unlock_shared({MEMBER_LOCK})", ())
            self.solo = True
        return self.solo

    def doubt(self) -> None:
        """The database may have been away (the listener lost its connection): stop being solo
        until :meth:`try_solo` has seen the membership lock still held."""
        self.solo = False

    async def claim(self, game_id: str) -> bool:
        """Take the game's bots unless another process moves them; True if this one does."""
        if game_id in self._owned:
            return True
        if self._closed:
            return False
        rows = await self._query(f"SELECT pg_try_advisory_lock({_LOCK})", (game_id,))
        if rows and rows[0][0]:
            self._owned.add(game_id)
            return True
        return False

    async def release(self, game_id: str) -> None:
        """Stop moving the game's bots (it is over, or leaves this process's memory)."""
        if game_id not in self._owned:
            return
        self._owned.discard(game_id)
        with contextlib.suppress(Exception):
            await self._query(f"SELECT pg_advisory_unlock({_LOCK})", (game_id,))

    async def orphans(self) -> list[str]:
        """Claim active games with bot seats whose bots no process moves (their process died,
        shut down or never had them); returns the ids claimed (at most ``sweep_batch``)."""
        if self._closed:
            return []
        # games whose lock another session holds are left out before the limit, so that games
        # owned elsewhere never hide the orphans behind them (a game whose id shares its hash
        # with one this process owns is taken here too: the lock is this session's)
        rows = await self._query(
            "WITH c AS MATERIALIZED ("
            " SELECT g.id FROM games g WHERE g.status = 'active'"
            " AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.kind = 'bot')"
            " AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory'"
            "  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            f"  AND l.classid = {LOCK_SPACE} AND l.objsubid = 2"
            "  AND l.objid::bigint = (hashtext(g.id)::bigint & 4294967295)"
            "  AND l.pid <> pg_backend_pid())"
            " AND NOT (g.id = ANY(%s))"
            " ORDER BY g.updated_at LIMIT %s)"
            f" SELECT id FROM c WHERE pg_try_advisory_lock({LOCK_SPACE}, hashtext(id))",
            (sorted(self._owned), self.sweep_batch),
        )
        ids = [str(r[0]) for r in rows]
        self._owned.update(ids)
        return ids

    async def close(self) -> None:
        """Stop listening and free every lock (closing the owner connection does it)."""
        self._closed = True
        self.listening = False
        if self._listen_task is not None:
            self._listen_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listen_task
            self._listen_task = None
        async with self._owner_lock:
            if self._owner is not None:
                with contextlib.suppress(Exception):
                    await self._owner.close()
                self._owner = None
        self._lost()
