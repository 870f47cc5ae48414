"""Pages built from the per-process item cache and filter menus are never stale: a page read
that starts after a write's response was sent shows that write, in the process that wrote and
in any other (issue 17, as the JSON listings in ``tests/http/test_item_cache.py``).

Two apps on one database stand for two server processes; their response caches are off, so
every page is built, from what each process keeps."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from tests.conftest import NS, Api
from tests.two_processes import create, items
from tests.web.conftest import titles

EVENT = {"start_date": "2026-12-05 19:00:00", "end_date": "2026-12-05 22:00:00"}
MONTH = "/calendar/month/?date=2026-12-01"
WEEK = "/calendar/week/?date=2026-12-05"


def html(client: TestClient, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, response.text[:2000]
    return response.text


def options(page: str, name: str) -> list[str]:
    """The labels of a filter menu (``venue``, ``category``…), "All" left out."""
    start = page.index(f'<select id="f-{name}"')
    menu = page[start : page.index("</select>", start)]
    return [o.split(">", 1)[1] for o in menu.split("</option>")[1:-1]]


@pytest.fixture
def linked(writer: Api) -> dict[str, int]:
    venue = create(writer, "venues", venue="Hall")
    category = create(writer, "categories", name="Jazz")
    event = create(
        writer, "events", title="Harbour Night", venue=venue, categories=[category], **EVENT
    )
    return {"event": event, "venue": venue, "category": category}


def test_a_page_takes_its_events_from_the_item_cache(writer: Api, linked: dict[str, int]) -> None:
    cache = items(writer.client)
    assert titles(html(writer.client, MONTH)) == ["Harbour Night"]
    hits = cache.hits
    before = writer.statements
    assert titles(html(writer.client, MONTH)) == ["Harbour Night"]
    assert cache.hits == hits + 1
    # the data version, the listing's rows (its total is kept too); no venue, terms,
    # translations or filter menus
    assert writer.statements - before == 2


@pytest.mark.parametrize("process", ["same", "other"])
def test_an_edit_shows_on_the_next_page(
    writer: Api, reader: TestClient, linked: dict[str, int], process: str
) -> None:
    client = writer.client if process == "same" else reader
    for _ in range(2):
        assert titles(html(client, MONTH)) == ["Harbour Night"]
    moved = writer.post(f"{NS}/events/{linked['event']}", json={"title": "Moved"})
    assert moved.status_code == 200, moved.text
    assert titles(html(client, MONTH)) == ["Moved"]


def test_a_venue_edit_shows_in_its_events_lines(
    writer: Api, reader: TestClient, linked: dict[str, int]
) -> None:
    for _ in range(2):
        assert '<span class="where">Hall</span>' in html(reader, WEEK)
    edited = writer.post(f"{NS}/venues/{linked['venue']}", json={"venue": "Great Hall"})
    assert edited.status_code == 200, edited.text
    page = html(reader, WEEK)
    assert '<span class="where">Great Hall</span>' in page
    assert options(page, "venue") == ["Great Hall"]


def test_a_translation_shows_on_the_language_s_page(
    writer: Api, reader: TestClient, linked: dict[str, int]
) -> None:
    for _ in range(2):
        assert titles(html(reader, f"/de{MONTH}")) == ["Harbour Night"]
    written = writer.post(
        f"{NS}/events/{linked['event']}?translation_language=de", json={"title": "Hafennacht"}
    )
    assert written.status_code == 200, written.text
    assert titles(html(reader, f"/de{MONTH}")) == ["Hafennacht"]
    assert titles(html(reader, MONTH)) == ["Harbour Night"]


def test_the_filter_menus_follow_writes(
    writer: Api, reader: TestClient, linked: dict[str, int]
) -> None:
    for _ in range(2):
        page = html(reader, MONTH)
    assert options(page, "category") == ["Jazz"]
    assert options(page, "organizer") == []
    create(writer, "organizers", organizer="Harbour Society")
    renamed = writer.post(f"{NS}/categories/{linked['category']}", json={"name": "Blues"})
    assert renamed.status_code == 200, renamed.text
    page = html(reader, MONTH)
    assert options(page, "category") == ["Blues"]
    assert options(page, "organizer") == ["Harbour Society"]
    # a German page keeps menus of its own
    assert options(html(reader, f"/de{MONTH}"), "category") == ["Blues"]


def test_trash_shows_at_once(writer: Api, reader: TestClient, linked: dict[str, int]) -> None:
    for _ in range(2):
        assert titles(html(reader, MONTH)) == ["Harbour Night"]
    assert writer.delete(f"{NS}/events/{linked['event']}").status_code == 200
    page = html(reader, MONTH)
    assert titles(page) == []
    assert options(page, "category") == []  # no events left: hidden as empty
