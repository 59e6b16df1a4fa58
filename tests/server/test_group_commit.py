"""Grouped commits (issue 23): the moves of many games go to the database in one transaction,
each checked as if alone, and none is acknowledged before the commit that holds it returned."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

import pytest

from civtable.store import (
    NOTIFY_CHANNEL,
    Append,
    GroupCommit,
    NewGame,
    SeatSpec,
    StaleSequenceError,
    Store,
    UnknownGameIdError,
    notice_lines,
)
from civtable.store.db import _now, _resolve_on_loop
from civtable.store.schema import moves


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store.open(db_url)
    yield s
    s.close()


def _game(store: Store, seed: int) -> str:
    record = store.create_game(
        NewGame("seven-wonders", 3, seed=seed, options={}, seats=[SeatSpec("human")] * 3)
    )
    store.set_status(record.id, "active")
    return record.id


def test_a_batch_stores_each_valid_append_and_refuses_the_stale_ones_alone(store: Store) -> None:
    a, b, c = (_game(store, s) for s in (1, 2, 3))
    store.append_moves(b, 0, [(0, 5)])
    results = store.append_batch(
        [
            Append(a, 0, ((0, 1), (0, 2))),
            Append(b, 0, ((1, 9),)),  # stale: b has one move already
            Append(c, 0, ((2, 3),), finished={"scores": [1, 2, 3]}),
            Append("nope", 0, ((0, 1),)),
        ]
    )
    assert results[0] is None
    assert isinstance(results[1], StaleSequenceError)
    assert results[2] is None
    assert isinstance(results[3], UnknownGameIdError)
    assert store.moves(a) == [(0, 1), (0, 2)]
    assert store.moves(b) == [(0, 5)]
    assert store.moves(c) == [(2, 3)]
    assert store.get_game(c).status == "over"
    assert store.get_game(a).seq == 2


def test_appends_queued_during_a_commit_go_together_and_resolve_after_it(store: Store) -> None:
    ids = [_game(store, s) for s in range(12)]
    batches: list[int] = []
    gate = threading.Event()
    entered = threading.Event()
    real = store.append_batch
    futures: list[Future[None]] = []

    def slow(batch: Any) -> Any:
        batches.append(len(batch))
        if len(batches) == 1:
            entered.set()
            assert gate.wait(10)
        out = real(batch)
        # the commit has returned; nothing of this batch may have been acknowledged before
        assert not any(f.done() for f in futures[len(futures) - len(batch) :])
        return out

    store.append_batch = slow  # type: ignore[method-assign]
    group = GroupCommit(store)
    try:
        futures.append(group.submit(Append(ids[0], 0, ((0, 1),))))
        assert entered.wait(10)
        for gid in ids[1:]:  # queued while the first commit is in progress
            futures.append(group.submit(Append(gid, 0, ((1, 2),))))
        futures.append(group.submit(Append(ids[1], 0, ((2, 2),))))  # stale after ids[1]'s own
        gate.set()
        for f in futures[:-1]:
            assert f.result(10) is None
        with pytest.raises(StaleSequenceError):
            futures[-1].result(10)
    finally:
        group.close()
    assert batches == [1, 12]
    assert all(store.moves(gid) for gid in ids)
    assert store.moves(ids[1]) == [(1, 2)]


def test_close_commits_what_is_queued(store: Store) -> None:
    ids = [_game(store, s) for s in range(5)]
    group = GroupCommit(store)
    futures = [group.submit(Append(gid, 0, ((0, 4),))) for gid in ids]
    group.close()
    assert all(f.result(0) is None for f in futures)
    assert all(store.moves(gid) == [(0, 4)] for gid in ids)
    late = group.submit(Append(ids[0], 1, ((0, 4),)))
    with pytest.raises(Exception, match="closing"):
        late.result(0)


def _writers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "civtable-commit"]


def test_the_writer_starts_with_the_first_append_and_close_stops_it(sqlite_url: str) -> None:
    store = Store.open(sqlite_url)
    try:
        gid = _game(store, 1)
        group = GroupCommit(store)
        assert not group.running  # built, nothing appended: no thread
        group.close()
        assert not group.running
        group = GroupCommit(store)
        assert group.submit(Append(gid, 0, ((0, 4),))).result(10) is None
        assert group.running
        group.close()
        assert not group.running
    finally:
        store.close()


def test_an_app_leaves_no_writer_thread_after_its_shutdown(sqlite_url: str) -> None:
    """The app as a context manager (its lifespan): moves start the commit writer, the
    shutdown stops it; an app built and never served starts none (a thread left behind
    logged into a later test's closed output stream)."""
    from fastapi.testclient import TestClient

    from civtable.server.app import create_app
    from tests.server.helpers import auth, create

    before = set(_writers())
    idle = create_app(sqlite_url)
    assert set(_writers()) == before
    idle.state.store.close()
    app = create_app(sqlite_url)
    with TestClient(app) as client:
        doc = create(client, ["human", "random", "random"])
        state = client.get(f"/api/games/{doc['game']['id']}/state", headers=auth(doc["token"]))
        payload = state.json()
        move = {"seq": payload["seq"], "action": payload["view"]["legal"][0]["id"]}
        r = client.post(
            f"/api/games/{doc['game']['id']}/moves", json=move, headers=auth(doc["token"])
        )
        assert r.status_code == 200, r.text
        assert app.state.hub.commits.running
    assert not app.state.hub.commits.running
    assert set(_writers()) == before


def test_a_waiter_that_gave_up_before_the_commit_writes_nothing_and_stops_nothing(
    store: Store,
) -> None:
    ids = [_game(store, s) for s in range(3)]
    gate = threading.Event()
    entered = threading.Event()
    real = store.append_batch

    def slow(batch: Any) -> Any:
        entered.set()
        assert gate.wait(10)
        return real(batch)

    store.append_batch = slow  # type: ignore[method-assign]
    group = GroupCommit(store)
    try:
        first = group.submit(Append(ids[0], 0, ((0, 1),)))
        assert entered.wait(10)
        assert not first.cancel()  # its commit has begun: it cannot be withdrawn
        gone = group.submit(Append(ids[1], 0, ((0, 1),)))
        assert gone.cancel()  # still queued: withdrawn
        kept = group.submit(Append(ids[2], 0, ((0, 1),)))
        gate.set()
        assert first.result(10) is None
        assert kept.result(10) is None  # the writer lives on
    finally:
        group.close()
    assert store.moves(ids[1]) == []
    assert store.moves(ids[2]) == [(0, 1)]


def test_postgresql_a_batch_forgets_its_movers_steps_and_sends_one_notice(pg_url: str) -> None:
    """On PostgreSQL a batch is written in a few statements whatever its size: each stored
    append forgets its movers' steps in progress (not another seat's), and the batch sends one
    notice with a line per stored game (:func:`notice_lines`), none for a refused one."""
    import psycopg

    store = Store.open(pg_url)
    listener = psycopg.connect(pg_url, autocommit=True)
    try:
        a, b, c = (_game(store, s) for s in (1, 2, 3))
        store.set_pending(a, 0, [4])
        store.set_pending(a, 1, [7, 8])
        store.set_pending(c, 2, [5])
        listener.execute(f"LISTEN {NOTIFY_CHANNEL}")
        results = store.append_batch(
            [
                Append(c, 0, ((2, 3),)),
                Append(a, 0, ((0, 4), (0, 6))),
                Append(b, 1, ((1, 9),)),  # stale
            ]
        )
        assert results[0] is None
        assert results[1] is None
        assert isinstance(results[2], StaleSequenceError)
        assert store.since(a, 2)[2] == {1: [7, 8]}
        assert store.since(c, 1)[2] == {}
        [notice] = list(listener.notifies(timeout=2, stop_after=1))
        assert notice_lines(notice.payload) == [(c, 1, "", "2.3"), (a, 2, "", "0.4,0.6")]
        assert list(listener.notifies(timeout=0.3)) == []
    finally:
        listener.close()
        store.close()


def test_notice_lines_read_every_line_and_skip_a_malformed_one() -> None:
    assert notice_lines("g1 4 abc 0.5,1.6\ng2 -1 - 2:7,8\nbad line\ng3 0") == [
        ("g1", 4, "abc", "0.5,1.6"),
        ("g2", -1, "", "2:7,8"),
        ("g3", 0, "", ""),
    ]


def test_event_loop_waiters_are_answered_after_their_commit_in_one_call(store: Store) -> None:
    """``submit_async``: a waiter on the event loop gets its answer only after the commit that
    holds its append, all of a batch's waiters with one call into the loop; a stale append
    gets its error; a waiter cancelled before its batch is written writes nothing."""
    ids = [_game(store, s) for s in range(6)]
    gate = threading.Event()
    entered = threading.Event()
    real = store.append_batch
    calls: list[int] = []

    def slow(batch: Any) -> Any:
        calls.append(len(batch))
        if len(calls) == 1:
            entered.set()
            assert gate.wait(10)
        return real(batch)

    store.append_batch = slow  # type: ignore[method-assign]
    group = GroupCommit(store)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        wakeups = 0
        plain = loop.call_soon_threadsafe

        def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
            nonlocal wakeups
            wakeups += fn is _resolve_on_loop
            return plain(fn, *args, **kwargs)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
        first = group.submit_async(Append(ids[0], 0, ((0, 1),)))
        assert await asyncio.to_thread(entered.wait, 10)
        queued = [group.submit_async(Append(gid, 0, ((1, 2),))) for gid in ids[1:5]]
        stale = group.submit_async(Append(ids[1], 0, ((2, 2),)))
        gone = group.submit_async(Append(ids[5], 0, ((0, 3),)))
        gone.cancel()
        await asyncio.sleep(0.05)
        assert not first.done()  # nothing is answered before its commit
        assert not any(f.done() for f in queued)
        gate.set()
        assert await asyncio.wait_for(first, 10) is None
        assert await asyncio.wait_for(asyncio.gather(*queued), 10) == [None] * 4
        with pytest.raises(StaleSequenceError):
            await asyncio.wait_for(stale, 10)
        assert wakeups == 2  # one call per batch, not one per append

    try:
        asyncio.run(main())
    finally:
        group.close()
    assert calls == [1, 5]
    assert store.moves(ids[1]) == [(1, 2)]
    assert store.moves(ids[5]) == []
    assert all(store.get_game(gid).seq == 1 for gid in ids[:5])


def test_a_batch_whose_move_row_exists_already_is_written_entry_by_entry(store: Store) -> None:
    """A move row that exists although ``games.seq`` says it does not (never expected) spoils
    the one-transaction write; the entries are then written one by one, the others kept."""
    a, b = _game(store, 1), _game(store, 2)
    with store.engine.begin() as conn:  # a stray row at move 0 of b, games.seq still 0
        conn.execute(moves.insert().values(game_id=b, seq=0, seat=0, action=9, created_at=_now()))
    results = store.append_batch([Append(a, 0, ((0, 1),)), Append(b, 0, ((1, 2),))])
    assert results[0] is None
    assert isinstance(results[1], StaleSequenceError)
    assert store.moves(a) == [(0, 1)]
    assert store.moves(b) == [(0, 9)]
    assert store.get_game(b).seq == 0


def test_sqlite_batches_reuse_one_connection_and_a_failed_one_is_replaced(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite: the moves' writes keep one driver connection between batches (a pool checkout
    per batch cost more CPU than a small batch's writes); a batch whose connection fails is
    refused whole and the next batch takes a new connection; ``close`` releases it."""
    store = Store.open(sqlite_url)
    try:
        a, b = _game(store, 1), _game(store, 2)
        taken: list[Any] = []
        real = store.engine.raw_connection

        def counting() -> Any:
            fairy = real()
            taken.append(fairy)
            return fairy

        monkeypatch.setattr(store.engine, "raw_connection", counting)
        assert store.append_batch([Append(a, 0, ((0, 1),))]) == [None]
        assert store.append_batch([Append(a, 1, ((1, 2),)), Append(b, 0, ((0, 3),))]) == [
            None,
            None,
        ]
        assert len(taken) == 1  # one connection for both batches

        def broken(*_args: Any, **_kwargs: Any) -> Any:
            raise OSError("disk gone")

        monkeypatch.setattr(store, "_append_on", broken)
        with pytest.raises(OSError, match="disk gone"):
            store.append_batch([Append(b, 1, ((1, 4),))])
        monkeypatch.undo()
        monkeypatch.setattr(store.engine, "raw_connection", counting)
        assert store.append_batch([Append(b, 1, ((1, 5),))]) == [None]
        assert len(taken) == 2  # the failed connection was not kept
        assert store.moves(a) == [(0, 1), (1, 2)]
        assert store.moves(b) == [(0, 3), (1, 5)]
    finally:
        store.close()
    assert store._raw is None
