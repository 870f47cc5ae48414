"""OpenAPI component schemas of the response bodies, as the service really answers them.

The original's documentation route disagreed with its own responses (``author`` documented as an
integer but sent as a string, date details as integers but sent as strings…); these schemas
describe what clients actually receive, so the document can be used to validate responses.
"""

from __future__ import annotations

from typing import Any

OPENAPI_VERSION = "3.0.3"


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
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

_COST_DETAILS = {
    "type": "object",
    "properties": {
        "currency_symbol": STRING,
        "currency_code": STRING,
        "currency_position": {"type": "string", "enum": ["prefix", "postfix", ""]},
        "values": {"type": "array", "items": STRING},
    },
    "required": ["currency_symbol", "currency_code", "currency_position", "values"],
}

_TERM_URLS = {
    "type": "object",
    "properties": {"self": STRING, "collection": STRING, "up": STRING},
    "required": ["self", "collection"],
}

_EMBEDDED_TERM = {
    "type": "object",
    "description": "A category or tag as embedded in an event.",
    "properties": {
        "name": STRING,
        "slug": STRING,
        "term_group": INTEGER,
        "term_taxonomy_id": INTEGER,
        "taxonomy": {"type": "string", "enum": ["tribe_events_cat", "post_tag"]},
        "description": STRING,
        "parent": INTEGER,
        "count": INTEGER,
        "filter": STRING,
        "id": INTEGER,
        "urls": ref("TermUrls"),
    },
    "required": ["name", "slug", "taxonomy", "description", "parent", "count", "id", "urls"],
}

_POST_FIELDS: dict[str, Any] = {
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

_VENUE = {
    "type": "object",
    "description": "A venue; empty fields are left out (clients read a missing key as empty).",
    "properties": {
        **_POST_FIELDS,
        "venue": STRING,
        "image": {"oneOf": [ref("Image"), FALSE]},
        **dict.fromkeys(
            (
                "address",
                "city",
                "country",
                "province",
                "state",
                "zip",
                "phone",
                "website",
                "stateprovince",
            ),
            STRING,
        ),
        "geo_lat": {"type": "number"},
        "geo_lng": {"type": "number"},
        "json_ld": {"type": "object", "additionalProperties": True},
        "show_map": _nullable(BOOLEAN),
        "show_map_link": _nullable(BOOLEAN),
    },
    "required": ["id", "show_map", "show_map_link", "global_id", "global_id_lineage"],
}

_ORGANIZER = {
    "type": "object",
    "description": "An organizer; empty fields are left out.",
    "properties": {
        **_POST_FIELDS,
        "organizer": STRING,
        "image": {"oneOf": [ref("Image"), FALSE]},
        "phone": STRING,
        "website": STRING,
        "email": STRING,
        "json_ld": {"type": "object", "additionalProperties": True},
    },
    "required": ["id", "global_id", "global_id_lineage"],
}

_EVENT_PROPERTIES: dict[str, Any] = {
    **_POST_FIELDS,
    "rest_url": STRING,
    "title": STRING,
    "image": {"oneOf": [ref("Image"), FALSE]},
    "all_day": _nullable(BOOLEAN),
    "start_date": STRING,
    "start_date_details": ref("DateDetails"),
    "end_date": STRING,
    "end_date_details": ref("DateDetails"),
    "utc_start_date": STRING,
    "utc_start_date_details": ref("DateDetails"),
    "utc_end_date": STRING,
    "utc_end_date_details": ref("DateDetails"),
    "timezone": STRING,
    "timezone_abbr": STRING,
    "cost": STRING,
    "cost_details": ref("CostDetails"),
    "website": STRING,
    "show_map": _nullable(BOOLEAN),
    "show_map_link": _nullable(BOOLEAN),
    "hide_from_listings": _nullable(BOOLEAN),
    "sticky": _nullable(BOOLEAN),
    "featured": _nullable(BOOLEAN),
    "categories": {"type": "array", "items": ref("EmbeddedTerm")},
    "tags": {"type": "array", "items": ref("EmbeddedTerm")},
    "venue": {
        "description": "The venue, or an empty list when the event has none.",
        "oneOf": [ref("Venue"), EMPTY_LIST],
    },
    "organizer": {"type": "array", "items": ref("Organizer")},
    "custom_fields": {"oneOf": [{"type": "object", "additionalProperties": True}, EMPTY_LIST]},
}
_EVENT_REQUIRED = [k for k in _EVENT_PROPERTIES if k not in ("json_ld",)]

_EVENT = {
    "type": "object",
    "properties": _EVENT_PROPERTIES,
    "required": _EVENT_REQUIRED,
}

_EVENT_WITH_JSON_LD = {
    "type": "object",
    "description": "An event as a single read returns it: with schema.org JSON-LD when public.",
    "properties": {
        **_EVENT_PROPERTIES,
        "json_ld": {"type": "object", "additionalProperties": True},
    },
    "required": _EVENT_REQUIRED,
}


def _archive(key: str, item: str) -> dict[str, Any]:
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


_TERM_PROPERTIES: dict[str, Any] = {
    "id": INTEGER,
    "count": {"type": "integer", "description": "Published events with this term."},
    "description": STRING,
    "name": STRING,
    "slug": STRING,
    "taxonomy": STRING,
    "parent": INTEGER,
    "meta": {"type": "array", "items": {}},
    "url": STRING,
    "urls": ref("TermUrls"),
}
_TERM = {
    "type": "object",
    "description": "An event category.",
    "properties": _TERM_PROPERTIES,
    "required": list(_TERM_PROPERTIES),
}
_TAG = {
    "type": "object",
    "description": "An event tag (no parent).",
    "properties": {k: v for k, v in _TERM_PROPERTIES.items() if k != "parent"},
    "required": [k for k in _TERM_PROPERTIES if k != "parent"],
}


def _term_archive(key: str, item: str) -> dict[str, Any]:
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

COMPONENTS: dict[str, Any] = {
    "DateDetails": _DATE_DETAILS,
    "Image": _IMAGE,
    "CostDetails": _COST_DETAILS,
    "TermUrls": _TERM_URLS,
    "EmbeddedTerm": _EMBEDDED_TERM,
    "Venue": _VENUE,
    "Organizer": _ORGANIZER,
    "Event": _EVENT,
    "EventWithJsonLd": _EVENT_WITH_JSON_LD,
    "EventArchive": _archive("events", "Event"),
    "VenueArchive": _archive("venues", "Venue"),
    "OrganizerArchive": _archive("organizers", "Organizer"),
    "Term": _TERM,
    "Tag": _TAG,
    "TermArchive": _term_archive("categories", "Term"),
    "TagArchive": _term_archive("tags", "Tag"),
    "Error": _ERROR,
    "RouteDescription": _INDEX_ROUTE,
    "Index": _INDEX,
    "OpenApiDocument": {"type": "object", "additionalProperties": True},
}
