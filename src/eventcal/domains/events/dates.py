"""Event dates: the zone, start and end a write sets, and the date windows of the listing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from eventcal.context import Call
from eventcal.errors import invalid
from eventcal.http.args import Invalid, truthy
from eventcal.http.request import RequestState
from eventcal.resources.dates import (
    OUT_OF_RANGE,
    UNREADABLE,
    clamped,
    end_of_day,
    format_datetime,
    parse_time,
    shown,
    start_of_day,
    storable,
)
from eventcal.storage.db import Row, as_local
from eventcal.timezones import canonical_timezone_name, resolve_timezone, to_local, to_utc

DATE_FIELDS = ("timezone", "start_date", "end_date", "all_day")
RELATIVE_FILTERS = ("starts_before", "starts_after", "ends_before", "ends_after")
DATE_FILTERS = ("start_date", "end_date", *RELATIVE_FILTERS)


def timezone_or_empty(value: Any, state: RequestState) -> str:
    if not isinstance(value, str):
        raise Invalid()
    if value.strip() == "":
        return ""
    canonical = canonical_timezone_name(value)
    if canonical is None:
        raise Invalid()
    return canonical


def _parse_event_time(name: str, value: Any, zone: tzinfo, now: datetime) -> datetime:
    parsed = parse_time(value, zone, now)
    if parsed is None:
        raise invalid(name, reason=UNREADABLE, value=shown(value))
    if not storable(parsed):
        raise invalid(name, OUT_OF_RANGE, param=name)
    return parsed


async def date_columns(call: Call, data: Mapping[str, Any], current: Row | None) -> dict[str, Any]:
    """Zone, start and end after a write (spec events §4.2 step 3, DEVIATIONS #16); nothing when
    an update sends no date field.

    Dates are read in the event's zone; a zone change alone keeps the wall-clock times."""
    if current is not None and not any(name in data for name in DATE_FIELDS):
        return {}
    if "timezone" in data:
        zone_name = canonical_timezone_name(data["timezone"]) or call.site.timezone_name
    elif current is not None:
        zone_name = current["timezone"] or call.site.timezone_name
    else:
        zone_name = call.site.timezone_name
    zone = resolve_timezone(zone_name) or call.site.zone
    if "start_date" in data:
        start = _parse_event_time("start_date", data["start_date"], zone, call.now)
    else:
        assert current is not None
        start = as_local(current["start_local"])
    if "end_date" in data:
        end = _parse_event_time("end_date", data["end_date"], zone, call.now)
    else:
        assert current is not None
        end = as_local(current["end_local"])
    if "all_day" in data:
        all_day = bool(data["all_day"])
    else:
        all_day = bool(current["all_day"]) if current is not None else False
    if all_day:
        start, end = start_of_day(start), end_of_day(end)
    if end < start:
        raise invalid("end_date", "The end date must not be before the start date.")
    return {
        "timezone": zone_name,
        "all_day": all_day,
        "start_local": start,
        "end_local": end,
        "start_at": to_utc(start, zone),
        "end_at": to_utc(end, zone),
    }


# --- the listing's windows ------------------------------------------------------------------


def strict_dates(value: Any, state: RequestState) -> bool:
    if isinstance(value, bool):
        return value
    if not isinstance(value, str) or value == "":
        raise Invalid()
    return truthy(value)


def default_archive_window(now: datetime, site_zone: tzinfo) -> tuple[datetime, datetime]:
    """The events archive's default ``start_date`` and ``end_date`` (site-local, naive).

    Start: the site-local time of "yesterday 23:59 UTC" (spec events §2.2); end: now + 24 months.
    """
    yesterday_utc = (now.astimezone(UTC) - timedelta(days=1)).replace(
        hour=23, minute=59, second=0, microsecond=0
    )
    start = to_local(yesterday_utc, site_zone)
    # The original formats "+24 months" with the server clock (UTC) and then reads the text as
    # a site-local time; February 29 rolls over to March 1 as in PHP.
    utc_now = now.astimezone(UTC).replace(tzinfo=None, microsecond=0)
    try:
        end = utc_now.replace(year=utc_now.year + 2)
    except ValueError:
        end = utc_now.replace(year=utc_now.year + 2, month=3, day=1)
    return start, end


def default_start(state: RequestState) -> str:
    start, _ = default_archive_window(state.now, state.site.zone)
    return format_datetime(start)


def default_end(state: RequestState) -> str:
    _, end = default_archive_window(state.now, state.site.zone)
    return format_datetime(end)


def _window_value(
    name: str, value: Any, strict: bool, site_zone: tzinfo, *, now: datetime, end: bool
) -> datetime:
    """A date filter as the original applies it (spec events §2.2).

    Whole-day mode: the value's date at 00:00:00 (``start_date``) or 23:59:59 (the others);
    a timestamp's date is taken in UTC. Strict mode: the value read as UTC, shown site-local.
    """
    if strict:
        parsed = parse_time(value, UTC, now)
        if parsed is None:
            raise invalid(name, reason=UNREADABLE, value=shown(value))
        return clamped(to_local(clamped(parsed).replace(tzinfo=UTC), site_zone))
    is_timestamp = isinstance(value, int) or (
        isinstance(value, str) and value.strip().isascii() and value.strip().isdigit()
    )
    parsed = parse_time(value, UTC if is_timestamp else site_zone, now)
    if parsed is None:
        raise invalid(name, reason=UNREADABLE, value=shown(value))
    return clamped(end_of_day(parsed) if end else start_of_day(parsed))


@dataclass(slots=True)
class Window:
    """The date filters in effect (site-local wall-clock)."""

    start_min: datetime | None = None
    end_max: datetime | None = None
    relative: dict[str, datetime | None] = field(default_factory=dict)


def date_window(
    sent: Mapping[str, Any], strict: bool, include: bool, site_zone: tzinfo, now: datetime
) -> Window:
    """Defaults apply only without relative filters; ``include`` ignores every date filter
    (DEVIATIONS #7)."""
    relative = {name: sent.get(name) for name in RELATIVE_FILTERS}
    window = Window(relative=dict.fromkeys(relative))
    if include:
        return window
    start_raw, end_raw = sent.get("start_date"), sent.get("end_date")
    if all(v is None for v in relative.values()):
        default_start, default_end = default_archive_window(now, site_zone)
        if strict:
            default_start, default_end = (
                to_local(to_utc(default_start, site_zone), UTC),
                to_local(to_utc(default_end, site_zone), UTC),
            )
        if start_raw is None:
            start_raw = format_datetime(default_start)
        if end_raw is None:
            end_raw = format_datetime(default_end)
    if start_raw is not None:
        window.start_min = _window_value(
            "start_date", start_raw, strict, site_zone, now=now, end=False
        )
    if end_raw is not None:
        window.end_max = _window_value("end_date", end_raw, strict, site_zone, now=now, end=True)
    for name, raw in relative.items():
        if raw is not None:
            window.relative[name] = _window_value(name, raw, strict, site_zone, now=now, end=True)
    return window
