"""Time zone names as the original accepts them: IANA names, ``UTC±h`` offsets, ``±hh:mm``."""

from __future__ import annotations

import re
import zoneinfo
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from functools import cache

_UTC_OFFSET = re.compile(r"^UTC([+-])(\d{1,2})(?:\.(\d{1,2})|:(\d{2}))?$", re.IGNORECASE)
_ISO_OFFSET = re.compile(r"^([+-])(\d{2}):?(\d{2})$")


@cache
def _zone_names() -> dict[str, str]:
    """Lower-case name → canonical IANA key, for case-insensitive lookups."""
    names = zoneinfo.available_timezones() - {"localtime", "posixrules"}
    return {name.lower(): name for name in names}


def canonical_timezone_name(name: str) -> str | None:
    """The stored spelling of a zone name (``europe/berlin`` → ``Europe/Berlin``), or None."""
    name = name.strip()
    if not name or len(name) > 64:
        return None
    if name.upper() == "UTC":
        return "UTC"
    match = _UTC_OFFSET.match(name)
    if match:
        sign, hours_text, decimal, minutes_text = match.groups()
        minutes = int(hours_text) * 60
        if decimal is not None:
            minutes += round(float("0." + decimal) * 60)
        elif minutes_text is not None:
            minutes += int(minutes_text)
        if minutes > 14 * 60 or (minutes_text is not None and int(minutes_text) >= 60):
            return None
        hours_value = minutes / 60
        spelled = f"{hours_value:.2f}".rstrip("0").rstrip(".")
        return f"UTC{sign}{spelled}"
    match = _ISO_OFFSET.match(name)
    if match:
        sign, hours_part, minutes_part = match.groups()
        if int(hours_part) > 14 or int(minutes_part) >= 60:
            return None
        return f"{sign}{hours_part}:{minutes_part}"
    return _zone_names().get(name.lower())


@cache
def resolve_timezone(name: str) -> tzinfo | None:
    """The ``tzinfo`` for a zone name in any accepted spelling, or None when unknown."""
    canonical = canonical_timezone_name(name)
    if canonical is None:
        return None
    if canonical == "UTC":
        return UTC
    if canonical.startswith("UTC"):
        sign = -1 if canonical[3] == "-" else 1
        hours = float(canonical[4:])
        return timezone(sign * timedelta(minutes=round(hours * 60)), canonical)
    if canonical[0] in "+-":
        sign = -1 if canonical[0] == "-" else 1
        offset = timedelta(hours=int(canonical[1:3]), minutes=int(canonical[4:6]))
        return timezone(sign * offset, canonical)
    return zoneinfo.ZoneInfo(canonical)


def zone_abbreviation(zone: tzinfo, local: datetime) -> str:
    """``EST``/``CEST``/``UTC``…; for offset zones the zone's own spelling (``UTC+2``)."""
    name = zone.tzname(local.replace(tzinfo=None) if isinstance(zone, timezone) else local)
    return name or ""


def to_utc(local: datetime, zone: tzinfo) -> datetime:
    """Interpret a naive wall-clock time in ``zone`` and return the aware UTC instant."""
    return local.replace(tzinfo=zone).astimezone(UTC)


def to_local(instant: datetime, zone: tzinfo) -> datetime:
    """The naive wall-clock time in ``zone`` of an aware instant."""
    if instant.tzinfo is None:
        instant = instant.replace(tzinfo=UTC)
    return instant.astimezone(zone).replace(tzinfo=None)
