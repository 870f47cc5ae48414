"""The calendar pages in Chromium, as a visitor uses them: month → next month → an event → its
venue → back, the filters and the search, the language switch, the keyboard, and axe-core
(WCAG 2.2 A/AA) on every view; screenshots at phone and desktop widths."""

from __future__ import annotations

import base64
import calendar
import json
import os
import subprocess
import urllib.request
from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Visit, assert_accessible, save_screenshots
from tests.processes.conftest import EVENTCAL, Server

pytestmark = pytest.mark.browser

LOGIN, PASSWORD = "editor-in-chief", "calendar pages 17"


@dataclass
class Seeded:
    this_month: date
    next_month: date
    concert: dict[str, object]
    fair: dict[str, object]
    venue: dict[str, object]


def _post(server: Server, path: str, body: dict[str, object]) -> dict[str, object]:
    token = base64.b64encode(f"{LOGIN}:{PASSWORD}".encode()).decode()
    request = urllib.request.Request(  # noqa: S310 (our own server)
        f"{server.base}/cal/events/v1/{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Basic {token}"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        created: dict[str, object] = json.load(response)
    return created


@pytest.fixture(scope="module")
def seeded(live_server: Server) -> Seeded:
    """An administrator (the CLI), a venue and events this month and next (the API)."""
    database = live_server.log.parent / "eventcal.db"
    env = {**os.environ, "EVENTCAL_DATABASE_URL": f"sqlite:///{database}"}
    subprocess.run(  # noqa: S603 (our own console script)
        [str(EVENTCAL), "user", "add", LOGIN, "--role", "administrator", "--password", PASSWORD],
        env=env,
        check=True,
        capture_output=True,
    )
    today = date.today()
    first = today.replace(day=1)
    following = first + timedelta(days=calendar.monthrange(first.year, first.month)[1])
    venue = _post(live_server, "venues", {"venue": "Harbour Hall", "city": "Portsmouth"})
    concert = _post(
        live_server,
        "events",
        {
            "title": "Harbour Concert",
            "start_date": f"{following.replace(day=12)} 19:00:00",
            "end_date": f"{following.replace(day=12)} 21:00:00",
            "venue": venue["id"],
            "categories": ["Music"],
            "description": "Brass band by the water.",
        },
    )
    fair = _post(
        live_server,
        "events",
        {
            "title": "Book Fair",
            "start_date": f"{following.replace(day=20)} 10:00:00",
            "end_date": f"{following.replace(day=22)} 17:00:00",
            "categories": ["Books"],
        },
    )
    _post(
        live_server,
        "events",
        {
            "title": "Town Meeting",
            "start_date": f"{first.replace(day=15)} 18:00:00",
            "end_date": f"{first.replace(day=15)} 19:00:00",
            "event_status": "cancelled",
        },
    )
    return Seeded(first, following, concert, fair, venue)


def _no_trouble(visit: Visit) -> None:
    assert visit.errors == [], visit.errors
    assert visit.foreign_requests() == []


def test_month_to_next_month_to_an_event_to_its_venue_and_back(
    visit: Visit, seeded: Seeded
) -> None:
    page = visit.page
    response = page.goto("/calendar/")
    assert response is not None and response.status == 200
    expect(page.locator("h1")).to_contain_text(str(seeded.this_month.year))
    expect(page.locator("a.event.cancelled")).to_contain_text("Town Meeting")
    assert_accessible(page)
    save_screenshots(page, "calendar-month")

    page.get_by_role("link", name="Next month").click()
    expect(page.locator("h1")).to_contain_text(seeded.next_month.strftime("%B"))
    # The fair covers three days: it is on each of them.
    expect(page.locator("a.event", has_text="Book Fair")).to_have_count(3)
    save_screenshots(page, "calendar-next-month")
    page.get_by_role("link", name="Harbour Concert").click()
    expect(page.locator("h1")).to_have_text("Harbour Concert")
    expect(page.get_by_role("link", name="Google Calendar")).to_be_visible()
    assert_accessible(page)
    save_screenshots(page, "calendar-event")

    page.get_by_role("link", name="Harbour Hall").click()
    expect(page.locator("h1")).to_have_text("Harbour Hall")
    expect(page.locator("a.event")).to_have_text(["7:00\u202fPM Harbour Concert"])
    assert_accessible(page)
    save_screenshots(page, "calendar-venue")
    page.go_back()
    expect(page.locator("h1")).to_have_text("Harbour Concert")
    _no_trouble(visit)


def test_filters_search_and_the_date_picker_work_without_script(
    visit: Visit, seeded: Seeded
) -> None:
    page = visit.page
    page.goto(f"/calendar/month/?date={seeded.next_month.isoformat()}")
    page.get_by_label("Category", exact=True).select_option(label="Books")
    page.get_by_role("button", name="Show events").click()
    expect(page.locator("a.event .title")).to_have_text(["Book Fair"] * 3)
    assert "category=books" in page.url
    page.get_by_label("Category", exact=True).select_option(value="")
    page.get_by_label("Search", exact=True).fill("harbour")
    page.get_by_role("button", name="Show events").click()
    expect(page.locator("a.event .title")).to_have_text(["Harbour Concert"])
    page.get_by_label("Search", exact=True).fill("")
    page.get_by_label("Date", exact=True).fill(f"{seeded.next_month.replace(day=12)}")
    page.get_by_role("link", name="Day", exact=True).click()
    page.get_by_label("Date", exact=True).fill(f"{seeded.next_month.replace(day=12)}")
    page.get_by_role("button", name="Show events").click()
    expect(page.locator("h1")).to_contain_text("12")
    expect(page.locator("a.event .title")).to_have_text(["Harbour Concert"])
    _no_trouble(visit)


def test_the_language_switch_keeps_the_page(visit: Visit, seeded: Seeded) -> None:
    page = visit.page
    page.goto(f"/calendar/week/?date={seeded.next_month.replace(day=12).isoformat()}")
    page.get_by_role("link", name="Deutsch").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("link", name="Nächste Woche")).to_be_visible()
    assert "/de/calendar/week/" in page.url
    assert_accessible(page)
    page.get_by_role("link", name="Español").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_role("link", name="Semana siguiente")).to_be_visible()
    _no_trouble(visit)


def _focus_ring(page: Page) -> str:
    return str(
        page.evaluate(
            "() => { const s = getComputedStyle(document.activeElement);"
            " return s.outlineStyle + ' ' + s.outlineWidth; }"
        )
    )


def test_the_keyboard_reaches_everything_with_a_visible_focus(visit: Visit, seeded: Seeded) -> None:
    page = visit.page
    page.goto("/calendar/")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("Skip to the content")
    assert _focus_ring(page) == "solid 3px"
    page.keyboard.press("Enter")
    seen = set()
    for _ in range(25):
        page.keyboard.press("Tab")
        name = page.evaluate(
            "() => { const e = document.activeElement;"
            " return e.tagName + ' ' + (e.id || e.textContent.trim()); }"
        )
        seen.add(name)
        assert _focus_ring(page) == "solid 3px", name
    # After the skip link, focus goes into the content: the view links, the form, the grid.
    assert "A Month" in seen and "INPUT f-date" in seen and "BUTTON Show events" in seen


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/calendar/week/", 200),
        ("/calendar/day/", 200),
        ("/calendar/list/", 200),
        ("/calendar/nope/", 404),
        ("/calendar/month/?date=not-a-date", 400),
        ("/es/calendar/", 200),
    ],
)
def test_every_view_passes_axe_at_both_widths(
    visit: Visit, seeded: Seeded, path: str, status: int
) -> None:
    page = visit.page
    response = page.goto(path)
    assert response is not None and response.status == status
    if status != 200:
        # The browser reports the page's own status in the console; nothing else may fail.
        visit.errors = [e for e in visit.errors if f"status of {status}" not in e]
    for width in (375, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        assert_accessible(page)
    name = "calendar-" + path.strip("/").replace("/", "-").replace("?", "-").replace("=", "-")
    save_screenshots(page, name)
    _no_trouble(visit)


def test_the_month_view_passes_axe_on_a_phone(visit: Visit, seeded: Seeded) -> None:
    page = visit.page
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(f"/calendar/month/?date={seeded.next_month.isoformat()}")
    expect(page.locator("a.event", has_text="Harbour Concert")).to_be_visible()
    assert_accessible(page)
    _no_trouble(visit)
