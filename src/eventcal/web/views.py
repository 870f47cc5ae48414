"""The pages: each view reads through :mod:`eventcal.web.reading` and names its template and
what the template shows. Views never write and never branch on a collection's kind beyond
naming the collection they read."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any
from urllib.parse import urlencode

from eventcal.context import Call
from eventcal.timezones import to_local
from eventcal.web import reading
from eventcal.web.grid import Day, covered_days, group_by_day, place, shift, view_days
from eventcal.web.links import Links, google_calendar
from eventcal.web.request import FIRST_DAY, LAST_DAY, PageRequest, not_found

FILTER_MENUS = (("category", "categories"), ("tag", "tags"))
"""Filters offered as menus of terms (venues and organizers are menus too, by id)."""


@dataclass(slots=True)
class Page:
    """A page to render: its template, what it shows, and the API URL matching it."""

    template: str
    context: dict[str, Any]
    api_root: str
    title: str = ""
    canonical: str = ""
    alternates: dict[str, str] = field(default_factory=dict)
    """The page in each language, when its URL is not the same path under each prefix (an
    item's slug may differ by language)."""
    cacheable: bool = True
    """False when the page moves with the clock, not only with the data and the date
    (upcoming events end during the day)."""


Menus = dict[str, list[tuple[str, str]]]
MENU_SETS = 16
"""Menus kept at once (one set per language and day, all of the newest data version)."""


@dataclass(slots=True)
class MenuCache:
    """The filter menus, kept in the process by the data version they were read at: like the
    response cache, valid while the version is the same (any write, in any process, moves it),
    per language and site day."""

    kept: dict[tuple[int, date, str], Menus] = field(default_factory=dict)

    async def get(self, call: Call, version: int) -> Menus:
        """The menus for ``call``; ``version`` was read before any of the request's data."""
        key = (version, today(call), call.language)
        found = self.kept.get(key)
        if found is None:
            found = await _menus(call)
            # Older versions never match again; other languages of this one still may.
            kept = {k: v for k, v in self.kept.items() if k[0] >= version}
            self.kept = kept if len(kept) < MENU_SETS else {}
            self.kept[key] = found
        return found


@dataclass(frozen=True, slots=True)
class Shared:
    """What a request's view may take from the process: the menus at the request's version."""

    menus: MenuCache
    version: int

    async def filter_menus(self, call: Call) -> Menus:
        return await self.menus.get(call, self.version)


def today(call: Call) -> date:
    return to_local(call.now, call.site.zone).date()


async def _menus(call: Call) -> Menus:
    """``filter → [(value, label)]`` for the filter form (terms by slug, places by id)."""
    menus: dict[str, list[tuple[str, str]]] = {}
    for name, collection in FILTER_MENUS:
        items = await reading.options(call, collection)
        menus[name] = [(str(t["slug"]), str(t["name"])) for t in items]
    for name, collection, label in (
        ("venue", "venues", "venue"),
        ("organizer", "organizers", "organizer"),
    ):
        items = await reading.options(call, collection)
        menus[name] = [(str(t["id"]), str(t.get(label, ""))) for t in items]
    return menus


def _api_filters(filters: dict[str, str]) -> dict[str, str]:
    names = {"category": "categories", "tag": "tags"}
    return {names.get(k, k): v for k, v in filters.items()}


def _api_root(links: Links, filters: dict[str, str]) -> str:
    params = urlencode(list(_api_filters(filters).items()))
    return f"{links.rest}/events" + (f"?{params}" if params else "")


async def calendar_view(call: Call, page: PageRequest, links: Links, shared: Shared) -> Page:
    """The month, week, day or list view around the request's date."""
    day = page.day or today(call)
    filters = _api_filters(page.filters)
    view = page.view
    context: dict[str, Any] = {
        "view": view,
        "day": day,
        "today": today(call),
        "filters": page.filters,
        "menus": await shared.filter_menus(call),
        "previous": _step(links, view, day, -1, page.filters),
        "next": _step(links, view, day, 1, page.filters),
        "feed": links.feed(page.filters),
        "webcal": links.webcal(page.filters),
    }
    if view == "list":
        listed = await reading.events_from(call, day, filters, page.page)
        context["days"] = group_by_day(listed.items)
        context["previous"] = links.view(view, day, page.filters, page=page.page - 1 or None)
        context["next"] = (
            links.view(view, day, page.filters, page=page.page + 1)
            if page.page < listed.pages
            else ""
        )
        if page.page == 1:
            context["previous"] = _step(links, "month", day, -1, page.filters, view="list")
    else:
        days: list[Day] = view_days(view, day)
        events = await reading.events_between(call, days[0].date, days[-1].date, filters)
        place(days, events)
        context["days"] = days
        context["weeks"] = [days[i : i + 7] for i in range(0, len(days), 7)]
    # An embed's canonical page is the calendar's own; a list page past the first is its own.
    full = replace(links.for_language(call.language), embed=False)
    more = page.page if view == "list" and page.page > 1 else None
    canonical = full.view(view, page.day, page.filters, page=more)
    return Page(f"{view}.html", context, _api_root(links, page.filters), canonical=canonical)


def _step(
    links: Links,
    unit: str,
    day: date,
    steps: int,
    filters: dict[str, str],
    *,
    view: str = "",
) -> str:
    """The link to the view ``steps`` units away, or "" past the dates pages show."""
    moved = shift(unit, day, steps)
    if not FIRST_DAY <= moved <= LAST_DAY:
        return ""
    return links.view(view or unit, moved, filters)


def _event_extras(event: dict[str, Any], links: Links, url: str) -> dict[str, Any]:
    first, last = covered_days(event)
    return {
        "first_day": first,
        "last_day": last,
        "ics": links.event_ics(int(event["id"])),
        "google": google_calendar(event, url),
    }


async def event_page(call: Call, page: PageRequest, links: Links, shared: Shared) -> Page:
    """One event (or, with a date, the occurrence of a recurring event on that date)."""
    event = await reading.by_slug(call, "events", page.slug)
    if event is None:
        raise not_found()
    if page.day is not None:
        event = await _occurrence(call, event, page.day)
    slugs = await reading.slugs(call, "events", event)
    alternates = {code: links.for_language(code).event(slug) for code, slug in slugs.items()}
    canonical = alternates[call.language]
    context = {"event": event, **_event_extras(event, links, canonical)}
    api_root = f"{links.rest}/events/{event['id']}"
    title = str(event["title"])
    return Page("event.html", context, api_root, title, canonical, alternates)


async def _occurrence(call: Call, event: dict[str, Any], day: date) -> dict[str, Any]:
    series_id = event.get("series_id")
    if not series_id:
        if covered_days(event)[0] == day:
            return event
        raise not_found()
    for candidate in await reading.events_between(call, day, day, {}):
        if candidate.get("series_id") == series_id and covered_days(candidate)[0] == day:
            found = await reading.by_slug(call, "events", str(candidate["slug"]))
            if found is not None:
                return found
    raise not_found()


async def place_page(call: Call, page: PageRequest, links: Links, shared: Shared) -> Page:
    """A venue or an organizer with its upcoming events."""
    collection, key = ("venues", "venue") if page.kind == "venue" else ("organizers", "organizer")
    item = await reading.by_slug(call, collection, page.slug)
    if item is None:
        raise not_found()
    events = await reading.upcoming(call, key, int(item["id"]))
    slugs = await reading.slugs(call, collection, item)
    alternates = {
        code: links.for_language(code).venue(slug)
        if key == "venue"
        else links.for_language(code).organizer(slug)
        for code, slug in slugs.items()
    }
    canonical = alternates[call.language]
    name = str(item.get(key, ""))
    context: dict[str, Any] = {
        "item": item,
        "kind": key,
        "name": name,
        "days": group_by_day(events),
        "feed": links.feed({key: str(item["id"])}),
        "webcal": links.webcal({key: str(item["id"])}),
    }
    api_root = f"{links.rest}/events?{key}={item['id']}"
    return Page("place.html", context, api_root, name, canonical, alternates, cacheable=False)


async def sitemap(call: Call, page: PageRequest, links: Links, shared: Shared) -> Page:
    entries = []
    for event, slugs in await reading.sitemap_events(call):
        alternates = [(code, links.for_language(code).event(slug)) for code, slug in slugs.items()]
        modified = str(event.get("modified_utc", ""))[:10]
        # Every language's page is an entry of its own, naming all of them (hreflang).
        entries += [(url, modified, alternates) for _, url in alternates]
    return Page("sitemap.xml", {"entries": entries}, f"{links.rest}/events")


VIEWS = {
    "view": calendar_view,
    "event": event_page,
    "venue": place_page,
    "organizer": place_page,
    "sitemap": sitemap,
}
