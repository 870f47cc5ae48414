"""Table definitions (SQLAlchemy Core). Alembic migrations mirror these.

Events, venues, organizers and media items share one id space, as posts do in the original
(``GET /events/4`` must know that 4 is a venue): ``post`` hands out the ids and records the type.
Terms (categories and tags) share a second id space in ``term``.

The metadata, the date-time types and the service's bookkeeping tables (data version, change
log, idempotency keys, login throttle) are in :mod:`.service_tables`; the accounts in
:mod:`.account_tables` and the media library in :mod:`.media_tables` (re-exported here).

Date-times: ``*_at`` columns are UTC instants (timezone-aware); ``*_local`` columns are the
wall-clock times in the event's own zone (the original filters and sorts on those).
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa

# Declared apart, re-exported here with the content tables (``ForeignKey`` names such as
# ``"post.id"`` resolve on the shared metadata whichever module declares the table).
from eventcal.storage.account_tables import app_password as app_password  # noqa: PLC0414
from eventcal.storage.account_tables import app_user as app_user  # noqa: PLC0414
from eventcal.storage.media_tables import media as media  # noqa: PLC0414
from eventcal.storage.media_tables import media_file as media_file  # noqa: PLC0414

# Re-exported (``X as X``): the shared parts live with the service's own tables, importers of
# the content tables keep finding them here.
from eventcal.storage.service_tables import LocalDateTime as LocalDateTime  # noqa: PLC0414
from eventcal.storage.service_tables import UtcDateTime as UtcDateTime  # noqa: PLC0414
from eventcal.storage.service_tables import metadata as metadata  # noqa: PLC0414

LIVE_STATUSES = ("publish", "future", "private")
"""Statuses whose slugs must be unique (WordPress leaves drafts' slugs alone)."""
CATEGORY_TAXONOMY = "tribe_events_cat"
TAG_TAXONOMY = "post_tag"
"""``term.taxonomy`` values (the original's taxonomy names)."""

post = sa.Table(
    "post",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("type", sa.String(16), nullable=False),
    sqlite_autoincrement=True,
)


def _post_columns() -> list[sa.Column[object]]:
    """Columns every post-like table (event, venue, organizer) has."""
    return [
        sa.Column(
            "id", sa.Integer, sa.ForeignKey("post.id"), primary_key=True, autoincrement=False
        ),
        sa.Column(
            "author_id",
            sa.Integer,
            sa.ForeignKey("app_user.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("status_before_trash", sa.String(20), nullable=True),
        sa.Column("slug", sa.String(200), nullable=False, server_default=""),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("description", sa.Text, nullable=False, server_default=""),
        sa.Column("excerpt", sa.Text, nullable=False, server_default=""),
        sa.Column("post_password", sa.String(255), nullable=False, server_default=""),
        sa.Column("published_at", UtcDateTime, nullable=False),
        # WordPress leaves the UTC publication date of drafts at zero so that it floats to the
        # moment of publication; we keep that rule with this flag.
        sa.Column("date_floating", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("modified_at", UtcDateTime, nullable=False),
        sa.Column("image_id", sa.Integer, sa.ForeignKey("media.id"), nullable=True),
        sa.Column("image_url", sa.String(2048), nullable=True),
        # +1 on every change of the item (its fields, links or translations): If-Match.
        sa.Column("revision", sa.Integer, nullable=False, server_default="1"),
    ]


venue = sa.Table(
    "venue",
    metadata,
    *_post_columns(),
    sa.Column("address", sa.Text, nullable=False, server_default=""),
    sa.Column("city", sa.Text, nullable=False, server_default=""),
    sa.Column("country", sa.Text, nullable=False, server_default=""),
    sa.Column("province", sa.Text, nullable=False, server_default=""),
    sa.Column("state", sa.Text, nullable=False, server_default=""),
    sa.Column("zip", sa.Text, nullable=False, server_default=""),
    sa.Column("phone", sa.Text, nullable=False, server_default=""),
    sa.Column("stateprovince", sa.Text, nullable=False, server_default=""),
    sa.Column("website", sa.Text, nullable=False, server_default=""),
    sa.Column("show_map", sa.Boolean, nullable=False, server_default=sa.true()),
    sa.Column("show_map_link", sa.Boolean, nullable=False, server_default=sa.true()),
    sa.Column("latitude", sa.Float, nullable=True),
    sa.Column("longitude", sa.Float, nullable=True),
    sa.Index(None, "slug"),
    sa.Index(None, "image_id"),
    sa.Index(None, "status", "published_at"),
    sa.Index(
        "uq_venue_live_slug",
        "slug",
        unique=True,
        sqlite_where=sa.text("status IN ('publish', 'future', 'private')"),
        postgresql_where=sa.text("status IN ('publish', 'future', 'private')"),
    ),
)

organizer = sa.Table(
    "organizer",
    metadata,
    *_post_columns(),
    sa.Column("phone", sa.Text, nullable=False, server_default=""),
    sa.Column("website", sa.Text, nullable=False, server_default=""),
    sa.Column("email", sa.Text, nullable=False, server_default=""),
    sa.Index(None, "slug"),
    sa.Index(None, "image_id"),
    sa.Index(None, "status", "published_at"),
    sa.Index(
        "uq_organizer_live_slug",
        "slug",
        unique=True,
        sqlite_where=sa.text("status IN ('publish', 'future', 'private')"),
        postgresql_where=sa.text("status IN ('publish', 'future', 'private')"),
    ),
)


def _rare_values(column: str, default: str) -> sa.Index:
    """``(column, start_at)`` of the rows whose value is not the default one (0017)."""
    condition = sa.text(f"{column} <> '{default}'")
    return sa.Index(
        f"ix_event_{column}_start_at",
        column,
        "start_at",
        sqlite_where=condition,
        postgresql_where=condition,
    )


event = sa.Table(
    "event",
    metadata,
    *_post_columns(),
    sa.Column("parent_id", sa.Integer, sa.ForeignKey("event.id"), nullable=True),
    sa.Column("timezone", sa.String(64), nullable=False),
    sa.Column("all_day", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("start_local", LocalDateTime, nullable=False),
    sa.Column("end_local", LocalDateTime, nullable=False),
    sa.Column("start_at", UtcDateTime, nullable=False),
    sa.Column("end_at", UtcDateTime, nullable=False),
    # JSON list of the cost values as given (the original stores several price points).
    sa.Column("cost", sa.Text, nullable=False, server_default=""),
    sa.Column("currency_symbol", sa.String(16), nullable=False, server_default=""),
    sa.Column("currency_position", sa.String(8), nullable=False, server_default=""),
    # NULL: never set (the event page is shown); "": cleared by the client.
    sa.Column("website", sa.Text, nullable=True),
    sa.Column("show_map", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("show_map_link", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("hide_from_listings", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("sticky", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("featured", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("ticketed", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("venue_id", sa.Integer, sa.ForeignKey("venue.id"), nullable=True),
    # schema.org's eventStatus and eventAttendanceMode (the original keeps them for JSON-LD only).
    sa.Column("event_status", sa.String(16), nullable=False, server_default="scheduled"),
    sa.Column("status_reason", sa.Text, nullable=False, server_default=""),
    sa.Column("attendance_mode", sa.String(8), nullable=False, server_default="offline"),
    sa.Column("online_url", sa.Text, nullable=False, server_default=""),
    # Recurring series (issue 15). A series is a master row that holds the rule (``recurrence``:
    # normalised RFC 5545 lines) and the template every occurrence copies; it is never listed
    # itself (``hide_from_listings`` true; the series' own value is ``series_hidden``). Each
    # occurrence is an event row of its own (``series_id``: its master; ``occurrence_start``:
    # its nominal start, which identifies it across edits; ``overrides``: the fields set on it
    # alone, which edits of the series leave alone), so listings, totals, search and every
    # filter read occurrences as they read events.
    # No foreign key: SQLite cannot add one to an existing table without rebuilding it (and
    # losing its triggers); occurrences are deleted with their series by the code.
    sa.Column("series_id", sa.Integer, nullable=True),
    sa.Column("recurrence", sa.Text, nullable=False, server_default=""),
    sa.Column("occurrence_start", LocalDateTime, nullable=True),
    sa.Column("overrides", sa.Text, nullable=False, server_default=""),
    sa.Column("series_hidden", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("materialized_until", UtcDateTime, nullable=True),
    # The listing: status and hidden flag by equality, then the listing's order (start, id), so
    # a page reads only its own rows; the end is there for the window test (and the count), the
    # venue and the schema.org status for their filters (read from the index, not the rows).
    sa.Index(
        "ix_event_listing",
        *("status", "hide_from_listings", "start_at", "id", "end_at", "venue_id", "event_status"),
    ),
    # The listing's total counts the events ending on the window's last day through this one;
    # filtered totals walk it (covering: no row is read for the venue or status filters).
    sa.Index(
        "ix_event_listing_end",
        *("status", "hide_from_listings", "end_at", "start_at", "venue_id", "event_status"),
    ),
    sa.Index(None, "slug"),
    sa.Index(None, "image_id"),
    # A filter by venue (or venue location) counts its events in this index: the venue, then
    # the listing's conditions (issue 18, migration 0019_filter_indexes). A series' occurrences
    # share their venue, so they land side by side in it.
    sa.Index(
        "ix_event_venue_listing",
        *("venue_id", "status", "hide_from_listings", "start_at", "end_at"),
    ),
    sa.Index(None, "parent_id"),
    sa.Index(None, "series_id", "start_at"),
    sa.Index(None, "materialized_until"),
    # Only the rows with a rare value (0017_occurrence_indexes): a series' occurrences land on
    # as many leaf pages of an index keyed by their start as they have days, so each index over
    # every event made a two-year daily series write ~730 more pages. The featured filter says
    # ``featured = 1`` as a literal (conditions.py), so SQLite counts in this one alone (it
    # holds ``featured`` too: SQLite's test of a covering index counts the WHERE's columns);
    # unfeatured events and the default status and mode are most events, read through the
    # listing indexes (which hold ``event_status``).
    sa.Index(
        "ix_event_featured",
        *("status", "hide_from_listings", "start_at", "id", "end_at", "featured"),
        sqlite_where=sa.text("featured = 1"),
        postgresql_where=sa.text("featured"),
    ),
    *(
        _rare_values(c, d)
        for c, d in (("event_status", "scheduled"), ("attendance_mode", "offline"))
    ),
    sa.Index(
        "uq_event_live_slug",
        "slug",
        unique=True,
        sqlite_where=sa.text("status IN ('publish', 'future', 'private')"),
        postgresql_where=sa.text("status IN ('publish', 'future', 'private')"),
    ),
)

# ``search``: every word is a case-insensitive substring of the title, excerpt or description.
# PostgreSQL answers those ILIKE tests from trigram indexes (pg_trgm); SQLite first narrows the
# events down with an FTS5 trigram index, the virtual table ``event_search`` (migration 0008;
# SQLAlchemy cannot declare virtual tables, so the schema checks skip it: ``in_schema``).
SEARCH_FIELDS = ("title", "excerpt", "description")
for _field in SEARCH_FIELDS:
    sa.Index(
        f"ix_event_{_field}_trigram",
        event.c[_field],
        postgresql_using="gin",
        postgresql_ops={_field: "gin_trgm_ops"},
    ).ddl_if(dialect="postgresql")
SQLITE_SEARCH_TABLE = "event_search"
# What a search's exact total tests of each event the FTS5 index finds (SQLite, 0015_search).
SQLITE_SEARCH_ROW_INDEX = sa.Index(
    "ix_event_search_row",
    *(event.c[c] for c in ("id", "status", "hide_from_listings", "start_at", "end_at")),
    event.c.post_password,
)
SQLITE_SEARCH_ROW_INDEX.ddl_if(dialect="sqlite")
# The protected events, for a common search's total counted from the events the listing leaves
# out (``domains/events/left_out.py``, migration 0018_million).
sa.Index("ix_event_protected", event.c.id, sqlite_where=sa.text("post_password != ''")).ddl_if(
    dialect="sqlite"
)


def in_schema(dialect: str) -> Callable[[object, str | None, str, bool, object], bool]:
    """Alembic's ``include_object`` for comparing a ``dialect`` database with ``metadata``:
    leaves out the FTS5 table and its shadow tables, and the indexes of another database."""

    def include(item: object, name: str | None, type_: str, reflected: bool, _: object) -> bool:
        if type_ == "table" and (name or "").startswith(SQLITE_SEARCH_TABLE):
            return False
        condition = getattr(item, "_ddl_if", None)  # set by Index.ddl_if()
        return condition is None or condition.dialect in (None, dialect)

    return include


event_day_count = sa.Table(
    "event_day_count",
    metadata,
    # Listable events (``hide_from_listings`` false) per status and UTC days of start and end,
    # so the listing's exact total reads a few hundred rows instead of every event of the
    # window (services.events.count_events adds the two partial days at the window's edges).
    # Triggers on ``event`` (migration 0007) keep it in the same transaction as every insert,
    # update and delete of an event, whichever code writes it.
    sa.Column("status", sa.String(20), primary_key=True),
    sa.Column("start_day", sa.Date, primary_key=True),
    sa.Column("end_day", sa.Date, primary_key=True),
    sa.Column("events", sa.Integer, nullable=False),
)

event_link_day_count = sa.Table(
    "event_link_day_count",
    metadata,
    # ``event_day_count`` per category, tag (``link`` 'term', ``item_id`` the term), organizer
    # (``link`` 'organizer') and of the featured events ('featured', item 1): the listable events
    # of each, per status and UTC days of start and end, so a total filtered by one of them
    # reads that item's rows and the two partial days at the window's edges (issue 18,
    # migration 0020_filter_totals). Triggers on
    # ``event``, ``event_term`` and ``event_organizer`` keep it in the same transaction as every
    # write, whichever code writes.
    sa.Column("link", sa.String(16), primary_key=True),
    sa.Column("item_id", sa.Integer, primary_key=True),
    sa.Column("status", sa.String(20), primary_key=True),
    sa.Column("start_day", sa.Date, primary_key=True),
    sa.Column("end_day", sa.Date, primary_key=True),
    sa.Column("events", sa.Integer, nullable=False),
)

event_organizer = sa.Table(
    "event_organizer",
    metadata,
    sa.Column(
        "event_id", sa.Integer, sa.ForeignKey("event.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column(
        "organizer_id",
        sa.Integer,
        sa.ForeignKey("organizer.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("position", sa.Integer, nullable=False),
    sa.Index(None, "organizer_id", "event_id"),
)

term = sa.Table(
    "term",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("taxonomy", sa.String(32), nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("slug", sa.String(200), nullable=False),
    sa.Column("description", sa.Text, nullable=False, server_default=""),
    sa.Column("parent_id", sa.Integer, sa.ForeignKey("term.id"), nullable=True),
    sa.Column("term_group", sa.Integer, nullable=False, server_default="0"),
    # Number of published events linked; kept in the same transaction as every link change.
    sa.Column("count", sa.Integer, nullable=False, server_default="0"),
    # +1 on every change of the term's own fields or translations (not of its count).
    sa.Column("revision", sa.Integer, nullable=False, server_default="1"),
    sa.UniqueConstraint("taxonomy", "slug"),
    sa.Index(None, "taxonomy", "name"),
    sa.Index(None, "parent_id"),
    sqlite_autoincrement=True,
)

event_term = sa.Table(
    "event_term",
    metadata,
    sa.Column(
        "event_id", sa.Integer, sa.ForeignKey("event.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Column(
        "term_id", sa.Integer, sa.ForeignKey("term.id", ondelete="CASCADE"), primary_key=True
    ),
    sa.Index(None, "term_id", "event_id"),
)

translation = sa.Table(
    "translation",
    metadata,
    # An event, venue or organizer id (``post`` ids) or a term id, told apart by ``kind``
    # (``event``, ``venue``, ``organizer`` or the term's taxonomy): no foreign key can span both,
    # so deleting a term deletes its translations in the same transaction.
    sa.Column("item_id", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), primary_key=True),
    sa.Column("language", sa.String(8), primary_key=True),
    sa.Column("field", sa.String(32), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
    # Translated slugs are unique per collection and language (by-slug reads and term filters).
    sa.Index(
        "uq_translation_slug",
        "kind",
        "language",
        "value",
        unique=True,
        sqlite_where=sa.text("field = 'slug'"),
        postgresql_where=sa.text("field = 'slug'"),
    ),
)
