"""occurrence indexes: the featured, event status and attendance indexes hold rare values only

A series' occurrences are spread over their days, so every index keyed by the start gets as
many new leaf pages as a series has occurrences: creating a daily two-year series wrote ~730
pages to each of five such indexes (issue 15). Three of them now hold only the rows with a rare
value, which the filters that use them ask for: ``ix_event_featured`` (featured events, ordered
and covering like the listing; the filter says ``featured = 1`` literally) replaces
``ix_event_featured_start_at``; the event status and attendance mode indexes keep their names
and columns without the default value (``scheduled``, ``offline``), which is most events and
read through the listing indexes. Plain indexes only (never a batch: ``event`` keeps its
triggers). Code of the previous version keeps working on this schema (its featured total reads
rows through the listing index instead).

Revision ID: 0017_occurrence_indexes
Revises: 0016_change_aspect
Create Date: 2026-11-24
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0017_occurrence_indexes"
down_revision = "0016_change_aspect"
branch_labels = None
depends_on = None

FEATURED = ("featured = 1", "featured")
"""The featured index's condition on SQLite and on PostgreSQL."""
RARE = {
    "ix_event_event_status_start_at": (["event_status", "start_at"], "event_status <> 'scheduled'"),
    "ix_event_attendance_mode_start_at": (
        ["attendance_mode", "start_at"],
        "attendance_mode <> 'offline'",
    ),
}


def _where(sqlite: str, postgresql: str) -> dict[str, Any]:
    return {"sqlite_where": sa.text(sqlite), "postgresql_where": sa.text(postgresql)}


def upgrade() -> None:
    op.drop_index("ix_event_featured_start_at", table_name="event")
    op.create_index(
        "ix_event_featured",
        "event",
        ["status", "hide_from_listings", "start_at", "id", "end_at", "featured"],
        **_where(*FEATURED),
    )
    for name, (columns, condition) in RARE.items():
        op.drop_index(name, table_name="event")
        op.create_index(name, "event", columns, **_where(condition, condition))


def downgrade() -> None:
    for name, (columns, _) in RARE.items():
        op.drop_index(name, table_name="event")
        op.create_index(name, "event", columns)
    op.drop_index("ix_event_featured", table_name="event")
    op.create_index("ix_event_featured_start_at", "event", ["featured", "start_at"])
