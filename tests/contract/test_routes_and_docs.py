"""Routes and their documentation follow the declaration: OPTIONS lists the declared fields,
HEAD answers GET's headers without a body, the index lists the routes in registration order and
``/doc`` every operation, its schemas, and a 410 only where items go to the trash."""

from __future__ import annotations

from eventcal.collections import REGISTRY
from eventcal.resources.spec import Resource
from tests.conftest import NS
from tests.contract.helpers import Case

UNSTABLE = {"date", "content-length", "x-request-id"}


def _field_args(args: dict[str, object], names: list[str]) -> list[str]:
    return [name for name in args if name in names]


def test_options_describes_the_declared_fields(case: Case) -> None:
    names = [f.name for f in case.resource.fields]
    required = [f.name for f in case.resource.fields if f.required]
    listing = case.api.request("OPTIONS", case.path(), as_="administrator")
    assert listing.status_code == 200
    read, create = listing.json()["endpoints"]
    assert (read["methods"], create["methods"]) == (["GET"], ["POST"])
    assert list(read["args"]) == [a.name for a in case.resource.listing.args] + [
        "translation_language"
    ]
    assert _field_args(create["args"], names) == names
    assert [n for n in names if create["args"][n]["required"]] == required
    item_id = case.item_id()
    item = case.api.request("OPTIONS", case.path(item_id), as_="administrator").json()
    methods = [e["methods"] for e in item["endpoints"]]
    update = item["endpoints"][methods.index(["POST", "PUT", "PATCH"])]
    updated = [f.name for f in case.resource.fields if not f.create_only]
    assert _field_args(update["args"], updated) == updated
    assert not any(update["args"][n]["required"] for n in updated)


def test_head_answers_the_headers_of_get_without_a_body(case: Case) -> None:
    item_id = case.item_id()
    for path in (case.path(), case.path(item_id)):
        get = case.api.get(path, params=case.declared.list_query)
        head = case.api.request("HEAD", path, params=case.declared.list_query)
        assert head.status_code == get.status_code == 200
        assert head.content == b""
        assert head.headers["content-length"] == str(len(get.content))
        same = {k: v for k, v in get.headers.items() if k.lower() not in UNSTABLE}
        assert {k: v for k, v in head.headers.items() if k.lower() not in UNSTABLE} == same


def _own_routes(resource: Resource) -> list[str]:
    base = f"/{NS.strip('/')}/{resource.collection}"
    own = [base, base + r"/(?P<id>\d+)"]
    if resource.behaviour.by_slug:
        own.append(base + "/by-slug/(?P<slug>[^/]+)")
    return own


def test_the_index_lists_every_route_in_registration_order(case: Case) -> None:
    routes = list(case.api.get(NS).json()["routes"])
    own = _own_routes(case.resource)
    at = routes.index(own[0])
    assert routes[at : at + len(own)] == own
    originals = [route for resource in REGISTRY for route in _own_routes(resource)]
    first = routes.index(originals[0])
    assert routes[first : first + len(originals)] == originals
    for extra in routes[first + len(originals) :]:  # additions come after the original's
        assert extra not in originals


def test_doc_lists_the_operations_and_schemas(case: Case) -> None:
    doc = case.api.get(f"{NS}/doc").json()
    collection = case.resource.collection
    paths = doc["paths"]
    assert set(paths[f"/{collection}"]) == {"get", "head", "post"}
    item_paths = [f"/{collection}/{{id}}"] + (
        [f"/{collection}/by-slug/{{slug}}"] if case.by_slug else []
    )
    assert (f"/{collection}/by-slug/{{slug}}" in paths) == case.by_slug
    for path in item_paths:
        assert set(paths[path]) == {"get", "head", "post", "put", "patch", "delete"}
        assert ("410" in paths[path]["delete"]["responses"]) == case.trashes
    schemas = doc["components"]["schemas"]
    for name in (case.resource.schema, case.resource.archive_schema, case.resource.read_schema):
        assert name is None or name in schemas
    kind = "multipart/form-data" if case.resource.accepts_files else "application/json"
    body = paths[f"/{collection}"]["post"]["requestBody"]["content"][kind]
    properties = body["schema"]["properties"]
    names = [f.name for f in case.resource.fields]
    assert _field_args(properties, names) == names
    assert body["schema"].get("required", []) == [
        f.name for f in case.resource.fields if f.required
    ]


def test_doc_operations_are_tagged_with_their_collection(case: Case) -> None:
    paths = case.api.get(f"{NS}/doc").json()["paths"]
    collection = case.resource.collection
    for path, operations in paths.items():
        if path == f"/{collection}" or path.startswith(f"/{collection}/"):
            for operation in operations.values():
                assert operation.get("tags") == [collection], path
