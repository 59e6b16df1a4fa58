"""Alembic environment: runs the migrations on the connection the store hands over.

The store calls ``alembic.command.upgrade`` with ``config.attributes["connection"]`` set, so
migrations always run on the same engine (SQLite or PostgreSQL) the server uses. Running
``alembic`` from a shell is not needed; if done, pass ``-x url=...``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from civtable.store.schema import metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run on the given connection, or on ``-x url=...`` when called from the alembic CLI."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.get_x_argument(as_dictionary=True).get("url")
    if not url:
        raise RuntimeError("pass -x url=DATABASE_URL (or use civtable.store.Store)")
    engine = create_engine(url)
    with engine.connect() as conn:
        _run(conn)


if context.is_offline_mode():
    raise RuntimeError("offline migrations are not supported; use civtable.store.Store")
run_migrations_online()
