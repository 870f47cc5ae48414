"""Pages over HTTP: caching and 304s invalidated by writes, languages, embeds, discovery
headers, the sitemap and the JSON-LD search engines read."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from xml.etree import ElementTree

import pytest
from starlette.testclient import TestClient

from eventcal.app import create_app
from eventcal.config import Settings
from eventcal.errors import ConfigError
from tests.conftest import NS, Api, Clock
from tests.web.conftest import Site, cell, create, page, titles


def test_pages_have_an_etag_answer_304_and_change_with_the_data(api: Api, site: Site) -> None:
    first = page(api, "/calendar/")
    etag = first.headers["etag"]
    assert first.headers["cache-control"] == "public, no-cache"
    cached = api.get("/calendar/", headers={"If-None-Match": etag})
    assert cached.status_code == 304 and cached.content == b""
    assert cached.headers["etag"] == etag
    assert "content-length" not in cached.headers  # a 304's length would have to be the 200's
    head = api.request("HEAD", "/calendar/")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == str(len(first.content))
    before = api.statements
    assert api.get("/calendar/", headers={"If-None-Match": etag}).status_code == 304
    assert api.statements - before <= 1  # the data version only: the page comes from the cache
    create(
        api,
        "events",
        title="Late Addition",
        start_date="2026-11-26 10:00:00",
        end_date="2026-11-26 11:00:00",
    )
    changed = api.get("/calendar/", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["etag"] != etag
    assert titles(cell(changed.text, "2026-11-26")) == ["Late Addition"]
    # An event page is conditional too.
    event = page(api, f"/calendar/event/{site.concert['slug']}/")
    again = api.get(
        f"/calendar/event/{site.concert['slug']}/", headers={"If-None-Match": event.headers["etag"]}
    )
    assert again.status_code == 304


def test_languages_by_parameter_prefix_then_header(api: Api, site: Site) -> None:
    german = page(api, "/de/calendar/month/?date=2026-11-01")
    assert german.headers["content-language"] == "de"
    assert '<html lang="de">' in german.text
    assert "<h1>November 2026</h1>" in german.text and ">Nächster Monat<" in german.text
    assert '<abbr title="Montag">Mo.</abbr>' in german.text
    # Links stay in the language.
    assert 'href="http://127.0.0.1/de/calendar/month/?date=2026-12-01"' in german.text
    spanish = page(api, "/calendar/month/?date=2026-11-01", headers={"Accept-Language": "es"})
    assert '<html lang="es">' in spanish.text and "noviembre de 2026" in spanish.text
    chosen = page(api, "/de/calendar/?translation_language=es&date=2026-11-01")
    assert chosen.headers["content-language"] == "es"
    event = page(api, f"/es/calendar/event/{site.holiday['slug']}/").text
    assert "jueves, 12 de noviembre de 2026, todo el día" in event
    for code, prefix in (("en", ""), ("de", "/de"), ("es", "/es")):
        link = f'<link rel="alternate" hreflang="{code}" href="http://127.0.0.1{prefix}/calendar/'
        assert link in event
    assert '<link rel="alternate" hreflang="x-default" href="http://127.0.0.1/calendar/' in event
    problem = page(api, "/de/calendar/?date=nope", 400).text
    assert "Diese Seite kann nicht angezeigt werden" in problem


def test_a_language_chosen_by_parameter_stays_with_the_links(api: Api, site: Site) -> None:
    german = page(api, "/calendar/month/?date=2026-11-01&translation_language=de").text
    assert '<html lang="de">' in german
    # the next page, the days and the form keep the language (by its prefix)
    assert '<a rel="next" href="http://127.0.0.1/de/calendar/month/?date=2026-12-01">' in german
    assert 'href="http://127.0.0.1/de/calendar/day/?date=2026-11-25"' in german
    assert 'action="http://127.0.0.1/de/calendar/month/"' in german
    # the other languages' links lead to those languages (no parameter overriding them)
    english = '<link rel="alternate" hreflang="en" href="http://127.0.0.1/calendar/month/?date=2026-11-01">'
    assert english in german
    switches = [line for line in german.splitlines() if "hreflang" in line]
    assert len(switches) == 7 and not any("translation_language" in s for s in switches)
    switched = page(api, "/calendar/month/?date=2026-11-01")
    assert switched.headers["content-language"] == "en"


def test_an_item_s_pages_in_other_languages_use_their_slugs(api: Api, site: Site) -> None:
    concert = site.concert["id"]
    translated = api.post(
        f"{NS}/events/{concert}?translation_language=de", json={"title": "Herbstkonzert"}
    )
    assert translated.status_code == 200, translated.text
    german = page(api, "/de/calendar/event/herbstkonzert/").text
    english = "http://127.0.0.1/calendar/event/autumn-concert/"
    assert f'<link rel="alternate" hreflang="en" href="{english}">' in german
    assert f'<a href="{english}" hreflang="en" lang="en">' in german
    for url in re.findall(r'hreflang="[a-z-]+" href="http://127.0.0.1([^"]+)"', german):
        assert api.get(url).status_code == 200, url
    own = '<link rel="canonical" href="http://127.0.0.1/de/calendar/event/herbstkonzert/">'
    assert own in page(api, f"/de/calendar/event/{site.concert['slug']}/").text
    assert 'hreflang="de" href="http://127.0.0.1/de/calendar/event/herbstkonzert/"' in (
        page(api, f"/calendar/event/{site.concert['slug']}/").text
    )
    venue = page(api, f"/es/calendar/venue/{site.venue['slug']}/").text
    own = f"http://127.0.0.1/es/calendar/venue/{site.venue['slug']}/"
    assert f'<link rel="canonical" href="{own}">' in venue
    assert f'<link rel="alternate" hreflang="es" href="{own}">' in venue


def test_feeds_are_asked_in_the_page_s_language(api: Api, site: Site) -> None:
    concert = site.concert["id"]
    translated = api.post(
        f"{NS}/events/{concert}?translation_language=de", json={"title": "Herbstkonzert"}
    )
    assert translated.status_code == 200, translated.text
    month = page(api, "/de/calendar/month/?date=2026-11-01&category=music").text
    feed = re.search(r'href="http://127.0.0.1(/cal/events/v1/events\.ics\?[^"]+)"', month)
    assert feed is not None and "translation_language=de" in feed.group(1)
    listed = page(api, feed.group(1).replace("&amp;", "&")).text
    assert "SUMMARY:Herbstkonzert" in listed
    webcal = f'href="webcal://127.0.0.1{feed.group(1)}"'
    assert webcal in month
    event = page(api, f"/de/calendar/event/{site.concert['slug']}/").text
    ics = re.search(r'href="http://127.0.0.1(/cal/events/v1/events/\d+\.ics[^"]*)"', event)
    assert ics is not None
    assert "SUMMARY:Herbstkonzert" in page(api, ics.group(1)).text
    english = page(api, "/calendar/month/?date=2026-11-01").text
    assert 'href="http://127.0.0.1/cal/events/v1/events.ics"' in english


def test_every_page_announces_the_api(api: Api, site: Site) -> None:
    expected = {
        "/calendar/": f"http://127.0.0.1{NS}/events",
        "/calendar/month/?category=music": f"http://127.0.0.1{NS}/events?categories=music",
        f"/calendar/event/{site.concert['slug']}/": (
            f"http://127.0.0.1{NS}/events/{site.concert['id']}"
        ),
        f"/calendar/venue/{site.venue['slug']}/": (
            f"http://127.0.0.1{NS}/events?venue={site.venue['id']}"
        ),
        "/calendar/sitemap.xml": f"http://127.0.0.1{NS}/events",
        "/calendar/nope/": f"http://127.0.0.1{NS}/",
    }
    for path, root in expected.items():
        response = api.get(path)
        assert response.headers["link"] == f'<http://127.0.0.1{NS}/>; rel="https://api.w.org/"'
        assert response.headers["x-tec-api-version"] == "v1"
        assert response.headers["x-tec-api-root"] == root, path
        assert response.headers["x-tec-api-origin"] == "http://127.0.0.1"
    assert "x-tec-api-root" not in api.get(f"{NS}/events").headers


def test_the_sitemap_lists_public_event_pages(api: Api, site: Site) -> None:
    create(
        api,
        "events",
        title="Hidden Draft",
        status="draft",
        start_date="2026-11-24 19:00:00",
        end_date="2026-11-24 20:00:00",
    )
    translated = api.post(
        f"{NS}/events/{site.concert['id']}?translation_language=de", json={"title": "Herbstkonzert"}
    )
    assert translated.status_code == 200, translated.text
    slugs = [site.concert, site.festival, site.holiday, site.berlin, site.cancelled]
    pages = {
        f"http://127.0.0.1{prefix}/calendar/event/{e['slug']}/": e["id"]
        for e in slugs
        for prefix in ("", "/de", "/es")
    }
    german_concert = "http://127.0.0.1/de/calendar/event/herbstkonzert/"
    del pages[f"http://127.0.0.1/de/calendar/event/{site.concert['slug']}/"]
    pages[german_concert] = site.concert["id"]
    ns = {
        "s": "http://www.sitemaps.org/schemas/sitemap/0.9",
        "x": "http://www.w3.org/1999/xhtml",
    }
    for path in ("/calendar/sitemap.xml", "/de/calendar/sitemap.xml"):
        response = page(api, path)
        assert response.headers["content-type"] == "application/xml; charset=utf-8"
        tree = ElementTree.fromstring(response.content)  # noqa: S314 (our own page)
        urls = tree.findall("s:url", ns)
        # Every language's page is listed, and names all three (itself included) as alternates.
        assert sorted(u.findtext("s:loc", "", ns) for u in urls) == sorted(pages)
        for url in urls:
            loc = url.findtext("s:loc", "", ns)
            links = {a.get("hreflang"): a.get("href") for a in url.findall("x:link", ns)}
            assert set(links) == {"en", "de", "es"} and loc in links.values()
            assert {pages[href or ""] for href in links.values()} == {pages[loc]}
            assert url.findtext("s:lastmod", "", ns) == "2026-11-22"
    for address in pages:
        assert api.get(address.removeprefix("http://127.0.0.1")).status_code == 200, address


def test_event_pages_carry_the_json_ld_google_requires(api: Api, site: Site) -> None:
    html = page(api, f"/calendar/event/{site.concert['slug']}/").text
    found = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.DOTALL)
    assert found is not None
    data = json.loads(found.group(1))
    assert data["@type"] == "Event" and data["name"] == "Autumn Concert"
    assert data["startDate"] == "2026-11-25T19:30:00+00:00"
    assert data["endDate"] == "2026-11-25T21:30:00+00:00"
    assert data["location"]["@type"] == "Place"
    assert data["location"]["address"]["streetAddress"] == "1 Main St"
    assert data["eventStatus"] == "https://schema.org/EventScheduled"
    assert data["eventAttendanceMode"] == "https://schema.org/OfflineEventAttendanceMode"
    assert data["description"].startswith("An evening of strings.")
    assert data["offers"]["price"] == "10"
    assert data["organizer"]["name"] == "Friends of Music"
    assert data["url"] == f"http://127.0.0.1/calendar/event/{site.concert['slug']}/"
    assert data["offers"]["url"] == data["url"]
    # no empty values (an empty "url" is an invalid URL), no placeholder performer
    assert "url" not in data["location"] and "telephone" not in data["organizer"]
    assert '""' not in found.group(1) and "performer" not in data
    canonical = f'<link rel="canonical" href="{data["url"]}">'
    assert canonical in html
    assert f'<meta property="og:url" content="{data["url"]}">' in html
    assert '<meta property="og:title" content="Autumn Concert">' in html
    assert '<meta property="og:locale" content="en_US">' in html
    assert '<meta property="og:locale:alternate" content="de_DE">' in html
    spanish = page(api, f"/es/calendar/event/{site.concert['slug']}/").text
    assert '<meta property="og:locale" content="es_ES">' in spanish
    assert '<meta property="og:locale:alternate" content="en_US">' in spanish
    month = page(api, "/calendar/month/?date=2026-11-01").text
    assert '<meta property="og:title" content="November 2026">' in month
    assert '<link rel="canonical" href="http://127.0.0.1/calendar/month/?date=2026-11-01">' in month
    berlin = page(api, f"/calendar/event/{site.berlin['slug']}/").text
    assert '"startDate": "2026-11-20T18:00:00+01:00"' in berlin


@pytest.fixture
def embedding(settings: Settings, clock: Clock) -> Iterator[TestClient]:
    changed = settings.with_overrides(embed_origins=("https://news.example", "http://a.test:8080"))
    with TestClient(create_app(changed, clock=clock), base_url="http://127.0.0.1") as client:
        yield client


def test_embeds_may_be_framed_by_the_configured_origins_only(embedding: TestClient) -> None:
    embed = embedding.get("/calendar/embed/month/?date=2026-11-01")
    assert embed.status_code == 200
    policy = embed.headers["content-security-policy"]
    assert "frame-ancestors https://news.example http://a.test:8080" in policy
    assert "x-frame-options" not in embed.headers
    assert '<body class="embed">' in embed.text and 'class="site"' not in embed.text
    assert 'action="http://127.0.0.1/calendar/embed/month/"' in embed.text
    # search engines are sent to the calendar's own page
    own = '<link rel="canonical" href="http://127.0.0.1/calendar/month/?date=2026-11-01">'
    assert own in embed.text
    full = embedding.get("/calendar/month/")
    assert "frame-ancestors 'none'" in full.headers["content-security-policy"]
    assert full.headers["x-frame-options"] == "DENY"
    api = embedding.get(f"{NS}/events")
    assert api.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in api.headers["content-security-policy"]


def test_embeds_open_event_pages_in_the_whole_window(api: Api, site: Site) -> None:
    embed = page(api, "/calendar/embed/month/?date=2026-11-01").text
    link = f'href="http://127.0.0.1/calendar/event/{site.concert["slug"]}/" target="_top">'
    assert link in embed
    assert 'href="http://127.0.0.1/calendar/embed/month/?date=2026-12-01"' in embed
    assert 'target="_top"' not in page(api, "/calendar/month/?date=2026-11-01").text


def test_embeds_are_not_framable_without_the_setting(api: Api) -> None:
    embed = page(api, "/calendar/embed/")
    assert "frame-ancestors 'none'" in embed.headers["content-security-policy"]
    assert embed.headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("origin", ["*", "https://a.test; script-src *", "a.test", "https://"])
def test_embed_origins_must_be_origins(settings: Settings, origin: str) -> None:
    with pytest.raises(ConfigError, match="EVENTCAL_EMBED_ORIGINS"):
        settings.with_overrides(embed_origins=(origin,))


def test_the_pages_feed_links_answer_with_icalendar(api: Api, site: Site) -> None:
    html = page(api, f"/calendar/event/{site.concert['slug']}/").text
    ics = re.search(r'href="http://127.0.0.1(/cal/events/v1/events/\d+\.ics)"', html)
    assert ics is not None
    one = page(api, ics.group(1))
    assert one.headers["content-type"].startswith("text/calendar")
    assert "SUMMARY:Autumn Concert" in one.text
    month = page(api, "/calendar/month/?date=2026-11-01&category=music").text
    feed = re.search(r'href="http://127.0.0.1(/cal/events/v1/events\.ics\?[^"]+)"', month)
    assert feed is not None
    listed = page(api, feed.group(1).replace("&amp;", "&"))
    assert listed.text.count("BEGIN:VEVENT") == 1 and "SUMMARY:Autumn Concert" in listed.text
