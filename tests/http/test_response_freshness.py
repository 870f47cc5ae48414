"""Cached responses follow what they were built from (issue 18): after a write, a cached GET
response stays only if the write changed nothing it shows or listed, and a read that starts
after a write's response was sent shows that write, in the process that wrote and in any other.

The reading process has its response cache on (as deployed); "same" reads in the app that
writes, "other" in a second app on the same database (another server process)."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient

from eventcal.app import create_app
from eventcal.config import Settings
from eventcal.http.conditional import DEPENDENCY_BYTES, ENTRY_OVERHEAD, Built, ResponseCache
from eventcal.storage.itemcache import ItemCache, Reads
from tests.conftest import NS, Api, Clock
from tests.domains.media.library import MEDIA, uploaded
from tests.two_processes import create, items, responses

X_DATES = {"start_date": "2026-12-05 19:00:00", "end_date": "2026-12-05 22:00:00"}
Y_DATES = {"start_date": "2026-12-06 19:00:00", "end_date": "2026-12-06 22:00:00"}
LATER = {"start_date": "2026-12-07 19:00:00", "end_date": "2026-12-07 22:00:00"}


@pytest.fixture(params=["same", "other"])
def processes(request: pytest.FixtureRequest, database_url: str) -> tuple[Api, TestClient]:
    """The writing app, and the app that reads (itself, or another process)."""
    del database_url  # in this fixture's closure: ``api`` and ``writer`` use it
    if request.param == "same":
        api: Api = request.getfixturevalue("api")
        return api, api.client
    return request.getfixturevalue("writer"), request.getfixturevalue("cached_reader")


@pytest.fixture
def site(processes: tuple[Api, TestClient]) -> dict[str, int]:
    """X at the Hall with its crew, in Jazz, with an image; Y in Folk, linked to nothing of
    X's; Z a draft and W in the trash, both in Folk."""
    writer, _ = processes
    ids = {
        "hall": create(writer, "venues", venue="Hall"),
        "annex": create(writer, "venues", venue="Annex"),
        "crew": create(writer, "organizers", organizer="Crew"),
        "jazz": create(writer, "categories", name="Jazz"),
        "folk": create(writer, "categories", name="Folk"),
        "media": int(uploaded(writer)["id"]),
    }
    ids["x"] = create(
        writer,
        "events",
        title="Harbour Night",
        venue=ids["hall"],
        organizer=[ids["crew"]],
        categories=[ids["jazz"]],
        image=ids["media"],
        **X_DATES,
    )
    ids["y"] = create(writer, "events", title="Fiddle Evening", categories=[ids["folk"]], **Y_DATES)
    ids["z"] = create(writer, "events", title="Draft Night", categories=[ids["folk"]], **LATER)
    assert writer.patch(f"{NS}/events/{ids['z']}", json={"status": "draft"}).status_code == 200
    ids["w"] = create(writer, "events", title="Binned", categories=[ids["folk"]], **LATER)
    assert writer.delete(f"{NS}/events/{ids['w']}").status_code == 200
    return ids


def read(client: TestClient, path: str) -> tuple[Any, bool]:
    """The response to an anonymous GET, and whether it was answered as kept: by the response
    cache, or (a single read, which the response cache leaves to the item cache) from the
    item cache without building anything."""
    cache, kept = responses(client), items(client)
    hits, left, item_misses = cache.hits, cache.left_to_items, kept.misses
    response = client.get(path)
    from_items = cache.left_to_items > left and kept.misses == item_misses
    return response, cache.hits > hits or from_items


def warm(client: TestClient, *paths: str) -> None:
    """Read each path twice: the second answer is one kept (see ``read``)."""
    for path in paths:
        assert client.get(path).status_code == 200, path
        response, hit = read(client, path)
        assert hit and response.status_code == 200, path


def titles(response: Any) -> list[str]:
    body = response.json()
    if response.status_code != 200:
        return []
    return [e["title"] for e in body["events"]] if "events" in body else [body["title"]]


def test_a_text_edit_drops_what_shows_the_item_and_searches_only(
    processes: tuple[Api, TestClient], site: dict[str, int]
) -> None:
    writer, client = processes
    x, y = site["x"], site["y"]
    showing_x = [
        f"{NS}/events/{x}",
        f"{NS}/events/{x}?translation_language=de",
        f"{NS}/events/by-slug/harbour-night",
        f"{NS}/events",
        f"{NS}/events?categories={site['jazz']}",
    ]
    searching = f"{NS}/events?search=Quay"
    others = [
        f"{NS}/events/{y}",
        f"{NS}/events/{y}?translation_language=de",
        f"{NS}/events?categories={site['folk']}",
        f"{NS}/venues/{site['hall']}",
        f"{NS}/categories",
    ]
    warm(client, *showing_x, searching, *others)
    assert titles(client.get(searching)) == []
    edited = writer.patch(f"{NS}/events/{x}", json={"title": "Quay Night", "excerpt": "Brass"})
    assert edited.status_code == 200, edited.text
    for path in [*showing_x, searching]:
        response, hit = read(client, path)
        # X by slug is the item the read by id just built again (one item-cache entry).
        assert not hit or path.endswith("by-slug/harbour-night"), path
        assert "Quay Night" in titles(response), path
    # The gain: what neither shows X nor searches is still answered from the cache.
    for path in others:
        response, hit = read(client, path)
        assert hit, path
        assert "Quay Night" not in response.text


@pytest.mark.parametrize(
    ("method", "item", "body", "path", "before", "after"),
    [
        (
            "patch",
            "x",
            {"start_date": "2027-01-10 19:00:00", "end_date": "2027-01-10 22:00:00"},
            "?start_date=2027-01-01&end_date=2027-01-31",
            [],
            ["Harbour Night"],
        ),
        (
            "patch",
            "z",
            {"status": "publish"},
            "?categories=folk",
            ["Fiddle Evening"],
            ["Fiddle Evening", "Draft Night"],
        ),
        (
            "patch",
            "x",
            {"categories": ["Folk"]},
            "?categories=folk",
            ["Fiddle Evening"],
            ["Harbour Night", "Fiddle Evening"],
        ),
        ("patch", "x", {"venue": "annex"}, "?venue=annex", [], ["Harbour Night"]),
        ("patch", "x", {"featured": True}, "?featured=1", [], ["Harbour Night"]),
        ("delete", "x", {}, "?per_page=1&page=2", ["Fiddle Evening"], []),
        ("delete", "x", {"force": "true"}, "?per_page=1&page=2", ["Fiddle Evening"], []),
        (
            "post",
            "new",
            {"title": "Late Session", "categories": ["Folk"], **LATER},
            "?categories=folk",
            ["Fiddle Evening"],
            ["Fiddle Evening", "Late Session"],
        ),
        (
            "patch",
            "w",
            {"status": "publish"},
            "?categories=folk",
            ["Fiddle Evening"],
            ["Fiddle Evening", "Binned"],
        ),
    ],
    ids=["dates", "status", "terms", "venue", "featured", "trash", "delete", "create", "restore"],
)
def test_a_change_of_what_listings_read_reaches_listings_without_the_item(
    processes: tuple[Api, TestClient],
    site: dict[str, int],
    method: str,
    item: str,
    body: dict[str, Any],
    path: str,
    before: list[str],
    after: list[str],
) -> None:
    writer, client = processes
    path = path.replace("folk", str(site["folk"])).replace("annex", str(site["annex"]))
    body = {k: site[v] if v == "annex" else v for k, v in body.items()}
    listing = f"{NS}/events{path}"
    warm(client, listing)
    assert titles(client.get(listing)) == before
    target = f"{NS}/events" + (f"/{site[item]}" if item in site else "")
    if method == "delete":
        written = writer.delete(target, params=body)
    else:
        written = getattr(writer, method)(target, json=body)
    assert written.status_code in (200, 201), written.text
    assert titles(client.get(listing)) == after


@pytest.mark.parametrize("linked", ["venue", "organizer", "category", "media"])
def test_an_edit_of_an_embedded_item_reaches_the_events_showing_it(
    processes: tuple[Api, TestClient], site: dict[str, int], linked: str
) -> None:
    writer, client = processes
    x, y = site["x"], site["y"]
    paths = [f"{NS}/events/{x}", f"{NS}/events?categories={site['jazz']}"]
    warm(client, *paths, f"{NS}/events/{y}")
    if linked == "media":
        forced = writer.delete(f"{MEDIA}/{site['media']}", params={"force": "true"})
        assert forced.status_code == 200, forced.text
    else:
        collection, key, field = {
            "venue": ("venues", "hall", "venue"),
            "organizer": ("organizers", "crew", "organizer"),
            "category": ("categories", "jazz", "name"),
        }[linked]
        edited = writer.post(f"{NS}/{collection}/{site[key]}", json={field: "Renamed"})
        assert edited.status_code == 200, edited.text
    for path in paths:
        shown = client.get(path).json()
        event = shown["events"][0] if "events" in shown else shown
        if linked == "media":
            assert event["image"] is False, path
        else:
            embedded = {"venue": event["venue"], "organizer": event["organizer"][0]}
            embedded["category"] = event["categories"][0]
            assert "Renamed" in embedded[linked].values(), path
    assert read(client, f"{NS}/events/{y}")[1]  # Y shows none of them


def test_a_single_read_is_kept_once_by_the_item_cache(
    processes: tuple[Api, TestClient], site: dict[str, int]
) -> None:
    """A single read's body is its item as the item cache keeps it: the response cache keeps
    no second copy (memory per event, issue 18), and the read stays fresh."""
    writer, client = processes
    path = f"{NS}/events/{site['x']}"
    first = client.get(path)
    cache = responses(client)
    kept, left = len(cache), cache.left_to_items
    again, hit = read(client, path)
    assert hit and cache.left_to_items == left + 1 and len(cache) == kept
    assert again.content == first.content and again.headers["ETag"] == first.headers["ETag"]
    renamed = writer.post(f"{NS}/venues/{site['hall']}", json={"venue": "Renamed"})
    assert renamed.status_code == 200, renamed.text
    assert client.get(path).json()["venue"]["venue"] == "Renamed"


def test_term_counts_follow_new_events(
    processes: tuple[Api, TestClient], site: dict[str, int]
) -> None:
    writer, client = processes
    terms = f"{NS}/categories?hide_empty=0"
    warm(client, terms, f"{NS}/events/{site['x']}")
    counts = {t["name"]: t["count"] for t in client.get(terms).json()["categories"]}
    create(writer, "events", title="Second", categories=[site["jazz"]], **LATER)
    assert {t["name"]: t["count"] for t in client.get(terms).json()["categories"]} == {
        **counts,
        "Jazz": counts["Jazz"] + 1,
    }
    assert client.get(f"{NS}/events/{site['x']}").json()["categories"][0]["count"] == 2


def test_a_translation_is_shown_at_once(
    processes: tuple[Api, TestClient], site: dict[str, int]
) -> None:
    writer, client = processes
    x, y = site["x"], site["y"]
    german = [f"{NS}/events/{x}?translation_language=de", f"{NS}/events?translation_language=de"]
    warm(client, *german, f"{NS}/events/{x}", f"{NS}/events/{y}?translation_language=de")
    written = writer.post(f"{NS}/events/{x}?translation_language=de", json={"title": "Hafennacht"})
    assert written.status_code == 200, written.text
    for path in german:
        assert "Hafennacht" in titles(client.get(path)), path
    assert client.get(f"{NS}/events/{x}").json()["translations"] == ["en", "de"]
    assert read(client, f"{NS}/events/{y}?translation_language=de")[1]


def test_reads_by_slug_follow_renames(
    processes: tuple[Api, TestClient], site: dict[str, int]
) -> None:
    writer, client = processes
    old, new = f"{NS}/events/by-slug/harbour-night", f"{NS}/events/by-slug/quay"
    warm(client, old)
    assert client.get(new).status_code == 400
    assert writer.patch(f"{NS}/events/{site['x']}", json={"slug": "quay"}).status_code == 200
    assert client.get(old).status_code == 400
    assert titles(client.get(new)) == ["Harbour Night"]
    warm(client, new)
    # Another event takes the freed slug; a German slug changes.
    taken = writer.patch(f"{NS}/events/{site['y']}", json={"slug": "harbour-night"})
    assert taken.status_code == 200, taken.text
    assert titles(client.get(old)) == ["Fiddle Evening"]
    german = f"{NS}/events/{site['x']}?translation_language=de"
    assert writer.post(german, json={"slug": "hafen"}).status_code == 200
    hafen = f"{NS}/events/by-slug/hafen?translation_language=de"
    warm(client, hafen)
    assert writer.post(german, json={"slug": "kai"}).status_code == 200
    assert client.get(hafen).status_code == 400
    assert titles(client.get(hafen.replace("hafen", "kai"))) == ["Harbour Night"]


def test_the_default_window_moves_with_the_date(
    processes: tuple[Api, TestClient], site: dict[str, int], clock: Clock
) -> None:
    _, client = processes
    del site
    warm(client, f"{NS}/events")
    assert titles(client.get(f"{NS}/events")) == ["Harbour Night", "Fiddle Evening"]
    clock.now += timedelta(days=15)  # 7 December: the window starts the day before, after X
    assert titles(client.get(f"{NS}/events")) == ["Fiddle Evening"]


# --- what cannot say what it read stays on the data version ----------------------------------


def test_reads_that_name_nothing_are_rebuilt_after_any_write(api: Api) -> None:
    x = create(api, "events", title="Harbour Night", **X_DATES)
    y = create(api, "events", title="Fiddle Evening", **Y_DATES)
    series = create(api, "events", title="Yoga", recurrence=["RRULE:FREQ=WEEKLY;COUNT=4"], **LATER)
    anonymous = f"{NS}/events/{x}"
    imprecise = [f"{NS}/events/{series}", f"{NS}/events/{series}/occurrences", f"{NS}/events.ics"]
    warm(api.client, anonymous, *imprecise)
    logged_in = api.get(anonymous, as_="administrator")
    assert logged_in.status_code == 200
    hits = responses(api.client).hits
    assert api.get(anonymous, as_="administrator").status_code == 200
    assert responses(api.client).hits == hits + 1
    assert api.patch(f"{NS}/events/{y}", json={"excerpt": "Edited"}).status_code == 200
    assert read(api.client, anonymous)[1]
    for path in imprecise:
        assert not read(api.client, path)[1], path
    hits = responses(api.client).hits
    assert api.get(anonymous, as_="administrator").status_code == 200
    assert responses(api.client).hits == hits


def test_without_the_item_cache_every_response_follows_the_version(
    settings: Settings, clock: Clock, password_hash: str
) -> None:
    from tests import factories

    app = create_app(dataclasses.replace(settings, item_cache_mb=0), clock=clock)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        api = Api(client, app.state.runtime.database, password_hash)
        api.run(lambda: factories.empty_database(app.state.runtime.database))
        x = create(api, "events", title="Harbour Night", **X_DATES)
        y = create(api, "events", title="Fiddle Evening", **Y_DATES)
        warm(client, f"{NS}/events/{x}")
        assert api.patch(f"{NS}/events/{y}", json={"excerpt": "Edited"}).status_code == 200
        assert not read(client, f"{NS}/events/{x}")[1]


# --- the cache itself --------------------------------------------------------------------------


def built(body: bytes = b"{}") -> Built:
    return Built(200, {}, body, '"tag"')


def test_an_entry_follows_its_dependencies_and_its_generations() -> None:
    items = ItemCache(1024 * 1024)
    cache = ResponseCache(1024 * 1024, items)
    items.watermark = 1
    single, listing = Reads(items.epoch, {("event", 1), ("venue", 2)}), Reads(items.epoch)
    listing.listed(["event", "venue"])
    cache.put("single", 1, built(), single)
    cache.put("listing", 1, built(), listing)
    items.invalidate([("event", 3)], ["text"])  # a text edit of an event neither shows
    items.watermark = 2
    assert cache.get("single", 2) is not None
    assert cache.get("listing", 2) is not None
    items.invalidate([("venue", 2)])
    items.watermark = 3
    assert cache.get("single", 3) is None
    assert cache.get("listing", 3) is None  # the venues' generation moved
    assert len(cache) == 1  # the single read was dropped, not only missed


def test_an_entry_built_while_a_sync_changed_what_it_read_follows_the_version() -> None:
    items = ItemCache(1024 * 1024)
    cache = ResponseCache(1024 * 1024, items)
    items.watermark = 1
    single, listing = Reads(items.epoch, {("event", 1)}), Reads(items.epoch)
    listing.listed(["event"])
    # Another request's sync, while these were built: the single read's event, and an event
    # the listing may list.
    items.invalidate([("event", 1)])
    cache.put("single", 1, built(), single)
    cache.put("listing", 1, built(), listing)
    assert cache.get("single", 1) is not None and cache.get("listing", 1) is not None
    items.watermark = 2
    assert cache.get("single", 2) is None
    assert cache.get("listing", 2) is None


def test_an_entry_built_while_a_sync_changed_other_items_follows_what_it_read() -> None:
    """On PostgreSQL a sync lands in most builds while an editor writes (every statement
    awaits): a response whose items and listed kinds the sync left alone stays kept."""
    items = ItemCache(1024 * 1024)
    cache = ResponseCache(1024 * 1024, items)
    items.watermark = 1
    single, listing = Reads(items.epoch, {("event", 1)}), Reads(items.epoch)
    listing.listed(["event"])
    items.invalidate([("event", 9)], ["text"])  # a text edit of another event
    cache.put("single", 1, built(), single)
    cache.put("listing", 1, built(), listing)
    items.watermark = 2
    assert cache.get("single", 2) is not None
    assert cache.get("listing", 2) is not None
    items.invalidate([("event", 1)])
    items.watermark = 3
    assert cache.get("single", 3) is None
    assert cache.get("listing", 3) is None


def test_an_entry_is_not_used_before_the_log_is_applied_up_to_the_version() -> None:
    items = ItemCache(1024 * 1024)
    cache = ResponseCache(1024 * 1024, items)
    items.watermark = 1
    cache.put("key", 1, built(), Reads(items.epoch, {("event", 1)}))
    assert cache.get("key", 2) is None  # version 2 read, its changes not applied yet
    items.watermark = 2
    assert cache.get("key", 2) is not None


def test_dependencies_count_in_an_entry_cost() -> None:
    items = ItemCache(1024 * 1024)
    cache = ResponseCache(1024 * 1024, items)
    deps = {("event", i) for i in range(100)}
    cache.put("key", 1, built(b"x" * 100), Reads(items.epoch, deps))
    assert cache.size == 100 + len("key") + ENTRY_OVERHEAD + 100 * DEPENDENCY_BYTES
    cache.put("key", 1, built(b"x" * 100))
    assert cache.size == 100 + len("key") + ENTRY_OVERHEAD
    items.clear()
    assert len(cache) == 0 and cache.size == 0
