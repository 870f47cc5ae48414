"""Content in en, de and es (issue 5): one item, one id, its text in several
languages; reads fall back field by field, writes set one language's text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import Api
from tests.cross.translation_helpers import (
    CATEGORIES,
    COLLECTIONS,
    DE,
    ES,
    EVENTS,
    IDS,
    ORGANIZERS,
    TAGS,
    TEXTS,
    VENUES,
    Collection,
    description,
    read,
    translate,
)

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
