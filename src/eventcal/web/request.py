"""A page request: which page the path names, in which language, with which filters.

Paths (each also under ``/de`` and ``/es``, and the views under ``/calendar/embed``)::

    /calendar/                      the month view (the default view)
    /calendar/{month|week|day|list}/?date=YYYY-MM-DD&category=…&tag=…&venue=…&organizer=…&search=…
    /calendar/event/{slug}/         an event
    /calendar/event/{slug}/{date}/  the occurrence of a recurring event on a date
    /calendar/venue/{slug}/  /calendar/organizer/{slug}/
    /calendar/sitemap.xml           public event pages
    /calendar/static/{version}/{file}

``/event/{slug}/``, ``/venue/{slug}/`` and ``/organizer/{slug}/`` (the ``url`` of items in the
JSON) redirect to the calendar's pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from eventcal.errors import ApiError
from eventcal.i18n import LANGUAGES, N_
from eventcal.web.grid import VIEWS
from eventcal.web.links import FILTERS

_LANG = "(?:/(?P<lang>" + "|".join(LANGUAGES) + "))?"
PAGE_PATH = re.compile(
    rf"^{_LANG}/calendar(?P<embed>/embed)?(?P<rest>/.*)?$",
    re.IGNORECASE,
)
ITEM_REDIRECT = re.compile(rf"^{_LANG}/(?P<kind>event|venue|organizer)/(?P<slug>[^/]+)/?$")
_VIEW = re.compile(r"^/(?P<view>" + "|".join(VIEWS) + r")/?$", re.IGNORECASE)
_ITEM = re.compile(r"^/(?P<kind>event|venue|organizer)/(?P<slug>[^/]+)(?:/(?P<day>[^/]+))?/?$")
_STATIC = re.compile(r"^/static/(?P<version>[A-Za-z0-9-]+)/(?P<name>[A-Za-z0-9._-]+)$")
_DAY = re.compile(r"^(\d{4})-(\d{2})(?:-(\d{2}))?$", re.ASCII)
MAX_SEARCH = 200
FIRST_DAY = date(1900, 1, 1)
LAST_DAY = date(2999, 12, 31)
"""The dates pages show: every view around them (whole weeks, the next month) stays within
what dates and the listing's parameters can express."""


class PageProblem(ApiError):
    """A page that cannot be shown: 400 (a bad value) or 404, rendered as an HTML page."""


def not_found() -> PageProblem:
    return PageProblem("page_not_found", N_("There is no page at this address."), 404)


def bad_value(name: str) -> PageProblem:
    return PageProblem(
        "page_bad_value",
        N_("The value of “{name}” is not one this page understands."),
        400,
        name=name,
    )


@dataclass(slots=True)
class PageRequest:
    kind: str
    """``view``, ``event``, ``venue``, ``organizer``, ``sitemap`` or ``static``."""
    segment: str = ""
    embed: bool = False
    view: str = "month"
    slug: str = ""
    day: date | None = None
    """The occurrence's date (event pages)."""
    static: tuple[str, str] = ("", "")
    filters: dict[str, str] = field(default_factory=dict)
    page: int = 1


def parse_day(value: str, name: str) -> date:
    """``YYYY-MM-DD`` or ``YYYY-MM`` (the first of the month) from 1900 to 2999, else a 400."""
    found = _DAY.fullmatch(value.strip())
    if not found:
        raise bad_value(name)
    year, month, day = int(found[1]), int(found[2]), int(found[3] or 1)
    try:
        found_day = date(year, month, day)
    except ValueError:
        raise bad_value(name) from None
    if not FIRST_DAY <= found_day <= LAST_DAY:
        raise bad_value(name)
    return found_day


def _one(query: dict[str, Any], name: str) -> str | None:
    value = query.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise bad_value(name)
    return value.strip()


def read_filters(query: dict[str, Any]) -> tuple[dict[str, str], date | None, int]:
    """The page's filters, its date and its page number (unknown parameters are ignored: a
    link's tracking parameters must not break the page)."""
    filters: dict[str, str] = {}
    for name in FILTERS:
        value = _one(query, name)
        if value:
            if name == "search" and len(value) > MAX_SEARCH:
                raise bad_value(name)
            if name in ("venue", "organizer") and not (value.isascii() and value.isdigit()):
                raise bad_value(name)
            filters[name] = value
    raw_day = _one(query, "date")
    day = parse_day(raw_day, "date") if raw_day else None
    raw_page = _one(query, "page") or "1"
    if not (raw_page.isascii() and raw_page.isdigit()) or not 1 <= int(raw_page) <= 10_000:
        raise bad_value("page")
    return filters, day, int(raw_page)


def parse(path: str, query: dict[str, Any]) -> PageRequest | None:
    """The page a path names (None: not ours); raises a 404 for paths under ``/calendar``
    that name nothing."""
    found = PAGE_PATH.match(path)
    if found is None:
        return None
    segment = (found["lang"] or "").lower()
    embed = bool(found["embed"])
    rest = found["rest"] or "/"
    page = PageRequest("view", segment=segment, embed=embed)
    if rest == "/":
        pass
    elif (view := _VIEW.match(rest)) is not None:
        page.view = view["view"].lower()
    elif not embed and rest.lower() == "/sitemap.xml":
        page.kind = "sitemap"
        return page
    elif not embed and (static := _STATIC.match(rest)) is not None:
        page.kind = "static"
        page.static = (static["version"], static["name"])
        return page
    elif not embed and (item := _ITEM.match(rest)) is not None:
        page.kind = item["kind"].lower()
        page.slug = item["slug"]
        if item["day"] is not None:
            if page.kind != "event":
                raise not_found()
            page.day = parse_day(item["day"], "date")
        return page
    else:
        raise not_found()
    page.filters, page.day, page.page = read_filters(query)
    return page
