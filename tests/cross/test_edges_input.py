"""Edges of the API's input (issue 14): integers of any length and out of the columns' range,
dates at the ends of the calendar, titles that leave no slug characters. None of them is a 500
on either backend; a refused write changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from eventcal.app import create_app
from eventcal.config import Settings
from tests import factories
from tests.conftest import NS, Api
from tests.http.helpers import NEW_EVENT, assert_error, version

BEYOND_32_BITS = "3560248659"
THOUSANDS_OF_DIGITS = "9" * 5000
"""More digits than Python's int() reads by default (4300): ``int()`` would raise."""


def settled_version(api: Api) -> int:
    """The data version once the administrator has logged in (a first log-in is a write)."""
    assert api.get(f"{NS}/events", as_="administrator").status_code == 200
    return version(api)


def assert_names(response: Any, param: str) -> None:
    body = assert_error(response, 400, "rest_invalid_param")
    assert param in body["data"]["params"], body


# --- integers ---------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [BEYOND_32_BITS, THOUSANDS_OF_DIGITS, "-" + BEYOND_32_BITS])
@pytest.mark.parametrize(
    ("collection", "param"),
    [
        ("events", "categories"),
        ("events", "tags"),
        ("events", "venue"),
        ("events", "organizer"),
        ("events", "include"),
        ("events", "page"),
        ("events", "per_page"),
        ("events", "post_parent"),
        ("venues", "event"),
        ("organizers", "event"),
        ("categories", "post"),
        ("tags", "include"),
        ("categories", "parent"),
    ],
)
def test_integer_filters_beyond_the_columns_are_400_naming_the_parameter(
    api: Api, collection: str, param: str, number: str
) -> None:
    api.run(lambda: factories.make_term(api.database, "Jazz", id=7))
    assert_names(api.get(f"{NS}/{collection}", params={param: number}), param)
    assert_names(api.get(f"{NS}/{collection}", params={f"{param}[]": [number, "1"]}), param)


def test_ids_of_thousands_of_digits_in_bodies_are_400_naming_the_field(api: Api) -> None:
    event_id = api.run(lambda: factories.make_event(api.database, "Numbers"))
    before = settled_version(api)
    for field, value in (
        ("venue", THOUSANDS_OF_DIGITS),
        ("venue", {"id": THOUSANDS_OF_DIGITS}),
        ("organizer", [THOUSANDS_OF_DIGITS]),
        ("organizer", BEYOND_32_BITS),
        ("image", THOUSANDS_OF_DIGITS),
        ("image", BEYOND_32_BITS),
        ("categories", [THOUSANDS_OF_DIGITS]),
        ("author", BEYOND_32_BITS),
    ):
        assert_names(api.patch(f"{NS}/events/{event_id}", json={field: value}), field)
        assert_names(api.post(f"{NS}/events", json={**NEW_EVENT, field: value}), field)
    assert version(api) == before


@pytest.mark.parametrize("number", [BEYOND_32_BITS, THOUSANDS_OF_DIGITS])
def test_path_ids_beyond_the_columns_are_not_found(api: Api, number: str) -> None:
    assert_error(api.get(f"{NS}/events/{number}"), 404, "rest-event-not-found")
    assert_names(api.get(f"{NS}/venues/{number}"), "id")
    assert_names(api.delete(f"{NS}/tags/{number}"), "id")
    assert_error(
        api.patch(f"{NS}/events/{number}", json={"title": "x"}), 404, "rest-event-not-found"
    )


def test_php_bracket_indexes_of_any_length_are_read_as_names(api: Api) -> None:
    """``a[99…9]=x&a[]=y``: PHP appends after the largest numeric index; one too large for an
    integer is a name, never a number to add to."""
    response = api.get(f"{NS}/events?categories[{THOUSANDS_OF_DIGITS}]=1&categories[]=2")
    assert response.status_code == 400
    assert "categories" in response.json()["data"]["params"]
    form = api.post(
        f"{NS}/events",
        content=(
            f"title=T&start_date=2027-01-01&end_date=2027-01-01&tags[{THOUSANDS_OF_DIGITS}]=a"
            "&tags[]=b"
        ).encode(),
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert form.status_code == 201, form.text
    assert len(form.json()["tags"]) == 2


def test_if_match_with_thousands_of_digits_is_a_precondition_failure(api: Api) -> None:
    event_id = api.run(lambda: factories.make_event(api.database, "Match"))
    for value in (THOUSANDS_OF_DIGITS, f'"{THOUSANDS_OF_DIGITS}"', f'W/"{BEYOND_32_BITS}"'):
        response = api.patch(
            f"{NS}/events/{event_id}", json={"title": "x"}, headers={"If-Match": value}
        )
        assert response.status_code == 412, response.text[:200]


# --- dates at the calendar's edges ------------------------------------------------------------

FAR_ZONES = ("Pacific/Kiritimati", "Etc/GMT-14", "Etc/GMT+12", "America/New_York", "UTC")


@pytest.mark.parametrize("zone", FAR_ZONES)
def test_events_at_the_end_of_year_9999_are_stored_and_read_in_every_zone(
    api: Api, zone: str
) -> None:
    created = api.post(
        f"{NS}/events",
        json={
            "title": "Last",
            "start_date": "9999-12-30 23:00",
            "end_date": "9999-12-30 23:59:59",
            "timezone": zone,
        },
    )
    assert created.status_code == 201, created.text
    event_id = created.json()["id"]
    assert api.get(f"{NS}/events/{event_id}").status_code == 200
    assert api.patch(f"{NS}/events/{event_id}", json={"timezone": "Etc/GMT+12"}).status_code == 200
    assert api.patch(f"{NS}/events/{event_id}", json={"timezone": "Etc/GMT-14"}).status_code == 200
    listed = api.get(f"{NS}/events", params={"start_date": "9999-12-30", "end_date": "9999-12-30"})
    assert listed.status_code == 200, listed.text
    assert [e["id"] for e in listed.json()["events"]] == [event_id]
    assert listed.json()["total"] == 1
    for params in (
        {"start_date": "9999-12-30 23:59:59", "strict_dates": "true"},
        {"starts_after": "9999-12-30"},
        {"start_date": "9999-12-30", "featured": "false"},
        {"start_date": "1000-01-01", "end_date": "9999-12-30"},
    ):
        assert api.get(f"{NS}/events", params=params).status_code == 200, params


@pytest.mark.parametrize(
    "params",
    [
        {"start_date": "9999-12-31"},
        {"start_date": "9999-12-31", "end_date": "9999-12-31 23:59:59"},
        {"start_date": "9999-12-31 23:59:59", "strict_dates": "true"},
        {"starts_after": "9999-12-31 23:59:59", "strict_dates": "true"},
        {"ends_before": "9999-12-31"},
    ],
)
@pytest.mark.parametrize("site_zone", ["UTC", "Pacific/Kiritimati", "Etc/GMT+12"])
def test_date_filters_at_the_end_of_the_calendar_read_as_its_last_storable_second(
    settings: Settings, params: dict[str, str], site_zone: str
) -> None:
    """No event is stored after 9999-12-30 23:59:59 in its zone, so a filter beyond reads as
    that second: the answer is the same, and nothing overflows, whatever the site's zone."""
    app = create_app(settings.with_overrides(site_timezone=site_zone))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        response = client.get(f"{NS}/events", params=params)
        assert response.status_code == 200, response.text


@pytest.mark.parametrize(
    "params",
    [
        {"start_date": "10000-01-01"},
        {"end_date": "0001-01-01"},
        {"ends_before": "0999-12-31"},
        {"end_date": "not a date"},
    ],
)
def test_date_filters_that_are_no_date_are_400_naming_them(
    api: Api, params: dict[str, str]
) -> None:
    (name,) = params
    assert_names(api.get(f"{NS}/events", params=params), name)


@pytest.mark.parametrize("zone", FAR_ZONES)
@pytest.mark.parametrize(
    ("start", "end"),
    [("9999-12-31 00:00", "9999-12-31 23:59"), ("0001-01-01 00:00", "0001-01-01 01:00")],
)
def test_event_dates_that_cannot_be_stored_are_refused(
    api: Api, zone: str, start: str, end: str
) -> None:
    before = settled_version(api)
    response = api.post(
        f"{NS}/events",
        json={"title": "Edge", "start_date": start, "end_date": end, "timezone": zone},
    )
    assert_names(response, "start_date")
    if start.startswith("9999"):
        message = response.json()["data"]["params"]["start_date"]
        assert "between 1000-01-01 and 9999-12-30" in message
    assert version(api) == before
    assert api.get(f"{NS}/events", params={"start_date": "1000-01-01"}).status_code == 200


# --- titles without slug characters -----------------------------------------------------------


@pytest.mark.parametrize(
    ("collection", "name_field"),
    [("events", "title"), ("venues", "venue"), ("organizers", "organizer")],
)
def test_titles_without_slug_characters_get_their_id_as_slug(
    api: Api, collection: str, name_field: str
) -> None:
    extra = {"start_date": "2027-01-01 10:00", "end_date": "2027-01-01 11:00"}
    body = extra if collection == "events" else {}
    ids = []
    for title in ("!!!", ",", "\u2603", "!!!"):
        response = api.post(f"{NS}/{collection}", json={**body, name_field: title})
        assert response.status_code == 201, response.text
        item = response.json()
        assert item["slug"] == str(item["id"])
        ids.append(item["id"])
        by_slug = api.get(f"{NS}/{collection}/by-slug/{item['slug']}")
        if collection == "events":
            assert by_slug.json()["id"] == item["id"]
    draft = api.post(f"{NS}/{collection}", json={**body, name_field: "?", "status": "draft"})
    # Event drafts get no slug (as WordPress posts); venue and organizer drafts do.
    expected = "" if collection == "events" else str(draft.json()["id"])
    assert draft.status_code == 201 and draft.json()["slug"] == expected
    published = api.patch(
        f"{NS}/{collection}/{draft.json()['id']}", json={"status": "publish"}
    ).json()
    assert published["slug"] == str(draft.json()["id"])
    renamed = api.patch(f"{NS}/{collection}/{ids[0]}", json={"slug": "!!!"})
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["slug"] == str(ids[0])


def test_an_id_taken_as_a_slug_gets_a_number(api: Api) -> None:
    extra = {"start_date": "2027-01-01 10:00", "end_date": "2027-01-01 11:00"}
    first = api.post(f"{NS}/events", json={**extra, "title": "x"}).json()
    taken = str(first["id"] + 1)
    assert api.patch(f"{NS}/events/{first['id']}", json={"slug": taken}).json()["slug"] == taken
    second = api.post(f"{NS}/events", json={**extra, "title": "\u2603"}).json()
    assert second["id"] == first["id"] + 1
    assert second["slug"] == f"{taken}-2"


# --- NUL characters ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("cost", "5\x00"),
        ("cost", ["5", "7\x00"]),
        ("categories", ["Jazz\x00"]),
        ("tags", "folk\x00"),
        ("venue", {"venue": "Hall\x00"}),
        ("organizer", [{"organizer": "Org", "phone": "1\x00"}]),
        ("recurrence", ["RRULE:FREQ=DAILY;COUNT=2\x00"]),
    ],
)
def test_nul_anywhere_in_a_value_is_refused_naming_the_field(
    api: Api, field: str, value: Any
) -> None:
    """PostgreSQL cannot store NUL, and an export from SQLite must import into it: no text
    holding one is accepted, however deep in a value it is."""
    before = settled_version(api)
    response = api.post(f"{NS}/events", json={**NEW_EVENT, field: value})
    body = assert_error(response, 400, "rest_invalid_param")
    assert "NUL" in body["data"]["params"][field]
    assert version(api) == before
