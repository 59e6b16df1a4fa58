"""Graceful shutdown (issue 23, operations): ``civtable serve`` on SIGTERM.

A real server process plays three games (two people each, posting moves from threads as fast as
they can, and a bot; one of the bots is a one-second search, so a bot is usually thinking) with a
seat's WebSocket open on each. The test sends SIGTERM in the middle of it. The server must stop
listening, finish the requests in progress, stop the bots, close the sockets with code 1012
("service restart": the browser reconnects) and exit with code 0; every acknowledged move is then
in the database at the position its answer reported, and every game loads again on restart.
On SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import json
import re
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from civtable.server.hub import Hub
from civtable.store import SeatSpec, Store
from tests.server.helpers import create
from tests.server.procs import ServerProcess
from tests.server.test_crash import Players, _check_log


class Socket(threading.Thread):
    """A seat's push connection: reads until the server closes it; keeps the close code."""

    def __init__(self, url: str, token: str) -> None:
        super().__init__(daemon=True)
        self.url, self.token = url, token
        self.pushes = 0
        self.code: int | None = None
        self.ready = threading.Event()

    def run(self) -> None:
        with connect(self.url, open_timeout=10) as ws:
            ws.send(json.dumps({"token": self.token}))
            try:
                while True:
                    doc = json.loads(ws.recv(timeout=60))
                    assert doc["type"] in ("state", "delta"), doc
                    self.pushes += 1
                    self.ready.set()
            except ConnectionClosed as exc:
                self.code = exc.rcvd.code if exc.rcvd is not None else None


def _new_game(http: httpx.Client, bot: str, seed: int) -> tuple[str, dict[int, str]]:
    r = http.post(
        "/api/games",
        json={
            "players": 3,
            "seed": seed,
            "options": {"sides": "A"},
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": bot}],
            "take_seat": 0,
        },
    )
    assert r.status_code == 201, r.text
    gid, t0 = r.json()["game"]["id"], r.json()["token"]
    t1 = http.post(f"/api/games/{gid}/join", json={}).json()["token"]
    return gid, {0: t0, 1: t1}


def test_sigterm_finishes_commits_closes_sockets_and_exits_0(db_url: str, tmp_path: Path) -> None:
    log_path = tmp_path / "server.log"
    server = ServerProcess(db_url, log_path, extra=["--log-format", "json", "--log-level", "info"])
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            setups = [
                _new_game(http, bot, seed)
                for bot, seed in (("hard", 3), ("random", 4), ("heuristic", 5))
            ]
        ws_base = server.url.replace("http://", "ws://")
        sockets = [Socket(f"{ws_base}/api/games/{gid}/ws", tokens[0]) for gid, tokens in setups]
        for s in sockets:
            s.start()
        for s in sockets:
            assert s.ready.wait(20)
        players = [
            Players(server.url, gid, tokens, seed=i) for i, (gid, tokens) in enumerate(setups)
        ]
        for p in players:
            p.start()
        end = time.monotonic() + 60
        while sum(len(p.acked) for p in players) < 30 and time.monotonic() < end:
            time.sleep(0.005)
        assert server.proc is not None
        proc = server.proc
        proc.send_signal(signal.SIGTERM)  # the players are usually inside a request now
        code = proc.wait(timeout=60)
        server.proc = None
        for p in players:
            p.join(timeout=20)
            assert not p.is_alive()
            assert p.failure is None, p.failure
        for s in sockets:
            s.join(timeout=20)
            assert not s.is_alive()
    finally:
        server.stop()
    assert code == 0, log_path.read_text()[-3000:]
    # every socket was closed by the server with 1012 "service restart"
    assert [s.code for s in sockets] == [1012, 1012, 1012]
    assert sum(len(p.acked) for p in players) >= 30
    for p, (gid, _) in zip(players, setups, strict=True):
        _check_log(db_url, gid, p.acked)
    events = [
        json.loads(line)["event"] for line in log_path.read_text().splitlines() if line[:1] == "{"
    ]
    assert events.index("shutdown") < events.index("stopped")
    # the stored games load and go on
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            for p, (gid, tokens) in zip(players, setups, strict=True):
                st = http.get(
                    f"/api/games/{gid}/state", headers={"Authorization": f"Bearer {tokens[0]}"}
                )
                assert st.status_code == 200
                assert st.json()["seq"] >= max((a[0] for a in p.acked), default=0)
    finally:
        server.stop()


def test_hub_close_lets_a_bot_move_being_committed_finish(sqlite_url: str) -> None:
    """Stopping the bots never cuts a commit in two: :meth:`Hub.close` returns only after a bot
    move that is being written is stored (and live), so the store can be closed right after."""
    store = Store.open(sqlite_url)
    entered = threading.Event()
    started: list[int] = []
    finished: list[int] = []
    bare = store.append_batch

    def slow_batch(batch: Any) -> Any:
        """The hub's writer commits through ``append_batch`` (grouped commits)."""
        started.extend(entry.seq for entry in batch)
        entered.set()
        time.sleep(0.5)
        out = bare(batch)
        finished.extend(entry.seq for entry in batch)
        return out

    store.append_batch = slow_batch  # type: ignore[method-assign]

    async def scenario() -> tuple[str, list[int], list[int]]:
        hub = Hub(store)
        summary, _, _ = await hub.create(
            game_id="seven-wonders",
            players=3,
            seats=[SeatSpec("human"), SeatSpec("bot", "random"), SeatSpec("bot", "random")],
            options={"sides": "A"},
            seed=1,
            take_seat=0,
        )
        deadline = time.monotonic() + 30
        while not entered.is_set():
            assert time.monotonic() < deadline, "no bot move was committed"
            await asyncio.sleep(0.005)
        await hub.close()  # a bot's move is being written now
        return str(summary["id"]), list(started), list(finished)

    try:
        gid, begun, done = asyncio.run(scenario())
        # every commit begun (the two bots' moves, written one after the other under the game's
        # lock) had finished when close returned; none was begun after it
        assert begun == done == [0, 1]
        assert store.move_count(gid) == 2
    finally:
        store.close()


def test_civtable_serve_stops_listening_but_answers_the_request_in_progress(
    sqlite_url: str, tmp_path: Path
) -> None:
    """The installed ``civtable serve`` command, SIGTERM while a slow request (a three-second
    move suggestion) is in progress: new connections are refused at once, the request in
    progress still gets its full answer, and the process exits with 0."""
    import os
    import subprocess
    import sys

    from tests.server.procs import free_port

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    command = Path(sys.executable).parent / "civtable"
    with (tmp_path / "serve.log").open("wb") as out:
        proc = subprocess.Popen(
            [
                str(command),
                "serve",
                "--port",
                str(port),
                "--db",
                sqlite_url,
                "--suggest-bot",
                "ismcts:3s",
                "--log-level",
                "warning",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    try:
        end = time.monotonic() + 30
        while True:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.1)
        with httpx.Client(base_url=base, timeout=30) as http:
            doc = create(http, ["human", "random", "random"], seed=2)
            gid, token = doc["game"]["id"], doc["token"]
            headers = {"Authorization": f"Bearer {token}"}
            end = time.monotonic() + 20
            while True:  # the bots' first cards are committed: the pool has nothing to do
                st = http.get(f"/api/games/{gid}/state", headers=headers).json()
                if all(c["committed"] for c in st["view"]["cities"][1:]):
                    break
                assert time.monotonic() < end, "the bots did not move"
                time.sleep(0.02)
            seq = st["seq"]
        answer: dict[str, Any] = {}

        def ask() -> None:
            with httpx.Client(base_url=base, timeout=60) as http:
                r = http.post(f"/api/games/{gid}/suggest", json={"seq": seq}, headers=headers)
                answer["status"], answer["doc"] = r.status_code, r.json()

        asking = threading.Thread(target=ask, daemon=True)
        asking.start()
        # the suggestion is being searched once the bot pool has work
        end = time.monotonic() + 20
        busy = re.compile(r"^civtable_bot_decisions_pending 1$", re.M)
        while not busy.search(httpx.get(base + "/metrics").text):
            assert time.monotonic() < end, "the suggestion never started"
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.6)  # uvicorn looks at its exit flag every 0.1 s
        assert proc.poll() is None  # still answering the suggestion
        refused = False
        try:
            httpx.get(base + "/healthz", timeout=2)
        except httpx.ConnectError:
            refused = True
        assert refused, "a new connection was accepted after SIGTERM"
        asking.join(timeout=60)
        assert answer.get("status") == 200, answer
        assert len(answer["doc"]["moves"]) >= 1
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
