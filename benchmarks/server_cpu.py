"""A fixed amount of server work in one process, for CPU comparisons that the machine's load
does not move: the same games and the same moves on every run.

Builds the web application (:func:`civtable.server.app.create_app`) on a fresh SQLite file and
plays ``--games`` games (the four games in turn, fixed seeds; seat 0 a person, the others random
bots) by calling the application as the server calls it (ASGI, no sockets): each of seat 0's
decisions is a ``POST /api/games/{id}/moves`` request, after the bots have moved, up to
``--moves`` decisions a game. Each person's seat also has a push subscriber whose messages
(the payload or its delta after every change) are built as a socket's sender builds them. The
choices follow a fixed seed and the bots' seeds, so two versions of the server do the same work.
Prints the moves made and stored and this process's CPU seconds; time the whole process from
outside to compare two versions (paired whole-process timing).

    .venv/bin/python benchmarks/server_cpu.py --games 8 --moves 60
    PYTHONPATH=/path/to/other/src .venv/bin/python benchmarks/server_cpu.py   # another version
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from civtable.server.app import create_app
from civtable.store import SeatSpec

GAMES = ("seven-wonders", "through-the-ages", "civilization-a-new-dawn", "deus")


async def _post(app: Any, path: str, token: str, body: bytes) -> tuple[int, bytes]:
    """One HTTP request through the ASGI application."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"authorization", f"Bearer {token}".encode()),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    sent = False
    status = 0
    chunks: list[bytes] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, b"".join(chunks)


async def _bots_done(live: Any) -> None:
    """Wait until the game's bot task has ended (it waits for the commit writer's thread:
    waited on, not polled, so that a slow disk does not add CPU to the figure; a busy loop
    here was most of the process's CPU until session 31)."""
    while live.bot_task is not None:
        await asyncio.wait([live.bot_task])


async def _run(url: str, args: argparse.Namespace) -> dict[str, Any]:
    app = create_app(url)
    hub = app.state.hub
    rng = random.Random(args.seed)
    made = refused = pushes = 0

    async def pusher(live: Any, sub: Any) -> None:
        nonlocal pushes
        while True:
            await hub.next_message(live, sub)
            pushes += 1

    for i in range(args.games):
        seats = [SeatSpec("human"), *[SeatSpec("bot", bot="random")] * (args.players - 1)]
        summary, _, token = await hub.create(
            game_id=GAMES[i % len(GAMES)],
            players=args.players,
            seats=seats,
            seed=1000 + i,
            take_seat=0,
        )
        gid = summary["id"]
        live = await hub.live(gid)
        sub = hub.subscribe(live, 0)
        push_task = asyncio.create_task(pusher(live, sub))
        for _ in range(args.moves):
            await _bots_done(live)  # the bots move first: the same position each run
            await asyncio.sleep(0)  # the push of what the bots did
            if live.status != "active":
                break
            held = live.tentative.get(0)
            state = held[1] if held is not None else live.state
            legal = sorted(state.legal_actions(0))
            if not legal:
                break
            body = {"seq": live.seq, "action": rng.choice(legal)}
            body["tentative"] = len(held[0]) if held is not None else 0
            status, _ = await _post(
                app, f"/api/games/{gid}/moves", token, json.dumps(body).encode()
            )
            if status == 200:
                made += 1
            else:
                refused += 1
        await _bots_done(live)
        push_task.cancel()
        hub.unsubscribe(live, sub)
    await hub.close()
    stored = hub.store.engine.connect().exec_driver_sql("SELECT count(*) FROM moves").scalar()
    hub.store.close()
    return {
        "games": args.games,
        "person_moves": made,
        "refused": refused,
        "stored_moves": int(stored or 0),
        "pushes": pushes,
        "cpu_s": round(time.process_time(), 2),
    }


def main(argv: list[str] | None = None) -> int:
    """Play the fixed work and print what was done."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=8, help="games played (default 8)")
    ap.add_argument("--moves", type=int, default=60, help="person decisions a game (default 60)")
    ap.add_argument("--players", type=int, default=3, help="seats per game (default 3)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the person's choices")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        result = asyncio.run(_run(f"sqlite:///{Path(tmp) / 'cpu.db'}", args))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
