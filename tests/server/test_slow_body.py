"""A request whose body never arrives is answered 408 after the body timeout (issue 23): a
client declaring ``Content-Length: 1000`` and sending one byte does not hold a connection."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.procs import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    tmp = tmp_path_factory.mktemp("slow")
    proc = ServerProcess(
        f"sqlite:///{tmp / 'civtable.db'}", tmp / "server.log", extra=["--body-timeout", "1"]
    )
    proc.start()
    yield proc
    proc.stop()


def _raw(port: int, request: bytes, wait: float) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(request)
        chunks = []
        end = time.monotonic() + wait
        while time.monotonic() < end:
            try:
                data = sock.recv(4096)
            except TimeoutError:
                break
            if not data:
                break
            chunks.append(data)
        return b"".join(chunks)


def test_a_body_that_never_arrives_gets_408(server: ServerProcess) -> None:
    head = (
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n{"
    )
    start = time.monotonic()
    answer = _raw(server.port, head, wait=8)
    took = time.monotonic() - start
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"body_timeout" in answer
    assert took < 6
    # the server still answers everybody else
    ok = _raw(server.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 5)
    assert ok.startswith(b"HTTP/1.1 200")


def test_many_slow_bodies_do_not_pile_up(server: ServerProcess) -> None:
    socks = []
    head = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"
    for _ in range(40):
        s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        s.sendall(head)
        socks.append(s)
    time.sleep(2.5)
    answered = 0
    for s in socks:
        s.settimeout(3)
        try:
            if s.recv(64).startswith(b"HTTP/1.1 408"):
                answered += 1
        except TimeoutError:
            pass
        s.close()
    assert answered == len(socks)


def test_serve_refuses_bad_limits(tmp_path: Path) -> None:
    from civtable.server.cli import main

    assert main(["--body-timeout", "0", "--db", f"sqlite:///{tmp_path / 'x.db'}"]) == 2
    assert main(["--max-bot-seconds", "inf", "--db", f"sqlite:///{tmp_path / 'x.db'}"]) == 2
