"""``GET /metrics`` (issue 23, operations): Prometheus text exposition of one server process."""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from civtable.server.metrics import Counter, Histogram
from tests.server.helpers import auth, create, make_client

#: one sample line: name, optional {labels}, value
SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$")
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)')

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def parse(text: str) -> Samples:
    """Parse the exposition text strictly: every sample belongs to a family declared by a
    ``# TYPE`` line before it, labels are well formed, values are numbers, no duplicates."""
    assert text.endswith("\n")
    declared: dict[str, str] = {}
    out: Samples = {}
    for line in text.splitlines():
        if line.startswith("# HELP "):
            continue
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ")
            assert kind in ("counter", "gauge", "histogram"), line
            assert name not in declared, f"family declared twice: {name}"
            declared[name] = kind
            continue
        m = SAMPLE.match(line)
        assert m, f"not a sample line: {line!r}"
        name, _, body, value = m.groups()
        family = re.sub(r"_(bucket|sum|count)$", "", name)
        assert name in declared or declared.get(family) == "histogram", f"undeclared: {line!r}"
        labels: list[tuple[str, str]] = []
        if body:
            pos = 0
            while pos < len(body):
                lm = LABEL.match(body, pos)
                assert lm, f"bad labels in {line!r}"
                labels.append((lm.group(1), lm.group(2)))
                pos = lm.end()
        key = (name, frozenset(labels))
        assert key not in out, f"duplicate sample {line!r}"
        out[key] = float(value)
    return out


def value(samples: Samples, name: str, **labels: str) -> float:
    """One sample's value (0 when the series does not exist yet)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def scrape(client: TestClient) -> Samples:
    r = client.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    return parse(r.text)


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as c:
        yield c


def _wait_for(client: TestClient, pred: Any, timeout: float = 10) -> Samples:
    end = time.monotonic() + timeout
    while True:
        samples = scrape(client)
        if pred(samples):
            return samples
        assert time.monotonic() < end, "timed out waiting for the metrics"
        time.sleep(0.02)


def test_counters_move_after_a_move(client: TestClient) -> None:
    """A committed move raises the move counter (game type, seat kind), the move-latency and
    commit histograms and the request counter; a refused move raises only the request counter
    (with its status); the bots' moves are counted as bot moves."""
    doc = create(client, ["human", "random", "random"])
    gid, token = doc["game"]["id"], doc["token"]
    # the bots of seats 1 and 2 commit their first cards on their own: wait for them
    before = _wait_for(
        client,
        lambda s: value(s, "civtable_moves_committed_total", game="seven-wonders", kind="bot") >= 2,
    )
    assert value(before, "civtable_live_games", status="active") == 1
    st = client.get(f"/api/games/{gid}/state", headers=auth(token)).json()
    move = {"seq": st["seq"], "action": st["view"]["legal"][0]["id"]}
    stale = client.post(
        f"/api/games/{gid}/moves", json={**move, "seq": st["seq"] + 9}, headers=auth(token)
    )
    assert stale.status_code == 409
    ok = client.post(f"/api/games/{gid}/moves", json=move, headers=auth(token))
    assert ok.status_code == 200, ok.text
    after = scrape(client)

    def rose(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert rose("civtable_moves_committed_total", game="seven-wonders", kind="human") == 1
    assert rose("civtable_move_seconds_count", game="seven-wonders") == 2  # both answers
    assert rose("civtable_commit_seconds_count") >= 1
    route = "/api/games/{game_id}/moves"
    assert rose("civtable_http_requests_total", method="POST", route=route, status="200") == 1
    assert rose("civtable_http_requests_total", method="POST", route=route, status="409") == 1
    assert value(after, "civtable_http_request_seconds_count", route=route) >= 2
    # the histogram is cumulative: +Inf holds every observation, buckets never fall
    buckets = sorted(
        (float(dict(labels)["le"]), v)
        for (name, labels), v in after.items()
        if name == "civtable_move_seconds_bucket"
    )
    assert buckets[-1] == (
        float("inf"),
        value(after, "civtable_move_seconds_count", game="seven-wonders"),
    )
    assert all(a[1] <= b[1] for a, b in itertools.pairwise(buckets))
    # no game id (nor any token) in any label
    text = client.get("/metrics").text
    assert gid not in text
    assert token not in text


def test_sockets_and_subscribers_are_counted_while_open(client: TestClient) -> None:
    doc = create(client, ["human", "human", "human"], take_seat=0)
    gid, token = doc["game"]["id"], doc["token"]
    assert value(scrape(client), "civtable_open_websockets") == 0
    with (
        client.websocket_connect(f"/api/games/{gid}/ws") as seat,
        client.websocket_connect(f"/api/games/{gid}/ws") as watcher,
    ):
        seat.send_json({"token": token})
        watcher.send_json({})
        assert seat.receive_json()["type"] == "state"
        assert watcher.receive_json()["type"] == "state"
        open_now = scrape(client)
        assert value(open_now, "civtable_open_websockets") == 2
        assert value(open_now, "civtable_push_subscribers", kind="seat") == 1
        assert value(open_now, "civtable_push_subscribers", kind="spectator") == 1
        assert value(open_now, "civtable_websockets_opened_total") == 2
        assert value(open_now, "civtable_live_games", status="lobby") == 1
    closed = _wait_for(client, lambda s: value(s, "civtable_open_websockets") == 0)
    assert value(closed, "civtable_push_subscribers", kind="seat") == 0
    assert value(closed, "civtable_websockets_opened_total") == 2


def test_bot_gauges_and_unmatched_routes(client: TestClient) -> None:
    """The bot gauges exist (workers > 0, nothing pending when idle); a request to no route is
    counted under ``unmatched``, never under its path, and so is a body refused before routing
    (413 from the body limit)."""
    client.get("/no/such/page/abc123")
    big = client.post("/api/games", content=b"x" * (70 * 1024))
    assert big.status_code == 413
    samples = scrape(client)
    assert (
        value(
            samples, "civtable_http_requests_total", method="POST", route="unmatched", status="413"
        )
        == 1
    )
    assert value(samples, "civtable_bot_workers") == 2
    assert value(samples, "civtable_bot_decisions_pending") == 0
    assert value(samples, "civtable_bot_games") == 0
    assert value(samples, "civtable_up") == 1
    assert (
        value(
            samples, "civtable_http_requests_total", method="GET", route="unmatched", status="404"
        )
        == 1
    )
    assert "abc123" not in client.get("/metrics").text


def test_bot_decisions_are_counted_while_the_bots_think(sqlite_url: str) -> None:
    """``civtable_bot_decisions_pending`` counts decisions handed to the bot pool and not done:
    a bot held inside its decision shows as 1 running, decisions beyond the two workers as
    queued, and 0 once they are let go."""
    import threading

    from civtable.bots import register
    from civtable.bots.random_bot import RandomBot

    gate = threading.Event()
    inside = threading.Event()

    class HeldBot(RandomBot):
        def choose(self, state: Any, seat: int) -> int:
            inside.set()
            gate.wait(10)
            return super().choose(state, seat)

    register("held-metrics", lambda arg, seed: HeldBot(seed))
    with make_client(sqlite_url) as client:
        try:
            create(client, ["human", "held-metrics", "random"])
            assert inside.wait(10)
            held = scrape(client)
            assert value(held, "civtable_bot_decisions_pending") == 1
            assert value(held, "civtable_bot_decisions_running") == 1
            assert value(held, "civtable_bot_decisions_queued") == 0
            assert value(held, "civtable_bot_games") == 1
            # two more games with held bots: two decisions fill both workers, the third waits
            create(client, ["human", "held-metrics", "random"], seed=8)
            create(client, ["human", "held-metrics", "random"], seed=9)
            crowded = _wait_for(client, lambda s: value(s, "civtable_bot_decisions_pending") == 3)
            assert value(crowded, "civtable_bot_decisions_running") == 2
            assert value(crowded, "civtable_bot_decisions_queued") == 1
            assert value(crowded, "civtable_bot_games") == 3
        finally:
            gate.set()
        _wait_for(client, lambda s: value(s, "civtable_bot_decisions_pending") == 0)


def test_exposition_escapes_labels_and_renders_numbers() -> None:
    c = Counter("x_total", "help", ("a",))
    c.inc('q"u\\o\nte')
    c.inc("b", amount=2.5)
    text = "\n".join(c.render()) + "\n"
    samples = parse(text)
    assert value(samples, "x_total", a="b") == 2.5
    assert value(samples, "x_total", a='q\\"u\\\\o\\nte') == 1
    with pytest.raises(ValueError, match="only rises"):
        c.inc("b", amount=-1)
    h = Histogram("h_seconds", "help", buckets=(0.1, 1.0))
    h.observe(0.05)
    h.observe(0.5)
    h.observe(5)
    hs = parse("\n".join(h.render()) + "\n")
    assert value(hs, "h_seconds_bucket", le="0.1") == 1
    assert value(hs, "h_seconds_bucket", le="1") == 2
    assert value(hs, "h_seconds_bucket", le="+Inf") == 3
    assert value(hs, "h_seconds_sum") == pytest.approx(5.55)


def test_a_store_that_groups_commits_is_counted_once_per_stored_move(sqlite_url: str) -> None:
    """A store with ``append_batch`` (several games' moves in one transaction, answered per
    entry) is counted per stored entry, one commit per batch; a refused entry is not counted,
    and the batch's own single appends are not counted twice."""
    from dataclasses import dataclass

    from civtable.store import NewGame, SeatSpec, Store, StoreError

    @dataclass(frozen=True)
    class Entry:
        game_id: str
        seq: int
        steps: tuple[tuple[int, int], ...]
        finished: dict[str, Any] | None = None

    class BatchingStore(Store):
        def append_batch(self, entries: list[Entry]) -> list[StoreError | None]:
            results: list[StoreError | None] = []
            for e in entries:
                try:
                    self.append_moves(e.game_id, e.seq, e.steps, finished=e.finished)
                except StoreError as exc:
                    results.append(exc)
                else:
                    results.append(None)
            return results

    store = BatchingStore.open(sqlite_url)
    try:
        with make_client(sqlite_url, store=store) as client:
            ids = []
            for _ in range(2):
                record = store.create_game(
                    NewGame(
                        game="seven-wonders",
                        players=3,
                        seed=1,
                        options={},
                        seats=[SeatSpec("human")] * 3,
                    )
                )
                store.set_status(record.id, "active", expect="lobby")
                ids.append(record.id)
            before = scrape(client)
            results = store.append_batch(
                [
                    Entry(ids[0], 0, ((0, 5), (0, 6))),
                    Entry(ids[1], 0, ((1, 7),)),
                    Entry(ids[1], 0, ((2, 8),)),  # stale: seq 0 is taken by now
                ]
            )
            assert [r is None for r in results] == [True, True, False]
            store.append_moves(ids[1], 1, [(2, 9)])
            after = scrape(client)
    finally:
        store.close()
    rose = value(after, "civtable_moves_committed_total", game="", kind="") - value(
        before, "civtable_moves_committed_total", game="", kind=""
    )
    assert rose == 4  # 2 + 1 from the batch, 1 alone
    commits = value(after, "civtable_commit_seconds_count") - value(
        before, "civtable_commit_seconds_count"
    )
    assert commits == 2  # the batch, then the single append


def test_decisions_in_bot_worker_processes_are_counted(sqlite_url: str) -> None:
    """Searching bots think in worker processes (``--bot-processes``): the process pool, started
    when first needed, is counted like the thread pool, and its workers add to the gauge."""
    import asyncio

    from civtable.server.hub import Hub
    from civtable.server.metrics import ServerMetrics, instrument
    from civtable.store import Store

    store = Store.open(sqlite_url)
    hub = Hub(store, bot_processes=1)
    metrics = ServerMetrics()
    instrument(metrics, hub, store)

    async def scenario() -> tuple[Samples, Samples]:
        job = asyncio.ensure_future(hub._in_process_pool(time.sleep, 1.5))
        for _ in range(600):  # the worker process starts on first use
            if metrics.bot_decisions_pending:
                break
            await asyncio.sleep(0.05)
        busy = parse(metrics.render())
        await job
        idle = parse(metrics.render())
        await hub.close()
        return busy, idle

    try:
        busy, idle = asyncio.run(scenario())
    finally:
        store.close()
    assert value(busy, "civtable_bot_workers") == 3  # two threads and one process
    assert value(busy, "civtable_bot_decisions_pending") == 1
    assert value(busy, "civtable_bot_decisions_running") == 1
    assert value(idle, "civtable_bot_decisions_pending") == 0
