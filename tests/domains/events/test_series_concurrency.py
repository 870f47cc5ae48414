"""Two writers editing the same series at the same time (one ``scope=following``, one
``scope=this``, in both orders and at once) leave a consistent series: every occurrence once,
in the right series, the override kept, the term counts equal to the links. On PostgreSQL the
requests run on connections of their own, really concurrently; SQLite runs one writer at a
time."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx2
import pytest

from tests import factories
from tests.conftest import NS, Api

FIRST = {"start_date": "2026-12-01 10:00:00", "end_date": "2026-12-01 11:30:00"}


async def _together(api: Api, requests: list[tuple[str, str, dict[str, Any]]]) -> list[Any]:
    transport = httpx2.ASGITransport(app=api.client.app)
    headers = api.auth("administrator")
    async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        return await asyncio.gather(
            *(client.request(m, url, json=body, headers=headers) for m, url, body in requests)
        )


def listed(api: Api, query: str = "") -> list[dict[str, Any]]:
    response = api.get(f"{NS}/events?per_page=50{query}")
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()["events"]
    return events


@pytest.mark.parametrize("order", ["following first", "this first"])
def test_following_and_this_at_once_leave_a_consistent_series(api: Api, order: str) -> None:
    yoga = api.run(lambda: factories.make_term(api.database, "Yoga"))
    body = {
        "title": "Class",
        **FIRST,
        "timezone": "Europe/Berlin",
        "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=10"],
        "categories": [yoga],
    }
    series = api.post(f"{NS}/events", json=body).json()
    before = listed(api)
    split_at, alone, early = before[5], before[7], before[2]
    requests = [
        ("PATCH", f"{NS}/events/{split_at['id']}?scope=following", {"title": "New teacher"}),
        ("PATCH", f"{NS}/events/{alone['id']}?scope=this", {"title": "Moved", "cost": "3"}),
        ("PATCH", f"{NS}/events/{early['id']}", {"title": "Early"}),
    ]
    if order == "this first":
        requests.reverse()
    responses = api.run(lambda: _together(api, requests))
    assert [r.status_code for r in responses] == [200, 200, 200], [r.text for r in responses]
    after = listed(api)
    assert [e["id"] for e in after] == [e["id"] for e in before]
    new_series = after[5]["series_id"]
    assert new_series not in (None, series["id"])
    assert [e["series_id"] for e in after] == [series["id"]] * 5 + [new_series] * 5
    titles = ["Class"] * 10
    titles[2], titles[5:] = "Early", ["New teacher"] * 5
    titles[7] = "Moved"
    assert [e["title"] for e in after] == titles
    assert after[7]["cost"] == "$3" and {e["cost"] for e in after if e is not after[7]} == {""}
    assert api.get(f"{NS}/events/{series['id']}").json()["recurrence"] == [
        "RRULE:FREQ=WEEKLY;UNTIL=20270105T085959Z"
    ]
    assert api.get(f"{NS}/events/{new_series}").json()["recurrence"] == [
        "RRULE:FREQ=WEEKLY;COUNT=5"
    ]
    assert api.get(f"{NS}/categories/{yoga}").json()["count"] == 10
    assert len(listed(api, f"&categories={yoga}")) == 10
    # A later edit of the new series reaches its occurrences but not the override.
    api.patch(f"{NS}/events/{new_series}", json={"title": "Evening"})
    assert [e["title"] for e in listed(api)][5:] == ["Evening"] * 2 + ["Moved"] + ["Evening"] * 2


def test_two_splits_at_once_keep_every_occurrence_once(api: Api) -> None:
    body = {"title": "Class", **FIRST, "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=9"]}
    series = api.post(f"{NS}/events", json=body).json()
    before = listed(api)
    requests = [
        ("PATCH", f"{NS}/events/{before[6]['id']}?scope=following", {"title": "C"}),
        ("PATCH", f"{NS}/events/{before[3]['id']}?scope=following", {"title": "B"}),
    ]
    responses = api.run(lambda: _together(api, requests))
    assert [r.status_code for r in responses] == [200, 200], [r.text for r in responses]
    after = listed(api)
    assert [e["id"] for e in after] == [e["id"] for e in before]
    assert [e["title"] for e in after] == ["Class"] * 3 + ["B"] * 3 + ["C"] * 3
    groups = [after[0]["series_id"], after[3]["series_id"], after[6]["series_id"]]
    assert groups[0] == series["id"] and len(set(groups)) == 3
    assert [e["series_id"] for e in after] == [g for g in groups for _ in range(3)]
    texts = [api.get(f"{NS}/events/{g}/occurrences").json()["total"] for g in groups]
    assert texts == [3, 3, 3]
