"""What ``test_creating_refused.py``, ``test_creating_links.py``, ``test_creating.py`` share.
They were one module:

Creating events: ``POST /events`` (spec events §4, DEVIATIONS).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from eventcal.storage.tables import event, term
from tests.conftest import NS, Api

MINIMAL = {
    "title": "An event",
    "start_date": "2027-04-01 10:00:00",
    "end_date": "2027-04-01 11:00:00",
}


def create(api: Api, as_: str | None = "administrator", **fields: Any) -> Any:
    return api.post(f"{NS}/events", json={**MINIMAL, **fields}, as_=as_)


def column(api: Api, event_id: int, name: str) -> Any:
    async def read() -> Any:
        async with api.database.read() as conn:
            return await conn.scalar(sa.select(event.c[name]).where(event.c.id == event_id))

    return api.run(read)


def term_count(api: Api, term_id: int) -> int:
    async def read() -> int:
        async with api.database.read() as conn:
            return int(await conn.scalar(sa.select(term.c.count).where(term.c.id == term_id)))

    return api.run(read)


def event_rows(api: Api) -> int:
    async def read() -> int:
        async with api.database.read() as conn:
            return int(await conn.scalar(sa.select(sa.func.count()).select_from(event)))

    return api.run(read)
