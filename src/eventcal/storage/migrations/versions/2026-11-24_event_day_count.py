"""listing totals from a per-day summary of listable events

``event_day_count`` holds the number of listable events (``hide_from_listings`` false) per
status and UTC day of start and end; triggers on ``event`` keep it exact in the same
transaction as every write of an event (the services, the scheduler, imports, bulk seeding).
``ix_event_listing_end`` finds the events that end on the last day of a listing's window.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

# --- SQLite: dates are stored as 'YYYY-MM-DD HH:MM:SS' in UTC, booleans as 0/1 ---------------

_SQLITE_ADD = """
    INSERT INTO event_day_count (status, start_day, end_day, events)
    SELECT NEW.status, date(NEW.start_at), date(NEW.end_at), 1
    WHERE NEW.hide_from_listings = 0
    ON CONFLICT (status, start_day, end_day) DO UPDATE SET events = events + 1;
"""
_SQLITE_REMOVE = """
    UPDATE event_day_count SET events = events - 1
    WHERE OLD.hide_from_listings = 0 AND status = OLD.status
      AND start_day = date(OLD.start_at) AND end_day = date(OLD.end_at);
"""
SQLITE_TRIGGERS = {
    "event_day_count_insert": f"AFTER INSERT ON event BEGIN {_SQLITE_ADD} END",
    "event_day_count_delete": f"AFTER DELETE ON event BEGIN {_SQLITE_REMOVE} END",
    "event_day_count_update": (
        "AFTER UPDATE OF status, hide_from_listings, start_at, end_at ON event "
        f"BEGIN {_SQLITE_REMOVE} {_SQLITE_ADD} END"
    ),
}

# --- PostgreSQL ------------------------------------------------------------------------------

POSTGRESQL_FUNCTION = """
CREATE FUNCTION event_day_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    removes boolean := TG_OP IN ('UPDATE', 'DELETE') AND NOT OLD.hide_from_listings;
    adds boolean := TG_OP IN ('INSERT', 'UPDATE') AND NOT NEW.hide_from_listings;
    old_start date;
    old_end date;
    new_start date;
    new_end date;
BEGIN
    IF removes THEN
        old_start := (OLD.start_at AT TIME ZONE 'UTC')::date;
        old_end := (OLD.end_at AT TIME ZONE 'UTC')::date;
    END IF;
    IF adds THEN
        new_start := (NEW.start_at AT TIME ZONE 'UTC')::date;
        new_end := (NEW.end_at AT TIME ZONE 'UTC')::date;
    END IF;
    -- Two rows are touched in key order, so writers moving events between the same two days
    -- in opposite directions wait for each other instead of deadlocking.
    IF adds AND removes AND (NEW.status, new_start, new_end) < (OLD.status, old_start, old_end)
    THEN
        INSERT INTO event_day_count (status, start_day, end_day, events)
        VALUES (NEW.status, new_start, new_end, 1)
        ON CONFLICT (status, start_day, end_day)
        DO UPDATE SET events = event_day_count.events + 1;
        adds := false;
    END IF;
    IF removes THEN
        UPDATE event_day_count SET events = events - 1
        WHERE status = OLD.status AND start_day = old_start AND end_day = old_end;
    END IF;
    IF adds THEN
        INSERT INTO event_day_count (status, start_day, end_day, events)
        VALUES (NEW.status, new_start, new_end, 1)
        ON CONFLICT (status, start_day, end_day)
        DO UPDATE SET events = event_day_count.events + 1;
    END IF;
    RETURN NULL;
END
$$
"""
POSTGRESQL_TRIGGER = """
CREATE TRIGGER event_day_count
AFTER INSERT OR DELETE OR UPDATE OF status, hide_from_listings, start_at, end_at ON event
FOR EACH ROW EXECUTE FUNCTION event_day_count_change()
"""

BACKFILL = {
    "sqlite": (
        "INSERT INTO event_day_count (status, start_day, end_day, events) "
        "SELECT status, date(start_at), date(end_at), count(*) FROM event "
        "WHERE NOT hide_from_listings GROUP BY 1, 2, 3"
    ),
    "postgresql": (
        "INSERT INTO event_day_count (status, start_day, end_day, events) "
        "SELECT status, (start_at AT TIME ZONE 'UTC')::date, (end_at AT TIME ZONE 'UTC')::date, "
        "count(*) FROM event WHERE NOT hide_from_listings GROUP BY 1, 2, 3"
    ),
}


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    op.create_table(
        "event_day_count",
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("start_day", sa.Date(), nullable=False),
        sa.Column("end_day", sa.Date(), nullable=False),
        sa.Column("events", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("status", "start_day", "end_day", name=op.f("pk_event_day_count")),
    )
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.create_index(
            "ix_event_listing_end",
            ["status", "hide_from_listings", "end_at", "start_at"],
            unique=False,
        )
    op.execute(BACKFILL[dialect])
    if dialect == "sqlite":
        for name, body in SQLITE_TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {name} {body}")
    else:
        op.execute(POSTGRESQL_FUNCTION)
        op.execute(POSTGRESQL_TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in SQLITE_TRIGGERS:
            op.execute(f"DROP TRIGGER {name}")
    else:
        op.execute("DROP TRIGGER event_day_count ON event")
        op.execute("DROP FUNCTION event_day_count_change()")
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.drop_index("ix_event_listing_end")
    op.drop_table("event_day_count")
