"""Concurrent writers and scheduled publication: slugs stay unique, term counts stay right."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx2

from eventcal.collections import REGISTRY
from eventcal.resources import scheduling
from tests import factories
from tests.conftest import NS, Api


async def _many(api: Api, requests: list[tuple[str, str, dict[str, Any]]], role: str) -> list[Any]:
    transport = httpx2.ASGITransport(app=api.client.app)
    headers = api.auth(role)
    async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        return await asyncio.gather(
            *(client.request(m, url, json=body, headers=headers) for m, url, body in requests)
        )


def test_concurrent_creates_get_distinct_slugs_and_exact_counts(api: Api) -> None:
    concerts = api.run(lambda: factories.make_term(api.database, "Concerts"))
    api.user("administrator")
    body = {
        "title": "Same Title",
        "start_date": "2027-01-01 10:00",
        "end_date": "2027-01-01 11:00",
        "categories": [concerts],
        "tags": ["shared new tag"],
    }
    responses = api.run(lambda: _many(api, [("POST", f"{NS}/events", body)] * 20, "administrator"))
    assert [r.status_code for r in responses] == [201] * 20
    slugs = {r.json()["slug"] for r in responses}
    assert len(slugs) == 20
    assert "same-title" in slugs and "same-title-20" in slugs
    category = api.get(f"{NS}/categories/{concerts}").json()
    assert category["count"] == 20
    tags = api.get(f"{NS}/tags?search=shared").json()["tags"]
    assert [(t["name"], t["count"]) for t in tags] == [("shared new tag", 20)]


def test_concurrent_status_changes_keep_counts_equal_to_the_links(api: Api) -> None:
    concerts = api.run(lambda: factories.make_term(api.database, "Concerts"))
    ids = [
        api.run(lambda i=i: factories.make_event(api.database, f"E{i}", term_ids=(concerts,)))  # type: ignore[misc]
        for i in range(13)
    ]
    api.user("administrator")
    # Each event gets one write, so the outcome does not depend on their order: events 0, 3, 6
    # and 9 stay published, the others become drafts, the last is trashed.
    requests = [
        ("PATCH", f"{NS}/events/{event_id}", {"status": "draft" if i % 3 else "publish"})
        for i, event_id in enumerate(ids[:-1])
    ] + [("DELETE", f"{NS}/events/{ids[-1]}", {})]
    responses = api.run(lambda: _many(api, requests, "administrator"))
    assert all(r.status_code == 200 for r in responses)
    published = api.get(f"{NS}/events?categories={concerts}").json()["total"]
    assert api.get(f"{NS}/categories/{concerts}").json()["count"] == published == 4


def test_scheduled_items_are_published_when_their_time_comes(api: Api, clock: Any) -> None:
    concerts = api.run(lambda: factories.make_term(api.database, "Concerts"))
    scheduled = api.post(
        f"{NS}/events",
        json={
            "title": "Later",
            "date": "2026-11-23 09:00:00",
            "start_date": "2027-01-01 10:00",
            "end_date": "2027-01-01 11:00",
            "categories": [concerts],
        },
    ).json()
    assert scheduled["status"] == "future"
    assert api.get(f"{NS}/categories/{concerts}").json()["count"] == 0
    venue = api.post(f"{NS}/venues", json={"venue": "Later Hall", "date": "2026-11-23 09:00:00"})
    assert venue.json()["status"] == "future"
    assert api.run(lambda: scheduling.publish_due(api.database, REGISTRY, clock.now)) == {}
    clock.now += timedelta(days=2)
    assert api.run(lambda: scheduling.publish_due(api.database, REGISTRY, clock.now)) == {
        "event": 1,
        "venue": 1,
    }
    assert api.run(lambda: scheduling.publish_due(api.database, REGISTRY, clock.now)) == {}
    assert api.get(f"{NS}/events/{scheduled['id']}").json()["status"] == "publish"
    assert api.get(f"{NS}/categories/{concerts}").json()["count"] == 1
    assert api.get(f"{NS}/venues/{venue.json()['id']}").json()["status"] == "publish"
