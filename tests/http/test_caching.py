"""HTTP caching (issue 8): entity tags, 304s, and the per-process response cache, which must
never serve a body older than the data, whichever process wrote it."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from datetime import timedelta

import orjson
import pytest
from starlette.testclient import TestClient

from eventcal.app import create_app
from eventcal.config import Settings
from eventcal.http.conditional import Built, ResponseCache
from tests.conftest import NS, Api, Clock

EVENT = {"start_date": "2026-12-05 19:00:00", "end_date": "2026-12-05 22:00:00"}


def create(api: Api, title: str, **fields: object) -> int:
    response = api.post(
        f"{NS}/events", json={"title": title, "status": "publish", **EVENT, **fields}
    )
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def titles(response: object) -> list[str]:
    return [e["title"] for e in response.json()["events"]]  # type: ignore[attr-defined]


@pytest.fixture
def other_process(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    """A second app on the same database: another server process, as far as caching goes."""
    with TestClient(create_app(settings, clock=clock), base_url="http://127.0.0.1") as client:
        yield client


def test_reads_carry_an_etag_and_a_matching_if_none_match_is_304(api: Api) -> None:
    create(api, "Harbour Night")
    first = api.get(f"{NS}/events")
    etag = first.headers["etag"]
    assert etag.startswith('"') and len(etag) > 10
    assert api.get(f"{NS}/events").headers["etag"] == etag
    not_modified = api.get(f"{NS}/events", headers={"If-None-Match": etag})
    assert not_modified.status_code == 304
    assert not_modified.content == b""
    assert "content-length" not in not_modified.headers  # it would have to be the 200's
    assert not_modified.headers["etag"] == etag
    assert api.get(f"{NS}/events", headers={"If-None-Match": f'"x", W/{etag}'}).status_code == 304
    assert api.get(f"{NS}/events", headers={"If-None-Match": '"other"'}).status_code == 200
    head = api.request("HEAD", f"{NS}/events", headers={"If-None-Match": etag})
    assert head.status_code == 304


def test_a_cached_response_is_served_without_building_it(api: Api) -> None:
    create(api, "Harbour Night")
    etag = api.get(f"{NS}/events").headers["etag"]
    before = api.statements
    again = api.get(f"{NS}/events")
    assert again.status_code == 200
    assert api.statements - before == 1  # the data version, nothing else
    before = api.statements
    assert api.get(f"{NS}/events", headers={"If-None-Match": etag}).status_code == 304
    assert api.statements - before == 1


def test_any_write_makes_every_cached_read_rebuild(api: Api) -> None:
    event = create(api, "Harbour Night")
    listing = api.get(f"{NS}/events")
    single = api.get(f"{NS}/events/{event}")
    api.post(f"{NS}/events/{event}", json={"title": "Harbour Night (moved)"})
    assert titles(api.get(f"{NS}/events")) == ["Harbour Night (moved)"]
    assert api.get(f"{NS}/events/{event}").json()["title"] == "Harbour Night (moved)"
    for response, path in ((listing, "/events"), (single, f"/events/{event}")):
        conditional = api.get(f"{NS}{path}", headers={"If-None-Match": response.headers["etag"]})
        assert conditional.status_code == 200


def test_a_write_in_another_process_is_seen_at_once(api: Api, other_process: TestClient) -> None:
    event = create(api, "Harbour Night")
    assert titles(other_process.get(f"{NS}/events")) == ["Harbour Night"]
    api.post(f"{NS}/events/{event}", json={"title": "Renamed elsewhere"})
    assert titles(other_process.get(f"{NS}/events")) == ["Renamed elsewhere"]
    venue = api.post(f"{NS}/venues", json={"venue": "Hall", "status": "publish"}).json()["id"]
    api.post(f"{NS}/events/{event}", json={"venue": venue})
    api.post(f"{NS}/venues/{venue}", json={"venue": "Great Hall"})
    shown = other_process.get(f"{NS}/events/{event}").json()
    assert shown["venue"]["venue"] == "Great Hall"


def test_callers_and_languages_never_share_a_cached_body(api: Api) -> None:
    create(api, "Public one")
    create(api, "Draft one", status="draft")
    admin = titles(api.get(f"{NS}/events?status=publish,draft", as_="administrator"))
    assert sorted(admin) == ["Draft one", "Public one"]
    anonymous = api.get(f"{NS}/events?status=publish,draft")
    assert anonymous.status_code in (400, 401, 403) or titles(anonymous) == ["Public one"]
    assert titles(api.get(f"{NS}/events")) == ["Public one"]
    assert len(titles(api.get(f"{NS}/events", as_="administrator"))) == 2
    assert titles(api.get(f"{NS}/events")) == ["Public one"]
    english = api.get(f"{NS}/events/999")
    german = api.get(f"{NS}/events/999", headers={"Accept-Language": "de"})
    assert english.json()["message"] != german.json()["message"]
    event = create(api, "Harbour Night")
    api.post(f"{NS}/events/{event}?translation_language=de", json={"title": "Hafennacht"})
    assert api.get(f"{NS}/events/{event}").json()["title"] == "Harbour Night"
    assert api.get(f"/de{NS}/events/{event}").json()["title"] == "Hafennacht"
    assert api.get(f"{NS}/events/{event}", headers={"Accept-Language": "de"}).json()["title"] == (
        "Hafennacht"
    )


def test_anonymous_reads_are_public_and_authenticated_ones_private(api: Api) -> None:
    assert api.get(f"{NS}/events").headers["cache-control"] == "public, no-cache"
    private = api.get(f"{NS}/events", as_="administrator").headers["cache-control"]
    assert "private" in private and "no-store" in private


def test_relative_dates_are_read_again_as_time_passes(api: Api, clock: Clock) -> None:
    create(api, "Harbour Night")  # 2026-12-05 19:00
    clock.now = clock.now.replace(year=2026, month=12, day=5, hour=18, minute=59)
    relative = f"{NS}/events?start_date=now&strict_dates=true"
    assert titles(api.get(relative)) == ["Harbour Night"]
    clock.now = clock.now + timedelta(minutes=2)
    assert titles(api.get(relative)) == []
    before = api.statements
    api.get(f"{NS}/venues?only_with_upcoming=true")
    api.get(f"{NS}/venues?only_with_upcoming=true")
    assert api.statements - before > 2


def test_the_default_window_moves_with_the_date(api: Api, clock: Clock) -> None:
    create(api, "Harbour Night")
    assert titles(api.get(f"{NS}/events")) == ["Harbour Night"]
    clock.now = clock.now + timedelta(days=20)
    assert titles(api.get(f"{NS}/events")) == []


def test_writes_are_tagged_with_the_revision_and_errors_not_at_all(api: Api) -> None:
    response = api.post(f"{NS}/events", json={"title": "X", **EVENT})
    assert response.headers["etag"].startswith('"r1-')
    assert "etag" not in api.get(f"{NS}/events/999").headers


def test_cached_bodies_hold_only_their_own_size() -> None:
    """The cache's memory bound holds: a kept body costs its length, not the JSON encoder's
    working buffer (orjson hands out 64 KiB buffers for bodies of a few KB)."""
    cache = ResponseCache(max_bytes=64 * 1024 * 1024)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(200):
            body = orjson.dumps({"id": i, "description": "x" * 5000})
            cache.put(("key", i), 1, Built(200, {}, body, ""))
        del body
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(cache) == 200
    assert kept < 200 * 8 * 1024, f"{kept / 200:.0f} bytes per entry"
