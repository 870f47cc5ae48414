"""How an event reads on a page: its times (in its own zone, the zone named when it is not the
site's), its status, its text as plain paragraphs, and which of its URLs may become links."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from eventcal.i18n import N_
from eventcal.resources.text import plain_text
from eventcal.web.grid import covered_days, local_datetime
from eventcal.web.render import Words

STATUS_WORDS = {
    "cancelled": N_("Cancelled"),
    "postponed": N_("Postponed"),
    "rescheduled": N_("Rescheduled"),
    "moved-online": N_("Moved online"),
}
ATTENDANCE_WORDS = {
    "online": N_("Online event"),
    "mixed": N_("In person and online"),
}
_BREAKS = re.compile(r"</p\s*>|<br\s*/?>|\n\s*\n", re.IGNORECASE)
_WEB = re.compile(r"^https?://[^\s\"'<>]+$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Line:
    """What an event's line in a view's day shows (worked out once per event and page: a
    multi-day event shows on several days)."""

    href: str
    title: str
    cancelled: bool
    time: str
    """The start time (empty for all-day events)."""
    zone: str
    zone_abbr: str
    status: str
    where: str
    """The venue's name."""
    first_day: date


@dataclass(frozen=True, slots=True)
class Describe:
    """Event texts in one language for one site zone (a template global)."""

    words: Words
    site_timezone: str
    _lines: dict[int, Line] = field(default_factory=dict)

    def line(self, event: dict[str, Any], links: Any) -> Line:
        """The event's :class:`Line` (``links``: the page's :class:`~eventcal.web.links.Links`)."""
        found = self._lines.get(id(event))
        if found is None:
            zone = self.zone(event)
            venue = event.get("venue")
            found = self._lines[id(event)] = Line(
                href=links.event(str(event["slug"])),
                title=str(event.get("title", "")),
                cancelled=event.get("event_status") == "cancelled",
                time=self.start_time(event),
                zone=zone,
                zone_abbr=str(event.get("timezone_abbr") or zone) if zone else "",
                status=self.status(event),
                where=str(venue.get("venue") or "") if isinstance(venue, dict) else "",
                first_day=self.first_day(event),
            )
        return found

    def zone(self, event: dict[str, Any]) -> str:
        """The event's zone when it is not the site's (else empty)."""
        name = str(event.get("timezone") or "")
        return name if name and name != self.site_timezone else ""

    def first_day(self, event: dict[str, Any]) -> date:
        return covered_days(event)[0]

    def start_time(self, event: dict[str, Any]) -> str:
        """``10:00`` (empty for all-day events)."""
        if event.get("all_day"):
            return ""
        return self.words.time(local_datetime(event["start_date"]))

    def when(self, event: dict[str, Any]) -> str:
        """The event's dates and times in a sentence of the page's language."""
        said = self.words
        start = local_datetime(event["start_date"])
        end = local_datetime(event["end_date"])
        first, last = covered_days(event)
        if event.get("all_day"):
            if first == last:
                return said.gettext(N_("{day}, all day"), day=said.long_date(first))
            return said.gettext(
                N_("{first} to {last}, all day"),
                first=said.long_date(first),
                last=said.long_date(last),
            )
        if first == last:
            text = said.gettext(
                N_("{day}, {start} to {end}"),
                day=said.long_date(first),
                start=said.time(start),
                end=said.time(end),
            )
        else:
            text = said.gettext(
                N_("{first}, {start} to {last}, {end}"),
                first=said.long_date(first),
                start=said.time(start),
                last=said.long_date(last),
                end=said.time(end),
            )
        zone = self.zone(event)
        return f"{text} ({zone})" if zone else text

    def status(self, event: dict[str, Any]) -> str:
        word = STATUS_WORDS.get(str(event.get("event_status", "")))
        return self.words.gettext(word) if word else ""

    def attendance(self, event: dict[str, Any]) -> str:
        word = ATTENDANCE_WORDS.get(str(event.get("attendance_mode", "")))
        return self.words.gettext(word) if word else ""


def linked_data(json_ld: dict[str, Any], url: str) -> dict[str, Any]:
    """An event's schema.org object as its page publishes it: at the page's URL, without the
    empty values the API's copy keeps for the original's shape (``"url": ""`` is an invalid URL
    to search engines) and without its placeholder ``"performer": "Organization"`` (a string
    names a performer)."""
    data = _without_empty(json_ld)
    data["url"] = url
    offers = data.get("offers")
    if isinstance(offers, dict):
        offers["url"] = url
    if isinstance(data.get("performer"), str):
        del data["performer"]
    return data


def _without_empty(value: dict[str, Any]) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for key, found in value.items():
        item = found
        if isinstance(found, dict):
            item = _without_empty(found)
        elif isinstance(found, list):
            item = [_without_empty(i) if isinstance(i, dict) else i for i in found]
        if item not in ("", None, [], {}):
            kept[key] = item
    return kept


def paragraphs(markup: str) -> list[str]:
    """A description as plain-text paragraphs (markup never reaches the page)."""
    return [text for text in (plain_text(part) for part in _BREAKS.split(markup or "")) if text]


def web_url(value: Any) -> str:
    """The value if it is an http(s) URL a link may point at (never ``javascript:``…)."""
    text = str(value or "").strip()
    return text if _WEB.match(text) else ""
