"""``civtable serve`` / ``python -m civtable.server``: options and clear failures."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from civtable.server import add_serve_parser, cmd_serve, main
from civtable.server.hub import rebuild
from civtable.store import Store
from tests.server.helpers import create
from tests.server.procs import free_port


def test_serve_parser_plugs_into_a_command_line() -> None:
    parser = argparse.ArgumentParser(prog="civtable")
    add_serve_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve", "--port", "9001", "--db", "sqlite:///x.db"])
    assert (args.host, args.port, args.db, args.bot_delay) == (
        "127.0.0.1",
        9001,
        "sqlite:///x.db",
        0.0,
    )
    assert args.func is cmd_serve


def test_serve_refuses_a_bad_port_and_an_unreachable_database(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--port", "0"]) == 2
    assert "--port" in capsys.readouterr().err
    # nothing listens on port 9 of loopback: the database cannot be opened
    assert main(["--db", "postgresql://u:p@127.0.0.1:9/none", "--port", "8001"]) == 1
    err = capsys.readouterr().err
    assert "cannot open the database" in err
    assert ":p@" not in err  # the password is not printed


def test_serve_refuses_several_workers_on_sqlite(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """SQLite is one process's database: ``--workers 2`` on it is refused, clearly."""
    assert main(["--db", sqlite_url, "--workers", "2", "--port", "8001"]) == 2
    err = capsys.readouterr().err
    assert "--workers 2 needs PostgreSQL" in err
    assert main(["--db", sqlite_url, "--workers", "0", "--port", "8001"]) == 2
    assert "--workers must be 1 or more" in capsys.readouterr().err


def _serve_two_workers(
    pg_url: str, tmp_path: Path, *extra: str
) -> tuple[subprocess.Popen[bytes], str, Path]:
    """``civtable serve --workers 2`` on ``pg_url`` (bots in process), logging to a file:
    the process, its base URL and the log's path."""
    port = free_port()
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "civtable.server", "--workers", "2"),
                *("--port", str(port), "--db", pg_url, "--bot-processes", "0"),
                *extra,
                *("--log-level", "warning"),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    return proc, f"http://127.0.0.1:{port}", log_path


def test_serve_workers_starts_processes_that_share_one_postgresql(
    pg_url: str, tmp_path: Path
) -> None:
    """``--workers 2``: two processes answer on one port, a game of bots created through one
    is played to its end (by one of them), and SIGTERM stops them all with exit code 0."""
    proc, base, log_path = _serve_two_workers(pg_url, tmp_path)
    try:
        starts: set[str] = set()
        end = time.monotonic() + 60
        while len(starts) < 2 and time.monotonic() < end:
            assert proc.poll() is None, log_path.read_text()[-2000:]
            try:
                text = httpx.get(base + "/metrics", timeout=2).text
            except httpx.HTTPError:
                time.sleep(0.2)
                continue
            starts.update(
                line for line in text.splitlines() if line.startswith("civtable_start_time")
            )
        assert len(starts) == 2, log_path.read_text()[-2000:]  # two processes answered
        with httpx.Client(base_url=base, timeout=10) as http:
            doc = create(http, ["random", "random", "random"], take_seat=None, seed=3)
            gid = doc["game"]["id"]
            while time.monotonic() < end + 60:
                if http.get(f"/api/games/{gid}").json()["status"] == "over":
                    break
                time.sleep(0.2)
            final = http.get(f"/api/games/{gid}/state").json()
        assert final["status"] == "over"
        store = Store.open(pg_url)
        try:
            assert store.move_count(gid) == final["seq"] > 0
        finally:
            store.close()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def _workers(parent: int) -> list[int]:
    """The server processes ``--workers`` started under ``parent`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if ppid == parent and b"spawn_main" in cmdline:
            found.append(int(entry.name))
    return sorted(found)


def test_serve_workers_replaces_a_killed_process_and_its_game_goes_on(
    pg_url: str, tmp_path: Path
) -> None:
    """SIGKILL each of the two ``--workers`` processes in turn while a game of bots is played
    (so the one moving its bots is killed at least once): a new process replaces each, the game
    is taken over and ends, and its stored log replays."""
    proc, base, log_path = _serve_two_workers(pg_url, tmp_path, "--bot-delay", "0.05")
    store = Store.open(pg_url, migrate=False)
    try:
        end = time.monotonic() + 120

        def until(check: Any) -> None:
            while not check():
                assert time.monotonic() < end, log_path.read_text()[-2000:]
                assert proc.poll() is None, log_path.read_text()[-2000:]
                time.sleep(0.05)

        def answers() -> bool:
            try:
                return httpx.get(base + "/healthz", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        until(lambda: answers() and len(_workers(proc.pid)) == 2)
        with httpx.Client(base_url=base, timeout=10) as http:
            doc = create(http, ["random", "random", "random"], take_seat=None, seed=8)
        gid = doc["game"]["id"]
        for at in (8, 20):
            until(lambda at=at: store.move_count(gid) >= at)
            before = _workers(proc.pid)
            os.kill(before[0], signal.SIGKILL)
            until(lambda before=before: len(set(_workers(proc.pid)) - set(before)) == 1)
        until(lambda: store.get_game(gid).status == "over")
        record = store.get_game(gid)
        assert rebuild(record, store.moves(gid)).is_terminal()
        assert record.seq == store.move_count(gid)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        store.close()
        if proc.poll() is None:
            for pid in _workers(proc.pid):  # no server process outlives a failed test
                os.kill(pid, signal.SIGKILL)
            proc.kill()
            proc.wait(timeout=10)


@pytest.mark.parametrize("workers", [1, 2])
def test_serve_says_when_its_port_is_taken(
    workers: int, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A port another program listens on: exit code 1 and a clear message, with one process
    (uvicorn's own bind) or several (the shared socket bound first)."""
    import socket

    if workers > 1 and db_url.startswith("sqlite"):
        pytest.skip("several processes need PostgreSQL")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        argv = ["--db", db_url, "--port", str(port), "--workers", str(workers)]
        root = logging.getLogger()
        before = (list(root.handlers), root.level)
        assert main([*argv, "--bot-processes", "0"]) == 1
        # its logging set-up ends with it: no handler left on this test's captured stderr
        assert (list(root.handlers), root.level) == before
    assert f"cannot listen on 127.0.0.1:{port} (is the port in use?)" in capsys.readouterr().err
