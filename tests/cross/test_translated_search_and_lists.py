"""Translated lists and search (issue 5): item by item, the same statements in
every language, embedded venues, organizers and terms in the requested language."""

from __future__ import annotations

import pytest

from tests.conftest import NS, Api
from tests.cross.translation_helpers import (
    CATEGORIES,
    COLLECTIONS,
    DE,
    EVENTS,
    IDS,
    ORGANIZERS,
    TAGS,
    VENUES,
    Collection,
    items,
    translate,
)

# --- lists -----------------------------------------------------------------------------------


@pytest.mark.parametrize("c", COLLECTIONS, ids=IDS)
def test_lists_are_translated_item_by_item(api: Api, c: Collection) -> None:
    first = c.create(api, "Harbour Night")["id"]
    second = c.create(api, "Opening Concert")["id"]
    translate(api, c, first, "de", **{c.name: DE["name"]})
    response = c.listing(api, "translation_language=de")
    assert response.status_code == 200, response.text
    assert response.headers["content-language"] == "de"
    names = {item["id"]: item[c.name] for item in items(response.json(), c)}
    assert names == {first: DE["name"], second: "Opening Concert"}
    default = {item["id"]: item[c.name] for item in items(c.listing(api).json(), c)}
    assert default == {first: "Harbour Night", second: "Opening Concert"}


@pytest.mark.parametrize("c", COLLECTIONS, ids=IDS)
def test_search_matches_the_requested_language_and_the_default(api: Api, c: Collection) -> None:
    harbour = c.create(api, "Harbour Night")["id"]
    c.create(api, "Opening Concert")
    translate(api, c, harbour, "de", **{c.name: "Hafennacht"})

    def found(query: str) -> list[int]:
        response = c.listing(api, query)
        assert response.status_code == 200, response.text
        return [item["id"] for item in items(response.json(), c)]

    assert found("search=hafen&translation_language=de") == [harbour]
    assert found("search=harbour&translation_language=de") == [harbour]
    assert found("search=hafen") == []
    assert found("search=hafen&translation_language=es") == []


def test_search_exclusions_look_at_the_translation_too(api: Api) -> None:
    harbour = EVENTS.create(api, "Harbour Night")["id"]
    concert = EVENTS.create(api, "Opening Concert")["id"]
    translate(api, EVENTS, harbour, "de", title="Hafennacht")
    body = api.get(f"{NS}/events?search=night+-hafen&translation_language=de").json()
    assert [e["id"] for e in body["events"]] == []
    body = api.get(f"{NS}/events?search=-hafen&translation_language=de").json()
    assert [e["id"] for e in body["events"]] == [concert]


@pytest.mark.parametrize("c", COLLECTIONS, ids=IDS)
def test_a_translated_list_runs_the_same_statements_as_an_untranslated_one(
    api: Api, c: Collection
) -> None:
    api.client.app.state.runtime.items.max_bytes = 0  # type: ignore[attr-defined]  # built
    ids = [c.create(api, f"Item {i}")["id"] for i in range(3)]
    translate(api, c, ids[0], "de", **{c.name: "Eintrag"})
    counts = []
    for query in ("", "translation_language=de", "translation_language=es"):
        before = api.statements
        response = c.listing(api, query)
        assert len(items(response.json(), c)) == 3
        counts.append(api.statements - before)
    assert counts[0] == counts[1] == counts[2]


def test_an_event_list_with_everything_linked_costs_the_same_in_every_language(
    api: Api,
) -> None:
    api.client.app.state.runtime.items.max_bytes = 0  # type: ignore[attr-defined]  # built
    venue = VENUES.create(api, "Hall")["id"]
    organizer = ORGANIZERS.create(api, "Crew")["id"]
    category = CATEGORIES.create(api, "Music")["id"]
    for i in range(5):
        EVENTS.create(
            api,
            f"Event {i}",
            venue=venue,
            organizer=[organizer],
            categories=[category],
            tags=["harbour"],
        )
    translate(api, VENUES, venue, "de", venue="Halle")
    translate(api, CATEGORIES, category, "de", name="Musik")
    counts = []
    for query in ("", "?translation_language=de", "?translation_language=es"):
        before = api.statements
        body = api.get(f"{NS}/events{query}").json()
        assert len(body["events"]) == 5
        counts.append(api.statements - before)
    assert counts[0] == counts[1] == counts[2]


# --- what an event embeds --------------------------------------------------------------------


def test_an_event_shows_its_venue_organizers_and_terms_in_the_requested_language(
    api: Api,
) -> None:
    venue = VENUES.create(api, "Harbour Hall", city="Hamburg")["id"]
    organizer = ORGANIZERS.create(api, "Harbour Crew")["id"]
    parent = CATEGORIES.create(api, "Music")["id"]
    child = CATEGORIES.create(api, "Jazz Night", parent=parent)["id"]
    tag = TAGS.create(api, "Open Air")["id"]
    event = EVENTS.create(
        api, "Harbour Night", venue=venue, organizer=[organizer], categories=[child], tags=[tag]
    )["id"]
    translate(api, VENUES, venue, "de", venue="Hafenhalle")
    translate(api, ORGANIZERS, organizer, "de", organizer="Hafencrew")
    translate(api, CATEGORIES, parent, "de", name="Musik")
    translate(api, CATEGORIES, child, "de", name="Jazznacht")
    translate(api, TAGS, tag, "de", name="Freiluft")

    german = api.get(f"{NS}/events/{event}?translation_language=de").json()
    assert german["title"] == "Harbour Night"
    assert german["translations"] == ["en"]
    assert german["venue"]["venue"] == "Hafenhalle"
    assert german["venue"]["translations"] == ["en", "de"]
    assert german["venue"]["city"] == "Hamburg"
    assert german["organizer"][0]["organizer"] == "Hafencrew"
    assert german["json_ld"]["location"]["name"] == "Hafenhalle"
    assert [(t["name"], t["slug"]) for t in german["categories"]] == [("Jazznacht", "jazznacht")]
    assert german["categories"][0]["translations"] == ["en", "de"]
    assert [t["name"] for t in german["tags"]] == ["Freiluft"]

    category = api.get(f"{NS}/categories/{child}?translation_language=de").json()
    assert category["url"] == "http://127.0.0.1/events/category/musik/jazznacht/"
    english = api.get(f"{NS}/events/{event}").json()
    assert english["venue"]["venue"] == "Harbour Hall"
    assert [t["name"] for t in english["categories"]] == ["Jazz Night"]


@pytest.mark.parametrize("c", COLLECTIONS, ids=IDS)
def test_archive_links_keep_a_language_parameter(api: Api, c: Collection) -> None:
    c.create(api, "Harbour Night")
    c.create(api, "Opening Concert")
    body = c.listing(api, "per_page=1&translation_language=DE-at").json()
    for key in ("rest_url", "next_rest_url"):
        assert "translation_language=de" in body[key], body[key]
    following = api.get(body["next_rest_url"])
    assert following.status_code == 200
    assert following.headers["content-language"] == "de"
