"""Calendar pages over HTTP: a small site (a venue, an organizer, terms, events of several
shapes) created through the JSON API, and helpers to read pages."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from tests.conftest import NS, Api

# The recorded "now" is Sunday 2026-11-22 04:46 UTC: November 2026 is the current month.


def create(api: Api, collection: str, **fields: Any) -> dict[str, Any]:
    response = api.post(f"{NS}/{collection}", json=fields)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


@dataclass
class Site:
    venue: dict[str, Any]
    organizer: dict[str, Any]
    concert: dict[str, Any]
    festival: dict[str, Any]
    holiday: dict[str, Any]
    berlin: dict[str, Any]
    cancelled: dict[str, Any]


@pytest.fixture
def site(api: Api) -> Site:
    venue = create(api, "venues", venue="Town Hall", address="1 Main St", city="Springfield")
    organizer = create(api, "organizers", organizer="Friends of Music")
    concert = create(
        api,
        "events",
        title="Autumn Concert",
        start_date="2026-11-25 19:30:00",
        end_date="2026-11-25 21:30:00",
        venue=venue["id"],
        organizer=[organizer["id"]],
        categories=["Music"],
        tags=["Evening"],
        description="An evening of strings.\n\nBring a friend.",
        cost="10",
    )
    festival = create(
        api,
        "events",
        title="Winter Festival",
        start_date="2026-11-28 10:00:00",
        end_date="2026-12-02 18:00:00",
        categories=["Fairs"],
    )
    holiday = create(
        api,
        "events",
        title="Quiet Day",
        start_date="2026-11-12 00:00:00",
        end_date="2026-11-12 23:59:59",
        all_day=True,
    )
    berlin = create(
        api,
        "events",
        title="Berlin Talk",
        start_date="2026-11-20 18:00:00",
        end_date="2026-11-20 19:00:00",
        timezone="Europe/Berlin",
        venue=venue["id"],
    )
    cancelled = create(
        api,
        "events",
        title="Lost Lecture",
        start_date="2026-11-18 12:00:00",
        end_date="2026-11-18 13:00:00",
        event_status="cancelled",
        status_reason="The speaker is ill",
    )
    return Site(venue, organizer, concert, festival, holiday, berlin, cancelled)


def page(api: Api, path: str, status: int = 200, **kwargs: Any) -> Any:
    response = api.get(path, **kwargs)
    assert response.status_code == status, response.text[:2000]
    return response


def titles(html: str) -> list[str]:
    """The event titles a page links to, in document order."""
    return re.findall(r'<span class="title">([^<]*)</span>', html)


def cell(html: str, day: str) -> str:
    """The month grid's cell of a day (``2026-11-25``)."""
    found = re.search(
        r'<td[^>]*>\s*<a class="day-number" href="[^"]*date=' + day + r'[^"]*"(.*?)</td>',
        html,
        re.DOTALL,
    )
    assert found is not None, day
    return found.group(1)
