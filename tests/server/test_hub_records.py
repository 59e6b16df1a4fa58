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
