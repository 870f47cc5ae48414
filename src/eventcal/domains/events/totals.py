"""The events listing's statements: exact totals from the per-day summary, pages read from the
listing index first, and SQLite's search index as the source of a search."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache, partial
from typing import Any

import sqlalchemy as sa

from eventcal.domains.events import conditions, left_out, link_pages, search, sides
from eventcal.resources.listing import Active, Listing, ListQuery
from eventcal.storage.db import Connection, Row, in_values
from eventcal.storage.tables import (
    UtcDateTime,
    event,
    event_day_count,
    event_link_day_count,
    event_organizer,
    event_term,
)


def _window_count_stmt(linked: list[sa.ColumnElement[bool]] | None = None) -> sa.Select[Any]:
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

    With ``linked`` conditions (a filter by one category, tag or organizer, or ``featured=1``:
    :data:`LINKED_COUNTS`), the summary is that item's (``event_link_day_count``), and each
    event of the edge days is tested by them (a primary-key probe of the link each).
    """
    start_min = sa.bindparam("start_min", type_=UtcDateTime)
    end_max = sa.bindparam("end_max", type_=UtcDateTime)
    first_edge = sa.bindparam("first_edge", type_=UtcDateTime)
    last_edge = sa.bindparam("last_edge", type_=UtcDateTime)
    days = (event_day_count if linked is None else event_link_day_count).c
    item = (
        []
        if linked is None
        else [
            event_link_day_count.c.link == sa.bindparam("link_kind", type_=sa.String),
            event_link_day_count.c.item_id == sa.bindparam("linked_id", type_=sa.Integer),
        ]
    )
    middle = sa.select(sa.func.coalesce(sa.func.sum(days.events), 0)).where(
        *item,
        in_values(days.status, "statuses", sa.String()),
        days.start_day > sa.bindparam("first_day", type_=sa.Date),
        days.end_day < sa.bindparam("last_day", type_=sa.Date),
    )
    listable = (
        in_values(event.c.status, "statuses", sa.String()),
        event.c.hide_from_listings == sa.false(),
        *(linked or []),
    )
    first = sa.select(sa.func.count()).where(
        *listable,
        event.c.start_at >= start_min,
        event.c.start_at < first_edge,
        event.c.end_at <= end_max,
    )
    # ``INDEXED BY``: with ``featured = 1`` SQLite would walk every featured event starting
    # after the first day in ``ix_event_featured`` (50,000 at 1,000,000 events: 5.5 ms).
    ending = sa.select(sa.func.count()).select_from(search.InIndex("ix_event_listing_end"))
    last = ending.where(
        *listable,
        event.c.end_at >= last_edge,
        event.c.end_at <= end_max,
        event.c.start_at >= first_edge,
    )
    return sa.select(middle.scalar_subquery() + first.scalar_subquery() + last.scalar_subquery())


def _linked(link: sa.Table) -> list[sa.ColumnElement[bool]]:
    """The event is linked to the item ``linked_id`` (a correlated probe of the link's key)."""
    item = link.c.term_id if link is event_term else link.c.organizer_id
    bound = sa.bindparam("linked_id", type_=sa.Integer)
    return [sa.exists().where(link.c.event_id == event.c.id, item == bound).correlate(event)]


WINDOW_COUNT = _window_count_stmt()
LINKED_COUNTS: dict[str, tuple[str, str | None, sa.Select[Any]]] = {
    "categories": ("term", "category_ids", _window_count_stmt(_linked(event_term))),
    "tags": ("term", "tag_ids", _window_count_stmt(_linked(event_term))),
    "organizer": ("organizer", "organizer_ids", _window_count_stmt(_linked(event_organizer))),
    "featured": ("featured", None, _window_count_stmt([event.c.featured == sa.true()])),
}
"""Filters by one linked item (or ``featured=1``: item 1) counted from its per-day summary
(migration 0020_filter_totals): the ``link`` of ``event_link_day_count``, the filter's ids,
the statement."""
LINK_PAGES = frozenset({"categories", "tags", "organizer"})
"""Of those, the filters whose page chooses how to find its rows (``link_pages``); a
featured page reads ``ix_event_featured`` (``sides.PAGE_INDEXES``)."""


@dataclass(frozen=True, slots=True)
class SearchOrder:
    """How a search on SQLite reads its index (``query.order``)."""

    page_index: bool
    """The page starts from the index too (else: in listing order, for a common word's page,
    about ``10 × events / matches`` rows: ``search.COMMON``)."""
    exact: bool
    """The index's matches are exact (``search.IndexPlan.exact``): the total reads
    ``ix_event_search_row`` instead of each event's row and text."""


INCLUDED = "included"
"""``query.order`` of an ``include`` listing on SQLite: read from its ids (``search.source``)."""

LINKED = frozenset({"categories", "tags", "organizer"})
"""Filters through a link table: their totals read the linked events by id (``search._ById``)."""

WINDOW_ONLY = {"listed", "start_min", "end_max"}
"""The conditions of the default listing (besides the status): its total comes from the
per-day summary."""


def window_count_params(query: ListQuery) -> dict[str, Any]:
    values = query.values
    start_min, end_max = values["start_min"], values["end_max"]
    first_day = start_min.astimezone(UTC).date()
    last_day = end_max.astimezone(UTC).date()
    statuses = values.get("statuses") or [values["status"]]
    return {
        "statuses": list(statuses),
        "start_min": start_min,
        "end_max": end_max,
        "first_day": first_day,
        "last_day": last_day,
        "first_edge": _midnight_after(first_day),
        "last_edge": datetime.combine(last_day, time(), UTC),
    }


def _midnight_after(day: date) -> datetime:
    """The midnight that ends ``day`` (UTC); the last instant there is for the last day."""
    if day == date.max:
        return datetime.max.replace(tzinfo=UTC)
    return datetime.combine(day + timedelta(days=1), time(), UTC)


class EventListing(Listing):
    """The events listing: a listing whose default total comes from the per-day summary, whose
    pages are read from the listing index first, and whose searches on SQLite start from the
    search index."""

    def counts_by_day(self, active: Active) -> bool:
        names = {name for name, _ in active} - {"status", "statuses"}
        return names == WINDOW_ONLY

    def counts_left_out(self, active: Active, order: SearchOrder) -> bool:
        """A common search of the default listing whose index matches are exact: its total may
        be counted from the events the listing leaves out (:mod:`.left_out`)."""
        return (
            not order.page_index
            and order.exact
            and self.counts_by_day(frozenset(item for item in active if item[0] != "words"))
        )

    def counted_from_a_side(self, active: Active) -> str | None:
        """The column filter (:data:`.sides.OTHERS`) that alone narrows the default listing."""
        names = {name for name, _ in active} - {"status", "statuses"}
        rest = sorted(names - WINDOW_ONLY)
        if names >= WINDOW_ONLY and len(rest) == 1 and rest[0] in sides.OTHERS:
            return rest[0]
        return None

    def counted_by_link(self, query: ListQuery) -> str | None:
        """The filter by one category, tag or organizer, or ``featured=1`` (:data:`LINKED_COUNTS`),
        that alone narrows the default listing."""
        names = {name for name, _ in query.key} - {"status", "statuses"}
        rest = sorted(names - WINDOW_ONLY)
        if not (names >= WINDOW_ONLY and len(rest) == 1 and rest[0] in LINKED_COUNTS):
            return None
        ids = LINKED_COUNTS[rest[0]][1]
        one = query.active[rest[0]] is True if ids is None else len(query.values[ids]) == 1
        return rest[0] if one else None

    async def count(self, conn: Connection, query: ListQuery) -> int:
        if self.counts_by_day(query.key):
            return await self._window_count(conn, query)
        linked = self.counted_by_link(query)
        if linked is not None:
            statement = LINKED_COUNTS[linked][2]
            return int(await conn.scalar(statement, self._linked_params(query, linked)))
        name = self.counted_from_a_side(query.key)
        if name is not None:
            window = partial(self._window_count, conn, query)
            total = await sides.count(conn, self, query, name, window)
            if total is not None:
                return total
        order = query.order
        if isinstance(order, SearchOrder) and self.counts_left_out(query.key, order):
            total = await left_out.count(conn, self, query.key, query.values)
            if total is not None:
                return total
        if isinstance(order, SearchOrder):
            statement = self.count_statement(query.key, search_index=True, exact=order.exact)
        else:
            statement = self.count_statement(query.key, included=order == INCLUDED)
        if self.reads_text(query.key):  # its plan depends on the words (see the method)
            return int(await conn.scalar_planned_for_values(statement, query.values))
        return int(await conn.scalar(statement, query.values))

    async def _window_count(self, conn: Connection, query: ListQuery) -> int:
        return int(await conn.scalar(WINDOW_COUNT, window_count_params(query)))

    def _linked_params(self, query: ListQuery, name: str) -> dict[str, Any]:
        kind, ids, _ = LINKED_COUNTS[name]
        item = 1 if ids is None else query.values[ids][0]
        return {**window_count_params(query), "link_kind": kind, "linked_id": item}

    async def rows(self, conn: Connection, query: ListQuery) -> list[Row]:
        params = {**query.values, "limit": query.per_page, "offset": query.offset}
        key = query.key
        linked = self.counted_by_link(query)
        # The total is counted first (or found in the item cache): this filter alone narrows
        # the listing, so it is the item's events in the window.
        few = (link_pages.FEW if query.total is None else query.total) < link_pages.FEW
        if linked in LINK_PAGES and not few:
            need = query.offset + query.per_page
            linked_params = self._linked_params(query, linked)
            if await link_pages.probes(conn, {**linked_params, "need": need}):
                key = frozenset({*(i for i in key if i[0] != linked), (linked, conditions.PROBE)})
                params["linked_id"] = linked_params["linked_id"]
        return await conn.all(self.page_statement(key, query.order), params)

    def count_statement(
        self,
        active: Active,
        *,
        search_index: bool = False,
        exact: bool = False,
        included: bool = False,
    ) -> sa.Select[Any]:
        """The plain count (what the summary's total must equal)."""
        return _event_count(self, active, search_index, exact, included)

    def page_statement(self, active: Active, order: Hashable) -> sa.Select[Any]:
        search_index = isinstance(order, SearchOrder) and order.page_index
        return _event_page(self, active, search_index, order == INCLUDED)


@lru_cache(maxsize=512)
def _event_count(
    listing: EventListing, active: Active, search_index: bool, exact: bool, included: bool
) -> sa.Select[Any]:
    """The count; with ``exact``, the words' tests are the index's (only a protected event's
    title is read), and the events' other conditions are read from ``ix_event_search_row``."""
    plain = not search_index and not included
    own = sides.source(active) if plain else None
    source: sa.FromClause
    conditions: list[Any]
    if own is not None:
        source, conditions = own, []
    else:
        linked = plain and not {n for n, _ in active}.isdisjoint(LINKED)
        source, conditions = search.source(
            search_index, row_index=exact, included=included, by_id=linked
        )
    if exact:
        words = dict(active)["words"]
        assert isinstance(words, search.Words)
        active = frozenset(item for item in active if item[0] != "words")
        conditions += search.exact_conditions(words)
    return sa.select(sa.func.count()).select_from(source).where(*conditions, *listing.where(active))


@lru_cache(maxsize=512)
def _event_page(
    listing: EventListing, active: Active, search_index: bool, included: bool
) -> sa.Select[Any]:
    """A page of the listing. The page's ids are found first (for the default listing, in
    ``ix_event_listing`` alone, so skipping the rows of earlier pages reads no table rows),
    then only those rows are read; a filter with its own index in start order reads that
    (``sides.PAGE_INDEXES``)."""
    source, conditions = search.source(search_index, included=included, page=True)
    own = None if search_index or included else sides.page_index(active)
    if own is not None:
        source = search.InIndex(own)
    ids = (
        sa.select(event.c.id, event.c.start_at)
        .select_from(source)
        .where(*conditions, *listing.where(active))
        .order_by(event.c.start_at, event.c.id)
        .limit(sa.bindparam("limit", type_=sa.Integer))
        .offset(sa.bindparam("offset", type_=sa.Integer))
        .subquery("page")
    )
    return sa.select(event).join(ids, ids.c.id == event.c.id).order_by(ids.c.start_at, ids.c.id)
