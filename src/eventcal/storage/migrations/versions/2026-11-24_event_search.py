"""search indexes: FTS5 trigram table on SQLite, pg_trgm indexes on PostgreSQL

``search`` looks for every word as a case-insensitive substring of an event's title, excerpt or
description (``ILIKE '%word%'``). PostgreSQL answers those tests from GIN trigram indexes, one
per column. SQLite first takes the events whose text contains every word of 3 characters or more
from ``event_search``, an FTS5 table with the trigram tokenizer over the same columns (content in
``event``, kept in step by triggers), then applies the same ILIKE tests to those alone.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

FIELDS = ("title", "excerpt", "description")

_SQLITE_ADD = (
    "INSERT INTO event_search (rowid, title, excerpt, description) "
    "VALUES (NEW.id, NEW.title, NEW.excerpt, NEW.description);"
)
_SQLITE_REMOVE = (
    "INSERT INTO event_search (event_search, rowid, title, excerpt, description) "
    "VALUES ('delete', OLD.id, OLD.title, OLD.excerpt, OLD.description);"
)
SQLITE_TRIGGERS = {
    "event_search_insert": f"AFTER INSERT ON event BEGIN {_SQLITE_ADD} END",
    "event_search_delete": f"AFTER DELETE ON event BEGIN {_SQLITE_REMOVE} END",
    "event_search_update": (
        "AFTER UPDATE OF title, excerpt, description ON event "
        f"BEGIN {_SQLITE_REMOVE} {_SQLITE_ADD} END"
    ),
}


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute(
            "CREATE VIRTUAL TABLE event_search USING fts5(title, excerpt, description, "
            "content='event', content_rowid='id', tokenize='trigram')"
        )
        op.execute("INSERT INTO event_search (event_search) VALUES ('rebuild')")
        for name, body in SQLITE_TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {name} {body}")
    else:
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for field in FIELDS:
            op.create_index(
                f"ix_event_{field}_trigram",
                "event",
                [field],
                postgresql_using="gin",
                postgresql_ops={field: "gin_trgm_ops"},
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in SQLITE_TRIGGERS:
            op.execute(f"DROP TRIGGER {name}")
        op.execute("DROP TABLE event_search")
    else:
        for field in FIELDS:
            op.drop_index(f"ix_event_{field}_trigram", table_name="event")
