"""Durability with a real process and a real SIGKILL: no acknowledged move is ever lost.

Two players hammer a server with moves from a thread while the test kills the process with
SIGKILL twice, at moments it does not choose precisely. After each restart every move that was
acknowledged (HTTP 200) is in the stored log at the position its answer reported (a tentative step
of a compound move is stored with the step that completes the move), and the game
goes on from exactly there (bots resume by themselves) to its final scores. On SQLite and
PostgreSQL.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx

from civtable.core.rng import Rng
from civtable.store import Store
from tests.server.helpers import create
from tests.server.procs import ServerProcess


class Players(threading.Thread):
    """Plays every human seat as fast as it can; records acknowledged moves."""

    def __init__(self, base: str, gid: str, tokens: dict[int, str], seed: int) -> None:
        super().__init__(daemon=True)
        self.base, self.gid, self.tokens = base, gid, tokens
        self.rng = Rng(seed)
        self.acked: list[tuple[int, int, int]] = []  # (seq after, seat, action)
        # a seat's tentative steps (answered, but stored only with the step completing the move)
        self.held: dict[int, list[int]] = {s: [] for s in tokens}
        self.over = False
        self.stop = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        with httpx.Client(base_url=self.base, timeout=5) as http:
            while not self.stop.is_set():
                try:
                    self.step(http)
                except httpx.HTTPError:
                    return  # the server died
                except BaseException as exc:  # reported by the test, not lost in the thread
                    self.failure = exc
                    return
                if self.over:
                    return

    def step(self, http: httpx.Client) -> None:
        idle = True
        for seat, token in self.tokens.items():
            headers = {"Authorization": f"Bearer {token}"}
            st = http.get(f"/api/games/{self.gid}/state", headers=headers).json()
            if st["status"] == "over":
                self.over = True
                return
            if not st.get("tentative"):
                self.held[seat] = []  # none, or lost with a killed process: never stored
            legal = st["view"]["legal"]
            if not legal:
                continue
            action = self.rng.choice(legal)["id"]
            r = http.post(
                f"/api/games/{self.gid}/moves",
                json={"seq": st["seq"], "action": action},
                headers=headers,
            )
            if r.status_code == 200:
                doc: dict[str, Any] = r.json()
                idle = False
                if doc["tentative"]:
                    self.held[seat].append(action)
                    continue
                steps = [*self.held[seat], action]
                self.held[seat] = []
                first = doc["seq"] - len(steps)
                self.acked.extend((first + i + 1, seat, a) for i, a in enumerate(steps))
            else:
                assert r.status_code == 409, r.text
        if idle:
            time.sleep(0.01)


def _check_log(db_url: str, gid: str, acked: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    store = Store.open(db_url)
    try:
        log = store.moves(gid)
    finally:
        store.close()
    for seq_after, seat, action in acked:
        assert seq_after <= len(log), f"acknowledged move {seq_after} lost ({len(log)} stored)"
        assert log[seq_after - 1] == (seat, action), f"move {seq_after} differs"
    return log


def test_sigkill_loses_no_acknowledged_move(db_url: str, tmp_path: Path) -> None:
    server = ServerProcess(db_url, tmp_path / "server.log")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            r = http.post(
                "/api/games",
                json={
                    "players": 3,
                    "seed": 17,
                    "options": {"sides": "B"},
                    "seats": [
                        {"kind": "human"},
                        {"kind": "human"},
                        {"kind": "bot", "bot": "heuristic"},
                    ],
                    "take_seat": 0,
                },
            )
            gid, t0 = r.json()["game"]["id"], r.json()["token"]
            t1 = http.post(f"/api/games/{gid}/join", json={}).json()["token"]
        tokens = {0: t0, 1: t1}
        acked: list[tuple[int, int, int]] = []
        for kill_after in (12, 30):
            players = Players(server.url, gid, tokens, seed=kill_after)
            players.start()
            end = time.monotonic() + 60
            while len(players.acked) < kill_after - len(acked) and time.monotonic() < end:
                time.sleep(0.002)
            server.kill()  # mid-flight: the players' thread is usually inside a request
            players.join(timeout=10)
            assert players.failure is None, players.failure
            acked += players.acked
            log = _check_log(db_url, gid, acked)
            assert len(log) >= kill_after  # bots' moves are in there too
            server.start()
            with httpx.Client(base_url=server.url, timeout=10) as http:
                st = http.get(f"/api/games/{gid}/state", headers={"Authorization": f"Bearer {t0}"})
                assert st.json()["seq"] >= len(log)  # the game is exactly where it was (or later:
                # the bot may have moved since the restart)
        players = Players(server.url, gid, tokens, seed=99)
        players.run()  # to the end, in this thread
        assert players.failure is None, players.failure
        acked += players.acked
        assert players.over
        log = _check_log(db_url, gid, acked)
        with httpx.Client(base_url=server.url, timeout=10) as http:
            final = http.get(f"/api/games/{gid}/state").json()
        assert final["status"] == "over"
        assert final["seq"] == len(log)
        assert len(final["view"]["result"]["scores"]) == 3
    finally:
        server.stop()


def _children(pid: int) -> list[int]:
    """Live child processes of ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)
            except OSError:
                continue
            fields = stat[1].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def test_bot_worker_processes_end_with_a_killed_server(sqlite_url: str, tmp_path: Path) -> None:
    """SIGKILL gives the server no time to stop its bot worker processes: they notice that
    their server is gone and end (they used to wait for work for ever, 44 MB each)."""
    server = ServerProcess(sqlite_url, tmp_path / "server.log", extra=["--bot-processes", "2"])
    server.start()
    assert server.proc is not None
    pid = server.proc.pid
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            create(http, ["heuristic"] * 3, seed=4, take_seat=None)
        end = time.monotonic() + 60
        while not _children(pid):  # the searching bots started their worker processes
            assert time.monotonic() < end, "no bot worker process started"
            time.sleep(0.05)
        workers = _children(pid)
        server.kill()
        end = time.monotonic() + 20
        while any(Path(f"/proc/{w}").exists() and _alive(w) for w in workers):
            assert time.monotonic() < end, "bot workers outlived their server"
            time.sleep(0.1)
    finally:
        if server.proc is not None:
            server.stop()


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
