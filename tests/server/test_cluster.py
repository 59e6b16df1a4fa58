"""Several server processes on one PostgreSQL (issue 23): real processes, real sockets.

Two ``python -m civtable.server`` processes share one fresh PostgreSQL database. Moves are
posted to both in turn; every socket on either process must follow every move in order (its
pushes, merged, end as the seat's whole view of the finished game, with no gap and no step
back), every acknowledged move is stored exactly once at the position its answer gave, and the
bots are moved by one process only. Then one of the two is killed with SIGKILL mid-game: the
other process takes over its game, bots included, and finishes it. PostgreSQL only (SQLite is
one process).
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from civtable.core.rng import Rng
from civtable.server.cluster import LISTENER_NAME
from civtable.server.errors import ApiError
from civtable.server.hub import Hub, rebuild
from civtable.store import SeatSpec, Store
from tests.server.helpers import auth, create, merge_push
from tests.server.procs import ServerProcess

#: bots think in threads of the server process here (no bot worker processes to start)
EXTRA = ["--bot-processes", "0"]


class Socket(threading.Thread):
    """One push connection: merges every push into the whole payload, records each one's
    ``seq`` and fails on a delta that does not apply to what it holds (a gap)."""

    def __init__(self, base: str, gid: str, token: str | None) -> None:
        super().__init__(daemon=True)
        self.url = base.replace("http://", "ws://") + f"/api/games/{gid}/ws"
        self.token = token
        self.held: dict[str, Any] | None = None
        self.seqs: list[int] = []
        self.gaps = 0
        self.closed = False
        self.ready = threading.Event()
        self.stop = threading.Event()

    def run(self) -> None:
        try:
            with connect(self.url, open_timeout=10) as ws:
                ws.send(json.dumps({"token": self.token} if self.token else {}))
                self.ready.set()
                while not self.stop.is_set():
                    try:
                        text = ws.recv(timeout=0.2)
                    except TimeoutError:
                        continue
                    msg = json.loads(text)
                    merged = merge_push(self.held, msg)
                    if merged is None:
                        self.gaps += 1
                        ws.send(json.dumps({"type": "full"}))
                        continue
                    self.held = merged
                    self.seqs.append(int(merged["seq"]))
        except ConnectionClosed:
            self.closed = True
        finally:
            self.ready.set()

    def wait_for(self, seq: int, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.held is not None and self.held["seq"] >= seq and self.held["status"] == "over":
                return
            time.sleep(0.05)
        raise AssertionError(f"{self.url} stopped at {self.seqs[-1:]} before {seq}")


class Players:
    """Plays the human seats, each step on the next server in turn: a compound move's steps
    (a 7 Wonders card, then its payment) go to different processes too. Records every
    acknowledged move."""

    def __init__(self, servers: list[ServerProcess], gid: str, tokens: dict[int, str]) -> None:
        self.servers, self.gid, self.tokens = servers, gid, tokens
        self.rng = Rng(5)
        self.acked: list[tuple[int, int, int]] = []  # (seq after, seat, action)
        self.turn = 0
        self.over = False
        self.conflicts = 0

    def decision(self, seat: int) -> bool:
        """One whole decision of ``seat``, each step on the next server; False if it had
        none."""
        headers = auth(self.tokens[seat])
        steps: list[int] = []
        while True:
            base = self.servers[self.turn % len(self.servers)].url
            self.turn += 1
            with httpx.Client(base_url=base, timeout=10) as http:
                st = http.get(f"/api/games/{self.gid}/state", headers=headers).json()
                if st["status"] == "over":
                    self.over = True
                    return False
                if steps:  # (a move begun by a process killed since has steps unknown here)
                    assert st["tentative"] == len(steps), "a step of the move in progress lost"
                legal = st["view"]["legal"]
                if not legal:
                    return bool(steps)
                action = self.rng.choice(legal)["id"]
                r = http.post(
                    f"/api/games/{self.gid}/moves",
                    json={"seq": st["seq"], "action": action},
                    headers=headers,
                )
                if r.status_code == 409:  # another seat's move came first: choose again
                    self.conflicts += 1
                    continue
                assert r.status_code == 200, r.text
                doc = r.json()
                steps.append(action)
                if doc["tentative"]:
                    continue
                first = doc["seq"] - len(steps)
                self.acked.extend((first + i + 1, seat, a) for i, a in enumerate(steps))
                return True

    def play(self, until: int | None = None, deadline: float = 300) -> None:
        """Play until the game is over (or ``until`` moves are acknowledged)."""
        end = time.monotonic() + deadline
        while not self.over and time.monotonic() < end:
            if until is not None and len(self.acked) >= until:
                return
            moved = False
            for seat in self.tokens:
                moved = self.decision(seat) or moved
                if self.over:
                    return
            if not moved:
                time.sleep(0.02)  # the bot's turn
        assert self.over or until is not None, "the game did not end in time"


@pytest.fixture
def servers(pg_url: str, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    procs = [ServerProcess(pg_url, tmp_path / f"server{i}.log", extra=EXTRA) for i in range(2)]
    try:
        for p in procs:
            p.start()
        yield procs
    finally:
        for p in procs:
            p.stop()


def _bot_moves_committed(server: ServerProcess) -> float:
    """Bot moves this process committed (its ``/metrics``)."""
    text = httpx.get(server.url + "/metrics", timeout=10).text
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("civtable_moves_committed_total") and 'kind="bot"' in line
    )


def _stored(db_url: str, gid: str) -> tuple[list[tuple[int, int]], str]:
    store = Store.open(db_url)
    try:
        record = store.get_game(gid)
        log = store.moves(gid)
        assert record.seq == len(log)
        state = rebuild(record, log)  # the log replays: no move in it twice or out of place
        assert state.is_terminal() == (record.status == "over")
        return log, record.status
    finally:
        store.close()


def _check_acked(
    log: list[tuple[int, int]], acked: list[tuple[int, int, int]], unanswered: int = 0
) -> None:
    """Every acknowledged move is stored at its position, once; the human seats' stored moves
    are the acknowledged ones, plus at most ``unanswered`` (a move whose answer a killed
    process never sent: stored, but not acknowledged)."""
    for seq_after, seat, action in acked:
        assert seq_after <= len(log), f"acknowledged move {seq_after} lost ({len(log)} stored)"
        assert log[seq_after - 1] == (seat, action), f"move {seq_after} differs"
    positions = [a[0] for a in acked]
    assert len(positions) == len(set(positions)), "a move acknowledged twice"
    stored = {i + 1 for i, (s, _) in enumerate(log) if s in (0, 1)}
    assert set(positions) <= stored
    assert len(stored - set(positions)) <= unanswered


def _new_game(servers: list[ServerProcess]) -> tuple[str, dict[int, str]]:
    """A 3-seat 7 Wonders game created on the first server: two people and a heuristic bot;
    the second person joins on the first server too (so that process starts the game and
    moves its bot)."""
    with httpx.Client(base_url=servers[0].url, timeout=10) as http:
        doc = create(http, ["human", "human", "heuristic"], seed=23)
        gid, t0 = doc["game"]["id"], doc["token"]
        r = http.post(f"/api/games/{gid}/join", json={})
        assert r.status_code == 200, r.text
    return gid, {0: t0, 1: r.json()["token"]}


def test_two_processes_every_socket_sees_every_move_once_in_order(
    servers: list[ServerProcess], pg_url: str
) -> None:
    gid, tokens = _new_game(servers)
    sockets = [
        Socket(server.url, gid, token)
        for server in servers
        for token in (tokens[0], tokens[1], None)
    ]
    for s in sockets:
        s.start()
    for s in sockets:
        assert s.ready.wait(10)
    players = Players(servers, gid, tokens)
    players.play()
    log, status = _stored(pg_url, gid)
    assert status == "over"
    _check_acked(log, players.acked)
    for s in sockets:
        s.wait_for(len(log))
    for s in sockets:
        s.stop.set()
        s.join(timeout=10)
    for server in servers:
        for seat, token in (*tokens.items(), (None, None)):
            whole = httpx.get(
                f"{server.url}/api/games/{gid}/state", headers=auth(token), timeout=10
            ).json()
            assert whole["seq"] == len(log)
            for s in sockets:
                if s.token == token:
                    assert s.gaps == 0
                    assert not s.closed
                    assert s.seqs == sorted(s.seqs), f"seat {seat}: a push went back"
                    assert s.held is not None
                    # the pushes, merged, are the seat's whole view of the end: every move
                    # reached this socket, in order, whichever process it was posted to
                    assert s.held["view"] == whole["view"], f"seat {seat}"
    # the bot was moved by exactly one of the two processes
    bots = [_bot_moves_committed(server) for server in servers]
    bot_in_log = sum(1 for seat, _ in log if seat == 2)
    assert sorted(bots) == [0, bot_in_log], bots
    assert bot_in_log > 0


def test_sigkill_of_one_process_the_other_finishes_the_game_with_its_bots(
    servers: list[ServerProcess], pg_url: str
) -> None:
    gid, tokens = _new_game(servers)  # the first process moves the bot
    players = Players(servers, gid, tokens)
    players.play(until=8)
    assert not players.over
    # a burst of moves to the process about to die, killed while it answers
    doomed = Players([servers[0]], gid, tokens)
    doomed.rng = Rng(11)
    killer = threading.Timer(0.15, servers[0].kill)
    killer.start()
    with pytest.raises(httpx.HTTPError):
        doomed.play(deadline=30)
    killer.join()
    acked = players.acked + doomed.acked
    log, status = _stored(pg_url, gid)
    assert status == "active"
    _check_acked(log, acked, unanswered=2)  # a card and its payment, answered by nobody
    # the survivor finishes the game, bots included
    survivor = Players([servers[1]], gid, tokens)
    survivor.rng = Rng(12)
    survivor.play()
    acked += survivor.acked
    log, status = _stored(pg_url, gid)
    assert status == "over"
    _check_acked(log, acked, unanswered=2)
    assert _bot_moves_committed(servers[1]) > 0  # it took the dead process's bot over
    final = httpx.get(f"{servers[1].url}/api/games/{gid}/state", timeout=10).json()
    assert final["status"] == "over"
    assert final["seq"] == len(log)
    assert len(final["view"]["result"]["scores"]) == 3


def _whole_step(state: Any, seat: int) -> int:
    """An action of ``seat`` that is a whole move (leaves no compound move open)."""
    for action in state.legal_actions(seat):
        after = state.copy()
        after.apply(seat, action)
        if not after.move_open(seat):
            return int(action)
    raise AssertionError(f"seat {seat} has no one-step move")


def test_a_commit_beaten_by_another_process_is_caught_up_and_checked_again(pg_url: str) -> None:
    """Two hubs (two processes) on one database; the first checks a move on a copy that the
    second makes stale before the commit (the race the catch-up before a check cannot close).
    The store refuses the stale commit; the first hub catches up and checks again: another
    seat's simultaneous choice (SW-7) is then stored after the winner's, and the winner's own
    seat playing again from the old position is answered 409. Never a 500, never a move twice."""

    async def scenario() -> list[tuple[int, int]]:
        a, b = Hub(Store.open(pg_url), cluster=True), Hub(Store.open(pg_url), cluster=True)
        try:
            seats = [SeatSpec("human")] * 3
            summary, _, t0 = await a.create(
                game_id="seven-wonders", players=3, seats=seats, seed=5, take_seat=0
            )
            gid = summary["id"]
            _, _, t1 = await b.join(gid, None, "B")
            _, _, t2 = await b.join(gid, None, "C")  # b starts the game
            live_a, live_b = await a.fresh(gid), await b.fresh(gid)
            assert live_a.seq == live_b.seq == 0
            assert live_a.state is not None
            assert live_a.status == "active"
            first = _whole_step(live_a.state, 0)
            second = _whole_step(live_a.state, 1)
            other = next(x for x in live_a.state.legal_actions(0) if x != first)

            async def no_catch_up(_live: Any, *, force: bool = False) -> bool:
                return True  # "read": a refusal is not checked again here

            a._fresh = no_catch_up  # type: ignore[method-assign]
            await b.move(gid, t0, 0, first)  # the second process commits move 0
            doc = await a.move(gid, t1, 0, second)  # checked on a's copy at 0: refused, caught
            assert doc["seq"] == 2  # up, checked again, stored as move 1
            with pytest.raises(ApiError) as refused:
                await a.move(gid, t0, 0, other)  # seat 0 again from the old position
            assert refused.value.status == 409
            assert t2
            return b.store.moves(gid)
        finally:
            for hub in (a, b):
                await hub.close()
                hub.store.close()

    log = asyncio.run(scenario())
    assert [seat for seat, _ in log] == [0, 1]


async def _listening(*hubs: Hub) -> None:
    """Wait until each hub's listener is connected (a copy read before that is read again)."""
    for _ in range(400):
        if all(getattr(h.cluster, "listening", True) for h in hubs):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the listeners did not connect")


def _count_reads(store: Store) -> list[int]:
    """Count the store's catch-up reads (:meth:`Store.since`) from now on."""
    calls = [0]
    real = store.since

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return real(*args, **kwargs)

    store.since = counted  # type: ignore[method-assign]
    return calls


async def _game_on(hub: Hub) -> tuple[str, list[str]]:
    """A 3-person 7 Wonders game created, joined and started on ``hub`` alone."""
    seats = [SeatSpec("human")] * 3
    summary, _, t0 = await hub.create(
        game_id="seven-wonders", players=3, seats=seats, seed=5, take_seat=0
    )
    gid = summary["id"]
    _, _, t1 = await hub.join(gid, None, "B")
    _, _, t2 = await hub.join(gid, None, "C")
    assert t0 is not None
    return gid, [t0, t1, t2]


def _same_as_stored(hub: Hub, gid: str) -> None:
    """The hub's copy of the game is the stored log replayed: nothing lost, nothing doubled."""
    live = hub.held(gid)
    assert live is not None
    assert live.state is not None
    record, log = hub.store.get_game(gid), hub.store.moves(gid)
    assert live.seq == record.seq == len(log)
    assert live.state.view(None) == rebuild(record, log).view(None)


def test_a_request_on_a_game_no_other_process_changed_reads_nothing_from_the_store(
    pg_url: str,
) -> None:
    """While a process listens, it reads a game from the store before a request only if another
    process's notice about that game came since its last read: a game played on one process
    costs no catch-up read per move (it cost one on every request before) when the sender says
    it has no step of a compound move in progress (``tentative`` 0). A move whose ``seq``
    is ahead of the copy (its sender saw another process's move) is checked on the copy with
    that move, whether or not that move's notice has arrived yet."""

    async def scenario() -> None:
        a, b = Hub(Store.open(pg_url), cluster=True), Hub(Store.open(pg_url), cluster=True)
        try:
            await a.resume()
            await b.resume()
            await _listening(a, b)
            gid, tokens = await _game_on(a)
            live = await a.fresh(gid)
            reads = _count_reads(a.store)
            for seat in range(3):  # SW-7: the three simultaneous choices, one request each
                assert live.state is not None
                action = _whole_step(live.state, seat)
                doc = await a.move(gid, tokens[seat], live.seq, action, tentative=0)
                assert doc["seq"] == seat + 1
            assert (await a.fresh(gid)).seq == 3
            assert reads[0] == 0, f"{reads[0]} catch-up reads for moves made on this process"
            # another process moves; this process's next move carries the seq it answered
            other = await b.fresh(gid)
            assert other.state is not None
            doc = await b.move(gid, tokens[1], 3, _whole_step(other.state, 1))
            assert live.state is not None
            action = _whole_step(live.state, 0)
            doc = await a.move(gid, tokens[0], doc["seq"], action, tentative=0)
            assert doc["seq"] == 5
            assert [s for s, _ in a.store.moves(gid)] == [0, 1, 2, 1, 0]
            _same_as_stored(a, gid)
        finally:
            for hub in (a, b):
                await hub.close()
                hub.store.close()

    asyncio.run(scenario())


def test_a_lost_notice_is_recovered_by_the_beaten_commit_the_resync_and_a_reconnect(
    pg_url: str,
) -> None:
    """Notices of another process's moves that never reach this process (dropped here on
    purpose) leave its copy behind without its knowing. Then: (1) a move checked on that copy
    is refused by the store, caught up and stored after the other process's, once; (2) the
    periodic check against the store finds the game behind and the next request reads it;
    (3) after the listener's connection is cut, every game is read again before use. The copy
    ends as the stored log replayed: nothing lost, nothing doubled."""

    async def scenario() -> None:
        a, b = Hub(Store.open(pg_url), cluster=True), Hub(Store.open(pg_url), cluster=True)
        a.resync_every = 1e9  # only when this test asks
        heard = a._on_notice
        drop = [False]

        def lossy(game_id: str, seq: int, origin: str = "", what: str = "") -> None:
            if not drop[0]:
                heard(game_id, seq, origin, what)

        a._on_notice = lossy  # type: ignore[method-assign]
        try:
            await a.resume()
            await b.resume()
            await _listening(a, b)
            gid, tokens = await _game_on(a)
            mine, theirs = await a.fresh(gid), await b.fresh(gid)
            assert mine.state is not None
            assert theirs.state is not None
            drop[0] = True
            # (1) b stores move 0; a checks seat 0's choice on its copy at 0 (no read): the
            # store refuses the commit, a catches up and stores it as move 1 (SW-7: the other
            # seat's simultaneous choice does not make seat 0's view stale)
            await b.move(gid, tokens[1], 0, _whole_step(theirs.state, 1))
            await asyncio.sleep(0.3)  # its notice came and was lost
            doc = await a.move(gid, tokens[0], 0, _whole_step(mine.state, 0), tentative=0)
            assert doc["seq"] == 2
            assert [s for s, _ in a.store.moves(gid)] == [1, 0]
            # (2) b stores move 2, its notice lost: a cannot tell until its periodic check
            theirs = await b.fresh(gid)
            assert theirs.state is not None
            await b.move(gid, tokens[2], 2, _whole_step(theirs.state, 2))
            await asyncio.sleep(0.3)
            assert (await a.fresh(gid)).seq == 2  # behind, and no notice says so
            assert await a._resync() == 1
            assert (await a.fresh(gid)).seq == 3
            _same_as_stored(a, gid)
            # (3) b stores move 3 while a's listener is cut off
            epoch = a.cluster.epoch if a.cluster else 0
            theirs = await b.fresh(gid)
            assert theirs.state is not None
            await b.move(gid, tokens[0], 3, _whole_step(theirs.state, 0))
            with psycopg.connect(pg_url, autocommit=True) as admin:
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name = %s AND datname = current_database()",
                    (LISTENER_NAME,),
                )
            await asyncio.sleep(0.3)
            drop[0] = False
            for _ in range(200):  # reconnected
                if a.cluster is not None and a.cluster.listening and a.cluster.epoch > epoch:
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("the listener did not reconnect")
            assert (await a.fresh(gid)).seq == 4
            assert [s for s, _ in a.store.moves(gid)] == [1, 0, 2, 0]
            _same_as_stored(a, gid)
        finally:
            for hub in (a, b):
                await hub.close()
                hub.store.close()

    asyncio.run(scenario())


def test_a_notice_that_spells_out_the_moves_is_applied_and_pushed_without_a_read(
    pg_url: str,
) -> None:
    """Another process's moves reach a process holding a socket on the game through their
    notices, which carry the moves: the copy applies them and pushes with no read of the
    store (before, every such notice cost a read). A seat's steps in progress (a Through the
    Ages compound move, TTA-7) travel the same way, and are shown to that seat only."""

    async def scenario() -> None:
        a, b = Hub(Store.open(pg_url), cluster=True), Hub(Store.open(pg_url), cluster=True)
        try:
            await a.resume()
            await b.resume()
            await _listening(a, b)
            seats = [SeatSpec("human")] * 2
            summary, _, t0 = await a.create(
                game_id="through-the-ages",
                players=2,
                seats=seats,
                seed=4,
                options={"mode": "full"},
                take_seat=0,
            )
            gid = summary["id"]
            _, _, t1 = await a.join(gid, None, "B")
            tokens = [t0, t1]
            mine, theirs = await a.fresh(gid), await b.fresh(gid)
            watcher = a.subscribe(mine, 1)
            await watcher.changed()  # the first push
            reads = _count_reads(a.store)
            for _ in range(300):  # whole moves on b until a seat can open a compound move
                state = theirs.state
                assert state is not None
                seat = state.to_move()[0]
                opening = [x for x in state.legal_actions(seat) if _opens(state, seat, int(x))]
                if opening:
                    break
                await b.move(gid, tokens[seat], theirs.seq, _whole_step(state, seat))
            else:
                raise AssertionError("no compound move in 300 moves")
            assert theirs.seq > 0
            for _ in range(200):
                if mine.seq == theirs.seq:
                    break
                await asyncio.sleep(0.05)
            assert watcher.dirty  # pushed
            assert reads[0] == 0
            _same_as_stored(a, gid)
            other = 1 - seat
            await b.move(gid, tokens[seat], theirs.seq, int(opening[0]))
            for _ in range(200):
                if seat in mine.tentative:
                    break
                await asyncio.sleep(0.05)
            assert mine.tentative[seat][0] == [int(opening[0])]
            assert a.payload(mine, seat)["tentative"] == 1
            assert a.payload(mine, other)["tentative"] == 0
            assert reads[0] == 0
        finally:
            for hub in (a, b):
                await hub.close()
                hub.store.close()

    asyncio.run(scenario())


def _opens(state: Any, seat: int, action: int) -> bool:
    """Does ``action`` leave ``seat``'s compound move open (a tentative step)?"""
    after = state.copy()
    after.apply(seat, action)
    return bool(after.move_open(seat))


def test_a_later_step_of_a_compound_move_is_read_for_even_if_its_first_steps_notice_is_late(
    pg_url: str,
) -> None:
    """A seat takes the first step of a compound move (TTA-7) on one process and the next on
    another, whose notice of the first step has not come (dropped here). The sender says it
    holds a step (``tentative`` 1), so the second process reads the game first and takes the
    step as the second one, even where its action id is also legal as a first step (in most
    games it can be): never a different move than the player chose."""

    async def scenario() -> None:
        a, b = Hub(Store.open(pg_url), cluster=True), Hub(Store.open(pg_url), cluster=True)
        heard = a._on_notice
        drop = [False]

        def lossy(game_id: str, seq: int, origin: str = "", what: str = "") -> None:
            if not drop[0]:
                heard(game_id, seq, origin, what)

        a._on_notice = lossy  # type: ignore[method-assign]
        try:
            await a.resume()
            await b.resume()
            await _listening(a, b)
            gid, tokens, seat, first = await _tta_until_compound(a, b)
            mine = await a.fresh(gid)
            theirs = b.held(gid)
            assert theirs is not None
            assert theirs.state is not None
            for _ in range(200):
                if mine.seq == theirs.seq:
                    break
                await asyncio.sleep(0.05)
            drop[0] = True
            await b.move(gid, tokens[seat], theirs.seq, first, tentative=0)
            await asyncio.sleep(0.3)  # its notice came and was lost
            assert seat not in mine.tentative
            held = theirs.tentative[seat][1]
            assert theirs.state is not None
            both = set(held.legal_actions(seat)) & set(theirs.state.legal_actions(seat))
            second = int(min(both))  # also a first step on the copy without the notice
            expect = held.copy()
            expect.apply(seat, second)
            seq = theirs.seq
            await a.move(gid, tokens[seat], seq, second, tentative=1)
            if expect.move_open(seat):
                assert mine.tentative[seat][0] == [first, second]
            else:
                assert a.store.moves(gid)[seq:] == [(seat, first), (seat, second)]
                _same_as_stored(a, gid)
        finally:
            for hub in (a, b):
                await hub.close()
                hub.store.close()

    asyncio.run(scenario())


async def _tta_until_compound(a: Hub, b: Hub) -> tuple[str, list[str], int, int]:
    """A 2-person Through the Ages game created on ``a``, played with whole moves on ``b``
    until the seat to move can open a compound move whose next step's action id is also legal
    as a first step: (game id, tokens, that seat, the opening action)."""
    summary, _, t0 = await a.create(
        game_id="through-the-ages",
        players=2,
        seats=[SeatSpec("human")] * 2,
        seed=4,
        options={"mode": "full"},
        take_seat=0,
    )
    gid = summary["id"]
    _, _, t1 = await a.join(gid, None, "B")
    assert t0 is not None
    tokens = [t0, t1]
    theirs = await b.fresh(gid)
    pick = random.Random(7)
    for _ in range(300):
        state = theirs.state
        assert state is not None
        assert theirs.status == "active"
        seat = state.to_move()[0]
        now = set(state.legal_actions(seat))
        for x in sorted(now):
            after = state.copy()
            after.apply(seat, x)
            if after.move_open(seat) and now & set(after.legal_actions(seat)):
                return gid, tokens, seat, int(x)
        while True:  # a whole move of the seat on b, step by step (random actions)
            held = theirs.tentative.get(seat)
            at = held[1] if held is not None else theirs.state
            assert at is not None
            steps = len(held[0]) if held is not None else 0
            action = int(pick.choice(sorted(at.legal_actions(seat))))
            await b.move(gid, tokens[seat], theirs.seq, action, tentative=steps)
            if seat not in theirs.tentative:
                break
    raise AssertionError("no ambiguous compound move in 300 moves")


def _stored_steps(store: Store, gid: str) -> dict[int, list[int]]:
    """The seats' steps in progress as the store has them."""
    return store.since(gid, 0)[2]


async def _until(check: Any, what: str, seconds: float = 15) -> None:
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(what)


def test_a_process_alone_keeps_steps_in_memory_and_stores_them_before_another_joins(
    pg_url: str,
) -> None:
    """A process alone on the database (solo) writes no tentative step (TTA-7) to the store: a
    read of the store (a forced catch-up) keeps its steps all the same. A second process that
    starts waits until the first has stored them, so the next step, sent to the second, is taken
    as the next step of that move. Once the second leaves, the first is solo again."""

    async def scenario() -> None:
        a = Hub(Store.open(pg_url), cluster=True)
        b: Hub | None = None
        try:
            await a.resume()
            await _listening(a)
            assert a.cluster is not None
            assert a.cluster.solo
            gid, tokens, seat, first = await _tta_until_compound(a, a)
            live = await a.fresh(gid)
            writes = a.pending_writes
            await a.move(gid, tokens[seat], live.seq, first, tentative=0)
            assert live.tentative[seat][0] == [first]
            assert _stored_steps(a.store, gid) == {}, "a solo process wrote its step"
            assert a.pending_writes == writes
            assert a.pending_skipped >= 1
            await a.fresh(gid, force=True)  # the store has no steps: this copy's are kept
            assert live.tentative[seat][0] == [first]

            b = Hub(Store.open(pg_url), cluster=True)
            await asyncio.wait_for(b.resume(), 30)  # let in only after a stored the step
            assert not a.cluster.solo
            assert b.cluster is not None
            assert not b.cluster.solo
            assert _stored_steps(a.store, gid) == {seat: [first]}
            await _listening(b)
            held = live.tentative[seat][1]
            second = int(min(held.legal_actions(seat)))
            expect = held.copy()
            expect.apply(seat, second)
            seq = live.seq
            await b.move(gid, tokens[seat], seq, second, tentative=1)
            if expect.move_open(seat):
                assert _stored_steps(b.store, gid) == {seat: [first, second]}
            else:
                assert b.store.moves(gid)[seq:] == [(seat, first), (seat, second)]
            await b.close()
            b.store.close()
            b = None
            await _until(lambda: a.cluster is not None and a.cluster.solo, "a is not solo again")
        finally:
            for hub in (a, b):
                if hub is not None:
                    await hub.close()
                    hub.store.close()

    asyncio.run(scenario())


def test_a_solo_process_stores_its_steps_in_progress_when_it_shuts_down(pg_url: str) -> None:
    """A solo process's tentative steps are stored at a graceful shutdown, so that a process
    started later takes the seat's next step as the next step of the same move (TTA-7); a step
    withdrawn while solo is withdrawn in the store too."""

    async def scenario() -> None:
        a = Hub(Store.open(pg_url), cluster=True)
        try:
            await a.resume()
            gid, tokens, seat, first = await _tta_until_compound(a, a)
            live = await a.fresh(gid)
            await a.move(gid, tokens[seat], live.seq, first, tentative=0)
            await a.cancel(gid, tokens[seat], live.seq)
            await a.move(gid, tokens[seat], live.seq, first, tentative=0)
            assert _stored_steps(a.store, gid) == {}
        finally:
            await a.close()
            a.store.close()
        store = Store.open(pg_url)
        try:
            assert _stored_steps(store, gid) == {seat: [first]}
        finally:
            store.close()

    asyncio.run(scenario())


def test_a_solo_process_that_loses_its_membership_stores_its_steps_and_joins_again(
    pg_url: str,
) -> None:
    """The connection holding a solo process's membership lock is cut (the lock is then free,
    so another process could come in): at its next look the process stops being solo, stores
    the tentative step (TTA-7) it kept in memory, and takes the membership again."""

    async def scenario() -> None:
        a = Hub(Store.open(pg_url), cluster=True)
        try:
            await a.resume()
            cluster = a.cluster
            assert cluster is not None
            assert cluster.solo
            gid, tokens, seat, first = await _tta_until_compound(a, a)
            live = await a.fresh(gid)
            await a.move(gid, tokens[seat], live.seq, first, tentative=0)
            assert _stored_steps(a.store, gid) == {}
            owner = cluster._owner
            assert owner is not None
            with psycopg.connect(pg_url, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (owner.info.backend_pid,))
            await _until(
                lambda: _stored_steps(a.store, gid) == {seat: [first]},
                "the step kept in memory was not stored",
            )
            await _until(lambda: cluster.solo, "not solo again")
            assert live.tentative[seat][0] == [first]
        finally:
            await a.close()
            a.store.close()

    asyncio.run(scenario())
