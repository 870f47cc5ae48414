"""Errors that say why (issue 14): ``data.details`` carries each invalid parameter's reason,
as WordPress core does, in the caller's language; the top-level message and ``data.params``
stay the original's."""

from __future__ import annotations

import pytest

from tests import factories
from tests.conftest import NS, Api
from tests.http.helpers import NEW_EVENT, assert_error


def reason(response: object, param: str) -> str:
    body = assert_error(response, 400, "rest_invalid_param")
    assert body["message"] == f"Invalid parameter(s): {param}"
    assert body["data"]["params"] == {param: "Invalid parameter."}
    detail = body["data"]["details"][param]
    assert (detail["code"], detail["data"]) == ("rest_invalid_param", {"param": param})
    return str(detail["message"])


@pytest.mark.parametrize(
    ("path", "param", "expected"),
    [
        ("/events?per_page=0", "per_page", "per_page must be a whole number from 1 to 2147483647."),
        ("/events?page=abc", "page", "page must be a whole number from 1 to 2147483647."),
        ("/events?venue=99999", "venue", "venue: nothing has the id 99999, or you may not see it."),
        ("/venues?event=99999", "event", "event: nothing has the id 99999, or you may not see it."),
        (
            "/categories?include=7,99999,99998",
            "include",
            "include: nothing has the id 99999, 99998, or you may not see it.",
        ),
        (
            "/events?start_date=Christmas 7pm",
            "start_date",
            "Could not read \u201cChristmas 7pm\u201d as a date: use YYYY-MM-DD HH:MM:SS, a Unix "
            "timestamp or an English phrase such as \u201ctomorrow 9am\u201d.",
        ),
        (
            "/events?ends_before=soon",
            "ends_before",
            "Could not read \u201csoon\u201d as a date",
        ),
    ],
)
def test_the_reason_is_in_the_details(api: Api, path: str, param: str, expected: str) -> None:
    api.run(lambda: factories.make_term(api.database, "Jazz", id=7))
    assert reason(api.get(NS + path), param).startswith(expected)


def test_a_write_says_why_a_date_or_an_id_is_refused(api: Api) -> None:
    bad_date = api.post(f"{NS}/events", json={**NEW_EVENT, "start_date": "the day after"})
    assert "Could not read \u201cthe day after\u201d" in reason(bad_date, "start_date")
    unknown = api.post(f"{NS}/events", json={**NEW_EVENT, "organizer": [99999]})
    assert "99999" in reason(unknown, "organizer")
    beyond = api.get(f"{NS}/events", params={"include": "3560248659"})
    assert "from 1 to 2147483647" in reason(beyond, "include")


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", "per_page muss eine ganze Zahl von 1 bis 2147483647 sein."),
        ("es", "per_page debe ser un número entero de 1 a 2147483647."),
    ],
)
def test_reasons_are_translated(api: Api, language: str, expected: str) -> None:
    response = api.get(f"{NS}/events", params={"per_page": "0", "translation_language": language})
    body = assert_error(response, 400, "rest_invalid_param")
    assert body["data"]["details"]["per_page"]["message"] == expected


@pytest.mark.parametrize("field", ["categories", "tags"])
def test_an_unknown_term_id_in_a_write_is_refused_naming_it(api: Api, field: str) -> None:
    """The original created the event without the term: the write silently lost input."""
    taxonomy = "tribe_events_cat" if field == "categories" else "post_tag"
    jazz = api.run(lambda: factories.make_term(api.database, "Jazz", id=7, taxonomy=taxonomy))
    before = api.get(f"{NS}/events").json()["total"]
    refused = api.post(f"{NS}/events", json={**NEW_EVENT, field: [jazz, 99999, 99998]})
    assert reason(refused, field) == (
        f"{field}: nothing has the id 99999, 99998, or you may not see it."
    )
    assert api.get(f"{NS}/events").json()["total"] == before
    event_id = api.run(lambda: factories.make_event(api.database, "Kept"))
    update = api.patch(f"{NS}/events/{event_id}", json={field: "99999"})
    assert "99999" in reason(update, field)
