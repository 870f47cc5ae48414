"""How a request chooses its language (issue 5): the parameter, the body, a path
segment, Accept-Language; refused values; error messages in that language."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import NS, Api
from tests.cross.translation_helpers import (
    COLLECTIONS,
    DE,
    EVENTS,
    GERMAN_404,
    IDS,
    Collection,
    _urls,
    _urls_of,
    items,
    read,
    translate,
)

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
