"""Hostile input (issue 6): limits on bodies, strings, lists, nesting and numbers;
NUL bytes, invalid UTF-8 and SQL metacharacters are refused or read as plain
text, never a 500."""

from __future__ import annotations

from typing import Any

import pytest

from tests import factories
from tests.conftest import NS, Api
from tests.cross.hostile_helpers import assert_error, assert_invalid, event_body, nothing_changes


def test_bodies_over_the_limit_are_413_in_the_error_shape(api: Api) -> None:
    unchanged = nothing_changes(api)
    oversized = b'{"title": "' + b"x" * 1_048_576 + b'"}'
    declared = api.post(
        f"{NS}/events", content=oversized, headers={"Content-Type": "application/json"}
    )
    body = assert_error(declared, 413, "rest_request_too_large")
    assert "1048576" in body["message"]

    def chunks() -> Any:  # no Content-Length: the limit is enforced while reading
        for _ in range(20):
            yield b"x" * 65_536

    streamed = api.post(
        f"{NS}/venues",
        content=chunks(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert_error(streamed, 413, "rest_request_too_large")
    unchanged()


def test_per_page_above_the_cap_is_capped_without_an_error(api: Api) -> None:
    for path in ("/events", "/venues", "/organizers", "/categories", "/tags"):
        response = api.get(f"{NS}{path}?per_page=1000")
        assert response.status_code == 200, path
        if path in ("/events", "/venues", "/organizers"):
            assert "per_page=50" in response.json()["rest_url"], path
    for value in ("1e400", "1e3", str(2**70), "-1", "0", "NaN", "ten"):
        assert_invalid(api.get(f"{NS}/events?per_page={value}"), "per_page")
    assert_invalid(api.get(f"{NS}/events?page={2**70}"), "page")


@pytest.mark.parametrize(
    ("path", "body", "param", "message"),
    [
        ("/events", event_body(title="x" * 1_000_000), "title", "longer than 1000"),
        ("/events", event_body(description="d" * 900_000), "description", "longer than 65535"),
        ("/events", event_body(excerpt="e" * 70_000), "excerpt", "longer than"),
        ("/events", event_body(slug="s" * 10_000), "slug", "longer than"),
        ("/venues", {"venue": "v" * 100_000}, "venue", "longer than"),
        ("/organizers", {"organizer": "o" * 100_000}, "organizer", "longer than"),
        ("/categories", {"name": "c" * 100_000}, "name", "longer than"),
        ("/tags", {"name": "t" * 100_000, "description": "short"}, "name", "longer than"),
    ],
)
def test_very_long_strings_are_refused_by_name(
    api: Api, path: str, body: dict[str, Any], param: str, message: str
) -> None:
    unchanged = nothing_changes(api)
    assert_invalid(api.post(NS + path, json=body), param, message)
    unchanged()


@pytest.mark.parametrize(
    ("body", "param", "limit"),
    [
        (event_body(categories=list(range(1, 10_001))), "categories", 100),
        (event_body(tags=[f"tag{i}" for i in range(10_000)]), "tags", 100),
        (event_body(tags=",".join(f"t{i}" for i in range(10_000))), "tags", 100),
        (event_body(organizer=list(range(1, 10_001))), "organizer", 100),
        (event_body(organizer=[{"organizer": f"O{i}"} for i in range(10_000)]), "organizer", 100),
    ],
)
def test_huge_arrays_in_writes_name_the_limit(
    api: Api, body: dict[str, Any], param: str, limit: int
) -> None:
    unchanged = nothing_changes(api)
    response = api.post(f"{NS}/events", json=body)
    assert_invalid(response, param, f"has more than {limit} items")
    german = api.post(f"{NS}/events?translation_language=de", json=body)
    assert_invalid(german, param, f"hat mehr als {limit} Einträge")
    unchanged()


@pytest.mark.parametrize(
    ("path", "param", "limit"),
    [
        ("/events?include={ids}", "include", 500),
        ("/events?venue={ids}", "venue", 500),
        ("/events?categories={ids}", "categories", 100),
        ("/events?tags={names}", "tags", 100),
        ("/venues?event={ids}", "event", None),
        ("/categories?include={ids}", "include", 500),
        ("/tags?exclude={ids}", "exclude", 500),
    ],
)
def test_huge_lists_in_queries_name_the_limit(
    api: Api, path: str, param: str, limit: int | None
) -> None:
    ids = ",".join(str(i) for i in range(1, 10_001))
    names = ",".join(f"t{i}" for i in range(1, 5_001))
    response = api.get(NS + path.format(ids=ids, names=names))
    assert_invalid(response, param, f"has more than {limit} items" if limit else "")


def test_deeply_nested_json_is_a_clean_400(api: Api) -> None:
    unchanged = nothing_changes(api)
    deep = b"[" * 1000 + b"]" * 1000
    for field in (b"title", b"categories", b"venue", b"organizer", b"cost", b"image"):
        content = (
            b'{"title": "T", "start_date": "2027-01-01", "end_date": "2027-01-01", "'
            + field
            + b'": '
            + deep
            + b"}"
        )
        response = api.post(
            f"{NS}/events", content=content, headers={"Content-Type": "application/json"}
        )
        assert_invalid(response, field.decode())
    objects = b'{"a":' * 1000 + b"1" + b"}" * 1000
    response = api.post(
        f"{NS}/venues", content=objects, headers={"Content-Type": "application/json"}
    )
    assert_error(response, 400, "rest_missing_callback_param")
    too_deep = b'{"title":' + b"[" * 2000 + b"]" * 2000 + b"}"
    response = api.post(
        f"{NS}/events", content=too_deep, headers={"Content-Type": "application/json"}
    )
    assert_error(response, 400, "rest_invalid_json")
    query = api.get(f"{NS}/events?search" + "[a]" * 1000 + "=x")
    assert query.status_code == 200  # too-deep bracket keys are dropped, as PHP does
    unchanged()


def test_nul_bytes_are_refused_in_bodies_queries_and_paths(api: Api) -> None:
    event_id = api.run(lambda: factories.make_event(api.database, "Nul", slug="nul"))
    unchanged = nothing_changes(api)
    assert_invalid(api.post(f"{NS}/events", json=event_body(title="a\x00b")), "title", "NUL")
    assert_invalid(api.post(f"{NS}/venues", json={"venue": "V\x00"}), "venue", "NUL")
    assert_invalid(api.post(f"{NS}/tags", json={"name": "\x00"}), "name", "NUL")
    form = api.post(
        f"{NS}/events",
        content=b"title=a%00b&start_date=2027-01-01&end_date=2027-01-01",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert_invalid(form, "title", "NUL")
    assert_invalid(
        api.patch(f"{NS}/events/{event_id}", json={"description": "x\x00"}), "description"
    )
    assert_invalid(api.get(f"{NS}/events?search=a%00b"), "search", "NUL")
    assert_invalid(api.get(f"{NS}/events?start_date=2027-01-01%00"), "start_date")
    # Slugs are normalised (spec README §8: characters outside a-z 0-9 _ - are dropped).
    assert api.get(f"{NS}/events/by-slug/nul%00").json()["id"] == event_id
    assert_invalid(api.get(f"{NS}/events/by-slug/%00"), "slug")
    assert_error(api.get(f"{NS}/events/{event_id}%00"), 404, "rest_no_route")
    assert_error(api.get(f"{NS}%00/events"), 404, "rest_no_route")
    unchanged()
    assert api.get(f"{NS}/events/{event_id}").json()["description"] == ""


def test_invalid_utf8_is_refused_in_queries_and_bodies(api: Api) -> None:
    event_id = api.run(lambda: factories.make_event(api.database, "Bytes"))
    unchanged = nothing_changes(api)
    assert_invalid(api.get(f"{NS}/events?search=%ff%fe"), "search", "not valid UTF-8")
    assert_invalid(api.get(f"{NS}/events?search=ok&utm%ff=1"), "utm\ufffd", "UTF-8")
    assert_invalid(api.get(f"{NS}/venues?search=%c3"), "search", "UTF-8")
    german = api.get(f"{NS}/events?search=%ff&translation_language=de")
    assert german.json()["data"]["params"]["search"] == "search ist kein gültiges UTF-8."
    assert api.get(f"{NS}/events?search=%C3%BCber").status_code == 200  # valid UTF-8 is fine
    form = api.post(
        f"{NS}/events",
        content=b"title=%ff&start_date=2027-01-01&end_date=2027-01-01",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert_invalid(form, "title", "UTF-8")
    raw_form = api.patch(
        f"{NS}/events/{event_id}",
        content=b"description=\xc3\x28",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert_invalid(raw_form, "description", "UTF-8")
    json_body = api.post(
        f"{NS}/events",
        content=b'{"title": "\xff\xfe", "start_date": "2027-01-01", "end_date": "2027-01-01"}',
        headers={"Content-Type": "application/json"},
    )
    assert_error(json_body, 400, "rest_invalid_json")
    path = api.get(f"{NS}/events/by-slug/%ff%fe")
    assert_invalid(path, "slug")
    unchanged()
    assert api.get(f"{NS}/events/{event_id}").json()["title"] == "Bytes"


def test_huge_numbers_are_refused_or_not_found(api: Api) -> None:
    event_id = api.run(lambda: factories.make_event(api.database, "Numbers"))
    unchanged = nothing_changes(api)
    huge = 2**70
    assert_error(api.get(f"{NS}/events/{huge}"), 404, "rest-event-not-found")
    assert_error(api.patch(f"{NS}/events/{huge}", json={"title": "x"}), 404, "rest-event-not-found")
    assert_error(api.delete(f"{NS}/events/{huge}"), 404, "rest-event-not-found")
    assert_invalid(api.get(f"{NS}/venues/{huge}"), "id")
    assert_invalid(api.delete(f"{NS}/organizers/{huge}"), "id")
    assert_invalid(api.get(f"{NS}/categories/{huge}"), "id")
    assert_invalid(api.get(f"{NS}/events?include={huge}"), "include")
    assert_invalid(api.get(f"{NS}/events?venue={huge}"), "venue")
    assert_invalid(api.get(f"{NS}/events?start_date={huge}"), "start_date")
    assert_invalid(api.get(f"{NS}/events?geoloc_lat=1e400&geoloc_lng=1"), "geoloc_lat")
    for field, value in (
        ("venue", huge),
        ("organizer", [huge]),
        ("categories", [huge]),
        ("image", huge),
    ):
        response = api.patch(f"{NS}/events/{event_id}", json={field: value})
        assert_invalid(response, field)
    infinite = api.post(
        f"{NS}/events",
        content=b'{"title": "T", "start_date": "2027-01-01", "end_date": "2027-01-01", '
        b'"venue": 1e400}',
        headers={"Content-Type": "application/json"},
    )
    assert_error(infinite, 400, "rest_invalid_json")
    timestamp = api.post(f"{NS}/events", json=event_body(start_date=str(huge), end_date=str(huge)))
    assert_invalid(timestamp, "start_date")
    unchanged()


def test_sql_metacharacters_are_plain_text(api: Api) -> None:
    first = api.run(lambda: factories.make_event(api.database, "Plain One"))
    api.run(lambda: factories.make_event(api.database, "Plain Two", start="2026-12-17 10:00:00"))
    percent = api.run(
        lambda: factories.make_event(api.database, "100% fun", start="2026-12-18 10:00:00")
    )

    def ids(query: str) -> list[int]:
        response = api.get(f"{NS}/events?{query}")
        assert response.status_code == 200, response.text
        return [e["id"] for e in response.json()["events"]]

    assert len(ids("")) == 3
    for injection in ("' OR 1=1 --", '" OR ""="', "1; DROP TABLE event", "') OR ('a'='a", "\\"):
        assert ids(f"search={injection}") == [], injection
    assert ids("search=%25") == [percent]  # % is a character, not a wildcard
    assert ids("search=_") == []
    assert_invalid(api.get(f"{NS}/events/by-slug/x' OR '1'='1"), "slug")
    assert_invalid(api.get(f"{NS}/events?include=1) OR (1=1"), "include")
    assert_invalid(api.get(f"{NS}/events?status=publish') OR ('1'='1", as_="editor"), "status")
    assert api.get(f"{NS}/categories?orderby=name;DROP TABLE term").status_code in (200, 400)
    title = "Robert'); DROP TABLE event;--"
    unchanged = nothing_changes(api)
    created = api.post(f"{NS}/events", json=event_body(title=title, description="%_\\'\""))
    assert created.status_code == 201
    with pytest.raises(AssertionError):  # the check does see a committed write
        unchanged()
    again = api.get(f"{NS}/events/{created.json()['id']}").json()
    assert (again["title"], again["description"]) == (title, "<p>%_\\'\"</p>")
    assert len(ids("")) == 4  # the new one, and the others intact
    assert api.get(f"{NS}/events/{first}").status_code == 200
