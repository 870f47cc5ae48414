"""The recurrence engine: RRULE parts, RDATE/EXDATE, DST, all-day series, refusals,
normalisation, edits (cancel, split), sentences in three languages, and a property test against
python-dateutil's own rruleset."""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from dateutil import rrule as du  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from eventcal.domains.events import recurrence
from eventcal.domains.events.recurrence import Occurrence, RecurrenceError, Rule

BERLIN = "Europe/Berlin"
NEW_YORK = "America/New_York"
MONDAY = datetime(2027, 1, 4, 10, 0)
"""Monday 4 January 2027, 10:00: the start of most series below."""
HORIZON = datetime(2029, 1, 1, tzinfo=UTC)


def rule_of(
    lines: object, start: datetime = MONDAY, zone: str = BERLIN, *, all_day: bool = False
) -> Rule:
    rule = recurrence.parse(lines, start_local=start, zone_name=zone, all_day=all_day)
    assert rule is not None
    return rule


def occurrences(
    rule: Rule, *, end: datetime | None = None, until: datetime = HORIZON
) -> list[Occurrence]:
    return recurrence.expand(rule, end_local=end or rule.start + timedelta(hours=1), until=until)


def starts(rule: Rule, until: datetime = HORIZON) -> list[datetime]:
    return [item.start_local for item in occurrences(rule, until=until)]


def days(*values: str) -> list[datetime]:
    """``"01-04"`` → 2027-01-04 10:00; ``"2028-01-04"`` and ``"01-20 15:00"`` also read."""
    result = []
    for value in values:
        day, _, clock = value.partition(" ")
        full = day if len(day) > 5 else f"2027-{day}"
        result.append(datetime.fromisoformat(f"{full} {clock or '10:00'}"))
    return result


def refusal(lines: object, start: datetime = MONDAY, zone: str = BERLIN) -> str:
    with pytest.raises(RecurrenceError) as caught:
        recurrence.parse(lines, start_local=start, zone_name=zone, all_day=False)
    error = caught.value
    assert str(error) == error.message.format(**error.message_args)
    return str(error)


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


# --- Refusals ------------------------------------------------------------------------------

SUPPORTED = "FREQ, INTERVAL, COUNT, UNTIL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS or WKST"


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (42, "Recurrence must be a list of text lines"),
        (["RRULE:FREQ=DAILY", 7], "Recurrence must be a list of text lines"),
        (["EXDATE:20270105T100000"] * 1001, "At most 1000 recurrence lines are allowed"),
        (["EXDATE:" + "x" * 20_001], "Line 1 is longer than 20000 characters"),
        (["", "RRULE FREQ=DAILY"], "Could not read line 2: RRULE FREQ=DAILY"),
        (
            ["RRULE:FREQ=DAILY", "DTSTART:20270104T100000"],
            "Line 2: DTSTART is not supported; use RRULE, RDATE or EXDATE",
        ),
        (["RRULE:FREQ=DAILY", "RRULE:FREQ=WEEKLY"], "Only one RRULE is allowed"),
        (
            ["EXDATE:" + ",".join(["20270105T100000"] * 1001)],
            "At most 1000 EXDATE values are allowed",
        ),
        (
            ["RDATE:2027-01-05"],
            "Line 1: 2027-01-05 is not a date (YYYYMMDD) or a date-time (YYYYMMDDTHHMMSS)",
        ),
        (
            ["RDATE:20270230"],
            "Line 1: 20270230 is not a date (YYYYMMDD) or a date-time (YYYYMMDDTHHMMSS)",
        ),
        (["RDATE;TZID=Mars/Base:20270105T100000"], "Unknown time zone in TZID: Mars/Base"),
        (
            ["RDATE;VALUE=PERIOD:20270105T100000/PT1H"],
            "Line 1: VALUE=PERIOD is not supported; use DATE or DATE-TIME",
        ),
        (
            ["RDATE;VALUE=DATE:20270105T100000"],
            "Line 1: 20270105T100000 does not match VALUE=DATE",
        ),
        (
            ["RDATE;TZID=Europe/Berlin:20270105T100000Z"],
            "Line 1: 20270105T100000Z is in UTC (it ends in Z) but the line has a TZID",
        ),
        (["RDATE:20270103T100000"], "RDATE (2027-01-03 10:00:00) is before the event's start"),
        (["RRULE:FREQ=DAILY;FOO"], "RRULE: could not read FOO"),
        (["RRULE:FREQ=DAILY;BYHOUR=10"], f"RRULE: BYHOUR is not supported; use {SUPPORTED}"),
        (["RRULE:FREQ=DAILY;BYWEEKNO=1"], f"RRULE: BYWEEKNO is not supported; use {SUPPORTED}"),
        (["RRULE:FREQ=DAILY;freq=weekly"], "RRULE: FREQ is given twice"),
        (["RRULE:COUNT=3"], "RRULE: FREQ is required"),
        *[
            (
                [f"RRULE:FREQ={freq}"],
                f"FREQ={freq} is not supported; use DAILY, WEEKLY, MONTHLY or YEARLY",
            )
            for freq in ("SECONDLY", "MINUTELY", "HOURLY", "FORTNIGHTLY")
        ],
        (["RRULE:FREQ=DAILY;INTERVAL=0"], "RRULE: INTERVAL must be a whole number from 1 to 1000"),
        (
            ["RRULE:FREQ=DAILY;INTERVAL=2.5"],
            "RRULE: INTERVAL must be a whole number from 1 to 1000",
        ),
        (["RRULE:FREQ=DAILY;COUNT=0"], "RRULE: COUNT must be at least 1"),
        (["RRULE:FREQ=DAILY;COUNT=ten"], "RRULE: COUNT must be a whole number"),
        (["RRULE:FREQ=DAILY;COUNT=1000001"], "RRULE: COUNT must be at most 1000000"),
        (
            ["RRULE:FREQ=DAILY;COUNT=2;UNTIL=20270301"],
            "RRULE: COUNT and UNTIL cannot be used together",
        ),
        (
            ["RRULE:FREQ=DAILY;UNTIL=2027"],
            "RRULE: UNTIL must be a date (YYYYMMDD) or a date-time "
            "(YYYYMMDDTHHMMSS or YYYYMMDDTHHMMSSZ)",
        ),
        (["RRULE:FREQ=DAILY;UNTIL=20260101"], "UNTIL (2026-01-01) is before the event's start"),
        (
            ["RRULE:FREQ=DAILY;UNTIL=20270104T085959Z"],
            "UNTIL (2027-01-04 08:59:59 UTC) is before the event's start",
        ),
        (
            ["RRULE:FREQ=WEEKLY;BYDAY=MO,XX"],
            "RRULE: XX in BYDAY is not a weekday such as MO, 2TU or -1FR",
        ),
        (
            ["RRULE:FREQ=WEEKLY;BYDAY=1MO"],
            "RRULE: an ordinal in BYDAY (1MO) needs FREQ=MONTHLY or YEARLY",
        ),
        (
            ["RRULE:FREQ=MONTHLY;BYDAY=6MO"],
            "RRULE: the ordinal in 6MO must be from 1 to 5 or -5 to -1",
        ),
        (
            ["RRULE:FREQ=YEARLY;BYDAY=-54MO"],
            "RRULE: the ordinal in -54MO must be from 1 to 53 or -53 to -1",
        ),
        (
            ["RRULE:FREQ=MONTHLY;BYDAY=0MO"],
            "RRULE: the ordinal in 0MO must be from 1 to 5 or -5 to -1",
        ),
        (
            ["RRULE:FREQ=MONTHLY;BYMONTHDAY=32"],
            "RRULE: BYMONTHDAY values must be from 1 to 31 or -31 to -1",
        ),
        (["RRULE:FREQ=WEEKLY;BYMONTHDAY=1"], "RRULE: BYMONTHDAY cannot be used with FREQ=WEEKLY"),
        (["RRULE:FREQ=YEARLY;BYMONTH=-1"], "RRULE: BYMONTH values must be from 1 to 12"),
        (
            ["RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0"],
            "RRULE: BYSETPOS values must be from 1 to 366 or -366 to -1",
        ),
        (["RRULE:FREQ=MONTHLY;BYSETPOS=1"], "RRULE: BYSETPOS needs BYDAY, BYMONTHDAY or BYMONTH"),
        (
            ["RRULE:FREQ=DAILY;BYDAY=MO;BYSETPOS=1"],
            "RRULE: BYSETPOS needs FREQ=WEEKLY, MONTHLY or YEARLY",
        ),
        (
            ["RRULE:FREQ=WEEKLY;WKST=XX"],
            "RRULE: WKST must be a weekday: MO, TU, WE, TH, FR, SA or SU",
        ),
    ],
)
def test_refusals_say_what_is_wrong(lines: object, message: str) -> None:
    assert refusal(lines) == message


def test_values_beyond_year_9999_are_refused() -> None:
    assert (
        refusal(["RRULE:FREQ=DAILY;UNTIL=99991231T235959"], zone=NEW_YORK)
        == "RRULE: UNTIL (9999-12-31 23:59:59) is out of range"
    )
    assert (
        refusal(["RDATE:99991231T235959Z"], zone="Pacific/Kiritimati")
        == "Line 1: 99991231T235959Z is out of range"
    )


def test_too_many_occurrences_before_the_horizon_are_refused() -> None:
    daily = rule_of(["RRULE:FREQ=DAILY"])
    recurrence.check_limit(daily, until=HORIZON)
    with pytest.raises(RecurrenceError) as caught:
        recurrence.check_limit(daily, until=HORIZON, limit=100)
    assert str(caught.value) == "The rule makes more than 100 occurrences before 2029-01-01"
    assert caught.value.message_args == {"limit": 100, "horizon": "2029-01-01"}
    recurrence.check_limit(rule_of(["RRULE:FREQ=DAILY;COUNT=100"]), until=HORIZON, limit=100)
    excluded = rule_of(["RRULE:FREQ=DAILY;COUNT=101", "EXDATE:20270105T100000"])
    recurrence.check_limit(excluded, until=HORIZON, limit=100)
    with pytest.raises(RecurrenceError):
        recurrence.expand(
            rule_of(["RRULE:FREQ=DAILY;COUNT=100", "RDATE:20280105T100000"]),
            end_local=MONDAY,
            until=HORIZON,
            limit=100,
        )


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


# --- Edits -----------------------------------------------------------------------------------


def originals(rule: Rule | None) -> list[datetime]:
    assert rule is not None
    return [item.original for item in occurrences(rule)]


def test_without_cancels_one_occurrence() -> None:
    rule = recurrence.without(rule_of(["RRULE:FREQ=DAILY;COUNT=4"]), datetime(2027, 1, 6, 10))
    assert rule.lines == (
        "RRULE:FREQ=DAILY;COUNT=4",
        "EXDATE;TZID=Europe/Berlin:20270106T100000",
    )
    assert originals(rule) == days("01-04", "01-05", "01-07")
    assert rule_of(list(rule.lines)) == rule


@pytest.mark.parametrize(
    "line", ["RRULE:FREQ=DAILY;COUNT=10", "RRULE:FREQ=DAILY;UNTIL=20270113T090000Z"]
)
def test_a_split_keeps_every_occurrence_once(line: str) -> None:
    rule = rule_of(
        [line, "RDATE:20270105T150000,20270120T100000", "EXDATE:20270106T100000,20270111T100000"]
    )
    cut = datetime(2027, 1, 8, 10)
    head = recurrence.until_before(rule, cut)
    tail = recurrence.starting_at(rule, cut)
    assert head is not None and tail is not None
    assert head.lines == (
        "RRULE:FREQ=DAILY;UNTIL=20270108T085959Z",
        "RDATE;TZID=Europe/Berlin:20270105T150000",
        "EXDATE;TZID=Europe/Berlin:20270106T100000",
    )
    assert tail.start == cut
    assert tail.lines[1:] == (
        "RDATE;TZID=Europe/Berlin:20270120T100000",
        "EXDATE;TZID=Europe/Berlin:20270111T100000",
    )
    assert tail.lines[0] == ("RRULE:FREQ=DAILY;COUNT=6" if "COUNT" in line else line)
    assert originals(head) + originals(tail) == originals(rule)
    assert rule_of(list(tail.lines), cut) == tail


def test_a_biweekly_split_continues_in_the_same_weeks() -> None:
    rule = rule_of(["RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=SU;COUNT=8"])
    cut = datetime(2027, 1, 21, 10)
    halves = originals(recurrence.until_before(rule, cut)) + originals(
        recurrence.starting_at(rule, cut)
    )
    assert halves == originals(rule)


def test_an_all_day_split_ends_the_day_before() -> None:
    rule = rule_of(["RRULE:FREQ=DAILY;COUNT=5"], datetime(2027, 1, 4), all_day=True)
    head = recurrence.until_before(rule, datetime(2027, 1, 6))
    assert head is not None
    assert head.lines == ("RRULE:FREQ=DAILY;UNTIL=20270105",)
    assert recurrence.starting_at(rule, datetime(2027, 1, 6, 15)) == rule_of(
        ["RRULE:FREQ=DAILY;COUNT=3"], datetime(2027, 1, 6), all_day=True
    )


def test_a_split_at_a_date_after_the_count_ran_out() -> None:
    rule = rule_of(["RRULE:FREQ=DAILY;COUNT=3", "RDATE:20270120T100000"])
    cut = datetime(2027, 1, 20, 10)
    head = recurrence.until_before(rule, cut)
    assert head is not None and head.lines == ("RRULE:FREQ=DAILY;COUNT=3",)
    assert recurrence.starting_at(rule, cut) is None


@pytest.mark.parametrize(
    ("original", "message"),
    [
        (MONDAY, "A series cannot be split at its first occurrence"),
        (datetime(2027, 1, 6, 11), "2027-01-06 11:00:00 is not an occurrence of this series"),
        (datetime(2027, 1, 7, 10), "2027-01-07 10:00:00 is not an occurrence of this series"),
        (datetime(2027, 1, 9, 10), "2027-01-09 10:00:00 is not an occurrence of this series"),
        (
            datetime(2027, 1, 5, 15),
            "A series cannot be split at an added date (2027-01-05 15:00:00) "
            "while its rule goes on",
        ),
    ],
)
def test_a_split_needs_an_occurrence_of_the_rule(original: datetime, message: str) -> None:
    rule = rule_of(["RRULE:FREQ=DAILY;COUNT=5", "RDATE:20270105T150000", "EXDATE:20270107T100000"])
    with pytest.raises(RecurrenceError) as caught:
        recurrence.starting_at(rule, original)
    assert str(caught.value) == message


def test_finite_series_and_what_a_scheduler_must_extend() -> None:
    moment = datetime(2027, 2, 1, tzinfo=UTC)
    endless = rule_of(["RRULE:FREQ=WEEKLY"])
    counted = rule_of(["RRULE:FREQ=WEEKLY;COUNT=4"])
    long_counted = rule_of(["RRULE:FREQ=WEEKLY;COUNT=5"])
    until = rule_of(["RRULE:FREQ=WEEKLY;UNTIL=20270301"])
    dates = rule_of(["RDATE:20270301T100000"])
    assert [recurrence.is_finite(r) for r in (endless, counted, until, dates)] == [
        False,
        True,
        True,
        True,
    ]
    assert [
        recurrence.continues_after(r, moment)
        for r in (endless, counted, long_counted, until, dates)
    ] == [True, False, True, True, True]
    assert not recurrence.continues_after(dates, datetime(2027, 3, 2, tzinfo=UTC))
    assert not recurrence.continues_after(until, datetime(2027, 3, 2, tzinfo=UTC))


# --- Sentences -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "en", "de", "es"),
    [
        (["RRULE:FREQ=DAILY"], "Daily", "Täglich", "Cada día"),
        (["RRULE:FREQ=DAILY;INTERVAL=3"], "Every 3 days", "Alle 3 Tage", "Cada 3 días"),
        (
            ["RRULE:FREQ=WEEKLY"],
            "Weekly on Monday",
            "Wöchentlich am Montag",
            "Cada semana el lunes",
        ),
        (
            ["RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=10;BYDAY=TU,TH"],
            "Every 2 weeks on Tuesday and Thursday, 10 times",
            "Alle 2 Wochen am Dienstag und am Donnerstag, 10-mal",
            "Cada 2 semanas el martes y el jueves, 10 veces",
        ),
        (
            ["RRULE:FREQ=MONTHLY;BYDAY=-1FR"],
            "Monthly on the last Friday",
            "Monatlich am letzten Freitag",
            "Cada mes el último viernes",
        ),
        (
            ["RRULE:FREQ=MONTHLY;BYDAY=2MO,-2FR;COUNT=1"],
            "Monthly on the second Monday and the second to last Friday, once",
            "Monatlich am zweiten Montag und am vorletzten Freitag, einmal",
            "Cada mes el segundo lunes y el penúltimo viernes, una vez",
        ),
        (
            ["RRULE:FREQ=MONTHLY;BYMONTHDAY=15"],
            "Monthly on day 15",
            "Monatlich am 15.",
            "Cada mes el día 15",
        ),
        (
            ["RRULE:FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1,-1"],
            "Every 3 months on day 1 and the last day",
            "Alle 3 Monate am 1. und am letzten Tag",
            "Cada 3 meses el día 1 y el último día",
        ),
        (
            ["RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"],
            "Monthly on the last Monday, Tuesday, Wednesday, Thursday or Friday",
            "Monatlich am letzten Montag, Dienstag, Mittwoch, Donnerstag oder Freitag",
            "Cada mes el último lunes, martes, miércoles, jueves o viernes",
        ),
        (
            ["RRULE:FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24;UNTIL=20311231T225959Z"],
            "Every year on 24 December, until 31 December 2031",
            "Jährlich am 24. Dezember, bis zum 31. Dezember 2031",
            "Cada año el 24 de diciembre, hasta el 31 de diciembre de 2031",
        ),
        (
            ["RRULE:FREQ=YEARLY;INTERVAL=2;BYMONTH=3,10;BYDAY=-1SU"],
            "Every 2 years on the last Sunday in March and October",
            "Alle 2 Jahre am letzten Sonntag im März und Oktober",
            "Cada 2 años el último domingo en marzo y octubre",
        ),
        (
            ["RRULE:FREQ=DAILY;BYDAY=SA,SU;BYMONTH=12"],
            "Weekly on Saturday and Sunday in December",
            "Wöchentlich am Samstag und am Sonntag im Dezember",
            "Cada semana el sábado y el domingo en diciembre",
        ),
        (
            ["RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13"],
            "Monthly on selected days",
            "Monatlich an ausgewählten Tagen",
            "Cada mes en días seleccionados",
        ),
        (
            ["RRULE:FREQ=DAILY;COUNT=5", "RDATE:20270301T100000", "EXDATE:20270105,20270106"],
            "Daily, 5 times; 1 date added, 2 dates excluded",
            "Täglich, 5-mal; 1 zusätzlicher Termin, 2 Termine ausgenommen",
            "Cada día, 5 veces; 1 fecha añadida, 2 fechas excluidas",
        ),
        (
            ["RDATE:20270301T100000,20270401T100000"],
            "On 3 dates",
            "An 3 Terminen",
            "En 3 fechas",
        ),
    ],
)
def test_sentences(lines: list[str], en: str, de: str, es: str) -> None:
    rule = rule_of(lines)
    assert [recurrence.describe(rule, language) for language in ("en", "de", "es")] == [en, de, es]


def test_the_sentence_after_a_split_names_the_last_day() -> None:
    head = recurrence.until_before(rule_of(["RRULE:FREQ=DAILY"]), datetime(2027, 1, 8, 10))
    assert head is not None
    assert recurrence.describe(head, "en") == "Daily, until 7 January 2027"


# --- Property: the same as dateutil's rruleset ---------------------------------------------

ZONE = ZoneInfo(BERLIN)
WEEKDAY_CODES = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
SAFE_HOURS = st.integers(5, 22)
"""Away from Berlin's DST transitions (02:00-03:00), where the nominal order of times is the
order of their instants; the transitions have their own tests above."""


@st.composite
def rules(draw: st.DrawFn) -> tuple[str, dict[str, object]]:
    """An RRULE that never stays empty for long (so that plain dateutil stops quickly), and
    the same rule as dateutil keyword arguments."""
    freq = draw(st.sampled_from(["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]))
    interval = draw(st.integers(1, {"DAILY": 6, "WEEKLY": 4, "MONTHLY": 3, "YEARLY": 2}[freq]))
    parts = {"FREQ": freq, "INTERVAL": str(interval)}
    kwargs: dict[str, object] = {"freq": getattr(du, freq), "interval": interval}
    months = draw(st.lists(st.integers(1, 12), min_size=1, max_size=3, unique=True))
    plain = draw(st.lists(st.integers(0, 6), min_size=1, max_size=3, unique=True))
    monthdays = draw(
        st.lists(st.integers(-28, 28).filter(bool), min_size=1, max_size=3, unique=True)
    )
    shape = draw(st.sampled_from(["none", "plain", "ordinal", "monthday"]))
    if (freq == "DAILY" and shape == "ordinal") or (
        freq == "WEEKLY" and shape in ("ordinal", "monthday")
    ):
        shape = "plain"
    if shape == "plain":
        parts["BYDAY"] = ",".join(WEEKDAY_CODES[d] for d in plain)
        kwargs["byweekday"] = plain
        if freq != "DAILY" and draw(st.booleans()):
            positions = [draw(st.sampled_from([1, -1] if freq == "WEEKLY" else [1, 2, -1, -4]))]
            parts["BYSETPOS"] = str(positions[0])
            kwargs["bysetpos"] = positions
    elif shape == "ordinal":
        ordinals = draw(
            st.lists(st.sampled_from([1, 2, 3, 4, -1, -2, -4]), min_size=1, max_size=2, unique=True)
        )
        picked = [(plain[i % len(plain)], n) for i, n in enumerate(ordinals)]
        parts["BYDAY"] = ",".join(f"{n}{WEEKDAY_CODES[d]}" for d, n in picked)
        kwargs["byweekday"] = [du.weekday(d, n) for d, n in picked]
    elif shape == "monthday":
        parts["BYMONTHDAY"] = ",".join(str(d) for d in monthdays)
        kwargs["bymonthday"] = monthdays
    months_allowed = freq in ("DAILY", "WEEKLY", "YEARLY") or interval == 1
    if (months_allowed and draw(st.booleans())) or (freq == "YEARLY" and shape == "monthday"):
        parts["BYMONTH"] = ",".join(str(m) for m in months)
        kwargs["bymonth"] = months
    wkst = draw(st.integers(0, 6))
    parts["WKST"] = WEEKDAY_CODES[wkst]
    kwargs["wkst"] = wkst
    return ";".join(f"{k}={v}" for k, v in parts.items()), kwargs


def stamp(value: datetime) -> str:
    return value.strftime("%Y%m%dT%H%M%S")


@settings(max_examples=200, derandomize=True, database=None, deadline=None)
@given(data=st.data(), rule=rules())
def test_expansion_equals_dateutil(
    data: st.DataObject, rule: tuple[str, dict[str, object]]
) -> None:
    text, kwargs = rule
    # Days up to the 28th: a default BYMONTHDAY (the start's day) exists in every month.
    day = data.draw(st.dates(date(2025, 1, 1), date(2027, 12, 31)).filter(lambda d: d.day <= 28))
    start = datetime.combine(
        day, time(data.draw(SAFE_HOURS), data.draw(st.sampled_from([0, 15, 30])))
    )
    horizon_local = datetime.combine(day + timedelta(days=data.draw(st.integers(30, 900))), time())
    end = data.draw(st.sampled_from(["none", "count", "until", "until-date"]))
    # The rule's first dates (never empty, by construction of ``rules``): UNTIL is often one
    # of them exactly, to check that UNTIL is inclusive.
    early = list(itertools.islice(du.rrule(dtstart=start, **kwargs), 20))
    reference_end: dict[str, object] = {}
    if end == "count":
        count = data.draw(st.integers(1, 40))
        text += f";COUNT={count}"
        reference_end["count"] = count if early[0] == start else count - 1
    elif end != "none":
        last = data.draw(st.sampled_from(early)) + timedelta(
            days=data.draw(st.sampled_from([0, 0, 45, 400])),
            hours=data.draw(st.sampled_from([0, 0, -4, 3])),
        )
        last = max(last, start)
        if end == "until":
            text += f";UNTIL={stamp(last)}"
            reference_end["until"] = last
        else:
            text += f";UNTIL={last:%Y%m%d}"
            reference_end["until"] = datetime.combine(last.date(), time(23, 59, 59))
    rdates = data.draw(
        st.lists(
            st.builds(
                lambda d, h, m: datetime.combine(day + timedelta(days=d), time(h, m)),
                st.integers(0, 800),
                SAFE_HOURS,
                st.sampled_from([0, 30]),
            ).filter(lambda value: value >= start),
            max_size=4,
        )
    )
    ruleset = du.rruleset()
    if reference_end.get("count", 1):
        ruleset.rrule(du.rrule(dtstart=start, **kwargs, **reference_end))
    ruleset.rdate(start)
    for value in rdates:
        ruleset.rdate(value)
    made = ruleset.between(start - timedelta(seconds=1), horizon_local)
    exdates = data.draw(st.lists(st.sampled_from(made), max_size=3)) if made else []
    exdates.append(start + timedelta(days=3, minutes=7))
    for value in exdates:
        ruleset.exdate(value)
    expected = ruleset.between(start - timedelta(seconds=1), horizon_local)
    lines = [f"RRULE:{text}"]
    if rdates:
        lines.append("RDATE;TZID=Europe/Berlin:" + ",".join(stamp(v) for v in rdates))
    lines.append("EXDATE:" + ",".join(stamp(v) for v in exdates))
    parsed = rule_of(lines, start)
    horizon = horizon_local.replace(tzinfo=ZONE).astimezone(UTC)
    got = recurrence.expand(parsed, end_local=start + timedelta(hours=2), until=horizon)
    assert [item.original for item in got] == expected
    assert all(item.start_local == item.original for item in got)
    assert all(item.end_at - item.start_at == timedelta(hours=2) for item in got)
    assert rule_of(list(parsed.lines), start) == parsed
