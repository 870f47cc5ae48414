"""A read by id answered from the item cache without reading the item's row: the entry must be
what the row would have allowed, in every process, whatever changed since it was kept (its
status, its password, the trash), and only a single read's entry answers a single read."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from eventcal.storage.itemcache import ItemCache
from tests.conftest import NS, Api
from tests.two_processes import create, items

EVENT = {"start_date": "2026-12-05 19:00:00", "end_date": "2026-12-05 22:00:00"}
CHANGES: dict[str, tuple[dict[str, Any], int]] = {
    "draft": ({"status": "draft"}, 403),
    "private": ({"status": "private"}, 403),
    "password": ({"post_password": "secret"}, 403),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
@pytest.mark.parametrize("process", ["same", "other"])
def test_a_kept_read_follows_what_makes_the_item_unreadable(
    writer: Api, reader: TestClient, change: str, process: str
) -> None:
    client = writer.client if process == "same" else reader
    event = create(writer, "events", title="Harbour Night", **EVENT)
    for _ in range(2):
        assert client.get(f"{NS}/events/{event}").status_code == 200
    hits = items(client).hits
    assert client.get(f"{NS}/events/{event}").json()["title"] == "Harbour Night"
    assert items(client).hits == hits + 1  # the entry answered
    fields, status = CHANGES[change]
    assert writer.post(f"{NS}/events/{event}", json=fields).status_code == 200
    assert client.get(f"{NS}/events/{event}").status_code == status
    if change == "password":
        opened = client.get(f"{NS}/events/{event}?password=secret")
        assert opened.status_code == 200 and opened.json()["title"] == "Harbour Night"
        assert client.get(f"{NS}/events/{event}").status_code == 403


def test_a_listed_item_does_not_answer_a_read_by_id(writer: Api, reader: TestClient) -> None:
    """A listing keeps its items without the single read's ``json_ld``."""
    event = create(writer, "events", title="Harbour Night", **EVENT)
    for _ in range(2):
        assert [e["id"] for e in reader.get(f"{NS}/events").json()["events"]] == [event]
    single = reader.get(f"{NS}/events/{event}").json()
    assert single["json_ld"]["name"] == "Harbour Night"
    listed = reader.get(f"{NS}/events").json()["events"][0]
    assert "json_ld" not in listed


def test_a_kept_read_sends_the_tags_of_the_built_one(writer: Api, reader: TestClient) -> None:
    """The entry names the revision the entity tag names (``If-Match`` of a later write)."""
    event = create(writer, "events", title="Harbour Night", **EVENT)
    assert writer.post(f"{NS}/events/{event}", json={"title": "Moved"}).status_code == 200
    built = reader.get(f"{NS}/events/{event}")
    kept = reader.get(f"{NS}/events/{event}")
    assert kept.content == built.content
    assert kept.headers["ETag"] == built.headers["ETag"]
    matched = writer.post(
        f"{NS}/events/{event}", json={"title": "Again"}, headers={"If-Match": kept.headers["ETag"]}
    )
    assert matched.status_code == 200, matched.text


def test_an_entry_of_another_revision_is_not_taken_for_it() -> None:
    """A listing reads its rows: an entry built from another revision of the row is a miss."""
    cache = ItemCache(1024 * 1024)
    cache.put(("event", 1), (3, "digest", b"{}"), [("event", 1)], 100, cache.epoch)
    assert cache.get(("event", 1), revision=3) == (3, "digest", b"{}")
    assert cache.get(("event", 1), revision=4) is None
    assert cache.get(("event", 1)) == (3, "digest", b"{}")  # a read by id takes it as current


def test_a_kept_venue_follows_its_edits_in_events_built_later(
    writer: Api, reader: TestClient
) -> None:
    """What events embed is kept once for all of them (their venue as JSON): an event built
    after the venue changed in another process shows the change."""
    venue = create(writer, "venues", venue="Hall")
    first, second = (
        create(writer, "events", title=title, venue=venue, **EVENT) for title in ("One", "Two")
    )
    assert reader.get(f"{NS}/events/{first}").json()["venue"]["venue"] == "Hall"
    edited = writer.post(f"{NS}/venues/{venue}", json={"venue": "Great Hall"})
    assert edited.status_code == 200, edited.text
    shown = reader.get(f"{NS}/events/{second}").json()
    assert shown["venue"]["venue"] == "Great Hall"
    assert shown["json_ld"]["location"]["name"] == "Great Hall"


def test_a_kept_venue_is_an_object_where_keys_are_picked(writer: Api, reader: TestClient) -> None:
    venue = create(writer, "venues", venue="Hall")
    first, second = (
        create(writer, "events", title=title, venue=venue, **EVENT) for title in ("One", "Two")
    )
    full = reader.get(f"{NS}/events/{first}").json()
    picked = reader.get(f"{NS}/events/{second}?_fields=id,venue.venue,json_ld.location.name")
    assert picked.json() == {
        "id": second,
        "venue": {"venue": "Hall"},
        "json_ld": {"location": {"name": "Hall"}},
    }
    again = reader.get(f"{NS}/events/{first}").json()  # from the cache, as it was built
    assert again == full
