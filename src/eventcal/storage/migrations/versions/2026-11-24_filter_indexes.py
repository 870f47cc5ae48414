"""the venue filter counted in its own index (issue 18)

``ix_event_venue_id`` becomes ``ix_event_venue_listing``: the venue, then the listing's
conditions (``status, hide_from_listings, start_at, end_at``), so a total filtered by venue or
venue location counts the window's events of those venues in that index alone, instead of
walking every event of the window (``domains/events/sides.py``). Replaced, not added: writes
keep the same number of indexes. Plain indexes only (never a batch: ``event`` keeps its
triggers).

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


def upgrade() -> None:
    op.drop_index("ix_event_venue_id", table_name="event")
    op.create_index("ix_event_venue_listing", "event", ["venue_id", *LISTING], unique=False)


def downgrade() -> None:
    op.drop_index("ix_event_venue_listing", table_name="event")
    op.create_index("ix_event_venue_id", "event", ["venue_id"], unique=False)
