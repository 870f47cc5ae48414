"""A site whose default language is not English (``EVENTCAL_DEFAULT_LANGUAGE=de``)."""

from __future__ import annotations

import pytest

from eventcal.config import Settings
from tests.conftest import NS, Api


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(database_url=database_url, public_url="http://127.0.0.1", default_language="de")


def test_the_default_language_holds_the_item_and_english_is_a_translation(api: Api) -> None:
    created = api.post(f"{NS}/venues", json={"venue": "Hafenhalle", "status": "publish"})
    assert created.status_code == 201, created.text
    assert created.headers["content-language"] == "de"
    assert created.json()["translations"] == ["de"]
    venue = created.json()["id"]
    english = api.post(
        f"{NS}/venues/{venue}?translation_language=en", json={"venue": "Harbour Hall"}
    )
    assert english.json()["venue"] == "Harbour Hall"
    assert english.json()["translations"] == ["en", "de"]
    assert api.get(f"{NS}/venues/{venue}").json()["venue"] == "Hafenhalle"
    assert api.get(f"{NS}/venues/{venue}?translation_language=es").json()["venue"] == "Hafenhalle"
    listed = api.get(f"{NS}/venues", headers={"Accept-Language": "en-GB"}).json()
    assert [v["venue"] for v in listed["venues"]] == ["Harbour Hall"]


def test_errors_speak_the_default_language_when_nothing_else_is_asked(api: Api) -> None:
    response = api.get(f"{NS}/events/999999")
    assert response.status_code == 404
    assert response.headers["content-language"] == "de"
    english = api.get(f"{NS}/events/999999?translation_language=en")
    assert english.json()["message"] == "Event with ID 999999 does not exist."
    assert response.json()["message"] != english.json()["message"]
