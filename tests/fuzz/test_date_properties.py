"""Properties of the date parser (``services/dates.py``): any input is a wall-clock time in the
supported range or None ("not a time"), and what the service writes reads back as itself."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from eventcal.resources.dates import (
    MAX_DATE_TEXT,
    date_details,
    format_datetime,
    iso_with_offset,
    parse_time,
)
from eventcal.timezones import to_local

NOW = datetime(2026, 11, 22, 4, 46, tzinfo=UTC)
ZONES = st.sampled_from(
    [
        UTC,
        ZoneInfo("Europe/Berlin"),
        ZoneInfo("America/New_York"),
        ZoneInfo("Australia/Darwin"),
        ZoneInfo("Pacific/Kiritimati"),
        ZoneInfo("Pacific/Pago_Pago"),
    ]
)
NAIVE = st.datetimes(
    min_value=datetime(1000, 1, 1), max_value=datetime(9999, 12, 31, 23, 59, 59)
).map(lambda value: value.replace(microsecond=0))
"""Wall-clock times the API stores and shows (years 1000-9999, whole seconds)."""
PHRASES = st.sampled_from(
    [
        "tomorrow",
        "tomorrow 9am",
        "next wednesday 5pm",
        "+5 days 11am",
        "noon",
        "midnight",
        "friday",
        "in 3 hours",
        "last day of next month",
        "yesterday 23:59",
        "9999-12-31 23:59:59",
        "1000-01-01",
        "0999-12-31",
        "10000-01-01",
        "2026-02-29",
        "2024-02-29T12:00:00+14:00",
        "2024-02-29T12:00:00-12:00",
        "9999-12-31T23:59:59-12:00",
        "1000-01-01T00:00:00+14:00",
        "24:00",
        "13pm",
        "0am",
        "99999999999999999999",
        "-1",
        "1e10",
        "\x00tomorrow",
        "tomorrow\x00",
        "' OR 1=1 --",
        "%d %s %n",
        "\u0661\u0662:\u0660\u0660",
        "\U0001d7d7am",
    ]
)


def _in_range(value: datetime) -> bool:
    return value.tzinfo is None and 1000 <= value.year <= 9999 and value.microsecond == 0


KNOWN_WORDS = (
    "next last this first day of ago in +5 -3 days weeks month year hours am pm at noon"
    " midnight now monday fri tomorrow yesterday 9 12:30 23:59:59 2026 02 31 - / . , T Z"
    " +02:00 UTC CET EST 0 99999"
)
WORDS = st.lists(
    st.sampled_from(KNOWN_WORDS.split()),
    max_size=6,
).map(" ".join)
"""Phrases made of words the date parsers know."""
ANY_VALUE = st.one_of(
    WORDS,
    st.text(max_size=MAX_DATE_TEXT + 5),
    st.text(alphabet="0123456789-:T +Zapmnoxtdy", max_size=30),
    PHRASES,
    st.integers(),
    st.floats(),
    st.booleans(),
    st.none(),
    st.binary(max_size=20),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2),
)


@settings(max_examples=2000)
@given(value=ANY_VALUE, zone=ZONES)
def test_any_value_is_a_time_in_range_or_none(value: Any, zone: tzinfo) -> None:
    parsed = parse_time(value, zone, NOW)
    assert parsed is None or (type(parsed) is datetime and _in_range(parsed))


@given(value=NAIVE, zone=ZONES)
def test_formatted_times_read_back_as_themselves(value: datetime, zone: tzinfo) -> None:
    text = format_datetime(value)
    assert parse_time(text, zone, NOW) == value
    assert parse_time(text.replace(" ", "T"), zone, NOW) == value
    assert parse_time(f"  {text}\n", zone, NOW) == value


@given(value=NAIVE, zone=ZONES)
def test_dates_read_as_midnight(value: datetime, zone: tzinfo) -> None:
    assert parse_time(value.date().isoformat(), zone, NOW) == datetime.combine(
        value.date(), datetime.min.time()
    )


@given(value=NAIVE, zone=ZONES, offset=st.integers(min_value=-12 * 60, max_value=14 * 60))
def test_times_with_an_offset_are_instants_shown_in_the_zone(
    value: datetime, zone: tzinfo, offset: int
) -> None:
    instant = value.replace(tzinfo=timezone(timedelta(minutes=offset)))
    try:
        expected: datetime | None = to_local(instant, zone)
    except OverflowError:  # beyond year 9999 in UTC
        expected = None
    if expected is not None and not _in_range(expected):
        expected = None
    assert parse_time(instant.isoformat(), zone, NOW) == expected
    assert parse_time(instant.isoformat(sep=" "), zone, NOW) == expected


@given(
    instant=st.datetimes(
        min_value=datetime(1970, 1, 1), max_value=datetime(9999, 12, 30), timezones=st.just(UTC)
    ),
    zone=ZONES,
)
def test_timestamps_are_instants_shown_in_the_zone(instant: datetime, zone: tzinfo) -> None:
    timestamp = int(instant.timestamp())
    expected = to_local(datetime.fromtimestamp(timestamp, UTC), zone)
    assert parse_time(timestamp, zone, NOW) == expected
    assert parse_time(str(timestamp), zone, NOW) == expected
    assert parse_time(float(timestamp), zone, NOW) == expected


@given(value=NAIVE, zone=ZONES)
def test_written_forms_agree(value: datetime, zone: tzinfo) -> None:
    text = format_datetime(value)
    details = date_details(text)
    assert "{year}-{month}-{day} {hour}:{minutes}:{seconds}".format(**details) == text
    if 1900 < value.year < 9999:  # the zone's offset is known inside this range
        assert parse_time(iso_with_offset(value, zone), zone, NOW) in (
            value,
            # a wall-clock time that does not exist (skipped by a DST change) moves
            to_local(value.replace(tzinfo=zone).astimezone(UTC), zone),
        )
