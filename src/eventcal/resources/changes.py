"""The change log, as writes record it: which item changed, how, and its new revision.

Every write of the pipeline records its changes on the transaction's connection; the storage
layer writes them with the transaction's data version just before the commit, so the log is in
commit order and a rolled-back write leaves nothing in it. Reads never touch it. It is the base
that incremental sync, webhooks, iCalendar ``SEQUENCE`` and finer cache invalidation read.

Actions: ``create``, ``update``, ``trash``, ``restore``, ``delete`` (an item's own life cycle);
``translate`` (a language's text, with ``language``); ``link`` (an item's links changed because
of another item: a trashed venue unlinked from its events); ``count`` (a term's count of
published events changed); ``publish`` (a scheduled item went live).

An update may also say what it touched (its *aspect*): ``text`` when every column it changed is
one of the collection's ``neutral_columns`` (no listing condition reads them but a search), so
caches of listing totals keep the totals that do not search (``storage/itemcache.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from eventcal.storage.changes import TEXT, Change
from eventcal.storage.db import Connection, Row, as_local, as_utc
from eventcal.storage.service_tables import change

if TYPE_CHECKING:
    from eventcal.resources.spec import Resource


def record(
    conn: Connection,
    kind: str,
    item_id: int,
    action: str,
    revision: int | None = None,
    *,
    language: str | None = None,
    aspect: str | None = None,
) -> None:
    """Note a change of the write transaction under way."""
    conn.changes.append(Change(kind, int(item_id), action, revision, language, aspect))


def aspect(resource: Resource, row: Row, values: Mapping[str, Any]) -> str | None:
    """The aspect of an update of ``row`` that wrote ``values``: ``text`` when every column
    whose value changed is one of the collection's ``neutral_columns`` (a value that merely
    compares unequal to what was read counts as changed)."""
    neutral = resource.neutral_columns
    if not neutral:
        return None
    read = set(row.keys())
    for column, value in values.items():
        if column not in neutral and (column not in read or not _same(row[column], value)):
            return None
    return TEXT


def _same(stored: Any, value: Any) -> bool:
    """A value read from the database equals one about to be written (SQLite reads dates as
    text: an aware date is compared in UTC, a naive one as the wall-clock time it is)."""
    if isinstance(value, datetime) and stored is not None:
        return (as_utc(stored) if value.tzinfo is not None else as_local(stored)) == value
    return bool(stored == value)


def widen(conn: Connection, kind: str, item_id: int) -> None:
    """The item changed in more than its recorded aspect says (its links changed too): its
    changes recorded so far in this transaction become changes of anything."""
    conn.changes[:] = [
        replace(c, aspect=None) if c.kind == kind and c.item_id == item_id else c
        for c in conn.changes
    ]


def record_all(
    conn: Connection, kind: str, items: Iterable[tuple[int, int | None]], action: str
) -> None:
    """Note the same change of several items (``(id, revision)`` pairs)."""
    for item_id, revision in items:
        record(conn, kind, item_id, action, revision)


SINCE = (
    sa.select(change)
    .where(change.c.version > sa.bindparam("version", type_=sa.BigInteger))
    .order_by(change.c.version, change.c.position)
    .limit(sa.bindparam("limit", type_=sa.Integer))
)


async def since(conn: Connection, version: int, limit: int = 1000) -> list[Row]:
    """The changes committed after data version ``version``, oldest first."""
    rows: list[Any] = await conn.all(SINCE, {"version": version, "limit": limit})
    return rows
