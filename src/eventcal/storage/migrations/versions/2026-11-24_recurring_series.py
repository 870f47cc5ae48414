"""recurring series: masters with their rule, occurrences as event rows of their own

Plain ``ADD COLUMN`` (not a batch, which would rebuild the table on SQLite and lose its
triggers); ``series_id`` has no foreign key for the same reason (the code deletes occurrences
with their series).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _columns() -> list[sa.Column[object]]:
    return [
        sa.Column("series_id", sa.Integer(), nullable=True),
        sa.Column("recurrence", sa.Text(), nullable=False, server_default=""),
        sa.Column("occurrence_start", sa.DateTime(timezone=False), nullable=True),
        sa.Column("overrides", sa.Text(), nullable=False, server_default=""),
        sa.Column("series_hidden", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("materialized_until", sa.DateTime(timezone=True), nullable=True),
    ]


def upgrade() -> None:
    for column in _columns():
        op.add_column("event", column)
    op.create_index("ix_event_series_id_start_at", "event", ["series_id", "start_at"])
    op.create_index("ix_event_materialized_until", "event", ["materialized_until"])


def downgrade() -> None:
    op.drop_index("ix_event_materialized_until", table_name="event")
    op.drop_index("ix_event_series_id_start_at", table_name="event")
    for column in reversed(_columns()):
        op.drop_column("event", column.name)
