"""Reading dates the way the original does (PHP ``strtotime``), and writing them its way.

Accepted: Unix timestamps (digits), ISO 8601 dates and date-times (with or without an offset),
and English phrases such as ``tomorrow 9am``, ``next wednesday 4pm``, ``+5 days 11am``. Phrases go
to ``dateparser`` (a maintained parser); the common numeric forms never reach it.

Every function returns *naive wall-clock* datetimes in the zone it was given, because that is
what the original stores and compares. A timestamp or an ISO string with an offset is an instant
and is converted into that zone (the original stored a timestamp's UTC wall-clock as local time;
see DEVIATIONS).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from eventcal.i18n import N_
from eventcal.timezones import to_local

MAX_DATE_TEXT = 100
ZERO_DATE = "0000-00-00 00:00:00"

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_ISO_DATETIME = re.compile(
    r"^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$"
)
# Phrases naming a day reset the time to midnight in strtotime ("tomorrow" is 00:00 tomorrow),
# unless the phrase also names a time.
_DAY_WORDS = re.compile(
    r"\b(today|tomorrow|yesterday|midnight|mon(day)?|tue(sday)?|wed(nesday)?|thu(rsday)?"
    r"|fri(day)?|sat(urday)?|sun(day)?)\b",
    re.IGNORECASE,
)
_TIME_WORDS = re.compile(r"(\d\s*(am|pm)\b)|(\d{1,2}:\d{2})|\bnoon\b|\bnow\b", re.IGNORECASE)

_MIN_YEAR = 1000
_MAX_YEAR = 9999
EARLIEST = datetime(1000, 1, 1)
LATEST = datetime(9999, 12, 30, 23, 59, 59)
"""The wall-clock times an event or a filter may name, in any zone: the last day of year 9999
is kept free for every zone's offset (UTC-12 to UTC+14) and a day's arithmetic, so no stored
or filtered date overflows when it is converted to UTC and back."""
UNREADABLE = N_(
    "Could not read \u201c{value}\u201d as a date: use YYYY-MM-DD HH:MM:SS, a Unix timestamp or "
    "an English phrase such as \u201ctomorrow 9am\u201d."
)
OUT_OF_RANGE = N_(
    "{param} must be between 1000-01-01 and 9999-12-30 (the last day of year 9999 is kept "
    "free for time zones)."
)


def shown(value: Any) -> str:
    """A value as an error message quotes it (shortened)."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:39] + "\u2026"


def _in_range(value: datetime) -> bool:
    return _MIN_YEAR <= value.year <= _MAX_YEAR


def storable(value: datetime) -> bool:
    """Whether a wall-clock time lies within ``EARLIEST``…``LATEST``."""
    return EARLIEST <= value <= LATEST


def clamped(value: datetime) -> datetime:
    """A filter's time moved into ``EARLIEST``…``LATEST`` (no stored time lies outside)."""
    return min(max(value, EARLIEST), LATEST)


def parse_time(value: Any, zone: tzinfo, now: datetime) -> datetime | None:
    """A naive wall-clock datetime in ``zone``, or None when the value is not a time.

    ``now`` is the current UTC instant (aware); relative phrases count from it.
    """
    if isinstance(value, bool):
        return None
    try:
        if isinstance(value, int | float):
            return _from_timestamp(value, zone)
        if not isinstance(value, str):
            return None
        text = value.strip()
        if not text or len(text) > MAX_DATE_TEXT:
            return None
        if text.isascii() and text.isdigit():
            return _from_timestamp(int(text), zone)
        if _ISO_DATE.match(text) or _ISO_DATETIME.match(text):
            parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
            if parsed.tzinfo is not None:
                parsed = to_local(parsed, zone)
            parsed = parsed.replace(microsecond=0)
            return parsed if _in_range(parsed) else None
        return _parse_phrase(text, zone, now)
    except (ValueError, OverflowError, OSError):
        return None


def is_absolute(value: Any) -> bool:
    """Whether a date value names a time without reference to the present (a timestamp or an
    ISO 8601 date): responses built from it do not change as time passes."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return True
    if not isinstance(value, str):
        return False
    text = value.strip()
    if text.isascii() and text.isdigit():
        return True
    return bool(_ISO_DATE.match(text) or _ISO_DATETIME.match(text))


def _from_timestamp(value: float, zone: tzinfo) -> datetime | None:
    instant = datetime.fromtimestamp(int(value), UTC)
    local = to_local(instant, zone)
    return local if _in_range(local) else None


_WEEKDAYS = {
    name: number
    for number, names in enumerate(
        (
            ("mon", "monday"),
            ("tue", "tues", "tuesday"),
            ("wed", "wednesday"),
            ("thu", "thur", "thurs", "thursday"),
            ("fri", "friday"),
            ("sat", "saturday"),
            ("sun", "sunday"),
        )
    )
    for name in names
}
_SAME_DAY = re.compile(
    r"^(?:(?P<weekday>" + "|".join(sorted(_WEEKDAYS, key=len, reverse=True)) + r")\s*)?"
    r"(?:(?:at\s+)?(?:(?P<noon>noon)|(?P<midnight>midnight)|"
    r"(?P<hour>\d{1,2})(?::(?P<minute>\d{2}))?(?::(?P<second>\d{2}))?\s*(?P<ampm>am|pm)?))?$",
    re.IGNORECASE | re.ASCII,
)


def _same_day(text: str, base: datetime) -> datetime | None:
    """strtotime's reading of a bare time or weekday: ``9am``, ``noon`` and ``16:00`` are today;
    ``wednesday`` is today when it is Wednesday, else the next one (dateparser would move them
    into the future)."""
    match = _SAME_DAY.match(text.strip())
    if match is None or not any(match.groupdict().values()):
        return None
    weekday = match["weekday"]
    if weekday is not None and weekday.lower() not in _WEEKDAYS:
        return None
    hour = minute = second = 0
    if match["noon"]:
        hour = 12
    elif match["hour"] is not None:
        if match["ampm"] is None and match["minute"] is None:
            return None
        hour, minute, second = (
            int(match["hour"]),
            int(match["minute"] or 0),
            int(match["second"] or 0),
        )
        if match["ampm"]:
            if not 1 <= hour <= 12:
                return None
            hour = hour % 12 + (12 if match["ampm"].lower() == "pm" else 0)
        if hour > 23 or minute > 59 or second > 59:
            return None
    day = base
    if weekday is not None:
        ahead = (_WEEKDAYS[weekday.lower()] - base.weekday()) % 7
        day = base + timedelta(days=ahead)
    return day.replace(hour=hour, minute=minute, second=second, microsecond=0)


def _parse_phrase(text: str, zone: tzinfo, now: datetime) -> datetime | None:
    import dateparser

    base = to_local(now, zone).replace(microsecond=0)
    same_day = _same_day(text, base)
    if same_day is not None:
        return same_day
    parsed = dateparser.parse(
        text,
        languages=["en"],
        settings={
            "RELATIVE_BASE": base,
            "PREFER_DATES_FROM": "future",
            "RETURN_AS_TIMEZONE_AWARE": False,
            "STRICT_PARSING": False,
        },
    )
    if parsed is None:
        return None
    if _DAY_WORDS.search(text) and not _TIME_WORDS.search(text):
        parsed = parsed.replace(hour=0, minute=0, second=0)
    parsed = parsed.replace(microsecond=0)
    return parsed if _in_range(parsed) else None


def warm_up() -> None:
    """Load dateparser's language data now rather than on the first request (about 100 ms)."""
    _parse_phrase("tomorrow 9am", UTC, datetime.now(UTC))


def start_of_day(value: datetime) -> datetime:
    return value.replace(hour=0, minute=0, second=0, microsecond=0)


def end_of_day(value: datetime) -> datetime:
    return value.replace(hour=23, minute=59, second=59, microsecond=0)


def format_datetime(value: datetime) -> str:
    """``YYYY-MM-DD HH:MM:SS``, the only date-time format of the responses (the first 19
    characters of ISO 8601 with a space: no fraction, no offset; 3× faster than formatting
    each field, and a single event formats 16 dates)."""
    return value.isoformat(" ")[:19]


def date_details(text: str) -> dict[str, str]:
    """``{"year": "2017", "month": "01", …}`` from a formatted date-time (all strings)."""
    return {
        "year": text[0:4],
        "month": text[5:7],
        "day": text[8:10],
        "hour": text[11:13],
        "minutes": text[14:16],
        "seconds": text[17:19],
    }


def iso_with_offset(local: datetime, zone: tzinfo) -> str:
    """``2017-01-05T14:23:36-05:00`` for JSON-LD."""
    aware = local.replace(tzinfo=zone)
    return aware.isoformat(timespec="seconds")
