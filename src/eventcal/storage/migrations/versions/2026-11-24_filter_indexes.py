"""filters counted in their own indexes (issue 18)

The indexes of the venue, featured and schema.org status filters also hold the listing's
conditions (``status, hide_from_listings, start_at, end_at``), so a total filtered by one of
them counts the matching events of the window in that index alone, instead of walking every
event of the window (``domains/events/sides.py``). They replace the narrower ones (same leading
column), so writes keep the same number of indexes. Plain indexes only (never a batch:
``event`` keeps its triggers).

Revision ID: 0019_filter_indexes
Revises: 0018_million
Create Date: 2026-11-24
"""

from __future__ import annotations

from alembic import op

revision = "0019_filter_indexes"
down_revision = "0018_million"
branch_labels = None
depends_on = None

LISTING = ["status", "hide_from_listings", "start_at", "end_at"]
REPLACED = {
    # (old name, its columns): (new name, its leading column)
    ("ix_event_venue_id", ("venue_id",)): ("ix_event_venue_listing", "venue_id"),
    ("ix_event_featured_start_at", ("featured", "start_at")): (
        "ix_event_featured_listing",
        "featured",
    ),
    ("ix_event_event_status_start_at", ("event_status", "start_at")): (
        "ix_event_status_listing",
        "event_status",
    ),
}


def upgrade() -> None:
    for (old, _), (new, column) in REPLACED.items():
        op.drop_index(old, table_name="event")
        op.create_index(new, "event", [column, *LISTING], unique=False)


def downgrade() -> None:
    for (old, columns), (new, _) in REPLACED.items():
        op.drop_index(new, table_name="event")
        op.create_index(old, "event", list(columns), unique=False)
