"""Recurring series in iCalendar feeds (issues 15 and 17): one VEVENT with the rule, one per
occurrence changed on its own (RECURRENCE-ID), EXDATEs for what the caller may not read. The
rule as vobject expands it must give the occurrences the JSON lists."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from tests.conftest import NS, Api
from tests.domains.events.ical_helpers import Feed, create, fetch, uid

# 2026-11-22 is "now": a weekly series on Tuesdays across the end of summer time in Berlin
# (2027-03-28) and New York (2027-03-14).
WEEKLY = ["RRULE:FREQ=WEEKLY;COUNT=20;BYDAY=TU"]


def series(api: Api, zone: str = "Europe/Berlin", **fields: Any) -> dict[str, Any]:
    return create(
        api,
        "Yoga",
        "2027-01-05 10:00:00",
        "2027-01-05 11:30:00",
        timezone=zone,
        recurrence=WEEKLY,
        **fields,
    )


def listed(api: Api, series_id: int, as_: str | None = None) -> list[dict[str, Any]]:
    response = api.get(
        f"{NS}/events/{series_id}/occurrences?per_page=50&end_date=2028-01-01", as_=as_
    )
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()["events"]
    return events


def utc(event: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(event["utc_start_date"]).replace(tzinfo=UTC)


def expanded(feed: Feed) -> set[datetime]:
    """The occurrences vobject finds: the rule's dates (its EXDATEs out), each changed one at
    its own start instead of its RECURRENCE-ID."""
    masters = [v for v in feed.other_events if not hasattr(v, "recurrence_id")]
    assert len(masters) == 1
    found = {d.astimezone(UTC) for d in masters[0].getrruleset(addRDate=True)}
    for changed in (v for v in feed.other_events if hasattr(v, "recurrence_id")):
        found.discard(changed.recurrence_id.value.astimezone(UTC))
        found.add(changed.dtstart.value.astimezone(UTC))
    return found


def test_a_series_is_its_rule_and_expands_to_the_json_occurrences(api: Api) -> None:
    for zone in ("Europe/Berlin", "America/New_York"):
        made = series(api, zone)
        feed = fetch(api, f"events/{made['id']}.ics")
        assert len(feed.events) == 1
        vevent = feed.events[0]
        assert str(vevent["UID"]) == uid(made)
        assert vevent["RRULE"].to_ical() == b"FREQ=WEEKLY;COUNT=20;BYDAY=TU"
        assert vevent["DTSTART"].params["TZID"] == zone
        occurrences = listed(api, made["id"])
        assert len(occurrences) == 20
        assert expanded(feed) == {utc(e) for e in occurrences}
        # Across the change of time the wall-clock time stays 10:00.
        assert {datetime.fromisoformat(e["start_date"]).hour for e in occurrences} == {10}


def test_any_occurrence_gives_the_whole_series(api: Api) -> None:
    made = series(api)
    fifth = listed(api, made["id"])[4]
    feed = fetch(api, f"events/{fifth['id']}.ics")
    assert [str(e["UID"]) for e in feed.events] == [uid(made)]
    assert "RRULE" in feed.events[0]
    assert fifth["ical_url"].endswith(f"/events/{fifth['id']}.ics")


def test_changed_and_cancelled_occurrences(api: Api) -> None:
    made = series(api)
    occurrences = listed(api, made["id"])
    third, sixth = occurrences[2], occurrences[5]
    moved = api.patch(
        f"{NS}/events/{third['id']}",
        json={
            "title": "Yoga outdoors",
            "start_date": "2027-01-20 09:00:00",
            "end_date": "2027-01-20 10:00:00",
        },
    )
    assert moved.status_code == 200, moved.text
    assert api.delete(f"{NS}/events/{sixth['id']}").status_code == 200
    feed = fetch(api, f"events/{made['id']}.ics")
    main, changed = feed.events
    assert str(changed["UID"]) == uid(made)
    assert changed["RECURRENCE-ID"].dt.replace(tzinfo=None) == datetime(2027, 1, 19, 10, 0)
    assert changed["RECURRENCE-ID"].params["TZID"] == "Europe/Berlin"
    assert changed["DTSTART"].dt.replace(tzinfo=None) == datetime(2027, 1, 20, 9, 0)
    assert str(changed["SUMMARY"]) == "Yoga outdoors"
    assert str(main["SUMMARY"]) == "Yoga"
    assert [line for line in feed.text.split("\r\n") if line.startswith("EXDATE")] == [
        "EXDATE;TZID=Europe/Berlin:20270209T100000"
    ]
    assert expanded(feed) == {utc(e) for e in listed(api, made["id"])}
    assert len(expanded(feed)) == 19


def test_occurrences_the_caller_may_not_read_are_exdates(api: Api) -> None:
    made = series(api)
    fourth = listed(api, made["id"])[3]
    assert api.patch(f"{NS}/events/{fourth['id']}", json={"status": "draft"}).status_code == 200
    anonymous = fetch(api, f"events/{made['id']}.ics")
    assert [str(e["UID"]) for e in anonymous.events] == [uid(made)]
    assert "EXDATE;TZID=Europe/Berlin:20270126T100000" in anonymous.text
    assert expanded(anonymous) == {utc(e) for e in listed(api, made["id"])}
    editor = fetch(api, f"events/{made['id']}.ics", as_="editor")
    assert "EXDATE" not in editor.text
    assert len(editor.events) == 2  # the draft is an occurrence changed on its own
    assert expanded(editor) == {utc(e) for e in listed(api, made["id"], as_="editor")} | {
        utc(fourth)
    }


def test_listing_feeds_show_occurrences_or_each_series_once(api: Api) -> None:
    made = series(api)
    single = create(api, "Single", "2027-01-06 10:00:00", "2027-01-06 11:00:00")
    each = fetch(api, "events.ics?end_date=2028-01-01")
    occurrences = listed(api, made["id"])
    assert {str(e["UID"]) for e in each.events} == {uid(e) for e in [*occurrences, single]}
    assert not any("RRULE" in e for e in each.events)
    collapsed = fetch(api, "events.ics?end_date=2028-01-01&collapse_recurring=1")
    assert sorted(str(e["UID"]) for e in collapsed.events) == sorted([uid(made), uid(single)])
    rule = next(e for e in collapsed.events if str(e["UID"]) == uid(made))
    assert rule["RRULE"].to_ical() == b"FREQ=WEEKLY;COUNT=20;BYDAY=TU"


def test_an_all_day_series(api: Api) -> None:
    made = create(
        api,
        "Market",
        "2027-01-02 00:00:00",
        "2027-01-02 23:59:59",
        all_day=True,
        timezone="Europe/Berlin",
        recurrence=["RRULE:FREQ=MONTHLY;COUNT=4", "RDATE;VALUE=DATE:20270615"],
    )
    feed = fetch(api, f"events/{made['id']}.ics")
    vevent = feed.events[0]
    assert (vevent["DTSTART"].dt, vevent["DTEND"].dt) == (date(2027, 1, 2), date(2027, 1, 3))
    assert "RDATE;VALUE=DATE:20270615" in feed.text
    days = {d.date() for d in feed.other_events[0].getrruleset(addRDate=True)}
    occurrences = listed(api, made["id"])
    assert days == {date.fromisoformat(e["start_date"][:10]) for e in occurrences}
    assert len(days) == 5


def test_feeds_cost_the_same_queries_for_one_series_or_many(api: Api) -> None:
    def statements(path: str) -> int:
        before = api.statements
        fetch(api, f"{path}&_nocache={before}")
        return api.statements - before

    first = series(api)
    api.patch(f"{NS}/events/{listed(api, first['id'])[1]['id']}", json={"title": "Changed"})
    one = statements("events.ics?end_date=2028-01-01&collapse_recurring=1")
    for zone in ("America/New_York", "UTC", "UTC+2"):
        other = series(api, zone)
        api.patch(f"{NS}/events/{listed(api, other['id'])[2]['id']}", json={"title": "Moved"})
    many = statements("events.ics?end_date=2028-01-01&collapse_recurring=1")
    assert many == one
    assert statements("events.ics?end_date=2028-01-01") == statements(
        "events.ics?end_date=2027-02-01"
    )


def test_a_protected_series_needs_its_password(api: Api) -> None:
    made = series(api, post_password="pw", description="Bring a mat")
    refused = api.get(f"{NS}/events/{made['id']}.ics")
    assert refused.status_code == 403
    assert refused.json()["code"] == "event-password-protected"
    opened = fetch(api, f"events/{made['id']}.ics?password=pw")
    assert str(opened.events[0]["DESCRIPTION"]) == "Bring a mat"
    assert "RRULE" in opened.events[0]
    collapsed = fetch(api, "events.ics?end_date=2028-01-01&collapse_recurring=1")
    assert "Bring a mat" not in collapsed.text
    assert "RRULE" in collapsed.events[0]
