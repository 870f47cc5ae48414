"""Reading and validating the RRULE value (RFC 5545 §3.3.10) into a :class:`Pattern`.

Supported parts: FREQ (DAILY, WEEKLY, MONTHLY, YEARLY), INTERVAL, COUNT, UNTIL, BYDAY (with
ordinals for MONTHLY and YEARLY), BYMONTHDAY, BYMONTH, BYSETPOS, WKST. The time-of-day parts and
BYYEARDAY/BYWEEKNO are refused: every occurrence starts at the event's time of day, and the
sentence of ``describe`` stays exact. Combinations RFC 5545 forbids are refused too (COUNT with
UNTIL, BYMONTHDAY with WEEKLY, ordinals with DAILY/WEEKLY, BYSETPOS alone).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo

from eventcal.domains.events.recurrence._model import (
    FREQUENCIES,
    MAX_COUNT,
    MAX_INTERVAL,
    WEEKDAYS,
    Pattern,
    RecurrenceError,
)
from eventcal.domains.events.recurrence._values import (
    end_of_day,
    instant,
    nominal,
    read_stamp,
)
from eventcal.i18n import N_

_BYDAY = re.compile(r"(?:([+-]?)([0-9]{1,2}))?(MO|TU|WE|TH|FR|SA|SU)")
_INTEGER = re.compile(r"[+-]?[0-9]{1,7}")
_PARTS = (
    "FREQ",
    "INTERVAL",
    "COUNT",
    "UNTIL",
    "BYMONTH",
    "BYMONTHDAY",
    "BYDAY",
    "BYSETPOS",
    "WKST",
)


@dataclass(frozen=True, slots=True)
class Series:
    """What a rule is read against: the event's nominal start, zone and all-day flag."""

    start: datetime
    zone_name: str
    zone: tzinfo
    all_day: bool


def clip(text: str, length: int = 40) -> str:
    """Client text quoted in a message, cut to a readable length."""
    return text if len(text) <= length else text[: length - 1] + "…"


def _integers(text: str | None, high: int, message: str, signed: bool) -> tuple[int, ...]:
    """A comma-separated list of integers from 1 to ``high`` (or -high to -1 when signed),
    unique, positive ones first, each group by size; () for an absent part."""
    if text is None:
        return ()
    values = set()
    for item in text.split(","):
        if _INTEGER.fullmatch(item.strip()) is None:
            raise RecurrenceError(message)
        value = int(item)
        if not 1 <= abs(value) <= high or (value < 0 and not signed):
            raise RecurrenceError(message)
        values.add(value)
    return tuple(sorted(values, key=lambda value: (value < 0, abs(value))))


def _interval(text: str) -> int:
    if _INTEGER.fullmatch(text) is None or not 1 <= int(text) <= MAX_INTERVAL:
        raise RecurrenceError(
            N_("RRULE: INTERVAL must be a whole number from 1 to {max}"), max=MAX_INTERVAL
        )
    return int(text)


def _count(text: str) -> int:
    if _INTEGER.fullmatch(text) is None:
        raise RecurrenceError(N_("RRULE: COUNT must be a whole number"))
    if int(text) < 1:
        raise RecurrenceError(N_("RRULE: COUNT must be at least 1"))
    if int(text) > MAX_COUNT:
        raise RecurrenceError(N_("RRULE: COUNT must be at most {max}"), max=MAX_COUNT)
    return int(text)


def _byday(text: str, freq: str, has_bymonth: bool) -> tuple[tuple[int, int], ...]:
    items = set()
    for item in text.split(","):
        match = _BYDAY.fullmatch(item.strip())
        if match is None:
            raise RecurrenceError(
                N_("RRULE: {value} in BYDAY is not a weekday such as MO, 2TU or -1FR"),
                value=item.strip(),
            )
        sign, number, code = match.groups()
        ordinal = int(number or 0) * (-1 if sign == "-" else 1)
        if number is not None and freq not in ("MONTHLY", "YEARLY"):
            raise RecurrenceError(
                N_("RRULE: an ordinal in BYDAY ({value}) needs FREQ=MONTHLY or YEARLY"),
                value=item.strip(),
            )
        highest = 53 if freq == "YEARLY" and not has_bymonth else 5
        if number is not None and not 1 <= abs(ordinal) <= highest:
            raise RecurrenceError(
                N_("RRULE: the ordinal in {value} must be from 1 to {max} or -{max} to -1"),
                value=item.strip(),
                max=highest,
            )
        items.add((WEEKDAYS.index(code), ordinal))
    return tuple(sorted(items))


def _until(text: str, series: Series) -> datetime:
    """UNTIL as an inclusive UTC instant (a DATE means the end of that day)."""
    stamp = read_stamp(text)
    if stamp is None:
        raise RecurrenceError(
            N_(
                "RRULE: UNTIL must be a date (YYYYMMDD) or a date-time "
                "(YYYYMMDDTHHMMSS or YYYYMMDDTHHMMSSZ)"
            )
        )
    try:
        if stamp.is_date or series.all_day:
            day = nominal(stamp, None, zone=series.zone, start=series.start, all_day=True)
            until = end_of_day(day, series.zone)
        elif stamp.utc:
            until = stamp.value.replace(tzinfo=UTC)
        else:
            until = instant(stamp.value, series.zone)
        start = instant(series.start, series.zone)
    except OverflowError as error:
        raise RecurrenceError(
            N_("RRULE: UNTIL ({until}) is out of range"), until=stamp.shown()
        ) from error
    if until < start:
        raise RecurrenceError(
            N_("UNTIL ({until}) is before the event's start"), until=stamp.shown()
        )
    return until


def _read_parts(text: str) -> dict[str, str]:
    """``NAME=VALUE`` parts by upper-case name; unknown, unsupported and repeated ones refused."""
    values: dict[str, str] = {}
    for raw in text.split(";"):
        part = raw.strip()
        if not part:
            continue
        name, separator, value = part.partition("=")
        name = name.strip().upper()
        if not separator:
            raise RecurrenceError(N_("RRULE: could not read {part}"), part=clip(part))
        if name not in _PARTS:
            raise RecurrenceError(
                N_(
                    "RRULE: {name} is not supported; use FREQ, INTERVAL, COUNT, UNTIL, BYDAY, "
                    "BYMONTHDAY, BYMONTH, BYSETPOS or WKST"
                ),
                name=clip(name),
            )
        if name in values:
            raise RecurrenceError(N_("RRULE: {name} is given twice"), name=name)
        values[name] = value.strip().upper()
    return values


def read_pattern(text: str, series: Series) -> Pattern:
    """The RRULE value (after ``RRULE:``) as a validated Pattern."""
    values = _read_parts(text)
    freq = values.get("FREQ")
    if freq is None:
        raise RecurrenceError(N_("RRULE: FREQ is required"))
    if freq not in FREQUENCIES:
        raise RecurrenceError(
            N_("FREQ={freq} is not supported; use DAILY, WEEKLY, MONTHLY or YEARLY"),
            freq=clip(freq),
        )
    if "COUNT" in values and "UNTIL" in values:
        raise RecurrenceError(N_("RRULE: COUNT and UNTIL cannot be used together"))
    if "BYMONTHDAY" in values and freq == "WEEKLY":
        raise RecurrenceError(N_("RRULE: BYMONTHDAY cannot be used with FREQ=WEEKLY"))
    if "BYSETPOS" in values:
        if freq == "DAILY":
            raise RecurrenceError(N_("RRULE: BYSETPOS needs FREQ=WEEKLY, MONTHLY or YEARLY"))
        if not {"BYDAY", "BYMONTHDAY", "BYMONTH"} & set(values):
            raise RecurrenceError(N_("RRULE: BYSETPOS needs BYDAY, BYMONTHDAY or BYMONTH"))
    wkst = values.get("WKST", "MO")
    if wkst not in WEEKDAYS:
        raise RecurrenceError(N_("RRULE: WKST must be a weekday: MO, TU, WE, TH, FR, SA or SU"))
    return Pattern(
        freq=freq,
        interval=_interval(values["INTERVAL"]) if "INTERVAL" in values else 1,
        count=_count(values["COUNT"]) if "COUNT" in values else None,
        until=_until(values["UNTIL"], series) if "UNTIL" in values else None,
        bymonth=_integers(
            values.get("BYMONTH"), 12, N_("RRULE: BYMONTH values must be from 1 to 12"), False
        ),
        bymonthday=_integers(
            values.get("BYMONTHDAY"),
            31,
            N_("RRULE: BYMONTHDAY values must be from 1 to 31 or -31 to -1"),
            True,
        ),
        byday=_byday(values["BYDAY"], freq, "BYMONTH" in values) if "BYDAY" in values else (),
        bysetpos=_integers(
            values.get("BYSETPOS"),
            366,
            N_("RRULE: BYSETPOS values must be from 1 to 366 or -366 to -1"),
            True,
        ),
        wkst=WEEKDAYS.index(wkst),
    )
