"""Time zone names and conversions (spec README §2.3 "time zone or empty", §3.1)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo

import pytest

from eventcal.timezones import (
    canonical_timezone_name,
    resolve_timezone,
    to_local,
    to_utc,
    zone_abbreviation,
)

NEW_YORK = ZoneInfo("America/New_York")
BERLIN = ZoneInfo("Europe/Berlin")


def _zone(name: str) -> tzinfo:
    zone = resolve_timezone(name)
    assert zone is not None
    return zone


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("UTC", "UTC"),
        ("utc", "UTC"),
        (" UTC ", "UTC"),
        ("America/New_York", "America/New_York"),
        ("america/new_york", "America/New_York"),
        ("EUROPE/BERLIN", "Europe/Berlin"),
        ("Australia/Darwin", "Australia/Darwin"),
        ("EST", "EST"),
        ("UTC+2", "UTC+2"),
        ("utc+2", "UTC+2"),
        ("UTC+02", "UTC+2"),
        ("UTC-3.5", "UTC-3.5"),
        ("UTC+5:30", "UTC+5.5"),
        ("UTC+05:30", "UTC+5.5"),
        ("UTC+5:45", "UTC+5.75"),
        ("UTC+5.75", "UTC+5.75"),
        ("UTC+14", "UTC+14"),
        ("UTC+0", "UTC+0"),
        ("+05:00", "+05:00"),
        ("+0500", "+05:00"),
        ("-03:30", "-03:30"),
    ],
)
def test_canonical_timezone_name(name: str, canonical: str) -> None:
    assert canonical_timezone_name(name) == canonical


@pytest.mark.parametrize(
    "name",
    [
        "",
        "   ",
        "Mars/Olympus",
        "../etc/passwd",
        "/etc/localtime",
        "Europe/../UTC",
        "America/New_York/..",
        "Europe/Berlin\x00",
        "UTC+15",
        "UTC+14.5",
        "UTC+5:60",
        "UTC+5.333",
        "UTC+",
        "UTC 2",
        "+15:00",
        "+05:60",
        "+5:00",
        "x" * 65,
    ],
)
def test_unknown_or_malformed_zone_names(name: str) -> None:
    assert canonical_timezone_name(name) is None
    assert resolve_timezone(name) is None


@pytest.mark.parametrize(
    ("name", "offset"),
    [
        ("UTC", timedelta(0)),
        ("UTC+2", timedelta(hours=2)),
        ("UTC-3.5", -timedelta(hours=3, minutes=30)),
        ("UTC+5:30", timedelta(hours=5, minutes=30)),
        ("UTC+5.75", timedelta(hours=5, minutes=45)),
        ("+05:00", timedelta(hours=5)),
        ("-03:30", -timedelta(hours=3, minutes=30)),
        ("america/new_york", -timedelta(hours=5)),
        ("Australia/Darwin", timedelta(hours=9, minutes=30)),
    ],
)
def test_resolve_timezone_offsets_in_january(name: str, offset: timedelta) -> None:
    assert _zone(name).utcoffset(datetime(2024, 1, 15, 12, 0)) == offset


def test_resolve_timezone_gives_iana_zones_with_dst() -> None:
    zone = _zone("America/New_York")
    assert isinstance(zone, ZoneInfo)
    assert zone.key == "America/New_York"
    assert zone.utcoffset(datetime(2024, 7, 15, 12, 0)) == -timedelta(hours=4)


def test_resolve_timezone_utc_is_the_utc_singleton() -> None:
    assert resolve_timezone("utc") is UTC


@pytest.mark.parametrize(
    ("zone", "local", "abbreviation"),
    [
        (BERLIN, datetime(2024, 1, 15, 12, 0), "CET"),
        (BERLIN, datetime(2024, 7, 15, 12, 0), "CEST"),
        (BERLIN, datetime(2024, 3, 31, 1, 30), "CET"),  # just before the switch
        (BERLIN, datetime(2024, 3, 31, 3, 30), "CEST"),  # just after
        (NEW_YORK, datetime(2024, 1, 15, 12, 0), "EST"),
        (NEW_YORK, datetime(2024, 7, 15, 12, 0), "EDT"),
        (ZoneInfo("Australia/Darwin"), datetime(2024, 1, 15, 12, 0), "ACST"),
        (ZoneInfo("Asia/Hong_Kong"), datetime(2024, 1, 15, 12, 0), "HKT"),
        (UTC, datetime(2024, 1, 15, 12, 0), "UTC"),
        (_zone("UTC+2"), datetime(2024, 7, 15, 12, 0), "UTC+2"),
        (_zone("UTC-3.5"), datetime(2024, 1, 15, 12, 0), "UTC-3.5"),
        (_zone("UTC+5:30"), datetime(2024, 1, 15, 12, 0), "UTC+5.5"),
        (_zone("+05:00"), datetime(2024, 1, 15, 12, 0), "+05:00"),
    ],
)
def test_zone_abbreviation(zone: tzinfo, local: datetime, abbreviation: str) -> None:
    assert zone_abbreviation(zone, local) == abbreviation


@pytest.mark.parametrize(
    ("local", "zone", "utc"),
    [
        (datetime(2024, 1, 15, 12, 0), NEW_YORK, datetime(2024, 1, 15, 17, 0, tzinfo=UTC)),
        (datetime(2024, 7, 15, 12, 0), NEW_YORK, datetime(2024, 7, 15, 16, 0, tzinfo=UTC)),
        (datetime(2024, 1, 15, 1, 0), _zone("UTC+2"), datetime(2024, 1, 14, 23, 0, tzinfo=UTC)),
        (datetime(2024, 1, 15, 12, 0), _zone("UTC-3.5"), datetime(2024, 1, 15, 15, 30, tzinfo=UTC)),
        (datetime(2024, 1, 15, 12, 0), UTC, datetime(2024, 1, 15, 12, 0, tzinfo=UTC)),
    ],
)
def test_to_utc_and_back(local: datetime, zone: tzinfo, utc: datetime) -> None:
    converted = to_utc(local, zone)
    assert converted == utc
    assert converted.utcoffset() == timedelta(0)
    assert to_local(converted, zone) == local


def test_to_local_returns_naive_wall_clock() -> None:
    local = to_local(datetime(2024, 1, 15, 17, 0, tzinfo=UTC), NEW_YORK)
    assert local == datetime(2024, 1, 15, 12, 0)
    assert local.tzinfo is None


def test_to_local_reads_a_naive_instant_as_utc() -> None:
    assert to_local(datetime(2024, 7, 15, 16, 0), NEW_YORK) == datetime(2024, 7, 15, 12, 0)


def test_to_local_converts_from_any_aware_zone() -> None:
    berlin_noon = datetime(2024, 1, 15, 12, 0, tzinfo=BERLIN)
    assert to_local(berlin_noon, NEW_YORK) == datetime(2024, 1, 15, 6, 0)
