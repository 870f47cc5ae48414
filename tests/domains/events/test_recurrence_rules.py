"""The recurrence engine's expansion: every RRULE part, RDATE/EXDATE, DST, all-day series,
input forms and normalisation."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from eventcal.domains.events import recurrence
from tests.domains.events.recurrence_helpers import (
    BERLIN,
    MONDAY,
    NEW_YORK,
    days,
    occurrences,
    rule_of,
    starts,
)

# --- RRULE parts ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("FREQ=DAILY;COUNT=3", days("01-04", "01-05", "01-06")),
        ("FREQ=WEEKLY;COUNT=3", days("01-04", "01-11", "01-18")),
        ("FREQ=MONTHLY;COUNT=3", days("01-04", "02-04", "03-04")),
        ("FREQ=YEARLY;COUNT=3", days("2027-01-04", "2028-01-04", "2029-01-04")),
        ("FREQ=DAILY;INTERVAL=3;COUNT=3", days("01-04", "01-07", "01-10")),
        ("FREQ=WEEKLY;INTERVAL=2;COUNT=3;BYDAY=MO,FR", days("01-04", "01-08", "01-18")),
    ],
)
def test_freq_interval_and_count(line: str, expected: list[datetime]) -> None:
    assert starts(rule_of([f"RRULE:{line}"]), until=datetime(2035, 1, 1, tzinfo=UTC)) == expected


def test_count_includes_a_start_that_does_not_match_the_rule() -> None:
    """RFC 5545 §3.3.10: DTSTART always counts as the first occurrence."""
    assert starts(rule_of(["RRULE:FREQ=WEEKLY;BYDAY=WE;COUNT=3"])) == days(
        "01-04", "01-06", "01-13"
    )


def test_a_rule_without_end_runs_to_the_horizon() -> None:
    assert len(starts(rule_of(["RRULE:FREQ=DAILY"]), until=datetime(2027, 2, 1, tzinfo=UTC))) == 28


@pytest.mark.parametrize(
    ("until", "normalised", "expected"),
    [
        ("20270106", "20270106T225959Z", days("01-04", "01-05", "01-06")),
        ("20270106T095959", "20270106T085959Z", days("01-04", "01-05")),
        ("20270106T090000Z", "20270106T090000Z", days("01-04", "01-05", "01-06")),
    ],
    ids=["date", "local", "utc"],
)
def test_until_is_inclusive(until: str, normalised: str, expected: list[datetime]) -> None:
    rule = rule_of([f"RRULE:FREQ=DAILY;UNTIL={until}"])
    assert rule.lines == (f"RRULE:FREQ=DAILY;UNTIL={normalised}",)
    assert starts(rule) == expected


@pytest.mark.parametrize(
    ("line", "start", "expected"),
    [
        ("FREQ=MONTHLY;BYDAY=-1FR;COUNT=3", "01-29", days("01-29", "02-26", "03-26")),
        ("FREQ=MONTHLY;BYDAY=2MO;COUNT=3", "01-11", days("01-11", "02-08", "03-08")),
        ("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH;COUNT=2", "11-25", days("11-25", "2028-11-23")),
        ("FREQ=YEARLY;BYDAY=1MO;COUNT=2", "01-04", days("01-04", "2028-01-03")),
        (
            "FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=4",
            "12-31",
            days("12-31", "2028-01-31", "2028-02-29", "2028-03-31"),
        ),
        ("FREQ=MONTHLY;BYMONTHDAY=1,-2;COUNT=3", "01-30", days("01-30", "02-01", "02-27")),
        (
            "FREQ=YEARLY;BYMONTH=3,9;COUNT=4",
            "03-15",
            days("03-15", "09-15", "2028-03-15", "2028-09-15"),
        ),
        ("FREQ=DAILY;BYMONTH=2;COUNT=3", "01-31", days("01-31", "02-01", "02-02")),
        (
            "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=3",
            "01-29",
            days("01-29", "02-26", "03-31"),
        ),
        (
            "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1,-1;COUNT=4",
            "01-01",
            days("01-01", "01-29", "02-01", "02-26"),
        ),
    ],
)
def test_by_parts(line: str, start: str, expected: list[datetime]) -> None:
    first = days(start)[0]
    assert starts(rule_of([f"RRULE:{line}"], first), until=datetime(2035, 1, 1, tzinfo=UTC)) == (
        expected
    )


@pytest.mark.parametrize(
    ("wkst", "expected"),
    [("MO", ["08-05", "08-10", "08-19", "08-24"]), ("SU", ["08-05", "08-17", "08-19", "08-31"])],
)
def test_wkst_changes_a_biweekly_rule(wkst: str, expected: list[str]) -> None:
    """The example of RFC 5545 §3.8.5.3."""
    rule = rule_of(
        [f"RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST={wkst}"],
        datetime(1997, 8, 5, 9),
        "America/New_York",
    )
    until = datetime(1998, 1, 1, tzinfo=UTC)
    assert starts(rule, until) == [datetime.fromisoformat(f"1997-{d} 09:00") for d in expected]


def test_an_impossible_rule_leaves_the_start_only() -> None:
    """dateutil alone would search until year 9999 for these."""
    far = datetime(2100, 1, 1, tzinfo=UTC)
    for line in (
        "FREQ=MONTHLY;BYDAY=1MO;BYMONTHDAY=15",
        "FREQ=DAILY;INTERVAL=7;BYDAY=TU",
        "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30",
        "FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=31",
    ):
        assert starts(rule_of([f"RRULE:{line}"]), far) == [MONDAY]


def test_a_sparse_rule_finds_its_rare_dates() -> None:
    """29 February on a Monday: 2044, 2072."""
    rule = rule_of(["RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO"])
    assert starts(rule, datetime(2080, 1, 1, tzinfo=UTC)) == [
        MONDAY,
        datetime(2044, 2, 29, 10),
        datetime(2072, 2, 29, 10),
    ]


@pytest.mark.parametrize("zone", ["America/New_York", "Pacific/Kiritimati", "UTC"])
def test_expansion_ends_quietly_at_year_9999(zone: str) -> None:
    end = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)
    weekly = rule_of(["RRULE:FREQ=WEEKLY;BYDAY=SU"], datetime(9999, 11, 7, 10), zone)
    sundays = starts(weekly, end)
    assert sundays[0] == datetime(9999, 11, 7, 10)
    assert sundays[-1] == datetime(9999, 12, 26, 10)
    daily = rule_of(["RRULE:FREQ=DAILY"], datetime(9999, 12, 25, 10), zone)
    long_ones = occurrences(daily, end=datetime(9999, 12, 27, 11), until=end)
    # The occurrence of the 30th would end in year 10000: the series ends before it.
    assert [item.start_local.day for item in long_ones] == [25, 26, 27, 28, 29]


# --- RDATE and EXDATE ------------------------------------------------------------------------


def test_rdates_and_exdates_in_every_spelling() -> None:
    rule = rule_of(
        [
            "RRULE:FREQ=DAILY;COUNT=8",
            "EXDATE;TZID=Europe/Berlin:20270105T100000",
            "EXDATE:20270106T100000,20270107T090000Z",
            "EXDATE;TZID=America/New_York:20270108T040000",
            "EXDATE;VALUE=DATE:20270109",
            "EXDATE:20270301T100000",
            'RDATE;TZID="America/New_York":20270120T090000',
            "RDATE;VALUE=DATE:20270125",
            "RDATE:20270126T120000Z,20270104T100000",
        ]
    )
    assert rule.lines == (
        "RRULE:FREQ=DAILY;COUNT=8",
        "RDATE;TZID=Europe/Berlin:20270104T100000,20270120T150000,20270125T100000,20270126T130000",
        "EXDATE;TZID=Europe/Berlin:20270105T100000,20270106T100000,20270107T100000,"
        "20270108T100000,20270109T100000,20270301T100000",
    )
    assert starts(rule) == days("01-04", "01-10", "01-11", "01-20 15:00", "01-25", "01-26 13:00")


def test_dates_only_make_a_series_and_the_start_can_be_excluded() -> None:
    rule = rule_of(["RDATE:20270110T100000,20270105T100000", "EXDATE:20270104T100000"])
    assert rule.pattern is None
    assert starts(rule) == days("01-05", "01-10")


def test_an_exdate_matches_the_occurrence_it_names_in_another_zone_or_in_utc() -> None:
    rule = rule_of(
        ["RRULE:FREQ=DAILY;COUNT=3", "EXDATE:20270328T013000Z"], datetime(2027, 3, 27, 2, 30)
    )
    assert [item.original for item in occurrences(rule)] == [
        datetime(2027, 3, 27, 2, 30),
        datetime(2027, 3, 29, 2, 30),
    ]


# --- DST ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("zone", "first", "instants"),
    [
        (BERLIN, datetime(2027, 3, 22, 10), [9, 8, 8]),
        (BERLIN, datetime(2027, 10, 25, 10), [8, 9, 9]),
        (NEW_YORK, datetime(2027, 3, 8, 10), [15, 14, 14]),
        (NEW_YORK, datetime(2027, 11, 1, 10), [14, 15, 15]),
    ],
)
def test_the_wall_clock_time_stays_across_dst(
    zone: str, first: datetime, instants: list[int]
) -> None:
    items = occurrences(rule_of(["RRULE:FREQ=WEEKLY;COUNT=3"], first, zone))
    assert [item.start_local.time() for item in items] == [time(10)] * 3
    assert [item.end_local.time() for item in items] == [time(11)] * 3
    assert [item.start_at.hour for item in items] == instants
    assert all(item.end_at - item.start_at == timedelta(hours=1) for item in items)


@pytest.mark.parametrize(
    ("zone", "gap_day", "instant"),
    [
        (BERLIN, datetime(2027, 3, 28, 2, 30), datetime(2027, 3, 28, 1, 30, tzinfo=UTC)),
        (NEW_YORK, datetime(2027, 3, 14, 2, 30), datetime(2027, 3, 14, 7, 30, tzinfo=UTC)),
    ],
)
def test_a_time_in_the_spring_forward_gap_happens_an_hour_later(
    zone: str, gap_day: datetime, instant: datetime
) -> None:
    """RFC 5545 §3.3.5: read with the offset before the gap; shown as the real wall clock."""
    rule = rule_of(["RRULE:FREQ=DAILY;COUNT=3"], gap_day - timedelta(days=1), zone)
    gap = occurrences(rule, end=gap_day - timedelta(days=1) + timedelta(minutes=30))[1]
    assert gap.original == gap_day
    assert gap.start_local == gap_day + timedelta(hours=1)
    assert gap.start_at == instant
    assert gap.end_local == gap_day + timedelta(hours=1, minutes=30)


@pytest.mark.parametrize(
    ("zone", "day", "instant"),
    [
        (NEW_YORK, datetime(2027, 11, 7, 1, 30), datetime(2027, 11, 7, 5, 30, tzinfo=UTC)),
        (BERLIN, datetime(2027, 10, 31, 2, 30), datetime(2027, 10, 31, 0, 30, tzinfo=UTC)),
    ],
)
def test_a_repeated_time_on_the_fall_back_day_is_its_first_pass(
    zone: str, day: datetime, instant: datetime
) -> None:
    rule = rule_of(["RRULE:FREQ=DAILY;COUNT=3"], day - timedelta(days=1), zone)
    repeated = occurrences(rule)[1]
    assert (repeated.original, repeated.start_local, repeated.start_at) == (day, day, instant)


@pytest.mark.parametrize(
    "zone",
    ["Australia/Lord_Howe", "America/Santiago", "America/St_Johns", "Europe/Dublin", "UTC-03:30"],
)
@pytest.mark.parametrize("clock", [time(1, 45), time(2, 15), time(2, 30), time(23, 30)])
def test_every_day_of_two_years_agrees_with_the_zone_database(zone: str, clock: time) -> None:
    """Instants and wall-clock times, computed by arithmetic on the zone's offsets, are
    zoneinfo's own conversions (fold 0: the offset before a gap, the first pass of a repeated
    time) on every day, in zones with half-hour changes, southern and negative DST, a fixed
    offset, and times in and around the gaps and overlaps."""
    rule = rule_of(["RRULE:FREQ=DAILY"], datetime.combine(datetime(2027, 1, 1), clock), zone)
    zone_info = rule.zone
    items = occurrences(rule, end=rule.start + timedelta(minutes=45))
    assert len(items) >= 730
    for item in items:
        moment = item.original.replace(tzinfo=zone_info, fold=0).astimezone(UTC)
        shown = moment.astimezone(zone_info).replace(tzinfo=None)
        end = (shown + timedelta(minutes=45)).replace(tzinfo=zone_info, fold=0).astimezone(UTC)
        assert (item.start_at, item.start_local) == (moment, shown)
        end_shown = end.astimezone(zone_info).replace(tzinfo=None)
        assert (item.end_at, item.end_local) == (end, end_shown)
        assert item.start_at.tzinfo is UTC
        assert not (item.start_local.fold or item.end_local.fold)


# --- All-day and multi-day ---------------------------------------------------------------


def test_an_all_day_series() -> None:
    rule = rule_of(
        ["RRULE:FREQ=WEEKLY;UNTIL=20270401T120000", "EXDATE:20270111T100000", "RDATE:20270113"],
        datetime(2027, 1, 4, 0, 0),
        all_day=True,
    )
    assert rule.lines == (
        "RRULE:FREQ=WEEKLY;UNTIL=20270401",
        "RDATE;VALUE=DATE:20270113",
        "EXDATE;VALUE=DATE:20270111",
    )
    items = occurrences(rule, end=datetime(2027, 1, 4, 23, 59, 59))
    assert [item.start_local for item in items[:3]] == [
        datetime(2027, 1, 4),
        datetime(2027, 1, 13),
        datetime(2027, 1, 18),
    ]
    assert items[0].end_local == datetime(2027, 1, 4, 23, 59, 59)
    assert items[0].start_at == datetime(2027, 1, 3, 23, 0, tzinfo=UTC)
    assert items[-1].start_local == datetime(2027, 3, 29)
    assert items[-1].start_at == datetime(2027, 3, 28, 22, 0, tzinfo=UTC)


def test_a_multi_day_series_keeps_its_number_of_days() -> None:
    rule = rule_of(["RRULE:FREQ=MONTHLY;COUNT=2"], datetime(2027, 1, 30), all_day=True)
    items = occurrences(rule, end=datetime(2027, 2, 1, 23, 59, 59))
    assert [(item.start_local, item.end_local) for item in items] == [
        (datetime(2027, 1, 30), datetime(2027, 2, 1, 23, 59, 59)),
        (datetime(2027, 3, 30), datetime(2027, 4, 1, 23, 59, 59)),
    ]


def test_a_timed_series_over_midnight_keeps_its_wall_clock_length() -> None:
    rule = rule_of(["RRULE:FREQ=WEEKLY;COUNT=2"], datetime(2027, 3, 21, 22))
    items = occurrences(rule, end=datetime(2027, 3, 22, 6))
    assert items[1].start_local == datetime(2027, 3, 28, 22)
    assert items[1].end_local == datetime(2027, 3, 29, 6)


# --- Input forms and normalisation ---------------------------------------------------------


@pytest.mark.parametrize("value", [None, [], "", ["", "  "]])
def test_no_lines_mean_a_single_event(value: object) -> None:
    assert recurrence.parse(value, start_local=MONDAY, zone_name=BERLIN, all_day=False) is None


def test_input_is_case_insensitive_and_may_be_one_folded_string() -> None:
    text = (
        "rrule:freq=weekly;byday=th,tu;\r\n interval=2;count=10\n"
        "exdate;tzid=europe/berlin:20270105t100000"
    )
    rule = rule_of(text, datetime(2027, 1, 5, 10))
    assert rule.lines == (
        "RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=10;BYDAY=TU,TH",
        "EXDATE;TZID=Europe/Berlin:20270105T100000",
    )


@pytest.mark.parametrize(
    ("lines", "zone", "all_day"),
    [
        (
            ["RRULE:FREQ=MONTHLY;BYSETPOS=-1;BYDAY=FR,MO,+2TU,-1SU;BYMONTH=3,1;WKST=SU"],
            BERLIN,
            False,
        ),
        (
            ["RRULE:FREQ=YEARLY;UNTIL=20301231;BYMONTHDAY=-1,15,1", "RDATE:20270301T000000Z"],
            NEW_YORK,
            False,
        ),
        (["RRULE:FREQ=DAILY;COUNT=5;INTERVAL=1;WKST=MO", "EXDATE:20270105"], "+02:00", False),
        (
            [
                "EXDATE;VALUE=DATE:20270105",
                "RDATE:20270110T100000",
                "RRULE:FREQ=WEEKLY;UNTIL=20270301T100000Z",
            ],
            BERLIN,
            True,
        ),
    ],
)
def test_normalising_twice_gives_the_same_lines(lines: list[str], zone: str, all_day: bool) -> None:
    first = rule_of(lines, MONDAY, zone, all_day=all_day)
    again = rule_of(list(first.lines), MONDAY, zone, all_day=all_day)
    assert again.lines == first.lines
    assert again == first


def test_offset_zones_are_quoted_in_tzid() -> None:
    rule = rule_of(["RRULE:FREQ=DAILY;COUNT=2", "EXDATE:20270105T100000"], zone="+02:00")
    assert rule.lines[1] == 'EXDATE;TZID="+02:00":20270105T100000'
    assert starts(rule) == days("01-04")
