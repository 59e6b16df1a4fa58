"""The hub's copy of a game's record after a move (issue 23: made without ``replace``)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

from civtable.server.hub import _with_seq
from civtable.store.db import GameRecord, SeatRecord


def test_a_record_with_a_new_seq_equals_replace_and_leaves_the_old_one() -> None:
    seats = (SeatRecord(0, "human", None, "Ann", "h", None),)
    record = GameRecord(
        "g1",
        "deus",
        "a table",
        3,
        7,
        {"x": 1},
        "active",
        5,
        True,
        None,
        datetime(2026, 1, 1, tzinfo=UTC),
        datetime(2026, 1, 2, tzinfo=UTC),
        seats,
        True,
    )
    moved = _with_seq(record, 9)
    assert moved == dataclasses.replace(record, seq=9)
    assert type(moved) is GameRecord
    assert (moved.seq, record.seq) == (9, 5)
    assert moved is not record


def test_payloads_carry_the_summary_of_the_record_after_every_move(sqlite_url: str) -> None:
    """The public facts of a payload are built once per record and given the new ``seq``
    after a move (issue 23); they must stay what :meth:`Hub.summary` says of the record."""
    import asyncio

    from civtable.server.hub import Hub
    from civtable.store import SeatSpec, Store

    async def play() -> None:
        hub = Hub(Store.open(sqlite_url))
        try:
            seats = [
                SeatSpec("human"),
                SeatSpec("bot", bot="random"),
                SeatSpec("bot", bot="random"),
            ]
            summary, _, token = await hub.create(
                game_id="deus", players=3, seats=seats, seed=5, take_seat=0
            )
            live = await hub.live(summary["id"])
            for _ in range(6):
                while live.bot_task is not None:
                    await asyncio.wait([live.bot_task])
                if live.status != "active" or live.state is None:
                    break
                fresh = hub.summary(live.record)
                for seat in (0, None):
                    doc = hub.payload(live, seat)
                    assert {k: doc[k] for k in fresh} == fresh
                    assert doc["seq"] == live.seq
                held = live.tentative.get(0)
                state = held[1] if held is not None else live.state
                legal = state.legal_actions(0)
                if not legal:
                    break
                await hub.move(
                    live.id, token, live.seq, legal[0], tentative=len(held[0]) if held else 0
                )
        finally:
            await hub.close()
            hub.store.close()

    asyncio.run(play())
