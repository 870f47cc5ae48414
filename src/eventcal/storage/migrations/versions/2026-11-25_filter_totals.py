"""filtered totals from per-category, per-tag and per-organizer day summaries (issue 18)

``event_link_day_count`` is ``event_day_count`` per linked item: the listable events
(``hide_from_listings`` false) linked to each term (``link`` 'term': categories and tags) and
organizer (``link`` 'organizer'), and the featured events (``link`` 'featured', item 1), per
status and UTC day of start and end. A listing filtered by one category, tag or organizer, or
by ``featured=1``, over the default window then reads that item's rows and the two partial days
at the window's edges (``domains/events/totals.py``) instead of each linked event by id (a
category at 1,000,000 events: ~100,000 of them) or each featured event in its index (~50,000).

Triggers keep it exact in the same transaction as every write, whichever code writes:

* a link inserted, deleted or changed adds or removes its event (if listable) under its item;
* an event inserted featured counts under 'featured';
* an event whose status, listed flag, featured flag or UTC days change moves each of its links
  and its featured row (skipped when none of them changes: the pipeline sets every column);
* an event deleted removes its links first (``BEFORE DELETE``: the foreign keys' cascade
  deletes the links after the event row, when a link's trigger no longer finds its event).

Revision ID: 0020_filter_totals
Revises: 0019_filter_indexes
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020_filter_totals"
down_revision = "0019_filter_indexes"
branch_labels = None
depends_on = None

# ruff: noqa: S608 (the SQL is built from constants of this module only)

LINKS = {"term": ("event_term", "term_id"), "organizer": ("event_organizer", "organizer_id")}
"""``link`` value → the link table and its item column."""
KEY = "(link, item_id, status, start_day, end_day)"
COUNTS = "event_link_day_count"

# --- SQLite: dates are stored as 'YYYY-MM-DD HH:MM:SS' in UTC, booleans as 0/1 ---------------


def _sqlite_link_add(link: str, column: str) -> str:
    return f"""
    INSERT INTO {COUNTS} {KEY[:-1]}, events)
    SELECT '{link}', NEW.{column}, status, date(start_at), date(end_at), 1 FROM event
    WHERE id = NEW.event_id AND hide_from_listings = 0
    ON CONFLICT {KEY} DO UPDATE SET events = events + 1;"""


def _sqlite_link_remove(link: str, column: str) -> str:
    return f"""
    UPDATE {COUNTS} SET events = events - 1 WHERE {KEY} IN (
        SELECT '{link}', OLD.{column}, status, date(start_at), date(end_at) FROM event
        WHERE id = OLD.event_id AND hide_from_listings = 0);"""


def _sqlite_links_of(row: str, status: str) -> str:
    """The (link, item, status, days) keys of every link of the event ``row``."""
    days = f"{status}, date({row}.start_at), date({row}.end_at)"
    linked = [
        f"SELECT '{link}', {column}, {days} FROM {table} WHERE event_id = {row}.id"
        for link, (table, column) in LINKS.items()
    ]
    return " UNION ALL ".join([*linked, f"SELECT 'featured', 1, {days} WHERE {row}.featured = 1"])


_SQLITE_EVENT_REMOVE = f"""
    UPDATE {COUNTS} SET events = events - 1
    WHERE OLD.hide_from_listings = 0 AND {KEY} IN ({_sqlite_links_of("OLD", "OLD.status")});"""
_SQLITE_EVENT_ADD = f"""
    INSERT INTO {COUNTS} {KEY[:-1]}, events)
    SELECT *, 1 FROM ({_sqlite_links_of("NEW", "NEW.status")}) WHERE NEW.hide_from_listings = 0
    ON CONFLICT {KEY} DO UPDATE SET events = events + 1;"""
_SQLITE_MOVED = (
    "OLD.status IS NOT NEW.status OR OLD.hide_from_listings IS NOT NEW.hide_from_listings "
    "OR OLD.featured IS NOT NEW.featured "
    "OR date(OLD.start_at) IS NOT date(NEW.start_at) OR date(OLD.end_at) IS NOT date(NEW.end_at)"
)


def _sqlite_triggers() -> dict[str, str]:
    triggers = {
        "event_link_day_count_event_insert": (
            "AFTER INSERT ON event WHEN NEW.featured = 1 AND NEW.hide_from_listings = 0 "
            f"BEGIN {_SQLITE_EVENT_ADD} END"
        ),
        "event_link_day_count_event_delete": (
            f"BEFORE DELETE ON event BEGIN {_SQLITE_EVENT_REMOVE} END"
        ),
        "event_link_day_count_event_update": (
            "AFTER UPDATE OF status, hide_from_listings, featured, start_at, end_at ON event "
            f"WHEN {_SQLITE_MOVED} BEGIN {_SQLITE_EVENT_REMOVE} {_SQLITE_EVENT_ADD} END"
        ),
    }
    for link, (table, column) in LINKS.items():
        add, remove = _sqlite_link_add(link, column), _sqlite_link_remove(link, column)
        triggers[f"{COUNTS}_{table}_insert"] = f"AFTER INSERT ON {table} BEGIN {add} END"
        triggers[f"{COUNTS}_{table}_delete"] = f"AFTER DELETE ON {table} BEGIN {remove} END"
        triggers[f"{COUNTS}_{table}_update"] = (
            f"AFTER UPDATE OF event_id, {column} ON {table} BEGIN {remove} {add} END"
        )
    return triggers


SQLITE_TRIGGERS = _sqlite_triggers()

# --- PostgreSQL ------------------------------------------------------------------------------

_PG_DAYS = "({0}.start_at AT TIME ZONE 'UTC')::date, ({0}.end_at AT TIME ZONE 'UTC')::date"


def _pg_link_function(link: str, table: str, column: str) -> str:
    return f"""
CREATE FUNCTION {COUNTS}_{table}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE {COUNTS} AS c SET events = c.events - 1
        FROM event AS e
        WHERE e.id = OLD.event_id AND NOT e.hide_from_listings
          AND {KEY.replace("(", "(c.").replace(", ", ", c.")} = ('{link}', OLD.{column},
              e.status, {_PG_DAYS.format("e")});
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO {COUNTS} AS c {KEY[:-1]}, events)
        SELECT '{link}', NEW.{column}, e.status, {_PG_DAYS.format("e")}, 1
        FROM event AS e WHERE e.id = NEW.event_id AND NOT e.hide_from_listings
        ON CONFLICT {KEY} DO UPDATE SET events = c.events + 1;
    END IF;
    RETURN NULL;
END
$$
"""


def _pg_links_of(row: str) -> str:
    linked = [
        f"SELECT '{link}' AS link, {column} AS item_id FROM {table} WHERE event_id = {row}.id"
        for link, (table, column) in LINKS.items()
    ]
    return " UNION ALL ".join([*linked, f"SELECT 'featured', 1 WHERE {row}.featured"])


POSTGRESQL_EVENT_FUNCTION = f"""
CREATE FUNCTION {COUNTS}_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND NOT OLD.hide_from_listings THEN
        UPDATE {COUNTS} AS c SET events = c.events - 1
        FROM ({_pg_links_of("OLD")}) AS l
        WHERE c.link = l.link AND c.item_id = l.item_id AND c.status = OLD.status
          AND (c.start_day, c.end_day) = ({_PG_DAYS.format("OLD")});
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    IF NOT NEW.hide_from_listings THEN
        INSERT INTO {COUNTS} AS c {KEY[:-1]}, events)
        SELECT l.link, l.item_id, NEW.status, {_PG_DAYS.format("NEW")}, 1
        FROM ({_pg_links_of("NEW")}) AS l ORDER BY 1, 2
        ON CONFLICT {KEY} DO UPDATE SET events = c.events + 1;
    END IF;
    RETURN NULL;
END
$$
"""
_EVENT = f"FOR EACH ROW EXECUTE FUNCTION {COUNTS}_event()"
_PG_MOVED = " OR ".join(
    [
        *(
            f"OLD.{c} IS DISTINCT FROM NEW.{c}"
            for c in ("status", "hide_from_listings", "featured")
        ),
        *(
            f"(OLD.{c} AT TIME ZONE 'UTC')::date IS DISTINCT FROM (NEW.{c} AT TIME ZONE 'UTC')::date"
            for c in ("start_at", "end_at")
        ),
    ]
)
"""What moves an event in the summary (a ``WHEN``: no function call for any other write)."""
POSTGRESQL_TRIGGERS = {
    f"{COUNTS}_event_insert": (
        "event",
        "AFTER INSERT ON event FOR EACH ROW WHEN (NEW.featured AND NOT NEW.hide_from_listings) "
        f"EXECUTE FUNCTION {COUNTS}_event()",
    ),
    f"{COUNTS}_event_update": (
        "event",
        "AFTER UPDATE OF status, hide_from_listings, featured, start_at, end_at ON event "
        f"FOR EACH ROW WHEN ({_PG_MOVED}) EXECUTE FUNCTION {COUNTS}_event()",
    ),
    f"{COUNTS}_event_delete": ("event", f"BEFORE DELETE ON event {_EVENT}"),
    **{
        f"{COUNTS}_{table}": (
            table,
            f"AFTER INSERT OR DELETE OR UPDATE OF event_id, {column} ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {COUNTS}_{table}()",
        )
        for table, column in LINKS.values()
    },
}
"""Trigger name → (its table, its definition)."""


def _backfill(dialect: str) -> list[str]:
    days = "date(e.start_at), date(e.end_at)" if dialect == "sqlite" else _PG_DAYS.format("e")
    linked = [
        f"INSERT INTO {COUNTS} {KEY[:-1]}, events) "
        f"SELECT '{link}', l.{column}, e.status, {days}, count(*) "
        f"FROM {table} AS l JOIN event AS e ON e.id = l.event_id "
        "WHERE NOT e.hide_from_listings GROUP BY 1, 2, 3, 4, 5"
        for link, (table, column) in LINKS.items()
    ]
    featured = (
        f"INSERT INTO {COUNTS} {KEY[:-1]}, events) "
        f"SELECT 'featured', 1, e.status, {days}, count(*) FROM event AS e "
        "WHERE e.featured AND NOT e.hide_from_listings GROUP BY 1, 2, 3, 4, 5"
    )
    return [*linked, featured]


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    op.create_table(
        COUNTS,
        sa.Column("link", sa.String(length=16), nullable=False),
        sa.Column("item_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("start_day", sa.Date(), nullable=False),
        sa.Column("end_day", sa.Date(), nullable=False),
        sa.Column("events", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint(
            "link", "item_id", "status", "start_day", "end_day", name=op.f(f"pk_{COUNTS}")
        ),
    )
    for statement in _backfill(dialect):
        op.execute(statement)
    if dialect == "sqlite":
        for name, body in SQLITE_TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {name} {body}")
        return
    op.execute(POSTGRESQL_EVENT_FUNCTION)
    for link, (table, column) in LINKS.items():
        op.execute(_pg_link_function(link, table, column))
    for name, (_, body) in POSTGRESQL_TRIGGERS.items():
        op.execute(f"CREATE TRIGGER {name} {body}")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in SQLITE_TRIGGERS:
            op.execute(f"DROP TRIGGER {name}")
    else:
        for name, (table, _) in POSTGRESQL_TRIGGERS.items():
            op.execute(f"DROP TRIGGER {name} ON {table}")
        op.execute(f"DROP FUNCTION {COUNTS}_event()")
        for table, _ in LINKS.values():
            op.execute(f"DROP FUNCTION {COUNTS}_{table}()")
    op.drop_table(COUNTS)
