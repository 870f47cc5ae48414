"""Scheduled items: ``future`` events, venues and organizers become ``publish`` when their
publication date arrives (WordPress publishes them with its cron).

Every process runs :func:`publish_due` now and then; the statement is idempotent and row locks make
concurrent runs safe (a row another process already published no longer matches), so no process
needs to know about the others.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa

from eventcal.services import terms as term_service
from eventcal.storage.db import Database, in_values
from eventcal.storage.tables import UtcDateTime, event, event_term, organizer, venue

INTERVAL_SECONDS = 30.0

_DUE_EVENTS = (
    sa.update(event)
    .where(event.c.status == "future", event.c.published_at <= sa.bindparam("now"))
    .values(status="publish")
    .returning(event.c.id)
)
_DUE_OTHERS = [
    sa.update(table)
    .where(table.c.status == "future", table.c.published_at <= sa.bindparam("now"))
    .values(status="publish")
    for table in (venue, organizer)
]
_TERM_LINKS = (
    sa.select(event_term.c.term_id, sa.func.count().label("links"))
    .where(in_values(event_term.c.event_id, "ids"))
    .group_by(event_term.c.term_id)
)


_ANY_DUE = sa.select(
    sa.or_(
        *(
            sa.exists().where(
                table.c.status == "future",
                table.c.published_at <= sa.bindparam("now", type_=UtcDateTime),
            )
            for table in (event, venue, organizer)
        )
    ).label("due")
)


async def publish_due(database: Database, now: datetime) -> int:
    """Publish every scheduled item whose time has come; returns how many events it published.

    Nothing is written when nothing is due: a write would change the data version and so
    discard every process's cached responses every half minute."""
    async with database.read() as conn:
        if not await conn.scalar(_ANY_DUE, {"now": now}):
            return 0
    async with database.transaction() as conn:
        rows = await conn.all(_DUE_EVENTS, {"now": now})
        if rows:
            links = await conn.all(_TERM_LINKS, {"ids": [int(r["id"]) for r in rows]})
            await term_service.adjust_counts(
                conn, {int(link["term_id"]): int(link["links"]) for link in links}
            )
        for stmt in _DUE_OTHERS:
            await conn.execute(stmt, {"now": now})
    return len(rows)
