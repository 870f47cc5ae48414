"""SQLite: ``ix_event_protected``, the password-protected events (issue 18)

A common search's total is counted from the events the listing leaves out when they are few
(``domains/events/left_out.py``); for callers who may not search protected text those include
the protected events whose title lacks a word, found through this partial index (a handful of
entries) instead of a walk of every event.

Revision ID: 0018_million
Revises: 0017_occurrence_indexes
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_million"
down_revision = "0017_occurrence_indexes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.create_index(
            "ix_event_protected", "event", ["id"], sqlite_where=sa.text("post_password != ''")
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.drop_index("ix_event_protected", table_name="event")
