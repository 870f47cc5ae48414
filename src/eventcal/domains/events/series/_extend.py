"""The scheduler extends series as time passes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from eventcal.context import Call, Site, Urls
from eventcal.domains.events import recurrence as rules
from eventcal.domains.events.series._materialise import SET_HORIZON, materialise
from eventcal.domains.events.series._model import (
    is_master,
    rule_of,
)
from eventcal.permissions import ANONYMOUS
from eventcal.storage.db import Database, as_utc
from eventcal.storage.tables import event

# --- the scheduler extends series as time passes ------------------------------------------

FINISHED = datetime(9999, 1, 1, tzinfo=UTC)
"""``materialized_until`` of a series that makes no more occurrences."""
DUE = (
    sa.select(event)
    .where(event.c.materialized_until < sa.bindparam("soon", type_=event.c.materialized_until.type))
    .order_by(event.c.materialized_until)
    .limit(sa.bindparam("batch", type_=sa.Integer))
)
EXTEND_BATCH = 20


async def extend(database: Database, registry: Any, site: Site, now: datetime) -> int:
    """Series whose stored occurrences end within a week of the horizon get the occurrences up
    to it; a series that makes no more is marked finished. Returns how many were extended."""
    bound = now + timedelta(days=site.recurrence_horizon_months * 366 // 12)
    async with database.read() as conn:
        due = await conn.all(DUE, {"soon": bound - timedelta(days=7), "batch": EXTEND_BATCH})
    for master in due:
        async with database.transaction() as conn:
            call = Call(conn, ANONYMOUS, site, Urls.build("http://localhost"), now, registry)
            row = await conn.first(LOCKED, {"id": int(master["id"])})
            if row is None or not is_master(row) or row["status"] == "trash":
                continue
            rule = rule_of(row)
            until = as_utc(row["materialized_until"])
            if rule is None or not rules.continues_after(rule, until):
                await conn.execute(SET_HORIZON, {"series_id": int(row["id"]), "until": FINISHED})
            else:
                await materialise(call, row, until=bound)
    return len(due)


LOCKED = (
    sa.select(event).where(event.c.id == sa.bindparam("id", type_=sa.Integer)).with_for_update()
)
