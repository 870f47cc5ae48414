"""``GET /events``: its parameters, its named conditions, and the statements that keep it fast
(exact totals from a per-day summary, pages read from the listing index, SQLite's search index).
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from eventcal.context import Call
from eventcal.domains.events import links, search
from eventcal.domains.events.dates import (
    DATE_FILTERS,
    RELATIVE_FILTERS,
    date_window,
    default_end,
    default_start,
    strict_dates,
)
from eventcal.domains.events.schema import ATTENDANCE_MODES, EVENT_STATUSES
from eventcal.domains.events.totals import EventListing, SearchOrder
from eventcal.errors import ApiError, InvalidParams, ParamError
from eventcal.http.args import Arg, Params, boolean, positive_int_list, some_of
from eventcal.http.request import RequestState
from eventcal.http.responses import Reply
from eventcal.http.router import Endpoint, Route
from eventcal.i18n import N_
from eventcal.permissions import Cap
from eventcal.resources import dates as date_service
from eventcal.resources import parsers, relations, service
from eventcal.resources.components import ref
from eventcal.resources.listing import Condition, ListQuery
from eventcal.resources.parsers import path_arg, path_id
from eventcal.resources.posts import fields as post_fields
from eventcal.resources.spec import Resource
from eventcal.storage.db import in_values
from eventcal.storage.queries import like_pattern
from eventcal.storage.tables import UtcDateTime, event, venue
from eventcal.timezones import to_utc

GEOFENCE_KM = 25.0
"""Radius around ``geoloc_lat``/``geoloc_lng`` (the calendar extension's default geofence)."""
KM_PER_DEGREE = 111.32

ARGS = (
    *parsers.page_args("events"),
    Arg(
        "start_date",
        "Events that start on the specified date",
        parsers.time_value,
        default=default_start,
    ),
    Arg(
        "end_date", "Events that end on the specified date", parsers.time_value, default=default_end
    ),
    Arg("starts_before", "Events that start before the specified date", parsers.time_value),
    Arg("starts_after", "Events that start after the specified date", parsers.time_value),
    Arg("ends_before", "Events that end before the specified date", parsers.time_value),
    Arg("ends_after", "Events that end after the specified date", parsers.time_value),
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
        parsers.search,
        type="string",
    ),
    Arg(
        "categories",
        "Events should be assigned one of the specified categories slugs or IDs",
        relations.filter_by("categories"),
        items={"type": "integer"},
    ),
    Arg(
        "tags",
        "Events should be assigned one of the specified tags slugs or IDs",
        relations.filter_by("tags"),
        items={"type": "integer"},
    ),
    Arg(
        "venue",
        "Events should be assigned one of the specified venue IDs",
        relations.filter_by("venues"),
        items={"type": "integer"},
    ),
    Arg(
        "organizer",
        "Events should be assigned one of the specified organizer IDs",
        relations.filter_by("organizers"),
        items={"type": "integer"},
    ),
    Arg(
        "featured",
        "Events should be filtered by their featured status",
        boolean("featured"),
        type="boolean",
    ),
    post_fields.status_arg("event"),
    Arg(
        "geoloc",
        "Events should be filtered by whether their venue has geolocation data",
        boolean("geoloc"),
        type="boolean",
    ),
    Arg(
        "geoloc_lat",
        "Events should be filtered by their venue latitude location, must also provide geoloc_lng",
        parsers.latitude,
        format="double",
    ),
    Arg(
        "geoloc_lng",
        "Events should be filtered by their venue longitude location, must also provide geoloc_lat",
        parsers.longitude,
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
        relations.existing_item("events"),
        type="integer",
    ),
    Arg("ticketed", "Filter events with or without tickets.", boolean("ticketed"), type="boolean"),
    Arg(
        "event_status",
        "Events with one of these statuses: " + ", ".join(EVENT_STATUSES),
        some_of("event_status", EVENT_STATUSES),
        items={"type": "string", "enum": list(EVENT_STATUSES)},
    ),
    Arg(
        "attendance_mode",
        "Events attended in one of these ways: " + ", ".join(ATTENDANCE_MODES),
        some_of("attendance_mode", ATTENDANCE_MODES),
        items={"type": "string", "enum": list(ATTENDANCE_MODES)},
    ),
    Arg(
        "collapse_recurring",
        "Show only the first occurrence of each recurring series in the listing (the "
        'original\'s "hide subsequent recurrences")',
        boolean("collapse_recurring"),
        type="boolean",
    ),
)


# --- conditions ----------------------------------------------------------------------------


def _compare(column: Any, op: str, name: str) -> Condition:
    bound = sa.bindparam(name, type_=UtcDateTime)
    comparisons = {
        ">=": column >= bound,
        "<=": column <= bound,
        "<": column < bound,
        ">": column > bound,
    }
    condition = comparisons[op]
    return lambda _: [condition]


def _equal(column: Any, name: str, type_: Any) -> Condition:
    condition = column == sa.bindparam(name, type_=type_)
    return lambda _: [condition]


def _geoloc(shape: tuple[bool | None, bool]) -> list[sa.ColumnElement[bool]]:
    """The venue has coordinates (or not), or lies within the geofence around a point."""
    wanted, near = shape
    located = sa.and_(venue.c.latitude.is_not(None), venue.c.longitude.is_not(None))
    if near:
        dy = venue.c.latitude - sa.bindparam("lat0", type_=sa.Float)
        dx = (venue.c.longitude - sa.bindparam("lng0", type_=sa.Float)) * sa.bindparam(
            "cos_lat", type_=sa.Float
        )
        located = sa.and_(
            located,
            venue.c.latitude.between(
                sa.bindparam("lat_min", type_=sa.Float), sa.bindparam("lat_max", type_=sa.Float)
            ),
            venue.c.longitude.between(
                sa.bindparam("lng_min", type_=sa.Float), sa.bindparam("lng_max", type_=sa.Float)
            ),
            dy * dy + dx * dx <= sa.bindparam("radius_deg2", type_=sa.Float),
        )
    has_location = sa.exists().where(venue.c.id == event.c.venue_id, located).correlate(event)
    return [has_location if (wanted is not False or near) else sa.not_(has_location)]


def _first_of_series(windowed: bool) -> list[sa.ColumnElement[bool]]:
    """Single events, and of each series only the occurrence no earlier one of the same status
    precedes (inside the window's start, when the listing has one)."""
    other = event.alias("sibling")
    earlier = sa.or_(
        other.c.start_at < event.c.start_at,
        sa.and_(other.c.start_at == event.c.start_at, other.c.id < event.c.id),
    )
    conditions = [
        other.c.series_id == event.c.series_id,
        other.c.status == event.c.status,
        other.c.hide_from_listings == sa.false(),
        earlier,
    ]
    if windowed:
        conditions.append(other.c.start_at >= sa.bindparam("start_min", type_=UtcDateTime))
    sibling = sa.exists().where(*conditions).correlate(event)
    return [sa.or_(event.c.series_id.is_(None), sa.not_(sibling))]


CONDITIONS: dict[str, Condition] = {
    **post_fields.visibility(event),
    "listed": lambda _: [event.c.hide_from_listings == sa.false()],
    "start_min": _compare(event.c.start_at, ">=", "start_min"),
    "end_max": _compare(event.c.end_at, "<=", "end_max"),
    "starts_before": _compare(event.c.start_at, "<", "starts_before"),
    "starts_after": _compare(event.c.start_at, ">", "starts_after"),
    "ends_before": _compare(event.c.end_at, "<", "ends_before"),
    "ends_after": _compare(event.c.end_at, ">", "ends_after"),
    "words": search.words_condition,
    "excluded": search.excluded_condition,
    "categories": lambda _: [relations.links_to_any(links.CATEGORIES, event, "category_ids")],
    "tags": lambda _: [relations.links_to_any(links.TAGS, event, "tag_ids")],
    "venue": lambda _: [relations.links_to_any(links.VENUE, event, "venue_ids")],
    "organizer": lambda _: [relations.links_to_any(links.ORGANIZERS, event, "organizer_ids")],
    "featured": _equal(event.c.featured, "featured", sa.Boolean),
    "include": lambda _: [in_values(event.c.id, "include")],
    "post_parent": _equal(event.c.parent_id, "parent_id", sa.Integer),
    "ticketed": _equal(event.c.ticketed, "ticketed", sa.Boolean),
    "geoloc": _geoloc,
    "event_status": lambda _: [in_values(event.c.event_status, "event_statuses", sa.String())],
    "series": lambda _: [event.c.series_id == sa.bindparam("series_id", type_=sa.Integer)],
    "collapse": _first_of_series,
    "attendance_mode": lambda _: [
        in_values(event.c.attendance_mode, "attendance_modes", sa.String())
    ],
}


# --- from parameters to the query ----------------------------------------------------------


def _flag(value: bool) -> str:
    return "1" if value else "0"


def _bounding_box(lat: float, lng: float, radius_km: float) -> dict[str, float]:
    """Parameters of the distance test: a box for the cheap part, then an equirectangular
    distance (accurate to well under 1% at geofence scales, and plain arithmetic in SQL)."""
    dlat = radius_km / KM_PER_DEGREE
    cos_lat = max(math.cos(math.radians(lat)), 1e-6)
    dlng = min(radius_km / (KM_PER_DEGREE * cos_lat), 180.0)
    return {
        "lat_min": lat - dlat,
        "lat_max": lat + dlat,
        "lng_min": lng - dlng,
        "lng_max": lng + dlng,
        "lat0": lat,
        "lng0": lng,
        "cos_lat": cos_lat,
        "radius_deg2": dlat * dlat,
    }


def _dates(call: Call, params: Params, query: ListQuery, strict: bool) -> list[tuple[str, str]]:
    """The date windows; returns their link parameters (strict mode carries the UTC form, so
    the links give the same listing)."""
    zone = call.site.zone
    sent = {name: params[name] for name in DATE_FILTERS if name in params}
    window = date_window(sent, strict, "include" in params, zone, call.now)

    def shown(value: datetime) -> str:
        return date_service.format_datetime(to_utc(value, zone) if strict else value)

    bounds = {"start_min": window.start_min, "end_max": window.end_max, **window.relative}
    link: list[tuple[str, str]] = []
    for name, value in bounds.items():
        if value is not None:
            # Window bounds are site-local times; events are compared by the instants they
            # occupy (an all-day event in New York is not inside a UTC site's day).
            query.on(name, **{name: to_utc(value, zone)})
            link.append(
                ({"start_min": "start_date", "end_max": "end_date"}.get(name, name), shown(value))
            )
    query.cacheable = all(date_service.is_absolute(sent[name]) for name in sent)
    return link


def _search(call: Call, params: Params, query: ListQuery) -> tuple[tuple[str, ...], bool]:
    """The search words; returns those SQLite's index can find, and whether it finds them all
    (every word has 3 characters or more)."""
    words, excluded = search.split_search(params["search"])
    translated = call.translating is not None and bool(words or excluded)
    protected = bool(words or excluded) and call.actor.can(Cap.EDIT_OTHERS)
    if translated:
        query.values["search_language"] = call.translating
    if words:
        patterns = {f"word{i}": like_pattern(w) for i, w in enumerate(words)}
        query.on("words", search.Words(len(words), translated, protected), **patterns)
    if excluded:
        patterns = {f"notword{i}": like_pattern(w) for i, w in enumerate(excluded)}
        query.on("excluded", search.Words(len(excluded), translated, protected), **patterns)
    if translated:
        return (), False
    indexed = tuple(search.indexed_words(words))
    return indexed, len(indexed) == len(words)


def _geolocation(params: Params, query: ListQuery) -> list[tuple[str, str]]:
    if ("geoloc_lat" in params) != ("geoloc_lng" in params):
        given = "geoloc_lat" if "geoloc_lat" in params else "geoloc_lng"
        other = "geoloc_lng" if given == "geoloc_lat" else "geoloc_lat"
        raise InvalidParams({given: ParamError("{param} requires {other}.", other=other)})
    near = "geoloc_lat" in params
    if "geoloc" in params or near:
        query.on("geoloc", (params.get("geoloc"), near))
    link = []
    if "geoloc" in params:
        link.append(("geoloc", _flag(params["geoloc"])))
    if near:
        lat, lng = params["geoloc_lat"], params["geoloc_lng"]
        query.values.update(_bounding_box(lat, lng, GEOFENCE_KM))
        link += [("geoloc_lat", repr(lat)), ("geoloc_lng", repr(lng))]
    return link


async def prepare(state: RequestState, params: Params, resource: Resource) -> ListQuery:
    """The listing's filters and their link parameters, in the original's URL order (every
    filter is carried, so ``next_rest_url`` gives the next page of the same listing:
    DEVIATIONS #9)."""
    call = state.call
    query = ListQuery(params["page"], params["per_page"], context_edit=state.context_edit)
    strict = bool(params.get("strict_dates")) if "strict_dates" in params else False
    query.on("listed")
    status_link = post_fields.restrict(call, query, params.get("status"))
    date_links = _dates(call, params, query, strict)
    link = [("page", str(query.page)), ("per_page", str(query.per_page))]
    link += [(n, v) for n, v in date_links if n in ("start_date", "end_date")]
    indexed: tuple[str, ...] = ()
    every_word = False
    if "search" in params:
        indexed, every_word = _search(call, params, query)
        link.append(("search", params["search"]))
    for name, key in (("categories", "category_ids"), ("tags", "tag_ids")):
        if name in params:
            query.on(name, **{key: params[name].ids})
            link.append((name, params[name].text))
    link.append(("status", status_link))
    if "post_parent" in params:
        query.on("post_parent", parent_id=params["post_parent"])
        link.append(("post_parent", str(params["post_parent"])))
    if "include" in params:
        query.on("include", include=params["include"])
        link.append(("include", ",".join(str(i) for i in params["include"])))
    link += [(n, v) for n, v in date_links if n in RELATIVE_FILTERS]
    if strict:
        link.append(("strict_dates", "true"))
    for name in ("ticketed",):
        if name in params:
            query.on(name, **{name: params[name]})
            link.append((name, _flag(params[name])))
    for name, key in (("venue", "venue_ids"), ("organizer", "organizer_ids")):
        if name in params:
            query.on(name, **{key: params[name].ids})
            link.append((name, params[name].text))
    if "featured" in params:
        query.on("featured", featured=params["featured"])
        link.append(("featured", _flag(params["featured"])))
    link += _geolocation(params, query)
    for name, key in (("event_status", "event_statuses"), ("attendance_mode", "attendance_modes")):
        if name in params:
            query.on(name, **{key: params[name]})
            link.append((name, ",".join(params[name])))
    if params.get("collapse_recurring"):
        query.on("collapse", "start_min" in query.active)
        link.append(("collapse_recurring", "1"))
    query.link = link
    if indexed and call.conn.dialect_name == "sqlite":
        plan = await search.index_plan(call.conn, list(indexed))
        query.values["search_match"] = plan.match
        # A common word: the page in listing order; the total from the index (totals.py).
        query.order = SearchOrder(page_index=not plan.common, exact=plan.exact and every_word)
    return query


LISTING = EventListing(
    table=event,
    args=ARGS,
    conditions=CONDITIONS,
    orders={"default": (event.c.start_at, event.c.id)},
    prepare=prepare,
)


# --- a series' occurrences -----------------------------------------------------------------

OCCURRENCE_ARGS = tuple(
    a for a in ARGS if a.name in ("page", "per_page", "start_date", "end_date", "status")
)


async def list_occurrences(state: RequestState, params: Params) -> Reply:
    """The occurrences of a recurring event (by its series' id or one occurrence's id) in a
    window, paged, in start order."""
    resource = state.call.registry["events"]
    row = await service.find(state, resource, path_id(state))
    series_id = row["id"] if row["recurrence"] else row["series_id"]
    if series_id is None:
        raise ApiError(
            "rest-event-not-recurring", N_("Event {id} does not repeat."), 400, id=row["id"]
        )
    master = row if row["recurrence"] else await service.find(state, resource, int(series_id))
    resource.behaviour.check_read(resource, state.actor, master, None, state.context_edit)

    def narrow(query: ListQuery) -> None:
        query.on("series", series_id=int(series_id))

    path = f"events/{series_id}/occurrences"
    return await service.list_page(state, resource, params, narrow=narrow, path=path)


def occurrence_routes(resource: Resource) -> list[Route]:
    return [
        Route(
            r"/events/(?P<id>\d+)/occurrences",
            (
                Endpoint(
                    ("GET",),
                    list_occurrences,
                    (path_arg("id", "the event post ID", "integer"), *OCCURRENCE_ARGS),
                    summary="The occurrences of a recurring event (by its series' id or one "
                    "occurrence's id) in a window (start_date, end_date), paged, in start order; "
                    "status filters them as in the events listing.",
                    responses={400: "Not a recurring event", 404: "No such event"},
                    response_schema=ref("EventArchive"),
                    tag=resource.collection,
                ),
            ),
            "/events/{id}/occurrences",
        )
    ]
