"""Games say whether their players may ask a bot for a suggested move (issue 22).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Add ``games.suggestions`` (off for every game stored before)."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("suggestions", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop ``games.suggestions``."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("suggestions")
