"""Listing venues and organizers: order, pages, visibility, search and relation
filters (spec venues.md, organizers.md; DEVIATIONS #10, #18)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from tests import factories
from tests.conftest import Api
from tests.domains.places.helpers import BOTH, VENUES, Collection, make


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
