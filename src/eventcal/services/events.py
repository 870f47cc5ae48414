"""Events: listing, reading, creating, updating and trashing (spec events.md).

Writes change only the fields they were sent (DEVIATIONS #1). Every write runs inside the
request's transaction; a failure anywhere leaves nothing behind.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from functools import partial
from typing import Any, TypedDict, cast

from eventcal.context import Call
from eventcal.errors import ApiError, Forbidden, InvalidParams, NotFound, ParamError, invalid
from eventcal.permissions import Actor, Cap, publish_status
from eventcal.services import dates as date_service
from eventcal.services import linked as linked_service
from eventcal.services import posts, translations
from eventcal.services import terms as term_service
from eventcal.services.cost import store_cost
from eventcal.services.dates import end_of_day, start_of_day
from eventcal.services.media import ImageRef
from eventcal.services.pagination import Page
from eventcal.services.representation import Related, event_json
from eventcal.services.slugs import sanitize_slug
from eventcal.storage import queries as q
from eventcal.storage.db import Connection, Row, as_local
from eventcal.storage.tables import CATEGORY_TAXONOMY, TAG_TAXONOMY, event
from eventcal.timezones import canonical_timezone_name, resolve_timezone, to_local, to_utc

KIND = posts.define_kind("event", event, drafts_get_slugs=False)
GEOFENCE_KM = 25.0
"""Radius around ``geoloc_lat``/``geoloc_lng`` (the calendar extension's default geofence)."""


# --- loading and presenting -----------------------------------------------------------------


async def load_related(call: Call, rows: Sequence[Row]) -> Related:
    """Venues, organizers, terms, images and translations of a page of events: one query per
    relation."""
    conn = call.conn
    related = Related()
    if not rows:
        return related
    event_ids = [int(r["id"]) for r in rows]
    venue_ids = sorted({int(r["venue_id"]) for r in rows if r["venue_id"]})
    if venue_ids:
        venues = await conn.all(q.VENUES_BY_IDS, {"ids": venue_ids})
        related.venues = {int(v["id"]): v for v in venues}
    for row in await conn.all(q.ORGANIZERS_OF_EVENTS, {"ids": event_ids}):
        related.organizers.setdefault(int(row["event_id"]), []).append(row)
    for row in await conn.all(q.TERMS_OF_EVENTS, {"ids": event_ids}):
        related.terms.setdefault(int(row["event_id"]), []).append(row)
    media_ids = {int(r["image_id"]) for r in rows if r["image_id"]}
    media_ids.update(int(v["image_id"]) for v in related.venues.values() if v["image_id"])
    for organizers in related.organizers.values():
        media_ids.update(int(o["image_id"]) for o in organizers if o["image_id"])
    if media_ids:
        media = await conn.all(q.MEDIA_BY_IDS, {"ids": sorted(media_ids)})
        related.media = {int(m["id"]): m for m in media}
    post_ids = [*event_ids, *related.venues]
    post_ids.extend(int(o["id"]) for items in related.organizers.values() for o in items)
    term_ids = [int(t["id"]) for items in related.terms.values() for t in items]
    related.texts = await translations.load(
        conn, call.language, call.site.default_language, post_ids=post_ids, term_ids=term_ids
    )
    return related


def password_access(actor: Actor, row: Row, password: str | None, context_edit: bool) -> bool:
    """Spec README §6.4: no password, or ``context=edit`` with edit rights, or the right one."""
    stored = row["post_password"]
    if not stored:
        return True
    if context_edit and posts.may_edit(actor, row):
        return True
    return password is not None and hmac.compare_digest(password.encode(), stored.encode())


def lock_linked(actor: Actor, related: Related, password: str | None, context_edit: bool) -> None:
    """Mark the embedded venues and organizers whose protected content the caller may not see
    (spec README §6.4: the same rule as their own routes, with the request's ``password``)."""
    rows = [*related.venues.values()]
    rows.extend(o for items in related.organizers.values() for o in items)
    related.locked = {
        int(r["id"]) for r in rows if not password_access(actor, r, password, context_edit)
    }


async def present(
    call: Call,
    row: Row,
    *,
    single: bool = False,
    password: str | None = None,
    context_edit: bool = True,
) -> dict[str, Any]:
    """The event as a response body. Writes answer with ``context_edit`` (the writer sees the
    protected content of what it may edit); reads pass the request's own."""
    related = await load_related(call, [row])
    lock_linked(call.actor, related, password, context_edit)
    return event_json(
        row, related, call.urls, call.site, single=single, own_json_ld=not row["post_password"]
    )


# --- reading ---------------------------------------------------------------------------------


async def find_event(conn: Connection, event_id: int, *, lock: bool = False) -> Row | None:
    return await posts.find(conn, KIND, event_id, lock=lock)


async def require_event(conn: Connection, event_id: int) -> Row:
    """The event, or 404 (no such id) / 400 (the id is another kind of item)."""
    row = await find_event(conn, event_id)
    if row is not None:
        return row
    if 0 < event_id <= posts.MAX_ID and await q.post_type(conn, event_id) is not None:
        raise ApiError("rest-invalid-event-id", "The specified ID is not a valid event.", 400)
    raise NotFound("rest-event-not-found", "Event with ID {id} does not exist.", id=event_id)


async def event_id_by_slug(call: Call, slug: str) -> int | None:
    """The event with this slug in the request's language, else in the default language."""
    return await posts.id_by_slug(call.conn, KIND, slug, call.translating)


async def read_event(
    call: Call, row: Row, *, password: str | None, context_edit: bool
) -> dict[str, Any]:
    """``GET /events/{id}`` decisions (spec events §3.1), after the id was found."""
    if row["status"] == "trash":
        raise Forbidden("event-no-longer-available", "This event is no longer available")
    if not posts.may_read(call.actor, row):
        raise Forbidden("event-not-accessible", "The requested event is not accessible")
    if not password_access(call.actor, row, password, context_edit):
        raise Forbidden(
            "event-password-protected", "The requested event is not accessible without a password"
        )
    return await present(call, row, single=True, password=password, context_edit=context_edit)


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
    is_timestamp = isinstance(value, int) or (
        isinstance(value, str) and value.strip().isascii() and value.strip().isdigit()
    )
    parsed = date_service.parse_time(value, UTC if is_timestamp else site_zone, now)
    if parsed is None:
        raise invalid("start_date")
    return end_of_day(parsed) if end else start_of_day(parsed)


@dataclass(slots=True)
class _Window:
    """The date filters in effect (site-local wall-clock)."""

    start_min: datetime | None = None
    end_max: datetime | None = None
    relative: dict[str, datetime | None] = field(default_factory=dict)


def _date_window(query: EventListQuery, site_zone: tzinfo, now: datetime) -> _Window:
    """Defaults apply only without relative filters; ``include`` ignores every date filter
    (DEVIATIONS #7)."""
    relative = {
        "starts_before": query.starts_before,
        "starts_after": query.starts_after,
        "ends_before": query.ends_before,
        "ends_after": query.ends_after,
    }
    window = _Window(relative=dict.fromkeys(relative))
    if query.include is not None:
        return window
    start_raw, end_raw = query.start_date, query.end_date
    if all(v is None for v in relative.values()):
        default_start, default_end = date_service.default_archive_window(now, site_zone)
        if query.strict:
            default_start, default_end = (
                to_local(to_utc(default_start, site_zone), UTC),
                to_local(to_utc(default_end, site_zone), UTC),
            )
        if start_raw is None:
            start_raw = date_service.format_datetime(default_start)
        if end_raw is None:
            end_raw = date_service.format_datetime(default_end)
    if start_raw is not None:
        window.start_min = _window_value(start_raw, query.strict, site_zone, now, end=False)
    if end_raw is not None:
        window.end_max = _window_value(end_raw, query.strict, site_zone, now, end=True)
    for name, raw in relative.items():
        if raw is not None:
            window.relative[name] = _window_value(raw, query.strict, site_zone, now, end=True)
    return window


def _csv(values: Sequence[int]) -> str:
    return ",".join(str(v) for v in values)


def _flag(value: bool) -> str:
    return "1" if value else "0"


def _link_params(
    query: EventListQuery, window: _Window, status_link: str, site_zone: tzinfo
) -> list[tuple[str, str]]:
    """The listing's effective filters in the original's URL order; every filter is carried,
    so ``next_rest_url`` gives the next page of the same listing (DEVIATIONS #9)."""

    def date(value: datetime) -> str:
        # Strict mode reads values as UTC, so links carry the UTC form to give the same listing.
        return date_service.format_datetime(to_utc(value, site_zone) if query.strict else value)

    link: list[tuple[str, str]] = [("page", str(query.page)), ("per_page", str(query.per_page))]
    if window.start_min is not None:
        link.append(("start_date", date(window.start_min)))
    if window.end_max is not None:
        link.append(("end_date", date(window.end_max)))
    optional: list[tuple[str, str | None]] = [
        ("search", query.search),
        ("categories", query.category_values),
        ("tags", query.tag_values),
        ("status", status_link),
        ("post_parent", None if query.post_parent is None else str(query.post_parent)),
        ("include", None if query.include is None else _csv(query.include)),
    ]
    optional += [(n, None if v is None else date(v)) for n, v in window.relative.items()]
    optional += [
        ("strict_dates", "true" if query.strict else None),
        ("ticketed", None if query.ticketed is None else _flag(query.ticketed)),
        ("venue", None if query.venue_ids is None else _csv(query.venue_ids)),
        ("organizer", None if query.organizer_ids is None else _csv(query.organizer_ids)),
        ("featured", None if query.featured is None else _flag(query.featured)),
        ("geoloc", None if query.geoloc is None else _flag(query.geoloc)),
        ("geoloc_lat", None if query.geoloc_lat is None else repr(query.geoloc_lat)),
        ("geoloc_lng", None if query.geoloc_lng is None else repr(query.geoloc_lng)),
    ]
    link.extend((name, value) for name, value in optional if value is not None)
    return link


def _instant(value: datetime | None, site_zone: tzinfo) -> datetime | None:
    """Window bounds are site-local times; events are compared by the instants they occupy
    (so an all-day event in New York is not inside a UTC site's day: recording 154)."""
    return None if value is None else to_utc(value, site_zone)


def _tuple(values: Sequence[int] | None) -> tuple[int, ...] | None:
    return None if values is None else tuple(values)


async def list_events(call: Call, query: EventListQuery) -> Page:
    """``GET /events``: filters, visibility, totals and one page of full event objects."""
    statuses, status_link = posts.visible_statuses(call.actor, query.statuses)
    window = _date_window(query, call.site.zone, call.now)
    words, excluded = split_search(query.search) if query.search else ((), ())
    category_ids = query.category_ids
    if category_ids is not None:
        category_ids = await term_service.with_descendants(
            call.conn, CATEGORY_TAXONOMY, category_ids
        )
    near = None
    if query.geoloc_lat is not None and query.geoloc_lng is not None:
        near = (query.geoloc_lat, query.geoloc_lng, GEOFENCE_KM)
    zone = call.site.zone
    flt = q.EventListFilter(
        statuses=statuses,
        own_author_id=posts.own_author_filter(call.actor),
        start_min=_instant(window.start_min, zone),
        end_max=_instant(window.end_max, zone),
        starts_before=_instant(window.relative["starts_before"], zone),
        starts_after=_instant(window.relative["starts_after"], zone),
        ends_before=_instant(window.relative["ends_before"], zone),
        ends_after=_instant(window.relative["ends_after"], zone),
        search_words=words,
        excluded_words=excluded,
        search_language=call.translating,
        search_protected=bool(words or excluded) and call.actor.can(Cap.EDIT_OTHERS),
        category_ids=_tuple(category_ids),
        tag_ids=_tuple(query.tag_ids),
        venue_ids=_tuple(query.venue_ids),
        organizer_ids=_tuple(query.organizer_ids),
        featured=query.featured,
        include=_tuple(query.include),
        parent_id=query.post_parent,
        geoloc=query.geoloc,
        near=near,
        ticketed=query.ticketed,
    )
    flt = await q.narrow_search_index(call.conn, flt)
    link = _link_params(query, window, status_link, call.site.zone)
    total = await q.count_events(call.conn, flt)
    page = Page(items=[], total=total, page=query.page, per_page=query.per_page, link_params=link)
    if page.offset < total:
        rows = await q.page_of_events(call.conn, flt, page.per_page, page.offset)
        related = await load_related(call, rows)
        lock_linked(call.actor, related, None, query.context_edit)
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


_SEARCH_TOKEN = re.compile(r'"([^"]*)"?|([^\s",+]+)')
MAX_SEARCH_WORDS = 12


def split_search(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Words of a search (quoted phrases kept whole); ``-word`` excludes (WordPress search)."""
    terms: list[str] = []
    excluded: list[str] = []
    for match in _SEARCH_TOKEN.finditer(text):
        phrase, word = match.group(1), match.group(2)
        item = (phrase if phrase is not None else word).strip()
        if not item:
            continue
        if word is not None and item.startswith("-") and len(item) > 1:
            excluded.append(item[1:])
        elif item != "-":
            terms.append(item)
    return tuple(terms[:MAX_SEARCH_WORDS]), tuple(excluded[:MAX_SEARCH_WORDS])


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


TEXT_COLUMNS = ("title", "description", "excerpt", "website", "post_password")
FLAG_COLUMNS = ("show_map", "show_map_link", "hide_from_listings", "sticky", "featured", "ticketed")
NEW_EVENT_DEFAULTS: dict[str, Any] = {
    "description": "",
    "excerpt": "",
    "website": None,
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
    "parent_id": None,
    "venue_id": None,
}


def _parse_event_time(name: str, value: Any, zone: tzinfo, now: datetime) -> datetime:
    parsed = date_service.parse_time(value, zone, now)
    if parsed is None:
        raise invalid(name)
    return parsed


def _date_columns(call: Call, data: EventInput, current: Row | None) -> dict[str, Any]:
    """Zone, start and end after a write (spec events §4.2 step 3, DEVIATIONS #16).

    Dates are read in the event's zone; a zone change alone keeps the wall-clock times."""
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
    if "all_day" in data:
        all_day = data["all_day"]
    else:
        all_day = bool(current["all_day"]) if current is not None else False
    if all_day:
        start, end = start_of_day(start), end_of_day(end)
    if end < start:
        raise invalid("end_date", "The end date must not be before the start date.")
    return {
        "timezone": zone_name,
        "all_day": all_day,
        "start_local": start,
        "end_local": end,
        "start_at": to_utc(start, zone),
        "end_at": to_utc(end, zone),
    }


def _row_values(data: EventInput) -> dict[str, Any]:
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


async def _resolve_terms(
    call: Call, taxonomy: str, values: list[term_service.TermValue]
) -> list[int]:
    """Term ids for a write; unknown names create terms for callers who may manage them."""
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
            ids.append(await term_service.find_or_create_term(call.conn, taxonomy, term_name))
    return ids


async def _venue_id(call: Call, items: list[linked_service.LinkedItem]) -> int | None:
    ids = await linked_service.resolve_venues(call, items)
    return ids[0] if ids else None


TRANSLATED = {"title": "title", "description": "description", "excerpt": "excerpt", "slug": "slug"}
"""API fields of an event that have a text per language → their columns."""


async def _slug_taken(call: Call, event_id: int, slug: str) -> bool:
    return await posts.slug_taken(call.conn, KIND, slug, event_id)


async def create_event(call: Call, data: EventInput) -> dict[str, Any]:
    """``POST /events`` after validation and the create-capability check. In another language
    than the default, the text is both the default text and that language's (no item is ever
    without a default text)."""
    event_id = await _insert_event(call, data)
    if call.translating:
        _, texts = translations.split(data, TRANSLATED)
        texts.pop("slug", None)  # the default slug comes from the same text
        await translations.store(call.conn, translations.EVENT, event_id, call.language, texts)
    row = await find_event(call.conn, event_id)
    assert row is not None
    return await present(call, row)


async def _insert_event(call: Call, data: EventInput) -> int:
    actor = call.actor
    author_id = data.get("author", actor.user_id)
    posts.require_author_change(actor, author_id)
    dates = _date_columns(call, data, None)
    status, date_columns = posts.new_item_dates(
        data, publish_status(actor, data.get("status")), call.site.zone, call.now
    )
    wanted_slug = posts.new_slug(KIND, data, data["title"], status)
    venue_id = await _venue_id(call, data["venue"]) if "venue" in data else None
    organizer_ids = await linked_service.resolve_organizers(call, data.get("organizer", []))
    term_ids: list[int] = []
    for taxonomy, sent in _sent_terms(data).items():
        term_ids += await _resolve_terms(call, taxonomy, sent)
    event_id = await posts.new_id(call.conn, KIND)
    values = {
        **NEW_EVENT_DEFAULTS,
        **_row_values(data),
        **dates,
        **date_columns,
        "id": event_id,
        "author_id": author_id,
        "status": status,
        "status_before_trash": "draft" if status == "trash" else None,
        "venue_id": venue_id,
    }
    await posts.insert(call.conn, KIND, values, wanted_slug)
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
    return event_id


async def update_event(call: Call, row: Row, data: EventInput) -> dict[str, Any]:
    """Update an event the caller may edit: only the fields that were sent change. In another
    language than the default, the text fields sent set that language's text."""
    actor = call.actor
    event_id = int(row["id"])
    if call.translating:
        shared, texts = translations.split(data, TRANSLATED)
        data = cast(EventInput, shared)
        slug = texts.pop("slug", None)
        await translations.translate_item(
            call.conn,
            translations.EVENT,
            row,
            call.language,
            texts,
            name_field="title",
            explicit_slug=slug,
            taken_by_default=partial(_slug_taken, call, event_id),
            derive_slug=bool(row["slug"]),
        )
    if "author" in data:
        posts.require_author_change(actor, data["author"])
    values = _row_values(data)
    if any(k in data for k in ("timezone", "start_date", "end_date", "all_day")):
        values.update(_date_columns(call, data, row))
    old_status = str(row["status"])
    requested = publish_status(actor, data["status"]) if "status" in data else old_status
    status, date_columns = posts.updated_item_dates(row, data, requested, call.site.zone, call.now)
    values.update(date_columns)
    requested_slug = sanitize_slug(data["slug"]) if "slug" in data else None
    status_values, wanted_slug = posts.status_change(
        KIND, row, status, requested_slug, data.get("title", row["title"])
    )
    values.update(status_values)
    if "venue" in data:
        values["venue_id"] = await _venue_id(call, data["venue"])
    organizer_ids = None
    if "organizer" in data:
        organizer_ids = await linked_service.resolve_organizers(call, data["organizer"])
    current_terms = await term_service.term_ids_of_event(call.conn, event_id)
    term_ids = await _updated_terms(call, data, current_terms)

    await posts.update(call.conn, KIND, event_id, values, wanted_slug=wanted_slug, status=status)
    if organizer_ids is not None:
        await linked_service.set_event_organizers(call.conn, event_id, organizer_ids)
    was_published, is_published = old_status == "publish", status == "publish"
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


async def _updated_terms(call: Call, data: EventInput, current: set[int]) -> set[int] | None:
    """The event's terms after the update, or None when neither taxonomy was sent."""
    sent = _sent_terms(data)
    if not sent:
        return None
    wanted: set[int] = set()
    for taxonomy in (CATEGORY_TAXONOMY, TAG_TAXONOMY):
        if taxonomy in sent:
            wanted.update(await _resolve_terms(call, taxonomy, sent[taxonomy]))
        else:
            kept = await term_service.terms_by_ids(call.conn, taxonomy, sorted(current))
            wanted.update(kept)
    return wanted


async def trash_event(call: Call, row: Row) -> dict[str, Any]:
    """``DELETE``: move to the trash (410 when already there); never a permanent delete."""
    if row["status"] == "trash":
        raise posts.already_trashed(KIND)
    return await update_event(call, row, {"status": "trash"})
