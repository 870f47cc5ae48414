"""Totals of the venue filters, counted in the venue's index, from the smaller side where it
can (issue 18).

``ix_event_venue_listing`` is led by the venue and then holds the listing's conditions
(``status, hide_from_listings, start_at, end_at``: migration 0019_filter_indexes), so a total
filtered by venue counts the window's events of those venues in that index alone. ``geoloc=1``
(a located venue) is most events when most venues are located (all of them in the seeds); the
events of the other side (no venue, or an unlocated one) are then few, and the total of the
default listing narrowed by ``geoloc`` is the window's (from the per-day summary) minus theirs.
Which side is smaller is not known in advance (SQLite keeps no statistics): each is counted in
turn up to a bound that grows (:func:`count`).

The featured and schema.org status filters are left to the partial indexes of
0017_occurrence_indexes (featured events; the statuses other than ``scheduled``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from functools import lru_cache
from typing import Any, cast

import sqlalchemy as sa

from eventcal.domains.events import search
from eventcal.resources.listing import Active, Listing, ListQuery
from eventcal.storage.db import Connection
from eventcal.storage.tables import event

FILTER_INDEXES = {"venue": "ix_event_venue_listing", "geoloc": "ix_event_venue_listing"}
"""Filters whose total is counted in their own index (SQLite, which plans without statistics,
would walk ``ix_event_listing_end`` instead: a venue's total at 1,000,000 events 11.5 ms by
id, 180 ms walking the window; 0.5 ms in its index)."""

FEW = 10_000
"""The first bound of :func:`count` (~1 ms of index)."""

Side = tuple[Hashable, dict[str, Any]]
"""A filter's shape and values (``ListQuery.on``)."""


async def _other_geolocation(_: Connection, shape: Hashable, __: dict[str, Any]) -> Side | None:
    """``geoloc=1`` and ``geoloc=0`` split the events; a geofence (``geoloc_lat``) has no
    other side that a condition says."""
    wanted, near = cast(tuple[bool | None, bool], shape)
    return None if near else ((not wanted, False), {})


OTHERS: dict[str, Callable[[Connection, Hashable, dict[str, Any]], Awaitable[Side | None]]] = {
    "geoloc": _other_geolocation,
}
"""The filters counted from the other side, and that side (None: there is none)."""


def source(active: Active) -> sa.FromClause | None:
    """``event INDEXED BY`` the index of one of the listing's column filters, if it has one."""
    names = {name for name, _ in active}
    own = [index for name, index in FILTER_INDEXES.items() if name in names]
    return search.InIndex(own[0]) if own else None


@lru_cache(maxsize=64)
def _bounded(listing: Listing, active: Active) -> sa.Select[Any]:
    """The listing's events counted in the filter's index up to ``cap``."""
    own = source(active)
    assert own is not None
    ids = (
        sa.select(event.c.id)
        .select_from(own)
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
    counted in turn up to a bound that grows eightfold, until one side is complete (so the
    cost follows the smaller side); None when both pass half the window (the caller counts the
    values asked in full). ``window``: the total of the window alone."""
    bounded = _bounded(listing, query.key)
    other: tuple[sa.Select[Any], dict[str, Any]] | None = None
    total = cap = 0
    while cap <= total // 2:
        cap = cap * 8 or FEW
        asked = int(await conn.scalar(bounded, {**query.values, "cap": cap}))
        if asked < cap:
            return asked
        if other is None:
            side = await OTHERS[name](conn, query.active[name], query.values)
            if side is None:
                return None
            shape, values = side
            key = frozenset({*(i for i in query.key if i[0] != name), (name, shape)})
            other, total = (_bounded(listing, key), {**query.values, **values}), await window()
        others = int(await conn.scalar(other[0], {**other[1], "cap": cap}))
        if others < cap:
            return total - others
    return None
