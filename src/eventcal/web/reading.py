"""What the pages read, through the same pipeline as the JSON API: the collections' own argument
tables parse the filters (so a bad value is the same 400 with the same message), the listing
statements select, the service decides permissions and the presenters shape every item. Pages
read as a visitor (never as a logged-in user): they show what anyone may see, and a page is the
same for everyone, so it is cached once.

Pages never write; every read runs in one read transaction opened by :mod:`eventcal.web.app`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any

from eventcal.context import Call
from eventcal.errors import ApiError
from eventcal.http.args import Params, parse_args
from eventcal.http.request import RequestState
from eventcal.i18n import LANGUAGES
from eventcal.resources import service
from eventcal.resources.listing import ListQuery
from eventcal.resources.spec import Resource
from eventcal.resources.translations import slugs_of

MAX_VIEW_EVENTS = 1000
"""Events a grid view shows at most (a month of a very busy site); more are left out."""
LIST_PAGE = 20
"""Events per page of the list view, a venue's or an organizer's upcoming events."""
MAX_OPTIONS = 200
"""Choices a filter menu offers at most (categories, tags, venues, organizers)."""
MAX_SITEMAP = 5000
"""Event pages a sitemap lists (the protocol allows 50,000; the newest come first)."""


@dataclass(slots=True)
class Listed:
    """A page of a listing: its items and how many there are in all."""

    items: list[dict[str, Any]]
    total: int
    pages: int


def _state(call: Call, raw: dict[str, Any]) -> RequestState:
    return RequestState("GET", {}, raw, call)


def _per_page(size: int, page: int = 1) -> Any:
    def narrow(query: ListQuery) -> None:
        query.per_page = size
        query.page = page

    return narrow


async def listing(
    call: Call, collection: str, raw: dict[str, Any], *, size: int, page: int = 1
) -> Listed:
    """One page of a collection's listing for these API parameters (``size`` items)."""
    resource: Resource = call.registry[collection]
    state = _state(call, raw)
    params = await parse_args(resource.listing.args, raw, state)
    # A page past the end is the listing's own 404 (a page of its own, in the language).
    reply = await service.list_page(
        state, resource, params, narrow=_per_page(size, page), path=collection
    )
    body = reply.body
    items = body.get(collection, []) if isinstance(body, dict) else body
    total = int(reply.headers.get("X-TEC-Total", len(items)))
    pages = int(reply.headers.get("X-TEC-TotalPages", 1 if items else 0))
    return Listed(list(items), total, pages)


def _day_text(day: date, *, end: bool) -> str:
    return f"{day.isoformat()} 23:59:59" if end else f"{day.isoformat()} 00:00:00"


async def events_between(
    call: Call, first: date, last: date, filters: dict[str, str]
) -> list[dict[str, Any]]:
    """Every event that covers a day from ``first`` to ``last``: it ends after the day before
    ``first`` and starts before the end of ``last`` (the listing's relative filters, which
    read whole days: ``ends_after`` the day before is "ends on or after ``first``")."""
    raw = {
        **filters,
        "ends_after": (first - timedelta(days=1)).isoformat() if first > date.min else "",
        "starts_before": last.isoformat(),
    }
    return (await listing(call, "events", raw, size=MAX_VIEW_EVENTS)).items


async def events_from(call: Call, first: date, filters: dict[str, str], page: int) -> Listed:
    """Events from a day on, a page at a time (the list view)."""
    raw = {**filters, "start_date": _day_text(first, end=False)}
    last = first + timedelta(days=366 * 5)
    raw["end_date"] = _day_text(min(last, date.max), end=True)
    return await listing(call, "events", raw, size=LIST_PAGE, page=page)


async def upcoming(call: Call, key: str, item_id: int) -> list[dict[str, Any]]:
    """A venue's or an organizer's upcoming events (``key``: the events filter naming it)."""
    raw = {key: str(item_id), "start_date": "now"}
    return (await listing(call, "events", raw, size=LIST_PAGE)).items


async def by_slug(call: Call, collection: str, slug: str) -> dict[str, Any] | None:
    """One item as a single read shows it (with its JSON-LD), or None when a visitor may not
    read it (unknown, draft, private, trashed: all look the same, a 404). A password-protected
    item is shown as its listing shows it to a visitor (content blanked), marked
    ``password_protected``."""
    resource = call.registry[collection]
    state = _state(call, {})
    try:
        row = await service.find_by_slug(state, resource, slug)
        reply = await service.read(state, resource, row, Params({}, frozenset()))
    except ApiError as error:
        if error.code.endswith("-password-protected"):
            return await _as_listed(call, resource, int(row["id"]))
        if error.status in (400, 401, 403, 404, 410):
            return None
        raise
    body: dict[str, Any] = reply.body
    return body


async def slugs(call: Call, collection: str, item: dict[str, Any]) -> dict[str, str]:
    """An item's slug in every language (see :func:`slugs_by_language`): its page in each."""
    resource = call.registry[collection]
    row = await service.find(_state(call, {}), resource, int(item["id"]))
    found = (await slugs_by_language(call, resource, [(int(item["id"]), str(row["slug"]))]))[0]
    return {**found, call.language: str(item["slug"])}


async def slugs_by_language(
    call: Call, resource: Resource, items: Sequence[tuple[int, str]]
) -> list[dict[str, str]]:
    """For ``(id, default-language slug)`` pairs, each item's slug in every language: the
    language's own where it has one, else the default language's, which every language's page
    also finds."""
    translated = await slugs_of(call.conn, resource.name, (item_id for item_id, _ in items))
    default = call.site.default_language
    found = []
    for item_id, slug in items:
        own = translated.get(item_id, {})
        found.append({code: slug if code == default else own.get(code, slug) for code in LANGUAGES})
    return found


async def _as_listed(call: Call, resource: Resource, item_id: int) -> dict[str, Any] | None:
    if "include" not in {arg.name for arg in resource.listing.args}:
        return None
    listed = await listing(call, resource.collection, {"include": str(item_id)}, size=1)
    return {**listed.items[0], "password_protected": True} if listed.items else None


async def options(call: Call, collection: str) -> list[dict[str, Any]]:
    """The choices of a filter menu, by name (terms that have events; every venue and
    organizer a visitor may see)."""
    raw: dict[str, Any] = {}
    if collection in ("categories", "tags"):
        raw = {"orderby": "name", "order": "asc", "hide_empty": "true"}
    return (await listing(call, collection, raw, size=MAX_OPTIONS)).items


async def sitemap_events(call: Call) -> list[tuple[dict[str, Any], dict[str, str]]]:
    """Public events for the sitemap (every date, newest first), read in the default language,
    each with its slug in every language."""
    default = replace(call, language=call.site.default_language)
    raw = {"start_date": "1900-01-01 00:00:00", "end_date": "9999-12-31 23:59:59"}
    events = (await listing(default, "events", raw, size=MAX_SITEMAP)).items
    pairs = [(int(e["id"]), str(e["slug"])) for e in events]
    slugs = await slugs_by_language(call, call.registry["events"], pairs)
    return list(zip(events, slugs, strict=True))
