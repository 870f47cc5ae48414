"""The OpenAPI components of events (what the service really answers)."""

from __future__ import annotations

from typing import Any

from eventcal.resources.components import (
    BOOLEAN,
    EMPTY_LIST,
    FALSE,
    POST_PROPERTIES,
    STRING,
    nullable,
    ref,
)

EVENT_STATUSES = ("scheduled", "cancelled", "postponed", "rescheduled", "moved-online")
ATTENDANCE_MODES = ("offline", "online", "mixed")

COST_DETAILS = {
    "type": "object",
    "properties": {
        "currency_symbol": STRING,
        "currency_code": STRING,
        "currency_position": {"type": "string", "enum": ["prefix", "postfix", ""]},
        "values": {"type": "array", "items": STRING},
    },
    "required": ["currency_symbol", "currency_code", "currency_position", "values"],
}

PROPERTIES: dict[str, Any] = {
    **POST_PROPERTIES,
    "rest_url": STRING,
    "title": STRING,
    "image": {"oneOf": [ref("Image"), FALSE]},
    "all_day": nullable(BOOLEAN),
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
    "show_map": nullable(BOOLEAN),
    "show_map_link": nullable(BOOLEAN),
    "hide_from_listings": nullable(BOOLEAN),
    "sticky": nullable(BOOLEAN),
    "featured": nullable(BOOLEAN),
    "categories": {"type": "array", "items": ref("EmbeddedTerm")},
    "tags": {"type": "array", "items": ref("EmbeddedTerm")},
    "venue": {
        "description": "The venue, or an empty list when the event has none.",
        "oneOf": [ref("Venue"), EMPTY_LIST],
    },
    "organizer": {"type": "array", "items": ref("Organizer")},
    "custom_fields": {"oneOf": [{"type": "object", "additionalProperties": True}, EMPTY_LIST]},
    "event_status": {"type": "string", "enum": list(EVENT_STATUSES)},
    "status_reason": STRING,
    "attendance_mode": {"type": "string", "enum": list(ATTENDANCE_MODES)},
    "online_url": {
        "type": "string",
        "description": "Empty unless the event can be attended online (and for callers who may "
        "not see a protected event's content).",
    },
    "translations": {"type": "array", "items": STRING},
    "recurrence": {
        "type": "array",
        "items": STRING,
        "description": "The series' rule as RFC 5545 lines (RRULE, RDATE, EXDATE), normalised; "
        "the same on every occurrence of the series; [] for a single event.",
    },
    "recurrence_text": {
        "type": "string",
        "description": "The rule in a sentence in the request's language (\"Every 2 weeks on "
        'Tuesday and Thursday, 10 times"); empty for a single event.',
    },
    "series_id": nullable(
        {
            "type": "integer",
            "description": "The series' id (GET /events/{series_id} reads the series as its "
            "next occurrence); null for a single event.",
        }
    ),
    "occurrence_start": nullable(
        {
            "type": "string",
            "description": "The occurrence's original start in the event's zone (what the rule "
            "made it, also when it was moved alone); null for a single event.",
        }
    ),
}
REQUIRED = [k for k in PROPERTIES if k != "json_ld"]

COMPONENTS: dict[str, Any] = {
    "CostDetails": COST_DETAILS,
    "Event": {"type": "object", "properties": PROPERTIES, "required": REQUIRED},
    "EventWithJsonLd": {
        "type": "object",
        "description": "An event as a single read returns it: with schema.org JSON-LD when public.",
        "properties": {**PROPERTIES, "json_ld": {"type": "object", "additionalProperties": True}},
        "required": REQUIRED,
    },
}
