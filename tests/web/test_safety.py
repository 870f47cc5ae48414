"""Pages are safe to show anything: every value escaped, no script, strict headers, friendly
errors as HTML pages (never JSON, never a 500), and only what a visitor may see."""

from __future__ import annotations

import re

import pytest

from tests import factories
from tests.conftest import NS, Api
from tests.web.conftest import Site, create, page, titles

SCRIPT = "<script>alert(1)</script>"
BREAKOUT = '"><img src=x onerror=alert(1)>'


def _policy(response: object) -> dict[str, str]:
    header: str = response.headers["content-security-policy"]  # type: ignore[attr-defined]
    pairs = (part.strip().partition(" ") for part in header.split(";") if part.strip())
    return {name: value.strip() for name, _, value in pairs}


def test_every_value_is_escaped_on_every_page(api: Api) -> None:
    venue = create(api, "venues", venue=BREAKOUT, address=SCRIPT)
    organizer = create(api, "organizers", organizer=SCRIPT)
    event = create(
        api,
        "events",
        title=SCRIPT + BREAKOUT,
        start_date="2026-11-25 19:00:00",
        end_date="2026-11-25 20:00:00",
        description=f"<p>{SCRIPT}</p>{BREAKOUT}",
        venue=venue["id"],
        organizer=[organizer["id"]],
        categories=[BREAKOUT],
    )
    # The API refuses such a website; one stored by other means is still never a link.
    api.run(
        lambda: factories.make_event(
            api.database, "Old import", start="2026-11-26 10:00:00", website="javascript:alert(1)"
        )
    )
    paths = [
        "/calendar/",
        "/calendar/week/?date=2026-11-25",
        "/calendar/day/?date=2026-11-25",
        "/calendar/list/?date=2026-11-25",
        f"/calendar/event/{event['slug']}/",
        f"/calendar/venue/{venue['slug']}/",
        f"/calendar/organizer/{organizer['slug']}/",
        f"/calendar/month/?search={BREAKOUT}",
        "/calendar/event/old-import/",
    ]
    for path in paths:
        html = page(api, path).text
        assert "<script>alert" not in html, path
        assert "<img src=x" not in html, path
        assert "javascript:" not in html, path
        # The only script element is the event page's JSON-LD data block.
        assert re.findall(r"<script(?![^>]*application/ld\+json)", html) == [], path
    event_html = page(api, f"/calendar/event/{event['slug']}/").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&#34;&gt;&lt;img src=x" in event_html
    ld = re.search(r'<script type="application/ld\+json">(.*?)</script>', event_html, re.DOTALL)
    assert ld is not None and "<" not in ld.group(1)


def test_pages_run_under_a_strict_policy_and_cannot_be_framed(api: Api, site: Site) -> None:
    for path in ("/calendar/", f"/calendar/event/{site.concert['slug']}/", "/calendar/nope/"):
        response = api.get(path)
        policy = _policy(response)
        assert policy["default-src"] == "'none'"
        assert policy["script-src"] == "'none'"
        assert policy["style-src"] == "'self'"
        assert policy["frame-ancestors"] == "'none'"
        assert "unsafe" not in response.headers["content-security-policy"]
        assert response.headers["x-frame-options"] == "DENY"
        assert response.headers["x-content-type-options"] == "nosniff"
    html = page(api, "/calendar/").text
    sheet = re.search(r'<link rel="stylesheet" href="http://127.0.0.1(/[^"]+)">', html)
    assert sheet is not None
    css = page(api, sheet.group(1))
    assert css.headers["content-type"].startswith("text/css")
    assert "immutable" in css.headers["cache-control"]
    assert "style=" not in html and "<style" not in html
    page(api, "/calendar/static/0123456789ab/calendar.css", 404)


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("date=2026-13-01", "date"),
        ("date=yesterday", "date"),
        ("date=0000-01-01", "date"),
        ("date=9999-12-01", "date"),  # its grid runs into year 10000: was a 500
        ("date=1899-12-31", "date"),
        ("translation_language=xx", "translation_language"),  # was ignored
        ("search=%ff", "search"),  # not UTF-8: was a crash sending its header
        ("page=0", "page"),
        ("page=abc", "page"),
        ("venue=abc", "venue"),
        ("venue[]=1", "venue"),
        ("search=" + "x" * 201, "search"),
        ("category=no-such-category", "categories"),
        ("organizer=18446744073709551616", "organizer"),
    ],
)
def test_bad_values_get_a_friendly_400_page(api: Api, query: str, named: str) -> None:
    response = page(api, f"/calendar/month/?{query}", 400)
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert "<h1>This page cannot be shown</h1>" in response.text
    assert named in response.text
    assert 'href="http://127.0.0.1/calendar/"' in response.text


@pytest.mark.parametrize("view", ["month", "week", "day", "list"])
def test_the_first_and_last_days_shown_have_no_link_beyond(api: Api, view: str) -> None:
    last = page(api, f"/calendar/{view}/?date=2999-12-31").text
    assert 'rel="next"' not in last and 'rel="prev"' in last
    first = page(api, f"/calendar/{view}/?date=1900-01-01").text
    assert 'rel="prev"' not in first


def test_unknown_pages_are_a_404_page_and_other_methods_are_refused(api: Api) -> None:
    for path in ("/calendar/nope/", "/calendar/event/no-such-event/", "/calendar/venue/x/"):
        response = page(api, path, 404)
        assert response.headers["content-type"] == "text/html; charset=utf-8"
        assert "<h1>Page not found</h1>" in response.text
    refused = api.post("/calendar/", as_=None)
    assert refused.status_code == 405
    assert refused.headers["allow"] == "GET, HEAD"
    assert refused.headers["content-type"].startswith("text/html")
    head = api.request("HEAD", "/calendar/")
    assert head.status_code == 200 and head.content == b""


def test_visitors_see_no_draft_private_or_protected_content(api: Api) -> None:
    draft = create(
        api,
        "events",
        title="Draft Party",
        status="draft",
        start_date="2026-11-24 19:00:00",
        end_date="2026-11-24 20:00:00",
    )
    private = create(
        api,
        "events",
        title="Board Meeting",
        status="private",
        start_date="2026-11-24 09:00:00",
        end_date="2026-11-24 10:00:00",
    )
    api.run(
        lambda: factories.make_event(
            api.database,
            "Secret Rehearsal",
            start="2026-11-24 15:00:00",
            post_password="s3cret",
            description="The code is 1234.",
        )
    )
    for path in ("/calendar/", "/calendar/day/?date=2026-11-24", "/calendar/sitemap.xml"):
        # Pages read as a visitor, whoever asks.
        html = page(api, path, headers=api.auth("administrator"))
        assert "Draft Party" not in html.text and "Board Meeting" not in html.text, path
        assert "1234" not in html.text, path
    assert titles(page(api, "/calendar/day/?date=2026-11-24").text) == ["Secret Rehearsal"]
    page(api, f"/calendar/event/{private['slug'] or 'board-meeting'}/", 404)
    assert api.get(f"{NS}/events/{draft['id']}", as_=None).status_code in (401, 403)
    # The protected event's page shows what its listing entry shows: title and dates.
    protected = page(api, "/calendar/event/secret-rehearsal/").text
    assert "<h1>Secret Rehearsal</h1>" in protected and "1234" not in protected
    assert "protected by a password" in protected
    assert "application/ld+json" not in protected
