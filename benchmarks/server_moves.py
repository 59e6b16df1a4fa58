"""Server throughput: acknowledged moves per second through HTTP, end to end.

Starts ``python -m civtable.server`` on a fresh database (SQLite in a temporary directory by
default, or ``--db postgresql://...``), then plays whole 7 Wonders games whose seats are all
driven by this script over loopback HTTP: ``GET state`` + ``POST move`` per decision, each move
committed to the database before its answer. Several games run in parallel threads
(``--parallel``). Prints moves/s and the latency of a move (p50, p95, max).

    .venv/bin/python benchmarks/server_moves.py --games 4 --players 4 --parallel 2
    .venv/bin/python benchmarks/server_moves.py --db postgresql://civtable:civtable@127.0.0.1/civtable
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from server_load import free_port, start_server


def _start(db: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "civtable.server", "--port", str(port), "--db", db]
    return start_server([*cmd, "--log-level", "warning"], port, log, seconds=30)


def _play_game(base: str, players: int, seed: int, latencies: list[float]) -> int:
    """One whole game, every seat played from here; returns the number of moves."""
    with httpx.Client(base_url=base, timeout=30) as http:
        doc = http.post(
            "/api/games",
            json={
                "players": players,
                "seed": seed,
                "seats": [{"kind": "human"}] * players,
                "take_seat": 0,
            },
        ).json()
        gid = doc["game"]["id"]
        tokens = {0: doc["token"]}
        for _ in range(players - 1):
            r = http.post(f"/api/games/{gid}/join", json={}).json()
            tokens[r["seat"]] = r["token"]
        moves = 0
        for _ in range(10_000):  # bounded: a game has far fewer decisions
            st: dict[str, Any] = {}
            for token in tokens.values():
                headers = {"Authorization": f"Bearer {token}"}
                st = http.get(f"/api/games/{gid}/state", headers=headers).json()
                if st["status"] == "over":
                    return moves
                legal = st["view"]["legal"]
                if not legal:
                    continue
                action = legal[(seed + moves) % len(legal)]["id"]
                t0 = time.perf_counter()
                r = http.post(
                    f"/api/games/{gid}/moves",
                    json={"seq": st["seq"], "action": action},
                    headers=headers,
                )
                latencies.append(time.perf_counter() - t0)
                if r.status_code != 200:
                    raise SystemExit(f"move refused: {r.text}")
                moves += 1
        raise SystemExit("game did not end")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; prints a summary (or JSON)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4, help="games in total (default 4)")
    ap.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    ap.add_argument("--parallel", type=int, default=2, help="games played at once (default 2)")
    ap.add_argument("--db", help="database URL (default: a temporary SQLite file)")
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        port = free_port()
        proc = _start(db, port, Path(tmp) / "server.log")
        base = f"http://127.0.0.1:{port}"
        latencies: list[float] = []
        counts: list[int] = []
        lock = threading.Lock()
        seeds = list(range(args.games))

        def worker() -> None:
            while True:
                with lock:
                    if not seeds:
                        return
                    seed = seeds.pop()
                n = _play_game(base, args.players, seed, latencies)
                with lock:
                    counts.append(n)

        try:
            t0 = time.perf_counter()
            threads = [threading.Thread(target=worker) for _ in range(max(1, args.parallel))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - t0
        finally:
            os.kill(proc.pid, signal.SIGTERM)
            proc.wait(timeout=10)
    lat = sorted(latencies)
    result = {
        "database": db.split("://")[0],
        "games": len(counts),
        "players": args.players,
        "parallel": args.parallel,
        "moves": sum(counts),
        "seconds": round(elapsed, 3),
        "moves_per_second": round(sum(counts) / elapsed, 1),
        "move_latency_ms": {
            "p50": round(1000 * statistics.median(lat), 2),
            "p95": round(1000 * lat[int(0.95 * (len(lat) - 1))], 2),
            "max": round(1000 * lat[-1], 2),
        },
    }
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(
            f"{result['moves']} moves in {result['games']} games ({args.players} players, "
            f"{args.parallel} at once) on {result['database']}: "
            f"{result['moves_per_second']} moves/s; move latency p50 "
            f"{result['move_latency_ms']['p50']} ms, p95 {result['move_latency_ms']['p95']} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
