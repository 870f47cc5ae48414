"""listing index in the listing's order

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.drop_index("ix_event_listing")
        batch_op.create_index(
            "ix_event_listing",
            ["status", "hide_from_listings", "start_at", "id", "end_at"],
            unique=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.drop_index("ix_event_listing")
        batch_op.create_index(
            "ix_event_listing",
            ["status", "hide_from_listings", "start_at", "end_at"],
            unique=False,
        )
