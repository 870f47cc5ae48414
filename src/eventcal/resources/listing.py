"""Listings: a collection's list parameters become named conditions, compiled once.

A collection's :class:`Listing` declares its archive arguments, its conditions by name (each a
function of a hashable *shape*, such as the number of search words, returning SQL conditions with
bound parameters) and its orders, and a ``prepare`` function that turns a request's parsed
parameters into a :class:`ListQuery`: which conditions are on, with which shape, the values to
bind, and the parameters the archive's links carry. Statements are built once per set of active
conditions, so the SQL text never depends on the values; a condition that is off is simply not
in the set (never a positional flag).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import orjson
import sqlalchemy as sa

from eventcal.http.args import Arg
from eventcal.storage.db import Connection, Row

if TYPE_CHECKING:
    from eventcal.context import Call
    from eventcal.http.args import Params
    from eventcal.http.request import RequestState
    from eventcal.resources.registry import Registry
    from eventcal.resources.spec import Resource

Condition = Callable[[Any], Sequence[sa.ColumnElement[bool]]]
"""A named filter's SQL: its shape → conditions (with bound parameters, never values)."""
Active = frozenset[tuple[str, Hashable]]


@dataclass(slots=True)
class ListQuery:
    """One listing request after parsing: what the statements and the archive need."""

    page: int
    per_page: int
    active: dict[str, Hashable] = field(default_factory=dict)
    """Conditions that are on → their shape (``True`` when a condition has only one)."""
    values: dict[str, Any] = field(default_factory=dict)
    """Bound parameters of the active conditions."""
    link: list[tuple[str, str]] = field(default_factory=list)
    """The listing's effective filters, in the order the original writes them into URLs."""
    order: Hashable = "default"
    cacheable: bool = True
    """False when the result moves with the clock, not only with the data."""
    context_edit: bool = False
    include_order: Sequence[int] | None = None
    """Ids whose order the page keeps (``orderby=include``)."""
    empty_pages: bool = False
    """A page past the end is an empty page (terms), not a 404 (posts)."""
    total: int | None = None
    """The exact total, once counted (or found counted): a listing may choose how its page
    finds its rows by it."""

    def on(self, name: str, shape: Hashable = True, **values: Any) -> None:
        """Turn a condition on with its bound values."""
        self.active[name] = shape
        self.values.update(values)

    @property
    def key(self) -> Active:
        return frozenset(self.active.items())

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.per_page


Prepare = Callable[["RequestState", "Params", "Resource"], Awaitable[ListQuery]]
"""``(request, parsed parameters, the collection) → the query``: the collection's own part."""


class Listing:
    """How a collection is listed (see the module docstring)."""

    def __init__(
        self,
        *,
        table: sa.Table,
        args: Sequence[Arg],
        conditions: Mapping[str, Condition],
        orders: Mapping[Hashable, Sequence[sa.ColumnElement[Any]]],
        prepare: Prepare,
        text_conditions: Iterable[str] = (),
    ) -> None:
        self.table = table
        self.args = tuple(args)
        self.conditions = dict(conditions)
        self.orders = dict(orders)
        self.prepare = prepare
        self.text_conditions = frozenset(text_conditions)
        """The conditions that read items' searched text (``Resource.neutral_columns``): a
        total with one of them on follows text-only changes too (``storage/itemcache.py``)."""

    def reads_text(self, active: Active) -> bool:
        """A query with these conditions on may list other items after a text-only change."""
        return any(name in self.text_conditions for name, _ in active)

    def where(self, active: Active) -> list[sa.ColumnElement[bool]]:
        """The SQL conditions of a set of active conditions, in a stable order."""
        where: list[sa.ColumnElement[bool]] = []
        for name, shape in sorted(active, key=lambda item: item[0]):
            where.extend(self.conditions[name](shape))
        return where

    def count_statement(self, active: Active) -> sa.Select[Any]:
        return _count_statement(self, active)

    def page_statement(self, active: Active, order: Hashable) -> sa.Select[Any]:
        return _page_statement(self, active, order)

    async def count(self, conn: Connection, query: ListQuery) -> int:
        """The exact number of items the query lists."""
        statement = self.count_statement(query.key)
        if self.reads_text(query.key):  # its plan depends on the words (see the method)
            return int(await conn.scalar_planned_for_values(statement, query.values))
        return int(await conn.scalar(statement, query.values))

    async def rows(self, conn: Connection, query: ListQuery) -> list[Row]:
        """The rows of the query's page."""
        params = {**query.values, "limit": query.per_page, "offset": query.offset}
        return await conn.all(self.page_statement(query.key, query.order), params)


@lru_cache(maxsize=1024)
def _count_statement(listing: Listing, active: Active) -> sa.Select[Any]:
    return sa.select(sa.func.count()).select_from(listing.table).where(*listing.where(active))


@lru_cache(maxsize=1024)
def _page_statement(listing: Listing, active: Active, order: Hashable) -> sa.Select[Any]:
    return (
        sa.select(listing.table)
        .where(*listing.where(active))
        .order_by(*listing.orders[order])
        .limit(sa.bindparam("limit", type_=sa.Integer))
        .offset(sa.bindparam("offset", type_=sa.Integer))
    )


async def count(call: Call, resource: Resource, query: ListQuery) -> int:
    """The listing's exact total, from the process's item cache when nothing it reads has
    changed since it was counted (``storage/itemcache.py``; anonymous reads only): text-only
    changes count only for queries with a text condition (``Listing.text_conditions``)."""
    listing = resource.listing
    cache = call.items
    if cache is None or not cache.enabled or not query.cacheable or not call.actor.is_anonymous:
        query.total = await listing.count(call.conn, query)
        return query.total
    try:
        values = orjson.dumps(query.values, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        query.total = await listing.count(call.conn, query)
        return query.total
    key = ("total", resource.name, query.key, values)
    stamp = cache.stamp(kinds_read(call.registry, resource), text=listing.reads_text(query.key))
    found = cache.total(key, stamp)
    if found is not None:
        query.total = found
        return found
    total = query.total = await listing.count(call.conn, query)
    cache.put_total(key, stamp, total, call.items_epoch)
    return total


def note_listed(call: Call, resource: Resource, query: ListQuery) -> None:
    """Tell the response's collector (``Call.reads``) what the listing's page and total
    depend on: the kinds its conditions read (their searched text with a text condition),
    as its total's stamp says."""
    if call.reads is not None:
        kinds = kinds_read(call.registry, resource)
        call.reads.listed(kinds, text=resource.listing.reads_text(query.key))


@lru_cache(maxsize=64)
def kinds_read(registry: Registry, resource: Resource) -> tuple[str, ...]:
    """The kinds of items a listing's conditions may read: its own, those it links to, and
    those that link to it."""
    kinds = {resource.name}
    kinds.update(registry.target(relation).name for relation in resource.relations)
    kinds.update(incoming.source.name for incoming in registry.incoming(resource))
    return tuple(sorted(kinds))
