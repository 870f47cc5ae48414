"""Password-protected content never shows through any route or parameter
(issue 6, spec README §6.4)."""

from __future__ import annotations

import pytest

from tests.conftest import NS, Api
from tests.cross.hostile_helpers import (
    EVENT_SECRET,
    EXCERPT_SECRET,
    GERMAN_SECRET,
    LANGUAGE_QUERIES,
    ORGANIZER_SECRET,
    SPANISH_SECRET,
    VENUE_SECRET,
    assert_no_secret,
    seed_protected,
    with_query,
)


@pytest.mark.parametrize("role", [None, "subscriber"])
def test_protected_event_single_reads_are_refused_in_every_variant(
    api: Api, role: str | None
) -> None:
    p = seed_protected(api)
    slug = api.get(f"{NS}/events/{p.event}?password=epw").json()["slug"]
    for base in (
        f"{NS}/events/{p.event}",
        f"{NS}/events/by-slug/{slug}",
        f"/de{NS}/events/{p.event}",
    ):
        for extra in (
            "",
            "password=wrong",
            "password=EPW",
            "password=vpw",
            "context=edit",
            "_fields=description,excerpt",
            "_fields=json_ld",
        ):
            for language in LANGUAGE_QUERIES:
                path = with_query(base, extra, language)
                response = api.get(path, as_=role)
                assert response.status_code == 403, path
                assert response.json()["code"] == "event-password-protected", path
                assert_no_secret(response, path)
        envelope = api.get(with_query(base, "_envelope", "translation_language=de"), as_=role)
        assert envelope.status_code == 200
        assert envelope.json()["status"] == 403
        assert_no_secret(envelope, f"{base}?_envelope")


@pytest.mark.parametrize("role", [None, "subscriber"])
def test_protected_content_is_blanked_in_every_listing_and_embedding(
    api: Api, role: str | None
) -> None:
    p = seed_protected(api)
    paths = [
        f"{NS}/events",
        f"{NS}/events?include={p.event}",
        f"{NS}/events?password=epw",
        f"{NS}/events?context=edit",
        f"{NS}/events?_fields=description,excerpt",
        f"{NS}/events?_fields=events.description",
        f"{NS}/events?_envelope",
        f"{NS}/events/{p.open_event}",
        f"{NS}/events/{p.open_event}?password=epw",
        f"{NS}/events/{p.open_event}?_fields=venue,organizer",
        f"{NS}/venues",
        f"{NS}/venues?event={p.open_event}",
        f"{NS}/venues/{p.venue}",
        f"{NS}/venues/{p.venue}?password=wrong",
        f"{NS}/venues/{p.venue}?password=epw",
        f"{NS}/venues/by-slug/locked-hall",
        f"{NS}/venues/{p.venue}?_fields=description,excerpt,json_ld",
        f"{NS}/organizers",
        f"{NS}/organizers/{p.organizer}",
        f"{NS}/organizers/{p.organizer}?password=vpw",
        f"{NS}/organizers/by-slug/locked-org",
        f"{NS}/organizers?event={p.open_event}&_envelope",
    ]
    for path in paths:
        for language in LANGUAGE_QUERIES:
            full = path + ("&" if "?" in path else "?") + language if language else path
            response = api.get(full, as_=role)
            assert response.status_code == 200, (full, response.text)
            assert_no_secret(response, full)
    for prefix in ("/de", "/es"):
        for path in (f"{NS}/events", f"{NS}/events/{p.open_event}", f"{NS}/venues/{p.venue}"):
            response = api.get(prefix + path, as_=role, headers={"Accept-Language": "de"})
            assert response.status_code == 200
            assert_no_secret(response, prefix + path)
    listed = api.get(f"{NS}/events?include={p.event}", as_=role).json()["events"][0]
    assert (listed["title"], listed["description"], listed["excerpt"]) == (
        "Closed Rehearsal",
        "",
        "",
    )
    embedded = api.get(f"{NS}/events/{p.open_event}", as_=role).json()
    assert embedded["venue"]["venue"] == "Locked Hall"
    assert "description" not in embedded["venue"] and "json_ld" not in embedded["venue"]
    assert embedded["organizer"][0]["organizer"] == "Locked Org"
    assert "description" not in embedded["organizer"][0]


@pytest.mark.parametrize("role", [None, "subscriber"])
def test_search_does_not_look_into_protected_content(api: Api, role: str | None) -> None:
    p = seed_protected(api)

    def event_ids(query: str) -> list[int]:
        response = api.get(f"{NS}/events?{query}", as_=role)
        assert response.status_code in (200, 404), response.text
        return [e["id"] for e in response.json().get("events", [])]

    for secret in (EVENT_SECRET, EXCERPT_SECRET, GERMAN_SECRET, SPANISH_SECRET):
        for language in LANGUAGE_QUERIES:
            assert event_ids(f"search={secret}&{language}") == [], (secret, language)
        # An excluded word is no oracle either: the protected event stays listed.
        assert p.event in event_ids(f"search=-{secret}&translation_language=de")
    assert event_ids("search=Rehearsal") == [p.event]  # the title is public
    for plural, secret in (("venues", VENUE_SECRET), ("organizers", ORGANIZER_SECRET)):
        for query in (f"search={secret}", f"search={GERMAN_SECRET}&translation_language=de"):
            response = api.get(f"{NS}/{plural}?{query}", as_=role)
            assert response.status_code == 200
            assert response.json()["total"] == 0, (plural, query)
        assert api.get(f"{NS}/{plural}?search=Locked", as_=role).json()["total"] == 1


def test_the_right_password_and_an_editor_do_see_protected_content(api: Api) -> None:
    p = seed_protected(api)
    right = api.get(f"{NS}/events/{p.event}?password=epw")
    assert right.status_code == 200
    assert EVENT_SECRET in right.json()["description"]
    assert EXCERPT_SECRET in right.json()["excerpt"]
    german = api.get(f"{NS}/events/{p.event}?password=epw&translation_language=de")
    assert GERMAN_SECRET in german.json()["description"]
    for role in ("editor", "administrator"):
        edit = api.get(f"{NS}/events/{p.event}?context=edit", as_=role)
        assert edit.status_code == 200
        assert EVENT_SECRET in edit.json()["description"]
        assert VENUE_SECRET in edit.json()["venue"]["description"]
        assert ORGANIZER_SECRET in edit.json()["organizer"][0]["description"]
        listed = api.get(f"{NS}/events?context=edit&include={p.event}", as_=role)
        assert EVENT_SECRET in listed.json()["events"][0]["description"]
        embedded = api.get(f"{NS}/events/{p.open_event}?context=edit", as_=role).json()
        assert VENUE_SECRET in embedded["venue"]["description"]
        found = api.get(f"{NS}/events?search={EVENT_SECRET}", as_=role).json()
        assert [e["id"] for e in found["events"]] == [p.event]
        assert api.get(f"{NS}/venues?search={VENUE_SECRET}", as_=role).json()["total"] == 1
    venue = api.get(f"{NS}/venues/{p.venue}?password=vpw")
    assert VENUE_SECRET in venue.json()["description"]
    organizer = api.get(f"{NS}/organizers/{p.organizer}?password=opw&translation_language=de")
    assert GERMAN_SECRET in organizer.json()["description"]
