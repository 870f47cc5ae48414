"""Writers linking the same organizers to events of the same day in opposite orders, at once,
all succeed with the order each gave: each row's trigger locks its organizer's day summary
(migration 0020), so the writers first take a lock per target they link or unlink, in one
order (without those locks PostgreSQL broke deadlocks among them and some answered 503)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx2
import pytest

from tests import factories
from tests.conftest import NS, Api

WRITERS = 8
ROUNDS = 3


async def _together(
    api: Api, headers: dict[str, str], requests: list[tuple[str, dict[str, Any]]]
) -> list[Any]:
    transport = httpx2.ASGITransport(app=api.client.app)
    async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        return await asyncio.gather(
            *(client.patch(url, json=body, headers=headers) for url, body in requests)
        )


def test_writers_linking_the_same_organizers_in_opposite_orders_all_succeed(api: Api) -> None:
    if api.database.dialect_name != "postgresql":
        pytest.skip("SQLite has one writer at a time: no deadlocks")
    db = api.database

    async def made() -> tuple[list[int], list[int]]:
        orgs = [await factories.make_organizer(db, f"Org {i}") for i in range(6)]
        events = [await factories.make_event(db, f"Event {i}") for i in range(WRITERS)]
        return orgs, events

    org_ids, event_ids = api.run(made)
    headers = api.auth("administrator")
    rng = random.Random(7)
    for _ in range(ROUNDS):
        wanted = {event_id: rng.sample(org_ids, 4) for event_id in event_ids}
        requests = [(f"{NS}/events/{e}", {"organizer": ids}) for e, ids in wanted.items()]

        async def sent(requests: list[tuple[str, dict[str, Any]]] = requests) -> list[Any]:
            return await _together(api, headers, requests)

        responses = api.run(sent)
        assert [r.status_code for r in responses] == [200] * WRITERS, [r.text for r in responses]
        for event_id, ids in wanted.items():
            shown = api.get(f"{NS}/events/{event_id}").json()["organizer"]
            assert [o["id"] for o in shown] == ids
