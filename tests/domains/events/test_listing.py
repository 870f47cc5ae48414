"""``GET /events``: the window, totals, pages and their links, bad parameters
(spec events §2)."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

import pytest

from tests import factories
from tests.conftest import NS, Api
from tests.domains.events.listing_helpers import listed, query_of, seed_days


def test_default_listing_window_totals_headers_and_links(api: Api) -> None:
    ids = seed_days(api, 12)
    past = api.run(lambda: factories.make_event(api.database, "Past", start="2026-11-01 10:00:00"))
    far = api.run(lambda: factories.make_event(api.database, "Far", start="2029-01-01 10:00:00"))
    response = api.get(f"{NS}/events?per_page=5")
    assert response.status_code == 200
    body = response.json()
    assert list(body) == [
        "events",
        "rest_url",
        "next_rest_url",
        "total",
        "total_pages",
        "ical_url",
        "webcal_url",
    ]
    assert [e["id"] for e in body["events"]] == ids[:5]
    assert past not in listed(response) and far not in listed(response)
    assert (body["total"], body["total_pages"]) == (12, 3)
    assert response.headers["x-tec-total"] == "12"
    assert response.headers["x-tec-totalpages"] == "3"
    assert query_of(body["rest_url"]) == {
        "page": "1",
        "per_page": "5",
        "start_date": "2026-11-21 00:00:00",
        "end_date": "2028-11-22 23:59:59",
        "status": "publish",
    }
    assert body["rest_url"].startswith(f"http://127.0.0.1{NS}/events/?")
    assert query_of(body["next_rest_url"])["page"] == "2"
    assert "json_ld" not in body["events"][0]


def test_pages_previous_and_next_links_and_page_past_the_end(api: Api) -> None:
    ids = seed_days(api, 12)
    second = api.get(f"{NS}/events?per_page=5&page=2").json()
    assert [e["id"] for e in second["events"]] == ids[5:10]
    assert "page" not in query_of(second["previous_rest_url"])
    assert query_of(second["next_rest_url"])["page"] == "3"
    last = api.get(f"{NS}/events?per_page=5&page=3").json()
    assert "next_rest_url" not in last
    assert query_of(last["previous_rest_url"])["page"] == "2"
    past_end = api.get(f"{NS}/events?per_page=5&page=4")
    assert past_end.status_code == 404
    assert past_end.json() == {
        "code": "event-archive-page-not-found",
        "message": "The requested event archive page does not exist",
        "data": {"status": 404},
    }


def test_empty_first_page_is_200_without_links(api: Api) -> None:
    response = api.get(f"{NS}/events")
    assert response.status_code == 200
    body = response.json()
    assert body["events"] == [] and body["total"] == 0 and body["total_pages"] == 0
    assert "next_rest_url" not in body and "previous_rest_url" not in body


@pytest.mark.parametrize(("value", "expected"), [("1", 1), ("51", 50), ("50", 50), ("7", 7)])
def test_per_page_is_capped_at_50(api: Api, value: str, expected: int) -> None:
    seed_days(api, 3)
    body = api.get(f"{NS}/events?per_page={value}").json()
    assert query_of(body["rest_url"])["per_page"] == str(expected)
    assert body["total_pages"] == -(-3 // expected)


@pytest.mark.parametrize(
    "query",
    [
        "per_page=0",
        "per_page=-1",
        "per_page=abc",
        "per_page=",
        "page=0",
        "page=1.5",
        "page=99999999999",
        "start_date=notadate",
        "end_date=",
        "starts_after=foo",
        "search=",
        "categories=nope",
        "categories=",
        "venue=99999",
        "venue=",
        "organizer=abc",
        "featured=yes",
        "featured=",
        "status=draft",
        "status=any",
        "include=foo-bar,23,89",
        "include=",
        "post_parent=0",
        "post_parent=99999",
        "post_parent=foo",
        "geoloc=maybe",
        "geoloc_lat=100&geoloc_lng=0",
        "geoloc_lat=52.5",
        "ticketed=perhaps",
        "strict_dates=",
        "translation_language=fr",
    ],
)
def test_bad_parameters_are_400_naming_the_parameter(api: Api, query: str) -> None:
    response = api.get(f"{NS}/events?{query}")
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "rest_invalid_param"
    name = query.split("=", 1)[0]
    assert name in body["data"]["params"]
    assert body["message"].startswith("Invalid parameter(s): ")
    assert response.headers["allow"] == "GET"


def test_several_bad_parameters_are_reported_together_in_declaration_order(api: Api) -> None:
    body = api.get(f"{NS}/events?per_page=0&page=0&featured=x").json()
    assert body["message"] == "Invalid parameter(s): page, per_page, featured"
    assert body["data"]["params"] == {
        "page": "Invalid parameter.",
        "per_page": "Invalid parameter.",
        "featured": "featured is not of type boolean.",
    }
    assert body["data"]["details"] == {
        "featured": {
            "code": "rest_invalid_type",
            "message": "featured is not of type boolean.",
            "data": {"param": "featured"},
        },
        **{
            name: {
                "code": "rest_invalid_param",
                "message": f"{name} must be a whole number from 1 to 2147483647.",
                "data": {"param": name},
            }
            for name in ("page", "per_page")
        },
    }


def test_whole_day_window_and_strict_mode(api: Api) -> None:
    ids = seed_days(api, 12)
    # 2026-12-01: 09:00-10:30, 11:00-12:30, 13:00-14:30, 15:00-16:30
    day = api.get(f"{NS}/events?start_date=2026-12-01&end_date=2026-12-02")
    assert listed(day) == ids[:8]
    assert query_of(day.json()["rest_url"])["end_date"] == "2026-12-02 23:59:59"
    widened = api.get(f"{NS}/events?start_date=2026-12-01 12:00:00&end_date=2026-12-01 14:00:00")
    assert listed(widened) == ids[:4]
    strict = api.get(
        f"{NS}/events?start_date=2026-12-01 10:30:00&end_date=2026-12-01 14:30:00&strict_dates=true"
    )
    assert listed(strict) == ids[1:3]
    assert query_of(strict.json()["rest_url"])["strict_dates"] == "true"
    overlap_only = api.get(
        f"{NS}/events?start_date=2026-12-01 12:00:00&end_date=2026-12-01 12:10:00&strict_dates=1"
    )
    assert listed(overlap_only) == []
    date_only_strict = api.get(
        f"{NS}/events?start_date=2026-12-01&end_date=2026-12-02&strict_dates=yes"
    )
    assert listed(date_only_strict) == ids[:4]
    backwards = api.get(f"{NS}/events?start_date=2027-01-10&end_date=2027-01-01")
    assert backwards.status_code == 200 and listed(backwards) == []
    timestamp = api.get(f"{NS}/events?start_date=1796083200&end_date=2026-12-01 23:59:59")
    assert listed(timestamp) == ids[:4]


def test_relative_date_filters_drop_the_default_window(api: Api) -> None:
    ids = seed_days(api, 8)
    past = api.run(lambda: factories.make_event(api.database, "Past", start="2026-10-01 10:00:00"))
    before = api.get(f"{NS}/events?starts_before=2026-12-01")
    assert listed(before) == [past, *ids[:4]]
    assert query_of(before.json()["rest_url"]) == {
        "page": "1",
        "per_page": "10",
        "status": "publish",
        "starts_before": "2026-12-01 23:59:59",
    }
    after = api.get(f"{NS}/events?starts_after=2026-12-01")
    assert listed(after) == ids[4:]
    strict_before = api.get(f"{NS}/events?starts_before=2026-12-01 13:00:00&strict_dates=true")
    assert listed(strict_before) == [past, *ids[:2]]
    ends_before = api.get(f"{NS}/events?ends_before=2026-12-01")
    assert listed(ends_before) == [past, *ids[:4]]
    ends_after = api.get(f"{NS}/events?ends_after=2026-12-01")
    assert listed(ends_after) == ids[4:]
    combined = api.get(
        f"{NS}/events?starts_after=2026-12-01 12:00:00&start_date=2026-12-01"
        "&end_date=2026-12-01 23:59:59&strict_dates=true"
    )
    assert listed(combined) == ids[2:4]


def test_default_window_starts_at_the_start_of_yesterday(api: Api) -> None:
    yesterday = api.run(
        lambda: factories.make_event(api.database, "Y", start="2026-11-21 00:30:00")
    )
    two_days = api.run(lambda: factories.make_event(api.database, "Z", start="2026-11-20 23:30:00"))
    assert listed(api.get(f"{NS}/events")) == [yesterday]
    assert two_days not in listed(api.get(f"{NS}/events"))


def test_events_must_lie_entirely_inside_the_window(api: Api) -> None:
    spanning = api.run(
        lambda: factories.make_event(
            api.database, "Spanning", start="2027-01-14 20:00:00", end="2027-01-15 02:00:00"
        )
    )
    inside = api.run(
        lambda: factories.make_event(api.database, "Inside", start="2027-01-15 10:00:00")
    )
    assert listed(api.get(f"{NS}/events?start_date=2027-01-15&end_date=2027-01-15")) == [inside]
    assert spanning in listed(api.get(f"{NS}/events?start_date=2027-01-14&end_date=2027-01-15"))


def test_query_count_does_not_grow_with_the_page_size(api: Api) -> None:
    api.client.app.state.runtime.items.max_bytes = 0  # type: ignore[attr-defined]  # built
    db = api.database
    hall = api.run(lambda: factories.make_venue(db, "Hall"))
    jane = api.run(lambda: factories.make_organizer(db, "Jane"))
    tag = api.run(lambda: factories.make_term(db, "t", taxonomy="post_tag"))
    cat = api.run(lambda: factories.make_term(db, "c"))
    image = api.run(lambda: factories.make_media(db, "https://cdn.example.test/a.png"))
    for i in range(60):
        api.run(
            partial(
                factories.make_event,
                db,
                f"E{i}",
                start=datetime(2026, 12, 1, 9) + timedelta(hours=i),
                venue_id=hall,
                organizer_ids=(jane,),
                term_ids=(tag, cat),
                image_id=image,
            )
        )
    counts = []
    for per_page in (1, 50):
        before = api.statements
        response = api.get(f"{NS}/events?per_page={per_page}")
        assert len(response.json()["events"]) == per_page
        counts.append(api.statements - before)
    assert counts[0] == counts[1]
    # data version, count, page, venues, organizers, terms, media, translations
    assert counts[0] <= 8
