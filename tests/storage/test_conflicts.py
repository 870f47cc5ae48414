"""A transaction PostgreSQL rolls back to break a deadlock is a retryable conflict (503 with
Retry-After for the client), never a 500."""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy as sa

from eventcal.storage.db import TransactionConflict
from eventcal.storage.tables import event
from tests import factories
from tests.conftest import Api

RENAME = (
    sa.update(event)
    .where(event.c.id == sa.bindparam("id"))
    .values(title=sa.bindparam("title", type_=sa.Text))
)


def test_the_loser_of_a_deadlock_gets_a_transaction_conflict(api: Api) -> None:
    if api.database.dialect_name != "postgresql":
        pytest.skip("SQLite has one writer at a time: no deadlocks")
    db = api.database

    async def scenario() -> list[BaseException | None]:
        first = await factories.make_event(db, "First")
        second = await factories.make_event(db, "Second")
        holding = [asyncio.Event(), asyncio.Event()]

        async def writer(me: int, ids: tuple[int, int]) -> None:
            async with db.transaction() as conn:
                await conn.execute(RENAME, {"id": ids[0], "title": f"by {me}"})
                holding[me].set()
                await holding[1 - me].wait()  # each now waits for the other's row
                await conn.execute(RENAME, {"id": ids[1], "title": f"by {me}"})

        return list(
            await asyncio.gather(
                writer(0, (first, second)), writer(1, (second, first)), return_exceptions=True
            )
        )

    outcomes = api.run(scenario)
    conflicts = [o for o in outcomes if isinstance(o, TransactionConflict)]
    assert len(conflicts) == 1 and outcomes.count(None) == 1, outcomes
    winner = outcomes.index(None)
    titles = api.run(lambda: db_titles(api))
    assert titles == [f"by {winner}", f"by {winner}"]  # the loser left nothing behind


async def db_titles(api: Api) -> list[str]:
    async with api.database.read() as conn:
        rows = await conn.all(sa.select(event.c.title).order_by(event.c.id))
    return [str(r["title"]) for r in rows]
