"""Reading one event: ``GET /events/{id}`` and ``/events/by-slug/{slug}`` (spec events §3)."""

from __future__ import annotations

from typing import Any

import pytest

from tests import factories
from tests.conftest import NS, Api


def seed_reference(api: Api) -> dict[str, int]:
    """The recordings' event 6 "Reference Concert" with its venue, organizer and terms."""
    db = api.database
    ids: dict[str, int] = {}
    ids["admin"] = api.user("administrator", "admin")
    ids["venue"] = api.run(
        lambda: factories.make_venue(
            db,
            "Main Hall",
            author_id=ids["admin"],
            address="1 Main St",
            city="Springfield",
            country="United States",
            state="IL",
            zip="62701",
            phone="555-0100",
            website="http://example.test/hall",
            stateprovince="IL",
        )
    )
    ids["organizer"] = api.run(
        lambda: factories.make_organizer(
            db,
            "Jane Org",
            author_id=ids["admin"],
            phone="555-0200",
            website="http://example.test/jane",
            email="jane@example.test",
        )
    )
    ids["concerts"] = api.run(lambda: factories.make_term(db, "Concerts", description="Live music"))
    ids["live"] = api.run(lambda: factories.make_term(db, "live", taxonomy="post_tag"))
    ids["jazz"] = api.run(lambda: factories.make_term(db, "jazz", taxonomy="post_tag"))
    ids["event"] = api.run(
        lambda: factories.make_event(
            db,
            "Reference Concert",
            start="2026-12-15 19:00:00",
            end="2026-12-15 22:00:00",
            author_id=ids["admin"],
            description="<p>An evening of music.</p>",
            excerpt="<p>Music night</p>",
            featured=True,
            cost=["$10"],
            currency_symbol="$",
            currency_position="prefix",
            website="http://example.test/concert",
            venue_id=ids["venue"],
            organizer_ids=(ids["organizer"],),
            term_ids=(ids["concerts"], ids["live"], ids["jazz"]),
        )
    )
    return ids


def test_full_event_object_has_every_key_with_the_original_types(api: Api) -> None:
    ids = seed_reference(api)
    response = api.get(f"{NS}/events/{ids['event']}")
    assert response.status_code == 200
    body = response.json()
    assert list(body) == [
        "id",
        "global_id",
        "global_id_lineage",
        "author",
        "status",
        "date",
        "date_utc",
        "modified",
        "modified_utc",
        "url",
        "rest_url",
        "title",
        "description",
        "excerpt",
        "slug",
        "image",
        "all_day",
        "start_date",
        "start_date_details",
        "end_date",
        "end_date_details",
        "utc_start_date",
        "utc_start_date_details",
        "utc_end_date",
        "utc_end_date_details",
        "timezone",
        "timezone_abbr",
        "cost",
        "cost_details",
        "website",
        "show_map",
        "show_map_link",
        "hide_from_listings",
        "sticky",
        "featured",
        "categories",
        "tags",
        "venue",
        "organizer",
        "custom_fields",
        "event_status",
        "status_reason",
        "attendance_mode",
        "online_url",
        "recurrence",
        "recurrence_text",
        "series_id",
        "occurrence_start",
        "json_ld",
        "translations",
        "ical_url",
    ]
    event_id = ids["event"]
    assert body["id"] == event_id
    assert body["global_id"] == f"127.0.0.1?id={event_id}"
    assert body["author"] == str(ids["admin"])
    assert body["url"] == "http://127.0.0.1/event/reference-concert/"
    assert body["rest_url"] == f"http://127.0.0.1{NS}/events/{event_id}"
    assert body["description"] == "<p>An evening of music.</p>"
    assert body["start_date"] == "2026-12-15 19:00:00"
    assert body["start_date_details"] == {
        "year": "2026",
        "month": "12",
        "day": "15",
        "hour": "19",
        "minutes": "00",
        "seconds": "00",
    }
    assert body["utc_end_date"] == "2026-12-15 22:00:00"
    assert (body["timezone"], body["timezone_abbr"]) == ("UTC", "UTC")
    assert body["cost"] == "$10"
    assert body["cost_details"] == {
        "currency_symbol": "$",
        "currency_code": "",
        "currency_position": "prefix",
        "values": ["10"],
    }
    assert body["image"] is False
    assert body["featured"] is True and body["sticky"] is False
    assert [c["slug"] for c in body["categories"]] == ["concerts"]
    assert body["categories"][0]["count"] == 1
    assert body["categories"][0]["urls"] == {
        "self": f"http://127.0.0.1{NS}/categories/{ids['concerts']}",
        "collection": f"http://127.0.0.1{NS}/categories",
    }
    assert [t["name"] for t in body["tags"]] == ["jazz", "live"]
    venue = body["venue"]
    assert venue["venue"] == "Main Hall" and venue["stateprovince"] == "IL"
    assert "province" not in venue and "description" not in venue
    assert venue["json_ld"]["@type"] == "Place"
    assert [o["organizer"] for o in body["organizer"]] == ["Jane Org"]
    assert body["json_ld"]["@type"] == "Event"
    assert body["json_ld"]["startDate"] == "2026-12-15T19:00:00+00:00"
    assert body["custom_fields"] == []


def test_unknown_id_is_404_and_another_kind_of_item_is_400(api: Api) -> None:
    ids = seed_reference(api)
    missing = api.get(f"{NS}/events/99999")
    assert missing.status_code == 404
    assert missing.json() == {
        "code": "rest-event-not-found",
        "message": "Event with ID 99999 does not exist.",
        "data": {"status": 404},
    }
    assert missing.headers["allow"] == "GET"
    venue = api.get(f"{NS}/events/{ids['venue']}")
    assert venue.status_code == 400
    assert venue.json()["code"] == "rest-invalid-event-id"
    assert api.get(f"{NS}/events/abc").json()["code"] == "rest_no_route"
    assert api.get(f"{NS}/events/99999999999999999999").status_code == 404


@pytest.mark.parametrize("status", ["draft", "pending", "private"])
def test_unpublished_events_are_hidden_from_anonymous_callers(api: Api, status: str) -> None:
    event_id = api.run(lambda: factories.make_event(api.database, "Hidden", status=status))
    anonymous = api.get(f"{NS}/events/{event_id}")
    assert anonymous.status_code == 403
    assert anonymous.json()["code"] == "event-not-accessible"
    admin = api.get(f"{NS}/events/{event_id}", as_="administrator")
    assert admin.status_code == 200
    assert admin.json()["status"] == status


def test_trashed_event_is_no_longer_available_even_for_administrators(api: Api) -> None:
    event_id = api.run(lambda: factories.make_event(api.database, "Gone", status="trash"))
    for role in (None, "administrator"):
        response = api.get(f"{NS}/events/{event_id}", as_=role)
        assert response.status_code == 403
        assert response.json()["code"] == "event-no-longer-available"


def test_password_protected_event_needs_the_password_or_edit_context(api: Api) -> None:
    event_id = api.run(
        lambda: factories.make_event(
            api.database, "Secret Rehearsal", post_password="s3cret", description="Closed."
        )
    )
    for query, role in (("", None), ("?password=wrong", None), ("", "administrator")):
        response = api.get(f"{NS}/events/{event_id}{query}", as_=role)
        assert response.status_code == 403, query
        assert response.json()["code"] == "event-password-protected"
    right = api.get(f"{NS}/events/{event_id}?password=s3cret")
    assert right.status_code == 200
    assert right.json()["description"] == "<p>Closed.</p>"
    assert "json_ld" not in right.json()
    edit = api.get(f"{NS}/events/{event_id}?context=edit", as_="administrator")
    assert edit.status_code == 200
    assert "post_password" not in edit.json()
    empty_password = api.get(f"{NS}/events/{event_id}?password=")
    assert empty_password.status_code == 400
    assert empty_password.json()["data"]["params"] == {"password": "Invalid parameter."}


def test_by_slug_reads_the_same_event_and_refuses_unknown_slugs(api: Api) -> None:
    ids = seed_reference(api)
    by_id = api.get(f"{NS}/events/{ids['event']}").json()
    by_slug = api.get(f"{NS}/events/by-slug/reference-concert")
    assert by_slug.status_code == 200
    assert by_slug.json() == by_id
    assert api.get(f"{NS}/events/by-slug/Reference-Concert/").json()["id"] == ids["event"]
    unknown = api.get(f"{NS}/events/by-slug/no-such-event")
    assert unknown.status_code == 400
    assert unknown.json()["data"]["params"] == {"slug": "Invalid parameter."}
    venue_slug = api.get(f"{NS}/events/by-slug/main-hall")
    assert venue_slug.status_code == 400
    assert api.get(f"{NS}/events/by-slug/").json()["code"] == "rest_no_route"


def test_by_slug_applies_visibility_rules(api: Api) -> None:
    api.run(
        lambda: factories.make_event(api.database, "Draft One", status="draft", slug="draft-one")
    )
    assert api.get(f"{NS}/events/by-slug/draft-one").json()["code"] == "event-not-accessible"
    assert api.get(f"{NS}/events/by-slug/draft-one", as_="administrator").status_code == 200


def test_fields_and_envelope(api: Api) -> None:
    ids = seed_reference(api)
    fields = api.get(f"{NS}/events/{ids['event']}?_fields=id,title,start_date,venue.venue")
    assert fields.json() == {
        "id": ids["event"],
        "title": "Reference Concert",
        "start_date": "2026-12-15 19:00:00",
        "venue": {"venue": "Main Hall"},
    }
    envelope = api.get(f"{NS}/events/99999?_envelope=1")
    assert envelope.status_code == 200
    assert envelope.json() == {
        "body": {
            "code": "rest-event-not-found",
            "message": "Event with ID 99999 does not exist.",
            "data": {"status": 404},
        },
        "status": 404,
        "headers": {"Allow": "GET"},
    }
    error_fields = api.get(f"{NS}/events/99999?_fields=id")
    assert error_fields.json()["code"] == "rest-event-not-found"


def event_body(api: Api, event_id: int, **kwargs: Any) -> Any:
    return api.get(f"{NS}/events/{event_id}", **kwargs).json()
