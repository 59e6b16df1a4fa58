"""The tables of the game store (SQLAlchemy Core).

A game is its setup (game id, options, seed, seats) plus an append-only move log. Nothing else
is needed to rebuild any position: the state is replayed from the log. ``games.seq`` counts the
moves and doubles as an optimistic-concurrency guard: a move is written with
``UPDATE games SET seq = seq + 1 WHERE id = :id AND seq = :seen`` in the same transaction as its
``INSERT INTO moves`` (whose primary key is ``(game_id, seq)``), so two writers can never both
append move number ``seq``.

The schema itself is created and upgraded by the Alembic migrations in
``civtable/store/migrations``; these definitions are what the code reads and writes.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("name", String(120), nullable=False, server_default=""),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("options", Text, nullable=False),  # JSON
    Column("status", String(16), nullable=False),  # lobby | active | over
    Column("seq", Integer, nullable=False, server_default="0"),  # number of moves
    Column("autostart", Integer, nullable=False, server_default="1"),
    # may the players ask a bot to suggest a move (issue 22; the creator decides)
    Column("suggestions", Integer, nullable=False, server_default="0"),
    Column("result", Text, nullable=True),  # JSON, once over
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
Index("ix_games_status_updated", games.c.status, games.c.updated_at)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human | bot
    Column("bot", String(64), nullable=True),
    Column("name", String(60), nullable=False, server_default=""),
    Column("token_hash", String(64), nullable=True),  # sha256 hex of the seat's secret token
    Column("joined_at", DateTime(timezone=True), nullable=True),
)
Index("ix_seats_token_hash", seats.c.token_hash)

moves = Table(
    "moves",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),  # 0-based position in the log
    Column("seat", Integer, nullable=False),
    Column("action", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# The tentative steps of a seat's compound move in progress (issue 23): kept in the memory of the
# server process that took them, and written here only when several processes share the database
# (so that any of them can take the next step). Not part of the game: never replayed, deleted in
# the transaction that stores the seat's move.
pending = Table(
    "pending",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("actions", Text, nullable=False),  # JSON list of action ids
    Column("updated_at", DateTime(timezone=True), nullable=False),
)
