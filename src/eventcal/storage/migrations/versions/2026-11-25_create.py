"""the SQLite search index merged into one segment (creates on a migrated database)

The ``rebuild`` of ``event_search`` in 0008 and 0015 leaves the index of a database that had
events in a few large segments at low levels, and FTS5's automerge after each write's flush
keeps merging into them: a create on such a database cost ~300 µs more (mean; the median
barely moved) than on a fresh one (bench/README.md, "A cheaper write"). ``optimize`` merges
the index into one segment, as a fresh database's writes would leave it. Data only; PostgreSQL
has no FTS5 index (its search uses ``tsvector``), so nothing to do there.

Revision ID: 0021_create
Revises: 0020_filter_totals
Create Date: 2026-11-25
"""

from __future__ import annotations

from alembic import op

revision = "0021_create"
down_revision = "0020_filter_totals"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("INSERT INTO event_search (event_search) VALUES ('optimize')")


def downgrade() -> None:
    """Nothing to undo: the index holds the same rows either way."""
