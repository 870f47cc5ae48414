"""search index: one row per series on SQLite, not one per occurrence

Migration 0008 gave every event row its row in ``event_search`` (FTS5, trigram), occurrences of
a recurring series included: a daily series of two years indexed the same text 730 times, and
the index work was most of the cost of creating it. Now ``event_search`` (contentless: only
rowids are read) holds a row for every event whose text is its own: single events, the masters
of series, and occurrences whose title, excerpt or description differs from their master's (an
override). An occurrence with its master's text is found through the master's row (its
``series_id``): see ``domains.events.search``.

The texts are indexed in SQLite's ``lower`` (ASCII letters) with a case-sensitive trigram
tokenizer, and searched for in the same ``lower``: a phrase matches exactly when the word is a
substring as the search's ``ILIKE`` tests it (``lower(text) LIKE lower('%word%')``), so an
exact total needs no row's text (``ix_event_search_row`` holds what else it tests).

Which rows are indexed follows from the data alone, and triggers keep it so in every write,
whoever writes (services, scheduler, imports, ``seed.py --fast``). A row ``e`` is indexed when::

    e.series_id IS NULL OR no event m has m.id = e.series_id and the same three texts

Every change that can flip this for a row removes the row's entry before (with the values it
was indexed with, as FTS5 requires) and adds it after: the row's own insert, update of
``title``/``excerpt``/``description``/``series_id`` (only when a value changes), delete; and
for a master, the same for each of its occurrences whose condition depends on it. PostgreSQL is
unchanged (GIN trigram indexes on ``event``; occurrences are rows there like any other).

Revision ID: 0015_search
Revises: 0014_listing
Create Date: 2026-11-24
"""

# ruff: noqa: S608 (the SQL is built from constants of this module only)
from __future__ import annotations

from alembic import op

revision = "0015_search"
down_revision = "0014_listing"
branch_labels = None
depends_on = None

_TEXT = "title, excerpt, description"
SEARCH_ROW = ("id", "status", "hide_from_listings", "start_at", "end_at", "post_password")
"""``ix_event_search_row``: what a search's total needs of an event found in the index."""


def _same_as_master(row: str) -> str:
    """SQL: ``row`` is an occurrence with its (existing) master's text."""
    return (
        f"{row}.series_id IS NOT NULL AND EXISTS (SELECT 1 FROM event AS m "
        f"WHERE m.id = {row}.series_id AND m.title IS {row}.title "
        f"AND m.excerpt IS {row}.excerpt AND m.description IS {row}.description)"
    )


def _lowered(row: str) -> str:
    """The indexed values of ``row``: its texts in SQLite's ``lower`` (ASCII letters only, as
    the ``ILIKE`` of a search compares them)."""
    return f"lower({row}.title), lower({row}.excerpt), lower({row}.description)"


def _add(row: str) -> str:
    return (
        f"INSERT INTO event_search (rowid, {_TEXT}) SELECT {row}.id, {_lowered(row)} "
        f"WHERE NOT ({_same_as_master(row)});"
    )


def _remove(row: str) -> str:
    return (
        f"INSERT INTO event_search (event_search, rowid, {_TEXT}) SELECT 'delete', {row}.id, "
        f"{_lowered(row)} WHERE NOT ({_same_as_master(row)});"
    )


_DIFFERS = (
    "master.title IS NOT o.title OR master.excerpt IS NOT o.excerpt "
    "OR master.description IS NOT o.description"
)


def _occurrences(master: str, command: str, *, differing: bool) -> str:
    """Add (``command`` '') or remove ('delete') the entries of ``master``'s occurrences that
    differ from it (``differing``) or that have its text (not ``differing``)."""
    test = f"({_DIFFERS.replace('master.', f'{master}.')})"
    if not differing:
        test = f"NOT {test}"
    if command:
        return (
            f"INSERT INTO event_search (event_search, rowid, {_TEXT}) SELECT 'delete', o.id, "
            f"{_lowered('o')} FROM event AS o "
            f"WHERE o.series_id = {master}.id AND {test};"
        )
    return (
        f"INSERT INTO event_search (rowid, {_TEXT}) SELECT o.id, {_lowered('o')} "
        f"FROM event AS o WHERE o.series_id = {master}.id AND {test};"
    )


_CHANGED = (
    "OLD.title IS NOT NEW.title OR OLD.excerpt IS NOT NEW.excerpt "
    "OR OLD.description IS NOT NEW.description OR OLD.series_id IS NOT NEW.series_id"
)
SQLITE_TRIGGERS = {
    "event_search_insert": f"AFTER INSERT ON event BEGIN {_add('NEW')} END",
    # The row's own entry goes (with the values it was indexed with); then its occurrences'
    # entries go if they differed from it (with it gone, every one of them is indexed): those
    # with its text are added.
    "event_search_delete": (
        f"BEFORE DELETE ON event BEGIN {_remove('OLD')} "
        f"{_occurrences('OLD', '', differing=False)} END"
    ),
    # Before the change: entries that depend on the old values go (the row's own; its
    # occurrences' that differ from it). After it: those the new values call for come.
    "event_search_before_update": (
        f"BEFORE UPDATE OF {_TEXT}, series_id ON event WHEN {_CHANGED} "
        f"BEGIN {_remove('OLD')} {_occurrences('OLD', 'delete', differing=True)} END"
    ),
    "event_search_after_update": (
        f"AFTER UPDATE OF {_TEXT}, series_id ON event WHEN {_CHANGED} "
        f"BEGIN {_add('NEW')} {_occurrences('NEW', '', differing=True)} END"
    ),
}
OLD_TRIGGERS = ("event_search_insert", "event_search_delete", "event_search_update")

# Migration 0008's table and triggers, for the downgrade.
_OLD_ADD = f"INSERT INTO event_search (rowid, {_TEXT}) VALUES (NEW.id, NEW.title, NEW.excerpt, NEW.description);"
_OLD_REMOVE = (
    f"INSERT INTO event_search (event_search, rowid, {_TEXT}) "
    "VALUES ('delete', OLD.id, OLD.title, OLD.excerpt, OLD.description);"
)
_OLD_TRIGGER_BODIES = {
    "event_search_insert": f"AFTER INSERT ON event BEGIN {_OLD_ADD} END",
    "event_search_delete": f"AFTER DELETE ON event BEGIN {_OLD_REMOVE} END",
    "event_search_update": (f"AFTER UPDATE OF {_TEXT} ON event BEGIN {_OLD_REMOVE} {_OLD_ADD} END"),
}


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for name in OLD_TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
    op.execute("DROP TABLE IF EXISTS event_search")
    op.execute(
        f"CREATE VIRTUAL TABLE event_search USING fts5({_TEXT}, content='', "
        "tokenize='trigram case_sensitive 1')"
    )
    # Rebuilt from the rows: every event whose text is its own.
    op.execute(
        f"INSERT INTO event_search (rowid, {_TEXT}) SELECT e.id, {_lowered('e')} "
        f"FROM event AS e WHERE NOT ({_same_as_master('e')})"
    )
    op.create_index("ix_event_search_row", "event", list(SEARCH_ROW))
    for name, body in SQLITE_TRIGGERS.items():
        op.execute(f"CREATE TRIGGER {name} {body}")


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    op.drop_index("ix_event_search_row", table_name="event")
    for name in SQLITE_TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
    op.execute("DROP TABLE event_search")
    op.execute(
        f"CREATE VIRTUAL TABLE event_search USING fts5({_TEXT}, "
        "content='event', content_rowid='id', tokenize='trigram')"
    )
    op.execute("INSERT INTO event_search (event_search) VALUES ('rebuild')")
    for name, body in _OLD_TRIGGER_BODIES.items():
        op.execute(f"CREATE TRIGGER {name} {body}")
