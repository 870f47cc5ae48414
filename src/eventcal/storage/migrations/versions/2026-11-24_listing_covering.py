"""listing indexes that cover the venue and schema.org status filters

``ix_event_listing`` and ``ix_event_listing_end`` also hold ``venue_id`` and ``event_status``,
so a listing filtered by venue, venue location or event status pages and counts from the index
alone instead of reading each event of the window (issue 18). Plain indexes only (never a
batch: ``event`` keeps its triggers).

Revision ID: 0014_listing
Revises: 0013_media
Create Date: 2026-11-24
"""

from __future__ import annotations

from alembic import op

revision = "0014_listing"
down_revision = "0013_media"
branch_labels = None
depends_on = None

COVERED = ["venue_id", "event_status"]
INDEXES = {
    "ix_event_listing": ["status", "hide_from_listings", "start_at", "id", "end_at"],
    "ix_event_listing_end": ["status", "hide_from_listings", "end_at", "start_at"],
}


def upgrade() -> None:
    for name, columns in INDEXES.items():
        op.drop_index(name, table_name="event")
        op.create_index(name, "event", [*columns, *COVERED], unique=False)


def downgrade() -> None:
    for name, columns in INDEXES.items():
        op.drop_index(name, table_name="event")
        op.create_index(name, "event", columns, unique=False)
