"""Database fixtures: every storage test runs on SQLite and on a real PostgreSQL.

PostgreSQL comes from ``scripts/ensure-postgres.sh`` (``make test`` runs it first). The tests
connect with ``$CIVTABLE_TEST_PG`` (default ``postgresql://civtable:civtable@127.0.0.1:5432/
civtable``); if nothing answers, the script is run once from here; only if PostgreSQL still
cannot be reached are the PostgreSQL variants skipped. Each test gets a fresh database.
"""

from __future__ import annotations

import os
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PG_DEFAULT = "postgresql://civtable:civtable@127.0.0.1:5432/civtable"
_pg_state: dict[str, object] = {}


def _pg_connect(url: str) -> bool:
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
        return True
    except Exception:
        return False


def pg_admin_url() -> str | None:
    """A URL of a reachable PostgreSQL role that may create databases, or None."""
    if "url" in _pg_state:
        return _pg_state["url"]  # type: ignore[return-value]
    url = os.environ.get("CIVTABLE_TEST_PG", PG_DEFAULT)
    ok = _pg_connect(url)
    if not ok and (ROOT / "scripts" / "ensure-postgres.sh").exists():
        subprocess.run(
            ["bash", str(ROOT / "scripts" / "ensure-postgres.sh")],
            capture_output=True,
            timeout=600,
            check=False,
        )
        ok = _pg_connect(url)
    _pg_state["url"] = url if ok else None
    return _pg_state["url"]  # type: ignore[return-value]


def _with_db(url: str, name: str) -> str:
    base, _, _ = url.rpartition("/")
    return f"{base}/{name}"


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database (dropped afterwards)."""
    admin = pg_admin_url()
    if admin is None:
        pytest.skip("PostgreSQL cannot be started here (run scripts/ensure-postgres.sh)")
    import psycopg

    name = f"civtable_t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield _with_db(admin, name)
    finally:
        _drop(psycopg, admin, name)


def _drop(psycopg: Any, admin: str, name: str) -> None:
    """Drop a test database; a backend the server has not finished closing (or one the admin
    role may not terminate) makes ``FORCE`` fail now and then: retry, then leave the empty
    test database behind rather than fail a test that passed."""
    for attempt in range(20):
        try:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            return
        except psycopg.Error:
            time.sleep(0.1 * (attempt + 1))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite database file."""
    return f"sqlite:///{tmp_path / 'civtable.db'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest) -> str:
    """Each test using it runs once on SQLite and once on PostgreSQL."""
    if request.param == "sqlite":
        return str(request.getfixturevalue("sqlite_url"))
    return str(request.getfixturevalue("pg_url"))
