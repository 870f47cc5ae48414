"""Events: listing, reading, creating, updating and trashing (spec events.md).

Writes change only the fields they were sent (DEVIATIONS #1). Every write runs inside the
request's transaction; a failure anywhere leaves nothing behind.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any, TypedDict

import sqlalchemy as sa

from eventcal.errors import ApiError, Forbidden, Gone, InvalidParams, NotFound, ParamError, invalid
from eventcal.services import dates as date_service
from eventcal.services import linked as linked_service
from eventcal.services import terms as term_service
from eventcal.services.context import Call
from eventcal.services.cost import store_cost
from eventcal.services.dates import end_of_day, start_of_day
from eventcal.services.media import ImageRef
from eventcal.services.pagination import Page
from eventcal.services.permissions import (
    Actor,
    Cap,
    ItemState,
    can_delete,
    can_edit,
    can_read,
    publish_status,
    sees_all_statuses,
)
from eventcal.services.representation import (
    CATEGORY_TAXONOMY,
    TAG_TAXONOMY,
    Related,
    event_json,
)
from eventcal.services.slugs import numbered, sanitize_slug, trashed, untrashed
from eventcal.storage import queries as q
from eventcal.storage.db import Connection, Row, UniqueViolation, as_local, as_utc
from eventcal.storage.tables import LIVE_STATUSES, event
from eventcal.timezones import canonical_timezone_name, resolve_timezone, to_local, to_utc

WRITABLE_STATUSES = ("publish", "future", "draft", "pending", "private", "trash")
LISTABLE_STATUSES = ("publish", "future", "draft", "pending", "private", "trash")
DEFAULT_VISIBLE_STATUSES = ("publish", "future", "draft", "pending", "private")
FUTURE_GRACE = timedelta(minutes=1)


# --- loading and presenting -----------------------------------------------------------------


async def load_related(conn: Connection, rows: Sequence[Row]) -> Related:
    """Venues, organizers, terms and images of a page of events: one query per relation."""
    related = Related()
    if not rows:
        return related
    event_ids = [int(r["id"]) for r in rows]
    venue_ids = sorted({int(r["venue_id"]) for r in rows if r["venue_id"]})
    if venue_ids:
        related.venues = {
            int(v["id"]): v for v in await conn.all(q.VENUES_BY_IDS, {"ids": venue_ids})
        }
    for row in await conn.all(q.ORGANIZERS_OF_EVENTS, {"ids": event_ids}):
        related.organizers.setdefault(int(row["event_id"]), []).append(row)
    for row in await conn.all(q.TERMS_OF_EVENTS, {"ids": event_ids}):
        related.terms.setdefault(int(row["event_id"]), []).append(row)
    media_ids = {int(r["image_id"]) for r in rows if r["image_id"]}
    media_ids.update(int(v["image_id"]) for v in related.venues.values() if v["image_id"])
    for organizers in related.organizers.values():
        media_ids.update(int(o["image_id"]) for o in organizers if o["image_id"])
    if media_ids:
        related.media = {
            int(m["id"]): m for m in await conn.all(q.MEDIA_BY_IDS, {"ids": sorted(media_ids)})
        }
    return related


def _state(row: Row) -> ItemState:
    return ItemState(row["author_id"], row["status"], row["status_before_trash"])


def password_access(actor: Actor, row: Row, password: str | None, context_edit: bool) -> bool:
    """Spec README §6.4: no password, or ``context=edit`` with edit rights, or the right one."""
    stored = row["post_password"]
    if not stored:
        return True
    if context_edit and can_edit(actor, _state(row)):
        return True
    return password is not None and hmac.compare_digest(password.encode(), stored.encode())


async def present(
    call: Call, row: Row, *, single: bool = False, protected: bool = False
) -> dict[str, Any]:
    related = await load_related(call.conn, [row])
    return event_json(row, related, call.urls, call.site, single=single, protected=protected)


# --- reading ---------------------------------------------------------------------------------


async def find_event(conn: Connection, event_id: int) -> Row | None:
    if event_id <= 0 or event_id > 2**31 - 1:
        return None
    return await conn.first(q.EVENT_BY_ID, {"id": event_id})


async def require_event(conn: Connection, event_id: int) -> Row:
    """The event, or 404 (no such id) / 400 (the id is another kind of item)."""
    row = await find_event(conn, event_id)
    if row is not None:
        return row
    if 0 < event_id <= 2**31 - 1 and await q.post_type(conn, event_id) is not None:
        raise ApiError("rest-invalid-event-id", "The specified ID is not a valid event.", 400)
    raise NotFound("rest-event-not-found", "Event with ID {id} does not exist.", id=event_id)


async def event_id_by_slug(conn: Connection, slug: str) -> int | None:
    """The event with this slug (normalised like a title), live ones first; any status."""
    wanted = sanitize_slug(slug)
    if not wanted:
        return None
    rows = await conn.all(q.EVENT_IDS_BY_SLUG, {"slug": wanted})
    return int(rows[0]["id"]) if rows else None


async def read_event(
    call: Call, row: Row, *, password: str | None, context_edit: bool
) -> dict[str, Any]:
    """``GET /events/{id}`` decisions (spec events §3.1), after the id was found."""
    if row["status"] == "trash":
        raise Forbidden("event-no-longer-available", "This event is no longer available")
    if row["status"] != "publish" and not can_read(call.actor, _state(row)):
        raise Forbidden("event-not-accessible", "The requested event is not accessible")
    if not password_access(call.actor, row, password, context_edit):
        raise Forbidden(
            "event-password-protected", "The requested event is not accessible without a password"
        )
    return await present(call, row, single=not row["post_password"])


# --- listing ---------------------------------------------------------------------------------


@dataclass(slots=True)
class EventListQuery:
    """``GET /events`` parameters after type checks; dates are raw client values."""

    page: int = 1
    per_page: int = 10
    start_date: Any = None
    end_date: Any = None
    starts_before: Any = None
    starts_after: Any = None
    ends_before: Any = None
    ends_after: Any = None
    strict: bool = False
    search: str | None = None
    category_ids: list[int] | None = None
    category_values: str | None = None
    tag_ids: list[int] | None = None
    tag_values: str | None = None
    venue_ids: list[int] | None = None
    organizer_ids: list[int] | None = None
    featured: bool | None = None
    statuses: list[str] | None = None
    include: list[int] | None = None
    post_parent: int | None = None
    geoloc: bool | None = None
    geoloc_lat: float | None = None
    geoloc_lng: float | None = None
    ticketed: bool | None = None
    context_edit: bool = False
    extra_link_params: list[tuple[str, str]] = field(default_factory=list)


GEOFENCE_KM = 25.0
"""Radius around ``geoloc_lat``/``geoloc_lng`` (the calendar extension's default geofence)."""


def visible_statuses(actor: Actor, requested: list[str] | None) -> tuple[tuple[str, ...], str]:
    """Statuses a listing may show and the ``status`` value its links carry."""
    if requested is not None:
        return tuple(requested), ",".join(requested)
    if actor.can(Cap.EDIT_POSTS):
        return DEFAULT_VISIBLE_STATUSES, "any"
    return ("publish",), "publish"


def status_request_allowed(actor: Actor, statuses: list[str]) -> bool:
    """Callers who cannot edit events may ask for published events only."""
    if actor.can(Cap.EDIT_POSTS):
        return all(s in LISTABLE_STATUSES for s in statuses)
    return statuses == ["publish"]


def _window_value(
    value: Any, strict: bool, site_zone: tzinfo, now: datetime, end: bool
) -> datetime:
    """A date filter as the original applies it (spec events §2.2).

    Whole-day mode: the value's date at 00:00:00 (``start_date``) or 23:59:59 (the others);
    a timestamp's date is taken in UTC. Strict mode: the value read as UTC, shown site-local.
    """
    if strict:
        parsed = date_service.parse_time(value, UTC, now)
        if parsed is None:
            raise invalid("start_date")
        return to_local(parsed.replace(tzinfo=UTC), site_zone)
    is_timestamp = isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit())
    parsed = date_service.parse_time(value, UTC if is_timestamp else site_zone, now)
    if parsed is None:
        raise invalid("start_date")
    return end_of_day(parsed) if end else start_of_day(parsed)


async def list_events(call: Call, query: EventListQuery) -> Page:
    """``GET /events``: filters, visibility, totals and one page of full event objects."""
    site_zone = call.site.zone
    fmt = date_service.format_datetime
    statuses, status_link = visible_statuses(call.actor, query.statuses)
    own_author = None if sees_all_statuses(call.actor) else call.actor.user_id
    if call.actor.is_anonymous or not call.actor.can(Cap.EDIT_POSTS):
        own_author = None

    link: list[tuple[str, str]] = [("page", str(query.page)), ("per_page", str(query.per_page))]
    start_min = end_max = None
    relative = {
        "starts_before": query.starts_before,
        "starts_after": query.starts_after,
        "ends_before": query.ends_before,
        "ends_after": query.ends_after,
    }
    effective: dict[str, datetime | None] = dict.fromkeys(relative)
    if query.include is None:
        any_relative = any(v is not None for v in relative.values())
        start_raw = query.start_date
        end_raw = query.end_date
        if not any_relative:
            default_start, default_end = date_service.default_archive_window(call.now, site_zone)
            if start_raw is None:
                start_raw = (
                    fmt(default_start)
                    if not query.strict
                    else fmt(to_utc(default_start, site_zone))
                )
            if end_raw is None:
                end_raw = (
                    fmt(default_end) if not query.strict else fmt(to_utc(default_end, site_zone))
                )
        if start_raw is not None:
            start_min = _window_value(start_raw, query.strict, site_zone, call.now, end=False)
        if end_raw is not None:
            end_max = _window_value(end_raw, query.strict, site_zone, call.now, end=True)
        for name, raw in relative.items():
            if raw is not None:
                effective[name] = _window_value(raw, query.strict, site_zone, call.now, end=True)

    def link_date(value: datetime) -> str:
        # Strict mode reads values as UTC, so links carry the UTC form to give the same listing.
        return fmt(to_utc(value, site_zone)) if query.strict else fmt(value)

    if start_min is not None:
        link.append(("start_date", link_date(start_min)))
    if end_max is not None:
        link.append(("end_date", link_date(end_max)))
    words, excluded = split_search(query.search) if query.search else ((), ())
    if query.search:
        link.append(("search", query.search))
    if query.category_values is not None:
        link.append(("categories", query.category_values))
    if query.tag_values is not None:
        link.append(("tags", query.tag_values))
    link.append(("status", status_link))
    if query.post_parent is not None:
        link.append(("post_parent", str(query.post_parent)))
    if query.include is not None:
        link.append(("include", ",".join(str(i) for i in query.include)))
    for name, value in effective.items():
        if value is not None:
            link.append((name, link_date(value)))
    if query.strict:
        link.append(("strict_dates", "true"))
    if query.ticketed is not None:
        link.append(("ticketed", "1" if query.ticketed else "0"))
    if query.venue_ids is not None:
        link.append(("venue", ",".join(str(i) for i in query.venue_ids)))
    if query.organizer_ids is not None:
        link.append(("organizer", ",".join(str(i) for i in query.organizer_ids)))
    if query.featured is not None:
        link.append(("featured", "1" if query.featured else "0"))
    if query.geoloc is not None:
        link.append(("geoloc", "1" if query.geoloc else "0"))
    if query.geoloc_lat is not None and query.geoloc_lng is not None:
        link.append(("geoloc_lat", repr(query.geoloc_lat)))
        link.append(("geoloc_lng", repr(query.geoloc_lng)))
    link.extend(query.extra_link_params)

    category_ids = query.category_ids
    if category_ids is not None:
        category_ids = await term_service.with_descendants(
            call.conn, CATEGORY_TAXONOMY, category_ids
        )
    near = None
    if query.geoloc_lat is not None and query.geoloc_lng is not None:
        near = (query.geoloc_lat, query.geoloc_lng, GEOFENCE_KM)
    flt = q.EventListFilter(
        statuses=statuses,
        own_author_id=own_author,
        start_min=start_min,
        end_max=end_max,
        starts_before=effective["starts_before"],
        starts_after=effective["starts_after"],
        ends_before=effective["ends_before"],
        ends_after=effective["ends_after"],
        search_words=words,
        excluded_words=excluded,
        category_ids=tuple(category_ids) if category_ids is not None else None,
        tag_ids=tuple(query.tag_ids) if query.tag_ids is not None else None,
        venue_ids=tuple(query.venue_ids) if query.venue_ids is not None else None,
        organizer_ids=tuple(query.organizer_ids) if query.organizer_ids is not None else None,
        featured=query.featured,
        include=tuple(query.include) if query.include is not None else None,
        parent_id=query.post_parent,
        geoloc=query.geoloc,
        near=near,
        ticketed=query.ticketed,
    )
    total = await q.count_events(call.conn, flt)
    page = Page(items=[], total=total, page=query.page, per_page=query.per_page, link_params=link)
    if page.offset < total:
        rows = await q.page_of_events(call.conn, flt, page.per_page, page.offset)
        related = await load_related(call.conn, rows)
        page.items = [
            event_json(
                row,
                related,
                call.urls,
                call.site,
                protected=not password_access(call.actor, row, None, query.context_edit),
            )
            for row in rows
        ]
    if not page.items and page.page > 1:
        raise NotFound(
            "event-archive-page-not-found", "The requested event archive page does not exist"
        )
    return page


def split_search(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Words of a search (quoted phrases kept whole); ``-word`` excludes (WordPress search)."""
    import re

    terms: list[str] = []
    excluded: list[str] = []
    for match in re.finditer(r'"([^"]*)"?|([^\s",+]+)', text):
        phrase, word = match.group(1), match.group(2)
        item = (phrase if phrase is not None else word).strip()
        if not item:
            continue
        if word is not None and item.startswith("-") and len(item) > 1:
            excluded.append(item[1:])
        elif item != "-":
            terms.append(item)
    return tuple(terms[:12]), tuple(excluded[:12])


# --- writing ---------------------------------------------------------------------------------


class EventInput(TypedDict, total=False):
    """Parsed write parameters; a key is present only when the client sent it."""

    title: str
    description: str
    excerpt: str
    slug: str
    author: int
    date: datetime
    date_utc: datetime
    status: str
    timezone: str
    all_day: bool
    start_date: Any
    end_date: Any
    image: ImageRef
    cost: list[str]
    website: str
    show_map: bool
    show_map_link: bool
    hide_from_listings: bool
    sticky: bool
    featured: bool
    ticketed: bool
    categories: list[term_service.TermValue]
    tags: list[term_service.TermValue]
    venue: list[linked_service.LinkedItem]
    organizer: list[linked_service.LinkedItem]
    post_password: str


def _require_author_change(call: Call, author_id: int) -> None:
    if author_id != call.actor.user_id and not call.actor.can(Cap.EDIT_OTHERS):
        raise Forbidden(
            "rest_cannot_edit_others", "Sorry, you are not allowed to update posts as this user."
        )


def _parse_event_time(name: str, value: Any, zone: tzinfo, now: datetime) -> datetime:
    parsed = date_service.parse_time(value, zone, now)
    if parsed is None:
        raise invalid(name)
    return parsed


def _publication(data: EventInput, site_zone: tzinfo, now: datetime) -> datetime | None:
    """The publication instant from ``date_utc`` (UTC) or ``date`` (site-local), if sent."""
    if "date_utc" in data:
        return data["date_utc"].replace(tzinfo=UTC)
    if "date" in data:
        return to_utc(data["date"], site_zone)
    return None


def _schedule(status: str, published_at: datetime, now: datetime) -> str:
    """WordPress: ``publish`` dated in the future becomes ``future``, and back."""
    if status == "publish" and published_at > now + FUTURE_GRACE:
        return "future"
    if status == "future" and published_at <= now:
        return "publish"
    return status


async def unique_event_slug(conn: Connection, wanted: str, exclude_id: int | None) -> str:
    """``wanted`` or the first free ``wanted-N`` among events (any status, as WordPress)."""
    candidate = wanted
    number = 1
    while True:
        rows = await conn.all(_SLUG_OWNERS, {"slug": candidate})
        if not any(int(r["id"]) != exclude_id for r in rows):
            return candidate
        number += 1
        candidate = numbered(wanted, number)


_SLUG_OWNERS = sa.select(event.c.id).where(event.c.slug == sa.bindparam("slug"))


async def _resolve_terms(
    call: Call, taxonomy: str, values: list[term_service.TermValue]
) -> list[int]:
    resolved = await term_service.resolve_write_terms(call.conn, taxonomy, values)
    ids = list(resolved.ids)
    if resolved.new_names:
        needed = Cap.MANAGE_CATEGORIES if taxonomy == CATEGORY_TAXONOMY else Cap.MANAGE_TAGS
        if not call.actor.can(needed):
            name = "categories" if taxonomy == CATEGORY_TAXONOMY else "tags"
            raise InvalidParams(
                {
                    name: ParamError(
                        "{name} names a term that does not exist: {term}.",
                        name=name,
                        term=resolved.new_names[0],
                    )
                }
            )
        for term_name in resolved.new_names:
            ids.append(await term_service.create_term(call.conn, taxonomy, term_name))
    return ids


@dataclass(slots=True)
class _Dates:
    zone_name: str
    start_local: datetime
    end_local: datetime
    all_day: bool


def _dates(call: Call, data: EventInput, current: Row | None) -> _Dates:
    """Zone, start and end after a write (spec events §4.2 step 3, DEVIATIONS #16)."""
    if "timezone" in data:
        zone_name = canonical_timezone_name(data["timezone"]) or call.site.timezone_name
    elif current is not None:
        zone_name = current["timezone"] or call.site.timezone_name
    else:
        zone_name = call.site.timezone_name
    zone = resolve_timezone(zone_name) or call.site.zone
    if "start_date" in data:
        start = _parse_event_time("start_date", data["start_date"], zone, call.now)
    else:
        assert current is not None
        start = as_local(current["start_local"])
    if "end_date" in data:
        end = _parse_event_time("end_date", data["end_date"], zone, call.now)
    else:
        assert current is not None
        end = as_local(current["end_local"])
    all_day = (
        data["all_day"]
        if "all_day" in data
        else bool(current["all_day"])
        if current is not None
        else False
    )
    if all_day:
        start, end = start_of_day(start), end_of_day(end)
    if end < start:
        raise invalid("end_date", "The end date must not be before the start date.")
    return _Dates(zone_name, start, end, all_day)


TEXT_COLUMNS = ("title", "description", "excerpt", "website", "post_password")
FLAG_COLUMNS = ("show_map", "show_map_link", "hide_from_listings", "sticky", "featured", "ticketed")


def _row_values(call: Call, data: EventInput) -> dict[str, Any]:
    """Column values for the simple fields that were sent."""
    sent: Mapping[str, object] = data
    values: dict[str, Any] = {key: sent[key] for key in TEXT_COLUMNS if key in sent}
    values.update({key: bool(sent[key]) for key in FLAG_COLUMNS if key in sent})
    if "author" in data:
        values["author_id"] = data["author"]
    if "image" in data:
        values["image_id"] = data["image"].image_id
        values["image_url"] = data["image"].image_url
    if "cost" in data:
        stored = store_cost(data["cost"])
        values["cost"] = stored.to_column()
        values["currency_symbol"] = stored.currency_symbol
        values["currency_position"] = stored.currency_position
    return values


def _sent_terms(data: EventInput) -> dict[str, list[term_service.TermValue]]:
    """The term lists a write sent, by taxonomy."""
    sent: dict[str, list[term_service.TermValue]] = {}
    if "categories" in data:
        sent[CATEGORY_TAXONOMY] = data["categories"]
    if "tags" in data:
        sent[TAG_TAXONOMY] = data["tags"]
    return sent


async def _venue_id(call: Call, items: list[linked_service.LinkedItem]) -> int | None:
    ids = await linked_service.resolve_venues(call, items)
    return ids[0] if ids else None


async def create_event(call: Call, data: EventInput) -> dict[str, Any]:
    """``POST /events`` after validation and the create-capability check."""
    actor = call.actor
    author_id = data.get("author", actor.user_id)
    if author_id is not None:
        _require_author_change(call, author_id)
    dates = _dates(call, data, None)
    zone = resolve_timezone(dates.zone_name) or call.site.zone
    explicit_date = _publication(data, call.site.zone, call.now)
    published_at = explicit_date or call.now.replace(microsecond=0)
    status = _schedule(publish_status(actor, data.get("status")), published_at, call.now)
    floating = explicit_date is None and status in ("draft", "pending")
    if "slug" in data:
        wanted = sanitize_slug(data["slug"])
    elif status in LIVE_STATUSES:
        wanted = sanitize_slug(data["title"])
    else:
        wanted = ""
    if status == "trash":
        wanted = trashed(wanted)
    venue_id = await _venue_id(call, data["venue"]) if "venue" in data else None
    organizer_ids = await linked_service.resolve_organizers(call, data.get("organizer", []))
    term_ids: list[int] = []
    for taxonomy, values_sent in _sent_terms(data).items():
        term_ids += await _resolve_terms(call, taxonomy, values_sent)

    values = {
        "title": data["title"],
        "description": "",
        "excerpt": "",
        "website": "",
        "post_password": "",
        "show_map": False,
        "show_map_link": False,
        "hide_from_listings": False,
        "sticky": False,
        "featured": False,
        "ticketed": False,
        "image_id": None,
        "image_url": None,
        "cost": "",
        "currency_symbol": "",
        "currency_position": "",
        **_row_values(call, data),
        "author_id": author_id,
        "status": status,
        "status_before_trash": "draft" if status == "trash" else None,
        "published_at": published_at,
        "date_floating": floating,
        "modified_at": call.now.replace(microsecond=0),
        "parent_id": None,
        "timezone": dates.zone_name,
        "all_day": dates.all_day,
        "start_local": dates.start_local,
        "end_local": dates.end_local,
        "start_at": to_utc(dates.start_local, zone),
        "end_at": to_utc(dates.end_local, zone),
        "venue_id": venue_id,
    }
    event_id = await q.new_post_id(call.conn, "event")
    values["id"] = event_id
    await _insert_with_unique_slug(call.conn, values, wanted, status)
    if organizer_ids:
        await linked_service.set_event_organizers(call.conn, event_id, organizer_ids)
    if term_ids:
        await term_service.set_event_terms(
            call.conn,
            event_id,
            current=set(),
            wanted=set(term_ids),
            was_published=False,
            is_published=status == "publish",
        )
    row = await find_event(call.conn, event_id)
    assert row is not None
    return await present(call, row)


_INSERT_EVENT = sa.insert(event)


async def _insert_with_unique_slug(
    conn: Connection, values: dict[str, Any], wanted: str, status: str
) -> None:
    live = status in LIVE_STATUSES and bool(wanted)
    for _ in range(50):
        slug = await unique_event_slug(conn, wanted, values["id"]) if live else wanted
        try:
            async with conn.savepoint():
                await conn.execute(_INSERT_EVENT.values(**{**values, "slug": slug}))
            return
        except UniqueViolation:
            if not live:
                raise
    raise ApiError("could-not-create-event", "The event could not be created", 500)


_UPDATE_EVENT_BY_ID = event.c.id == sa.bindparam("event_id")


async def _update_with_unique_slug(
    conn: Connection, event_id: int, values: dict[str, Any], wanted: str | None, live: bool
) -> None:
    """Apply column changes; when the slug is set or must be unique, retry on a taken slug."""
    for _ in range(50):
        if wanted is not None:
            values["slug"] = (
                await unique_event_slug(conn, wanted, event_id) if live and wanted else wanted
            )
        try:
            async with conn.savepoint():
                await conn.execute(
                    sa.update(event).where(_UPDATE_EVENT_BY_ID).values(**values),
                    {"event_id": event_id},
                )
            return
        except UniqueViolation:
            if wanted is None or not live:
                raise
    raise ApiError("could-not-update-event", "The event could not be updated", 403)


async def update_event(call: Call, row: Row, data: EventInput) -> dict[str, Any]:
    """Update an event the caller may edit: only the fields that were sent change."""
    actor = call.actor
    event_id = int(row["id"])
    if "author" in data:
        _require_author_change(call, data["author"])
    if "post_password" in data and not can_edit(actor, _state(row)):
        raise Forbidden("rest_forbidden", "Sorry, you are not allowed to do that.")
    values = _row_values(call, data)
    old_status = str(row["status"])
    status = publish_status(actor, data["status"]) if "status" in data else old_status

    date_fields = ("timezone", "start_date", "end_date", "all_day")
    if any(k in data for k in date_fields):
        dates = _dates(call, data, row)
        zone = resolve_timezone(dates.zone_name) or call.site.zone
        values.update(
            timezone=dates.zone_name,
            all_day=dates.all_day,
            start_local=dates.start_local,
            end_local=dates.end_local,
            start_at=to_utc(dates.start_local, zone),
            end_at=to_utc(dates.end_local, zone),
        )

    published_at = as_utc(row["published_at"])
    floating = bool(row["date_floating"])
    explicit_date = _publication(data, call.site.zone, call.now)
    if explicit_date is not None:
        published_at, floating = explicit_date, False
    elif floating and status not in ("draft", "pending", "trash"):
        published_at, floating = call.now.replace(microsecond=0), False
    if status != old_status or explicit_date is not None:
        status = _schedule(status, published_at, call.now)
    values.update(
        published_at=published_at,
        date_floating=floating,
        modified_at=call.now.replace(microsecond=0),
    )

    slug = str(row["slug"])
    wanted: str | None = None
    if "slug" in data:
        wanted = sanitize_slug(data["slug"])
    if status != old_status:
        values["status"] = status
        if old_status == "trash":
            values["status_before_trash"] = None
            if wanted is None:
                wanted = untrashed(slug)
        if status == "trash":
            values["status_before_trash"] = old_status
            wanted = trashed(wanted if wanted is not None else slug)
    if wanted is None and status in LIVE_STATUSES and not slug:
        wanted = sanitize_slug(data.get("title", row["title"]))
    if wanted is None and status in LIVE_STATUSES and old_status not in LIVE_STATUSES:
        wanted = slug

    if "venue" in data:
        values["venue_id"] = await _venue_id(call, data["venue"])
    organizer_ids = (
        await linked_service.resolve_organizers(call, data["organizer"])
        if "organizer" in data
        else None
    )
    term_ids: set[int] | None = None
    current_terms = await term_service.term_ids_of_event(call.conn, event_id)
    if "categories" in data or "tags" in data:
        by_taxonomy = await _current_terms_by_taxonomy(call.conn, current_terms)
        term_ids = set()
        sent_terms = _sent_terms(data)
        for taxonomy in (CATEGORY_TAXONOMY, TAG_TAXONOMY):
            if taxonomy in sent_terms:
                term_ids.update(await _resolve_terms(call, taxonomy, sent_terms[taxonomy]))
            else:
                term_ids.update(by_taxonomy.get(taxonomy, ()))

    await _update_with_unique_slug(call.conn, event_id, values, wanted, status in LIVE_STATUSES)
    if organizer_ids is not None:
        await linked_service.set_event_organizers(call.conn, event_id, organizer_ids)
    was_published = old_status == "publish"
    is_published = status == "publish"
    if term_ids is not None or was_published != is_published:
        await term_service.set_event_terms(
            call.conn,
            event_id,
            current=current_terms,
            wanted=term_ids if term_ids is not None else current_terms,
            was_published=was_published,
            is_published=is_published,
        )
    updated = await find_event(call.conn, event_id)
    assert updated is not None
    return await present(call, updated)


async def _current_terms_by_taxonomy(conn: Connection, ids: set[int]) -> dict[str, set[int]]:
    result: dict[str, set[int]] = {}
    for taxonomy in (CATEGORY_TAXONOMY, TAG_TAXONOMY):
        rows = await term_service.terms_by_ids(conn, taxonomy, sorted(ids))
        result[taxonomy] = set(rows)
    return result


async def trash_event(call: Call, row: Row) -> dict[str, Any]:
    """``DELETE``: move to the trash (410 when already there); never a permanent delete."""
    if row["status"] == "trash":
        raise Gone("event-is-in-trash", "The event is already trashed")
    return await update_event(call, row, {"status": "trash"})


def may_edit(actor: Actor, row: Row) -> bool:
    return can_edit(actor, _state(row))


def may_delete(actor: Actor, row: Row) -> bool:
    return can_delete(actor, _state(row))
