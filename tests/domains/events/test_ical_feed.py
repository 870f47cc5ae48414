"""iCalendar feeds of events (issue 17): ``/events.ics`` and ``/events/{id}.ics``, every field,
zones, all-day events, permissions, the size limit, languages. Every feed is read back by
``icalendar`` and by ``vobject``."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

import icalendar

from tests.conftest import NS, Api, Clock
from tests.domains.events.ical_helpers import create, fetch, uid, zones
from tests.http.helpers import assert_error

WHEN = ("2026-12-10 19:00:00", "2026-12-10 21:00:00")


def _limit(api: Api, limit: int) -> None:
    app: Any = api.client.app
    runtime = app.state.runtime
    runtime.site = replace(runtime.site, feed_max_events=limit)


def test_every_field_of_an_event(api: Api) -> None:
    venue = api.post(
        f"{NS}/venues",
        json={
            "venue": "Town Hall",
            "address": "Main Street 1",
            "city": "Berlin",
            "zip": "10115",
            "country": "Germany",
            "latitude": 52.52,
            "longitude": 13.405,
        },
    ).json()
    organizer = api.post(
        f"{NS}/organizers", json={"organizer": "Choir & Co", "email": "choir@example.org"}
    ).json()
    event = create(
        api,
        "Gala <b>night</b> &amp; more",
        *WHEN,
        timezone="Europe/Berlin",
        description="First paragraph,\nsecond line.\n\nSecond <em>paragraph</em>; with, commas",
        venue=venue["id"],
        organizer=[organizer["id"]],
        categories=["Music", "Choir"],
        event_status="cancelled",
        status_reason="The singer is ill",
        attendance_mode="mixed",
        online_url="https://stream.example.org/gala",
    )
    feed = fetch(api, "events.ics")
    vevent = feed.by_uid(uid(event))
    assert str(vevent["SUMMARY"]) == "Gala night & more"
    assert str(vevent["DESCRIPTION"]) == (
        "The singer is ill\n\nFirst paragraph,\nsecond line.\n\nSecond paragraph; with, commas"
    )
    assert str(vevent["LOCATION"]) == "Town Hall, Main Street 1, Berlin, 10115 Germany"
    assert (vevent["GEO"].latitude, vevent["GEO"].longitude) == (52.52, 13.405)
    assert str(vevent["CONFERENCE"]) == "https://stream.example.org/gala"
    assert vevent["CATEGORIES"].cats == ["Choir", "Music"]
    assert str(vevent["URL"]) == event["url"]
    assert str(vevent["ORGANIZER"]) == "mailto:choir@example.org"
    assert vevent["ORGANIZER"].params["CN"] == "Choir & Co"
    assert str(vevent["STATUS"]) == "CANCELLED"
    assert vevent["SEQUENCE"] == 1
    recorded = datetime(2026, 11, 22, 4, 46, tzinfo=UTC)
    assert vevent["DTSTAMP"].dt == vevent["LAST-MODIFIED"].dt == recorded
    assert vevent["DTSTART"].params["TZID"] == "Europe/Berlin"
    assert feed.utc_starts()[uid(event)] == datetime(2026, 12, 10, 18, 0, tzinfo=UTC)
    other = next(v for v in feed.other_events if v.uid.value == uid(event))
    assert other.summary.value == "Gala night & more"
    assert other.location.value == "Town Hall, Main Street 1, Berlin, 10115 Germany"
    assert other.description.value.startswith("The singer is ill\n\nFirst paragraph,\n")


def test_statuses_organizer_pages_and_online_events(api: Api) -> None:
    organizer = api.post(f"{NS}/organizers", json={"organizer": "No Mail"}).json()
    later = create(api, "Later", *WHEN, event_status="postponed", organizer=[organizer["id"]])
    online = create(
        api, "Stream", *WHEN, attendance_mode="online", online_url="https://example.org/live"
    )
    plain = create(api, "Plain", *WHEN)
    feed = fetch(api, "events.ics")
    assert str(feed.by_uid(uid(later))["STATUS"]) == "TENTATIVE"
    assert str(feed.by_uid(uid(later))["ORGANIZER"]) == organizer["url"]
    assert str(feed.by_uid(uid(online))["LOCATION"]) == "https://example.org/live"
    assert str(feed.by_uid(uid(plain))["STATUS"]) == "CONFIRMED"
    for name in ("LOCATION", "GEO", "ORGANIZER", "CATEGORIES", "DESCRIPTION", "CONFERENCE"):
        assert name not in feed.by_uid(uid(plain))


def test_a_long_feed_has_every_matching_event_once(api: Api) -> None:
    start = datetime(2026, 12, 1, 8, 0)
    ids = []
    for i in range(320):
        begin = start + timedelta(hours=7 * i)
        end = begin + timedelta(hours=1)
        body = api.post(
            f"{NS}/events",
            json={
                "title": f"Event {i}",
                "start_date": begin.isoformat(" "),
                "end_date": end.isoformat(" "),
                "timezone": "America/New_York",
            },
        )
        ids.append(body.json()["id"])
    feed = fetch(api, "events.ics")
    assert [str(e["UID"]) for e in feed.events] == [f"{i}@127.0.0.1" for i in ids]
    assert len(feed.other_events) == 320
    assert len(list(zones(feed))) == 1
    listed = api.get(f"{NS}/events?per_page=50&page=7").json()
    starts = feed.utc_starts()
    for event in listed["events"]:
        utc = datetime.fromisoformat(event["utc_start_date"]).replace(tzinfo=UTC)
        assert starts[uid(event)] == utc


def test_daylight_saving_time_in_berlin_and_new_york(api: Api) -> None:
    cases = [
        ("Europe/Berlin", "2027-03-27 10:00:00", datetime(2027, 3, 27, 9, 0, tzinfo=UTC)),
        ("Europe/Berlin", "2027-03-28 10:00:00", datetime(2027, 3, 28, 8, 0, tzinfo=UTC)),
        ("Europe/Berlin", "2027-10-31 10:00:00", datetime(2027, 10, 31, 9, 0, tzinfo=UTC)),
        ("America/New_York", "2027-03-13 10:00:00", datetime(2027, 3, 13, 15, 0, tzinfo=UTC)),
        ("America/New_York", "2027-03-14 10:00:00", datetime(2027, 3, 14, 14, 0, tzinfo=UTC)),
        ("America/New_York", "2027-11-07 10:00:00", datetime(2027, 11, 7, 15, 0, tzinfo=UTC)),
    ]
    made = [
        (create(api, f"{zone} {start}", start, start[:11] + "11:00:00", timezone=zone), utc)
        for zone, start, utc in cases
    ]
    feed = fetch(api, "events.ics")
    starts = feed.utc_starts()
    for event, utc in made:
        assert starts[uid(event)] == utc
        assert event["utc_start_date"] == utc.strftime("%Y-%m-%d %H:%M:%S")
    named = {str(z["TZID"]) for z in zones(feed)}
    assert named == {"Europe/Berlin", "America/New_York"}


def test_zones_cover_1970_to_2037_one_transition_a_line_and_read_the_same_everywhere(
    api: Api,
) -> None:
    first = create(api, "One", *WHEN, timezone="Europe/Berlin")
    create(api, "Two", "2027-06-01 10:00:00", "2027-06-01 12:00:00", timezone="Europe/Berlin")
    whole = fetch(api, "events.ics").text
    single = fetch(api, f"events/{first['id']}.ics").text

    def zone_text(text: str) -> str:
        return text[text.index("BEGIN:VTIMEZONE") : text.index("END:VTIMEZONE")]

    assert zone_text(whole) == zone_text(single)
    rdates = [line for line in zone_text(whole).split("\r\n") if line.startswith("RDATE")]
    assert all("," not in line for line in rdates)
    years = sorted(int(line.split(":")[1][:4]) for line in rdates)
    assert years[0] <= 1981 and years[-1] == 2037
    berlin: Any = icalendar.Calendar.from_ical(whole).walk("VTIMEZONE")[0]
    assert berlin.to_tz().utcoffset(datetime(2037, 7, 1)) == timedelta(hours=2)


def test_a_zone_is_extended_for_events_after_2037(api: Api) -> None:
    late = create(api, "Late", "2040-07-01 10:00:00", "2040-07-01 11:00:00")
    api.patch(f"{NS}/events/{late['id']}", json={"timezone": "Europe/Berlin"})
    feed = fetch(api, f"events/{late['id']}.ics")
    assert "RDATE:20401028T030000" in feed.text
    # vobject keeps the first VTIMEZONE it read for a TZID (so zones are the same text in
    # every feed); icalendar reads this feed's own.
    zone = zones(feed)[0].to_tz()
    start = feed.by_uid(uid(late))["DTSTART"].dt.replace(tzinfo=None)
    assert zone.utcoffset(start) == timedelta(hours=2)
    assert start == datetime(2040, 7, 1, 10, 0)


def test_all_day_events_are_dates_with_an_exclusive_end(api: Api) -> None:
    one = create(api, "Fair", "2026-12-12 00:00:00", "2026-12-12 23:59:59", all_day=True)
    three = create(api, "Festival", "2026-12-12 00:00:00", "2026-12-14 23:59:59", all_day=True)
    feed = fetch(api, "events.ics")
    fair, festival = feed.by_uid(uid(one)), feed.by_uid(uid(three))
    assert (fair["DTSTART"].dt, fair["DTEND"].dt) == (date(2026, 12, 12), date(2026, 12, 13))
    assert (festival["DTSTART"].dt, festival["DTEND"].dt) == (
        date(2026, 12, 12),
        date(2026, 12, 15),
    )
    assert "DTSTART;VALUE=DATE:20261212" in feed.text
    other = next(v for v in feed.other_events if v.uid.value == uid(three))
    assert other.dtend.value == date(2026, 12, 15)


def test_an_event_that_ends_when_it_starts_has_no_end(api: Api) -> None:
    instant = create(api, "Instant", "2026-12-10 19:00:00", "2026-12-10 19:00:00")
    vevent = fetch(api, "events.ics").by_uid(uid(instant))
    assert "DTEND" not in vevent and "DURATION" not in vevent


def test_fixed_offsets_and_utc(api: Api) -> None:
    plus = create(api, "Plus", *WHEN, timezone="UTC+2")
    iso = create(api, "Iso", *WHEN, timezone="+02:00")
    india = create(api, "India", *WHEN, timezone="UTC+5:30")
    utc = create(api, "Utc", *WHEN, timezone="UTC")
    feed = fetch(api, "events.ics")
    named = {str(z["TZID"]): z for z in zones(feed)}
    assert set(named) == {"UTC+2", "UTC+5:30"}
    assert [c.name for c in named["UTC+2"].subcomponents] == ["STANDARD"]
    assert feed.by_uid(uid(iso))["DTSTART"].params["TZID"] == "UTC+2"
    starts = feed.utc_starts()
    assert starts[uid(plus)] == starts[uid(iso)] == datetime(2026, 12, 10, 17, 0, tzinfo=UTC)
    assert starts[uid(india)] == datetime(2026, 12, 10, 13, 30, tzinfo=UTC)
    assert starts[uid(utc)] == datetime(2026, 12, 10, 19, 0, tzinfo=UTC)
    assert "DTSTART:20261210T190000Z" in feed.text


def test_protected_events_keep_their_text_from_feeds(api: Api) -> None:
    secret = create(api, "Secret", *WHEN, description="Hidden words", post_password="pw")
    listed = fetch(api, "events.ics").by_uid(uid(secret))
    assert str(listed["SUMMARY"]) == "Secret"
    assert "DESCRIPTION" not in listed
    assert "Hidden words" not in fetch(api, "events.ics").text
    refused = api.get(f"{NS}/events/{secret['id']}.ics")
    assert_error(refused, 403, "event-password-protected")
    assert refused.headers["content-type"].startswith("application/json")
    opened = fetch(api, f"events/{secret['id']}.ics?password=pw").by_uid(uid(secret))
    assert str(opened["DESCRIPTION"]) == "Hidden words"


def test_drafts_need_a_reader_allowed_to_see_them(api: Api) -> None:
    draft = create(api, "Draft", *WHEN, status="draft")
    public = create(api, "Public", *WHEN)
    anonymous = fetch(api, "events.ics")
    assert [str(e["UID"]) for e in anonymous.events] == [uid(public)]
    response = api.get(f"{NS}/events/{draft['id']}.ics")
    assert response.status_code in (401, 403)
    assert response.headers["content-type"].startswith("application/json")
    assert response.json()["data"]["status"] == response.status_code
    editor = fetch(api, f"events/{draft['id']}.ics", as_="editor")
    assert [str(e["UID"]) for e in editor.events] == [uid(draft)]
    assert len(fetch(api, "events.ics?status=draft,publish", as_="editor").events) == 2


def test_a_feed_larger_than_the_setting_is_refused_with_the_count(api: Api) -> None:
    for i in range(4):
        create(api, f"E{i}", *WHEN)
    _limit(api, 3)
    body = assert_error(api.get(f"{NS}/events.ics"), 400, "rest_feed_too_large")
    assert body["data"] == {"status": 400, "total": 4, "limit": 3}
    assert "4" in body["message"] and "EVENTCAL_FEED_MAX_EVENTS" in body["message"]
    assert "start_date" in body["message"]
    german = api.get(f"{NS}/events.ics?translation_language=de").json()
    assert german["message"] != body["message"] and "EVENTCAL_FEED_MAX_EVENTS" in german["message"]
    narrowed = fetch(api, "events.ics?search=E1")
    assert len(narrowed.events) == 1
    _limit(api, 4)
    assert len(fetch(api, "events.ics").events) == 4


def test_unknown_filter_values_are_json_errors(api: Api) -> None:
    for query in ("categories=nope", "event_status=maybe", "start_date=someday", "venue=x"):
        response = api.get(f"{NS}/events.ics?{query}")
        assert_error(response, 400, "rest_invalid_param")
        assert response.headers["content-type"].startswith("application/json")
    assert_error(api.get(f"{NS}/events/999999.ics"), 404, "rest-event-not-found")


def test_filters_select_the_events(api: Api) -> None:
    music = create(api, "Concert", *WHEN, categories=["Music"], featured=True)
    create(api, "Talk", *WHEN)
    create(api, "Next year", "2027-12-10 19:00:00", "2027-12-10 20:00:00")
    by_category = fetch(api, "events.ics?categories=music")
    assert [str(e["UID"]) for e in by_category.events] == [uid(music)]
    featured = fetch(api, "events.ics?featured=1")
    assert [str(e["UID"]) for e in featured.events] == [uid(music)]
    window = fetch(api, "events.ics?start_date=2026-12-01&end_date=2026-12-31")
    assert len(window.events) == 2
    assert len(fetch(api, "events.ics?per_page=1&page=2").events) == 3


def test_an_empty_feed_is_a_valid_calendar_with_the_site_zone(api: Api) -> None:
    create(api, "Concert", *WHEN)
    empty = fetch(api, "events.ics?search=nothing-matches-this")
    assert empty.events == []
    # RFC 5545: a VCALENDAR holds at least one component; the site's zone is the one it gets.
    assert [str(z["TZID"]) for z in empty.calendar.walk("VTIMEZONE")] == ["UTC"]
    assert empty.text.count("BEGIN:VTIMEZONE") == 1


def test_german_text_and_calendar_name(api: Api) -> None:
    event = create(api, "Concert", *WHEN, description="In English")
    api.post(
        f"{NS}/events/{event['id']}?translation_language=de",
        json={"title": "Konzert", "description": "Auf Deutsch"},
    )
    german = fetch(api, "events.ics?translation_language=de")
    vevent = german.by_uid(uid(event))
    assert (str(vevent["SUMMARY"]), str(vevent["DESCRIPTION"])) == ("Konzert", "Auf Deutsch")
    assert str(german.calendar["X-WR-CALNAME"]) == "Veranstaltungen auf 127.0.0.1"
    assert str(german.calendar["NAME"]) == "Veranstaltungen auf 127.0.0.1"
    english = fetch(api, "events.ics")
    assert str(english.calendar["X-WR-CALNAME"]) == "Events on 127.0.0.1"
    assert str(english.by_uid(uid(event))["SUMMARY"]) == "Concert"
    path_prefixed = fetch(api, "/de/cal/events/v1/events.ics")
    assert str(path_prefixed.by_uid(uid(event))["SUMMARY"]) == "Konzert"


def test_uid_is_kept_and_sequence_grows_when_an_event_is_rescheduled(
    api: Api, clock: Clock
) -> None:
    event = create(api, "Moving", *WHEN)
    before = fetch(api, f"events/{event['id']}.ics").by_uid(uid(event))
    clock.now = clock.now + timedelta(hours=3)
    moved = api.patch(
        f"{NS}/events/{event['id']}",
        json={"start_date": "2026-12-17 19:00:00", "end_date": "2026-12-17 21:00:00"},
    )
    assert moved.status_code == 200
    after = fetch(api, f"events/{event['id']}.ics").by_uid(uid(event))
    assert after["SEQUENCE"] > before["SEQUENCE"]
    assert after["DTSTART"].dt == datetime(2026, 12, 17, 19, 0, tzinfo=UTC)
    assert after["LAST-MODIFIED"].dt == datetime(2026, 11, 22, 7, 46, tzinfo=UTC)
    assert after["DTSTAMP"].dt == after["LAST-MODIFIED"].dt
    api.patch(f"{NS}/events/{event['id']}", json={"title": "Moving again"})
    again = fetch(api, f"events/{event['id']}.ics").by_uid(uid(event))
    assert again["SEQUENCE"] > after["SEQUENCE"]


def test_an_unchanged_feed_is_the_same_bytes(api: Api, clock: Clock) -> None:
    create(api, "Stable", *WHEN, timezone="Europe/Berlin")
    first = fetch(api, "events.ics?start_date=2026-12-01&end_date=2026-12-31").response.content
    clock.now = clock.now + timedelta(minutes=5)
    create(api, "Elsewhere", "2027-05-01 10:00:00", "2027-05-01 11:00:00")
    again = fetch(api, "events.ics?start_date=2026-12-01&end_date=2026-12-31").response.content
    assert again == first


def test_event_json_and_listings_link_to_the_feeds(api: Api) -> None:
    event = create(api, "Linked", *WHEN, categories=["Music"])
    assert event["ical_url"] == f"http://127.0.0.1{NS}/events/{event['id']}.ics"
    read = api.get(f"{NS}/events/{event['id']}").json()
    assert read["ical_url"] == event["ical_url"]
    listing = api.get(f"{NS}/events?categories=music&per_page=5&page=1&search=a+b").json()
    assert listing["ical_url"] == (f"http://127.0.0.1{NS}/events.ics?categories=music&search=a+b")
    assert listing["webcal_url"] == f"webcal://127.0.0.1{NS}/events.ics?categories=music&search=a+b"
    plain = api.get(f"{NS}/events").json()
    assert plain["ical_url"] == f"http://127.0.0.1{NS}/events.ics"
    german = api.get(f"/de{NS}/events").json()
    assert german["ical_url"] == f"http://127.0.0.1/de{NS}/events.ics"
    assert "ical_url" not in api.get(f"{NS}/venues").json()
