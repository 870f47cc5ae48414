"""Slugs per language (issue 5): translated slugs, their uniqueness, by-slug reads
and term filters in the requested language."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import NS, Api
from tests.cross.translation_helpers import (
    CATEGORIES,
    EVENTS,
    ORGANIZERS,
    TAGS,
    VENUES,
    Collection,
    items,
    read,
    translate,
)

# --- slugs -----------------------------------------------------------------------------------


@pytest.mark.parametrize("c", [EVENTS, CATEGORIES, TAGS], ids=["events", "categories", "tags"])
def test_a_translated_name_gives_a_translated_slug_once(api: Api, c: Collection) -> None:
    item_id = c.create(api, "Harbour Night")["id"]
    german = translate(api, c, item_id, "de", **{c.name: "Hafennacht"})
    assert german["slug"] == "hafennacht"
    renamed = translate(api, c, item_id, "de", **{c.name: "Große Hafennacht"})
    assert renamed["slug"] == "hafennacht"
    assert read(api, c, item_id).json()["slug"] == "harbour-night"
    explicit = translate(api, c, item_id, "de", slug="Hafen Nacht")
    assert explicit["slug"] == "hafen-nacht"
    removed = translate(api, c, item_id, "de", slug="")
    assert removed["slug"] == "harbour-night"
    if c is EVENTS:
        assert removed["url"] == "http://127.0.0.1/event/harbour-night/"


def test_translated_event_slugs_are_unique_per_language(api: Api) -> None:
    first = EVENTS.create(api, "Harbour Night")["id"]
    second = EVENTS.create(api, "Harbour Night Two")["id"]
    other = EVENTS.create(api, "Sommerfest")["id"]
    assert translate(api, EVENTS, first, "de", title="Hafennacht")["slug"] == "hafennacht"
    assert translate(api, EVENTS, second, "de", title="Hafennacht")["slug"] == "hafennacht-2"
    assert translate(api, EVENTS, second, "es", title="Hafennacht")["slug"] == "hafennacht"
    # A translated slug never hides another event's own slug.
    assert translate(api, EVENTS, first, "es", slug="sommerfest")["slug"] == "sommerfest-2"
    assert read(api, EVENTS, other).json()["slug"] == "sommerfest"


@pytest.mark.parametrize("c", [CATEGORIES, TAGS], ids=["categories", "tags"])
def test_a_term_slug_taken_in_that_language_is_refused(api: Api, c: Collection) -> None:
    first = c.create(api, "Music")["id"]
    second = c.create(api, "Concerts")["id"]
    translate(api, c, first, "de", slug="musik")
    response = api.post(c.path(f"/{second}?translation_language=de"), json={"slug": "musik"})
    assert response.status_code == 400
    assert response.json()["code"] == "duplicate_term_slug"
    taken = api.post(c.path(f"/{second}?translation_language=de"), json={"slug": "music"})
    assert taken.json()["code"] == "duplicate_term_slug"


def test_events_are_found_by_their_slug_in_the_requested_language(api: Api) -> None:
    event = EVENTS.create(api, "Harbour Night")["id"]
    translate(api, EVENTS, event, "de", title="Hafennacht")
    by_german = api.get(f"{NS}/events/by-slug/hafennacht?translation_language=de")
    assert by_german.status_code == 200, by_german.text
    assert (by_german.json()["id"], by_german.json()["title"]) == (event, "Hafennacht")
    assert by_german.json()["url"] == "http://127.0.0.1/event/hafennacht/"
    by_default = api.get(f"{NS}/events/by-slug/harbour-night?translation_language=de")
    assert by_default.json()["id"] == event
    assert api.get(f"{NS}/events/by-slug/hafennacht").status_code == 400
    assert api.get(f"{NS}/events/by-slug/hafennacht?translation_language=es").status_code == 400
    updated = api.post(
        f"{NS}/events/by-slug/hafennacht?translation_language=de",
        json={"excerpt": "Kurz"},
    )
    assert updated.status_code == 200, updated.text
    assert updated.json()["excerpt"].startswith("<p>Kurz")


@pytest.mark.parametrize("c", [VENUES, ORGANIZERS], ids=["venues", "organizers"])
def test_venues_and_organizers_keep_one_slug_in_every_language(api: Api, c: Collection) -> None:
    item = c.create(api, "Harbour Hall")
    translate(api, c, item["id"], "de", **{c.name: "Hafenhalle"})
    response = api.get(c.path(f"/by-slug/{item['slug']}?translation_language=de"))
    assert response.status_code == 200, response.text
    assert response.json()[c.name] == "Hafenhalle"
    assert response.json()["slug"] == item["slug"]


@pytest.mark.parametrize("c", [CATEGORIES, TAGS], ids=["categories", "tags"])
def test_term_filters_accept_translated_slugs(api: Api, c: Collection) -> None:
    term = c.create(api, "Music")["id"]
    translate(api, c, term, "de", name="Musik")
    terms: dict[str, Any] = {c.plural: [term]}
    tagged = EVENTS.create(api, "Harbour Night", **terms)["id"]
    EVENTS.create(api, "Other")
    german = api.get(f"{NS}/events?{c.plural}=musik&translation_language=de")
    assert german.status_code == 200, german.text
    assert [e["id"] for e in german.json()["events"]] == [tagged]
    default_slug = api.get(f"{NS}/events?{c.plural}=music&translation_language=de")
    assert [e["id"] for e in default_slug.json()["events"]] == [tagged]
    assert api.get(f"{NS}/events?{c.plural}=musik").status_code == 400
    listed = api.get(c.path("?slug=musik&hide_empty=false&translation_language=de")).json()
    assert [t["id"] for t in items(listed, c)] == [term]
    assert items(api.get(c.path("?slug=musik&hide_empty=false")).json(), c) == []


def test_deleting_a_term_deletes_its_translations(api: Api) -> None:
    term = CATEGORIES.create(api, "Music")["id"]
    translate(api, CATEGORIES, term, "de", name="Musik")
    assert api.delete(f"{NS}/categories/{term}?force=true").status_code == 200
    again = CATEGORIES.create(api, "Musik")
    assert again["translations"] == ["en"]
    german = api.get(f"{NS}/categories?slug=musik&hide_empty=false&translation_language=de")
    assert [t["id"] for t in items(german.json(), CATEGORIES)] == [again["id"]]
