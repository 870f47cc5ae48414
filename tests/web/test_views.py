"""Each view of the calendar: month, week, day, list, an event, a venue, an organizer."""

from __future__ import annotations

import re

from tests.conftest import NS, Api
from tests.web.conftest import Site, cell, create, page, titles


def test_the_month_grid_puts_events_on_their_days_and_multi_day_ones_on_each(
    api: Api, site: Site
) -> None:
    html = page(api, "/calendar/").text
    assert "<h1>November 2026</h1>" in html
    assert titles(cell(html, "2026-11-25")) == ["Autumn Concert"]
    for day in ("2026-11-28", "2026-11-29", "2026-11-30"):
        assert titles(cell(html, day)) == ["Winter Festival"], day
    # The grid runs to the Sunday after the month: the festival's December days are shown.
    assert titles(cell(html, "2026-12-02")) == ["Winter Festival"]
    assert titles(cell(html, "2026-11-12")) == ["Quiet Day"]
    assert titles(cell(html, "2026-11-26")) == []
    # Times in the event's zone; all-day events have none.
    assert '<span class="time">7:30\u202fPM</span>' in cell(html, "2026-11-25")
    assert 'class="time"' not in cell(html, "2026-11-12")
    # A multi-day event shows its time on its first day only.
    assert '<span class="time">10:00\u202fAM</span>' in cell(html, "2026-11-28")
    assert 'class="time"' not in cell(html, "2026-11-29")


def test_previous_and_next_navigation_moves_by_the_view(api: Api, site: Site) -> None:
    html = page(api, "/calendar/month/?date=2026-11-15").text
    assert 'rel="prev" href="http://127.0.0.1/calendar/month/?date=2026-10-15"' in html
    assert 'rel="next" href="http://127.0.0.1/calendar/month/?date=2026-12-15"' in html
    december = page(api, "/calendar/month/?date=2026-12-15").text
    assert "<h1>December 2026</h1>" in december
    assert titles(cell(december, "2026-12-01")) == ["Winter Festival"]
    assert "Autumn Concert" not in december
    week = page(api, "/calendar/week/?date=2026-11-25").text
    assert 'rel="next" href="http://127.0.0.1/calendar/week/?date=2026-12-02"' in week
    day = page(api, "/calendar/day/?date=2026-11-25").text
    assert 'rel="prev" href="http://127.0.0.1/calendar/day/?date=2026-11-24"' in day


def test_the_week_and_day_views_list_the_events_of_their_days(api: Api, site: Site) -> None:
    week = page(api, "/calendar/week/?date=2026-11-25").text
    # Monday 23 to Sunday 29 November: the concert, then the festival on each of its days.
    assert titles(week) == ["Autumn Concert", "Winter Festival", "Winter Festival"]
    assert "Monday, November 23, 2026" in week and "Sunday, November 29, 2026" in week
    day = page(api, "/calendar/day/?date=2026-11-30").text
    assert titles(day) == ["Winter Festival"]
    empty = page(api, "/calendar/day/?date=2026-11-26").text
    assert "No events on this day." in empty


def test_the_list_view_pages_through_events_from_a_date(api: Api, site: Site) -> None:
    html = page(api, "/calendar/list/?date=2026-11-19").text
    assert titles(html) == ["Berlin Talk", "Autumn Concert", "Winter Festival"]
    for number in range(25):
        create(
            api,
            "events",
            title=f"Class {number:02}",
            start_date="2027-01-05 10:00:00",
            end_date="2027-01-05 11:00:00",
        )
    first = page(api, "/calendar/list/?date=2026-11-19").text
    assert len(titles(first)) == 20
    assert 'rel="next" href="http://127.0.0.1/calendar/list/?date=2026-11-19&amp;page=2"' in first
    second = page(api, "/calendar/list/?date=2026-11-19&page=2").text
    assert titles(second) == [f"Class {n:02}" for n in range(17, 25)]
    assert 'rel="next"' not in second
    # each page of the list is its own canonical page
    own = "http://127.0.0.1/calendar/list/?date=2026-11-19&amp;page=2"
    assert f'<link rel="canonical" href="{own}">' in second
    page(api, "/calendar/list/?date=2026-11-19&page=9", 404)


def test_the_date_picker_is_a_get_form_that_keeps_the_filters(api: Api, site: Site) -> None:
    html = page(api, "/calendar/week/?date=2026-11-25&category=music").text
    form = re.search(r'<form class="filters" method="get" action="([^"]+)"', html)
    assert form is not None and form.group(1) == "http://127.0.0.1/calendar/week/"
    assert '<input type="date" id="f-date" name="date" value="2026-11-25">' in html
    assert '<option value="music" selected>Music</option>' in html
    assert f'<option value="{site.venue["id"]}">Town Hall</option>' in html
    # A month alone is a date too.
    assert "<h1>February 2027</h1>" in page(api, "/calendar/month/?date=2027-02").text


def test_filters_by_category_tag_venue_organizer_and_search(api: Api, site: Site) -> None:
    month = "/calendar/month/?date=2026-11-01"
    assert titles(page(api, f"{month}&category=music").text) == ["Autumn Concert"]
    assert titles(page(api, f"{month}&tag=evening").text) == ["Autumn Concert"]
    venue_titles = titles(page(api, f"{month}&venue={site.venue['id']}").text)
    assert venue_titles == ["Berlin Talk", "Autumn Concert"]
    organizer = site.organizer["id"]
    assert titles(page(api, f"{month}&organizer={organizer}").text) == ["Autumn Concert"]
    # The festival covers 28 November to 2 December, all in the grid.
    assert titles(page(api, f"{month}&search=festival").text) == ["Winter Festival"] * 5
    # The subscribe links carry the same filters to the feed.
    html = page(api, f"{month}&category=music").text
    assert 'href="webcal://127.0.0.1/cal/events/v1/events.ics?categories=music"' in html
    assert 'href="http://127.0.0.1/cal/events/v1/events.ics?categories=music"' in html


def test_an_event_page_shows_the_event_and_links_its_venue_and_organizer(
    api: Api, site: Site
) -> None:
    html = page(api, f"/calendar/event/{site.concert['slug']}/").text
    assert "<h1>Autumn Concert</h1>" in html
    assert "Wednesday, November 25, 2026, 7:30\u202fPM to 9:30\u202fPM" in html
    assert "<p>An evening of strings.</p><p>Bring a friend.</p>" in html
    assert f'href="http://127.0.0.1/calendar/venue/{site.venue["slug"]}/">Town Hall</a>' in html
    organizer_link = f'href="http://127.0.0.1/calendar/organizer/{site.organizer["slug"]}/"'
    assert organizer_link in html
    assert f'href="http://127.0.0.1/cal/events/v1/events/{site.concert["id"]}.ics"' in html
    google = re.search(r'href="(https://calendar.google.com/[^"]+)"', html)
    assert google is not None
    assert "dates=20261125T193000Z%2F20261125T213000Z" in google.group(1)
    assert "text=Autumn+Concert" in google.group(1)


def test_times_name_the_zone_when_it_is_not_the_sites(api: Api, site: Site) -> None:
    berlin = page(api, f"/calendar/event/{site.berlin['slug']}/").text
    assert "6:00\u202fPM to 7:00\u202fPM (Europe/Berlin)" in berlin
    concert = page(api, f"/calendar/event/{site.concert['slug']}/").text
    assert "(UTC)" not in concert
    month = page(api, "/calendar/").text
    berlin_line = '<span class="time">6:00\u202fPM <abbr title="Europe/Berlin">CET</abbr></span>'
    assert berlin_line in cell(month, "2026-11-20")
    holiday = page(api, f"/calendar/event/{site.holiday['slug']}/").text
    assert "Thursday, November 12, 2026, all day" in holiday


def test_a_cancelled_event_stays_listed_and_says_so(api: Api, site: Site) -> None:
    html = page(api, "/calendar/").text
    assert 'class="event cancelled"' in cell(html, "2026-11-18")
    assert '<span class="status">(Cancelled)</span>' in cell(html, "2026-11-18")
    event = page(api, f"/calendar/event/{site.cancelled['slug']}/").text
    assert "<strong>Cancelled</strong>: The speaker is ill" in event


def test_venue_and_organizer_pages_list_their_upcoming_events(api: Api, site: Site) -> None:
    venue = page(api, f"/calendar/venue/{site.venue['slug']}/").text
    assert "<h1>Town Hall</h1>" in venue and "1 Main St, Springfield" in venue
    # Berlin Talk (20 November) is past at the recorded now (22 November).
    assert titles(venue) == ["Autumn Concert"]
    assert f"events.ics?venue={site.venue['id']}" in venue
    organizer = page(api, f"/calendar/organizer/{site.organizer['slug']}/").text
    assert "<h1>Friends of Music</h1>" in organizer and titles(organizer) == ["Autumn Concert"]


def test_the_urls_in_the_json_lead_to_the_pages(api: Api, site: Site) -> None:
    for collection, item, path in (
        ("events", site.concert, "event"),
        ("venues", site.venue, "venue"),
        ("organizers", site.organizer, "organizer"),
    ):
        url = api.get(f"{NS}/{collection}/{item['id']}").json()["url"]
        assert url == f"http://127.0.0.1/{path}/{item['slug']}/"
        moved = api.get(url, follow_redirects=False)
        assert moved.status_code == 301
        assert moved.headers["location"] == f"http://127.0.0.1/calendar/{path}/{item['slug']}/"
        assert api.get(url).status_code == 200
    german = api.get(f"{NS}/events/{site.concert['id']}?translation_language=de").json()
    assert german["url"] == f"http://127.0.0.1/event/{site.concert['slug']}/"
    moved = api.get(f"/de/event/{site.concert['slug']}/", follow_redirects=False)
    assert (
        moved.headers["location"] == f"http://127.0.0.1/de/calendar/event/{site.concert['slug']}/"
    )


def test_an_occurrence_of_a_series_has_a_page_by_date(api: Api) -> None:
    series = create(
        api,
        "events",
        title="Yoga",
        start_date="2026-12-01 10:00:00",
        end_date="2026-12-01 11:00:00",
        recurrence=["RRULE:FREQ=WEEKLY;COUNT=4"],
    )
    html = page(api, f"/calendar/event/{series['slug']}/2026-12-15/").text
    assert "<h1>Yoga</h1>" in html
    assert "Tuesday, December 15, 2026, 10:00\u202fAM" in html
    page(api, f"/calendar/event/{series['slug']}/2026-12-16/", 404)
    page(api, f"/calendar/event/{series['slug']}/2027-02-30/", 400)
    month = page(api, "/calendar/month/?date=2026-12-01").text
    assert titles(month) == ["Yoga"] * 4


def test_a_page_runs_the_same_statements_for_few_or_many_events(api: Api, site: Site) -> None:
    def statements(path: str) -> int:
        before = api.statements
        page(api, path, headers={"Cache-Control": "no-cache"})
        return api.statements - before

    # A fresh query string each time: the page is built, not served from the cache; every
    # item is presented (the item cache, which would keep the first page's, is off).
    api.client.app.state.runtime.items.max_bytes = 0  # type: ignore[attr-defined]
    few = statements("/calendar/month/?date=2026-11-02")
    for number in range(30):
        create(
            api,
            "events",
            title=f"Extra {number}",
            start_date=f"2026-11-{number % 28 + 1:02} 12:00:00",
            end_date=f"2026-11-{number % 28 + 1:02} 13:00:00",
            venue=site.venue["id"],
            organizer=[site.organizer["id"]],
            categories=[f"Topic {number}"],
        )
    many = statements("/calendar/month/?date=2026-11-03")
    assert many == few, (few, many)
