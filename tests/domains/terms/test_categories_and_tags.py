"""Categories and tags (spec terms.md; DEVIATIONS #9, #19, #21). Each test runs for both
collections from one declaration, except where they differ (tags have no parent)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from tests import factories
from tests.conftest import NS, Api


@dataclass(frozen=True)
class Terms:
    plural: str
    taxonomy: str
    url_base: str
    hierarchical: bool
    manager: str
    """The weakest role that may write (author for categories, editor for tags)."""

    def path(self, suffix: str = "") -> str:
        return f"{NS}/{self.plural}{suffix}"


CATEGORIES = Terms("categories", "tribe_events_cat", "events/category", True, "author")
TAGS = Terms("tags", "post_tag", "tag", False, "editor")
BOTH = [pytest.param(CATEGORIES, id="categories"), pytest.param(TAGS, id="tags")]


def make(api: Api, t: Terms, name: str, **fields: Any) -> int:
    return api.run(lambda: factories.make_term(api.database, name, taxonomy=t.taxonomy, **fields))


def ids(response: Any, t: Terms) -> list[int]:
    return [item["id"] for item in response.json()[t.plural]]


@pytest.mark.parametrize("t", BOTH)
def test_create_read_and_the_term_object(api: Api, t: Terms) -> None:
    response = api.post(t.path(), json={"name": "Festivals", "description": "Outdoor festivals"})
    assert response.status_code == 201, response.text
    body = response.json()
    term_id = body["id"]
    expected = {
        "id": term_id,
        "count": 0,
        "description": "Outdoor festivals",
        "name": "Festivals",
        "slug": "festivals",
        "taxonomy": t.taxonomy,
        **({"parent": 0} if t.hierarchical else {}),
        "meta": [],
        "url": f"http://127.0.0.1/{t.url_base}/festivals/",
        "urls": {
            "self": f"http://127.0.0.1{t.path(f'/{term_id}')}",
            "collection": f"http://127.0.0.1{t.path()}",
        },
        "translations": ["en"],
    }
    assert body == expected
    assert list(body) == list(expected)
    assert response.headers["location"] == f"http://127.0.0.1{t.path(f'/{term_id}')}"
    assert api.get(t.path(f"/{term_id}")).json() == expected
    named = api.post(t.path(), json={"name": "Rock & Roll"}).json()
    assert (named["name"], named["slug"]) == ("Rock & Roll", "rock-roll")


def test_child_categories_have_parent_links_and_nested_urls(api: Api) -> None:
    parent = api.post(CATEGORIES.path(), json={"name": "Festivals"}).json()["id"]
    child = api.post(CATEGORIES.path(), json={"name": "Jazz Nights", "parent": parent}).json()
    assert child["parent"] == parent
    assert child["url"] == "http://127.0.0.1/events/category/festivals/jazz-nights/"
    assert child["urls"]["up"] == f"http://127.0.0.1{CATEGORIES.path(f'/{parent}')}"


@pytest.mark.parametrize("t", BOTH)
def test_duplicate_names_and_slugs_on_create(api: Api, t: Terms) -> None:
    first = api.post(t.path(), json={"name": "Festivals", "slug": "festivals"}).json()
    duplicate = api.post(t.path(), json={"name": "festivals"})
    assert duplicate.status_code == 400
    message = (
        "A term with the name provided already exists with this parent."
        if t.hierarchical
        else "A term with the name provided already exists in this taxonomy."
    )
    assert duplicate.json() == {
        "code": "term_exists",
        "message": message,
        "data": {"status": 400, "term_id": first["id"]},
        "additional_data": [first["id"], first["id"]],
    }
    other = api.post(t.path(), json={"name": "Summer Festivals", "slug": "festivals"}).json()
    assert other["slug"] == "festivals-2"
    distinct_slug = api.post(t.path(), json={"name": "Festivals", "slug": "fests"})
    assert distinct_slug.status_code == 201


def test_same_category_name_under_another_parent_is_allowed(api: Api) -> None:
    a = api.post(CATEGORIES.path(), json={"name": "A"}).json()["id"]
    b = api.post(CATEGORIES.path(), json={"name": "B"}).json()["id"]
    first = api.post(CATEGORIES.path(), json={"name": "Kids", "parent": a})
    second = api.post(CATEGORIES.path(), json={"name": "Kids", "parent": b})
    assert first.status_code == second.status_code == 201
    assert second.json()["slug"] == "kids-2"


@pytest.mark.parametrize("t", BOTH)
def test_create_validation_and_permissions(api: Api, t: Terms) -> None:
    missing = api.post(t.path(), json={"description": "no name"})
    assert missing.json()["data"]["params"] == ["name"]
    bad_bodies: list[dict[str, Any]] = [
        {"name": ""},
        {"name": "X", "slug": ""},
        {"name": ["x"]},
        {"name": "X", "description": ["not", "text"]},
    ]
    for body in bad_bodies:
        response = api.post(t.path(), json=body)
        assert response.status_code == 400, body
    assert api.post(t.path(), json={"name": "Anon"}, as_=None).status_code == 401
    assert api.post(t.path(), json={"name": "Sub"}, as_="subscriber").status_code == 403
    assert api.post(t.path(), json={"name": "Con"}, as_="contributor").status_code == 403
    assert api.post(t.path(), json={"name": "Managed"}, as_=t.manager).status_code == 201
    if t is TAGS:
        assert api.post(t.path(), json={"name": "Auth"}, as_="author").status_code == 403
        with_parent = api.post(t.path(), json={"name": "Child Tag", "parent": 3})
        assert with_parent.json() == {
            "code": "rest_taxonomy_not_hierarchical",
            "message": "Cannot set parent term, taxonomy is not hierarchical.",
            "data": {"status": 400},
        }
    else:
        bad_parent = api.post(t.path(), json={"name": "Orphan", "parent": 99999})
        assert bad_parent.json()["data"]["params"] == {"parent": "Invalid parameter."}
        tag = make(api, TAGS, "not a category")
        assert api.post(t.path(), json={"name": "Orphan", "parent": tag}).status_code == 400


@pytest.mark.parametrize("t", BOTH)
@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH"])
def test_update_changes_the_fields_sent(api: Api, t: Terms, method: str) -> None:
    term_id = make(api, t, "Workshops", description="Old")
    renamed = api.request(
        method, t.path(f"/{term_id}"), json={"name": "Workshops & Classes"}, as_="administrator"
    )
    assert renamed.status_code == 200
    assert (renamed.json()["name"], renamed.json()["slug"]) == ("Workshops & Classes", "workshops")
    assert renamed.json()["description"] == "Old"
    slug = api.patch(t.path(f"/{term_id}"), json={"slug": "Workshops Classes"}).json()
    assert slug["slug"] == "workshops-classes"
    cleared = api.patch(t.path(f"/{term_id}"), json={"description": ""}).json()
    assert cleared["description"] == ""


@pytest.mark.parametrize("t", BOTH)
def test_update_errors(api: Api, t: Terms) -> None:
    taken = make(api, t, "Taken")
    term_id = make(api, t, "Mine")
    duplicate = api.patch(t.path(f"/{term_id}"), json={"slug": "taken"})
    assert duplicate.status_code == 400
    assert duplicate.json() == {
        "code": "duplicate_term_slug",
        "message": "The slug \u201ctaken\u201d is already in use by another term.",
        "data": {"status": 400},
    }
    assert api.get(t.path(f"/{term_id}")).json()["slug"] == "mine"
    assert taken
    unknown = api.patch(t.path("/99999"), json={"name": "Ghost"})
    assert unknown.json()["data"]["params"] == {"id": "Invalid parameter."}
    assert api.patch(t.path(f"/{term_id}"), json={"name": ""}).status_code == 400
    assert api.patch(t.path(f"/{term_id}"), json={"name": "x"}, as_=None).status_code == 401
    assert (
        api.patch(t.path(f"/{term_id}"), json={"name": "x"}, as_="contributor").status_code == 403
    )
    other = CATEGORIES if t is TAGS else TAGS
    foreign = make(api, other, "Foreign")
    assert api.get(t.path(f"/{foreign}")).status_code == 400


def test_category_parent_cannot_create_a_cycle(api: Api) -> None:
    top = make(api, CATEGORIES, "Top")
    middle = make(api, CATEGORIES, "Middle", parent_id=top)
    bottom = make(api, CATEGORIES, "Bottom", parent_id=middle)
    assert api.patch(CATEGORIES.path(f"/{top}"), json={"parent": bottom}).status_code == 400
    assert api.patch(CATEGORIES.path(f"/{top}"), json={"parent": top}).status_code == 400
    moved = api.patch(CATEGORIES.path(f"/{bottom}"), json={"parent": 0}).json()
    assert moved["parent"] == 0 and "up" not in moved["urls"]


@pytest.mark.parametrize("t", BOTH)
def test_delete_is_permanent_and_unlinks_events(api: Api, t: Terms) -> None:
    term_id = make(api, t, "Gone")
    kept = make(api, t, "Kept")
    event_id = api.run(lambda: factories.make_event(api.database, "E", term_ids=(term_id, kept)))
    response = api.delete(t.path(f"/{term_id}?force=false"))
    assert response.status_code == 200
    assert response.json()["id"] == term_id and response.json()["count"] == 1
    again = api.delete(t.path(f"/{term_id}"))
    assert again.status_code == 400
    assert again.json()["data"]["params"] == {"id": "Invalid parameter."}
    event = api.get(f"{NS}/events/{event_id}").json()
    key = "categories" if t is CATEGORIES else "tags"
    assert [term["id"] for term in event[key]] == [kept]
    assert api.delete(t.path(f"/{kept}"), as_=None).status_code == 401
    assert api.delete(t.path("/99999"), as_="subscriber").status_code == 400


def test_deleting_a_category_moves_its_children_up(api: Api) -> None:
    top = make(api, CATEGORIES, "Top")
    middle = make(api, CATEGORIES, "Middle", parent_id=top)
    child = make(api, CATEGORIES, "Child", parent_id=middle)
    api.delete(CATEGORIES.path(f"/{middle}"))
    assert api.get(CATEGORIES.path(f"/{child}")).json()["parent"] == top


@pytest.mark.parametrize("t", BOTH)
def test_archive_defaults_hide_empty_and_order(api: Api, t: Terms) -> None:
    b = make(api, t, "b")
    a = make(api, t, "A")
    c = make(api, t, "C")
    empty = make(api, t, "Empty")
    api.run(lambda: factories.make_event(api.database, "E", term_ids=(a, b, c)))
    response = api.get(t.path())
    body = response.json()
    assert list(body) == ["rest_url", "total", "total_pages", t.plural]
    assert ids(response, t) == [a, b, c]
    assert body["total"] == 3 and response.headers["x-tec-total"] == "3"
    assert body["rest_url"] == f"http://127.0.0.1{t.path('/')}"
    every = api.get(t.path("?hide_empty=0"))
    assert ids(every, t) == [a, b, c, empty]
    assert ids(api.get(t.path("?hide_empty=0&order=DESC")), t) == [empty, c, b, a]
    assert ids(api.get(t.path("?hide_empty=0&orderby=id")), t) == [b, a, c, empty]
    assert ids(api.get(t.path("?hide_empty=0&orderby=id&order=desc")), t) == [empty, c, a, b]
    assert ids(api.get(t.path("?hide_empty=0&orderby=count")), t) == [empty, b, a, c]
    assert ids(api.get(t.path("?hide_empty=0&orderby=slug")), t) == [a, b, c, empty]
    assert ids(api.get(t.path("?hide_empty=0&orderby=bad")), t) == [a, b, c, empty]
    assert ids(api.get(t.path(f"?include={c},{a}&orderby=include")), t) == [c, a]


@pytest.mark.parametrize("t", BOTH)
def test_archive_filters(api: Api, t: Terms) -> None:
    foo = make(api, t, "Foo")
    make(api, t, "Bar")
    one = make(api, t, "One", slug="foo-bar")
    event_id = api.run(lambda: factories.make_event(api.database, "E", term_ids=(foo,)))
    other_event = api.run(lambda: factories.make_event(api.database, "O", term_ids=(one,)))
    assert sorted(ids(api.get(t.path("?search=foo&hide_empty=0")), t)) == sorted([foo, one])
    assert ids(api.get(t.path("?search=zoot&hide_empty=0")), t) == []
    assert foo not in ids(api.get(t.path(f"?exclude={foo}&hide_empty=0")), t)
    assert ids(api.get(t.path(f"?include={foo},{one}&hide_empty=0")), t) == [foo, one]
    assert ids(api.get(t.path("?include=foo&hide_empty=0")), t) == []
    assert ids(api.get(t.path(f"?post={event_id}")), t) == [foo]
    assert ids(api.get(t.path(f"?event={event_id}&post={other_event}")), t) == [foo]
    assert ids(api.get(t.path("?slug=foo-bar&hide_empty=0")), t) == [one]
    for query in (
        "include=99999",
        "exclude=99999",
        "post=99999",
        "post=foo",
        "event=",
        "slug=",
        "order=",
        "orderby=",
        "hide_empty=maybe",
        "per_page=0",
        "search=",
    ):
        response = api.get(t.path(f"?{query}"))
        assert response.status_code == 400, query
        assert list(response.json()["data"]["params"]) == [query.split("=")[0]]


def test_category_parent_filter_and_top_level(api: Api) -> None:
    top = make(api, CATEGORIES, "Top")
    child = make(api, CATEGORIES, "Child", parent_id=top)
    assert ids(api.get(CATEGORIES.path(f"?parent={top}&hide_empty=0")), CATEGORIES) == [child]
    assert ids(api.get(CATEGORIES.path("?parent=0&hide_empty=0")), CATEGORIES) == [top]
    assert api.get(CATEGORIES.path("?parent=99999")).status_code == 400
    tag_parent = api.get(TAGS.path("?parent=3"))
    assert tag_parent.status_code == 200


@pytest.mark.parametrize("t", BOTH)
def test_archive_pages_carry_the_filters_and_past_the_end_is_empty(api: Api, t: Terms) -> None:
    for name in ("a", "b", "c", "d", "e"):
        make(api, t, name)
    body = api.get(t.path("?per_page=2&page=2&hide_empty=0")).json()
    assert list(body) == [
        "rest_url",
        "total",
        "total_pages",
        t.plural,
        "next_rest_url",
        "previous_rest_url",
    ]
    assert dict(parse_qsl(urlsplit(body["next_rest_url"]).query)) == {
        "per_page": "2",
        "hide_empty": "0",
        "page": "3",
    }
    assert dict(parse_qsl(urlsplit(body["previous_rest_url"]).query)) == {
        "per_page": "2",
        "hide_empty": "0",
    }
    past = api.get(t.path("?page=9&hide_empty=0"))
    assert past.status_code == 200
    assert past.json()[t.plural] == []
    assert dict(parse_qsl(urlsplit(past.json()["previous_rest_url"]).query))["page"] == "8"
    assert "next_rest_url" not in past.json()
    capped = api.get(t.path("?per_page=100&hide_empty=0")).json()
    assert capped["total_pages"] == 1


@pytest.mark.parametrize("t", BOTH)
def test_routes_and_methods(api: Api, t: Terms) -> None:
    assert api.delete(t.path()).json()["code"] == "rest_no_route"
    assert api.patch(t.path()).json()["code"] == "rest_no_route"
    assert api.get(t.path("/abc")).json()["code"] == "rest_no_route"
    assert api.get(t.path("/by-slug/x")).json()["code"] == "rest_no_route"
    term_id = make(api, t, "X")
    options = api.request("OPTIONS", t.path(f"/{term_id}"))
    assert options.headers["allow"] == "GET"
    assert [e["methods"] for e in options.json()["endpoints"]] == [
        ["GET"],
        ["POST", "PUT", "PATCH"],
        ["DELETE"],
    ]
    admin = api.request("OPTIONS", t.path(f"/{term_id}"), as_="administrator")
    assert admin.headers["allow"] == "GET, POST, PUT, PATCH, DELETE"


def test_counts_follow_published_events(api: Api) -> None:
    concerts = make(api, CATEGORIES, "Concerts")
    created = api.post(
        f"{NS}/events",
        json={
            "title": "E",
            "start_date": "2027-01-01",
            "end_date": "2027-01-01",
            "categories": [concerts],
        },
    ).json()
    assert api.get(CATEGORIES.path(f"/{concerts}")).json()["count"] == 1
    api.patch(f"{NS}/events/{created['id']}", json={"status": "draft"})
    assert api.get(CATEGORIES.path(f"/{concerts}")).json()["count"] == 0
    api.patch(f"{NS}/events/{created['id']}", json={"status": "publish"})
    api.delete(f"{NS}/events/{created['id']}")
    assert api.get(CATEGORIES.path(f"/{concerts}")).json()["count"] == 0


def test_ids_beyond_the_id_column_name_no_term_and_never_reach_the_database(api: Api) -> None:
    api.run(lambda: factories.make_term(api.database, "Jazz", id=7))
    for value in ("18446744073709551616", "2147483648", "9" * 5000):
        response = api.get(f"{NS}/events", params={"categories": value})
        assert response.status_code == 400, (value[:30], response.text)
        assert list(response.json()["data"]["params"]) == ["categories"]
    too_big = api.post(
        f"{NS}/events",
        json={
            "title": "X",
            "start_date": "2026-12-01 10:00",
            "end_date": "2026-12-01 11:00",
            "tags": [2**64],
        },
    )
    assert too_big.status_code == 400 and list(too_big.json()["data"]["params"]) == ["tags"]
    assert api.get(f"{NS}/events").json()["total"] == 0
