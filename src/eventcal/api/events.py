"""Routes of the events collection: ``/events``, ``/events/{id}``, ``/events/by-slug/{slug}``."""

from __future__ import annotations

from typing import Any

from eventcal.api import common
from eventcal.api import organizers as organizer_routes
from eventcal.api import venues as venue_routes
from eventcal.api.pagination import archive_reply
from eventcal.errors import InvalidParams, NotFound, ParamError, invalid
from eventcal.http.args import (
    MAX_TERMS,
    Arg,
    Invalid,
    Params,
    boolean,
    check_count,
    non_empty_string,
    positive_int,
    positive_int_list,
    string,
    truthy,
)
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.http.router import Endpoint, Route
from eventcal.permissions import Actor, Cap
from eventcal.schemas.openapi import ref
from eventcal.services import dates as date_service
from eventcal.services import events as event_service
from eventcal.services import posts
from eventcal.services import terms as term_service
from eventcal.storage import queries as q
from eventcal.storage.tables import CATEGORY_TAXONOMY, TAG_TAXONOMY

EVENT = ref("Event")


def can_write(actor: Actor) -> bool:
    return actor.can(Cap.EDIT_POSTS)


def can_delete(actor: Actor) -> bool:
    return actor.can(Cap.DELETE_POSTS)


# --- archive parameters ----------------------------------------------------------------------


def strict_dates(value: Any, state: RequestState) -> bool:
    if isinstance(value, bool):
        return value
    if not isinstance(value, str) or value == "":
        raise Invalid()
    return truthy(value)


class TermFilter:
    """Parsed ``categories``/``tags`` filter: term ids and the value as the links carry it."""

    __slots__ = ("ids", "text")

    def __init__(self, ids: list[int], text: str) -> None:
        self.ids = ids
        self.text = text


def term_filter(taxonomy: str) -> Any:
    async def parse(value: Any, state: RequestState) -> TermFilter:
        values = term_service.split_term_values(value)
        if not values:
            raise Invalid()
        check_count(values, MAX_TERMS)
        ids = await term_service.resolve_filter_terms(
            state.conn, taxonomy, values, state.call.translating
        )
        if ids is None:
            raise Invalid()
        return TermFilter(ids, ",".join(v.text for v in values))

    return parse


def existing_ids(stmt: Any) -> Any:
    async def parse(value: Any, state: RequestState) -> list[int]:
        ids = positive_int_list(value, state)
        if len(await q.existing_ids(state.conn, stmt, ids)) != len(ids):
            raise Invalid()
        return ids

    return parse


def default_start(state: RequestState) -> str:
    start, _ = date_service.default_archive_window(state.now, state.site.zone)
    return date_service.format_datetime(start)


def default_end(state: RequestState) -> str:
    _, end = date_service.default_archive_window(state.now, state.site.zone)
    return date_service.format_datetime(end)


ARCHIVE_ARGS = (
    Arg("page", "The archive page to return", positive_int, type="integer", default=1),
    Arg(
        "per_page",
        "The number of events to return on each page",
        common.per_page,
        type="integer",
        default=lambda state: state.site.posts_per_page,
    ),
    Arg(
        "start_date",
        "Events that start on the specified date",
        common.time_value,
        default=default_start,
    ),
    Arg(
        "end_date", "Events that end on the specified date", common.time_value, default=default_end
    ),
    Arg("starts_before", "Events that start before the specified date", common.time_value),
    Arg("starts_after", "Events that start after the specified date", common.time_value),
    Arg("ends_before", "Events that end before the specified date", common.time_value),
    Arg("ends_after", "Events that end after the specified date", common.time_value),
    Arg(
        "strict_dates",
        "Dates set using the start_date/end_date, starts_*/ends_* are set to start at the "
        "specified times. The default behavior is to include the entire days.",
        strict_dates,
        default="false",
    ),
    Arg(
        "search",
        "Events should contain the specified string in the title or description",
        common.search,
        type="string",
    ),
    Arg(
        "categories",
        "Events should be assigned one of the specified categories slugs or IDs",
        term_filter(CATEGORY_TAXONOMY),
        items={"type": "integer"},
    ),
    Arg(
        "tags",
        "Events should be assigned one of the specified tags slugs or IDs",
        term_filter(TAG_TAXONOMY),
        items={"type": "integer"},
    ),
    Arg(
        "venue",
        "Events should be assigned one of the specified venue IDs",
        existing_ids(q.EXISTING_VENUE_IDS),
        items={"type": "integer"},
    ),
    Arg(
        "organizer",
        "Events should be assigned one of the specified organizer IDs",
        existing_ids(q.EXISTING_ORGANIZER_IDS),
        items={"type": "integer"},
    ),
    Arg(
        "featured",
        "Events should be filtered by their featured status",
        boolean("featured"),
        type="boolean",
    ),
    Arg("status", "The event post status", common.status_list, format="string"),
    Arg(
        "geoloc",
        "Events should be filtered by whether their venue has geolocation data",
        boolean("geoloc"),
        type="boolean",
    ),
    Arg(
        "geoloc_lat",
        "Events should be filtered by their venue latitude location, must also provide geoloc_lng",
        common.latitude,
        format="double",
    ),
    Arg(
        "geoloc_lng",
        "Events should be filtered by their venue longitude location, must also provide geoloc_lat",
        common.longitude,
        format="double",
    ),
    Arg(
        "include",
        "Include events with one of the post IDs specified in the array of CSV list, date "
        "filters will be ignored.",
        positive_int_list,
        items={"type": "integer"},
    ),
    Arg(
        "post_parent",
        "Events should be filtered by their post_parent being the specified one.",
        common.existing_event,
        type="integer",
    ),
    Arg("ticketed", "Filter events with or without tickets.", boolean("ticketed"), type="boolean"),
)


async def list_events(state: RequestState, params: Params) -> Reply:
    """List events: the default window is from yesterday to two years ahead."""
    if ("geoloc_lat" in params) != ("geoloc_lng" in params):
        missing = "geoloc_lng" if "geoloc_lat" in params else "geoloc_lat"
        given = "geoloc_lat" if missing == "geoloc_lng" else "geoloc_lng"
        raise_invalid(given, "{param} requires {other}.", param=given, other=missing)
    categories = params.get("categories") if "categories" in params else None
    tags = params.get("tags") if "tags" in params else None
    query = event_service.EventListQuery(
        page=params["page"],
        per_page=params["per_page"],
        start_date=params.get("start_date") if "start_date" in params else None,
        end_date=params.get("end_date") if "end_date" in params else None,
        starts_before=params.get("starts_before"),
        starts_after=params.get("starts_after"),
        ends_before=params.get("ends_before"),
        ends_after=params.get("ends_after"),
        strict=bool(params.get("strict_dates")) if "strict_dates" in params else False,
        search=params.get("search"),
        category_ids=categories.ids if categories else None,
        category_values=categories.text if categories else None,
        tag_ids=tags.ids if tags else None,
        tag_values=tags.text if tags else None,
        venue_ids=params.get("venue"),
        organizer_ids=params.get("organizer"),
        featured=params.get("featured"),
        statuses=params.get("status"),
        include=params.get("include"),
        post_parent=params.get("post_parent"),
        geoloc=params.get("geoloc"),
        geoloc_lat=params.get("geoloc_lat"),
        geoloc_lng=params.get("geoloc_lng"),
        ticketed=params.get("ticketed"),
        context_edit=state.context_edit,
    )
    page = await event_service.list_events(state.call, query)
    reply = archive_reply(page, "events", state)
    # A relative date ("now", "+1 week") moves with the clock; the default window moves daily.
    reply.cacheable = all(
        date_service.is_absolute(params[name]) for name in DATE_FILTERS if name in params
    )
    return reply


DATE_FILTERS = (
    "start_date",
    "end_date",
    "starts_before",
    "starts_after",
    "ends_before",
    "ends_after",
)


def raise_invalid(name: str, message: str, **args: Any) -> None:
    raise InvalidParams({name: ParamError(message, **args)})


# --- write parameters ------------------------------------------------------------------------


def write_args(*, create: bool) -> tuple[Arg, ...]:
    """The event fields (spec events §4.1); on update nothing is required."""
    loc = "body"
    return (
        Arg("author", "The event author ID", common.user_id, type="integer", location=loc),
        Arg("date", "The event publication date", common.site_time, type="string", location=loc),
        Arg(
            "date_utc",
            "The event publication date (UTC time zone)",
            common.utc_time,
            type="string",
            location=loc,
        ),
        Arg(
            "title",
            "The event title",
            common.translatable(non_empty_string("title", max_length=1000), create=create),
            type="string",
            required=create,
            location=loc,
        ),
        Arg(
            "description",
            "The event description",
            string("description"),
            type="string",
            location=loc,
        ),
        Arg(
            "slug",
            "The event slug",
            common.translatable(non_empty_string("slug", max_length=200), create=create),
            type="string",
            location=loc,
        ),
        Arg("excerpt", "The event excerpt", string("excerpt"), type="string", location=loc),
        Arg(
            "status",
            "The event post status",
            common.post_status,
            type="string",
            location=loc,
            enum=common.POST_STATUSES,
        ),
        Arg(
            "timezone", "The event time zone", common.timezone_or_empty, type="string", location=loc
        ),
        Arg(
            "all_day",
            "Whether the event lasts the whole day or not",
            boolean("all_day"),
            type="boolean",
            default=False,
            location=loc,
        ),
        Arg(
            "start_date",
            "The event start date and time",
            common.time_value,
            type="string",
            required=create,
            location=loc,
        ),
        Arg(
            "end_date",
            "The event end date and time",
            common.time_value,
            type="string",
            required=create,
            location=loc,
        ),
        Arg(
            "image", "The event featured image ID or URL", common.image, type="string", location=loc
        ),
        Arg("cost", "The event cost", common.cost, location=loc),
        Arg("website", "The event website URL", common.url_or_empty, default=None, location=loc),
        Arg(
            "show_map",
            "Whether the event should show a map or not",
            boolean("show_map"),
            type="boolean",
            location=loc,
        ),
        Arg(
            "show_map_link",
            "Whether the event should show a map link or not",
            boolean("show_map_link"),
            type="boolean",
            location=loc,
        ),
        Arg(
            "hide_from_listings",
            "Whether events should be hidden in the calendar view or not",
            boolean("hide_from_listings"),
            type="boolean",
            location=loc,
        ),
        Arg(
            "sticky",
            "Whether the event should be sticky in the calendar view or not",
            boolean("sticky"),
            type="boolean",
            location=loc,
        ),
        Arg(
            "featured",
            "Whether the event should be featured on the site or not",
            boolean("featured"),
            type="boolean",
            location=loc,
        ),
        Arg(
            "categories",
            "The event category ID or name",
            common.term_values,
            items={"type": "integer"},
            default=None,
            location=loc,
        ),
        Arg(
            "tags",
            "The event tag ID or name",
            common.term_values,
            items={"type": "integer"},
            default=None,
            location=loc,
        ),
        Arg(
            "venue",
            "The event venue IDs or data",
            common.linked("venue", allow_csv=False, inline_args=venue_routes.CREATE_ARGS),
            items={"type": "integer"},
            default=None,
            location=loc,
        ),
        Arg(
            "organizer",
            "The event organizer IDs or data",
            common.linked("organizer", allow_csv=True, inline_args=organizer_routes.CREATE_ARGS),
            items={"type": "integer"},
            default=None,
            location=loc,
        ),
        Arg(
            "ticketed",
            "Whether the event sells tickets (used by the ticketed filter)",
            boolean("ticketed"),
            type="boolean",
            location=loc,
        ),
        Arg(
            "post_password",
            "A password that protects the event's content (never returned; empty removes it)",
            string("post_password", max_length=255),
            type="string",
            location=loc,
        ),
    )


WRITE_FIELDS = tuple(a.name for a in write_args(create=True))


def event_input(params: Params) -> event_service.EventInput:
    """The fields the client sent (defaults are not values that were sent)."""
    data: dict[str, Any] = {name: params[name] for name in WRITE_FIELDS if name in params}
    return data  # type: ignore[return-value]


async def create_event(state: RequestState, params: Params) -> Reply:
    """Create an event (contributors and up; a contributor's event waits for review)."""
    if not can_write(state.actor):
        raise common.forbidden(state.actor)
    body = await event_service.create_event(state.call, event_input(params))
    reply = await _written(state, int(body["id"]), body)
    reply.status = 201
    return reply


# --- single event ----------------------------------------------------------------------------

ID_ARG = common.path_arg("id", "the event post ID", "integer")
PASSWORD_ARG = Arg("password", "The event password", common.password, type="string")


def _id(state: RequestState) -> int:
    return common.path_id(state)


async def get_event(state: RequestState, params: Params) -> Reply:
    """Read one event; drafts, private and password-protected events need the right caller."""
    row = await event_service.require_event(state.conn, _id(state))
    body = await event_service.read_event(
        state.call, row, password=params.get("password"), context_edit=state.context_edit
    )
    return Reply(body, revision=int(row["revision"]))


async def _written(state: RequestState, event_id: int, body: Any) -> Reply:
    """The reply to a write of one event: its body, tagged with its new revision."""
    return Reply(body, revision=await posts.revision(state.conn, event_service.KIND, event_id))


async def _editable(state: RequestState, event_id: int, *, for_delete: bool) -> Any:
    actor = state.actor
    row = await event_service.find_event(state.conn, event_id, lock=True)
    if row is None:
        if not (can_delete(actor) if for_delete else can_write(actor)):
            raise common.forbidden(actor)
        row = await event_service.require_event(state.conn, event_id)
    allowed = posts.may_delete(actor, row) if for_delete else posts.may_edit(actor, row)
    if not allowed:
        raise common.forbidden(actor)
    common.require_unchanged(state, row)
    return row


async def update_event(state: RequestState, params: Params) -> Reply:
    """Update an event: only the fields sent change (POST, PUT and PATCH are the same)."""
    row = await _editable(state, _id(state), for_delete=False)
    body = await event_service.update_event(state.call, row, event_input(params))
    return await _written(state, int(row["id"]), body)


async def delete_event(state: RequestState, params: Params) -> Reply:
    """Move an event to the trash (410 if it is already there)."""
    row = await _editable(state, _id(state), for_delete=True)
    body = await event_service.trash_event(state.call, row)
    return await _written(state, int(row["id"]), body)


# --- by slug ---------------------------------------------------------------------------------


async def _path_slug_id(state: RequestState) -> int:
    event_id = await event_service.event_id_by_slug(state.call, state.path_params["slug"])
    if event_id is None:
        raise invalid("slug")
    return event_id


async def get_event_by_slug(state: RequestState, params: Params) -> Reply:
    """Read one event by its slug."""
    row = await event_service.require_event(state.conn, await _path_slug_id(state))
    body = await event_service.read_event(
        state.call, row, password=params.get("password"), context_edit=state.context_edit
    )
    return Reply(body, revision=int(row["revision"]))


async def update_event_by_slug(state: RequestState, params: Params) -> Reply:
    """Update an event found by slug; a ``slug`` in the body renames it (DEVIATIONS #3)."""
    event_id = await event_service.event_id_by_slug(state.call, state.path_params["slug"])
    if event_id is None:
        if not can_write(state.actor):
            raise common.forbidden(state.actor)
        raise NotFound("rest-event-not-found", "Event with ID {id} does not exist.", id=0)
    row = await _editable(state, event_id, for_delete=False)
    body = await event_service.update_event(state.call, row, event_input(params))
    return await _written(state, event_id, body)


async def delete_event_by_slug(state: RequestState, params: Params) -> Reply:
    """Trash an event found by slug (same permission checks as by id: DEVIATIONS #2)."""
    event_id = await _path_slug_id(state)
    row = await _editable(state, event_id, for_delete=True)
    body = await event_service.trash_event(state.call, row)
    return await _written(state, event_id, body)


def routes() -> list[Route]:
    read_errors = {400: "Bad parameters", 403: "Not accessible", 404: "No such event"}
    write_errors = {
        400: "Bad parameters",
        401: "Not authenticated",
        403: "Not allowed",
        404: "No such event",
    }
    update_args = write_args(create=False)
    slug_path = common.path_arg("slug", "the event post name", "string")
    return [
        Route(
            "/events",
            (
                Endpoint(
                    ("GET",),
                    list_events,
                    ARCHIVE_ARGS,
                    summary=list_events.__doc__ or "",
                    responses={400: "Bad parameters", 404: "Page past the end"},
                    response_schema=ref("EventArchive"),
                ),
                Endpoint(
                    ("POST",),
                    create_event,
                    write_args(create=True),
                    allowed=can_write,
                    summary=create_event.__doc__ or "",
                    responses={400: "Bad parameters", 401: "Not authenticated", 403: "Not allowed"},
                    response_schema=EVENT,
                    success_status=201,
                    writes=True,
                ),
            ),
            "/events",
        ),
        Route(
            r"/events/(?P<id>\d+)",
            (
                Endpoint(
                    ("GET",),
                    get_event,
                    (ID_ARG, PASSWORD_ARG),
                    summary=get_event.__doc__ or "",
                    responses=read_errors,
                    response_schema=ref("EventWithJsonLd"),
                ),
                Endpoint(
                    ("DELETE",),
                    delete_event,
                    (ID_ARG, PASSWORD_ARG),
                    allowed=can_delete,
                    summary=delete_event.__doc__ or "",
                    responses={**write_errors, 410: "Already in the trash"},
                    response_schema=EVENT,
                    writes=True,
                ),
                Endpoint(
                    ("POST", "PUT", "PATCH"),
                    update_event,
                    (ID_ARG, PASSWORD_ARG, *update_args),
                    allowed=can_write,
                    summary=update_event.__doc__ or "",
                    responses=write_errors,
                    response_schema=EVENT,
                    writes=True,
                ),
            ),
            "/events/{id}",
        ),
        Route(
            r"/events/by-slug/(?P<slug>[^/]+)",
            (
                Endpoint(
                    ("GET",),
                    get_event_by_slug,
                    (slug_path, PASSWORD_ARG),
                    summary=get_event_by_slug.__doc__ or "",
                    responses=read_errors,
                    response_schema=ref("EventWithJsonLd"),
                ),
                Endpoint(
                    ("DELETE",),
                    delete_event_by_slug,
                    (slug_path,),
                    allowed=can_delete,
                    summary=delete_event_by_slug.__doc__ or "",
                    responses={**write_errors, 410: "Already in the trash"},
                    response_schema=EVENT,
                    writes=True,
                ),
                Endpoint(
                    ("POST", "PUT", "PATCH"),
                    update_event_by_slug,
                    update_args,
                    allowed=can_write,
                    summary=update_event_by_slug.__doc__ or "",
                    responses=write_errors,
                    response_schema=EVENT,
                    writes=True,
                ),
            ),
            "/events/by-slug/{slug}",
        ),
    ]
