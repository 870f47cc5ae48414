"""The iCalendar feeds at the HTTP edge (issue 17): media type, folding and CRLF, ETag/304,
the response cache, JSON errors, the index, ``/doc`` and the setting."""

from __future__ import annotations

from typing import Any

import pytest

from eventcal.config import load_settings
from eventcal.errors import ConfigError
from tests.conftest import NS, Api
from tests.http.helpers import assert_error

EVENT = {"title": "Feed", "start_date": "2026-12-10 19:00:00", "end_date": "2026-12-10 21:00:00"}


def _event(api: Api, **fields: Any) -> dict[str, Any]:
    response = api.post(f"{NS}/events", json={**EVENT, **fields})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def test_media_type_crlf_and_folded_lines(api: Api) -> None:
    event = _event(api, description="Long " * 60 + "\n\nÜmlaute und 漢字 " * 10)
    for path in ("events.ics", f"events/{event['id']}.ics"):
        response = api.get(f"{NS}/{path}")
        assert response.status_code == 200
        assert response.headers["content-type"] == "text/calendar; charset=utf-8"
        raw: bytes = response.content
        assert raw.startswith(b"BEGIN:VCALENDAR\r\n") and raw.endswith(b"END:VCALENDAR\r\n")
        lines = raw.split(b"\r\n")[:-1]
        assert all(b"\n" not in line and b"\r" not in line for line in lines)
        assert all(len(line) <= 75 for line in lines)
        assert any(line.startswith(b" ") for line in lines)  # the description is folded
        raw.decode("utf-8")


def test_etag_and_not_modified(api: Api) -> None:
    event = _event(api)
    for path in (f"{NS}/events.ics", f"{NS}/events/{event['id']}.ics"):
        first = api.get(path)
        etag = first.headers["ETag"]
        again = api.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304 and again.content == b""
        assert again.headers["ETag"] == etag
    item = api.get(f"{NS}/events/{event['id']}.ics")
    assert item.headers["ETag"].startswith('"r1-')
    api.patch(f"{NS}/events/{event['id']}", json={"title": "Renamed"})
    changed = api.get(f"{NS}/events/{event['id']}.ics", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and b"SUMMARY:Renamed" in changed.content


def test_feeds_are_served_from_the_response_cache_until_the_data_changes(api: Api) -> None:
    _event(api)
    cache = api.client.app.state.runtime.cache  # type: ignore[attr-defined]
    first = api.get(f"{NS}/events.ics")
    hits = cache.hits
    second = api.get(f"{NS}/events.ics")
    assert cache.hits == hits + 1
    assert second.content == first.content
    assert second.headers["content-type"] == "text/calendar; charset=utf-8"
    _event(api, title="Another")
    third = api.get(f"{NS}/events.ics")
    assert cache.hits == hits + 1
    assert third.content.count(b"BEGIN:VEVENT") == 2


def test_errors_are_json_and_json_options_do_not_apply(api: Api) -> None:
    event = _event(api)
    bad = api.get(f"{NS}/events.ics?start_date=never")
    assert_error(bad, 400, "rest_invalid_param")
    assert bad.headers["content-type"].startswith("application/json")
    assert_error(api.get(f"{NS}/events/123456.ics"), 404, "rest-event-not-found")
    assert_error(api.get(f"{NS}/events/abc.ics"), 404, "rest_no_route")
    assert_error(api.post(f"{NS}/events.ics", json={}), 404, "rest_no_route")
    plain = api.get(f"{NS}/events/{event['id']}.ics")
    fields = api.get(f"{NS}/events/{event['id']}.ics?_fields=id&_envelope=1")
    assert fields.content == plain.content
    head = api.request("HEAD", f"{NS}/events.ics")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-type"] == "text/calendar; charset=utf-8"


def test_the_index_and_the_document_list_the_feeds_after_the_original_routes(api: Api) -> None:
    routes = list(api.get(f"{NS}").json()["routes"])
    feed, item = f"/{NS[1:]}/events\\.ics", f"/{NS[1:]}/events/(?P<id>\\d+)\\.ics"
    assert feed in routes and item in routes
    original_last = routes.index(f"/{NS[1:]}/tags/(?P<id>\\d+)")
    assert routes.index(feed) > original_last and routes.index(item) > original_last
    described = api.get(f"{NS}").json()["routes"][feed]
    assert described["_links"]["self"][0]["href"] == f"http://127.0.0.1{NS}/events.ics"
    args = described["endpoints"][0]["args"]
    assert "categories" in args and "start_date" in args
    assert "page" not in args and "per_page" not in args
    paths = api.get(f"{NS}/doc").json()["paths"]
    for path in ("/events.ics", "/events/{id}.ics"):
        content = paths[path]["get"]["responses"]["200"]["content"]
        assert list(content) == ["text/calendar"]


def test_the_feed_limit_is_a_setting() -> None:
    assert load_settings({}).feed_max_events == 2000
    assert load_settings({"EVENTCAL_FEED_MAX_EVENTS": "150"}).feed_max_events == 150
    for value in ("0", "many", "100001"):
        with pytest.raises(ConfigError, match="EVENTCAL_FEED_MAX_EVENTS"):
            load_settings({"EVENTCAL_FEED_MAX_EVENTS": value})
