"""Venues and organizers (spec venues.md, organizers.md; DEVIATIONS #1, #2, #10, #12–15, #18).

Both collections run on the same generic routes; each test runs for both, from a small
declaration per collection (STYLE habit 12)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from tests import factories
from tests.conftest import NS, Api


@dataclass(frozen=True)
class Collection:
    name: str
    plural: str
    full: dict[str, Any]
    text_fields: tuple[str, ...]
    search_hit: tuple[str, str]
    """(field, value) that search must find by a fragment of it."""

    def path(self, suffix: str = "") -> str:
        return f"{NS}/{self.plural}{suffix}"


VENUES = Collection(
    "venue",
    "venues",
    {
        "venue": "Philharmonie Berlin",
        "description": "<p>Concert hall in Tiergarten.</p>",
        "address": "Herbert-von-Karajan-Str. 1",
        "city": "Berlin",
        "country": "Germany",
        "province": "Berlin",
        "zip": "10785",
        "phone": "+49 30 254880",
        "website": "https://example.test/philharmonie",
        "show_map": "true",
        "show_map_link": "false",
    },
    ("address", "city", "country", "province", "state", "zip", "phone", "website"),
    ("zip", "223345"),
)
ORGANIZERS = Collection(
    "organizer",
    "organizers",
    {
        "organizer": "Berlin Events GmbH",
        "description": "<p>Promoter.</p>",
        "phone": "+49 30 1234567",
        "website": "https://example.test/berlin-events",
        "email": "info@example.test",
    },
    ("phone", "website", "email"),
    ("email", "three@three.com"),
)
BOTH = [pytest.param(VENUES, id="venues"), pytest.param(ORGANIZERS, id="organizers")]


def create(api: Api, c: Collection, as_: str | None = "administrator", **fields: Any) -> Any:
    return api.post(c.path(), json=fields or dict(c.full), as_=as_)


def make(api: Api, c: Collection, name: str, **fields: Any) -> int:
    maker = factories.make_venue if c is VENUES else factories.make_organizer
    return api.run(lambda: maker(api.database, name, **fields))


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
def test_read_by_id_and_slug(api: Api, c: Collection) -> None:
    created = create(api, c).json()
    by_id = api.get(c.path(f"/{created['id']}"))
    assert by_id.status_code == 200
    body = by_id.json()
    assert body["json_ld"]["@type"] == ("Place" if c is VENUES else "Person")
    assert list(body)[-3:] == ["global_id", "global_id_lineage", "translations"]
    assert api.get(c.path(f"/by-slug/{created['slug']}")).json() == body
    event_id = api.run(lambda: factories.make_event(api.database, "Event"))
    for path in (c.path("/99999"), c.path(f"/{event_id}")):
        wrong = api.get(path)
        assert wrong.status_code == 400
        assert wrong.json()["data"]["params"] == {"id": "Invalid parameter."}
    unknown_slug = api.get(c.path("/by-slug/event"))
    assert unknown_slug.json()["data"]["params"] == {"slug": "Invalid parameter."}
    assert api.get(c.path("/abc")).json()["code"] == "rest_no_route"


@pytest.mark.parametrize("c", BOTH)
def test_unpublished_items_are_not_accessible_to_others(api: Api, c: Collection) -> None:
    contributor = api.user("contributor")
    draft = make(api, c, "Draft Place", status="draft")
    own = make(api, c, "Own Draft", status="draft", author_id=contributor)
    denied = api.get(c.path(f"/{draft}"))
    assert denied.status_code == 403
    assert denied.json() == {
        "code": f"{c.name}-not-accessible",
        "message": f"The requested {c.name} is not accessible",
        "data": {"status": 403},
    }
    assert api.get(c.path(f"/{draft}"), as_="editor").status_code == 200
    assert api.get(c.path(f"/{draft}"), as_="contributor").status_code == 403
    assert api.get(c.path(f"/{own}"), as_="contributor").status_code == 200


@pytest.mark.parametrize("c", BOTH)
@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_update_changes_only_the_fields_sent(api: Api, c: Collection, method: str) -> None:
    created = create(api, c).json()
    response = api.request(
        method, c.path(f"/{created['id']}"), json={"phone": "555-0301"}, as_="administrator"
    )
    assert response.status_code == 200
    body = response.json()
    assert body["phone"] == "555-0301"
    unchanged = {k: v for k, v in created.items() if k not in ("phone", "modified", "modified_utc")}
    assert {k: v for k, v in body.items() if k in unchanged} == unchanged
    cleared = api.patch(
        c.path(f"/{created['id']}"), json={"phone": "", "website": "", "description": ""}
    )
    for field in ("phone", "website", "description"):
        assert field not in cleared.json()
    renamed = api.patch(c.path(f"/by-slug/{created['slug']}"), json={c.name: "Renamed"}).json()
    assert (renamed[c.name], renamed["slug"]) == ("Renamed", created["slug"])


@pytest.mark.parametrize("c", BOTH)
def test_update_errors_and_per_item_permissions(api: Api, c: Collection) -> None:
    contributor = api.user("contributor")
    admin_item = create(api, c).json()
    own = make(api, c, "Own", status="draft", author_id=contributor)
    unknown = api.patch(c.path("/99999"), json={c.name: "Ghost"})
    assert unknown.status_code == 400
    assert unknown.json()["data"]["params"] == {"id": "Invalid parameter."}
    assert (
        api.patch(c.path(f"/{admin_item['id']}"), json={c.name: "x"}, as_=None).status_code == 401
    )
    for path in (c.path(f"/{admin_item['id']}"), c.path(f"/by-slug/{admin_item['slug']}")):
        assert api.patch(path, json={c.name: "x"}, as_="contributor").status_code == 403
        assert api.delete(path, as_="contributor").status_code == 403
    assert api.patch(c.path(f"/{own}"), json={c.name: "Mine"}, as_="contributor").status_code == 200
    assert api.patch(c.path(f"/{admin_item['id']}"), json={c.name: ""}).status_code == 400


@pytest.mark.parametrize("c", BOTH)
def test_trash_unlinks_only_that_item_from_every_event(api: Api, c: Collection) -> None:
    keep = make(api, c, "Keep")
    gone = make(api, c, "Gone")
    if c is VENUES:
        first = api.run(lambda: factories.make_event(api.database, "A", venue_id=gone))
        second = api.run(lambda: factories.make_event(api.database, "B", venue_id=keep))
    else:
        first = api.run(lambda: factories.make_event(api.database, "A", organizer_ids=(gone, keep)))
        second = api.run(lambda: factories.make_event(api.database, "B", organizer_ids=(gone,)))
    response = api.delete(c.path(f"/{gone}"))
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["slug"]) == ("trash", "gone__trashed")
    a = api.get(f"{NS}/events/{first}").json()
    b = api.get(f"{NS}/events/{second}").json()
    if c is VENUES:
        assert a["venue"] == [] and b["venue"]["id"] == keep
    else:
        assert [o["id"] for o in a["organizer"]] == [keep] and b["organizer"] == []
    again = api.delete(c.path(f"/{gone}"))
    assert again.status_code == 410
    assert again.json()["code"] == f"{c.name}-is-in-trash"
    assert api.get(c.path(f"/{gone}")).status_code == 403
    admin_view = api.get(c.path(f"/{gone}"), as_="administrator")
    assert admin_view.status_code == 200 and admin_view.json()["status"] == "trash"
    assert api.delete(c.path("/99999"), as_=None).status_code == 400
    assert api.delete(c.path(f"/{keep}"), as_=None).status_code == 401
    by_slug = api.delete(c.path("/by-slug/keep"))
    assert by_slug.json()["status"] == "trash"
    assert api.delete(c.path("/by-slug/keep")).status_code == 400


@pytest.mark.parametrize("c", BOTH)
def test_archive_order_pagination_and_visibility(api: Api, c: Collection) -> None:
    from datetime import UTC, datetime, timedelta

    base = datetime(2026, 11, 1, tzinfo=UTC)
    ids = [make(api, c, f"Item {i}", published_at=base + timedelta(days=i)) for i in range(5)]
    draft = make(api, c, "Draft", status="draft", published_at=base + timedelta(days=9))
    first = api.get(c.path("?per_page=2"))
    body = first.json()
    assert list(body) == [c.plural, "rest_url", "next_rest_url", "total", "total_pages"]
    assert [i["id"] for i in body[c.plural]] == [ids[4], ids[3]]
    assert (body["total"], body["total_pages"]) == (5, 3)
    assert first.headers["x-tec-total"] == "5"
    second = api.get(c.path("?per_page=2&page=2")).json()
    assert [i["id"] for i in second[c.plural]] == [ids[2], ids[1]]
    assert "page" not in dict(parse_qsl(urlsplit(second["previous_rest_url"]).query))
    assert api.get(c.path("?page=9")).json()["code"] == f"{c.name}-archive-page-not-found"
    admin = api.get(c.path(), as_="administrator").json()
    assert admin[c.plural][0]["id"] == draft
    assert "status=any" in admin["rest_url"]
    assert [i["id"] for i in api.get(c.path("?status=draft"), as_="editor").json()[c.plural]] == [
        draft
    ]
    assert api.get(c.path("?status=draft")).status_code == 400
    assert api.get(c.path("?per_page=0")).status_code == 400


@pytest.mark.parametrize("c", BOTH)
def test_search_matches_every_fragment_in_one_field_and_totals_follow(
    api: Api, c: Collection
) -> None:
    field, value = c.search_hit
    hit = make(api, c, "First Place", **{field: value})
    also = make(api, c, "Venue foo")
    make(api, c, "Venue baz")
    found = api.get(c.path(f"?search={value[:5]}")).json()
    assert [i["id"] for i in found[c.plural]] == [hit]
    assert found["total"] == 1
    assert [i["id"] for i in api.get(c.path("?search=Venue foo")).json()[c.plural]] == [also]
    nothing = api.get(c.path("?search=zoot")).json()
    assert (nothing[c.plural], nothing["total"], nothing["total_pages"]) == ([], 0, 0)
    assert api.get(c.path("?search=%25")).json()["total"] == 0
    assert "search=" in found["rest_url"]


@pytest.mark.parametrize("c", BOTH)
def test_relation_filters(api: Api, c: Collection) -> None:
    db = api.database
    linked = make(api, c, "Linked")
    only_draft = make(api, c, "Only Draft Events")
    unused = make(api, c, "Unused")
    past = make(api, c, "Past")

    def event(title: str, item: int, **fields: Any) -> int:
        link = {"venue_id": item} if c is VENUES else {"organizer_ids": (item,)}
        return api.run(lambda: factories.make_event(db, title, **link, **fields))

    upcoming = event("Upcoming", linked, start="2026-12-01 10:00:00")
    event("Draft", only_draft, status="draft", start="2026-12-02 10:00:00")
    event("Past", past, start="2026-10-01 10:00:00")

    def ids(response: Any) -> list[int]:
        return sorted(i["id"] for i in response.json()[c.plural])

    assert ids(api.get(c.path(f"?event={upcoming}"))) == [linked]
    assert ids(api.get(c.path("?has_events=true"))) == sorted([linked, past])
    assert ids(api.get(c.path("?has_events=0"))) == sorted([only_draft, unused])
    assert ids(api.get(c.path("?only_with_upcoming=yes"))) == [linked]
    assert ids(api.get(c.path("?only_with_upcoming=false"))) == sorted(
        [linked, only_draft, unused, past]
    )
    assert ids(api.get(c.path("?only_with_upcoming=1"), as_="editor")) == sorted(
        [linked, only_draft]
    )
    assert api.get(c.path("?event=99999")).status_code == 400
    assert "event=" in api.get(c.path(f"?event={upcoming}")).json()["rest_url"]


@pytest.mark.parametrize("c", BOTH)
def test_password_protected_items_keep_their_name(api: Api, c: Collection) -> None:
    created = create(api, c, **{**c.full, "post_password": "pw"}).json()
    assert created["description"] == c.full["description"]
    public = api.get(c.path(f"/{created['id']}")).json()
    assert public[c.name] == c.full[c.name]
    assert "description" not in public and "json_ld" not in public and "pw" not in str(public)
    assert (
        api.get(c.path(f"/{created['id']}?password=pw")).json()["description"]
        == c.full["description"]
    )
    listed = api.get(c.path()).json()[c.plural][0]
    assert "description" not in listed


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


def test_index_and_doc_list_the_new_routes(api: Api) -> None:
    routes = api.get(NS).json()["routes"]
    expected = [
        "/cal/events/v1/venues",
        "/cal/events/v1/venues/(?P<id>\\d+)",
        "/cal/events/v1/venues/by-slug/(?P<slug>[^/]+)",
        "/cal/events/v1/organizers",
        "/cal/events/v1/organizers/(?P<id>\\d+)",
        "/cal/events/v1/organizers/by-slug/(?P<slug>[^/]+)",
    ]
    assert list(routes)[5:11] == expected
    create_args = routes["/cal/events/v1/venues"]["endpoints"][1]["args"]
    assert create_args["venue"]["required"] is True
    assert {"latitude", "longitude", "post_password"} <= set(create_args)
    doc = api.get(f"{NS}/doc").json()
    assert {"/venues", "/venues/{id}", "/organizers/by-slug/{slug}"} <= set(doc["paths"])
