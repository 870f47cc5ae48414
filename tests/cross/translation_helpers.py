"""What ``test_translated_search_and_lists.py``, ``test_translated_slugs.py``,
``test_language_choice.py``, ``test_translated_content.py`` share. They were one module:

Content in en, de and es (issue 5): one item, one id, its text in several languages.

Every test runs for each collection from a small declaration (STYLE habit 12), and for both
non-default languages where the language matters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

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


# --- error messages --------------------------------------------------------------------------


GERMAN_404 = "Die Veranstaltung mit der ID 999 existiert nicht."
