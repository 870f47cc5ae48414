"""Content in en, de and es (issue 5): one item, one id, its text in several languages.

Every test runs for each collection from a small declaration (STYLE habit 12), and for both
non-default languages where the language matters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.conftest import NS, Api

START = "2026-12-05 19:00:00"


@dataclass(frozen=True)
class Collection:
    plural: str
    name: str
    """The API field holding the item's name."""
    payload: dict[str, Any]
    """Other fields a create needs."""
    slug_translated: bool
    list_query: str = ""
    translated_extra: dict[str, tuple[str, str]] = field(default_factory=dict)
    """More translatable fields: name → (default text, translated text)."""

    def path(self, suffix: str = "", prefix: str = "") -> str:
        return f"{prefix}{NS}/{self.plural}{suffix}"

    def create(self, api: Api, name: str, *, query: str = "", **fields: Any) -> dict[str, Any]:
        body = {**self.payload, self.name: name, **fields}
        response = api.post(self.path() + query, json=body)
        assert response.status_code == 201, response.text
        result: dict[str, Any] = response.json()
        return result

    def listing(self, api: Api, query: str = "", **kwargs: Any) -> Any:
        parts = [p for p in (self.list_query, query) if p]
        return api.get(self.path() + "?" + "&".join(parts), **kwargs)


EVENTS = Collection(
    "events",
    "title",
    {"start_date": START, "end_date": "2026-12-05 22:00:00", "status": "publish"},
    slug_translated=True,
    translated_extra={"excerpt": ("Short", "Kurz")},
)
VENUES = Collection(
    "venues",
    "venue",
    {"status": "publish", "country": "Germany"},
    slug_translated=False,
    translated_extra={"city": ("Munich", "München"), "address": ("Main Street 1", "Hauptstr. 1")},
)
ORGANIZERS = Collection("organizers", "organizer", {"status": "publish"}, slug_translated=False)
CATEGORIES = Collection(
    "categories", "name", {}, slug_translated=True, list_query="hide_empty=false"
)
TAGS = Collection("tags", "name", {}, slug_translated=True, list_query="hide_empty=false")
COLLECTIONS = [EVENTS, VENUES, ORGANIZERS, CATEGORIES, TAGS]
IDS = [c.plural for c in COLLECTIONS]

DE = {"name": "Hafennacht", "description": "Lange Nacht am Hafen"}
ES = {"name": "Noche del puerto", "description": "Una noche larga en el puerto"}
TEXTS = {"de": DE, "es": ES}


def items(body: Any, collection: Collection) -> list[dict[str, Any]]:
    """The items of a listing (terms come as a bare list)."""
    result: list[dict[str, Any]] = body if isinstance(body, list) else body[collection.plural]
    return result


def translate(
    api: Api, c: Collection, item_id: int, language: str, **fields: Any
) -> dict[str, Any]:
    response = api.post(c.path(f"/{item_id}?translation_language={language}"), json=fields)
    assert response.status_code == 200, response.text
    assert response.headers["content-language"] == language
    result: dict[str, Any] = response.json()
    return result


def read(api: Api, c: Collection, item_id: int, query: str = "", **kwargs: Any) -> Any:
    return api.get(c.path(f"/{item_id}") + query, **kwargs)


def description(body: dict[str, Any]) -> str:
    """Descriptions of posts come back as HTML paragraphs; terms' as stored."""
    text = str(body.get("description", ""))
    return text.removeprefix("<p>").removesuffix("</p>\n").removesuffix("</p>")


# --- writes and reads ------------------------------------------------------------------------


@pytest.mark.parametrize("c", COLLECTIONS, ids=IDS)
@pytest.mark.parametrize("language", ["de", "es"])
def test_a_translation_is_read_in_its_language_and_leaves_the_default_alone(
    api: Api, c: Collection, language: str
) -> None:
    created = c.create(api, "Harbour Night", description="A long night at the harbour")
    item_id = created["id"]
    assert created["translations"] == ["en"]
    text = TEXTS[language]
    written = translate(
        api, c, item_id, language, **{c.name: text["name"], "description": text["description"]}
    )
    assert written[c.name] == text["name"]
    assert description(written) == text["description"]
    assert written["translations"] == ["en", language]

    default = read(api, c, item_id)
    assert default.headers["content-language"] == "en"
    body = default.json()
    assert body[c.name] == "Harbour Night"
    assert description(body) == "A long night at the harbour"
    assert body["translations"] == ["en", language]

    translated = read(api, c, item_id, f"?translation_language={language}")
    assert translated.headers["content-language"] == language
    assert translated.json()[c.name] == text["name"]
    assert description(translated.json()) == text["description"]
    assert translated.json()["id"] == item_id

    other = "es" if language == "de" else "de"
    fallback = read(api, c, item_id, f"?translation_language={other}").json()
    assert fallback[c.name] == "Harbour Night"
    assert fallback["translations"] == ["en", language]


@pytest.mark.parametrize("c", COLLECTIONS, ids=IDS)
def test_every_language_at_once_and_each_falls_back_field_by_field(api: Api, c: Collection) -> None:
    item_id = c.create(api, "Harbour Night", description="A long night at the harbour")["id"]
    translate(api, c, item_id, "de", **{c.name: DE["name"]})
    translate(api, c, item_id, "es", description=ES["description"])
    german = read(api, c, item_id, "?translation_language=de").json()
    assert (german[c.name], description(german)) == (DE["name"], "A long night at the harbour")
    spanish = read(api, c, item_id, "?translation_language=es").json()
    assert (spanish[c.name], description(spanish)) == ("Harbour Night", ES["description"])
    assert spanish["translations"] == german["translations"] == ["en", "de", "es"]


@pytest.mark.parametrize("c", [EVENTS, VENUES], ids=["events", "venues"])
def test_other_text_fields_are_translated_too(api: Api, c: Collection) -> None:
    defaults = {name: pair[0] for name, pair in c.translated_extra.items()}
    item_id = c.create(api, "Harbour Night", **defaults)["id"]
    translate(api, c, item_id, "de", **{n: pair[1] for n, pair in c.translated_extra.items()})
    german = read(api, c, item_id, "?translation_language=de").json()
    english = read(api, c, item_id).json()
    for name, (default, translated) in c.translated_extra.items():
        assert description({"description": german[name]}) == translated
        assert description({"description": english[name]}) == default


@pytest.mark.parametrize("c", COLLECTIONS, ids=IDS)
def test_an_empty_value_removes_the_translation(api: Api, c: Collection) -> None:
    item_id = c.create(api, "Harbour Night", description="A long night at the harbour")["id"]
    translate(api, c, item_id, "de", **{c.name: DE["name"], "description": DE["description"]})
    after = translate(api, c, item_id, "de", **{c.name: ""})
    assert after[c.name] == "Harbour Night"
    assert description(after) == DE["description"]
    assert after["translations"] == ["en", "de"]
    gone = translate(api, c, item_id, "de", description="")
    assert description(gone) == "A long night at the harbour"
    if not c.slug_translated:
        assert gone["translations"] == ["en"]
    # Without a language, an empty name is still refused.
    refused = api.post(c.path(f"/{item_id}"), json={c.name: ""})
    assert refused.status_code == 400, refused.text
    assert c.name in refused.json()["data"]["params"]


@pytest.mark.parametrize("c", COLLECTIONS, ids=IDS)
@pytest.mark.parametrize("language", ["de", "es"])
def test_a_create_in_another_language_fills_the_default_text_too(
    api: Api, c: Collection, language: str
) -> None:
    text = TEXTS[language]
    created = c.create(
        api,
        text["name"],
        query=f"?translation_language={language}",
        description=text["description"],
    )
    assert created["translations"] == ["en", language]
    item_id = created["id"]
    assert read(api, c, item_id).json()[c.name] == text["name"]
    # The default text can now change on its own; the translation keeps its text.
    api.post(c.path(f"/{item_id}"), json={c.name: "Harbour Night"})
    assert read(api, c, item_id).json()[c.name] == "Harbour Night"
    again = read(api, c, item_id, f"?translation_language={language}").json()
    assert again[c.name] == text["name"]


@pytest.mark.parametrize("c", COLLECTIONS, ids=IDS)
def test_shared_fields_sent_with_a_translation_apply_to_the_item(api: Api, c: Collection) -> None:
    created = c.create(api, "Harbour Night")
    by_collection: dict[str, dict[str, Any]] = {
        "events": {"featured": True},
        "venues": {"phone": "+49 30 123"},
        "organizers": {"email": "crew@example.test"},
        "categories": {"parent": 0},
        "tags": {},
    }
    shared = by_collection[c.plural]
    translate(api, c, created["id"], "de", **{c.name: DE["name"], **shared})
    english = read(api, c, created["id"]).json()
    assert english[c.name] == "Harbour Night"
    for key, value in shared.items():
        assert english[key] == value


@pytest.mark.parametrize("c", COLLECTIONS, ids=IDS)
def test_a_translated_write_that_fails_later_changes_nothing(api: Api, c: Collection) -> None:
    """The translation is written first; what fails after it must take it back."""
    as_ = "administrator"
    if c in (VENUES, ORGANIZERS):
        as_ = "author"
        item_id = api.post(
            c.path(), json={**c.payload, c.name: "Harbour Night", "status": "draft"}, as_=as_
        ).json()["id"]
        failing: dict[str, Any] = {"author": api.user("editor")}
    else:
        item_id = c.create(api, "Harbour Night")["id"]
        failing = {
            EVENTS.plural: {"end_date": "2026-12-01 10:00:00"},
            CATEGORIES.plural: {"parent": item_id},
            TAGS.plural: {"slug": "harbour-night-2"},
        }[c.plural]
        if c is TAGS:
            c.create(api, "Harbour Night 2")
    response = api.post(
        c.path(f"/{item_id}?translation_language=de"),
        json={c.name: DE["name"], "description": DE["description"], **failing},
        as_=as_,
    )
    assert 400 <= response.status_code < 500, response.text
    after = read(api, c, item_id, "?translation_language=de", as_=as_).json()
    assert after[c.name] == "Harbour Night"
    assert after["translations"] == ["en"]


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


# --- choosing the language -------------------------------------------------------------------


@pytest.fixture
def harbour(api: Api) -> int:
    event = EVENTS.create(api, "Harbour Night")["id"]
    translate(api, EVENTS, event, "de", title="Hafennacht")
    translate(api, EVENTS, event, "es", title="Noche del puerto")
    return int(event)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("de", "Hafennacht"),
        ("DE", "Hafennacht"),
        ("de-AT", "Hafennacht"),
        ("es_419", "Noche del puerto"),
        ("en", "Harbour Night"),
        ("", "Harbour Night"),
    ],
)
def test_language_values_users_write_are_understood(
    api: Api, harbour: int, value: str, expected: str
) -> None:
    response = api.get(f"{NS}/events/{harbour}", params={"translation_language": value})
    assert response.status_code == 200, response.text
    assert response.json()["title"] == expected


@pytest.mark.parametrize("c", COLLECTIONS, ids=IDS)
@pytest.mark.parametrize("value", ["fr", "deu", "xx-de", "d", "english"])
def test_other_languages_are_refused_naming_the_parameter(
    api: Api, c: Collection, value: str
) -> None:
    item_id = c.create(api, "Harbour Night")["id"]
    for response in (
        read(api, c, item_id, f"?translation_language={value}"),
        c.listing(api, f"translation_language={value}"),
        api.post(c.path(f"/{item_id}?translation_language={value}"), json={c.name: "X"}),
    ):
        assert response.status_code == 400, response.text
        body = response.json()
        assert body["code"] == "rest_invalid_param"
        assert body["data"]["params"] == {
            "translation_language": "translation_language is not one of en, de, and es."
        }
    assert read(api, c, item_id).json()[c.name] == "Harbour Night"


@pytest.mark.parametrize("value", [1, True, ["de"], {"de": 1}])
def test_a_language_that_is_not_text_is_refused(api: Api, harbour: int, value: Any) -> None:
    response = api.post(
        f"{NS}/events/{harbour}", json={"translation_language": value, "title": "X"}
    )
    assert response.status_code == 400
    assert "translation_language" in response.json()["data"]["params"]
    assert api.get(f"{NS}/events/{harbour}").json()["title"] == "Harbour Night"


def test_the_language_may_come_in_the_body(api: Api, harbour: int) -> None:
    response = api.post(
        f"{NS}/events/{harbour}", json={"translation_language": "de", "excerpt": "Kurz"}
    )
    assert response.headers["content-language"] == "de"
    assert response.json()["title"] == "Hafennacht"
    assert api.get(f"{NS}/events/{harbour}").json()["excerpt"] == ""


@pytest.mark.parametrize(
    ("header", "expected", "language"),
    [
        ("de", "Hafennacht", "de"),
        ("fr-CH, fr;q=0.9, es;q=0.8, de;q=0.7", "Noche del puerto", "es"),
        ("de-DE;q=0.5, en;q=0.6", "Harbour Night", "en"),
        ("fr, *;q=0.5", "Harbour Night", "en"),
        ("de;q=0, es", "Noche del puerto", "es"),
        ("garbage;;;q=x, de;q=abc", "Harbour Night", "en"),
    ],
)
def test_accept_language_chooses_when_nothing_else_does(
    api: Api, harbour: int, header: str, expected: str, language: str
) -> None:
    response = api.get(f"{NS}/events/{harbour}", headers={"Accept-Language": header})
    assert response.status_code == 200
    assert response.json()["title"] == expected
    assert response.headers["content-language"] == language
    assert "Accept-Language" in response.headers["vary"]


def test_the_parameter_wins_over_path_and_header(api: Api, harbour: int) -> None:
    by_path = api.get(f"/de{NS}/events/{harbour}", headers={"Accept-Language": "es"})
    assert by_path.json()["title"] == "Hafennacht"
    by_param = api.get(
        f"/de{NS}/events/{harbour}?translation_language=es", headers={"Accept-Language": "de"}
    )
    assert by_param.json()["title"] == "Noche del puerto"
    assert by_param.headers["content-language"] == "es"


@pytest.mark.parametrize("c", COLLECTIONS, ids=IDS)
def test_a_language_path_segment_is_the_parameter_and_stays_in_every_url(
    api: Api, c: Collection
) -> None:
    first = c.create(api, "Harbour Night")["id"]
    c.create(api, "Opening Concert")
    translate(api, c, first, "de", **{c.name: DE["name"]})
    single = api.get(f"/de{NS}/{c.plural}/{first}")
    assert single.status_code == 200, single.text
    assert single.headers["content-language"] == "de"
    body = single.json()
    assert body == read(api, c, first, "?translation_language=de").json() | _urls_of(body)
    assert body[c.name] == DE["name"]
    for url in _urls(body):
        assert url.startswith("http://127.0.0.1/de/"), url
    assert str(body.get("global_id", "127.0.0.1?id=")).startswith("127.0.0.1?id=")

    listing = api.get(f"/de{NS}/{c.plural}?per_page=1&{c.list_query}")
    assert listing.status_code == 200, listing.text
    everything = items(api.get(f"/de{NS}/{c.plural}?{c.list_query}").json(), c)
    assert {i["id"]: i[c.name] for i in everything}[first] == DE["name"]
    for key in ("rest_url", "next_rest_url"):
        assert listing.json()[key].startswith(f"http://127.0.0.1/de{NS}/{c.plural}/?"), key
        assert "translation_language" not in listing.json()[key]
    created = api.post(f"/es{NS}/{c.plural}", json={**c.payload, c.name: "Noche"})
    assert created.status_code == 201, created.text
    assert created.json()["translations"] == ["en", "es"]
    location = created.headers.get("location", f"http://127.0.0.1/es{NS}/")
    assert location.startswith(f"http://127.0.0.1/es{NS}/")


def _urls(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value.startswith("http") else []
    if isinstance(value, dict):
        return [u for k, v in value.items() if k not in ("website", "json_ld") for u in _urls(v)]
    if isinstance(value, list):
        return [u for v in value for u in _urls(v)]
    return []


def _urls_of(body: dict[str, Any]) -> dict[str, Any]:
    """The URL-bearing keys of an object (they differ between the two forms)."""
    keys = ("url", "rest_url", "urls", "website", "json_ld", "categories", "tags", "ical_url")
    return {k: v for k, v in body.items() if k in keys}


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


def test_language_segments_are_only_the_known_languages(api: Api, harbour: int) -> None:
    assert api.get(f"/fr{NS}/events/{harbour}").json()["code"] == "rest_no_route"
    assert api.get(f"/DE{NS}/events/{harbour}").json()["title"] == "Hafennacht"
    assert api.get(f"/de/de{NS}/events/{harbour}").status_code == 404


def test_doc_and_index_keep_the_segment_and_document_the_parameter(api: Api) -> None:
    doc = api.get(f"/de{NS}/doc").json()
    assert doc["servers"][0]["url"] == f"http://127.0.0.1/de{NS}/"
    assert doc["servers"][1]["url"] == "http://127.0.0.1/{language}/cal/events/v1/"
    operation = doc["paths"]["/events"]["get"]
    (param,) = [p for p in operation["parameters"] if p["name"] == "translation_language"]
    assert param["schema"]["enum"] == ["en", "de", "es"]
    assert "path segment" in param["description"]
    index = api.get(f"/es{NS}").json()
    assert index["routes"][f"{NS}/events"]["_links"]["self"][0]["href"] == (
        f"http://127.0.0.1/es{NS}/events"
    )


# --- error messages --------------------------------------------------------------------------


GERMAN_404 = "Die Veranstaltung mit der ID 999 existiert nicht."


@pytest.mark.parametrize(
    ("how", "language", "expected"),
    [
        ({"params": {"translation_language": "de"}}, "de", GERMAN_404),
        ({"prefix": "/es"}, "es", "El evento con el ID 999 no existe."),
        ({"headers": {"Accept-Language": "de-CH"}}, "de", GERMAN_404),
        ({}, "en", "Event with ID 999 does not exist."),
    ],
)
def test_error_messages_speak_the_request_language(
    api: Api, how: dict[str, Any], language: str, expected: str
) -> None:
    options = dict(how)
    prefix = options.pop("prefix", "")
    response = api.get(f"{prefix}{NS}/events/999", **options)
    assert response.status_code == 404
    body = response.json()
    assert (body["code"], body["message"]) == ("rest-event-not-found", expected)
    assert response.headers["content-language"] == language


def test_parameter_errors_are_translated_message_by_message(api: Api) -> None:
    response = api.get(f"{NS}/events?page=0&per_page=abc&translation_language=es")
    assert response.status_code == 400
    body = response.json()
    assert body["message"] == "Parámetro(s) no válido(s): page, per_page"
    assert body["data"]["params"]["per_page"] == "Parámetro no válido."
    assert response.headers["content-language"] == "es"


def test_an_invalid_language_is_reported_in_the_language_of_the_header(api: Api) -> None:
    response = api.get(f"{NS}/events?translation_language=fr", headers={"Accept-Language": "de"})
    assert response.status_code == 400
    assert response.json()["message"] == "Ungültige(r) Parameter: translation_language"
    assert response.json()["data"]["params"]["translation_language"] == (
        "translation_language ist keiner der Werte en, de, and es."
    )


def test_a_language_in_the_body_translates_the_errors_of_that_request(api: Api) -> None:
    response = api.post(f"{NS}/events", json={"translation_language": "de", "title": "X"})
    assert response.status_code == 400
    assert response.json()["message"].startswith("Fehlende(r) Parameter:")
    assert response.headers["content-language"] == "de"
