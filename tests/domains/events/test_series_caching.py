"""Caching of recurring series through the HTTP app with the response cache on: an edit of the
series (in this process or another one) makes every cached read of its occurrences rebuild."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from eventcal.app import create_app
from eventcal.config import Settings
from tests.conftest import NS, Api, Clock

FIRST = {"start_date": "2026-12-01 10:00:00", "end_date": "2026-12-01 11:30:00"}


@pytest.fixture
def other_process(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    """A second app on the same database: another server process, as far as caching goes."""
    with TestClient(create_app(settings, clock=clock), base_url="http://127.0.0.1") as client:
        yield client


def create(api: Api) -> tuple[int, list[int]]:
    body = {"title": "Yoga", **FIRST, "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=4"]}
    series = api.post(f"{NS}/events", json=body).json()["id"]
    ids = [e["id"] for e in api.get(f"{NS}/events").json()["events"]]
    return int(series), ids


def reads(series: int, ids: list[int]) -> list[str]:
    return [
        f"{NS}/events",
        f"{NS}/events/{ids[2]}",
        f"{NS}/events/{series}",
        f"{NS}/events/{series}/occurrences",
        f"{NS}/events/by-slug/yoga-2026-12-15",
    ]


def title_of(body: dict[str, Any]) -> str:
    return str(body["events"][0]["title"] if "events" in body else body["title"])


def test_an_edit_of_the_series_rebuilds_its_occurrences_cached_reads(api: Api) -> None:
    series, ids = create(api)
    paths = reads(series, ids)
    first = {path: api.get(path) for path in paths}
    assert {title_of(r.json()) for r in first.values()} == {"Yoga"}
    before = api.statements
    for path in paths:
        assert api.get(path).status_code == 200
    # Served from the caches: the version only, and for the occurrence read by slug (a single
    # read the item cache keeps, not the response cache) its slug's id and its row (read by
    # id, the item cache's entry needs no row).
    assert api.statements - before == len(paths) + 2
    edited = api.patch(f"{NS}/events/{series}", json={"title": "Pilates"})
    assert edited.status_code == 200, edited.text
    for path, response in first.items():
        again = api.get(path, headers={"If-None-Match": response.headers["etag"]})
        assert again.status_code == 200, path
        assert title_of(again.json()) == "Pilates", path
    # One occurrence changed alone: the series' other reads rebuild too, and show it.
    api.patch(f"{NS}/events/{ids[2]}", json={"title": "Outdoors"})
    assert api.get(f"{NS}/events/{ids[2]}").json()["title"] == "Outdoors"
    listed = api.get(f"{NS}/events/{series}/occurrences").json()["events"]
    assert [e["title"] for e in listed] == ["Pilates", "Pilates", "Outdoors", "Pilates"]


def test_an_edit_in_another_process_is_seen_at_once(api: Api, other_process: TestClient) -> None:
    series, ids = create(api)
    paths = reads(series, ids)
    for path in paths:
        assert title_of(other_process.get(path).json()) == "Yoga"
    api.patch(f"{NS}/events/{series}", json={"title": "Pilates"})
    api.delete(f"{NS}/events/{ids[3]}")
    for path in paths:
        assert title_of(other_process.get(path).json()) == "Pilates", path
    assert other_process.get(f"{NS}/events").json()["total"] == 3
    assert other_process.get(f"{NS}/events/{ids[3]}").status_code == 404


# --- the item cache (response cache off): occurrences are kept until their series changes -----


@pytest.fixture
def writer(settings: Settings, clock: Clock, password_hash: str) -> Iterator[Api]:
    from tests import factories

    uncached = dataclasses.replace(settings, response_cache_mb=0)
    app = create_app(uncached, clock=clock)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        helper = Api(client, app.state.runtime.database, password_hash)
        helper.run(lambda: factories.empty_database(app.state.runtime.database))
        yield helper


def test_occurrences_are_kept_by_the_item_cache(writer: Api) -> None:
    create(writer)
    writer.get(f"{NS}/events")
    before = writer.statements
    listed = writer.get(f"{NS}/events").json()["events"]
    assert [e["recurrence_text"] for e in listed] == ["Weekly on Tuesday, 4 times"] * 4
    # the data version and the page (its total is kept too): nothing to present (before:
    # the masters, links, terms and translations again)
    assert writer.statements - before == 2


@pytest.mark.parametrize("process", ["same", "other"])
def test_a_change_of_the_rule_alone_reaches_every_cached_occurrence(
    writer: Api, clock: Clock, settings: Settings, process: str
) -> None:
    _, ids = create(writer)
    uncached = dataclasses.replace(settings, response_cache_mb=0)
    with TestClient(create_app(uncached, clock=clock), base_url="http://127.0.0.1") as other:
        client = writer.client if process == "same" else other
        for _ in range(2):
            assert client.get(f"{NS}/events/{ids[0]}").json()["recurrence"] == [
                "RRULE:FREQ=WEEKLY;COUNT=4"
            ]
            client.get(f"{NS}/events")
        # Cancelling the third changes the master's rule, not the first occurrence's row.
        assert writer.delete(f"{NS}/events/{ids[2]}").status_code == 200
        rule = ["RRULE:FREQ=WEEKLY;COUNT=4", "EXDATE;TZID=UTC:20261215T100000"]
        assert client.get(f"{NS}/events/{ids[0]}").json()["recurrence"] == rule
        listed = client.get(f"{NS}/events").json()["events"]
        assert [e["recurrence"] for e in listed] == [rule] * 3
        assert {e["recurrence_text"] for e in listed} == {
            "Weekly on Tuesday, 4 times; 1 date excluded"
        }
