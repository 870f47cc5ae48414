"""The per-process item cache (issue 18): built items are reused across requests, and a read
that starts after a write's response was sent shows that write in every process, whatever the
write changed (the item, its translation, a term or venue it embeds, a term's count, the trash).

Two apps on one database stand for two server processes; their response caches are off, so
every read goes through the item cache."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from eventcal.http.conditional import entity_tag
from eventcal.storage import itemcache
from eventcal.storage.itemcache import ItemCache
from tests.conftest import NS, Api
from tests.two_processes import create, items

EVENT = {"start_date": "2026-12-05 19:00:00", "end_date": "2026-12-05 22:00:00"}


def warm(client: TestClient, event: int) -> dict[str, Any]:
    """Read the event alone and in the listing twice: the second reads come from the cache."""
    for _ in range(2):
        listed = client.get(f"{NS}/events").json()["events"]
        single = client.get(f"{NS}/events/{event}").json()
    assert [e["id"] for e in listed] == [event]
    assert len(items(client)) >= 2
    return dict(single)


def both(client: TestClient, event: int) -> list[dict[str, Any]]:
    single = client.get(f"{NS}/events/{event}").json()
    listed = [e for e in client.get(f"{NS}/events").json()["events"] if e["id"] == event]
    return [single, *listed]


@pytest.fixture
def linked(writer: Api) -> dict[str, int]:
    venue = create(writer, "venues", venue="Hall")
    category = create(writer, "categories", name="Jazz")
    event = create(
        writer, "events", title="Harbour Night", venue=venue, categories=[category], **EVENT
    )
    return {"event": event, "venue": venue, "category": category}


def test_a_cached_item_is_reused_and_costs_no_presenting_queries(
    writer: Api, linked: dict[str, int]
) -> None:
    event = linked["event"]
    writer.get(f"{NS}/events/{event}")
    before = writer.statements
    assert writer.get(f"{NS}/events/{event}").json()["venue"]["venue"] == "Hall"
    # the data version only: not the event's row (the entry names its revision), its venue,
    # terms, organizers or translations
    assert writer.statements - before == 1
    assert items(writer.client).hits >= 1


def test_a_cached_item_is_sent_as_built(writer: Api, linked: dict[str, int]) -> None:
    """Items from the cache go into the body as their JSON (not decoded and encoded again):
    the same bytes and entity tag as when built; ``_fields`` and ``_envelope`` still apply."""
    event = linked["event"]
    built = [writer.get(f"{NS}/events/{event}"), writer.get(f"{NS}/events")]
    hits = items(writer.client).hits
    cached = [writer.get(f"{NS}/events/{event}"), writer.get(f"{NS}/events")]
    assert items(writer.client).hits == hits + 2
    revisions = [1, None]  # the single read's tag names the event's revision
    for first, again, revision in zip(built, cached, revisions, strict=True):
        assert again.content == first.content
        assert again.headers["ETag"] == first.headers["ETag"]
        # The digest kept with the item is the body's own.
        assert again.headers["ETag"] == entity_tag(again.content, revision)
    picked = writer.get(f"{NS}/events/{event}?_fields=id,venue.venue")
    assert picked.json() == {"id": event, "venue": {"venue": "Hall"}}
    assert picked.headers["ETag"] == entity_tag(picked.content, 1)
    listed = writer.get(f"{NS}/events?_fields=events").json()
    assert listed == {"events": built[1].json()["events"]}
    enveloped = writer.get(f"{NS}/events/{event}?_envelope")
    wrapped = enveloped.json()
    assert wrapped["body"] == built[0].json()
    assert enveloped.headers["ETag"] == entity_tag(enveloped.content, 1)
    assert items(writer.client).hits == hits + 5


@pytest.mark.parametrize("process", ["same", "other"])
def test_an_update_is_shown_at_once(
    writer: Api, reader: TestClient, linked: dict[str, int], process: str
) -> None:
    client = writer.client if process == "same" else reader
    event = linked["event"]
    warm(client, event)
    assert writer.post(f"{NS}/events/{event}", json={"title": "Moved"}).status_code == 200
    assert [e["title"] for e in both(client, event)] == ["Moved", "Moved"]


def test_a_translation_is_shown_at_once(
    writer: Api, reader: TestClient, linked: dict[str, int]
) -> None:
    event = linked["event"]
    for _ in range(2):
        reader.get(f"{NS}/events/{event}?translation_language=de")
    written = writer.post(
        f"{NS}/events/{event}?translation_language=de", json={"title": "Hafennacht"}
    )
    assert written.status_code == 200, written.text
    assert reader.get(f"{NS}/events/{event}?translation_language=de").json()["title"] == (
        "Hafennacht"
    )
    assert reader.get(f"{NS}/events/{event}").json()["translations"] == ["en", "de"]


def test_a_term_rename_is_shown_in_its_events(
    writer: Api, reader: TestClient, linked: dict[str, int]
) -> None:
    event = linked["event"]
    assert warm(reader, event)["categories"][0]["name"] == "Jazz"
    renamed = writer.post(f"{NS}/categories/{linked['category']}", json={"name": "Blues"})
    assert renamed.status_code == 200, renamed.text
    assert [e["categories"][0]["name"] for e in both(reader, event)] == ["Blues", "Blues"]


def test_a_term_count_is_shown_in_its_events(
    writer: Api, reader: TestClient, linked: dict[str, int]
) -> None:
    event = linked["event"]
    assert warm(reader, event)["categories"][0]["count"] == 1
    create(writer, "events", title="Second night", categories=[linked["category"]], **EVENT)
    assert reader.get(f"{NS}/events/{event}").json()["categories"][0]["count"] == 2


def test_a_venue_edit_is_shown_in_its_events(
    writer: Api, reader: TestClient, linked: dict[str, int]
) -> None:
    event = linked["event"]
    assert warm(reader, event)["venue"]["venue"] == "Hall"
    edited = writer.post(f"{NS}/venues/{linked['venue']}", json={"venue": "Great Hall"})
    assert edited.status_code == 200, edited.text
    assert [e["venue"]["venue"] for e in both(reader, event)] == ["Great Hall", "Great Hall"]


def test_trash_is_shown_at_once(writer: Api, reader: TestClient, linked: dict[str, int]) -> None:
    event = linked["event"]
    warm(reader, event)
    assert writer.delete(f"{NS}/venues/{linked['venue']}").status_code == 200
    assert [e["venue"] for e in both(reader, event)] == [[], []]
    assert writer.delete(f"{NS}/events/{event}").status_code == 200
    assert reader.get(f"{NS}/events").json()["events"] == []
    assert reader.get(f"{NS}/events/{event}").status_code == 403  # trashed: not readable


def test_a_write_the_change_log_does_not_name_clears_the_cache(
    writer: Api, reader: TestClient, linked: dict[str, int]
) -> None:
    """A versioned write that recorded nothing (a script, an import) cannot be matched to
    entries: the whole cache goes."""
    event = linked["event"]
    warm(reader, event)

    async def behind_the_log() -> None:
        async with writer.database.transaction() as conn:
            await conn.execute(
                sa.text("UPDATE venue SET title = 'Side door' WHERE id = :id"),
                {"id": linked["venue"]},
            )

    writer.run(behind_the_log)
    assert [e["venue"]["venue"] for e in both(reader, event)] == ["Side door", "Side door"]


def test_an_entry_built_while_a_sync_dropped_its_dependency_is_not_kept() -> None:
    cache = ItemCache(1024 * 1024)
    epoch = cache.epoch
    cache.put(("event", 1, 1), b"old", [("event", 1)], 100, epoch)
    assert cache.get(("event", 1, 1)) == b"old"
    cache.invalidate([("venue", 9)])  # a sync ran: it dropped nothing here, but it ran
    cache.put(("event", 2, 1), b"built before", [("venue", 9)], 100, epoch)
    assert cache.get(("event", 2, 1)) is None
    cache.invalidate([("event", 1)])
    assert cache.get(("event", 1, 1)) is None
    assert len(cache) == 0 and cache.size == 0


def test_an_entry_built_while_a_sync_changed_other_items_is_kept() -> None:
    """On PostgreSQL a sync lands in most builds under load (every statement awaits): an
    entry whose items the sync left alone is as fresh as one kept before it."""
    cache = ItemCache(1024 * 1024)
    epoch = cache.epoch
    cache.invalidate([("event", 7), ("venue", 3)], [None, "text"])  # another request's sync
    cache.put(("event", 2, 1), b"built", [("event", 2), ("venue", 9)], 100, epoch)
    assert cache.get(("event", 2, 1)) == b"built"
    cache.invalidate([("venue", 9)])
    assert cache.get(("event", 2, 1)) is None


def test_an_entry_built_before_a_clear_is_not_kept() -> None:
    cache = ItemCache(1024 * 1024)
    epoch = cache.epoch
    cache.clear()  # a gap in the log: what changed is unknown
    cache.put(("event", 2, 1), b"built", [("event", 2)], 100, epoch)
    cache.put_total("total", cache.stamp(["event"]), 5, epoch)
    assert cache.get(("event", 2, 1)) is None
    assert cache.total("total", cache.stamp(["event"])) is None


def test_the_memory_of_drops_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(itemcache, "MAX_DROPS_KEPT", 10)
    cache = ItemCache(1024 * 1024)
    epoch = cache.epoch
    for i in range(30):
        cache.invalidate([("event", 100 + i)])
    assert len(cache._dropped_at) <= 11
    # The dependency's drop was forgotten: builds that began before are refused instead.
    cache.put(("event", 100, 1), b"built", [("event", 100)], 100, epoch)
    assert cache.get(("event", 100, 1)) is None
    cache.put(("event", 100, 1), b"built", [("event", 100)], 100, cache.epoch)
    assert cache.get(("event", 100, 1)) == b"built"


def test_a_total_counted_while_a_sync_ran_is_kept_by_its_stamp() -> None:
    cache = ItemCache(1024 * 1024)
    epoch = cache.epoch
    stamp = cache.stamp(["event"])  # taken before counting
    cache.invalidate([("venue", 3)])  # a change the total does not read
    cache.put_total("total", stamp, 5, epoch)
    assert cache.total("total", cache.stamp(["event"])) == 5
    stamp = cache.stamp(["event"])
    cache.invalidate([("event", 3)])  # while counting: the stored stamp is already old
    cache.put_total("total", stamp, 6, cache.epoch - 1)
    assert cache.total("total", cache.stamp(["event"])) is None


def test_the_cache_is_bounded_by_size() -> None:
    cache = ItemCache(64 * 1024)
    for i in range(200):
        cache.put(("event", i, 1), b"%d" % i, [("event", i), ("venue", 1)], 1000, 0)
    assert cache.size <= 64 * 1024
    assert cache.get(("event", 199, 1)) == b"199"
    assert cache.get(("event", 0, 1)) is None
    cache.invalidate([("venue", 1)])
    assert len(cache) == 0 and cache.size == 0


def test_concurrent_syncs_read_the_log_once(writer: Api, linked: dict[str, int]) -> None:
    cache = ItemCache(1024 * 1024)

    async def sync_many() -> int:
        version: int = await writer.database.current_version()
        cache.watermark = version - 1
        before = writer.database.statement_count
        await asyncio.gather(*(cache.sync(writer.database, version) for _ in range(5)))
        return int(writer.database.statement_count - before)

    del linked
    assert writer.run(sync_many) == 1


def total(client: TestClient, query: str = "") -> int:
    response = client.get(f"{NS}/events{query}")
    assert response.status_code == 200, response.text
    return int(response.json()["total"])


def test_listing_totals_follow_writes_of_what_they_read(
    writer: Api, reader: TestClient, linked: dict[str, int]
) -> None:
    category, venue = linked["category"], linked["venue"]
    for _ in range(2):
        assert total(reader, f"?categories={category}") == 1
        assert total(reader, "?geoloc=1") == 0
    create(writer, "events", title="Second night", categories=[category], **EVENT)
    assert total(reader, f"?categories={category}") == 2
    # a venue gets coordinates: the events listing reads venues for geoloc
    moved = writer.post(f"{NS}/venues/{venue}", json={"latitude": 48.1, "longitude": 11.5})
    assert moved.status_code == 200, moved.text
    assert total(reader, "?geoloc=1") == 1


def test_a_counted_total_is_reused(writer: Api, linked: dict[str, int]) -> None:
    query = f"?categories={linked['category']}&search=Harbour"

    def statements_of_a_read(expected: int) -> int:
        before = writer.statements
        assert total(writer.client, query) == expected
        return int(writer.statements - before)

    counted = statements_of_a_read(1)
    assert statements_of_a_read(1) < counted  # the items and the total were kept
    writer.post(f"{NS}/events/{linked['event']}", json={"title": "Quay"})
    recounted = statements_of_a_read(0)
    # the first read after the write also read the change log; then only the count is saved
    assert statements_of_a_read(0) == recounted - 2


def reader_statements(reader: TestClient) -> int:
    return int(reader.app.state.runtime.database.statement_count)  # type: ignore[attr-defined]


def test_a_text_edit_recounts_search_totals_only(
    writer: Api, reader: TestClient, linked: dict[str, int]
) -> None:
    """A title edit in one process: another process keeps its category totals (nothing it
    lists can have changed), but counts its searches again (the new word now matches)."""
    other = create(writer, "categories", name="Folk")
    folk = create(writer, "events", title="Fiddle", categories=[other], **EVENT)
    query = f"?categories={other}"
    for _ in range(2):
        assert total(reader, query) == 1
        assert total(reader, "?search=Quay") == 0
    before = reader_statements(reader)
    assert total(reader, query) == 1
    cached = reader_statements(reader) - before  # the data version and the page's ids
    edited = writer.patch(
        f"{NS}/events/{linked['event']}",
        json={
            "title": "Quay Night",
            "description": "Brass",
            "cost": "5",
            "website": "https://x.org",
        },
    )
    assert edited.status_code == 200, edited.text
    reader.get(f"{NS}/events/{folk}")  # syncs the change log (not the edited event)
    before = reader_statements(reader)
    assert total(reader, query) == 1
    assert reader_statements(reader) - before == cached  # the total was not counted again
    assert total(reader, "?search=Quay") == 1


@pytest.mark.parametrize(
    ("change", "query", "after"),
    [
        ({"status": "draft"}, "categories", 0),
        (
            {"start_date": "2020-01-05 19:00:00", "end_date": "2020-01-05 22:00:00"},
            "categories",
            0,
        ),
        ({"categories": []}, "categories", 0),
        ({"venue": "other"}, "venue", 0),
        ({"featured": True}, "featured", 1),
        ({"title": "Quay", "organizer": ["new"]}, "organizer", 1),
    ],
    ids=["status", "dates", "terms", "venue", "featured", "text-and-organizer"],
)
def test_other_edits_recount_filter_totals(
    writer: Api,
    reader: TestClient,
    linked: dict[str, int],
    change: dict[str, Any],
    query: str,
    after: int,
) -> None:
    values = {**linked, "featured": "true"}
    if query == "organizer":  # a link table without counts: only the event's change says it
        values["organizer"] = create(writer, "organizers", organizer="Crew")
        change = {**change, "organizer": [values["organizer"]]}
    if query == "venue":
        change = {"venue": create(writer, "venues", venue="Annex")}
    path = f"?{query}={values[query if query != 'categories' else 'category']}"
    for _ in range(2):
        assert total(reader, path) == 1 - after
    edited = writer.patch(f"{NS}/events/{linked['event']}", json=change)
    assert edited.status_code == 200, edited.text
    assert total(reader, path) == after


def test_a_text_change_moves_only_the_text_stamp() -> None:
    cache = ItemCache(1024 * 1024)
    plain, searched = cache.stamp(["event", "venue"]), cache.stamp(["event", "venue"], text=True)
    cache.invalidate([("event", 1)], ["text"])
    assert cache.stamp(["event", "venue"]) == plain
    assert cache.stamp(["event", "venue"], text=True) != searched
    searched = cache.stamp(["event", "venue"], text=True)
    cache.invalidate([("event", 1), ("venue", 2)], ["text", None])
    assert cache.stamp(["event", "venue"]) != plain
    assert cache.stamp(["event", "venue"], text=True) != searched
