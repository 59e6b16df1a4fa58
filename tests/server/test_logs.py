"""Structured logs (issue 23, operations): ``civtable serve --log-format json|text``."""

from __future__ import annotations

import io
import json
import logging
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from civtable.server import logs
from civtable.server.cli import configure_parser
from tests.server.helpers import ALL_NAMES, create
from tests.server.procs import ServerProcess
from tests.server.test_crash import Players


def _record(msg: str, *args: Any, **extra: Any) -> logging.LogRecord:
    record = logging.LogRecord("civtable.test", logging.WARNING, __file__, 1, msg, args, None)
    for key, value in extra.items():
        setattr(record, key, value)
    return record


def test_json_lines_carry_the_fields_and_hide_secrets() -> None:
    line = logs.JsonFormatter().format(
        _record(
            "seat %s sent Bearer s3cr3t-token-1 to postgresql://u:pw@db/x",
            2,
            event="move_committed",
            game_id="abc",
            seat=2,
            latency_ms=1.5,
            token="s3cr3t-token-2",
            authorization="Bearer s3cr3t-token-3",
        )
    )
    doc = json.loads(line)
    assert doc["level"] == "warning"
    assert doc["event"] == "move_committed"
    assert (doc["game_id"], doc["seat"], doc["latency_ms"]) == ("abc", 2, 1.5)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", doc["time"])
    assert "s3cr3t" not in line
    assert ":pw@" not in line
    assert doc["token"] == doc["authorization"] == "[redacted]"
    assert doc["message"] == "seat 2 sent Bearer [redacted] to postgresql://u:[redacted]@db/x"


def test_text_lines_write_fields_as_key_value_and_hide_secrets() -> None:
    line = logs.TextFormatter().format(
        _record('hello {"token": "s3cr3t"}', event="request", status=404, route="/x")
    )
    assert "WARNING civtable.test: hello" in line
    assert line.endswith("route=/x status=404")
    assert "s3cr3t" not in line


def test_configure_sends_every_logger_to_one_stream_in_the_format() -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        logs.configure("json", "info", stream)
        logging.getLogger("civtable.server").info("hi", extra={"event": "startup", "port": 1})
        logging.getLogger("uvicorn.error").debug("hidden below info")
        doc = json.loads(stream.getvalue().strip())
        assert (doc["event"], doc["port"], doc["logger"]) == ("startup", 1, "civtable.server")
        with pytest.raises(ValueError, match="log format"):
            logs.configure("xml")
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])


def test_serve_takes_a_log_format() -> None:
    import argparse

    p = argparse.ArgumentParser()
    configure_parser(p)
    assert p.parse_args([]).log_format == "text"
    assert p.parse_args(["--log-format", "json"]).log_format == "json"
    with pytest.raises(SystemExit):
        p.parse_args(["--log-format", "xml"])


def test_serve_json_logs_of_a_game(sqlite_url: str, tmp_path: Path) -> None:
    """A real ``civtable serve --log-format json``: every line is a JSON object with time,
    level and event; each committed move is logged with game id, seat, seat kind and latency,
    each request with route, status and latency; no seat token (sent in headers and in the
    WebSocket's first message, real or forged) and no card name appears anywhere."""
    log_path = tmp_path / "server.log"
    server = ServerProcess(
        sqlite_url, log_path, extra=["--log-format", "json", "--log-level", "info"]
    )
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            doc = create(http, ["human", "random", "random"], seed=11)
            gid, token = doc["game"]["id"], doc["token"]
            forged = "forged-token-" + "x" * 20
            assert (
                http.get(
                    f"/api/games/{gid}/state", headers={"Authorization": f"Bearer {forged}"}
                ).status_code
                == 403
            )
        ws_url = server.url.replace("http://", "ws://") + f"/api/games/{gid}/ws"
        with connect(ws_url, open_timeout=10) as ws:
            ws.send(json.dumps({"token": token}))
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
        players = Players(server.url, gid, {0: token}, seed=1)
        players.run()  # to the end of the game, in this thread
        assert players.failure is None, players.failure
        assert players.over
    finally:
        server.stop()
    text = log_path.read_text()
    docs = []
    for line in text.splitlines():
        if line.startswith(("civtable: web server at", "sqlite:")):
            continue  # the banner on stdout (wrapped by the console)
        doc = json.loads(line)
        assert {"time", "level", "logger", "event", "message"} <= set(doc), line
        docs.append(doc)
    moves = [d for d in docs if d["event"] == "move_committed"]
    mine = [d for d in moves if d["seat"] == 0]
    assert mine, "no move of seat 0 logged"
    assert all(d["game_id"] == gid and d["seat_kind"] == "human" for d in mine)
    assert all(isinstance(d["latency_ms"], float | int) for d in moves)
    assert {d["seat_kind"] for d in moves} == {"human", "bot"}
    assert any(d["finished"] for d in moves)
    posts = [
        d for d in docs if d["event"] == "request" and d["route"] == "/api/games/{game_id}/moves"
    ]
    assert posts
    assert all(d["game_id"] == gid and d["status"] in (200, 409) for d in posts)
    assert all(d["latency_ms"] >= 0 for d in posts)
    assert token not in text
    assert forged not in text
    # card names in civtable's own lines (uvicorn's "Press CTRL+C to quit" names no card)
    ours = "\n".join(json.dumps(d) for d in docs if d["logger"].startswith("civtable"))
    found = [name for name in ALL_NAMES if re.search(rf"\b{re.escape(name)}\b", ours)]
    assert not found, found
