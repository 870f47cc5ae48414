"""change log: what an update touched (``aspect``: ``text`` for text-only edits)

An update that changes only columns no listing condition reads but a search (an event's title,
description, cost, website...) is logged with ``aspect = 'text'``, so the caches of listing
totals recount only the totals of searches after it (``storage/itemcache.py``). Older rows and
every other change have NULL: everything may have changed.

Revision ID: 0016_change_aspect
Revises: 0015_search
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_change_aspect"
down_revision = "0015_search"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("change", sa.Column("aspect", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("change", schema=None) as batch_op:
        batch_op.drop_column("aspect")
