"""The change log: every write records which items it changed, how, and their new revision, in
the write's own transaction and in commit order; reads and failed writes record nothing."""

from __future__ import annotations

import asyncio
import os
from datetime import timedelta
from typing import Any

import pytest

from eventcal.collections import REGISTRY
from eventcal.resources import changes, scheduling
from eventcal.storage.db import create_database
from tests import factories
from tests.conftest import NS, Api

WHEN = {"start_date": "2026-12-10 19:00:00", "end_date": "2026-12-10 21:00:00"}
Change = tuple[str, int, str, int | None, str | None]


def log(api: Api, since: int = 0) -> list[dict[str, Any]]:
    async def read() -> list[dict[str, Any]]:
        async with api.database.read() as conn:
            return [dict(row) for row in await changes.since(conn, since)]

    return api.run(read)


def last_version(api: Api) -> int:
    rows = log(api)
    return int(rows[-1]["version"]) if rows else 0


def recorded(api: Api, since: int) -> list[Change]:
    """The changes committed after ``since``: (kind, id, action, revision, language)."""
    return [
        (r["kind"], r["item_id"], r["action"], r["revision"], r["language"])
        for r in log(api, since)
    ]


def test_a_create_records_the_item_and_what_it_created_on_the_way(api: Api) -> None:
    start = last_version(api)
    event = api.post(
        f"{NS}/events",
        json={"title": "Gala", **WHEN, "venue": {"venue": "New Hall"}, "tags": ["brass"]},
    ).json()
    venue, tag = event["venue"]["id"], event["tags"][0]["id"]
    assert recorded(api, start) == [
        ("venue", venue, "create", 1, None),
        ("post_tag", tag, "create", 1, None),
        ("event", event["id"], "create", 1, None),
        ("post_tag", tag, "count", 1, None),
    ]
    (version,) = {r["version"] for r in log(api, start)}  # one transaction, one version
    assert [r["position"] for r in log(api, start)] == [0, 1, 2, 3]
    assert version == api.run(api.database.current_version)  # the version it committed as


def test_updates_translations_trash_and_restore_each_record_their_kind(api: Api) -> None:
    event = api.post(f"{NS}/events", json={"title": "Jazz", **WHEN}).json()
    start = last_version(api)
    api.patch(f"{NS}/events/{event['id']}", json={"title": "Jazz night"})
    api.post(f"{NS}/events/{event['id']}?translation_language=de", json={"title": "Jazznacht"})
    api.delete(f"{NS}/events/{event['id']}")
    api.patch(f"{NS}/events/{event['id']}", json={"status": "publish"})
    assert recorded(api, start) == [
        ("event", event["id"], "update", 2, None),
        ("event", event["id"], "translate", None, "de"),
        ("event", event["id"], "update", 3, None),
        ("event", event["id"], "trash", 4, None),
        ("event", event["id"], "restore", 5, None),
    ]
    # Every recorded revision is the one the item then has (If-Match, iCal SEQUENCE).
    assert api.get(f"{NS}/events/{event['id']}").headers["ETag"].startswith('"r5-')


def test_a_trashed_venue_records_the_events_it_leaves(api: Api) -> None:
    venue = api.post(f"{NS}/venues", json={"venue": "Hall"}).json()
    one = api.post(f"{NS}/events", json={"title": "A", **WHEN, "venue": venue["id"]}).json()
    two = api.post(f"{NS}/events", json={"title": "B", **WHEN, "venue": venue["id"]}).json()
    start = last_version(api)
    assert api.delete(f"{NS}/venues/{venue['id']}").status_code == 200
    assert sorted(recorded(api, start)) == sorted(
        [
            ("venue", venue["id"], "trash", 2, None),
            ("event", one["id"], "link", 1, None),
            ("event", two["id"], "link", 1, None),
        ]
    )
    assert api.get(f"{NS}/events/{one['id']}").json()["venue"] == []


def test_a_deleted_term_records_itself_and_its_events(api: Api) -> None:
    tag = api.post(f"{NS}/tags", json={"name": "folk"}).json()
    event = api.post(f"{NS}/events", json={"title": "A", **WHEN, "tags": [tag["id"]]}).json()
    start = last_version(api)
    assert api.delete(f"{NS}/tags/{tag['id']}").status_code == 200
    assert recorded(api, start) == [
        ("event", event["id"], "link", None, None),
        ("post_tag", tag["id"], "delete", None, None),
    ]


def test_a_publication_by_the_scheduler_records_the_items_and_counts(api: Api, clock: Any) -> None:
    tag = api.post(f"{NS}/tags", json={"name": "later"}).json()
    event = api.post(
        f"{NS}/events",
        json={"title": "Soon", **WHEN, "date": "2026-11-23 09:00:00", "tags": [tag["id"]]},
    ).json()
    assert event["status"] == "future"
    start = last_version(api)
    clock.now += timedelta(days=2)
    assert api.run(lambda: scheduling.publish_due(api.database, REGISTRY, clock.now)) == {
        "event": 1
    }
    assert recorded(api, start) == [
        ("event", event["id"], "publish", 1, None),
        ("post_tag", tag["id"], "count", 1, None),
    ]


def test_reads_and_refused_writes_record_nothing(api: Api) -> None:
    event = api.post(f"{NS}/events", json={"title": "Kept", **WHEN}).json()
    start = last_version(api)
    api.get(f"{NS}/events")
    api.get(f"{NS}/events/{event['id']}")
    # Refused after the inline venue was already created inside the transaction: both undone.
    refused = api.post(
        f"{NS}/events",
        json={"title": "X", **WHEN, "venue": {"venue": "Ghost Hall"}, "tags": ["new"]},
        as_="contributor",
    )
    assert refused.status_code == 400
    assert api.patch(f"{NS}/events/{event['id']}", json={"start_date": "never"}).status_code == 400
    assert recorded(api, start) == []
    assert api.get(f"{NS}/venues?search=Ghost", as_="administrator").json()["total"] == 0


@pytest.mark.skipif(
    not os.environ.get("EVENTCAL_TEST_POSTGRES_URL"), reason="needs PostgreSQL's concurrency"
)
def test_concurrent_writers_come_out_in_commit_order(api: Api) -> None:
    """A transaction that began first but commits last gets the later version: a reader that
    has seen every change up to version N never misses one committed later with a lower N."""
    if api.database.dialect_name != "postgresql":
        pytest.skip("the SQLite backend runs one writer at a time")
    first = api.run(lambda: factories.make_venue(api.database, "First"))
    second = api.run(lambda: factories.make_venue(api.database, "Second"))
    start = last_version(api)

    async def race() -> None:
        other = create_database(os.environ["EVENTCAL_TEST_POSTGRES_URL"])
        await other.startup()
        wrote = asyncio.Event()
        release = asyncio.Event()

        async def slow() -> None:
            async with api.database.transaction() as conn:
                changes.record(conn, "venue", first, "update", 2)
                wrote.set()
                await release.wait()

        async def fast() -> None:
            await wrote.wait()
            async with other.transaction() as conn:
                changes.record(conn, "venue", second, "update", 2)
            release.set()

        try:
            await asyncio.gather(slow(), fast())
        finally:
            await other.shutdown()

    api.run(race)
    rows = log(api, start)
    assert [(r["item_id"], r["action"]) for r in rows] == [(second, "update"), (first, "update")]
    assert rows[0]["version"] < rows[1]["version"]


def test_an_update_of_text_alone_records_the_text_aspect(api: Api) -> None:
    organizer = api.post(f"{NS}/organizers", json={"organizer": "Crew"}).json()["id"]
    event = api.post(f"{NS}/events", json={"title": "Jazz", "status": "publish", **WHEN}).json()
    path = f"{NS}/events/{event['id']}"
    edits: list[dict[str, Any]] = [
        {"title": "Jazz night", "description": "Brass", "cost": "5", "website": "https://x.org"},
        {"excerpt": "Late", "status": "publish"},  # the status sent is the one it has
        {"title": "Gala", "featured": True},
        {"start_date": "2026-12-11 19:00:00", "end_date": "2026-12-11 21:00:00"},
        {"title": "Gala night", "organizer": [organizer]},  # a link changed too
        {"status": "draft"},
    ]
    start = last_version(api)
    for edit in edits:
        assert api.patch(path, json=edit).status_code == 200
    api.post(f"{path}?translation_language=de", json={"title": "Jazznacht"})
    api.delete(path)
    aspects = [(r["action"], r["aspect"]) for r in log(api, start) if r["kind"] == "event"]
    assert aspects == [
        ("update", "text"),
        ("update", "text"),
        ("update", None),
        ("update", None),
        ("update", None),
        ("update", None),
        ("translate", None),  # what the cache follows; the event's own columns: text
        ("update", "text"),
        ("trash", None),
    ]


def test_one_transaction_keeps_the_text_aspect_only_when_every_change_had_it() -> None:
    from eventcal.storage.changes import Change, rows

    text = Change("event", 1, "update", 2, aspect="text")
    assert [r["aspect"] for r in rows([text, text], 5)] == ["text"]
    assert [r["aspect"] for r in rows([text, Change("event", 1, "update", 3)], 5)] == [None]
    assert [r["aspect"] for r in rows([Change("event", 1, "update", 3), text], 5)] == [None]
