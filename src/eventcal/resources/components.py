"""OpenAPI component schemas shared by the collections, and helpers to write the collections' own,
as the service really answers them.

The original's documentation route disagreed with its own responses (``author`` documented as an
integer but sent as a string, date details as integers but sent as strings…); these schemas
describe what clients actually receive, so the document can be used to validate responses.
"""

from __future__ import annotations

from typing import Any

OPENAPI_VERSION = "3.0.3"


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "nullable": True}


STRING = {"type": "string"}
INTEGER = {"type": "integer"}
BOOLEAN = {"type": "boolean"}
FALSE = {"type": "boolean", "enum": [False]}
EMPTY_LIST = {"type": "array", "maxItems": 0, "items": {}}

_DATE_DETAILS = {
    "type": "object",
    "description": "Parts of a date-time, each a zero-padded string.",
    "properties": dict.fromkeys(("year", "month", "day", "hour", "minutes", "seconds"), STRING),
    "required": ["year", "month", "day", "hour", "minutes", "seconds"],
}

_IMAGE = {
    "type": "object",
    "description": "A featured image.",
    "properties": {
        "url": {"type": "string", "format": "uri"},
        "id": INTEGER,
        "extension": STRING,
        "width": INTEGER,
        "height": INTEGER,
        "filesize": INTEGER,
        "sizes": {"type": "object", "additionalProperties": True},
    },
    "required": ["url"],
}

POST_PROPERTIES: dict[str, Any] = {
    "id": INTEGER,
    "author": {"type": "string", "description": "Author user id as a string (as the original)."},
    "status": STRING,
    "date": {"type": "string", "description": "Publication date, site-local, YYYY-MM-DD HH:MM:SS."},
    "date_utc": STRING,
    "modified": STRING,
    "modified_utc": STRING,
    "url": STRING,
    "slug": STRING,
    "description": STRING,
    "excerpt": STRING,
    "global_id": STRING,
    "global_id_lineage": {"type": "array", "items": STRING},
}


def post_archive(key: str, item: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            key: {"type": "array", "items": ref(item)},
            "rest_url": STRING,
            "next_rest_url": STRING,
            "previous_rest_url": STRING,
            "total": INTEGER,
            "total_pages": INTEGER,
        },
        "required": [key, "rest_url", "total", "total_pages"],
    }


def term_archive(key: str, item: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "rest_url": STRING,
            "total": INTEGER,
            "total_pages": INTEGER,
            key: {"type": "array", "items": ref(item)},
            "next_rest_url": STRING,
            "previous_rest_url": STRING,
        },
        "required": ["rest_url", "total", "total_pages", key],
    }


_ERROR = {
    "type": "object",
    "description": "Every error: a stable code, a message, and data with the HTTP status.",
    "properties": {
        "code": STRING,
        "message": STRING,
        "data": {
            "type": "object",
            "properties": {"status": INTEGER},
            "required": ["status"],
            "additionalProperties": True,
        },
    },
    "required": ["code", "message", "data"],
}

_INDEX_ROUTE = {
    "type": "object",
    "properties": {
        "namespace": STRING,
        "methods": {"type": "array", "items": STRING},
        "endpoints": {"type": "array", "items": {"type": "object", "additionalProperties": True}},
        "_links": {"type": "object", "additionalProperties": True},
    },
    "required": ["namespace", "methods", "endpoints"],
}

_INDEX = {
    "type": "object",
    "properties": {
        "namespace": STRING,
        "routes": {"type": "object", "additionalProperties": ref("RouteDescription")},
        "_links": {"type": "object", "additionalProperties": True},
    },
    "required": ["namespace", "routes"],
}

SHARED: dict[str, Any] = {
    "DateDetails": _DATE_DETAILS,
    "Image": _IMAGE,
    "Error": _ERROR,
    "RouteDescription": _INDEX_ROUTE,
    "Index": _INDEX,
    "OpenApiDocument": {"type": "object", "additionalProperties": True},
}
"""Components every document has; each collection brings its own (``Resource.components``)."""
