"""The hub's CPU per stored move, in one process, without HTTP or sockets.

Runs a :class:`civtable.server.hub.Hub` on a fresh database (SQLite in a temporary directory,
or ``--db postgresql://...``, where it is one process of a cluster: it listens for notices and
takes its games' bot locks as ``civtable serve`` does) and keeps ``--games`` games live (the
four games in turn, seat 0 a person played from here with random legal moves through
:meth:`Hub.move`, the other seats random bots). After ``--warmup`` seconds it measures for
``--seconds`` seconds: stored moves (rows added to ``moves``), and the CPU seconds of this
process (all its threads: the event loop, the commit writer, the store's worker threads).
What the web side costs (``server_load.py`` measures it) is left out, so the store's and the
catch-up's share shows plainly.

    .venv/bin/python benchmarks/hub_cpu.py --games 50 --seconds 20
    .venv/bin/python benchmarks/hub_cpu.py --games 50 --seconds 20 --db postgresql://u:pw@127.0.0.1/db
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from civtable.server.errors import ApiError
from civtable.server.hub import Hub
from civtable.store import SeatSpec, Store

GAMES = ("seven-wonders", "through-the-ages", "civilization-a-new-dawn", "deus")
#: does this code's Hub.move take the sender's ``tentative`` (code from before it does not)
_SAYS_TENTATIVE = "tentative" in inspect.signature(Hub.move).parameters


async def _run(url: str, args: argparse.Namespace) -> dict[str, Any]:
    store = Store.open(url)
    hub = Hub(store, bot_processes=0)
    await hub.resume()
    rng = random.Random(args.seed)
    stop = False
    refused: dict[str, int] = {}

    async def keep_one(i: int) -> None:
        while not stop:
            seats = [SeatSpec("human"), *[SeatSpec("bot", bot="random")] * (args.players - 1)]
            summary, _, token = await hub.create(
                game_id=GAMES[i % len(GAMES)],
                players=args.players,
                seats=seats,
                seed=rng.randrange(1 << 30),
                take_seat=0,
            )
            gid = summary["id"]
            while not stop:
                live = hub.held(gid) or await hub.live(gid)
                if live.status == "over":
                    break
                held = live.tentative.get(0)
                state = held[1] if held is not None else live.state
                legal = state.legal_actions(0) if state is not None else []
                if not legal:
                    await asyncio.sleep(0.002)  # the bots' turn
                    continue
                try:
                    action = rng.choice(list(legal))
                    if _SAYS_TENTATIVE:  # as the web client and the load benchmark's driver do
                        steps = len(held[0]) if held is not None else 0
                        await hub.move(gid, token, live.seq, action, tentative=steps)
                    else:
                        await hub.move(gid, token, live.seq, action)
                except ApiError as exc:
                    refused[exc.code] = refused.get(exc.code, 0) + 1
                await asyncio.sleep(0)

    def transactions() -> int | None:
        """Transactions committed in this database so far (PostgreSQL's statistics, which
        backends report within about a second; None on SQLite)."""
        if store.dialect != "postgresql":
            return None
        with store.engine.connect() as conn:
            return int(
                conn.exec_driver_sql(
                    "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
                ).scalar_one()
            )

    def stored() -> int:
        with store.engine.connect() as conn:
            return int(conn.exec_driver_sql("SELECT count(*) FROM moves").scalar_one())

    tasks = [asyncio.create_task(keep_one(i)) for i in range(args.games)]
    await asyncio.sleep(args.warmup)
    m0, c0, t0, d0 = stored(), time.process_time(), time.perf_counter(), transactions()
    await asyncio.sleep(args.seconds)
    m1, c1, t1, d1 = stored(), time.process_time(), time.perf_counter(), transactions()
    stop = True
    await asyncio.gather(*tasks, return_exceptions=True)
    await hub.close()
    store.close()
    moves = m1 - m0
    return {
        "database": store.dialect,
        "games": args.games,
        "seconds": round(t1 - t0, 1),
        "stored_moves": moves,
        "stored_moves_per_s": round(moves / (t1 - t0), 1),
        "cpu_s": round(c1 - c0, 2),
        "cpu_ms_per_stored_move": round(1000 * (c1 - c0) / max(1, moves), 3),
        # the database's side: transactions committed per stored move (all of them, this
        # measuring's own reads included; None on SQLite)
        "db_transactions_per_stored_move": (
            round((d1 - d0) / max(1, moves), 3) if d0 is not None and d1 is not None else None
        ),
        # (None: code from before the count, measured with PYTHONPATH set to its src)
        "catch_up_reads": getattr(hub, "catch_up_reads", None),
        # tentative steps written to the store, and left out because this process was alone
        # (whole run; None: code from before the counts)
        "pending_writes": getattr(hub, "pending_writes", None),
        "pending_skipped": getattr(hub, "pending_skipped", None),
        "refused": refused,
        "uptime": Path("/proc/loadavg").read_text().split()[:3],
    }


def main(argv: list[str] | None = None) -> int:
    """Run the measurement; prints one line (or JSON)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--games", type=int, default=50, help="live games (default 50)")
    ap.add_argument("--players", type=int, default=3, help="seats per game (default 3)")
    ap.add_argument("--seconds", type=float, default=20, help="measuring window (default 20)")
    ap.add_argument("--warmup", type=float, default=3, help="seconds before measuring")
    ap.add_argument("--seed", type=int, default=1, help="seed of the moves and games")
    ap.add_argument("--db", metavar="URL", help="a PostgreSQL URL (default: a fresh SQLite file)")
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        url = args.db or f"sqlite:///{Path(tmp) / 'hub.db'}"
        result = asyncio.run(_run(url, args))
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(
            f"{result['games']} games on {result['database']}, {result['seconds']} s: "
            f"{result['stored_moves_per_s']} stored moves/s, CPU {result['cpu_s']} s "
            f"({result['cpu_ms_per_stored_move']} ms per stored move; database transactions "
            f"{result['db_transactions_per_stored_move']} per stored move), catch-up reads "
            f"{result['catch_up_reads']}, steps in progress written "
            f"{result['pending_writes']} (kept in memory {result['pending_skipped']}), "
            f"refused {result['refused'] or 0}; "
            f"load {' '.join(result['uptime'])}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
