"""A write's statements do not grow with its links: the links of one link table are written by
one statement, the counts of one term table by one statement (its rows locked in id order), and
each count change is still logged under the term's own collection with its revision."""

from __future__ import annotations

from typing import Any

from eventcal.resources import changes
from tests.conftest import NS, Api

WHEN = {"start_date": "2026-12-10 19:00:00", "end_date": "2026-12-10 21:00:00"}


def _terms(api: Api, collection: str, names: list[str]) -> list[int]:
    return [api.post(f"{NS}/{collection}", json={"name": n}).json()["id"] for n in names]


def _statements(api: Api, method: str, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    before = api.statements
    response = api.request(method, path, json=body, as_="administrator")
    assert response.status_code in (200, 201), response.text
    return api.statements - before, response.json()


def _counts(api: Api, collection: str, ids: list[int]) -> list[int]:
    return [api.get(f"{NS}/{collection}/{i}").json()["count"] for i in ids]


def test_a_create_takes_as_many_statements_with_six_terms_as_with_two(api: Api) -> None:
    categories = _terms(api, "categories", ["Jazz", "Folk", "Rock"])
    tags = _terms(api, "tags", ["brass", "strings", "voice"])
    few, _ = _statements(
        api,
        "POST",
        f"{NS}/events",
        {"title": "Few", **WHEN, "categories": categories[:1], "tags": tags[:1]},
    )
    many, event = _statements(
        api,
        "POST",
        f"{NS}/events",
        {"title": "Many", **WHEN, "categories": categories, "tags": tags},
    )
    assert many == few
    assert sorted(c["id"] for c in event["categories"]) == categories
    assert _counts(api, "categories", categories) == [2, 1, 1]
    assert _counts(api, "tags", tags) == [2, 1, 1]


def test_an_update_that_swaps_terms_adjusts_both_in_one_statement_and_logs_each(
    api: Api,
) -> None:
    jazz, folk, rock = _terms(api, "categories", ["Jazz", "Folk", "Rock"])
    brass, strings, voice = _terms(api, "tags", ["brass", "strings", "voice"])
    event = api.post(
        f"{NS}/events", json={"title": "Gig", **WHEN, "categories": [jazz, folk], "tags": [brass]}
    ).json()
    start = _version(api)
    one, _ = _statements(
        api, "PATCH", f"{NS}/events/{event['id']}", {"categories": [folk, rock], "tags": [strings]}
    )
    assert _counts(api, "categories", [jazz, folk, rock]) == [0, 1, 1]
    assert _counts(api, "tags", [brass, strings]) == [0, 1]
    logged = [
        (r["kind"], r["item_id"], r["action"], r["revision"])
        for r in _log(api, start)
        if r["action"] == "count"
    ]
    assert logged == sorted(
        [
            ("tribe_events_cat", jazz, "count", 1),
            ("tribe_events_cat", rock, "count", 1),
            ("post_tag", brass, "count", 1),
            ("post_tag", strings, "count", 1),
        ],
        key=lambda c: c[1],
    )
    # Six counts changed (two terms out, one in; one out, two in): as many statements as four.
    six, _ = _statements(
        api, "PATCH", f"{NS}/events/{event['id']}", {"categories": [jazz], "tags": [brass, voice]}
    )
    assert six == one
    assert _counts(api, "categories", [jazz, folk, rock]) == [1, 0, 0]
    assert _counts(api, "tags", [brass, strings, voice]) == [1, 0, 1]


def test_the_reply_to_a_write_is_the_row_as_written(api: Api) -> None:
    created = api.post(f"{NS}/events", json={"title": "Gala", **WHEN, "excerpt": "Old"})
    event = created.json()
    read = api.get(f"{NS}/events/{event['id']}?context=edit", as_="administrator")
    assert _revision(created) == _revision(read) == "r1"
    assert {k: (v, read.json().get(k)) for k, v in event.items() if read.json().get(k) != v} == {}
    patched = api.patch(f"{NS}/events/{event['id']}", json={"excerpt": "New"})
    again = api.get(f"{NS}/events/{event['id']}?context=edit", as_="administrator")
    assert _revision(patched) == _revision(again) == "r2"
    assert patched.json()["excerpt"] == again.json()["excerpt"] == "<p>New</p>"
    trashed = api.delete(f"{NS}/events/{event['id']}")
    assert trashed.json()["status"] == "trash"
    assert _revision(trashed) == "r3"


def _log(api: Api, since: int) -> list[dict[str, Any]]:
    async def read() -> list[dict[str, Any]]:
        async with api.database.read() as conn:
            return [dict(row) for row in await changes.since(conn, since)]

    return api.run(read)


def _version(api: Api) -> int:
    return int(api.run(api.database.current_version))


def _revision(response: Any) -> str:
    return str(response.headers["ETag"]).strip('"').partition("-")[0]
