"""Totals filtered by venue or venue location are counted in the venue's index; ``geoloc``,
``featured=0`` and event statuses or attendance modes that include the default value from the
smaller side, the other side read in the partial indexes of 0017 (``domains/events/sides.py``):
exact for either side, whatever else leaves events out (drafts, hidden, outside the window),
with an event status the API does not write."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from eventcal.domains.events import sides
from tests import factories
from tests.conftest import NS, Api

QUERIES = (
    "featured=1",
    "featured=0",
    "event_status=scheduled",
    "event_status=cancelled",
    "event_status=cancelled,postponed",
    "event_status=scheduled,postponed",
    "event_status=scheduled&page=2&per_page=5",
    "attendance_mode=offline",
    "attendance_mode=online,mixed",
    "venue={venue}",
    "venue={venue}&featured=1",
    "geoloc=1",
    "geoloc=0",
)


def make(api: Api, start: str, **fields: Any) -> int:
    title = f"Event {start}"
    return api.run(partial(factories.make_event, api.database, title, start=start, **fields))


def seed(api: Api) -> int:
    """Events at the recorded time's default window (2026-11-21 … 2028-11-22)."""
    venue = api.run(partial(factories.make_venue, api.database, "Hall"))  # not located
    located = api.run(
        partial(factories.make_venue, api.database, "Park", latitude=52.5, longitude=13.4)
    )
    half = api.run(partial(factories.make_venue, api.database, "Pier", latitude=52.5))
    for i in range(12):
        make(
            api,
            f"2026-12-{i + 1:02d} 20:00:00",
            featured=i % 3 == 0,
            event_status="cancelled" if i % 4 == 1 else "scheduled",
            attendance_mode="online" if i % 5 == 2 else "offline",
            venue_id=(venue, located, half)[i % 3] if i % 2 else None,
        )
    make(api, "2026-12-20 20:00:00", event_status="postponed", featured=True, venue_id=located)
    make(api, "2026-12-21 20:00:00", event_status="moved-online", venue_id=venue)
    make(api, "2026-12-22 20:00:00", event_status="cancelled", status="draft", venue_id=venue)
    make(api, "2026-12-22 21:00:00", featured=True, hide_from_listings=True, venue_id=venue)
    make(api, "2026-11-01 20:00:00", featured=True, event_status="cancelled", venue_id=venue)
    make(api, "2029-01-01 20:00:00", event_status="postponed", venue_id=venue)
    make(api, "2026-12-23 20:00:00", event_status="unknown")  # not one the API writes
    return venue


def totals(api: Api, venue: int) -> dict[tuple[str | None, str], int]:
    found = {}
    for as_, status in ((None, ""), ("administrator", "&status=publish,draft")):
        for query in QUERIES:
            url = f"{NS}/events?per_page=50&{query.format(venue=venue)}{status}"
            response = api.get(url, as_=as_)
            assert response.status_code == 200, response.text
            total = int(response.headers["x-tec-total"])
            listed = len(response.json().get("events", []))
            assert total == listed or "page=2" in query, (query, status)
            found[(as_, query + status)] = total
    return found


def test_either_side_gives_the_exact_total(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    venue = seed(api)
    others = sides.OTHERS.copy()
    monkeypatch.setattr(sides, "OTHERS", {})
    direct = totals(api, venue)  # the values asked, counted in full
    assert direct[(None, "featured=1")] == 5
    assert direct[(None, "event_status=scheduled")] == 9
    assert direct[(None, "event_status=scheduled&page=2&per_page=5")] == 9
    assert direct[(None, "event_status=cancelled,postponed")] == 4
    assert direct[(None, "attendance_mode=online,mixed")] == 2
    assert direct[("administrator", "venue={venue}&status=publish,draft")] == 4
    assert direct[(None, "geoloc=1")] == 3  # the pier has no longitude
    assert direct[(None, "geoloc=0")] == 12
    complements: list[str] = []

    def spy(name: str) -> Any:
        async def other(conn: Any, shape: Any, values: dict[str, Any]) -> Any:
            side = await others[name](conn, shape, values)
            complements.extend([name] if side is not None else [])
            return side

        return other

    monkeypatch.setattr(sides, "OTHERS", {name: spy(name) for name in others})
    assert totals(api, venue) == direct  # each side below sides.FEW: the smaller one at once
    monkeypatch.setattr(sides, "FEW", 1)  # every side is large: counted in turn
    assert totals(api, venue) == direct
    assert set(complements) == {"geoloc", "featured", "event_status", "attendance_mode"}
