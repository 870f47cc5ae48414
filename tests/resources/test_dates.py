"""Date parsing and formatting (spec README §2.3 "time", §3; events.md §2.2 defaults)."""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from eventcal.domains.events.dates import default_archive_window
from eventcal.resources.dates import (
    ZERO_DATE,
    date_details,
    format_datetime,
    iso_with_offset,
    parse_time,
)
from eventcal.timezones import resolve_timezone

NEW_YORK = ZoneInfo("America/New_York")
DARWIN = ZoneInfo("Australia/Darwin")
HONG_KONG = ZoneInfo("Asia/Hong_Kong")

# A Wednesday afternoon (UTC); New York is at 10:30 the same day, Darwin at 01:00 the next day.
NOW = datetime(2024, 1, 17, 15, 30, 0, tzinfo=UTC)
EPOCH_2018 = 1514764800  # 2018-01-01 00:00:00 UTC


def _zone(name: str) -> tzinfo:
    zone = resolve_timezone(name)
    assert zone is not None
    return zone


# --- parse_time: timestamps ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "zone", "expected"),
    [
        (EPOCH_2018, UTC, datetime(2018, 1, 1, 0, 0, 0)),
        (EPOCH_2018, NEW_YORK, datetime(2017, 12, 31, 19, 0, 0)),
        (EPOCH_2018, DARWIN, datetime(2018, 1, 1, 9, 30, 0)),
        (str(EPOCH_2018), UTC, datetime(2018, 1, 1, 0, 0, 0)),
        (str(EPOCH_2018), NEW_YORK, datetime(2017, 12, 31, 19, 0, 0)),
        (f"  {EPOCH_2018}  ", UTC, datetime(2018, 1, 1, 0, 0, 0)),
        (EPOCH_2018 + 0.9, UTC, datetime(2018, 1, 1, 0, 0, 0)),
        (1_500_000_000, NEW_YORK, datetime(2017, 7, 13, 22, 40, 0)),  # EDT, not EST
        (0, UTC, datetime(1970, 1, 1, 0, 0, 0)),
        ("3", UTC, datetime(1970, 1, 1, 0, 0, 3)),  # all digits is a timestamp, not a time
    ],
)
def test_timestamps_are_instants_converted_into_the_zone(
    value: Any, zone: tzinfo, expected: datetime
) -> None:
    assert parse_time(value, zone, NOW) == expected


# --- parse_time: ISO 8601 --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "zone", "expected"),
    [
        ("2018-01-01", UTC, datetime(2018, 1, 1, 0, 0, 0)),
        ("2018-01-01", NEW_YORK, datetime(2018, 1, 1, 0, 0, 0)),  # wall clock, not shifted
        ("2018-01-01 16:00:00", NEW_YORK, datetime(2018, 1, 1, 16, 0, 0)),
        ("2018-01-01 16:00", DARWIN, datetime(2018, 1, 1, 16, 0, 0)),
        ("2018-01-01T16:00:00", UTC, datetime(2018, 1, 1, 16, 0, 0)),
        ("2018-01-01T16:00:00.987654", UTC, datetime(2018, 1, 1, 16, 0, 0)),
        ("2018-01-01T16:00:00Z", UTC, datetime(2018, 1, 1, 16, 0, 0)),
        ("2018-01-01T16:00:00Z", NEW_YORK, datetime(2018, 1, 1, 11, 0, 0)),
        ("2018-01-01T02:00:00Z", NEW_YORK, datetime(2017, 12, 31, 21, 0, 0)),
        ("2018-01-01T16:00:00+05:00", UTC, datetime(2018, 1, 1, 11, 0, 0)),
        ("2018-01-01T16:00:00+0500", UTC, datetime(2018, 1, 1, 11, 0, 0)),
        ("2018-01-01T16:00:00-03:30", UTC, datetime(2018, 1, 1, 19, 30, 0)),
        ("2018-07-01T12:00:00+00:00", NEW_YORK, datetime(2018, 7, 1, 8, 0, 0)),
        ("2018-01-01T16:00:00+09:30", DARWIN, datetime(2018, 1, 1, 16, 0, 0)),
        ("1000-01-01", UTC, datetime(1000, 1, 1, 0, 0, 0)),
        ("9999-12-31 23:59:59", UTC, datetime(9999, 12, 31, 23, 59, 59)),
    ],
)
def test_iso_dates_and_datetimes(text: str, zone: tzinfo, expected: datetime) -> None:
    parsed = parse_time(text, zone, NOW)
    assert parsed is not None
    assert parsed == expected
    assert parsed.tzinfo is None


# --- parse_time: English phrases -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "zone", "now", "expected"),
    [
        ("tomorrow 9am", UTC, NOW, datetime(2024, 1, 18, 9, 0, 0)),
        ("tomorrow 9am", NEW_YORK, NOW, datetime(2024, 1, 18, 9, 0, 0)),
        # 20:00 UTC is already the 18th in Hong Kong, so "tomorrow" is the 19th there.
        (
            "tomorrow 9am",
            HONG_KONG,
            datetime(2024, 1, 17, 20, 0, tzinfo=UTC),
            datetime(2024, 1, 19, 9, 0, 0),
        ),
        ("next wednesday 4pm", UTC, NOW, datetime(2024, 1, 24, 16, 0, 0)),  # NOW is a Wednesday
        (
            "next wednesday 4pm",
            UTC,
            datetime(2024, 1, 15, 12, 0, tzinfo=UTC),  # a Monday: the coming Wednesday
            datetime(2024, 1, 17, 16, 0, 0),
        ),
        ("+5 days 11am", UTC, NOW, datetime(2024, 1, 22, 11, 0, 0)),
        ("+5 days", UTC, NOW, datetime(2024, 1, 22, 15, 30, 0)),
        ("+5 days", NEW_YORK, NOW, datetime(2024, 1, 22, 10, 30, 0)),
        ("now", NEW_YORK, NOW, datetime(2024, 1, 17, 10, 30, 0)),
        ("2018-01-01 4pm", UTC, NOW, datetime(2018, 1, 1, 16, 0, 0)),
        ("January 5 2018", UTC, NOW, datetime(2018, 1, 5, 0, 0, 0)),
    ],
)
def test_phrases_count_from_now_in_the_zone(
    text: str, zone: tzinfo, now: datetime, expected: datetime
) -> None:
    assert parse_time(text, zone, now) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tomorrow", datetime(2024, 1, 18, 0, 0, 0)),
        ("Tomorrow", datetime(2024, 1, 18, 0, 0, 0)),
        ("today", datetime(2024, 1, 17, 0, 0, 0)),
        ("yesterday", datetime(2024, 1, 16, 0, 0, 0)),
        ("next wednesday", datetime(2024, 1, 24, 0, 0, 0)),
        ("last monday", datetime(2024, 1, 15, 0, 0, 0)),
    ],
)
def test_day_words_without_a_time_mean_midnight(text: str, expected: datetime) -> None:
    assert parse_time(text, UTC, NOW) == expected
    assert parse_time(text, NEW_YORK, NOW) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("midnight", datetime(2024, 1, 17, 0, 0, 0)),
        ("9am", datetime(2024, 1, 17, 9, 0, 0)),
        ("wednesday", datetime(2024, 1, 17, 0, 0, 0)),
    ],
)
def test_same_day_phrases_stay_on_today_like_strtotime(text: str, expected: datetime) -> None:
    # PHP strtotime: "midnight" is 00:00 today, a bare time is today even if already past,
    # and a weekday name is today when today has that name.
    assert parse_time(text, UTC, NOW) == expected


@pytest.mark.parametrize(
    "value",
    [
        "",
        "   ",
        "foo",
        '"before my birthday"',
        "before my birthday",
        None,
        True,
        False,
        [],
        ["2018-01-01"],
        {"date": "2018-01-01"},
        float("nan"),
        float("inf"),
        10**20,
        "99999999999999999",
        "0999-12-31",
        "10000-01-01",
        "2018-02-30",
        "2018-13-01",
        "2018-01-01 25:00",
    ],
)
def test_values_that_are_not_times(value: Any) -> None:
    assert parse_time(value, UTC, NOW) is None


def test_text_longer_than_100_characters_is_refused() -> None:
    hundred = "tomorrow" + " " * 89 + "9am"
    assert len(hundred) == 100
    assert parse_time(hundred, UTC, NOW) == datetime(2024, 1, 18, 9, 0, 0)
    assert parse_time(hundred.replace("9am", " 9am"), UTC, NOW) is None


# --- default archive window ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("now", "zone", "start", "end"),
    [
        (
            datetime(2024, 1, 15, 12, 34, 56, 789, tzinfo=UTC),
            UTC,
            datetime(2024, 1, 14, 23, 59, 0),
            datetime(2026, 1, 15, 12, 34, 56),
        ),
        (
            datetime(2024, 1, 15, 17, 0, 0, tzinfo=UTC),  # 12:00 EST
            NEW_YORK,
            datetime(2024, 1, 14, 18, 59, 0),
            datetime(2026, 1, 15, 17, 0, 0),  # the server clock (UTC), read as site-local
        ),
        (
            datetime(2024, 7, 15, 17, 0, 0, tzinfo=UTC),  # 13:00 EDT
            NEW_YORK,
            datetime(2024, 7, 14, 19, 59, 0),
            datetime(2026, 7, 15, 17, 0, 0),
        ),
        (
            datetime(2024, 1, 15, 12, 0, 0, tzinfo=UTC),  # 21:30 ACST
            DARWIN,
            datetime(2024, 1, 15, 9, 29, 0),  # east of UTC: "yesterday 23:59 UTC" is today
            datetime(2026, 1, 15, 12, 0, 0),
        ),
    ],
)
def test_default_archive_window(
    now: datetime, zone: tzinfo, start: datetime, end: datetime
) -> None:
    assert default_archive_window(now, zone) == (start, end)


def test_default_window_from_february_29_rolls_over_like_php() -> None:
    start, end = default_archive_window(datetime(2024, 2, 29, 10, 0, 0, tzinfo=UTC), UTC)
    assert start == datetime(2024, 2, 28, 23, 59, 0)
    assert end == datetime(2026, 3, 1, 10, 0, 0)


def test_default_window_start_on_march_1_is_february_29() -> None:
    start, end = default_archive_window(datetime(2024, 3, 1, 0, 30, 0, tzinfo=UTC), UTC)
    assert start == datetime(2024, 2, 29, 23, 59, 0)
    assert end == datetime(2026, 3, 1, 0, 30, 0)


def test_default_window_keeps_the_day_in_february_of_other_years() -> None:
    _, end = default_archive_window(datetime(2024, 2, 15, 8, 0, 0, tzinfo=UTC), UTC)
    assert end == datetime(2026, 2, 15, 8, 0, 0)


# --- formatting ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (datetime(2017, 1, 5, 14, 23, 36), "2017-01-05 14:23:36"),
        (datetime(2017, 1, 5, 4, 3, 6, 999999), "2017-01-05 04:03:06"),
        (datetime(999, 12, 1, 0, 0, 0), "0999-12-01 00:00:00"),
        (datetime(2017, 1, 5, 14, 23, 36, tzinfo=UTC), "2017-01-05 14:23:36"),
    ],
)
def test_format_datetime(value: datetime, expected: str) -> None:
    assert format_datetime(value) == expected


def test_date_details_are_zero_padded_strings() -> None:
    assert date_details("2017-01-05 04:03:06") == {
        "year": "2017",
        "month": "01",
        "day": "05",
        "hour": "04",
        "minutes": "03",
        "seconds": "06",
    }


def test_date_details_of_the_zero_date() -> None:
    assert date_details(ZERO_DATE) == {
        "year": "0000",
        "month": "00",
        "day": "00",
        "hour": "00",
        "minutes": "00",
        "seconds": "00",
    }


@pytest.mark.parametrize(
    ("local", "zone", "expected"),
    [
        (datetime(2017, 1, 5, 14, 23, 36), NEW_YORK, "2017-01-05T14:23:36-05:00"),
        (datetime(2017, 7, 5, 14, 23, 36), NEW_YORK, "2017-07-05T14:23:36-04:00"),
        (datetime(2017, 1, 5, 14, 23, 36, 500), UTC, "2017-01-05T14:23:36+00:00"),
        (datetime(2017, 1, 5, 14, 23, 36), DARWIN, "2017-01-05T14:23:36+09:30"),
        (datetime(2017, 1, 5, 14, 23, 36), _zone("UTC+5.5"), "2017-01-05T14:23:36+05:30"),
        (datetime(2017, 1, 5, 14, 23, 36), _zone("UTC-3.5"), "2017-01-05T14:23:36-03:30"),
    ],
)
def test_iso_with_offset(local: datetime, zone: tzinfo, expected: str) -> None:
    assert iso_with_offset(local, zone) == expected
