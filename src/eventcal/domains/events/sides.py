"""Totals of the column filters (venue, venue location, featured, event status, attendance
mode) counted in their own indexes, from the smaller side where they can (issue 18).

``ix_event_venue_listing`` is led by the venue and then holds the listing's conditions
(``status, hide_from_listings, start_at, end_at``: migration 0019_filter_indexes), so a total
filtered by venue counts the window's events of those venues in that index alone. ``geoloc=1``
(a located venue) is most events when most venues are located (all of them in the seeds); the
events of the other side (no venue, or an unlocated one) are then few, and the total of the
default listing narrowed by ``geoloc`` is the window's (from the per-day summary) minus theirs.
Which side is smaller is not known in advance (SQLite keeps no statistics): each is counted in
turn up to a bound that grows (:func:`count`).

The event status and attendance mode filters use the partial indexes of their rare values
(0017_occurrence_indexes): a rare value is counted and paged there, and values that include the
default (``event_status=scheduled``, most events) are counted as the window minus the rare
values not asked. ``featured=0`` is the window minus the featured events (``ix_event_featured``);
``featured=1`` alone is counted from its day summary (``totals.LINKED_COUNTS``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from functools import lru_cache
from typing import Any, cast

import sqlalchemy as sa

from eventcal.domains.events import conditions, search
from eventcal.resources.listing import Active, Listing, ListQuery
from eventcal.storage.db import Connection
from eventcal.storage.tables import event

VENUE_INDEX = "ix_event_venue_listing"
RARE_INDEXES = {c: f"ix_event_{c}_start_at" for c in conditions.DEFAULTS}
"""The partial indexes of the rare values of ``event_status`` and ``attendance_mode``
(``(column, start_at)`` where the value is not the default: 0017_occurrence_indexes)."""


def _rare(column: str) -> Callable[[Hashable], str | None]:
    return lambda shape: None if shape == conditions.USUAL else RARE_INDEXES[column]


FILTER_INDEXES: dict[str, Callable[[Hashable], str | None]] = {
    "venue": lambda _: VENUE_INDEX,
    "geoloc": lambda _: VENUE_INDEX,
    **{column: _rare(column) for column in conditions.DEFAULTS},
}
"""Filters whose total is counted in their own index, by the filter's shape (SQLite, which plans
without statistics, would walk ``ix_event_listing_end`` instead: a venue's total at 1,000,000
events 11.5 ms by id, 180 ms walking the window; 0.5 ms in its index)."""

PAGE_INDEXES: dict[str, Callable[[Hashable], str | None]] = {
    "featured": lambda wanted: "ix_event_featured" if wanted else None,
    **{column: _rare(column) for column in conditions.DEFAULTS},
}
"""Filters whose page reads their own index rather than ``ix_event_listing``: featured events
(``ix_event_featured``, in the listing's order, covering) and the rare values (a few events,
sorted): walking the listing index, a page of 10 featured events (5% of them) read ~200 event
rows, and a page of a value no event of the window has walked the whole window."""

FEW = 10_000
"""The first bound of :func:`count` (~1 ms of index)."""

Side = tuple[Hashable, dict[str, Any]]
"""A filter's shape and values (``ListQuery.on``)."""


async def _other_geolocation(_: Connection, shape: Hashable, __: dict[str, Any]) -> Side | None:
    """``geoloc=1`` and ``geoloc=0`` split the events; a geofence (``geoloc_lat``) has no
    other side that a condition says."""
    wanted, near = cast(tuple[bool | None, bool], shape)
    return None if near else ((not wanted, False), {})


async def _other_values(_: Connection, shape: Hashable, __: dict[str, Any]) -> Side | None:
    """Values that include the default (``event_status=scheduled``, most events): the other
    side is the rare values not asked, counted in their partial index."""
    return (conditions.OTHER, {}) if shape == conditions.USUAL else None


async def _unfeatured(_: Connection, wanted: Hashable, __: dict[str, Any]) -> Side | None:
    """``featured=0`` (most events): the other side is the featured events, in their index."""
    return None if wanted else (True, {})


OTHERS: dict[str, Callable[[Connection, Hashable, dict[str, Any]], Awaitable[Side | None]]] = {
    "geoloc": _other_geolocation,
    "featured": _unfeatured,
    **dict.fromkeys(conditions.DEFAULTS, _other_values),
}
"""The filters counted from the other side, and that side (None: there is none)."""


def _own(indexes: dict[str, Callable[[Hashable], str | None]], active: Active) -> str | None:
    shapes = dict(active)
    found = (pick(shapes[name]) for name, pick in indexes.items() if name in shapes)
    return next((index for index in found if index is not None), None)


def source(active: Active) -> sa.FromClause | None:
    """``event INDEXED BY`` the index of one of the listing's column filters, if it has one."""
    own = _own(FILTER_INDEXES, active)
    return search.InIndex(own) if own else None


def page_index(active: Active) -> str | None:
    """The index a page of the listing reads in start order, when a filter has its own."""
    return _own(PAGE_INDEXES, active)


@lru_cache(maxsize=64)
def _bounded(listing: Listing, active: Active) -> sa.Select[Any]:
    """The listing's events counted in the filter's index up to ``cap``."""
    own = source(active)
    ids = (
        sa.select(event.c.id)
        .select_from(event if own is None else own)
        .where(*listing.where(active))
        .limit(sa.bindparam("cap", type_=sa.Integer))
    )
    return sa.select(sa.func.count()).select_from(ids.subquery("counted"))


async def count(
    conn: Connection,
    listing: Listing,
    query: ListQuery,
    name: str,
    window: Callable[[], Awaitable[int]],
) -> int | None:
    """The total of the window narrowed by the filter ``name`` (of :data:`OTHERS`): each side
    counted in turn (a side with its own index first) up to a bound that grows eightfold, until
    one side is complete (so the cost follows the smaller side); None when the filter has no
    other side, or both pass half the window (the caller counts the values asked in full).
    ``window``: the total of the window alone."""
    side = await OTHERS[name](conn, query.active[name], query.values)
    if side is None:
        return None
    shape, values = side
    key = frozenset({*(i for i in query.key if i[0] != name), (name, shape)})
    sides = [(_bounded(listing, query.key), {}, False), (_bounded(listing, key), values, True)]
    if source(query.key) is None and source(key) is not None:
        sides.reverse()
    total: int | None = None
    cap = 0
    while total is None or cap <= total // 2:
        cap = cap * 8 or FEW
        for statement, extra, complement in sides:
            found = int(await conn.scalar(statement, {**query.values, **extra, "cap": cap}))
            if found < cap and not complement:
                return found
            if found < cap:
                return (await window() if total is None else total) - found
        total = await window() if total is None else total
    return None
