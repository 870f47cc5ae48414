"""What the iCalendar tests share: a feed fetched and parsed by two independent parsers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import icalendar
import vobject

from tests.conftest import NS, Api

MEDIA_TYPE = "text/calendar; charset=utf-8"


@dataclass
class Feed:
    """A feed as sent, as ``icalendar`` reads it and as ``vobject`` reads it."""

    response: Any
    calendar: icalendar.Calendar
    other: Any

    @property
    def text(self) -> str:
        return str(self.response.text)

    @property
    def events(self) -> list[Any]:
        """The VEVENTs (typed loosely: a property is any of icalendar's value types)."""
        return list(self.calendar.walk("VEVENT"))

    @property
    def other_events(self) -> list[Any]:
        return list(getattr(self.other, "vevent_list", []))

    def by_uid(self, uid: str) -> Any:
        found = [e for e in self.events if str(e["UID"]) == uid]
        assert len(found) == 1, [str(e["UID"]) for e in self.events]
        return found[0]

    def utc_starts(self) -> dict[str, datetime]:
        """UID → DTSTART in UTC, as vobject reads it (with the feed's VTIMEZONEs)."""
        starts = {}
        for vevent in self.other_events:
            value = vevent.dtstart.value
            starts[str(vevent.uid.value)] = value.astimezone(UTC)
        return starts


def fetch(api: Api, path: str, *, as_: str | None = None, **kwargs: Any) -> Feed:
    """A feed that must be served: 200, its media type, parsed by both parsers alike."""
    response = api.get(path if path.startswith("/") else f"{NS}/{path}", as_=as_, **kwargs)
    assert response.status_code == 200, response.text[:500]
    assert response.headers["content-type"] == MEDIA_TYPE
    calendar = icalendar.Calendar.from_ical(response.content)
    other = vobject.readOne(response.content.decode("utf-8"))
    feed = Feed(response, calendar, other)
    assert len(feed.other_events) == len(feed.events)
    return feed


def create(api: Api, title: str, start: str, end: str, **fields: Any) -> dict[str, Any]:
    response = api.post(
        f"{NS}/events", json={"title": title, "start_date": start, "end_date": end, **fields}
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def uid(event: dict[str, Any]) -> str:
    return f"{event['id']}@127.0.0.1"


def zones(feed: Feed) -> list[Any]:
    """The VTIMEZONEs."""
    return list(feed.calendar.walk("VTIMEZONE"))
