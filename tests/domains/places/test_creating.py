"""Creating venues and organizers, on their own routes and inline in event writes
(spec venues.md, organizers.md; DEVIATIONS #12–15)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import NS, Api
from tests.domains.places.helpers import BOTH, VENUES, Collection, create, make


@pytest.mark.parametrize("c", BOTH)
def test_create_returns_the_object_with_empty_fields_left_out(api: Api, c: Collection) -> None:
    response = create(api, c)
    assert response.status_code == 201, response.text
    body = response.json()
    assert body[c.name] == c.full[c.name]
    assert body["description"] == c.full["description"]
    assert body["slug"] == "philharmonie-berlin" if c is VENUES else "berlin-events-gmbh"
    assert body["url"] == f"http://127.0.0.1/{c.name}/{body['slug']}/"
    assert body["author"] == str(api.users["administrator"])
    assert body["global_id"] == f"127.0.0.1?id={body['id']}"
    assert "excerpt" not in body and "image" not in body and "json_ld" not in body
    minimal = create(api, c, **{c.name: "Minimal"}).json()
    for field in (*c.text_fields, "description", "excerpt", "image"):
        assert field not in minimal, field
    if c is VENUES:
        assert body["stateprovince"] == "Berlin"
        assert (body["show_map"], body["show_map_link"]) == (True, False)
        assert (minimal["show_map"], minimal["show_map_link"]) == (True, True)
        assert list(body)[-5:] == [
            "show_map",
            "show_map_link",
            "global_id",
            "global_id_lineage",
            "translations",
        ]
    else:
        assert "show_map" not in body
    assert response.headers["allow"] == "GET, POST"


@pytest.mark.parametrize("c", BOTH)
def test_creating_an_identical_item_returns_the_existing_one(api: Api, c: Collection) -> None:
    first = create(api, c).json()
    again = create(api, c)
    assert again.status_code == 201
    assert again.json()["id"] == first["id"]
    same_name = create(api, c, **{c.name: c.full[c.name].upper()}).json()
    assert same_name["id"] == first["id"]
    other_description = create(api, c, **{c.name: c.full[c.name], "description": "Other"}).json()
    assert other_description["id"] != first["id"]
    assert other_description["slug"].endswith("-2")


@pytest.mark.parametrize("c", BOTH)
def test_duplicate_detection_ignores_what_the_caller_may_not_see(api: Api, c: Collection) -> None:
    editor = api.user("editor")
    hidden = make(api, c, "Hidden Place", status="draft", author_id=editor)
    created = create(api, c, as_="contributor", **{c.name: "Hidden Place"}).json()
    assert created["id"] != hidden
    assert created["status"] == "draft"


def test_venue_state_province_rules(api: Api) -> None:
    us = create(api, VENUES, venue="US", state="DC", country="United States").json()
    assert us["stateprovince"] == "DC"
    canada = create(api, VENUES, venue="CA", state="", province="ON", country="Canada").json()
    assert canada["stateprovince"] == "ON"
    given = create(api, VENUES, venue="Given", state="NY", stateprovince="New York").json()
    assert given["stateprovince"] == "New York"


def test_venue_coordinates_and_natural_json(api: Api) -> None:
    body = create(
        api, VENUES, venue="Geo", latitude=52.5, longitude="13.4", show_map=False, zip=10785
    ).json()
    assert (body["geo_lat"], body["geo_lng"]) == (52.5, 13.4)
    assert body["show_map"] is False and body["zip"] == "10785"
    for field, value in (("latitude", 91), ("longitude", -181), ("latitude", "north")):
        extra: dict[str, Any] = {field: value}
        response = create(api, VENUES, venue="Bad", **extra)
        assert response.status_code == 400
        assert list(response.json()["data"]["params"]) == [field]


@pytest.mark.parametrize("c", BOTH)
@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("website", "not a url"),
        ("status", "kinda_thinking_about_it"),
        ("author", 99999),
        ("date", "foo"),
        ("image", "foo bar"),
        ("description", ["x"]),
    ],
)
def test_create_validation(api: Api, c: Collection, field: str, value: Any) -> None:
    response = create(api, c, **{c.name: "X", field: value})
    assert response.status_code == 400
    assert list(response.json()["data"]["params"]) == [field]


@pytest.mark.parametrize("c", BOTH)
def test_create_errors_and_permissions(api: Api, c: Collection) -> None:
    missing = api.post(c.path(), json={"city": "Nowhere"})
    assert missing.json() == {
        "code": "rest_missing_callback_param",
        "message": f"Missing parameter(s): {c.name}",
        "data": {"status": 400, "params": [c.name]},
    }
    assert create(api, c, **{c.name: ""}).status_code == 400
    assert create(api, c, as_=None).status_code == 401
    assert create(api, c, as_="subscriber").status_code == 403
    contributor = create(
        api, c, as_="contributor", **{c.name: "By contributor", "status": "publish"}
    )
    assert contributor.json()["status"] == "pending"
    draft = create(api, c, **{c.name: "Draft Place", "status": "draft"}).json()
    assert draft["slug"] == "draft-place"
    assert draft["url"].endswith(f"?post_type=tribe_{c.name}&p={draft['id']}")
    assert draft["date_utc"] == "0000-00-00 00:00:00"


@pytest.mark.parametrize("c", BOTH)
def test_inline_objects_in_event_writes(api: Api, c: Collection) -> None:
    existing = create(api, c).json()
    inline = {c.name: "Inline Place", "phone": "555-0400"}
    same = {c.name: c.full[c.name], "description": c.full["description"]}
    value: Any = inline if c is VENUES else [inline, same, {"id": existing["id"]}]
    event = api.post(
        f"{NS}/events",
        json={"title": "E", "start_date": "2027-01-15", "end_date": "2027-01-15", c.name: value},
    )
    assert event.status_code == 201, event.text
    body = event.json()
    if c is VENUES:
        assert body["venue"]["venue"] == "Inline Place" and body["venue"]["phone"] == "555-0400"
    else:
        assert [o["organizer"] for o in body["organizer"]] == ["Inline Place", c.full[c.name]]
        assert body["organizer"][1]["id"] == existing["id"]
    nameless = api.post(
        f"{NS}/events",
        json={
            "title": "E",
            "start_date": "2027-01-15",
            "end_date": "2027-01-15",
            c.name: {"city": "x"},
        },
    )
    assert nameless.status_code == 400
    assert list(nameless.json()["data"]["params"]) == [c.name]
    bad_website = api.post(
        f"{NS}/events",
        json={
            "title": "E",
            "start_date": "2027-01-15",
            "end_date": "2027-01-15",
            c.name: {c.name: "W", "website": "nope"},
        },
    )
    assert bad_website.status_code == 400
    total = api.get(c.path(), as_="administrator").json()["total"]
    assert total == 2
