"""One event as an iCalendar ``VEVENT`` (RFC 5545, RFC 7986), built with ``icalendar`` from what
the caller may see of it: its JSON object (protected content already blanked) and its row (the
revision, the exact dates and the last modification).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

from icalendar import Event, vRecur, vUri

from eventcal.resources.spec import Shown
from eventcal.storage.db import Row, as_local, as_utc
from eventcal.timezones import resolve_timezone

STATUSES = {"cancelled": "CANCELLED", "postponed": "TENTATIVE"}
"""``event_status`` → ``STATUS`` (anything else is CONFIRMED)."""
_BLOCK_END = re.compile(r"</(?:p|div|li|h[1-6]|blockquote|pre|tr|table|ul|ol)\s*>", re.IGNORECASE)
_LINE_BREAK = re.compile(r"<br\s*/?>\n?", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
_SPACES = re.compile(r"[ \t\r\f\v]+")
_BLANK_LINES = re.compile(r"\n{3,}")


def paragraphs(markup: str) -> str:
    """HTML as plain text: tags removed, entities decoded, paragraphs kept (a blank line
    between them) and line breaks kept."""
    text = _LINE_BREAK.sub("\n", _BLOCK_END.sub("\n\n", markup))
    text = html.unescape(_TAG.sub("", text))
    lines = (_SPACES.sub(" ", line).strip() for line in text.split("\n"))
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()


def one_line(markup: str) -> str:
    return " ".join(paragraphs(markup).split())


def zone_of(row: Row, site_zone: tzinfo) -> tzinfo:
    return resolve_timezone(str(row["timezone"])) or site_zone


def tzid(zone: tzinfo) -> str | None:
    """The zone's ``TZID``: the IANA name, ``UTC+2``/``UTC-5:30`` for fixed offsets, None for
    UTC (its times are written with ``Z``)."""
    if isinstance(zone, ZoneInfo):
        return zone.key
    offset = zone.utcoffset(None) if isinstance(zone, timezone) else None
    if offset is None or offset == timedelta(0):
        return None
    minutes = int(offset.total_seconds()) // 60
    hours, rest = divmod(abs(minutes), 60)
    sign = "-" if minutes < 0 else "+"
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def add_time(vevent: Event, name: str, local: datetime, zone: tzinfo, *, all_day: bool) -> None:
    """A date (all-day) or a wall-clock time with its zone's ``TZID`` (UTC: ``Z``)."""
    if all_day:
        vevent.add(name, local.date())
        return
    name_of_zone = tzid(zone)
    if name_of_zone is None:
        vevent.add(name, local.replace(tzinfo=None).replace(tzinfo=UTC))
    else:
        vevent.add(name, local.replace(tzinfo=None), parameters={"TZID": name_of_zone})


def _dates(vevent: Event, row: Row, zone: tzinfo) -> None:
    """DTSTART and DTEND: all-day events end the day after their last day (DTEND is
    exclusive); an event that ends when it starts has no DTEND."""
    start, end = as_local(row["start_local"]), as_local(row["end_local"])
    all_day = bool(row["all_day"])
    add_time(vevent, "DTSTART", start, zone, all_day=all_day)
    if all_day:
        last = max(end.date(), start.date())
        vevent.add("DTEND", last + timedelta(days=1))
    elif end > start:
        add_time(vevent, "DTEND", end, zone, all_day=False)


def _location(vevent: Event, item: dict[str, Any]) -> None:
    venue = item.get("venue") or {}
    online = item.get("online_url") or ""
    if isinstance(venue, dict) and venue:
        parts = [venue.get(k, "") for k in ("venue", "address", "city", "stateprovince")]
        parts += [" ".join(p for p in (venue.get("zip", ""), venue.get("country", "")) if p)]
        text = ", ".join(one_line(str(p)) for p in parts if p)
        if text:
            vevent.add("LOCATION", text)
        if "geo_lat" in venue and "geo_lng" in venue:
            vevent.add("GEO", (float(venue["geo_lat"]), float(venue["geo_lng"])))
    elif online:
        vevent.add("LOCATION", online)
    if online:
        vevent.add("CONFERENCE", vUri(online), parameters={"VALUE": "URI"})


def _organizer(vevent: Event, item: dict[str, Any]) -> None:
    organizers = item.get("organizer") or []
    if not organizers:
        return
    first = organizers[0]
    address = f"mailto:{first['email']}" if first.get("email") else first.get("url", "")
    if address:
        name = one_line(str(first.get("organizer", "")))
        vevent.add("ORGANIZER", vUri(address), parameters={"CN": name} if name else {})


def description(item: dict[str, Any]) -> str:
    """The status reason first, then the description's paragraphs."""
    texts = [paragraphs(str(item.get("status_reason") or "")), paragraphs(item["description"])]
    return "\n\n".join(t for t in texts if t)


def vevent(shown: Shown, host: str, site_zone: tzinfo, *, uid_id: int | None = None) -> Event:
    """The VEVENT of one event (or occurrence); ``uid_id`` names the series it belongs to."""
    item, row = shown.item, shown.row
    event = Event()
    event.add("UID", f"{uid_id or row['id']}@{host}")
    modified = as_utc(row["modified_at"]).replace(microsecond=0)
    event.add("DTSTAMP", modified)
    event.add("LAST-MODIFIED", modified)
    event.add("SEQUENCE", int(row["revision"]))
    _dates(event, row, zone_of(row, site_zone))
    event.add("SUMMARY", one_line(item["title"]))
    text = description(item)
    if text:
        event.add("DESCRIPTION", text)
    _location(event, item)
    names = [one_line(c["name"]) for c in item.get("categories") or []]
    if names:
        event.add("CATEGORIES", names)
    event.add("URL", vUri(item["url"]), parameters={"VALUE": "URI"})
    _organizer(event, item)
    event.add("STATUS", STATUSES.get(item["event_status"], "CONFIRMED"))
    return event


def add_rule(event: Event, lines: Sequence[str]) -> None:
    """The series' RRULE, as stored (normalised: UNTIL in UTC, or a date for all-day ones)."""
    for line in lines:
        if line.startswith("RRULE:"):
            event.add("RRULE", vRecur.from_ical(line[len("RRULE:") :]))


def add_dates(
    event: Event, name: str, values: Sequence[datetime], zone: tzinfo, *, all_day: bool
) -> None:
    """RDATE or EXDATE values, each on its own line (some readers keep only a line's first
    value), in the zone of DTSTART."""
    for value in sorted(set(values)):
        add_time(event, name, value, zone, all_day=all_day)


def recurrence_id(event: Event, original: datetime, zone: tzinfo, *, all_day: bool) -> None:
    add_time(event, "RECURRENCE-ID", original, zone, all_day=all_day)


def last_day(row: Row) -> date:
    return as_local(row["end_local"]).date()
