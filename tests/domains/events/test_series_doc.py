"""``/doc`` and the index describe recurring events: the fields, ``scope``,
``collapse_recurring`` and the occurrences route with its parameters (after the original's
routes in the index)."""

from __future__ import annotations

from typing import Any

from tests.conftest import NS, Api


def test_doc_describes_recurrence(api: Api) -> None:
    doc: dict[str, Any] = api.get(f"{NS}/doc").json()
    event = doc["components"]["schemas"]["Event"]["properties"]
    assert event["recurrence"]["type"] == "array"
    assert event["recurrence"]["items"] == {"type": "string"}
    assert "RRULE" in event["recurrence"]["description"]
    assert "sentence" in event["recurrence_text"]["description"]
    assert event["series_id"]["type"] == "integer" and event["series_id"]["nullable"] is True
    assert "original start" in event["occurrence_start"]["description"]
    body = doc["paths"]["/events/{id}"]["post"]["requestBody"]["content"]["application/json"]
    written = body["schema"]["properties"]["recurrence"]
    assert {"type": "array", "items": {"type": "string"}} in written["oneOf"]
    for word in ("BYSETPOS", "EXDATE", "TZID", "wall-clock"):
        assert word in written["description"]
    for method in ("post", "put", "patch", "delete"):
        operation = doc["paths"]["/events/{id}"][method]
        scope = [p for p in operation.get("parameters", []) if p["name"] == "scope"]
        if not scope:
            scope = [
                {"schema": v}
                for k, v in operation["requestBody"]["content"]["application/json"]["schema"][
                    "properties"
                ].items()
                if k == "scope"
            ]
        assert scope[0]["schema"]["enum"] == ["this", "following", "all"], method
    listing = {p["name"]: p for p in doc["paths"]["/events"]["get"]["parameters"]}
    assert listing["collapse_recurring"]["schema"] == {"type": "boolean"}
    occurrences = doc["paths"]["/events/{id}/occurrences"]["get"]
    assert "occurrences of a recurring event" in occurrences["summary"]
    assert [p["name"] for p in occurrences["parameters"]][:6] == [
        "id",
        "page",
        "per_page",
        "start_date",
        "end_date",
        "status",
    ]
    assert set(occurrences["responses"]) >= {"200", "400", "404"}


def test_the_index_lists_the_occurrences_route_after_the_originals(api: Api) -> None:
    routes = list(api.get(f"{NS}/").json()["routes"])
    occurrences = routes.index(f"{NS}/events/(?P<id>\\d+)/occurrences")
    assert occurrences > routes.index(f"{NS}/tags/(?P<id>\\d+)")
