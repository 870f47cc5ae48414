"""Every scope on every write of a recurring series: PATCH, PUT and POST updates and DELETE,
with scope this, following and all (and the defaults), and If-Match per occurrence and per
series."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import NS, Api

FIRST = {"start_date": "2026-12-01 10:00:00", "end_date": "2026-12-01 11:30:00"}
UPDATES = ("PATCH", "PUT", "POST")


def create(api: Api) -> dict[str, Any]:
    body = {
        "title": "Yoga",
        **FIRST,
        "timezone": "Europe/Berlin",
        "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=6"],
    }
    response = api.post(f"{NS}/events", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def listed(api: Api) -> list[dict[str, Any]]:
    response = api.get(f"{NS}/events?per_page=50")
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()["events"]
    return events


def write(api: Api, method: str, item: int, scope: str | None, **body: Any) -> Any:
    query = f"?scope={scope}" if scope else ""
    return api.request(method, f"{NS}/events/{item}{query}", as_="administrator", json=body)


@pytest.mark.parametrize("method", UPDATES)
@pytest.mark.parametrize("scope", ["this", None])
def test_scope_this_changes_one_occurrence(api: Api, method: str, scope: str | None) -> None:
    series = create(api)
    before = listed(api)
    response = write(api, method, before[2]["id"], scope, title="Moved")
    assert response.status_code == 200, response.text
    assert response.json()["series_id"] == series["id"]
    after = listed(api)
    assert [e["id"] for e in after] == [e["id"] for e in before]
    assert [e["title"] for e in after] == ["Yoga", "Yoga", "Moved", "Yoga", "Yoga", "Yoga"]
    assert api.get(f"{NS}/events/{series['id']}").json()["title"] == "Yoga"


@pytest.mark.parametrize("method", UPDATES)
def test_scope_following_splits_the_series(api: Api, method: str) -> None:
    series = create(api)
    before = listed(api)
    response = write(api, method, before[3]["id"], "following", title="New teacher")
    assert response.status_code == 200, response.text
    new_series = response.json()["series_id"]
    assert new_series not in (None, series["id"])
    after = listed(api)
    assert [e["id"] for e in after] == [e["id"] for e in before]
    assert [e["title"] for e in after] == ["Yoga"] * 3 + ["New teacher"] * 3
    assert [e["series_id"] for e in after] == [series["id"]] * 3 + [new_series] * 3
    assert api.get(f"{NS}/events/{series['id']}").json()["recurrence"] == [
        "RRULE:FREQ=WEEKLY;UNTIL=20261222T085959Z"
    ]


@pytest.mark.parametrize("method", UPDATES)
@pytest.mark.parametrize("via", ["occurrence", "series"])
def test_scope_all_changes_every_occurrence(api: Api, method: str, via: str) -> None:
    series = create(api)
    before = listed(api)
    item = before[4]["id"] if via == "occurrence" else series["id"]
    response = write(api, method, item, "all" if via == "occurrence" else None, title="Pilates")
    assert response.status_code == 200, response.text
    assert response.json()["id"] == series["id"]  # the answer is the series
    after = listed(api)
    assert [e["id"] for e in after] == [e["id"] for e in before]
    assert {e["title"] for e in after} == {"Pilates"}


def test_following_from_the_first_occurrence_is_the_whole_series(api: Api) -> None:
    series = create(api)
    first = listed(api)[0]
    response = write(api, "PATCH", first["id"], "following", title="Pilates")
    assert response.status_code == 200, response.text
    assert response.json()["id"] == series["id"]
    assert {e["title"] for e in listed(api)} == {"Pilates"}


def test_delete_this_cancels_one_occurrence(api: Api) -> None:
    series = create(api)
    before = listed(api)
    for scope in ("this", None):
        victim = listed(api)[1]
        response = write(api, "DELETE", victim["id"], scope)
        assert response.status_code == 200, response.text
        assert response.json()["id"] == victim["id"]
    assert [e["id"] for e in listed(api)] == [before[0]["id"], *[e["id"] for e in before[3:]]]
    rule = api.get(f"{NS}/events/{series['id']}").json()["recurrence"]
    assert rule[1:] == ["EXDATE;TZID=Europe/Berlin:20261208T100000,20261215T100000"]


def test_delete_following_ends_the_series_before_the_occurrence(api: Api) -> None:
    series = create(api)
    before = listed(api)
    response = write(api, "DELETE", before[2]["id"], "following")
    assert response.status_code == 200, response.text
    assert [e["id"] for e in listed(api)] == [before[0]["id"], before[1]["id"]]
    assert api.get(f"{NS}/events/{before[3]['id']}").status_code == 404
    shown = api.get(f"{NS}/events/{series['id']}").json()
    assert shown["recurrence"] == ["RRULE:FREQ=WEEKLY;UNTIL=20261215T085959Z"]


@pytest.mark.parametrize("how", ["following from the first", "all via an occurrence", "series"])
def test_delete_of_the_whole_series_trashes_it(api: Api, how: str) -> None:
    series = create(api)
    first = listed(api)[0]
    item, scope = {
        "following from the first": (first["id"], "following"),
        "all via an occurrence": (first["id"], "all"),
        "series": (series["id"], None),
    }[how]
    response = write(api, "DELETE", item, scope)
    assert response.status_code == 200, response.text
    assert (response.json()["id"], response.json()["status"]) == (series["id"], "trash")
    assert listed(api) == []
    assert api.get(f"{NS}/events/{first['id']}", as_="administrator").status_code == 403
    restored = api.patch(f"{NS}/events/{series['id']}", json={"status": "publish"})
    assert restored.status_code == 200, restored.text
    assert len(listed(api)) == 6


def test_a_bad_scope_is_a_400_naming_scope(api: Api) -> None:
    series = create(api)
    occurrence = listed(api)[1]
    for method in (*UPDATES, "DELETE"):
        response = write(api, method, occurrence["id"], "some", title="x")
        assert response.status_code == 400, response.text
        assert list(response.json()["data"]["params"]) == ["scope"]
    assert {e["title"] for e in listed(api)} == {"Yoga"}
    assert api.get(f"{NS}/events/{series['id']}").json()["recurrence"] == [
        "RRULE:FREQ=WEEKLY;COUNT=6"
    ]


# --- If-Match ----------------------------------------------------------------------------------


def etag(api: Api, item: int) -> str:
    response = api.get(f"{NS}/events/{item}", as_="administrator")
    assert response.status_code == 200, response.text
    return str(response.headers["ETag"])


@pytest.mark.parametrize("scope", ["this", "following", "all"])
@pytest.mark.parametrize("method", ["PATCH", "DELETE"])
def test_if_match_guards_an_occurrence_in_every_scope(api: Api, scope: str, method: str) -> None:
    series = create(api)
    occurrence = listed(api)[2]
    tag = etag(api, occurrence["id"])
    # An edit of the series reaches the occurrence: the tag read before is stale.
    assert api.patch(f"{NS}/events/{series['id']}", json={"cost": "5"}).status_code == 200
    before = listed(api)
    rule = api.get(f"{NS}/events/{series['id']}").json()["recurrence"]
    stale = api.request(
        method,
        f"{NS}/events/{occurrence['id']}?scope={scope}",
        as_="administrator",
        json={"title": "Nope"},
        headers={"If-Match": tag},
    )
    assert stale.status_code == 412, stale.text
    assert listed(api) == before  # nothing split, cancelled or renamed
    assert api.get(f"{NS}/events/{series['id']}").json()["recurrence"] == rule
    fresh = api.request(
        method,
        f"{NS}/events/{occurrence['id']}?scope={scope}",
        as_="administrator",
        json={"title": "Yes"},
        headers={"If-Match": etag(api, occurrence["id"])},
    )
    assert fresh.status_code == 200, fresh.text


def test_if_match_guards_the_series(api: Api) -> None:
    series = create(api)
    tag = etag(api, series["id"])
    first = api.patch(f"{NS}/events/{series['id']}", json={"title": "A"}, headers={"If-Match": tag})
    assert first.status_code == 200, first.text
    second = api.patch(
        f"{NS}/events/{series['id']}", json={"title": "B"}, headers={"If-Match": tag}
    )
    assert second.status_code == 412, second.text
    assert {e["title"] for e in listed(api)} == {"A"}
    deleted = api.delete(f"{NS}/events/{series['id']}", headers={"If-Match": tag})
    assert deleted.status_code == 412, deleted.text
    assert len(listed(api)) == 6
