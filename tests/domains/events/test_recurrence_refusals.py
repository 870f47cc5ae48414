"""The recurrence engine refuses what it cannot use, saying exactly what is wrong."""

from __future__ import annotations

from datetime import datetime

import pytest

from eventcal.domains.events import recurrence
from eventcal.domains.events.recurrence import RecurrenceError
from eventcal.i18n import translate
from tests.domains.events.recurrence_helpers import (
    BERLIN,
    HORIZON,
    MONDAY,
    NEW_YORK,
    rule_of,
)


def refusal(lines: object, start: datetime = MONDAY, zone: str = BERLIN) -> str:
    with pytest.raises(RecurrenceError) as caught:
        recurrence.parse(lines, start_local=start, zone_name=zone, all_day=False)
    error = caught.value
    assert str(error) == error.message.format(**error.message_args)
    assert translate(error.message, "de") != error.message
    return str(error)


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
        (["RRULE:FREQ=DAILY;COUNT=\u0663"], "RRULE: COUNT must be a whole number"),
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
            ["RRULE:FREQ=MONTHLY;BYDAY=-MO"],
            "RRULE: -MO in BYDAY is not a weekday such as MO, 2TU or -1FR",
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
