"""``rows_of``: many rows bound as one parameter and written by one statement, on both backends
(what a series' occurrences are inserted with)."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import sqlalchemy as sa

from eventcal.storage.db import as_utc
from eventcal.storage.rowsets import Rows, rows_of
from eventcal.storage.service_tables import change
from tests.conftest import Api

COLUMNS = ("version", "position", "kind", "item_id", "action", "revision", "language")
WHEN = ("changed_at",)
SOURCE, VALUES = rows_of("given", [change.c[c] for c in (*COLUMNS, *WHEN)])
INSERT = sa.insert(change).from_select([*COLUMNS, *WHEN], sa.select(*VALUES).select_from(SOURCE))
READ = (
    sa.select(*(change.c[c] for c in (*COLUMNS, *WHEN)))
    .where(change.c.version == -15)
    .order_by(change.c.position)
)
SAME_MOMENT = sa.select(sa.func.count()).where(
    change.c.version == -15,
    change.c.changed_at == sa.bindparam("at", type_=change.c.changed_at.type),
)
"""Rows whose moment equals one bound the ordinary way: a date is stored in the same form
whichever way it was bound (on SQLite, text that compares as text)."""
BERLIN = ZoneInfo("Europe/Berlin")
ROWS = [
    (-15, 0, "event", 1, "create", 1, None, datetime(2027, 3, 28, 1, 30, tzinfo=UTC)),
    (-15, 1, 'it\'s "quoted" ü €', 2**31 - 1, "update", None, "de", datetime(2027, 1, 1)),
    (-15, 2, "", 0, "", -3, "", datetime(2027, 10, 31, 2, 30, tzinfo=BERLIN)),
    # Stored to the second, cut as when bound alone (not rounded up to the next minute).
    (-15, 3, "event", 4, "create", 1, None, datetime(2027, 1, 1, 0, 0, 59, 999_999)),
]


class _RolledBack(Exception):
    """Leaves the test database as it was."""


def test_rows_of_round_trips_every_value_in_one_statement(api: Api) -> None:
    found: list[Any] = []

    async def write_and_read() -> None:
        with contextlib.suppress(_RolledBack):
            async with api.database.transaction(versioned=False) as conn:
                before = api.database.statement_count
                await conn.execute(INSERT, {"given": Rows(ROWS)})
                assert api.database.statement_count == before + 1
                found.extend(await conn.all(READ))
                for *_, moment in ROWS:
                    assert await conn.scalar(SAME_MOMENT, {"at": moment}) == 1
                raise _RolledBack

    api.run(write_and_read)
    assert len(found) == len(ROWS)
    for row, wanted in zip(found, ROWS, strict=True):
        assert tuple(row[c] for c in COLUMNS) == wanted[:-1]
        moment = wanted[-1] if wanted[-1].tzinfo else wanted[-1].replace(tzinfo=UTC)
        # To the second here (SQLite keeps no more); SAME_MOMENT compared them exactly.
        stored = as_utc(row["changed_at"]).replace(microsecond=0)
        assert stored == moment.astimezone(UTC).replace(microsecond=0)
