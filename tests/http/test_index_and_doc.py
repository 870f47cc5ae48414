"""The namespace index and the OpenAPI document (spec index-and-doc.md)."""

from __future__ import annotations

from typing import Any

from tests.conftest import NS, Api

EVENT_ROUTES = [
    "/cal/events/v1",
    "/cal/events/v1/doc",
    "/cal/events/v1/events",
    "/cal/events/v1/events/(?P<id>\\d+)",
    "/cal/events/v1/events/by-slug/(?P<slug>[^/]+)",
]


def test_index_lists_routes_in_registration_order(api: Api) -> None:
    response = api.get(NS)
    assert response.status_code == 200
    body = response.json()
    assert body["namespace"] == "cal/events/v1"
    assert list(body["routes"])[: len(EVENT_ROUTES)] == EVENT_ROUTES
    assert body["_links"] == {"up": [{"href": "http://127.0.0.1/"}]}
    index_route = body["routes"]["/cal/events/v1"]
    assert index_route["endpoints"][0]["args"]["namespace"] == {
        "default": "cal/events/v1",
        "description": "",
        "required": False,
    }
    assert index_route["_links"] == {"self": [{"href": f"http://127.0.0.1{NS}"}]}


def test_index_shows_every_parameter_with_request_time_defaults(api: Api) -> None:
    routes = api.get(NS).json()["routes"]
    archive = routes["/cal/events/v1/events"]["endpoints"][0]["args"]
    assert list(archive)[:4] == ["page", "per_page", "start_date", "end_date"]
    assert archive["page"] == {
        "default": 1,
        "description": "The archive page to return",
        "type": "integer",
        "required": False,
    }
    assert archive["per_page"]["default"] == 10
    assert archive["start_date"]["default"] == "2026-11-21 23:59:00"
    assert archive["end_date"]["default"] == "2028-11-22 04:46:00"
    assert "type" not in archive["start_date"]
    assert archive["categories"]["items"] == {"type": "integer"}
    assert archive["translation_language"]["enum"] == ["en", "de", "es"]
    single = routes["/cal/events/v1/events/(?P<id>\\d+)"]
    assert single["methods"] == ["GET", "DELETE", "POST", "PUT", "PATCH"]
    assert [e["methods"] for e in single["endpoints"]] == [
        ["GET"],
        ["DELETE"],
        ["POST", "PUT", "PATCH"],
    ]
    assert single["endpoints"][0]["args"]["id"] == {
        "description": "the event post ID",
        "type": "integer",
        "required": True,
    }
    assert "_links" not in single
    doc_route = routes["/cal/events/v1/doc"]
    assert list(doc_route["endpoints"][0]["args"]) == ["translation_language"]


def test_index_namespace_and_context_parameters(api: Api) -> None:
    assert api.get(f"{NS}?context=bogus").json() == api.get(NS).json()
    unknown = api.get(f"{NS}?namespace=wp/v2")
    assert unknown.status_code == 404
    assert unknown.json() == {
        "code": "rest_invalid_namespace",
        "message": "The specified namespace could not be found.",
        "data": {"status": 404},
    }


def _all_operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in doc["paths"].items()
        for method, operation in item.items()
    ]


def test_doc_is_an_openapi_document_generated_from_the_routes(api: Api) -> None:
    response = api.get(f"{NS}/doc")
    assert response.status_code == 200
    doc = response.json()
    assert list(doc)[:5] == ["openapi", "info", "servers", "components", "paths"]
    assert doc["openapi"].startswith("3.")
    assert set(doc["info"]) >= {"version", "title", "description"}
    assert doc["servers"][0] == {"url": f"http://127.0.0.1{NS}/"}
    assert doc["servers"][1]["url"] == "http://127.0.0.1/{language}/cal/events/v1/"
    assert doc["servers"][1]["variables"]["language"]["enum"] == ["en", "de", "es"]
    assert {"/", "/doc", "/events", "/events/{id}", "/events/by-slug/{slug}"} <= set(doc["paths"])
    assert set(doc["paths"]["/events/{id}"]) == {"get", "head", "delete", "post", "put", "patch"}
    get_event = doc["paths"]["/events/{id}"]["get"]
    assert get_event["parameters"][0] == {
        "name": "id",
        "in": "path",
        "description": "the event post ID",
        "required": True,
        "schema": {"type": "integer"},
    }
    archive = doc["paths"]["/events"]["get"]
    names = [p["name"] for p in archive["parameters"]]
    index_args = api.get(NS).json()["routes"]["/cal/events/v1/events"]["endpoints"][0]["args"]
    assert names == list(index_args)
    categories = next(p for p in archive["parameters"] if p["name"] == "categories")
    assert (categories["style"], categories["explode"]) == ("form", False)
    create = doc["paths"]["/events"]["post"]
    body_schema = create["requestBody"]["content"]["application/json"]["schema"]
    assert body_schema["required"] == ["title", "start_date", "end_date"]
    assert "venue" in body_schema["properties"]
    assert create["responses"]["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Event"
    }


def test_every_reference_in_the_doc_resolves(api: Api) -> None:
    doc = api.get(f"{NS}/doc").json()
    schemas = doc["components"]["schemas"]
    refs: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "$ref" in node:
                refs.append(node["$ref"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(doc)
    assert refs
    for ref in refs:
        assert ref.startswith("#/components/schemas/")
        assert ref.rsplit("/", 1)[1] in schemas, ref
    for _path, _method, operation in _all_operations(doc):
        assert operation["operationId"]
        assert "400" in operation["responses"]


def test_doc_ignores_translation_language_apart_from_validating_it(api: Api) -> None:
    assert api.get(f"{NS}/doc?translation_language=de").json() == api.get(f"{NS}/doc").json()
    assert api.get(f"{NS}/doc?translation_language=fr").status_code == 400
