"""``GET /events``: its parameters, and how they become the listing's query (the named
conditions are in :mod:`.conditions`, the statements that keep it fast in :mod:`.totals`).
"""

from __future__ import annotations

from datetime import datetime

from eventcal.context import Call
from eventcal.domains.events import conditions, search
from eventcal.domains.events.dates import (
    DATE_FILTERS,
    RELATIVE_FILTERS,
    date_window,
    default_end,
    default_start,
    strict_dates,
)
from eventcal.domains.events.schema import ATTENDANCE_MODES, EVENT_STATUSES
from eventcal.domains.events.totals import INCLUDED, EventListing, SearchOrder
from eventcal.errors import InvalidParams, ParamError
from eventcal.http.args import Arg, Params, boolean, positive_int_list, some_of
from eventcal.http.request import RequestState
from eventcal.permissions import Cap
from eventcal.resources import dates as date_service
from eventcal.resources import parsers, references
from eventcal.resources.listing import ListQuery
from eventcal.resources.posts import fields as post_fields
from eventcal.resources.spec import Resource
from eventcal.storage.queries import like_pattern
from eventcal.storage.tables import event
from eventcal.timezones import to_utc

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
        references.filter_by("categories"),
        items={"type": "integer"},
    ),
    Arg(
        "tags",
        "Events should be assigned one of the specified tags slugs or IDs",
        references.filter_by("tags"),
        items={"type": "integer"},
    ),
    Arg(
        "venue",
        "Events should be assigned one of the specified venue IDs",
        references.filter_by("venues"),
        items={"type": "integer"},
    ),
    Arg(
        "organizer",
        "Events should be assigned one of the specified organizer IDs",
        references.filter_by("organizers"),
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
        references.existing_item("events"),
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

# --- from parameters to the query ----------------------------------------------------------


def _flag(value: bool) -> str:
    return "1" if value else "0"


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
        query.values.update(conditions.bounding_box(lat, lng, conditions.GEOFENCE_KM))
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
        query.on("featured", bool(params["featured"]))
        link.append(("featured", _flag(params["featured"])))
    link += _geolocation(params, query)
    for name, key in (("event_status", "event_statuses"), ("attendance_mode", "attendance_modes")):
        if name in params:
            shape = conditions.shape_of(name, params[name])
            query.on(name, shape, **{key: params[name]})
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
    elif "include" in params and call.conn.dialect_name == "sqlite":
        query.values["included"] = params["include"]
        query.order = INCLUDED
    return query


LISTING = EventListing(
    table=event,
    args=ARGS,
    conditions=conditions.CONDITIONS,
    orders={"default": (event.c.start_at, event.c.id)},
    prepare=prepare,
    text_conditions=("words", "excluded"),
)
