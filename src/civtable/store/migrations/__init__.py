"""Alembic migrations of the civtable store (applied by :meth:`civtable.store.Store.open`)."""
