"""The OpenAPI 3 document of ``GET {ns}/doc``, generated from the route tables."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from eventcal.context import NAMESPACE
from eventcal.http.args import MISSING, Arg
from eventcal.http.request import RequestState
from eventcal.http.router import BODY_METHODS, Endpoint, Route
from eventcal.i18n import LANGUAGES
from eventcal.resources.components import OPENAPI_VERSION, ref

ERROR_RESPONSE = {"application/json": {"schema": ref("Error")}}
INDEX_TAG = "index"
"""The tag of the operations that belong to no collection (the index, this document)."""
FORM_BODIES = (
    "The fields as JSON; the same fields are also taken as a form "
    "(application/x-www-form-urlencoded or multipart/form-data) or in the query string."
)
LIST_ARG_SCHEMA: dict[str, Any] = {
    "oneOf": [
        {"type": "array", "items": {"oneOf": [{"type": "integer"}, {"type": "string"}]}},
        {"type": "string"},
        {"type": "integer"},
    ]
}


def arg_schema(arg: Arg) -> dict[str, Any]:
    """What the parameter accepts, for the document."""
    if arg.schema is not None:
        return dict(arg.schema)
    if arg.items is not None:
        return dict(LIST_ARG_SCHEMA)
    schema: dict[str, Any] = {}
    if arg.type is not None:
        schema["type"] = arg.type
    elif arg.format == "double":
        schema["type"] = "number"
    if arg.enum is not None:
        schema["enum"] = list(arg.enum)
    return schema


def _parameter(arg: Arg, location: str) -> dict[str, Any]:
    param: dict[str, Any] = {
        "name": arg.name,
        "in": location,
        "description": arg.description or "No description provided",
        "required": location == "path" or arg.required,
        "schema": arg_schema(arg),
    }
    if arg.items is not None and location == "query":
        param["style"] = "form"
        param["explode"] = False
    return param


def _path_args(route: Route) -> list[Arg]:
    """The route's path variables: every operation of the route has them, whether its endpoint
    lists them (the by-slug event update reads its slug straight from the path) or not."""
    declared = {a.name: a for e in route.endpoints for a in e.args if a.location == "path"}
    return [declared[name] for name in _PATH_VARIABLE.findall(route.doc_path)]


_PATH_VARIABLE = re.compile(r"{(\w+)}")
RAW_FILE_SCHEMA = {
    "type": "string",
    "format": "binary",
    "description": "The file itself, named by the header Content-Disposition: attachment; "
    'filename="poster.jpg" (other fields go in the query string).',
}


def _operation(
    route: Route, endpoint: Endpoint, method: str, state: RequestState
) -> dict[str, Any]:
    path_args = _path_args(route)
    other_args = [a for a in endpoint.args if a.location != "path"]
    body_method = method in ("POST", "PUT", "PATCH")
    parameters = [_parameter(a, "path") for a in path_args]
    operation: dict[str, Any] = {
        "tags": [endpoint.tag or INDEX_TAG],
        "summary": (endpoint.summary or "").strip().split("\n")[0],
        "operationId": _operation_id(route, method),
    }
    if body_method:
        properties = {}
        required = []
        for arg in other_args:
            schema = arg_schema(arg)
            schema["description"] = arg.description
            if arg.default is not MISSING and arg.show_default and not callable(arg.default):
                schema["default"] = arg.default
            properties[arg.name] = schema
            if arg.required:
                required.append(arg.name)
        body_schema: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            body_schema["required"] = required
        # One content type where it can be: generators make one function per operation and
        # trip on two (openapi-python-client's create modules could not be imported). Form
        # bodies (application/x-www-form-urlencoded, multipart/form-data) take the same fields.
        content: dict[str, Any] = {"application/json": {"schema": body_schema}}
        if endpoint.accepts_files:
            content = {
                "multipart/form-data": {"schema": body_schema},
                "image/*": {"schema": RAW_FILE_SCHEMA},
            }
        operation["requestBody"] = {
            "description": FORM_BODIES,
            "required": bool(required),
            "content": content,
        }
    else:
        parameters += [_parameter(a, "query") for a in other_args]
    if parameters:
        operation["parameters"] = parameters
    responses: dict[str, Any] = {}
    success = str(endpoint.success_status)
    if endpoint.response_schema is not None:
        media_type = (endpoint.media_type or "application/json").split(";")[0]
        responses[success] = {
            "description": "Success",
            "content": {media_type: {"schema": endpoint.response_schema}},
        }
    else:
        responses[success] = {"description": "Success"}
    errors = {
        400: "Bad parameters",
        401: "Wrong credentials (HTTP Basic with an unknown user or a wrong password)",
        **endpoint.responses,
    }
    if path_args:
        errors.setdefault(404, "No route: the path does not match (e.g. a non-numeric id)")
    if method in BODY_METHODS:
        errors.setdefault(413, "The request body is too large")
    for status, description in sorted(errors.items()):
        responses[str(status)] = {"description": description, "content": ERROR_RESPONSE}
    operation["responses"] = responses
    return operation


def _operation_id(route: Route, method: str) -> str:
    words = [
        w
        for w in route.doc_path.replace("{", "").replace("}", "").replace("-", "_").split("/")
        if w
    ]
    return method.lower() + "_" + ("_".join(words) or "index")


def document(
    routes: Sequence[Route], state: RequestState, components: Mapping[str, Any]
) -> dict[str, Any]:
    """The whole document: every route, method, parameter and response schema."""
    paths: dict[str, Any] = {}
    for route in routes:
        item: dict[str, Any] = {}
        for endpoint in route.endpoints:
            for method in endpoint.methods:
                item[method.lower()] = _operation(route, endpoint, method, state)
        item["head"] = (
            {
                **item["get"],
                "operationId": _operation_id(route, "HEAD"),
                "responses": {
                    k: {"description": v["description"]}
                    for k, v in item["get"]["responses"].items()
                },
            }
            if "get" in item
            else None
        )
        if item["head"] is None:
            del item["head"]
        paths[route.doc_path or "/"] = item
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "version": "1.0.0",
            "title": "eventcal REST API",
            "description": "The events calendar API (namespace cal/events/v1): events, venues, "
            "organizers, event categories and tags, compatible with The Events Calendar REST API.",
        },
        "servers": [
            {"url": f"{state.urls.rest}/"},
            {
                "url": f"{state.urls.base}/{{language}}/{NAMESPACE}/",
                "description": "The same API with the language of content and messages in "
                "the path: /de/cal/events/v1/events is /cal/events/v1/events?"
                "translation_language=de, and every URL in responses keeps the segment.",
                "variables": {
                    "language": {"default": state.site.default_language, "enum": list(LANGUAGES)}
                },
            },
        ],
        "components": {"schemas": dict(components), "securitySchemes": SECURITY_SCHEMES},
        "paths": paths,
        "tags": [{"name": tag} for tag in _tags(paths)],
        # Anonymous callers may read; writes need a user (application password over HTTP Basic).
        "security": [{}, {"basic": []}],
    }


def _tags(paths: Mapping[str, Any]) -> list[str]:
    """Every operation's tag, in the order of the routes (the original's)."""
    found: dict[str, None] = {}
    for item in paths.values():
        for operation in item.values():
            found.update(dict.fromkeys(operation["tags"]))
    return list(found)


SECURITY_SCHEMES = {
    "basic": {
        "type": "http",
        "scheme": "basic",
        "description": "A user's login and one of its application passwords.",
    }
}
