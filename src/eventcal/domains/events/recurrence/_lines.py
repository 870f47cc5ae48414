"""Normalised lines: the one spelling of a rule that ``parse`` and the edits produce.

``RRULE:FREQ=…;INTERVAL=…;COUNT=…;UNTIL=…;BYMONTH=…;BYMONTHDAY=…;BYDAY=…;BYSETPOS=…;WKST=…``
(parts absent or at their default left out), then one ``RDATE`` and one ``EXDATE`` line with
sorted values: ``;TZID=<event zone>:20270105T100000,…`` for timed series, ``;VALUE=DATE:20270105``
for all-day ones. UNTIL is UTC (``…Z``) for timed series, as RFC 5545 requires next to a
DTSTART with TZID, and a DATE for all-day ones.
"""

from __future__ import annotations

from datetime import datetime

from eventcal.domains.events.recurrence._model import WEEKDAYS, Pattern, Rule
from eventcal.domains.events.recurrence._values import (
    format_date,
    format_local,
    format_utc,
    wall_clock,
)
from eventcal.timezones import resolve_timezone


def _numbers(values: tuple[int, ...]) -> str:
    return ",".join(str(value) for value in values)


def _weekday(weekday: int, ordinal: int) -> str:
    return f"{ordinal}{WEEKDAYS[weekday]}" if ordinal else WEEKDAYS[weekday]


def rrule_line(pattern: Pattern, *, zone_name: str, all_day: bool) -> str:
    parts = [f"FREQ={pattern.freq}"]
    if pattern.interval != 1:
        parts.append(f"INTERVAL={pattern.interval}")
    if pattern.count is not None:
        parts.append(f"COUNT={pattern.count}")
    if pattern.until is not None:
        if all_day:
            zone = resolve_timezone(zone_name)
            assert zone is not None
            parts.append(f"UNTIL={format_date(wall_clock(pattern.until, zone))}")
        else:
            parts.append(f"UNTIL={format_utc(pattern.until)}")
    if pattern.bymonth:
        parts.append(f"BYMONTH={_numbers(pattern.bymonth)}")
    if pattern.bymonthday:
        parts.append(f"BYMONTHDAY={_numbers(pattern.bymonthday)}")
    if pattern.byday:
        parts.append("BYDAY=" + ",".join(_weekday(*item) for item in pattern.byday))
    if pattern.bysetpos:
        parts.append(f"BYSETPOS={_numbers(pattern.bysetpos)}")
    if pattern.wkst:
        parts.append(f"WKST={WEEKDAYS[pattern.wkst]}")
    return "RRULE:" + ";".join(parts)


def _dates_line(name: str, values: tuple[datetime, ...], *, zone_name: str, all_day: bool) -> str:
    if all_day:
        return f"{name};VALUE=DATE:" + ",".join(format_date(value) for value in values)
    # Zone spellings such as "+02:00" hold a colon: quote them (RFC 5545 §3.2).
    tzid = f'"{zone_name}"' if any(char in zone_name for char in ":;,") else zone_name
    return f"{name};TZID={tzid}:" + ",".join(format_local(value) for value in values)


def make_rule(
    *,
    start: datetime,
    zone_name: str,
    all_day: bool,
    pattern: Pattern | None,
    rdates: tuple[datetime, ...] | list[datetime] = (),
    exdates: tuple[datetime, ...] | list[datetime] = (),
) -> Rule:
    """A Rule with its normalised lines; dates are sorted and made unique here."""
    unique_rdates = tuple(sorted(set(rdates)))
    unique_exdates = tuple(sorted(set(exdates)))
    lines = []
    if pattern is not None:
        lines.append(rrule_line(pattern, zone_name=zone_name, all_day=all_day))
    if unique_rdates:
        lines.append(_dates_line("RDATE", unique_rdates, zone_name=zone_name, all_day=all_day))
    if unique_exdates:
        lines.append(_dates_line("EXDATE", unique_exdates, zone_name=zone_name, all_day=all_day))
    return Rule(
        lines=tuple(lines),
        start=start,
        zone_name=zone_name,
        all_day=all_day,
        pattern=pattern,
        rdates=unique_rdates,
        exdates=unique_exdates,
    )
