"""Series dates through the API: daylight saving in Europe/Berlin and America/New_York (with a
02:30 class on the spring-forward day), all-day series and multi-day series."""

from __future__ import annotations

from typing import Any

from tests.conftest import NS, Api


def series(api: Api, **fields: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    body = {"title": "Class", **fields}
    response = api.post(f"{NS}/events", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    page = api.get(f"{NS}/events/{created['id']}/occurrences?per_page=50&end_date=2029-01-01")
    assert page.status_code == 200, page.text
    return created, page.json()["events"]


def when(event: dict[str, Any]) -> tuple[str, str, str, str]:
    return (
        event["start_date"],
        event["end_date"],
        event["utc_start_date"],
        event["utc_end_date"],
    )


def test_new_york_spring_forward_a_0230_class_starts_at_0330_daylight_time(api: Api) -> None:
    # 14 March 2027: clocks go from 02:00 EST to 03:00 EDT, so 02:30 does not exist that day.
    _, listed = series(
        api,
        start_date="2027-03-13 02:30:00",
        end_date="2027-03-13 03:30:00",
        timezone="America/New_York",
        recurrence=["RRULE:FREQ=DAILY;COUNT=3"],
    )
    assert [when(e) for e in listed] == [
        (
            "2027-03-13 02:30:00",
            "2027-03-13 03:30:00",
            "2027-03-13 07:30:00",
            "2027-03-13 08:30:00",
        ),
        # RFC 5545 3.3.5: read with the offset before the gap (EST): 07:30 UTC, 03:30 EDT.
        (
            "2027-03-14 03:30:00",
            "2027-03-14 04:30:00",
            "2027-03-14 07:30:00",
            "2027-03-14 08:30:00",
        ),
        (
            "2027-03-15 02:30:00",
            "2027-03-15 03:30:00",
            "2027-03-15 06:30:00",
            "2027-03-15 07:30:00",
        ),
    ]
    # Its identity is still the nominal 02:30 (what an EXDATE or an override names).
    assert [e["occurrence_start"] for e in listed] == [
        "2027-03-13 02:30:00",
        "2027-03-14 02:30:00",
        "2027-03-15 02:30:00",
    ]
    cancelled = api.delete(f"{NS}/events/{listed[1]['id']}")
    assert cancelled.status_code == 200, cancelled.text
    rule = api.get(f"{NS}/events/{listed[0]['series_id']}").json()["recurrence"]
    assert rule[-1] == "EXDATE;TZID=America/New_York:20270314T023000"


def test_new_york_fall_back_keeps_the_wall_clock_and_takes_the_first_0130(api: Api) -> None:
    # 7 November 2027: 01:00-02:00 happens twice; a 01:30 class is at the first (EDT) one.
    _, listed = series(
        api,
        start_date="2027-11-06 09:00:00",
        end_date="2027-11-06 10:00:00",
        timezone="America/New_York",
        recurrence=["RRULE:FREQ=DAILY;COUNT=2", "RDATE;TZID=America/New_York:20271107T013000"],
    )
    assert [when(e) for e in listed] == [
        (
            "2027-11-06 09:00:00",
            "2027-11-06 10:00:00",
            "2027-11-06 13:00:00",
            "2027-11-06 14:00:00",
        ),
        (
            "2027-11-07 01:30:00",
            "2027-11-07 02:30:00",
            "2027-11-07 05:30:00",
            "2027-11-07 07:30:00",
        ),
        (
            "2027-11-07 09:00:00",
            "2027-11-07 10:00:00",
            "2027-11-07 14:00:00",
            "2027-11-07 15:00:00",
        ),
    ]


def test_berlin_weekly_class_keeps_1000_across_both_changes(api: Api) -> None:
    _, listed = series(
        api,
        start_date="2027-03-22 10:00:00",
        end_date="2027-03-22 11:00:00",
        timezone="Europe/Berlin",
        recurrence=["RRULE:FREQ=WEEKLY;UNTIL=20271108T235959"],
    )
    utc = {e["start_date"][:10]: e["utc_start_date"][11:16] for e in listed}
    assert {e["start_date"][11:] for e in listed} == {"10:00:00"}
    assert (utc["2027-03-22"], utc["2027-03-29"]) == ("09:00", "08:00")  # CET, then CEST
    assert (utc["2027-10-25"], utc["2027-11-01"]) == ("08:00", "09:00")  # CEST, then CET
    assert len(listed) == 34


def test_an_all_day_series_recurs_on_days(api: Api) -> None:
    created, listed = series(
        api,
        start_date="2027-01-31",
        end_date="2027-01-31",
        all_day=True,
        timezone="Europe/Berlin",
        recurrence=["RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=4", "EXDATE;VALUE=DATE:20270331"],
    )
    assert created["all_day"] is True
    assert [(e["start_date"], e["end_date"]) for e in listed] == [
        ("2027-01-31 00:00:00", "2027-01-31 23:59:59"),
        ("2027-02-28 00:00:00", "2027-02-28 23:59:59"),
        ("2027-04-30 00:00:00", "2027-04-30 23:59:59"),
    ]
    assert all(e["all_day"] is True for e in listed)
    march = api.get(f"{NS}/events?start_date=2027-03-01&end_date=2027-03-31")
    assert march.json()["total"] == 0


def test_a_three_day_event_every_week_lasts_three_days_each_time(api: Api) -> None:
    _, listed = series(
        api,
        start_date="2027-06-04 18:00:00",
        end_date="2027-06-06 16:00:00",
        timezone="Europe/Berlin",
        recurrence=["RRULE:FREQ=WEEKLY;COUNT=3"],
    )
    assert [(e["start_date"], e["end_date"]) for e in listed] == [
        ("2027-06-04 18:00:00", "2027-06-06 16:00:00"),
        ("2027-06-11 18:00:00", "2027-06-13 16:00:00"),
        ("2027-06-18 18:00:00", "2027-06-20 16:00:00"),
    ]
    # The second weekend's window (start on or after, end on or before) holds that one alone.
    weekend = api.get(f"{NS}/events?start_date=2027-06-11&end_date=2027-06-13 23:59:59")
    assert [e["id"] for e in weekend.json()["events"]] == [listed[1]["id"]]


def test_an_all_day_multi_day_series(api: Api) -> None:
    _, listed = series(
        api,
        start_date="2027-07-01",
        end_date="2027-07-03",
        all_day=True,
        recurrence=["RRULE:FREQ=YEARLY;COUNT=2"],
    )
    assert [(e["start_date"], e["end_date"]) for e in listed] == [
        ("2027-07-01 00:00:00", "2027-07-03 23:59:59"),
        ("2028-07-01 00:00:00", "2028-07-03 23:59:59"),
    ]
