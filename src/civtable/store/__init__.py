"""Game storage: a game's setup plus its append-only move log (SQLAlchemy 2 + Alembic).

SQLite in the user's data directory is the embedded default; ``postgresql://…`` works the same.
The server rebuilds every state by replaying the log.
"""

from civtable.store.db import (
    NOTIFY_CHANNEL,
    Append,
    GameRecord,
    GroupCommit,
    NewGame,
    SeatRecord,
    SeatSpec,
    SeatTakenError,
    StaleSequenceError,
    Store,
    StoreError,
    UnknownGameIdError,
    default_db_url,
    new_game_id,
    normalize_url,
    notice_lines,
)

__all__ = [
    "NOTIFY_CHANNEL",
    "Append",
    "GameRecord",
    "GroupCommit",
    "NewGame",
    "SeatRecord",
    "SeatSpec",
    "SeatTakenError",
    "StaleSequenceError",
    "Store",
    "StoreError",
    "UnknownGameIdError",
    "default_db_url",
    "new_game_id",
    "normalize_url",
    "notice_lines",
]
