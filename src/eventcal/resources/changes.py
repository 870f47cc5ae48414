"""The change log, as writes record it: which item changed, how, and its new revision.

Every write of the pipeline records its changes on the transaction's connection; the storage
layer writes them with the transaction's data version just before the commit, so the log is in
commit order and a rolled-back write leaves nothing in it. Reads never touch it. It is the base
that incremental sync, webhooks, iCalendar ``SEQUENCE`` and finer cache invalidation read.

Actions: ``create``, ``update``, ``trash``, ``restore``, ``delete`` (an item's own life cycle);
``translate`` (a language's text, with ``language``); ``link`` (an item's links changed because
of another item: a trashed venue unlinked from its events); ``count`` (a term's count of
published events changed); ``publish`` (a scheduled item went live).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa

from eventcal.storage.changes import Change
from eventcal.storage.db import Connection, Row
from eventcal.storage.service_tables import change

ACTIONS = (
    "create",
    "update",
    "trash",
    "restore",
    "delete",
    "translate",
    "link",
    "count",
    "publish",
)


def record(
    conn: Connection,
    kind: str,
    item_id: int,
    action: str,
    revision: int | None = None,
    *,
    language: str | None = None,
) -> None:
    """Note a change of the write transaction under way."""
    conn.changes.append(Change(kind, int(item_id), action, revision, language))


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
