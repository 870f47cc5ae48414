"""Term counts are adjusted by one statement per term table that locks its rows in id order:
writers adjusting overlapping terms in opposite directions at once never deadlock (a deadlock's
loser would answer 503), and no increment is lost."""

from __future__ import annotations

import asyncio
import random

import pytest
import sqlalchemy as sa

from eventcal.collections import REGISTRY
from eventcal.resources import relations
from eventcal.storage.db import TransactionConflict
from eventcal.storage.tables import term
from tests import factories
from tests.conftest import Api

WRITERS = 8
ROUNDS = 40


def test_concurrent_count_adjustments_of_overlapping_terms_never_deadlock(api: Api) -> None:
    if api.database.dialect_name != "postgresql":
        pytest.skip("SQLite has one writer at a time: no deadlocks")
    db = api.database
    events = REGISTRY["events"]
    categories = next(r for r in events.relations if r.name == "categories")
    tags = next(r for r in events.relations if r.name == "tags")

    async def scenario() -> tuple[int, dict[int, int], dict[int, int]]:
        cat_ids = [await factories.make_term(db, f"Category {i}") for i in range(6)]
        tag_ids = [await factories.make_term(db, f"tag {i}", taxonomy="post_tag") for i in range(6)]
        expected = dict.fromkeys(cat_ids + tag_ids, 0)
        conflicts = 0
        rng = random.Random(3)

        async def writer() -> None:
            nonlocal conflicts
            for _ in range(ROUNDS):
                # Four terms of each taxonomy, each up or down: two writers often take the
                # same rows in opposite directions.
                cats = {i: rng.choice((-1, 1)) for i in rng.sample(cat_ids, 4)}
                some = {i: rng.choice((-1, 1)) for i in rng.sample(tag_ids, 4)}
                try:
                    async with db.transaction() as conn:
                        await relations.adjust_all_counts(
                            conn, REGISTRY, [(categories, cats), (tags, some)]
                        )
                        await asyncio.sleep(0)  # the others run while this one holds its locks
                except TransactionConflict:
                    conflicts += 1
                    continue
                for deltas in (cats, some):
                    for term_id, delta in deltas.items():
                        expected[term_id] += delta

        await asyncio.gather(*(writer() for _ in range(WRITERS)))
        async with db.read() as conn:
            rows = await conn.all(sa.select(term.c.id, term.c.count))
        counts = {int(r["id"]): int(r["count"]) for r in rows if int(r["id"]) in expected}
        return conflicts, counts, expected

    conflicts, counts, expected = api.run(scenario)
    assert conflicts == 0
    assert counts == expected
