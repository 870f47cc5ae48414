"""Events as iCalendar (RFC 5545): ``/events.ics`` and ``/events/{id}.ics``.

The calendar is built with ``icalendar``, never by hand (folding, escaping and CRLF are the
library's). A VTIMEZONE per ``TZID`` used, always covering 1970–2037 (further when an event
does), so a zone is the same text in every feed (readers cache zones by TZID). A recurring
series is one VEVENT with its rule plus one VEVENT with ``RECURRENCE-ID`` per occurrence changed
on its own; occurrences the caller may not read are EXDATEs. A listing feed shows each occurrence
as an event of its own, unless ``collapse_recurring`` asks for each series once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from icalendar import Calendar, Event, Timezone, TimezoneStandard, vDuration

from eventcal.context import Call
from eventcal.domains.events import series, vevents
from eventcal.i18n import N_, translate
from eventcal.resources.listing import ListQuery
from eventcal.resources.posts.rules import may_read
from eventcal.resources.present import present_shown
from eventcal.resources.spec import Format, Resource, Shown
from eventcal.storage.db import Row, as_local, as_utc, in_values
from eventcal.storage.tables import event

MEDIA_TYPE = "text/calendar; charset=utf-8"
FIRST_DAY = date(1970, 1, 1)
LAST_YEAR = 2037
"""Zones cover at least 1970–2037 (the years every reader handles)."""
REFRESH = timedelta(hours=1)
CALENDAR_NAME = N_("Events on {host}")
TOO_MANY = N_(
    "The feed would hold {total} events, more than the {limit} one feed may hold "
    "({setting}): narrow it with start_date and end_date or other filters."
)

SERIES_ROWS = sa.select(event).where(
    sa.or_(
        in_values(event.c.id, "ids"),
        sa.and_(
            in_values(event.c.series_id, "ids"),
            sa.or_(event.c.overrides != "", event.c.status != "publish"),
        ),
    )
)
"""The masters of some series and those of their occurrences that are not simply the rule's
(changed on their own, or not published): a daily series' hundreds of plain occurrences are
never read (found by the index on ``series_id``)."""


@dataclass(slots=True)
class Series:
    """A series as the caller may see it: its master, its occurrences changed on their own,
    and the nominal starts of the occurrences the caller may not read."""

    master: Shown
    overrides: list[Shown] = field(default_factory=list)
    hidden: list[datetime] = field(default_factory=list)


async def gather(
    call: Call,
    resource: Resource,
    shown: Sequence[Shown],
    query: ListQuery | None,
    password: str | None,
) -> dict[int, Series] | None:
    """The series of the items shown, when they are shown whole (one event's feed, or a
    listing with ``collapse_recurring``): two queries, whatever the number of series."""
    if query is not None and "collapse" not in query.active:
        return None
    ids = sorted({_series_id(s.row) for s in shown} - {0})
    if not ids:
        return None
    rows = await call.conn.all(SERIES_ROWS, {"ids": ids})
    masters = [r for r in rows if r["recurrence"]]
    readable = [r for r in rows if not r["recurrence"] and _readable(call, r)]
    changed = [r for r in readable if series.overrides(r)]
    context_edit = query.context_edit if query is not None else False
    # A series' JSON shows its next occurrence; its VEVENT shows the series' own text.
    templates: list[Row] = [_with(r, recurrence="") for r in masters]
    presented = await present_shown(
        call, resource, [*templates, *changed], password=password, context_edit=context_edit
    )
    found = {
        int(r["id"]): Series(Shown(s.item, _with(s.row, recurrence=r["recurrence"])))
        for r, s in zip(masters, presented, strict=False)
    }
    for s in presented[len(masters) :]:
        found[int(s.row["series_id"])].overrides.append(s)
    seen = {int(r["id"]) for r in readable}
    for row in rows:
        if row["series_id"] in found and int(row["id"]) not in seen:
            found[int(row["series_id"])].hidden.append(as_local(row["occurrence_start"]))
    return found


def _with(row: Row, **values: Any) -> dict[str, Any]:
    data = {key: row[key] for key in row.keys()}  # noqa: SIM118 (rows are not dicts)
    data.update(values)
    return data


def _series_id(row: Row) -> int:
    return int(row["id"]) if row["recurrence"] else int(row["series_id"] or 0)


def _readable(call: Call, row: Row) -> bool:
    return row["status"] != "trash" and may_read(call.actor, row)


def render(
    call: Call, resource: Resource, shown: Sequence[Shown], found: dict[int, Series] | None
) -> bytes:
    """The VCALENDAR of the items shown (and of their series, when ``gather`` found them)."""
    host = urlsplit(call.urls.base).hostname or "localhost"
    site_zone = call.site.zone
    calendar = _calendar(call, host)
    components: list[Event] = []
    zones: dict[str, tuple[tzinfo, int]] = {}
    done: set[int] = set()
    for item in shown:
        whole = found.get(_series_id(item.row)) if found else None
        if whole is None:
            components.append(vevents.vevent(item, host, site_zone))
            _uses(zones, item.row, site_zone)
        elif int(whole.master.row["id"]) not in done:
            done.add(int(whole.master.row["id"]))
            components += _series_events(whole, host, site_zone)
            for member in (whole.master, *whole.overrides):
                _uses(zones, member.row, site_zone)
    if not components:
        # RFC 5545 wants at least one component: an empty feed carries the site's zone.
        zones[vevents.tzid(site_zone) or "UTC"] = (site_zone, LAST_YEAR)
    for name in sorted(zones):
        calendar.add_component(vtimezone(name, *zones[name]))
    for component in components:
        calendar.add_component(component)
    return bytes(calendar.to_ical())


def _calendar(call: Call, host: str) -> Calendar:
    calendar = Calendar()
    calendar.add("PRODID", f"-//eventcal//{host}//EN")
    calendar.add("VERSION", "2.0")
    calendar.add("CALSCALE", "GREGORIAN")
    calendar.add("METHOD", "PUBLISH")
    name = translate(CALENDAR_NAME, call.language, host=host)
    calendar.add("NAME", name)
    calendar.add("X-WR-CALNAME", name)
    calendar.add("REFRESH-INTERVAL", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("X-PUBLISHED-TTL", vDuration(REFRESH))
    zone = call.site.zone
    if zone is UTC or isinstance(zone, ZoneInfo):
        calendar.add("X-WR-TIMEZONE", call.site.timezone_name)
    return calendar


def _uses(zones: dict[str, tuple[tzinfo, int]], row: Row, site_zone: tzinfo) -> None:
    """Note the row's zone and the last year it needs covered."""
    if row["all_day"]:
        return
    zone = vevents.zone_of(row, site_zone)
    name = vevents.tzid(zone)
    if name is None:
        return
    year = max(LAST_YEAR, vevents.last_day(row).year)
    if row["recurrence"] and series.rule_of(row) is not None:
        year = max(year, _rule_end(row))
    known = zones.get(name)
    zones[name] = (zone, max(year, known[1] if known else year))


def _rule_end(row: Row) -> int:
    """The last year a series' VTIMEZONE must cover: its rule's end, or the stored horizon."""
    rule = series.rule_of(row)
    assert rule is not None
    pattern = rule.pattern
    last = max([rule.start, *rule.rdates])
    if pattern is not None and pattern.until is not None:
        last = max(last, pattern.until.replace(tzinfo=None))
    elif row["materialized_until"] is not None:
        last = max(last, as_utc(row["materialized_until"]).replace(tzinfo=None))
    return last.year


def _series_events(whole: Series, host: str, site_zone: tzinfo) -> list[Event]:
    """The series' VEVENT (its rule, RDATEs and EXDATEs in the zone of DTSTART) and one per
    occurrence changed on its own, each with the RECURRENCE-ID of its nominal start."""
    master = whole.master.row
    master_id = int(master["id"])
    zone = vevents.zone_of(master, site_zone)
    all_day = bool(master["all_day"])
    main = vevents.vevent(whole.master, host, site_zone)
    rule = series.rule_of(master)
    if rule is not None:
        vevents.add_rule(main, rule.lines)
        vevents.add_dates(main, "RDATE", rule.rdates, zone, all_day=all_day)
        hidden = [*rule.exdates, *whole.hidden]
        vevents.add_dates(main, "EXDATE", hidden, zone, all_day=all_day)
    found = [main]
    for changed in sorted(whole.overrides, key=lambda s: as_local(s.row["occurrence_start"])):
        one = vevents.vevent(changed, host, site_zone, uid_id=master_id)
        original = as_local(changed.row["occurrence_start"])
        vevents.recurrence_id(one, original, zone, all_day=all_day)
        found.append(one)
    return found


@lru_cache(maxsize=64)
def vtimezone(name: str, zone: tzinfo, last_year: int) -> Timezone:
    """The zone's VTIMEZONE from 1970 to the end of ``last_year``; each transition on an RDATE
    line of its own. A fixed offset is one STANDARD observance."""
    if not isinstance(zone, ZoneInfo):
        return _fixed(name, zone)
    found = Timezone.from_tzinfo(
        zone, tzid=name, first_date=FIRST_DAY, last_date=date(last_year + 1, 1, 1)
    )
    for observance in found.subcomponents:
        values = observance.get("RDATE")
        if values is None:
            continue
        listed = values if isinstance(values, list) else [values]
        del observance["RDATE"]
        for dates in listed:
            for value in dates.dts:
                observance.add("RDATE", value.dt)
    return found


def _fixed(name: str, zone: tzinfo) -> Timezone:
    offset = zone.utcoffset(None) if isinstance(zone, timezone) else timedelta(0)
    found = Timezone()
    found.add("TZID", name)
    standard = TimezoneStandard()
    standard.add("DTSTART", datetime(1970, 1, 1))
    standard.add("TZOFFSETFROM", offset)
    standard.add("TZOFFSETTO", offset)
    standard.add("TZNAME", name)
    found.add_component(standard)
    return found


def max_events(site: Any) -> int:
    return int(site.feed_max_events)


ICS = Format(
    extension="ics",
    media_type=MEDIA_TYPE,
    render=render,
    gather=gather,
    max_items=max_events,
    too_many=TOO_MANY,
    setting="EVENTCAL_FEED_MAX_EVENTS",
    item_key="ical_url",
    list_keys=(("ical_url", ""), ("webcal_url", "webcal")),
    summary="The events as iCalendar (RFC 5545)",
)
