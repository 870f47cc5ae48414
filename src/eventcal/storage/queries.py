"""Statements used on hot paths and by several services.

Every statement is built once: module constants for fixed ones, ``lru_cache`` builders keyed by
the *shape* of a filter (which filters are on) for the listings. Values always travel as bound
parameters; lists go through :class:`~eventcal.storage.db.in_values`, so the SQL text never
depends on the number of items.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, time, timedelta
from functools import lru_cache
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.compiler import compiles

from eventcal.storage.db import Connection, Row, in_constants, in_values
from eventcal.storage.tables import (
    SEARCH_FIELDS,
    SQLITE_SEARCH_TABLE,
    UtcDateTime,
    app_password,
    app_user,
    event,
    event_day_count,
    event_organizer,
    event_term,
    media,
    organizer,
    post,
    term,
    translation,
    venue,
)

# --- single rows ---------------------------------------------------------------------------

POST_TYPE_BY_ID = sa.select(post.c.type).where(post.c.id == sa.bindparam("id"))
EVENT_BY_ID = sa.select(event).where(event.c.id == sa.bindparam("id"))
EVENT_IDS_BY_SLUG = (
    sa.select(event.c.id).where(event.c.slug == sa.bindparam("slug")).order_by(event.c.id)
)
VENUE_BY_ID = sa.select(venue).where(venue.c.id == sa.bindparam("id"))
ORGANIZER_BY_ID = sa.select(organizer).where(organizer.c.id == sa.bindparam("id"))
MEDIA_BY_ID = sa.select(media).where(media.c.id == sa.bindparam("id"))
MEDIA_BY_URL = sa.select(media).where(media.c.url == sa.bindparam("url")).limit(1)
USER_BY_ID = sa.select(app_user).where(app_user.c.id == sa.bindparam("id"))
USER_BY_LOGIN = sa.select(app_user).where(app_user.c.login == sa.bindparam("login"))
PASSWORDS_OF_USER = sa.select(app_password).where(app_password.c.user_id == sa.bindparam("user_id"))

INSERT_POST = sa.insert(post).values(type=sa.bindparam("type")).returning(post.c.id)

EXISTING_VENUE_IDS = sa.select(venue.c.id).where(in_values(venue.c.id, "ids"))
EXISTING_ORGANIZER_IDS = sa.select(organizer.c.id).where(in_values(organizer.c.id, "ids"))
EXISTING_EVENT_IDS = sa.select(event.c.id).where(in_values(event.c.id, "ids"))

# --- relations, in bulk for a page of events -----------------------------------------------

VENUES_BY_IDS = sa.select(venue).where(in_values(venue.c.id, "ids"))
ORGANIZERS_OF_EVENTS = (
    sa.select(event_organizer.c.event_id, organizer)
    .join(organizer, organizer.c.id == event_organizer.c.organizer_id)
    .where(in_values(event_organizer.c.event_id, "ids"))
    .order_by(event_organizer.c.event_id, event_organizer.c.position)
)
TERMS_OF_EVENTS = (
    sa.select(event_term.c.event_id, term)
    .join(term, term.c.id == event_term.c.term_id)
    .where(in_values(event_term.c.event_id, "ids"))
    .order_by(event_term.c.event_id, term.c.name, term.c.id)
)
MEDIA_BY_IDS = sa.select(media).where(in_values(media.c.id, "ids"))

# --- terms ---------------------------------------------------------------------------------

TERMS_BY_IDS = sa.select(term).where(
    term.c.taxonomy == sa.bindparam("taxonomy"), in_values(term.c.id, "ids")
)
TERMS_BY_SLUGS = sa.select(term).where(
    term.c.taxonomy == sa.bindparam("taxonomy"),
    in_values(term.c.slug, "slugs", sa.String()),
)
TERMS_BY_LOWER_NAMES = sa.select(term).where(
    term.c.taxonomy == sa.bindparam("taxonomy"),
    in_values(sa.func.lower(term.c.name), "names", sa.String()),
)
CHILD_TERMS = sa.select(term.c.id).where(
    term.c.taxonomy == sa.bindparam("taxonomy"), in_values(term.c.parent_id, "ids")
)
TERM_IDS_OF_EVENT = sa.select(event_term.c.term_id).where(
    event_term.c.event_id == sa.bindparam("event_id")
)
LINK_TERM = sa.insert(event_term).values(
    event_id=sa.bindparam("event_id"), term_id=sa.bindparam("term_id")
)
UNLINK_TERMS = sa.delete(event_term).where(
    event_term.c.event_id == sa.bindparam("event_id"), in_values(event_term.c.term_id, "ids")
)
ADD_TO_TERM_COUNT = (
    sa.update(term)
    .where(term.c.id == sa.bindparam("term_id"))
    .values(count=term.c.count + sa.bindparam("delta", type_=sa.Integer))
)
INSERT_TERM = (
    sa.insert(term)
    .values(
        taxonomy=sa.bindparam("taxonomy"),
        name=sa.bindparam("name"),
        slug=sa.bindparam("slug"),
        description=sa.bindparam("description"),
        parent_id=sa.bindparam("parent_id"),
    )
    .returning(term.c.id)
)
TERM_SLUG_TAKEN = sa.select(term.c.id).where(
    term.c.taxonomy == sa.bindparam("taxonomy"), term.c.slug == sa.bindparam("slug")
)

# --- organizers of one event ---------------------------------------------------------------

ORGANIZER_IDS_OF_EVENT = (
    sa.select(event_organizer.c.organizer_id)
    .where(event_organizer.c.event_id == sa.bindparam("event_id"))
    .order_by(event_organizer.c.position)
)
UNLINK_ALL_ORGANIZERS = sa.delete(event_organizer).where(
    event_organizer.c.event_id == sa.bindparam("event_id")
)
LINK_ORGANIZER = sa.insert(event_organizer).values(
    event_id=sa.bindparam("event_id"),
    organizer_id=sa.bindparam("organizer_id"),
    position=sa.bindparam("position"),
)


# --- writes of a changing set of columns ---------------------------------------------------


@lru_cache(maxsize=512)
def insert_row(table: sa.Table, columns: tuple[str, ...]) -> sa.Insert:
    """``INSERT`` of these columns, built once per column set (values: :func:`row_values`)."""
    return sa.insert(table).values(
        {c: sa.bindparam(f"v_{c}", type_=table.c[c].type) for c in columns}
    )


@lru_cache(maxsize=512)
def update_row(table: sa.Table, columns: tuple[str, ...]) -> sa.Update:
    """``UPDATE … WHERE id = :row_id`` of these columns, +1 on the row's ``revision`` when the
    table has one; built once per column set (values: :func:`row_values`)."""
    values: dict[str, Any] = {c: sa.bindparam(f"v_{c}", type_=table.c[c].type) for c in columns}
    if "revision" in table.c and "revision" not in columns:
        values["revision"] = table.c.revision + 1
    return (
        sa.update(table)
        .where(table.c.id == sa.bindparam("row_id", type_=sa.Integer))
        .values(values)
    )


def row_values(values: dict[str, Any]) -> dict[str, Any]:
    """Parameters for :func:`insert_row`/:func:`update_row`."""
    return {f"v_{name}": value for name, value in values.items()}


async def post_type(conn: Connection, item_id: int) -> str | None:
    """``event``, ``venue``, ``organizer``, ``media`` or None for an id of the shared space."""
    value = await conn.scalar(POST_TYPE_BY_ID, {"id": item_id})
    return None if value is None else str(value)


async def new_post_id(conn: Connection, kind: str) -> int:
    """Reserve an id in the shared id space for a new item of ``kind``."""
    return int(await conn.scalar(INSERT_POST, {"type": kind}))


async def existing_ids(conn: Connection, stmt: sa.Select[Any], ids: Sequence[int]) -> set[int]:
    if not ids:
        return set()
    rows = await conn.all(stmt, {"ids": list(ids)})
    return {int(row["id"]) for row in rows}


# --- the events listing --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventListFilter:
    """Every filter of ``GET /events``, resolved to ids and UTC instants (aware)."""

    statuses: tuple[str, ...]
    own_author_id: int | None = None
    """When set, items not published are limited to this author's (DEVIATIONS #18)."""
    start_min: datetime | None = None
    end_max: datetime | None = None
    starts_before: datetime | None = None
    starts_after: datetime | None = None
    ends_before: datetime | None = None
    ends_after: datetime | None = None
    search_words: tuple[str, ...] = ()
    excluded_words: tuple[str, ...] = ()
    search_language: str | None = None
    """Search words also match this language's text (a language other than the default)."""
    search_protected: bool = False
    """Search words also match the description and excerpt of password-protected events (only
    for callers who may read them all: otherwise a search would reveal hidden text)."""
    category_ids: tuple[int, ...] | None = None
    tag_ids: tuple[int, ...] | None = None
    venue_ids: tuple[int, ...] | None = None
    organizer_ids: tuple[int, ...] | None = None
    featured: bool | None = None
    include: tuple[int, ...] | None = None
    parent_id: int | None = None
    geoloc: bool | None = None
    near: tuple[float, float, float] | None = None
    """(latitude, longitude, radius in km) around which venues must be."""
    ticketed: bool | None = None
    index_words: tuple[str, ...] | None = None
    """The words SQLite's search index is asked for (default: every word it can find); see
    :func:`narrow_search_index`. The ILIKE tests of every word decide either way."""
    extra: dict[str, Any] = field(default_factory=dict)

    def shape(self) -> tuple[Any, ...]:
        """What decides the SQL text: which filters are on, and how many search words."""
        return (
            len(self.statuses) == 1,
            self.own_author_id is not None,
            self.start_min is not None,
            self.end_max is not None,
            self.starts_before is not None,
            self.starts_after is not None,
            self.ends_before is not None,
            self.ends_after is not None,
            len(self.search_words),
            len(self.excluded_words),
            self.search_language is not None and bool(self.search_words or self.excluded_words),
            self.category_ids is not None,
            self.tag_ids is not None,
            self.venue_ids is not None,
            self.organizer_ids is not None,
            self.featured is not None,
            self.include is not None,
            self.parent_id is not None,
            self.geoloc,
            self.near is not None,
            self.ticketed is not None,
            self.search_protected,
        )

    def indexed_search(self) -> str | None:
        """The FTS5 query (SQLite) for the events that contain every search word of 3
        characters or more in their own text, or None (no such word, or words may match a
        translation instead). See :func:`_listing_source`."""
        indexed = self.indexed_words()
        if not indexed or self.search_language is not None:
            return None
        if self.index_words is not None:
            indexed = list(self.index_words)
        return " AND ".join(_phrase(word) for word in indexed)

    def indexed_words(self) -> list[str]:
        """The search words the trigram index can find (3 characters or more)."""
        return [w for w in self.search_words if len(w) >= MIN_INDEXED_WORD]

    def params(self) -> dict[str, Any]:
        values: dict[str, Any] = {
            "statuses": list(self.statuses),
            "status": self.statuses[0] if self.statuses else None,
            "own_author_id": self.own_author_id,
            "start_min": self.start_min,
            "end_max": self.end_max,
            "starts_before": self.starts_before,
            "starts_after": self.starts_after,
            "ends_before": self.ends_before,
            "ends_after": self.ends_after,
            "category_ids": list(self.category_ids or ()),
            "tag_ids": list(self.tag_ids or ()),
            "venue_ids": list(self.venue_ids or ()),
            "organizer_ids": list(self.organizer_ids or ()),
            "featured": self.featured,
            "include": list(self.include or ()),
            "parent_id": self.parent_id,
            "ticketed": self.ticketed,
            "search_language": self.search_language,
        }
        for i, word in enumerate(self.search_words):
            values[f"word{i}"] = like_pattern(word)
        values["search_match"] = self.indexed_search()
        for i, word in enumerate(self.excluded_words):
            values[f"notword{i}"] = like_pattern(word)
        if self.near is not None:
            lat, lng, radius = self.near
            values.update(_bounding_box(lat, lng, radius))
        return values


def like_pattern(word: str) -> str:
    """``%word%`` with LIKE metacharacters escaped (``\\`` is the escape character)."""
    escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


KM_PER_DEGREE = 111.32


def _bounding_box(lat: float, lng: float, radius_km: float) -> dict[str, float]:
    """Parameters of the distance test: a box for the cheap part, then an equirectangular
    distance (accurate to well under 1% at geofence scales, and plain arithmetic in SQL)."""
    import math

    dlat = radius_km / KM_PER_DEGREE
    cos_lat = max(math.cos(math.radians(lat)), 1e-6)
    dlng = min(radius_km / (KM_PER_DEGREE * cos_lat), 180.0)
    return {
        "lat_min": lat - dlat,
        "lat_max": lat + dlat,
        "lng_min": lng - dlng,
        "lng_max": lng + dlng,
        "lat0": lat,
        "lng0": lng,
        "cos_lat": cos_lat,
        "radius_deg2": dlat * dlat,
    }


def translated_match(
    kind: str | sa.ColumnElement[Any],
    id_column: sa.ColumnElement[Any],
    fields: Sequence[str],
    patterns: Sequence[str],
) -> sa.ColumnElement[bool]:
    """The item has a translation in ``:search_language`` where one of ``fields`` matches every
    LIKE pattern bound as ``patterns`` (``search`` in a language other than the default)."""
    return sa.exists().where(
        translation.c.item_id == id_column,
        translation.c.kind == (sa.literal(kind) if isinstance(kind, str) else kind),
        translation.c.language == sa.bindparam("search_language", type_=sa.String),
        in_constants(translation.c.field, fields),
        *(
            translation.c.value.ilike(sa.bindparam(name, type_=sa.String), escape="\\")
            for name in patterns
        ),
    )


EVENT_SEARCH_FIELDS = SEARCH_FIELDS
MIN_INDEXED_WORD = 3
"""The trigram index finds words of 3 characters or more."""


SEARCH_INDEX = sa.table(SQLITE_SEARCH_TABLE, sa.column("rowid"), sa.column(SQLITE_SEARCH_TABLE))
"""SQLite's FTS5 trigram index of the events' title, excerpt and description (migration 0008);
the column named like the table stands for the whole row in ``MATCH``."""


class _CrossJoin(sa.Join):
    """``left CROSS JOIN right ON …``: SQLite's documented way to make ``left`` the outer
    loop (its planner never reorders a CROSS JOIN)."""

    inherit_cache = True


@compiles(_CrossJoin, "sqlite")
def _cross_join_sqlite(element: _CrossJoin, compiler: Any, **kw: Any) -> str:
    kw["asfrom"] = True
    left = compiler.process(element.left, **kw)
    right = compiler.process(element.right, **kw)
    return f"{left} CROSS JOIN {right} ON {compiler.process(element.onclause, **kw)}"


def _phrase(word: str) -> str:
    """An FTS5 string (a phrase of the word's trigrams)."""
    return '"' + word.replace('"', '""') + '"'


PROBE_CAP = 1000
"""How many index matches of each word :func:`narrow_search_index` counts at most."""
_INDEX_PROBE = sa.select(sa.func.count()).select_from(
    sa.select(SEARCH_INDEX.c.rowid)
    .where(SEARCH_INDEX.c[SQLITE_SEARCH_TABLE].match(sa.bindparam("match", type_=sa.String)))
    .limit(sa.bindparam("cap", type_=sa.Integer))
    .subquery("probe")
)


async def narrow_search_index(conn: Connection, flt: EventListFilter) -> EventListFilter:
    """Ask SQLite's search index for the rarest word only, when one is rare.

    For ``"Summer" AND "gala" AND "9999"`` FTS5 reads much of the list of every word: with
    1,000,000 events 5.7 ms, against 0.2 ms for ``"9999"`` alone (280 events). So each word's
    matches are counted up to :data:`PROBE_CAP` (~0.1 ms each), and when the rarest has fewer,
    the index is asked for that word alone: the ILIKE tests of every word still decide, so the
    result is the same. When every word is common, the index intersects them all as before
    (reading 125,000 rows of one word would cost more than the intersection).
    """
    if not reads_search_index(flt, conn.dialect_name):
        return flt
    words = flt.indexed_words()
    if len(words) < 2:
        return flt
    counts = []
    for word in words:
        found = await conn.scalar(_INDEX_PROBE, {"match": _phrase(word), "cap": PROBE_CAP})
        counts.append((int(found or 0), -len(word), word))
    fewest, _, rarest = min(counts)
    return replace(flt, index_words=(rarest,)) if fewest < PROBE_CAP else flt


def reads_search_index(flt: EventListFilter, dialect: str) -> bool:
    """Whether the listing starts from ``event_search`` (:func:`_listing_source`)."""
    return dialect == "sqlite" and flt.indexed_search() is not None


def _listing_source(search_index: bool) -> tuple[sa.FromClause, list[Any]]:
    """The FROM clause of the listing and the conditions it brings.

    ``search_index``: a search with words of 3 characters or more on SQLite starts from the
    events whose text contains them all in ``event_search`` (case-folded substrings: every event
    the ILIKE tests accept is among them, and those tests still decide), so it reads only those
    rows, never the whole window. PostgreSQL serves the ILIKE tests from its trigram indexes.
    """
    if not search_index:
        return event, []
    source = _CrossJoin(SEARCH_INDEX, event, event.c.id == SEARCH_INDEX.c.rowid)
    match = SEARCH_INDEX.c[SQLITE_SEARCH_TABLE].match(sa.bindparam("search_match", type_=sa.String))
    return source, [match]


def _word_match(name: str, translated: bool, protected: bool) -> sa.ColumnElement[bool]:
    """The word is in the title, excerpt or description; ``protected`` false: the excerpt and
    description of password-protected events are not looked at (spec README §6.4)."""
    pattern = sa.bindparam(name, type_=sa.String)
    if protected:
        match = sa.or_(*(event.c[f].ilike(pattern, escape="\\") for f in EVENT_SEARCH_FIELDS))
        if translated:
            match = sa.or_(
                match, translated_match("event", event.c.id, EVENT_SEARCH_FIELDS, [name])
            )
        return match
    content = ("excerpt", "description")
    title: sa.ColumnElement[bool] = event.c.title.ilike(pattern, escape="\\")
    body = sa.or_(*(event.c[f].ilike(pattern, escape="\\") for f in content))
    if translated:
        title = sa.or_(title, translated_match("event", event.c.id, ("title",), [name]))
        body = sa.or_(body, translated_match("event", event.c.id, content, [name]))
    return sa.or_(title, sa.and_(event.c.post_password == "", body))


def _event_where(shape: tuple[Any, ...]) -> list[sa.ColumnElement[bool]]:
    (
        single_status,
        own_author,
        start_min,
        end_max,
        starts_before,
        starts_after,
        ends_before,
        ends_after,
        n_words,
        n_excluded,
        translated,
        categories,
        tags,
        venues,
        organizers,
        featured,
        include,
        parent,
        geoloc,
        near,
        ticketed,
        search_protected,
    ) = shape
    # One status (the common case) is an equality, so the listing index also gives the order.
    status = (
        event.c.status == sa.bindparam("status", type_=sa.String)
        if single_status
        else in_values(event.c.status, "statuses", sa.String())
    )
    where: list[sa.ColumnElement[bool]] = [status, event.c.hide_from_listings == sa.false()]
    if own_author:
        where.append(
            sa.or_(
                event.c.status == "publish",
                event.c.author_id == sa.bindparam("own_author_id", type_=sa.Integer),
            )
        )
    if start_min:
        where.append(event.c.start_at >= sa.bindparam("start_min", type_=UtcDateTime))
    if end_max:
        where.append(event.c.end_at <= sa.bindparam("end_max", type_=UtcDateTime))
    if starts_before:
        where.append(event.c.start_at < sa.bindparam("starts_before", type_=UtcDateTime))
    if starts_after:
        where.append(event.c.start_at > sa.bindparam("starts_after", type_=UtcDateTime))
    if ends_before:
        where.append(event.c.end_at < sa.bindparam("ends_before", type_=UtcDateTime))
    if ends_after:
        where.append(event.c.end_at > sa.bindparam("ends_after", type_=UtcDateTime))
    where.extend(_word_match(f"word{i}", translated, search_protected) for i in range(n_words))
    where.extend(
        sa.not_(_word_match(f"notword{i}", translated, search_protected)) for i in range(n_excluded)
    )
    for enabled, name in ((categories, "category_ids"), (tags, "tag_ids")):
        if enabled:
            link = event_term.alias()
            where.append(
                sa.exists()
                .where(link.c.event_id == event.c.id, in_values(link.c.term_id, name))
                .correlate(event)
            )
    if venues:
        where.append(in_values(event.c.venue_id, "venue_ids"))
    if organizers:
        where.append(
            sa.exists()
            .where(
                event_organizer.c.event_id == event.c.id,
                in_values(event_organizer.c.organizer_id, "organizer_ids"),
            )
            .correlate(event)
        )
    if featured:
        where.append(event.c.featured == sa.bindparam("featured", type_=sa.Boolean))
    if include:
        where.append(in_values(event.c.id, "include"))
    if parent:
        where.append(event.c.parent_id == sa.bindparam("parent_id", type_=sa.Integer))
    if ticketed:
        where.append(event.c.ticketed == sa.bindparam("ticketed", type_=sa.Boolean))
    if geoloc is not None or near:
        located = sa.and_(venue.c.latitude.is_not(None), venue.c.longitude.is_not(None))
        if near:
            dy = venue.c.latitude - sa.bindparam("lat0", type_=sa.Float)
            dx = (venue.c.longitude - sa.bindparam("lng0", type_=sa.Float)) * sa.bindparam(
                "cos_lat", type_=sa.Float
            )
            located = sa.and_(
                located,
                venue.c.latitude.between(
                    sa.bindparam("lat_min", type_=sa.Float), sa.bindparam("lat_max", type_=sa.Float)
                ),
                venue.c.longitude.between(
                    sa.bindparam("lng_min", type_=sa.Float), sa.bindparam("lng_max", type_=sa.Float)
                ),
                dy * dy + dx * dx <= sa.bindparam("radius_deg2", type_=sa.Float),
            )
        has_location = sa.exists().where(venue.c.id == event.c.venue_id, located).correlate(event)
        where.append(has_location if (geoloc is not False or near) else sa.not_(has_location))
    return where


@lru_cache(maxsize=512)
def event_count_stmt(shape: tuple[Any, ...], search_index: bool = False) -> sa.Select[Any]:
    source, conditions = _listing_source(search_index)
    return sa.select(sa.func.count()).select_from(source).where(*conditions, *_event_where(shape))


def _window_count_stmt() -> sa.Select[Any]:
    """The number of listable events in ``[start_min, end_max]`` (start and end inside), from
    ``event_day_count`` and the two partial days at the window's edges.

    With ``first_day``/``last_day`` the UTC days of ``start_min``/``end_max`` and
    ``first_edge``/``last_edge`` the midnights after ``first_day`` and at ``last_day``, the
    events of the window are, without overlap:

    * those starting on ``first_day``: counted in ``ix_event_listing`` (start in
      ``[start_min, first_edge)``);
    * those starting after ``first_day`` and ending before ``last_day``: all inside the window,
      read from the summary;
    * those starting after ``first_day`` and ending on ``last_day``: counted in
      ``ix_event_listing_end`` (end in ``[last_edge, end_max]``).
    """
    start_min = sa.bindparam("start_min", type_=UtcDateTime)
    end_max = sa.bindparam("end_max", type_=UtcDateTime)
    first_edge = sa.bindparam("first_edge", type_=UtcDateTime)
    last_edge = sa.bindparam("last_edge", type_=UtcDateTime)
    days = event_day_count.c
    middle = sa.select(sa.func.coalesce(sa.func.sum(days.events), 0)).where(
        in_values(days.status, "statuses", sa.String()),
        days.start_day > sa.bindparam("first_day", type_=sa.Date),
        days.end_day < sa.bindparam("last_day", type_=sa.Date),
    )
    listable = (
        in_values(event.c.status, "statuses", sa.String()),
        event.c.hide_from_listings == sa.false(),
    )
    first = sa.select(sa.func.count()).where(
        *listable,
        event.c.start_at >= start_min,
        event.c.start_at < first_edge,
        event.c.end_at <= end_max,
    )
    last = sa.select(sa.func.count()).where(
        *listable,
        event.c.end_at >= last_edge,
        event.c.end_at <= end_max,
        event.c.start_at >= first_edge,
    )
    return sa.select(middle.scalar_subquery() + first.scalar_subquery() + last.scalar_subquery())


WINDOW_COUNT = _window_count_stmt()


_ANY_TIME = datetime(2000, 1, 1, tzinfo=UTC)
_WINDOW_ONLY = EventListFilter((), start_min=_ANY_TIME, end_max=_ANY_TIME).shape()
"""The shape of a filter with nothing but statuses and both ends of a window (the default
listing); ``shape()[0]`` (one status or several) does not matter to :data:`WINDOW_COUNT`."""


def counts_by_day(flt: EventListFilter) -> bool:
    """Whether the total comes from ``event_day_count`` (:data:`WINDOW_COUNT`)."""
    return flt.shape()[1:] == _WINDOW_ONLY[1:]


def _window_count_params(flt: EventListFilter) -> dict[str, Any]:
    assert flt.start_min is not None
    assert flt.end_max is not None
    first_day = flt.start_min.astimezone(UTC).date()
    last_day = flt.end_max.astimezone(UTC).date()
    return {
        "statuses": list(flt.statuses),
        "start_min": flt.start_min,
        "end_max": flt.end_max,
        "first_day": first_day,
        "last_day": last_day,
        "first_edge": datetime.combine(first_day + timedelta(days=1), time(), UTC),
        "last_edge": datetime.combine(last_day, time(), UTC),
    }


@lru_cache(maxsize=512)
def event_page_stmt(shape: tuple[Any, ...], search_index: bool = False) -> sa.Select[Any]:
    """A page of the listing. The page's ids are found first (for the default listing, in
    ``ix_event_listing`` alone, so skipping the rows of earlier pages reads no table rows),
    then only those rows are read."""
    source, conditions = _listing_source(search_index)
    ids = (
        sa.select(event.c.id, event.c.start_at)
        .select_from(source)
        .where(*conditions, *_event_where(shape))
        .order_by(event.c.start_at, event.c.id)
        .limit(sa.bindparam("limit", type_=sa.Integer))
        .offset(sa.bindparam("offset", type_=sa.Integer))
        .subquery("page")
    )
    return sa.select(event).join(ids, ids.c.id == event.c.id).order_by(ids.c.start_at, ids.c.id)


async def count_events(conn: Connection, flt: EventListFilter) -> int:
    """The exact number of events the filter lists."""
    if counts_by_day(flt):
        return int(await conn.scalar(WINDOW_COUNT, _window_count_params(flt)))
    stmt = event_count_stmt(flt.shape(), reads_search_index(flt, conn.dialect_name))
    return int(await conn.scalar(stmt, flt.params()))


async def page_of_events(
    conn: Connection, flt: EventListFilter, limit: int, offset: int
) -> list[Row]:
    params = flt.params()
    params["limit"] = limit
    params["offset"] = offset
    stmt = event_page_stmt(flt.shape(), reads_search_index(flt, conn.dialect_name))
    return await conn.all(stmt, params)
