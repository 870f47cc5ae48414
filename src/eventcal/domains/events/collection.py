"""The events collection (spec events.md): its fields, relations, listing and messages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eventcal.context import Call
from eventcal.domains.events import ical, links, listing, occurrences, present, series
from eventcal.domains.events.cost import normalise_cost_input, store_cost
from eventcal.domains.events.dates import date_columns, timezone_or_empty
from eventcal.domains.events.schema import ATTENDANCE_MODES, COMPONENTS, EVENT_STATUSES
from eventcal.domains.events.scopes import SCOPE_ARG, SeriesHooks
from eventcal.http.args import Invalid, boolean, non_empty_string, one_of
from eventcal.http.request import RequestState
from eventcal.i18n import N_
from eventcal.resources import parsers
from eventcal.resources.components import post_archive
from eventcal.resources.posts import Posts
from eventcal.resources.posts import fields as post
from eventcal.resources.references import references
from eventcal.resources.spec import Field, Messages, Resource
from eventcal.storage.db import Row
from eventcal.storage.tables import event


def cost(value: Any, state: RequestState) -> list[str]:
    values = normalise_cost_input(value)
    if values is None:
        raise Invalid()
    return values


def _cost_columns(values: list[str]) -> dict[str, Any]:
    stored = store_cost(values)
    return {
        "cost": stored.to_column(),
        "currency_symbol": stored.currency_symbol,
        "currency_position": stored.currency_position,
    }


TERM_REFERENCES = {
    "oneOf": [
        {"type": "integer", "description": "a term id"},
        {"type": "string", "description": "a term slug or name (a new name creates the term)"},
        {"type": "array", "items": {"oneOf": [{"type": "integer"}, {"type": "string"}]}},
    ]
}
"""What ``categories`` and ``tags`` take on a write (``[]`` or ``""`` unlinks them all)."""


def post_references(kind: str) -> dict[str, Any]:
    """What ``venue`` and ``organizer`` take on a write: ids, or inline items (created, or
    matched to an identical one) with the fields of a ``POST /{kind}s``."""
    inline = {
        "type": "object",
        "description": f'an inline {kind}: its fields, or {{"id": N}}',
        "additionalProperties": True,
    }
    one = [{"type": "integer"}, {"type": "string", "description": f"a {kind} id"}, inline]
    return {"oneOf": [*one, {"type": "array", "items": {"oneOf": one}}]}


def _flag(name: str, description: str) -> Field:
    return Field(name, description, boolean(name), column=name, store=bool, type="boolean")


def _text(name: str, description: str) -> Field:
    return Field(
        name, description, parsers.long_string(name), column=name, translated=True, type="string"
    )


FIELDS = (
    post.author("event"),
    post.date("event"),
    post.date_utc("event"),
    Field(
        "title",
        "The event title",
        non_empty_string("title", max_length=1000),
        column="title",
        translated=True,
        required=True,
        type="string",
    ),
    _text("description", "The event description"),
    Field(
        "slug",
        "The event slug",
        non_empty_string("slug", max_length=200),
        column="slug",
        translated=True,
        type="string",
    ),
    _text("excerpt", "The event excerpt"),
    post.status("event"),
    Field("timezone", "The event time zone", timezone_or_empty, type="string"),
    Field(
        "all_day",
        "Whether the event lasts the whole day or not",
        boolean("all_day"),
        type="boolean",
        default=False,
    ),
    Field(
        "start_date",
        "The event start date and time",
        parsers.time_value,
        required=True,
        type="string",
    ),
    Field(
        "end_date", "The event end date and time", parsers.time_value, required=True, type="string"
    ),
    post.featured_image("event"),
    Field("cost", "The event cost", cost, columns=_cost_columns),
    Field("website", "The event website URL", parsers.url_or_empty, column="website", default=None),
    _flag("show_map", "Whether the event should show a map or not"),
    _flag("show_map_link", "Whether the event should show a map link or not"),
    _flag("hide_from_listings", "Whether events should be hidden in the calendar view or not"),
    _flag("sticky", "Whether the event should be sticky in the calendar view or not"),
    _flag("featured", "Whether the event should be featured on the site or not"),
    *(
        Field(
            relation.name,
            description,
            references(relation.target, allow_csv=allow_csv),
            items={"type": "integer"},
            default=None,
            schema=schema,
        )
        for relation, description, allow_csv, schema in (
            (links.CATEGORIES, "The event category ID or name", False, TERM_REFERENCES),
            (links.TAGS, "The event tag ID or name", False, TERM_REFERENCES),
            (links.VENUE, "The event venue IDs or data", False, post_references("venue")),
            (
                links.ORGANIZERS,
                "The event organizer IDs or data",
                True,
                post_references("organizer"),
            ),
        )
    ),
    _flag("ticketed", "Whether the event sells tickets (used by the ticketed filter)"),
    post.password("event"),
    Field(
        "event_status",
        "Whether the event takes place as planned: " + ", ".join(EVENT_STATUSES),
        one_of("event_status", EVENT_STATUSES),
        column="event_status",
        type="string",
        enum=EVENT_STATUSES,
    ),
    Field(
        "status_reason",
        "Why the event is cancelled, postponed, rescheduled or moved online",
        parsers.text("status_reason", max_length=1000),
        column="status_reason",
        translated=True,
        type="string",
    ),
    Field(
        "attendance_mode",
        "How people attend: " + ", ".join(ATTENDANCE_MODES),
        one_of("attendance_mode", ATTENDANCE_MODES),
        column="attendance_mode",
        type="string",
        enum=ATTENDANCE_MODES,
    ),
    Field(
        "online_url",
        "Where to attend an online or mixed event",
        parsers.url_or_empty,
        column="online_url",
        type="string",
    ),
    Field(
        "recurrence",
        "The event repeats: RFC 5545 lines, as Google Calendar's API takes them (a list of "
        "strings, or one string of lines): one RRULE (FREQ=DAILY, WEEKLY, MONTHLY or YEARLY; "
        "INTERVAL, COUNT or UNTIL, BYDAY with ordinals such as -1FR, BYMONTHDAY, BYMONTH, "
        "BYSETPOS, WKST), RDATE and EXDATE lines (dates or date-times, with or without TZID). "
        "The event's dates are the first occurrence; each occurrence keeps its wall-clock time "
        "in the event's timezone. [] or null: a single event",
        series.lines,
        type="array",
        items={"type": "string"},
        nullable=True,
        schema={
            "oneOf": [{"type": "array", "items": {"type": "string"}}, {"type": "string"}],
            "nullable": True,
        },
    ),
)


async def derive(call: Call, sent: Mapping[str, Any], current: Row | None) -> dict[str, Any]:
    """The dates, and for a series its rule (read with those dates) and listing."""
    dates = await date_columns(call, sent, current)
    return {**dates, **series.columns(call, sent, current, dates)}


NEUTRAL_COLUMNS = frozenset(
    {
        *("title", "excerpt", "description"),  # read only by a search (search.SEARCH_FIELDS)
        *("modified_at", "image_id", "image_url", "cost", "currency_symbol"),
        *("currency_position", "website", "show_map", "show_map_link", "sticky"),
        *("status_reason", "online_url"),
    }
)
"""Columns no listing condition reads but a search: an update of only these is a ``text``
change, which leaves the totals of the listings that do not search alone (status, dates,
visibility, links, series columns and the password are not here: any change of them counts)."""


EVENTS = Resource(
    name="event",
    collection="events",
    label="event",
    table=event,
    fields=FIELDS,
    behaviour=Posts(drafts_get_slugs=False, password_on_writes=True, wp_type=present.WP_TYPE),
    force_delete=True,
    present=present.event_json,
    schema="Event",
    read_schema="EventWithJsonLd",
    listing=listing.LISTING,
    relations=links.RELATIONS,
    messages=Messages(
        not_found=N_("Event with ID {id} does not exist."),
        other_kind=N_("The specified ID is not a valid event."),
        not_accessible=N_("The requested event is not accessible"),
        trashed=N_("This event is no longer available"),
        password_required=N_("The requested event is not accessible without a password"),
        no_archive_page=N_("The requested event archive page does not exist"),
        not_created=N_("The event could not be created"),
        not_updated=N_("The event could not be updated"),
        already_trashed=N_("The event is already trashed"),
    ),
    derive=derive,
    hooks=SeriesHooks(),
    item_args=(SCOPE_ARG,),
    counts=series.counts,
    also_load=present.series_rows,
    shown_with=present.series_dependencies,
    more_routes=occurrences.occurrence_routes,
    upkeep=series.extend,
    image_column="image_id",
    neutral_columns=NEUTRAL_COLUMNS,
    refers=(post.image_relation(event),),
    components={**COMPONENTS, "EventArchive": post_archive("events", "Event")},
    formats=(ical.ICS,),
    summaries={
        "list": "List events: the default window is from yesterday to two years ahead.",
        "create": "Create an event (contributors and up; a contributor's event waits for review).",
        "read": "Read one event; drafts, private and password-protected events need the right "
        "caller.",
        "update": "Update an event: only the fields sent change (POST, PUT and PATCH are the "
        "same).",
        "delete": "Move an event to the trash (410 if it is already there).",
        "read_by_slug": "Read one event by its slug.",
        "update_by_slug": "Update an event found by slug; a ``slug`` in the body renames it "
        "(DEVIATIONS #3).",
        "delete_by_slug": "Trash an event found by slug (same permission checks as by id: "
        "DEVIATIONS #2).",
    },
)
