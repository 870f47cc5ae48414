"""event status and attendance: event_status, status_reason, attendance_mode, online_url

Plain ``ADD COLUMN``/``DROP COLUMN`` (SQLite 3.35+), not a batch: a batch would rebuild the
table on SQLite and lose the triggers that keep the listing summary and the search index.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def _columns() -> list[sa.Column[object]]:
    return [
        sa.Column("event_status", sa.String(16), nullable=False, server_default="scheduled"),
        sa.Column("status_reason", sa.Text(), nullable=False, server_default=""),
        sa.Column("attendance_mode", sa.String(8), nullable=False, server_default="offline"),
        sa.Column("online_url", sa.Text(), nullable=False, server_default=""),
    ]


INDEXES = {
    "ix_event_event_status_start_at": ["event_status", "start_at"],
    "ix_event_attendance_mode_start_at": ["attendance_mode", "start_at"],
}


def upgrade() -> None:
    for column in _columns():
        op.add_column("event", column)
    for name, columns in INDEXES.items():
        op.create_index(name, "event", columns)


def downgrade() -> None:
    for name in INDEXES:
        op.drop_index(name, table_name="event")
    for column in reversed(_columns()):
        op.drop_column("event", column.name)
