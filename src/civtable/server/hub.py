"""The hub: live games in memory, backed by the store, with bots and push subscribers.

Every game the server touches is a :class:`LiveGame`: its stored setup and seats, the state
rebuilt by replaying the stored move log, the sequence number (moves so far) and the set of
connected subscribers. All changes to one game run under that game's :class:`asyncio.Lock`:

1. check (token, status, sequence number, legality on a copy of the state);
2. append the move to the store and wait for the commit (in a worker thread);
3. only then replace the state, push the new per-seat payloads and answer.

A refused request therefore changes nothing, and an answered move is on disk. Bots choose in a
thread pool (never on the event loop) and their moves go through the same path.

**Sequence numbers.** Every payload carries ``seq``, the number of moves so far; every move
carries the ``seq`` its sender saw. A move is *stale* (HTTP 409) when something that concerns the
sender happened since: its own previous move, or any move that changed its legal actions. Other
seats committing in the same simultaneous step do not make a view stale (they only flip the
``committed`` flags), so players are not refused because a bot was quick; two tabs of one seat
cannot both play, because the first move makes the second tab's ``seq`` stale.

**Several processes** (PostgreSQL, issue 23). On a PostgreSQL store the hub is one of possibly
many server processes (:mod:`civtable.server.cluster`); its copy of a game may then lag the
store. Every change any process commits comes with a notice (``LISTEN``); this process counts
the other processes' notices per game (:meth:`Hub._on_notice`). Before it checks a request
about a game it catches the copy up from the store's move log (:meth:`Hub._catch_up`) only if
it heard of a change since its last read of that game (or its listener was away meanwhile, or
the game is in the lobby): a request on a game nobody else touched costs no read. What a late
notice could hide is caught where it matters: a commit refused because another process stored
that move number first (:class:`StaleSequenceError`) is caught up and checked again, a move
refused on a copy that was not read for it is checked once more after a read, and a move is
read for unless its sender says it holds as many steps of a compound move as the copy has for
its seat (``tentative``) and its ``seq`` is not ahead of the copy; so a move is never stored
twice, a later step not taken as a first one, and a race is answered as a conflict (409),
never as an error. Notices of the
other processes' commits catch up the games this process holds and push them to its sockets; a
lost listener connection makes every game be read again, and every ``resync_every`` seconds one
query checks the held games against the store (a notice lost any other way). A seat's
tentative steps are written to the store too (``pending``), so its next step may reach any
process, unless this process is alone on the database (:attr:`Cluster.solo`): then they are
kept in memory as on SQLite, and written when another process asks to join, before it is let
in (:meth:`Hub._membership`), or at shutdown. The bots of a game are moved by the one process
that holds its advisory lock; a process that dies frees its locks and another one takes its
games over. On SQLite (one process) none of this runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson

from civtable import games, present
from civtable.bots import Bot, BotLimitError, BotLimits, UnknownBotError, make_bot
from civtable.bots.ismcts import IsmctsBot
from civtable.core.api import JSON, Game, State
from civtable.core.errors import (
    IllegalActionError,
    InvalidOptionsError,
    NotYourTurnError,
    UnknownGameError,
)
from civtable.server import extras, tokens
from civtable.server.cluster import Cluster
from civtable.server.errors import ApiError, conflict, invalid, not_found
from civtable.store import (
    Append,
    GameRecord,
    GroupCommit,
    NewGame,
    SeatSpec,
    SeatTakenError,
    StaleSequenceError,
    Store,
    StoreError,
    UnknownGameIdError,
)

log = logging.getLogger("civtable.server")
#: the search behind "suggest a move": one CPU-second, the "hard" level's budget
SUGGEST_BOT = "ismcts:1s:clock=cpu"
T = TypeVar("T")
#: a move refused because another process stored that number first is checked again this often
#: (after catching up) before it is answered as a conflict
COMMIT_TRIES = 3


class _BehindError(Exception):
    """A commit found the store ahead of this process's copy of the game (cluster only)."""


def enable_log(state: State) -> None:
    """Switch on the state's event log (games that keep one expose a ``log`` attribute)."""
    if hasattr(state, "log"):
        state.log = []


def rebuild(record: GameRecord, actions: Sequence[tuple[int, int]]) -> State:
    """The state of a stored game after ``actions``, by replay, with the event log on."""
    game = games.get(record.game)
    state = game.new_game(record.players, record.seed, game.upgrade_options(record.options))
    enable_log(state)
    for i, (seat, action) in enumerate(actions):
        try:
            state.apply(seat, action)
        except IllegalActionError as exc:  # a corrupt log: never expected
            raise StoreError(f"game {record.id}: stored move {i} does not replay: {exc}") from exc
    return state


#: a replay keeps the state after every this many moves (a step's view replays at most this
#: many moves from the nearest one)
REPLAY_EVERY = 32


@dataclass(eq=False)
class Replay:
    """A finished game's replay, built once by one pass over its log: the states after every
    :data:`REPLAY_EVERY` moves, and the index (every move with its label)."""

    record: GameRecord
    actions: list[tuple[int, int]]
    snapshots: list[State]
    index: JSON

    def state_at(self, step: int) -> State:
        """A fresh state after ``step`` moves: the nearest kept state, copied, plus the rest."""
        k = min(step // REPLAY_EVERY, len(self.snapshots) - 1)
        state = self.snapshots[k].copy()
        for seat, action in self.actions[k * REPLAY_EVERY : step]:
            state.apply(seat, action)
        return state


def build_replay(record: GameRecord, actions: Sequence[tuple[int, int]]) -> Replay:
    """Replay a finished game once, keeping a state every :data:`REPLAY_EVERY` moves."""
    state = rebuild(record, [])
    snapshots = [state.copy()]
    for i, (seat, action) in enumerate(actions):
        try:
            state.apply(seat, action)
        except IllegalActionError as exc:  # a corrupt log: never expected
            raise StoreError(f"game {record.id}: stored move {i} does not replay: {exc}") from exc
        if (i + 1) % REPLAY_EVERY == 0:
            snapshots.append(state.copy())
    return Replay(record, list(actions), snapshots, _replay_index(record, actions))


@dataclass(eq=False)
class Subscriber:
    """A push connection. A change only wakes it: its sender builds the payload when it sends
    (:meth:`Hub.payload` at that moment), so moves that follow each other faster than a socket
    sends cost one view, not one each, and the connection is always sent the newest state."""

    seat: int | None
    #: the language of the payload's ``words`` (None: no words, the language-neutral payload)
    lang: str | None = None
    event: asyncio.Event = field(default_factory=asyncio.Event)
    #: the last payload this connection was sent: the base of the next delta
    sent: JSON | None = None
    #: send the whole payload next (on connect, and when the client asks after a gap)
    want_full: bool = True

    #: something changed since the last send
    dirty: bool = False

    def wake(self) -> None:
        """Something this connection shows changed: wake its sender."""
        self.dirty = True
        self.event.set()

    async def changed(self) -> None:
        """Wait until something changed since the last call."""
        while not self.dirty:
            self.event.clear()
            await self.event.wait()
        self.dirty = False


@dataclass(eq=False)
class LiveGame:
    """One game held in memory."""

    record: GameRecord
    state: State | None
    seq: int
    epochs: list[int]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    bots: dict[int, Bot] = field(default_factory=dict)
    #: each bot's spec and seed (a bot worker process makes the same bot from them)
    bot_specs: dict[int, tuple[str, int]] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    cache: dict[int | None, JSON] = field(default_factory=dict)
    #: payloads with words, by (seat, language)
    worded: dict[tuple[int | None, str], JSON] = field(default_factory=dict)
    #: encoded messages, by (seat, language, base version or None for a whole payload,
    #: version): every subscriber of one view shares one serialization per move
    wire: dict[tuple[int | None, str | None, int | None, int], str] = field(default_factory=dict)
    #: random bots are moving one after another (pushes wait until they are done: a push per
    #: bot move cost a view and an encoding per move, issue 23); ``held_push``: one is owed
    holding: bool = False
    held_push: bool = False
    #: a seat's tentative steps: the actions of its compound move so far (not stored, seen only
    #: by that seat) and the state after them; see :meth:`State.move_open`
    tentative: dict[int, tuple[list[int], State]] = field(default_factory=dict)
    #: with other processes: (listener epoch, notice mark) when this copy was last read from the
    #: store (:meth:`Hub._mark`); None: it must be read before the next request
    synced: tuple[int, int] | None = None
    #: (record, :meth:`Hub.summary` of it): the public facts every payload starts from, built
    #: once per record, not once per payload (issue 23); a move's record gets its ``seq`` only
    summary: tuple[GameRecord, JSON] | None = None

    #: raised whenever any payload may change (a move, a tentative step, a lobby change): clients
    #: keep the payload with the highest version, whatever order answers and pushes arrive in.
    #: Microseconds of the clock (but always rising), so it keeps rising across restarts.
    version: int = field(default_factory=lambda: time.time_ns() // 1000)

    def forget_payloads(self, seat: int | None = None) -> None:
        """Drop cached payloads (of one seat, or all) and raise :attr:`version`."""
        self.version = max(self.version + 1, time.time_ns() // 1000)
        if seat is None:
            self.cache.clear()
            self.worded.clear()
            return
        self.cache.pop(seat, None)
        for key in [k for k in self.worded if k[0] == seat]:
            del self.worded[key]

    @property
    def id(self) -> str:
        """The game id."""
        return self.record.id

    @property
    def status(self) -> str:
        """``lobby``, ``active`` or ``over``."""
        return self.record.status


class Hub:
    """All live games of one server process."""

    #: games kept in memory; idle ones beyond this are dropped (and replayed when needed again)
    max_live = 500
    #: finished games whose replay (states at intervals) is kept in memory
    max_replays = 32

    def __init__(
        self,
        store: Store,
        *,
        bot_workers: int = 2,
        bot_processes: int = 0,
        bot_delay: float = 0.0,
        bot_limits: BotLimits | None = None,
        suggest_bot: str = SUGGEST_BOT,
        cluster: bool | None = None,
    ) -> None:
        """``cluster``: share the store with other server processes (default: on PostgreSQL;
        never on SQLite, which one process holds)."""
        self.store = store
        if cluster is None:
            cluster = store.dialect == "postgresql"
        #: this process's part among several on one PostgreSQL (None: the only process)
        self.cluster: Cluster | None = Cluster(store) if cluster else None
        if cluster and not store.origin:  # this process's notices are not news to it
            store.origin = secrets.token_hex(6)
        self._syncs: dict[str, asyncio.Task[None]] = {}
        self._sync_again: set[str] = set()
        #: per game, the number (:attr:`_notices`) of the last notice of another process's
        #: change that this copy may lack; a copy read since then needs no read
        self._heard: dict[str, int] = {}
        self._notices = 0
        #: seconds between two checks of the held games against the store (lost notices)
        self.resync_every = 10.0
        #: store reads made to catch a copy up (for metrics and tests)
        self.catch_up_reads = 0
        self._sweeper: asyncio.Task[None] | None = None
        #: (game id, seat) whose steps in progress changed while this process was solo and are
        #: not written to the store (written before another process joins)
        self._unwritten: set[tuple[str, int]] = set()
        #: tentative-step writes made to the store, and those left out while solo (metrics,
        #: tests)
        self.pending_writes = 0
        self.pending_skipped = 0
        #: :meth:`resume` made this process a member: it takes steps only as one
        self._joined = False
        #: moves of all games are committed together by one writer (issue 23)
        self.commits = GroupCommit(store)
        #: the search behind "suggest a move" (issue 22): an ISMCTS spec chosen by the server
        if not isinstance(make_bot(suggest_bot, 0), IsmctsBot):
            raise ValueError(f"the suggestion bot must be an ismcts spec, not {suggest_bot!r}")
        self.suggest_bot = suggest_bot
        #: what a bot may spend per decision on this server (issues 22, 23)
        self.bot_limits = bot_limits or BotLimits()
        self.bot_delay = bot_delay
        self.pool = ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="civtable-bot")
        #: bot worker processes (0: bots search in :attr:`pool`'s threads, in this process)
        self.bot_processes = bot_processes
        self._procs: ProcessPoolExecutor | None = None
        #: called with each bot process pool when it starts (metrics count its decisions)
        self.on_new_pool: Callable[[Executor], None] | None = None
        self._live: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Future[LiveGame]] = {}
        #: replays of finished games, most recently used last
        self._replays: OrderedDict[str, asyncio.Future[Replay]] = OrderedDict()
        self._closing = False

    # --- life cycle ---------------------------------------------------------------------------
    async def resume(self) -> int:
        """Load every active game and let its bots move (after a restart); returns the count.

        With other processes (:attr:`cluster`): listen for their commits, and take over the
        games with bots that no process moves (now, and every ``sweep_every`` seconds); returns
        how many were taken now."""
        if self.cluster is not None:
            # let in (waits while a process alone on the database writes its steps in
            # progress), before this one takes any request
            await self.cluster.join()
            self._joined = True
            self.cluster.listen(self._on_notice, self._on_reconnect)
            taken = await self._sweep()
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
            return taken
        ids = await self._db(self.store.game_ids, "active")
        for game_id in ids:
            try:
                live = await self.live(game_id)
            except Exception:  # one broken game must not stop the server
                log.exception("cannot resume game %s", game_id)
                continue
            self._kick_bots(live)
        return len(ids)

    async def close(self) -> None:
        """Stop bot tasks and the bot pool. A bot move being committed is finished first: each
        game's bot task is cancelled while this holds the game's lock, so no task is stopped
        between writing a move and making it live (graceful shutdown, issue 23)."""
        self._closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for sync in list(self._syncs.values()):
            sync.cancel()
        tasks = []
        for g in list(self._live.values()):
            task = g.bot_task
            if task is None:
                continue
            async with g.lock:
                task.cancel()
            tasks.append(task)
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.pool.shutdown(wait=False, cancel_futures=True)
        if self._procs is not None:
            self._procs.shutdown(wait=False, cancel_futures=True)
            self._procs = None
        await asyncio.to_thread(self.commits.close)  # what is queued is committed first
        if self.cluster is not None:  # frees this process's games for the others
            with contextlib.suppress(Exception):  # a process that starts later takes them on
                await self._write_unwritten()
            await self.cluster.close()

    def held(self, game_id: str) -> LiveGame | None:
        """The game if it is in memory now (never loads it; for metrics and logs)."""
        return self._live.get(game_id)

    def held_games(self) -> list[LiveGame]:
        """The games in memory now (for metrics)."""
        return list(self._live.values())

    async def _db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a blocking store call in a worker thread."""
        return await asyncio.to_thread(fn, *args, **kwargs)

    # --- loading ------------------------------------------------------------------------------
    async def live(self, game_id: str) -> LiveGame:
        """The live game (loaded and replayed from the store on first use); 404 if unknown."""
        while True:
            hit = self._live.get(game_id)
            if hit is not None:
                return hit
            pending = self._loading.get(game_id)
            if pending is None:
                break
            # another caller loads it; once loaded, another load may have evicted it before
            # this caller resumes: look again rather than take a game out of memory
            await pending
        future: asyncio.Future[LiveGame] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            live = await self._load(game_id)
            self._evict()
            self._live[game_id] = live
            future.set_result(live)
            return live
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # mark retrieved: waiters re-raise it themselves
            raise
        finally:
            del self._loading[game_id]

    def _evict(self) -> None:
        """Forget idle games past ``max_live``: no subscriber, no bot at work, nobody inside,
        and no tentative steps (they live only in memory: evicting them lost a seat's compound
        move in progress, and its next step got 422, issue 23)."""
        if len(self._live) < self.max_live:
            return
        for game_id, g in list(self._live.items()):
            if len(self._live) < self.max_live // 2:
                break
            if self.cluster is not None and self.cluster.owns(game_id):
                continue  # this process moves its bots: it must hear of its moves
            if not (g.subscribers or g.tentative) and g.bot_task is None and not g.lock.locked():
                del self._live[game_id]

    async def _load(self, game_id: str) -> LiveGame:
        if not game_id or len(game_id) > 32:
            raise not_found(f"no game {game_id!r}")
        try:
            record = await self._db(self.store.get_game, game_id)
        except UnknownGameIdError as exc:
            raise not_found(f"no game {game_id!r}") from exc
        state: State | None = None
        seq = 0
        if record.status != "lobby":
            actions = await self._db(self.store.moves, game_id)
            state = await asyncio.to_thread(rebuild, record, actions)
            seq = len(actions)
        live = LiveGame(record=record, state=state, seq=seq, epochs=[seq] * record.players)
        self._make_bots(live)
        return live

    def _make_bots(self, live: LiveGame) -> None:
        for s in live.record.seats:
            if s.kind == "bot" and s.seat not in live.bots:
                spec = s.bot or "random"
                try:
                    self.bot_limits.check(spec, live.record.game, live.record.players)
                except UnknownBotError as exc:
                    # a game stored under other limits (or an older version) keeps playing, with
                    # the strongest level this server allows instead of an unbounded search
                    log.warning(
                        "game %s seat %s: bot %r replaced by expert: %s", live.id, s.seat, spec, exc
                    )
                    spec = "expert"
                seed = live.record.seed * 31 + s.seat
                live.bots[s.seat] = make_bot(spec, seed=seed)
                live.bot_specs[s.seat] = (spec, seed)

    async def _refresh(self, live: LiveGame) -> None:
        """Re-read the record (seats, status) after a lobby change."""
        live.record = await self._db(self.store.get_game, live.id)
        live.forget_payloads()

    # --- several processes (PostgreSQL) -------------------------------------------------------
    def _mark(self, game_id: str) -> tuple[int, int]:
        """What a read of the game made now is current with: the listener's epoch and the
        number of the last notice heard of the game."""
        assert self.cluster is not None
        return self.cluster.epoch, self._heard.get(game_id, 0)

    def _current(self, live: LiveGame) -> bool:
        """Is this copy as the store has it, as far as this process can tell without a read?
        Yes if it was read under the listener's present connection and no other process's
        notice about the game came since (a lobby is always read: seats change there)."""
        cluster = self.cluster
        return (
            cluster is not None
            and cluster.listening
            and live.status != "lobby"
            and live.synced == self._mark(live.id)
        )

    async def _catch_up(self, live: LiveGame) -> bool:
        """Bring this process's copy of the game up to the store (caller holds the lock):
        apply the moves other processes stored since, in order, with the epochs and tentative
        steps a move made here would leave; re-read a lobby's seats. True if anything changed
        (the caller pushes). Only with :attr:`cluster`."""
        mark = self._mark(live.id)  # taken before the read: a notice during it marks it old
        changed = await self._catch_up_read(live)
        live.synced = mark
        return changed

    async def _catch_up_read(self, live: LiveGame) -> bool:
        self.catch_up_reads += 1
        known = live.record.seats if live.status != "lobby" else None
        record, tail, held = await self._db(self.store.since, live.id, live.seq, known)
        old = live.record
        have = {s: acts for s, (acts, _) in live.tentative.items()}
        held = self._with_unwritten(live, held)
        same = record.status == old.status and record.seq == live.seq and not tail
        if same and (record.status != "lobby" or record.seats == old.seats) and held == have:
            return False
        if (live.state is None and record.status != "lobby") or record.seq < live.seq:
            await self._reload(live, record)
            return True
        if live.state is not None and tail:
            advanced = _advance(live, tail)
            if advanced is None:  # never expected: replay it all
                log.warning("game %s: stored moves do not follow this copy; reloading", live.id)
                await self._reload(live, record)
                return True
            live.state, live.seq, live.epochs = advanced
        # the seats' moves in progress, as any process took their steps: kept where they still
        # apply after those moves (the same test on every process)
        for seat in set(live.tentative) - set(held):
            live.tentative.pop(seat, None)
        for seat, actions in held.items():
            if (have.get(seat) != actions or tail) and not self._set_tentative(
                live, seat, actions
            ):  # they no longer apply: forgotten everywhere (unless they were written for a
                # later position than this copy's, which the next catch-up reaches)
                await self._db(self.store.drop_pending, live.id, seat, actions, record.seq)
        live.record = record
        self._make_bots(live)
        return True

    async def _reload(self, live: LiveGame, record: GameRecord) -> None:
        """Replace the copy by a replay of the whole stored log (caller holds the lock)."""
        have = {s: acts for s, (acts, _) in live.tentative.items()}
        actions: list[tuple[int, int]] = []
        state: State | None = None
        if record.status != "lobby":
            actions = await self._db(self.store.moves, live.id, record.seq)
            state = await asyncio.to_thread(rebuild, record, actions)
        live.record = record
        live.state = state
        live.seq = len(actions)
        live.epochs = [live.seq] * record.players
        live.tentative.clear()
        if state is not None:
            _, _, held = await self._db(self.store.since, live.id, record.seq)
            for seat, steps in self._with_unwritten(live, held, have).items():
                self._set_tentative(live, seat, steps)
        self._make_bots(live)

    def _with_unwritten(
        self, live: LiveGame, held: dict[int, list[int]], have: dict[int, list[int]] | None = None
    ) -> dict[int, list[int]]:
        """The stored steps in progress ``held``, with this copy's (``have``) for the seats whose
        steps changed while this process was solo and are not written yet: for those the store
        is behind, and no other process can have changed them."""
        mine = [seat for gid, seat in self._unwritten if gid == live.id]
        if not mine:
            return held
        if have is None:
            have = {s: acts for s, (acts, _) in live.tentative.items()}
        out = dict(held)
        for seat in mine:
            if seat in have:
                out[seat] = list(have[seat])
            else:
                out.pop(seat, None)
        return out

    async def _write_pending(self, live: LiveGame, seat: int, steps: list[int]) -> None:
        """Keep a seat's steps in progress in the store, where another process may take its next
        step (caller holds the lock); while this process is alone (:attr:`Cluster.solo`) only
        note that the store lacks them. Nothing on SQLite."""
        if self.cluster is None:
            return
        if self.cluster.solo:
            self._unwritten.add((live.id, seat))
            self.pending_skipped += 1
            return
        await self._db(self.store.set_pending, live.id, seat, steps)
        self._unwritten.discard((live.id, seat))
        self.pending_writes += 1

    async def _write_unwritten(self) -> None:
        """Write the steps in progress kept in memory only while this process was solo (it is
        no longer: each game's lock is taken, so a step being taken is written with them)."""
        while self._unwritten:
            game_id, seat = min(self._unwritten)
            live = self._live.get(game_id)
            if live is None:  # evicted, so its steps had ended (a game with steps in
                # progress is never evicted): the store forgets any it still has
                await self._db(self.store.set_pending, game_id, seat, [])
                self._unwritten.discard((game_id, seat))
                continue
            async with live.lock:
                if (game_id, seat) not in self._unwritten:
                    continue
                held = live.tentative.get(seat)
                await self._db(self.store.set_pending, game_id, seat, held[0] if held else [])
                self._unwritten.discard((game_id, seat))
                self.pending_writes += 1

    async def _membership(self) -> None:
        """Let a process that waits to join in (after writing the steps kept in memory only),
        or become solo when every other process has left; write what a lost membership left
        unwritten."""
        cluster = self.cluster
        assert cluster is not None
        if cluster.solo:
            if await cluster.joiners():
                cluster.solo = False  # from now on every step is written
                await self._write_unwritten()
                await cluster.share()
                log.info("cluster: another process joins; steps in progress are stored")
            return
        if self._unwritten:  # the membership was lost with the owner connection
            await self._write_unwritten()
        if not cluster.member:
            await cluster.join()
        elif await cluster.try_solo():
            log.info("cluster: alone on the database; steps in progress kept in memory")

    async def _fresh(self, live: LiveGame, *, force: bool = False) -> bool:
        """With other processes: catch the copy up and push what changed (caller holds the
        lock), unless it is :meth:`_current` (and not ``force``); True if the store was read.
        Nothing on SQLite."""
        if self.cluster is None or (not force and self._current(live)):
            return False
        if await self._catch_up(live):
            self._broadcast(live)
        return True

    async def fresh(self, game_id: str, *, force: bool = False) -> LiveGame:
        """The live game, caught up with what other processes stored (:meth:`live` alone on
        SQLite): what a request that reads a game's state should see. ``force``: read the
        store even if no notice says the game changed (a request that refuses on a copy that
        lacks another process's change would be wrong, not just late)."""
        live = await self.live(game_id)
        if self.cluster is not None:
            async with live.lock:
                await self._fresh(live, force=force)
            self._kick_bots(live, claim=False)
        return live

    def _on_notice(self, game_id: str, seq: int, origin: str = "", what: str = "") -> None:
        """Some process committed a change of ``game_id`` (now ``seq`` moves; -1: a seat's
        steps in progress): unless this process's copy has it, apply it from the notice itself
        (:meth:`_apply_notice`) or else :meth:`_changed`. Its own changes (``origin``) it has
        already."""
        if self._closing or (origin and origin == self.store.origin):
            return
        live = self._live.get(game_id)
        if live is not None and 0 <= seq <= live.seq and live.status != "lobby":
            return  # this process made that move (or has caught up past it already)
        if live is not None and what and self._apply_notice(live, seq, what):
            return
        self._changed(game_id)

    def _apply_notice(self, live: LiveGame, seq: int, what: str) -> bool:
        """Apply another process's change that its notice spells out (``what``: the moves it
        appended, or a seat's steps in progress now; :func:`civtable.store.notice_lines`) to
        this copy without reading the store, and push it; False (nothing changed) unless the
        copy is :meth:`_current`, nobody holds the game's lock, and the change follows on the
        copy exactly. The copy stays current: it now has everything that was noticed."""
        if live.lock.locked() or live.status != "active" or live.state is None:
            return False
        if not self._current(live):
            return False
        try:
            if seq == -1:
                seat_text, _, steps_text = what.partition(":")
                seat = int(seat_text)
                actions = [int(a) for a in steps_text.split(",") if a]
                if not 0 <= seat < live.record.players:
                    return False
                held = live.tentative.get(seat)
                if actions and not self._set_tentative(live, seat, actions):
                    if held is not None:
                        live.tentative[seat] = held
                    return False  # not on this copy: a read settles it
                if not actions:
                    live.tentative.pop(seat, None)
                self._push_seat(live, seat)
                return True
            tail = [(int(a), int(b)) for a, b in (step.split(".") for step in what.split(","))]
        except ValueError:
            return False
        if live.seq + len(tail) != seq:
            return False
        advanced = _advance(live, tail)
        if advanced is None:
            return False
        live.state, live.seq, live.epochs = advanced
        live.record = _with_seq(live.record, seq)
        for mover in {s for s, _ in tail}:  # their steps in progress are now the move
            live.tentative.pop(mover, None)
        for other, (actions, _) in list(live.tentative.items()):
            # another seat's move in progress is kept if it still applies (as after a move
            # made here, :meth:`_commit`)
            self._set_tentative(live, other, actions)
        self._broadcast(live)
        self._kick_bots(live, claim=False)
        return True

    def _changed(self, game_id: str) -> None:
        """The stored game may be ahead of this process's copy: note that the copy needs a
        read (:meth:`_current`), and if this process holds the game for sockets or bots,
        catch up and push now (one catch-up at a time per game)."""
        if self._closing:
            return
        self._notices += 1
        self._heard[game_id] = self._notices
        live = self._live.get(game_id)
        if live is None:  # a game being loaded has its mark taken before its read
            if len(self._heard) > 4 * self.max_live:
                for gid in [g for g in self._heard if g not in self._live]:
                    if gid not in self._loading:
                        del self._heard[gid]
            return
        assert self.cluster is not None
        if not live.subscribers and not self.cluster.owns(game_id):
            return  # nobody to push to and no bot to move: the next request catches up
        if game_id in self._syncs:
            self._sync_again.add(game_id)
            return
        self._syncs[game_id] = asyncio.get_running_loop().create_task(self._sync(live))

    def _on_reconnect(self) -> None:
        """The listener was disconnected: notices may be lost, so catch up every game held
        (the new :attr:`Cluster.epoch` alone makes each be read before its next request)."""
        for game_id in list(self._live):
            self._changed(game_id)

    async def _sync(self, live: LiveGame) -> None:
        try:
            while True:
                self._sync_again.discard(live.id)
                async with live.lock:
                    await self._fresh(live)
                self._kick_bots(live, claim=False)
                if live.id not in self._sync_again:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: cannot catch up from the store", live.id)
        finally:
            self._syncs.pop(live.id, None)

    async def _sweep(self) -> int:
        """Let go of the games this process no longer needs to move, and take over the games
        with bots that no process moves; returns how many were taken."""
        cluster = self.cluster
        assert cluster is not None
        for game_id in cluster.owned():
            g = self._live.get(game_id)
            if g is None or g.status == "over":
                await cluster.release(game_id)
        taken = await cluster.orphans()
        for game_id in taken:
            try:
                live = await self.fresh(game_id)
            except Exception:  # one broken game must not stop the others
                log.exception("cannot take over game %s", game_id)
                await cluster.release(game_id)
                continue
            self._kick_bots(live)
        return len(taken)

    async def _resync(self) -> int:
        """Check the active games held in memory against the store in one query; a game whose
        stored position differs is treated as if a notice had come (read before its next
        request, and caught up now if it has sockets or bots here). Covers a notice lost in a
        way the listener cannot tell; returns how many games differed."""
        held = [g for g in self._live.values() if g.status == "active"]
        if not held:
            return 0
        stored = await self._db(self.store.positions, [g.id for g in held])
        behind = 0
        for g in held:
            pos = stored.get(g.id)
            if pos is not None and (pos[0] != g.seq or pos[1] != g.status):
                behind += 1
                self._changed(g.id)
        return behind

    async def _sweep_loop(self) -> None:
        cluster = self.cluster
        assert cluster is not None
        last_resync = time.monotonic()
        while not self._closing:
            await asyncio.sleep(cluster.sweep_every)
            try:
                await self._membership()
                await self._sweep()
                if time.monotonic() - last_resync >= self.resync_every:
                    last_resync = time.monotonic()
                    await self._resync()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database may be away for a moment
                log.warning("cluster: cannot look for games to take over: %s", exc)

    # --- authentication -----------------------------------------------------------------------
    @staticmethod
    def seat_of(live: LiveGame, token: str | None) -> int:
        """The seat a token holds in this game: 401 without a token, 403 for a wrong one."""
        if not token:
            raise ApiError(
                401, "token_required", "this needs your seat token (Authorization: Bearer …)"
            )
        found = -1
        digest = None  # hashed once for all the seats (not once per seat)
        for s in live.record.seats:
            if s.token_hash is None:
                continue
            if digest is None:
                digest = tokens.token_hash(token)
            if tokens.matches_hash(digest, s.token_hash):
                found = s.seat
        if found < 0:
            raise ApiError(403, "wrong_token", f"this token holds no seat in game {live.id}")
        return found

    # --- payloads -----------------------------------------------------------------------------
    def summary(self, record: GameRecord) -> JSON:
        """Public facts about a game (lobby lists)."""
        name = record.game
        with contextlib.suppress(UnknownGameError):
            name = games.get(record.game).name
        return {
            "id": record.id,
            "game": record.game,
            "game_name": name,
            "name": record.name,
            "players": record.players,
            "status": record.status,
            "seq": record.seq,
            "options": record.options,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "bot": s.bot,
                    "name": s.name or (f"{s.bot} bot" if s.kind == "bot" else ""),
                    "taken": s.taken,
                }
                for s in record.seats
            ],
            "free_seats": [s.seat for s in record.seats if not s.taken],
            "suggestions": record.suggestions,
            "created_at": record.created_at.isoformat(),
            "updated_at": record.updated_at.isoformat(),
        }

    def payload(self, live: LiveGame, seat: int | None, lang: str | None = None) -> JSON:
        """What one seat (or a spectator) is sent: built from ``state.view(seat)`` only.

        A seat with tentative steps sees the state after them (and ``tentative`` counts them);
        everybody else sees the committed state. With ``lang`` the payload also carries
        ``words``: the player words of the view in that language (:mod:`civtable.present`).
        """
        if lang is not None:
            hit = live.worded.get((seat, lang))
            if hit is not None:
                return hit
            base = self.payload(live, seat)
            doc = dict(base)
            doc["words"] = self._words(live, base.get("view"), seat, lang)
            live.worded[(seat, lang)] = doc
            return doc
        hit = live.cache.get(seat)
        if hit is not None:
            return hit
        known = live.summary
        if known is None or known[0] is not live.record:
            known = live.summary = (live.record, self.summary(live.record))
        doc = dict(known[1])
        doc["type"] = "state"
        doc["seq"] = live.seq
        doc["version"] = live.version
        doc["you"] = seat
        held = live.tentative.get(seat) if seat is not None else None
        state = held[1] if held is not None else live.state
        doc["tentative"] = len(held[0]) if held is not None else 0
        view = state.view(seat) if state is not None else None
        doc["view"] = view
        hint_fn = extras.hints(live.record.game)
        doc["hints"] = None
        if hint_fn is not None and view is not None and seat is not None:
            doc["hints"] = hint_fn(view)
        live.cache[seat] = doc
        return doc

    def _words(self, live: LiveGame, view: JSON | None, seat: int | None, lang: str) -> JSON | None:
        tr = present.translator(lang)
        names = present.seat_names(live.record.seats, tr)
        if view is None:
            return {"names": list(names)}
        try:
            words = present.render(live.record.game, view, present.Ctx(tr, names, seat))
        except Exception:  # a presentation bug must never stop a game: the view still goes out
            log.exception("game %s: cannot render the words of seat %s", live.id, seat)
            return {"names": list(names)}
        return {**words, "names": list(names)}

    def _broadcast(self, live: LiveGame) -> None:
        live.forget_payloads()
        live.wire.clear()
        if live.holding:  # random bots are moving in a row: one push once they are done
            live.held_push = True
            return
        for sub in live.subscribers:
            sub.wake()

    def _release(self, live: LiveGame) -> None:
        """End a hold of pushes (:attr:`LiveGame.holding`): wake the subscribers if anything
        changed meanwhile."""
        live.holding = False
        if live.held_push:
            live.held_push = False
            for sub in live.subscribers:
                sub.wake()

    def _push_seat(self, live: LiveGame, seat: int) -> None:
        """Re-send one seat its payload (its tentative steps changed; nobody else's did)."""
        live.forget_payloads(seat)
        for sub in live.subscribers:
            if sub.seat == seat:
                sub.wake()

    async def next_message(self, live: LiveGame, sub: Subscriber) -> str:
        """Wait for a change, then the text to send ``sub``: its payload as it is now."""
        await sub.changed()
        return self.message(live, sub, self.payload(live, sub.seat, sub.lang))

    def encoded(self, live: LiveGame, seat: int | None, lang: str | None = None) -> str:
        """:meth:`payload` as JSON text, encoded once per view and version."""
        doc = self.payload(live, seat, lang)
        return self._encode(live, (seat, lang, None, int(doc["version"])), doc)

    @staticmethod
    def _encode(
        live: LiveGame, key: tuple[int | None, str | None, int | None, int], doc: JSON
    ) -> str:
        hit = live.wire.get(key)
        if hit is None:
            if len(live.wire) >= 256:  # tentative steps only add entries; moves clear them
                live.wire.clear()
            hit = live.wire[key] = encode_json(doc)
        return hit

    def message(self, live: LiveGame, sub: Subscriber, doc: JSON) -> str:
        """The text to send ``sub`` for its new payload ``doc``: the whole payload on connect
        (or when the client asked for it), else a delta on the payload it was sent last
        (:func:`payload_delta`). Encoded once per (view, base, version), not per subscriber."""
        base = None if sub.want_full else sub.sent
        sub.want_full = False
        sub.sent = doc
        version = int(doc["version"])
        if base is None:
            return self._encode(live, (sub.seat, sub.lang, None, version), doc)
        key = (sub.seat, sub.lang, int(base["version"]), version)
        hit = live.wire.get(key)
        if hit is not None:
            return hit
        return self._encode(live, key, payload_delta(base, doc))

    def subscribe(self, live: LiveGame, seat: int | None, lang: str | None = None) -> Subscriber:
        """A push subscriber; its first message is the current payload, whole."""
        sub = Subscriber(seat, lang)
        live.subscribers.add(sub)
        sub.wake()
        return sub

    def resend(self, live: LiveGame, sub: Subscriber) -> None:
        """The client asked for the whole state (a gap in its deltas): push it whole."""
        sub.want_full = True
        sub.wake()

    @staticmethod
    def unsubscribe(live: LiveGame, sub: Subscriber) -> None:
        """Forget a subscriber."""
        live.subscribers.discard(sub)

    # --- lobby --------------------------------------------------------------------------------
    async def create(
        self,
        *,
        game_id: str,
        players: int,
        seats: Sequence[SeatSpec],
        options: JSON | None = None,
        seed: int | None = None,
        name: str = "",
        take_seat: int | None = None,
        player_name: str = "",
        autostart: bool = True,
        suggestions: bool | None = None,
    ) -> tuple[JSON, int | None, str | None]:
        """Create a game; optionally seat the creator. Returns (summary, seat, token).

        ``suggestions``: may the players ask a bot to suggest a move; by default only when at
        most one seat is a person (the creator decides otherwise).
        """
        try:
            game: Game = games.get(game_id)
        except UnknownGameError as exc:
            raise invalid("unknown_game_type", str(exc)) from exc
        if not game.min_players <= players <= game.max_players:
            raise invalid(
                "bad_players",
                f"{game.name} is for {game.min_players} to {game.max_players} players, "
                f"not {players}",
            )
        if len(seats) != players:
            raise invalid("bad_seats", f"{players} players need {players} seats, got {len(seats)}")
        for i, s in enumerate(seats):
            if s.kind not in ("human", "bot"):
                raise invalid("bad_seats", f"seat {i}: kind must be 'human' or 'bot'")
            if s.kind == "bot":
                try:
                    self.bot_limits.check(s.bot or "", game_id, players)
                except BotLimitError as exc:
                    raise invalid("bot_over_limit", f"seat {i}: {exc}") from exc
                except UnknownBotError as exc:
                    raise invalid("unknown_bot", f"seat {i}: {exc}") from exc
        if take_seat is not None and not (
            0 <= take_seat < players and seats[take_seat].kind == "human"
        ):
            raise invalid("bad_seats", f"take_seat {take_seat} is not a human seat")
        # 62 bits from the OS's random source: a spectator cannot recover the seed (and with it
        # every hidden card) by trying seeds against what the table shows
        seed = secrets.randbelow(2**62) if seed is None else seed
        try:
            state = game.new_game(players, seed, options or {})
        except InvalidOptionsError as exc:
            raise invalid("bad_options", str(exc)) from exc
        except (TypeError, ValueError, OverflowError, KeyError) as exc:  # an engine's blind spot
            log.warning("game %s: options %r refused by %r", game_id, options, exc)
            raise invalid("bad_options", f"these options are not valid: {exc}") from exc
        del state
        # stored with every default filled in, so a later change of a default cannot change it
        options = {**game.default_options(), **(options or {})}
        setup = NewGame(
            game=game_id,
            players=players,
            seed=seed,
            options=dict(options or {}),
            seats=list(seats),
            name=name,
            autostart=autostart,
            suggestions=(
                sum(s.kind == "human" for s in seats) <= 1 if suggestions is None else suggestions
            ),
        )
        record = await self._db(self.store.create_game, setup)
        token: str | None = None
        if take_seat is not None:
            token = tokens.new_token()
            await self._db(
                self.store.take_seat, record.id, take_seat, player_name, tokens.token_hash(token)
            )
        live = await self.live(record.id)
        async with live.lock:
            await self._refresh(live)
            if live.record.autostart and all(s.taken for s in live.record.seats):
                await self._start(live)
        return self.summary(live.record), take_seat, token

    async def join(self, game_id: str, seat: int | None, name: str) -> tuple[JSON, int, str]:
        """Take a free human seat (the first free one if ``seat`` is None)."""
        live = await self.fresh(game_id)
        async with live.lock:
            if live.status != "lobby":
                raise conflict("not_in_lobby", f"game {game_id} has started; you can spectate")
            free = [s.seat for s in live.record.seats if not s.taken]
            if seat is None:
                if not free:
                    raise conflict("no_free_seat", f"game {game_id} has no free seat")
                seat = free[0]
            if not 0 <= seat < live.record.players:
                raise invalid("bad_seat", f"no seat {seat} in a {live.record.players}-player game")
            if seat not in free:
                raise conflict("seat_taken", f"seat {seat} of game {game_id} is taken")
            token = tokens.new_token()
            try:
                await self._db(self.store.take_seat, game_id, seat, name, tokens.token_hash(token))
            except SeatTakenError as exc:
                raise conflict("seat_taken", str(exc)) from exc
            await self._refresh(live)
            if live.record.autostart and all(s.taken for s in live.record.seats):
                await self._start(live)
            self._broadcast(live)
        self._kick_bots(live)
        return self.summary(live.record), seat, token

    async def start(self, game_id: str, token: str | None, fill_with: str | None) -> JSON:
        """Start a game in the lobby (a seated player asks); free seats may become bots."""
        live = await self.fresh(game_id)
        self.seat_of(live, token)
        async with live.lock:
            if live.status != "lobby":
                raise conflict("not_in_lobby", f"game {game_id} has already started")
            free = [s.seat for s in live.record.seats if not s.taken]
            if free and fill_with is None:
                raise conflict(
                    "seats_free",
                    f"seat(s) {', '.join(map(str, free))} are free: wait for players, "
                    "or start with fill_with set to a bot name",
                )
            if free:
                assert fill_with is not None
                try:
                    self.bot_limits.check(fill_with, live.record.game, live.record.players)
                except BotLimitError as exc:
                    raise invalid("bot_over_limit", str(exc)) from exc
                except UnknownBotError as exc:
                    raise invalid("unknown_bot", str(exc)) from exc
                for s in free:
                    await self._db(self.store.make_bot, game_id, s, fill_with)
                await self._refresh(live)
                self._make_bots(live)
            await self._start(live)
            self._broadcast(live)
        self._kick_bots(live)
        return self.payload(live, self.seat_of(live, token))

    async def _start(self, live: LiveGame) -> None:
        """Lobby → active (caller holds the lock)."""
        try:
            await self._db(self.store.set_status, live.id, "active", expect="lobby")
        except StoreError:
            if self.cluster is None:
                raise
            await self._catch_up(live)  # another process started it just now
            self._broadcast(live)
            return
        await self._refresh(live)
        self._make_bots(live)
        live.state = rebuild(live.record, [])
        live.seq = 0
        live.epochs = [0] * live.record.players
        self._broadcast(live)
        self._kick_bots(live)

    # --- moves --------------------------------------------------------------------------------
    async def move(
        self,
        game_id: str,
        token: str | None,
        seq: int,
        action: int,
        lang: str | None = None,
        *,
        tentative: int | None = None,
    ) -> JSON:
        """A seat's move (see the module doc for ``seq``). Returns the mover's new payload.

        A step that leaves the seat's compound move open (:meth:`State.move_open`) is held as a
        tentative step: not stored, not shown to anybody else, cancellable; the step that
        completes the move stores all of them at once. ``tentative``: the sender's count of
        its steps in progress (the payload's ``tentative``), if it says.
        """
        live, seat = await self._move(game_id, token, seq, action, tentative)
        return self.payload(live, seat, lang)

    async def move_encoded(
        self,
        game_id: str,
        token: str | None,
        seq: int,
        action: int,
        lang: str | None = None,
        *,
        tentative: int | None = None,
    ) -> str:
        """:meth:`move`, answered with the payload's JSON text (encoded once per view)."""
        live, seat = await self._move(game_id, token, seq, action, tentative)
        return self.encoded(live, seat, lang)

    async def move_ack(
        self,
        game_id: str,
        token: str | None,
        seq: int,
        action: int,
        *,
        tentative: int | None = None,
    ) -> JSON:
        """:meth:`move` without the payload (a move sent on the push socket, whose payload goes
        out as the socket's next push): the mover's new ``seq``, ``version`` and count of
        steps in progress, as its payload will say."""
        live, seat = await self._move(game_id, token, seq, action, tentative)
        held = live.tentative.get(seat)
        return {
            "status": 200,
            "seq": live.seq,
            "version": live.version,
            "tentative": len(held[0]) if held is not None else 0,
        }

    async def _member(self) -> None:
        """With other processes: take a step only as a member (:meth:`Cluster.join`); one whose
        membership was lost waits to be let in again, so that no solo process holds steps in
        memory only meanwhile."""
        if self.cluster is not None and self._joined and not self.cluster.member:
            await self.cluster.join()

    async def _move(
        self, game_id: str, token: str | None, seq: int, action: int, tentative: int | None
    ) -> tuple[LiveGame, int]:
        await self._member()
        live = await self.live(game_id)
        if self.cluster is None:
            seat = self.seat_of(live, token)
        async with live.lock:
            if self.cluster is None:
                self._check_steps(live, seat, tentative)
                await self._check_and_apply(live, seat, seq, action, hold=True)
            else:
                # read first unless the sender's view agrees with the copy: its seq is not ahead
                # (a change this process has not heard of) and it holds as many steps of a
                # compound move in progress as the copy has for its seat. Else a step may follow
                # a first step taken on another process whose notice is still on the way, and
                # in most games a later step's action id is also legal as a first step (so a
                # refusal would not reveal it)
                seat = self.seat_of(live, token) if live.status != "lobby" else -1
                mine = live.tentative.get(seat)
                agrees = tentative == len(mine[0] if mine else ()) and seq <= live.seq
                read = await self._fresh(live, force=not agrees)
                seat = self.seat_of(live, token)
                if read:
                    self._check_steps(live, seat, tentative)
                try:
                    await self._check_and_apply(live, seat, seq, action, hold=True)
                except ApiError:
                    if read:
                        raise
                    # refused on a copy not read for this request: another process's change
                    # (a step of this seat's move, say) may be committed, its notice on the
                    # way; refuse only what the store's position refuses too
                    await self._fresh(live, force=True)
                    await self._check_and_apply(live, seat, seq, action, hold=True)
        self._kick_bots(live)
        return live, seat

    @staticmethod
    def _check_steps(live: LiveGame, seat: int, tentative: int | None) -> None:
        """409 ``stale`` when the sender says how many steps of a compound move it holds
        (``tentative``) and the seat holds another number: its view is out of date (a move
        of another seat ended the steps, say), and its action was chosen for another step; it
        could be legal there too and be taken as a step the player never chose."""
        if tentative is None:
            return
        held = live.tentative.get(seat)
        have = len(held[0]) if held is not None else 0
        if tentative != have:
            raise conflict(
                "stale",
                f"your view holds {tentative} step(s) of a move in progress, the game {have}; "
                "reload and choose again",
            )

    async def cancel(
        self,
        game_id: str,
        token: str | None,
        seq: int,
        steps: int | None = None,
        lang: str | None = None,
    ) -> JSON:
        """Withdraw the last ``steps`` tentative steps of the token's seat (all if None)."""
        await self._member()
        live = await self.fresh(game_id, force=True)
        seat = self.seat_of(live, token)
        async with live.lock:
            self._check_open(live, seq)
            held = live.tentative.get(seat)
            if held is None:
                raise conflict("nothing_to_cancel", "you have no move in progress to cancel")
            actions = held[0]
            if steps is not None and not 1 <= steps <= len(actions):
                raise invalid(
                    "bad_steps", f"you can go back 1 to {len(actions)} steps, not {steps}"
                )
            keep = actions[: len(actions) - steps] if steps is not None else []
            await self._write_pending(live, seat, keep)
            self._set_tentative(live, seat, keep)
            self._push_seat(live, seat)
        return self.payload(live, seat, lang)

    def _set_tentative(self, live: LiveGame, seat: int, actions: list[int]) -> bool:
        """Hold ``actions`` as the seat's tentative steps on the committed state; False (and
        nothing held) when they no longer apply there."""
        live.tentative.pop(seat, None)
        if not actions or live.state is None:
            return not actions
        state = live.state.copy()
        try:
            for a in actions:
                state.apply(seat, a)
        except (IllegalActionError, NotYourTurnError):
            return False
        if not state.move_open(seat):
            return False
        live.tentative[seat] = (list(actions), state)
        return True

    def _check_open(self, live: LiveGame, seq: int) -> None:
        if live.status == "lobby":
            raise conflict("not_started", f"game {live.id} has not started yet")
        if live.status == "over" or live.state is None or live.state.is_terminal():
            raise conflict("game_over", f"game {live.id} is over")
        if seq > live.seq or seq < 0:
            raise conflict(
                "bad_seq", f"sequence number {seq} does not exist (the game is at {live.seq})"
            )

    async def _check_and_apply(
        self, live: LiveGame, seat: int, seq: int, action: int, *, hold: bool = False
    ) -> None:
        """Check a move against the copy and commit it (caller holds the lock). With other
        processes, a commit refused because the store is ahead catches the copy up and checks
        the move again there (where it may now be stale, or no longer legal)."""
        for _ in range(COMMIT_TRIES):
            try:
                await self._check_and_apply_once(live, seat, seq, action, hold=hold)
                return
            except _BehindError:
                await self._catch_up(live)
                self._broadcast(live)
        raise conflict("stale", f"game {live.id} moved on meanwhile; reload and choose again")

    async def _check_and_apply_once(
        self, live: LiveGame, seat: int, seq: int, action: int, *, hold: bool = False
    ) -> None:
        self._check_open(live, seq)
        if seq < live.epochs[seat]:
            raise conflict(
                "stale",
                f"your view (seq {seq}) is out of date: the game moved on to seq {live.seq}; "
                "reload and choose again",
            )
        state = live.state
        assert state is not None
        held = live.tentative.get(seat)
        before = held[1] if held is not None else state
        after = before.copy()
        try:
            after.apply(seat, action)
        except NotYourTurnError as exc:
            raise conflict("not_your_turn", str(exc)) from exc
        except IllegalActionError as exc:
            raise invalid("illegal_action", str(exc)) from exc
        steps = [*(held[0] if held is not None else []), action]
        if hold and not after.is_terminal() and after.move_open(seat):
            await self._write_pending(live, seat, steps)  # any process may take the next step
            live.tentative[seat] = (steps, after)
            self._push_seat(live, seat)
            return
        await self._commit(live, seat, steps, after)

    async def _commit(self, live: LiveGame, seat: int, steps: list[int], after: State) -> None:
        """Persist a validated move (its tentative steps and the last one, in one transaction),
        then make it live (caller holds the lock)."""
        state = live.state
        assert state is not None
        finished = after.result().to_json() if after.is_terminal() else None
        entry = Append(live.id, live.seq, tuple((seat, a) for a in steps), finished)
        try:
            # answered only once the group it went into is committed
            await self.commits.submit_async(entry)
        except StaleSequenceError as exc:
            if self.cluster is not None:  # another process stored this number first
                raise _BehindError from exc
            # Someone else wrote to this game (another server process): reload it.
            self._live.pop(live.id, None)
            raise conflict("stale", f"{exc}; reload the game") from exc
        new_seq = live.seq + len(steps)
        for s in range(live.record.players):
            if s == seat or after.legal_actions(s) != state.legal_actions(s):
                live.epochs[s] = new_seq
        live.state = after
        live.seq = new_seq
        live.tentative.pop(seat, None)
        self._unwritten.discard((live.id, seat))  # the commit forgot the seat's stored steps
        for other, (actions, _) in list(live.tentative.items()):
            # another seat's move in progress is kept if it still applies after this one
            self._set_tentative(live, other, actions)
        if finished is not None:
            live.record = await self._db(self.store.get_game, live.id)
        else:
            record = live.record
            live.record = _with_seq(record, new_seq)
            known = live.summary
            if known is not None and known[0] is record:  # the same facts but the seq
                live.summary = (live.record, {**known[1], "seq": new_seq})
        self._broadcast(live)

    # --- suggest a move ----------------------------------------------------------------------
    async def suggest(
        self, game_id: str, token: str | None, seq: int, lang: str | None = None, top: int = 3
    ) -> JSON:
        """The bot's ``top`` moves for the token's seat's current decision, with visits and
        estimated win rates (issue 22). The search runs on determinizations of the seat's view
        only (every game's ``determinize`` depends on what the seat knows, never on the true
        hidden cards), is seeded by the position, and changes nothing."""
        live = await self.fresh(game_id, force=True)
        seat = self.seat_of(live, token)
        if not live.record.suggestions:
            raise ApiError(
                403, "suggestions_off", "the table's creator did not allow move suggestions"
            )
        async with live.lock:
            self._check_open(live, seq)
            held = live.tentative.get(seat)
            state = held[1] if held is not None else live.state
            assert state is not None
            if seq < live.epochs[seat]:  # the seat's decision changed since that position
                raise conflict("stale", f"the game moved on since {seq}; reload it")
            if not state.legal_actions(seat):
                raise conflict("not_your_decision", "you have no decision to make now")
            snapshot = state.copy()
            view = state.view(seat)
            steps = len(held[0]) if held is not None else 0
        seed = live.record.seed * 1009 + seq * 31 + seat + steps
        bot = make_bot(self.suggest_bot, seed=seed)
        if not isinstance(bot, IsmctsBot):  # pragma: no cover - the spec is checked at start
            raise ApiError(500, "bad_suggest_bot", "the suggestion bot is not a search")
        if self.bot_processes:
            job = (self.suggest_bot, seed, live.record.game, snapshot.to_json(), seat, top)
            moves, iterations = await self._in_process_pool(_explain_in_worker, *job)
        else:
            loop = asyncio.get_running_loop()
            moves = await loop.run_in_executor(self.pool, bot.explain, snapshot, seat, top)
            iterations = bot.last.iterations
        labels: dict[str, str] = {}
        if lang is not None:
            words = self._words(live, view, seat, lang) or {}
            labels = words.get("legal") or {}
        return {
            "seq": seq,
            "seat": seat,
            "tentative": steps,
            "iterations": iterations,
            "moves": [
                {
                    "action": m.action,
                    "label": labels.get(str(m.action), m.label),
                    "visits": m.visits,
                    "win_rate": round(m.win_rate, 4),
                }
                for m in moves
            ],
        }

    # --- bots ---------------------------------------------------------------------------------
    def _kick_bots(self, live: LiveGame, *, claim: bool = True) -> None:
        """Make sure a task is moving this game's bots if any of them owes a decision.

        With other processes, only the process that owns the game's bots moves them; with
        ``claim`` this one tries to become the owner if no process is (after a change made
        here), without it only an owner acts (after another process's change)."""
        if self._closing or live.bot_task is not None or live.status != "active":
            return
        if self.cluster is not None and not claim and not self.cluster.owns(live.id):
            return
        state = live.state
        if state is None or not any(s in live.bots for s in state.to_move()):
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._drive_bots(live))

    async def _in_process_pool(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn`` in a bot worker process (the pool starts on first use, and again after a
        worker died: the call that saw the death fails, as a bot's crash always did)."""
        if self._procs is None:
            self._procs = ProcessPoolExecutor(
                max_workers=self.bot_processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_follow_server,
                initargs=(os.getpid(),),
            )
            if self.on_new_pool is not None:
                self.on_new_pool(self._procs)
        procs = self._procs
        try:
            return await asyncio.wrap_future(procs.submit(fn, *args))
        except BrokenProcessPool:
            if self._procs is procs:
                self._procs = None
                procs.shutdown(wait=False, cancel_futures=True)
            raise

    @staticmethod
    def _random_only(live: LiveGame, due: list[int]) -> bool:
        """Are all these bots of the random level (they choose without searching)?"""
        return all(live.bot_specs.get(s, ("",))[0] == "random" for s in due)

    async def _play_picks(
        self, live: LiveGame, picks: list[tuple[int, int]], seen: int, failures: int
    ) -> int:
        """Make the bots' choices (taken at ``seen`` moves) moves, as long as each bot's
        situation is unchanged (caller holds the lock); returns the count of refusals in a row
        (the third raises)."""
        for s, action in picks:
            if live.epochs[s] > seen or live.status != "active":
                break  # the bot's situation changed while it thought
            try:
                await self._check_and_apply(live, s, seen, action)
                failures = 0
            except ApiError as exc:
                failures += 1
                log.warning("game %s: bot move refused: %s", live.id, exc.message)
                if failures >= 3:
                    raise
                break
        return failures

    async def _choose(self, live: LiveGame, due: list[int], state: State) -> list[tuple[int, int]]:
        """Each due bot's choice on ``state``. The random level chooses here (it does not
        search: sending the state away would cost more); the others search in a bot worker
        process (``bot_processes``), so no search holds this process's interpreter lock, or
        else in the thread pool. A worker gets the bot's spec, seed and random-number state
        and sends back the choice and the new random-number state: the same choices as here."""
        if self._random_only(live, due):
            return _choose_all([(live.bots[s], s) for s in due], state)
        if not self.bot_processes:
            loop = asyncio.get_running_loop()
            jobs = [(live.bots[s], s) for s in due]
            return await loop.run_in_executor(self.pool, _choose_all, jobs, state)
        specs = [(*live.bot_specs[s], live.bots[s].rng.state, s) for s in due]
        doc = state.to_json()
        done = await self._in_process_pool(_choose_in_worker, live.record.game, specs, doc)
        picks = []
        for seat, action, rng_state in done:
            live.bots[seat].rng.state = rng_state
            picks.append((seat, action))
        return picks

    async def _drive_bots(self, live: LiveGame) -> None:
        failures = 0
        try:
            if self.cluster is not None and not self.cluster.owns(live.id):
                try:
                    mine = await self.cluster.claim(live.id)
                except Exception as exc:  # the database may be away: the sweep tries again
                    log.warning("game %s: cannot claim its bots: %s", live.id, exc)
                    mine = False
                if not mine:  # another process moves them
                    live.bot_task = None
                    return
            while True:
                async with live.lock:
                    state = live.state
                    due = [] if state is None else [s for s in state.to_move() if s in live.bots]
                    if state is None or not due or live.status != "active":
                        live.bot_task = None
                        self._release(live)
                        return
                    seen = live.seq
                    if not self.bot_delay and self._random_only(live, due):
                        # random bots do not search: they choose on the live state itself and
                        # move in the same hold of the lock (no copy of the state); their moves
                        # in a row go out in one push (issue 23)
                        live.holding = True
                        picks = _choose_all([(live.bots[s], s) for s in due], state)
                        failures = await self._play_picks(live, picks, seen, failures)
                        continue
                    self._release(live)  # a searching bot takes its time: push what is done
                    snapshot = state.copy()
                picks = await self._choose(live, due, snapshot)
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                async with live.lock:
                    failures = await self._play_picks(live, picks, seen, failures)
        except asyncio.CancelledError:
            live.bot_task = None
            raise
        except Exception:
            live.bot_task = None
            log.exception("bot task of game %s failed", live.id)
        finally:
            self._release(live)

    # --- queries ------------------------------------------------------------------------------
    async def list_games(self, status: str | None, limit: int) -> list[JSON]:
        """Summaries of stored games."""
        records = await self._db(self.store.list_games, status, limit)
        out = []
        for r in records:
            live = self._live.get(r.id) if self.cluster is None else None
            # (with other processes the stored record is the newer one)
            out.append(self.summary(live.record if live else r))
        return out

    async def my_games(self, token_list: Sequence[str]) -> list[JSON]:
        """The games (and seats) these tokens hold."""
        by_hash = {tokens.token_hash(t): t for t in token_list}
        found = await self._db(self.store.seats_by_token_hash, list(by_hash))
        out = []
        for game_id, seat in found:
            live = await self.fresh(game_id)
            doc = self.summary(live.record)
            doc["you"] = seat
            doc["to_move"] = list(live.state.to_move()) if live.state is not None else []
            out.append(doc)
        out.sort(key=lambda d: str(d["updated_at"]), reverse=True)
        return out

    async def replay_index(self, game_id: str) -> JSON:
        """Setup and every move (with labels) of a finished game."""
        live = await self.fresh(game_id)
        return (await self._replay(live)).index

    async def _replay(self, live: LiveGame) -> Replay:
        """The finished game's replay: built by one pass over its log the first time it is
        asked for (concurrent askers wait for the same build), then kept."""
        if live.status != "over":
            raise conflict("not_over", f"game {live.id} is not over: replays open at the end")
        pending = self._replays.get(live.id)
        if pending is not None:
            self._replays.move_to_end(live.id)
            return await asyncio.shield(pending)
        future: asyncio.Future[Replay] = asyncio.get_running_loop().create_future()
        self._replays[live.id] = future
        while len(self._replays) > self.max_replays:
            self._replays.popitem(last=False)
        try:
            actions = await self._db(self.store.moves, live.id)
            replay = await asyncio.to_thread(build_replay, live.record, actions)
        except BaseException as exc:
            if self._replays.get(live.id) is future:
                del self._replays[live.id]
            future.set_exception(exc)
            future.exception()  # mark retrieved: waiters re-raise it themselves
            raise
        future.set_result(replay)
        return replay

    async def replay_view(
        self, game_id: str, step: int, seat: int | None, lang: str | None = None
    ) -> JSON:
        """The view of ``seat`` (or a spectator) after ``step`` moves of a finished game."""
        live = await self.fresh(game_id)
        replay = await self._replay(live)
        if seat is not None and not 0 <= seat < live.record.players:
            raise invalid("bad_seat", f"no seat {seat} in a {live.record.players}-player game")
        actions = replay.actions
        if not 0 <= step <= len(actions):
            raise not_found(f"game {game_id} has steps 0 to {len(actions)}, not {step}")
        move: JSON | None = None
        if step and lang is not None:
            # the move that led here, in player words: its label as its mover saw it
            state = await asyncio.to_thread(replay.state_at, step - 1)
            mover, action = actions[step - 1]
            before = self._words(live, state.view(mover), mover, lang) or {}
            label = (before.get("legal") or {}).get(str(action)) or state.describe(mover, action)
            move = {"seat": mover, "action": action, "label": label}
            state.apply(mover, action)
        else:
            state = await asyncio.to_thread(replay.state_at, step)
        view = state.view(seat)
        hint_fn = extras.hints(live.record.game)
        return {
            "type": "replay",
            "id": game_id,
            "game": live.record.game,
            "step": step,
            "steps": len(actions),
            "you": seat,
            "seats": self.summary(live.record)["seats"],
            "view": view,
            "hints": hint_fn(view) if hint_fn and seat is not None else None,
            "words": self._words(live, view, seat, lang) if lang is not None else None,
            "move": move,
        }


def encode_json(doc: Any) -> str:
    """Compact JSON text of a payload. orjson (a tenth of the CPU of :func:`json.dumps` on
    payloads, the server's biggest cost per move under load, issue 23); the standard encoder
    for what orjson refuses (an integer beyond 64 bits)."""
    try:
        return orjson.dumps(doc, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(doc, separators=(",", ":"), ensure_ascii=False)


def _log_tail(old: Any, new: Any) -> tuple[int, list[Any]] | None:
    """``(n, tail)`` such that ``new == old[:n] + tail`` (n = len(old) when ``new`` extends
    ``old``, else 0); None when either is not a list."""
    if not isinstance(old, list) or not isinstance(new, list):
        return None
    n = len(old)
    if len(new) >= n and new[:n] == old:
        return n, new[n:]
    return 0, new


def payload_delta(base: JSON, new: JSON) -> JSON:
    """What changed from payload ``base`` to payload ``new`` of the same connection.

    Everything of ``new`` except the logs goes out as is (the view is the new view); the view's
    ``log`` and the words' ``log`` carry only the entries after the first ``log_from`` (and
    ``words_log_from``) of ``base``'s, which the client keeps. ``base`` is the version the delta
    applies to: a client holding another version asks for the whole state (``{"type":
    "full"}``). Both payloads are the same seat's (or the spectator's), so a delta can only
    show what that seat's own view shows.
    """
    doc = dict(new)
    doc["type"] = "delta"
    doc["base"] = base.get("version")
    old_view, view = base.get("view"), new.get("view")
    if isinstance(view, dict) and isinstance(old_view, dict):
        cut = _log_tail(old_view.get("log"), view.get("log"))
        if cut is not None:
            doc["log_from"], tail = cut
            doc["view"] = {**view, "log": tail}
    old_words, words = base.get("words"), new.get("words")
    if isinstance(words, dict) and isinstance(old_words, dict):
        cut = _log_tail(old_words.get("log"), words.get("log"))
        if cut is not None:
            doc["words_log_from"], tail = cut
            doc["words"] = {**words, "log": tail}
    return doc


def _advance(
    live: LiveGame, tail: Sequence[tuple[int, int]]
) -> tuple[State, int, list[int]] | None:
    """The copy's state, ``seq`` and epochs after the moves ``tail`` (stored by another
    process), each seat's epoch raised where a move changed its legal actions (or it moved),
    as a move made here raises them; None (the copy untouched) if they do not apply."""
    assert live.state is not None
    after = live.state.copy()
    seq = live.seq
    epochs = list(live.epochs)
    players = live.record.players
    try:
        for seat, action in tail:
            before = [after.legal_actions(s) for s in range(players)]
            after.apply(seat, action)
            seq += 1
            for s in range(players):
                if s == seat or after.legal_actions(s) != before[s]:
                    epochs[s] = seq
    except (IllegalActionError, NotYourTurnError):
        return None
    return after, seq, epochs


def _with_seq(record: GameRecord, seq: int) -> GameRecord:
    """``dataclasses.replace(record, seq=seq)`` without its field-by-field rebuild (the record
    has no ``__post_init__``): this runs after every committed move, and ``replace`` cost
    about 3 % of the server's CPU per move (issue 23)."""
    new = object.__new__(GameRecord)
    new.__dict__.update(record.__dict__)
    object.__setattr__(new, "seq", seq)
    return new


def _follow_server(server_pid: int) -> None:
    """In a bot worker process: end when the server process that started it is gone (killed
    with SIGKILL, its pool cannot stop its workers; they would wait for work for ever)."""

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="civtable-follow-server", daemon=True).start()


def _choose_all(bots: list[tuple[Bot, int]], state: State) -> list[tuple[int, int]]:
    """Each bot's choice on the same snapshot (runs in the bot pool)."""
    return [(seat, bot.choose(state, seat)) for bot, seat in bots]


def _choose_in_worker(
    game: str, jobs: list[tuple[str, int, int, int]], doc: JSON
) -> list[tuple[int, int, int]]:
    """In a bot worker process: ``(spec, seed, rng_state, seat)`` → ``(seat, action,
    rng_state)`` for each bot, all on the state ``doc`` (what :func:`_choose_all` does in the
    server's process with the bot objects themselves). The state travels as
    :meth:`State.to_json`: a pickled state may hold indexes into tables that each process
    builds for itself (7 Wonders' production signatures)."""
    state = games.get(game).state_from_json(doc)
    out = []
    for spec, seed, rng_state, seat in jobs:
        bot = make_bot(spec, seed)
        bot.rng.state = rng_state
        out.append((seat, bot.choose(state, seat), bot.rng.state))
    return out


def _explain_in_worker(
    spec: str, seed: int, game: str, doc: JSON, seat: int, top: int
) -> tuple[list[Any], int]:
    """In a bot worker process: the suggestion search's top moves and its iteration count."""
    state = games.get(game).state_from_json(doc)
    bot = make_bot(spec, seed)
    assert isinstance(bot, IsmctsBot)
    moves = bot.explain(state, seat, top)
    return moves, bot.last.iterations


def _replay_index(record: GameRecord, actions: Sequence[tuple[int, int]]) -> JSON:
    game = games.get(record.game)
    state = game.new_game(record.players, record.seed, game.upgrade_options(record.options))
    steps = []
    for i, (seat, action) in enumerate(actions):
        label = state.describe(seat, action)
        state.apply(seat, action)
        view = state.view(None)
        steps.append(
            {
                "i": i + 1,
                "seat": seat,
                "action": action,
                "label": label,
                "age": view.get("age"),
                "turn": view.get("turn"),
                "round": view.get("round"),
            }
        )
    return {
        "format": "civtable-replay",
        "version": 1,
        "id": record.id,
        "game": record.game,
        "players": record.players,
        "seed": record.seed,
        "options": game.upgrade_options(record.options),
        "actions": [[s, a] for s, a in actions],
        "steps": steps,
        "result": record.result,
    }
