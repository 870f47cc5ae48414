"""``DELETE …?force=true`` deletes events, venues and organizers for good, as wp/v2 does
(issue 14): with the delete permission, keeping term counts, unlinking what linked to the item,
recorded in the change log; without ``force`` an item still goes to the trash."""

from __future__ import annotations

from typing import Any

import pytest

from eventcal.resources import changes
from tests import factories
from tests.conftest import NS, Api
from tests.http.helpers import NEW_EVENT, assert_error, version


def log(api: Api, since: int) -> list[tuple[str, int, str]]:
    async def read() -> list[Any]:
        async with api.database.read() as conn:
            return list(await changes.since(conn, since))

    return [(r["kind"], int(r["item_id"]), r["action"]) for r in api.run(read)]


@pytest.mark.parametrize(
    ("collection", "body"),
    [
        ("events", NEW_EVENT),
        ("venues", {"venue": "Hall"}),
        ("organizers", {"organizer": "Org"}),
    ],
)
def test_force_deletes_for_good_and_answers_with_what_was_deleted(
    api: Api, collection: str, body: dict[str, Any]
) -> None:
    created = api.post(f"{NS}/{collection}", json=body).json()
    item = f"{NS}/{collection}/{created['id']}"
    german = api.post(item, json={**body, "translation_language": "de"})
    assert german.status_code == 200
    before = version(api)
    response = api.delete(item, params={"force": "true"})
    assert response.status_code == 200, response.text
    assert response.json()["deleted"] is True
    assert response.json()["previous"]["id"] == created["id"]
    assert api.get(item, as_="administrator").status_code in (400, 404)
    assert version(api) > before
    again = api.delete(item, params={"force": "true"})
    assert again.status_code in (400, 404)
    listed = api.get(f"{NS}/{collection}", params={"status": "trash"}, as_="administrator")
    assert created["id"] not in [i["id"] for i in listed.json()[collection]]


def test_force_on_a_trashed_event_deletes_it_and_without_force_it_is_trashed(api: Api) -> None:
    event_id = api.post(f"{NS}/events", json=NEW_EVENT).json()["id"]
    trashed = api.delete(f"{NS}/events/{event_id}", params={"force": "false"})
    assert trashed.status_code == 200 and trashed.json()["status"] == "trash"
    assert_error(api.delete(f"{NS}/events/{event_id}"), 410, "event-is-in-trash")
    gone = api.delete(f"{NS}/events/{event_id}", params={"force": "1"})
    assert gone.status_code == 200 and gone.json()["deleted"] is True
    assert_error(api.get(f"{NS}/events/{event_id}"), 404, "rest-event-not-found")


def test_force_delete_keeps_counts_and_unlinks_and_is_logged(api: Api) -> None:
    tag = api.post(f"{NS}/tags", json={"name": "folk"}).json()
    venue = api.post(f"{NS}/venues", json={"venue": "Hall"}).json()
    event = api.post(
        f"{NS}/events", json={**NEW_EVENT, "tags": [tag["id"]], "venue": venue["id"]}
    ).json()
    assert api.get(f"{NS}/tags/{tag['id']}").json()["count"] == 1
    start = version(api)
    assert api.delete(f"{NS}/venues/{venue['id']}", params={"force": "true"}).status_code == 200
    assert api.get(f"{NS}/events/{event['id']}").json()["venue"] == []
    assert api.delete(f"{NS}/events/{event['id']}", params={"force": "true"}).status_code == 200
    assert api.get(f"{NS}/tags/{tag['id']}").json()["count"] == 0
    recorded = log(api, start)
    assert ("venue", venue["id"], "delete") in recorded
    assert ("event", event["id"], "link") in recorded
    assert ("event", event["id"], "delete") in recorded


@pytest.mark.parametrize("role", [None, "subscriber", "contributor"])
def test_force_needs_the_delete_permission(api: Api, role: str | None) -> None:
    event_id = api.run(lambda: factories.make_event(api.database, "Kept"))
    before = version(api)
    response = api.delete(f"{NS}/events/{event_id}", params={"force": "true"}, as_=role)
    assert response.status_code in (401, 403)
    assert version(api) == before or role is not None  # a first log-in is a write
    assert api.get(f"{NS}/events/{event_id}").status_code == 200


def test_force_must_be_a_boolean_and_is_in_the_index(api: Api) -> None:
    event_id = api.run(lambda: factories.make_event(api.database, "Kept"))
    response = api.delete(f"{NS}/events/{event_id}", params={"force": "maybe"})
    assert_error(response, 400, "rest_invalid_param")
    assert "force" in response.json()["data"]["params"]
    route = api.get(f"{NS}/").json()["routes"]["/cal/events/v1/events/(?P<id>\\d+)"]
    delete = next(e for e in route["endpoints"] if "DELETE" in e["methods"])
    assert delete["args"]["force"]["type"] == "boolean"


def test_a_recurring_series_is_not_deleted_for_good(api: Api) -> None:
    series = api.post(
        f"{NS}/events", json={**NEW_EVENT, "recurrence": ["RRULE:FREQ=DAILY;COUNT=3"]}
    ).json()
    before = version(api)
    response = api.delete(f"{NS}/events/{series['series_id']}", params={"force": "true"})
    assert_error(response, 400, "rest_invalid_param")
    assert "force" in response.json()["data"]["params"]
    assert version(api) == before
