"""The pages' URLs: views, items, feeds, "add to calendar" links, alternates per language.

Every URL is built here from the public base (or the request's origin) and the page's language
prefix, so pages, the sitemap and the JSON's ``url`` of items agree. Feed URLs use the iCalendar
routes of the namespace (``{rest}/events.ics``, ``{rest}/events/{id}.ics``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Any
from urllib.parse import quote, urlencode

from eventcal.context import NAMESPACE
from eventcal.i18n import LANGUAGES
from eventcal.web.grid import covered_days

ROOT = "/calendar"
FILTERS = ("category", "tag", "venue", "organizer", "search")
"""The page's filter parameters, in the order links write them."""
FEED_PARAMS = {
    "category": "categories",
    "tag": "tags",
    "venue": "venue",
    "organizer": "organizer",
    "search": "search",
}
"""Page filter → the events listing's parameter of the same meaning."""
GOOGLE = "https://calendar.google.com/calendar/render"


@lru_cache(maxsize=8192)
def _segment(slug: str) -> str:
    """A slug as one path segment (a month page links the same slugs on every build)."""
    return quote(slug, safe="")


@dataclass(frozen=True, slots=True)
class Links:
    """URLs of one page: ``base`` is ``scheme://host``, ``segment`` the language prefix
    (``de``), ``embed`` whether links stay inside the embeds."""

    base: str
    segment: str = ""
    embed: bool = False
    default_language: str = "en"
    language: str = ""
    """The page's language when it is not the site's default: feeds are asked for it (a
    calendar app subscribing sends no ``Accept-Language`` of the visitor's)."""

    @property
    def home(self) -> str:
        return f"{self.base}/{self.segment}" if self.segment else self.base

    @property
    def root(self) -> str:
        """``{home}/calendar`` (``/calendar/embed`` inside embeds)."""
        return f"{self.home}{ROOT}/embed" if self.embed else f"{self.home}{ROOT}"

    @property
    def rest(self) -> str:
        return f"{self.base}/{NAMESPACE}"

    def for_language(self, language: str) -> Links:
        segment = "" if language == self.default_language else language
        return Links(self.base, segment, self.embed, self.default_language, self.language)

    def view(self, view: str, day: date | None, filters: dict[str, str], **extra: Any) -> str:
        params = [(name, filters[name]) for name in FILTERS if filters.get(name)]
        if day is not None:
            params.insert(0, ("date", day.isoformat()))
        params.extend((k, str(v)) for k, v in extra.items() if v is not None)
        query = f"?{urlencode(params)}" if params else ""
        return f"{self.root}/{view}/{query}"

    def event(self, slug: str, day: date | None = None) -> str:
        suffix = f"{day.isoformat()}/" if day is not None else ""
        return f"{self.home}{ROOT}/event/{_segment(slug)}/{suffix}"

    def venue(self, slug: str) -> str:
        return f"{self.home}{ROOT}/venue/{_segment(slug)}/"

    def organizer(self, slug: str) -> str:
        return f"{self.home}{ROOT}/organizer/{_segment(slug)}/"

    def static(self, name: str, version: str) -> str:
        return f"{self.base}{ROOT}/static/{version}/{name}"

    def event_ics(self, event_id: int) -> str:
        query = f"?translation_language={self.language}" if self.language else ""
        return f"{self.rest}/events/{event_id}.ics{query}"

    def feed(self, filters: dict[str, str]) -> str:
        """The events feed with the page's filters (``https://…/events.ics?categories=…``)."""
        params = [(FEED_PARAMS[n], filters[n]) for n in FILTERS if filters.get(n)]
        if self.language:
            params.append(("translation_language", self.language))
        return f"{self.rest}/events.ics" + (f"?{urlencode(params)}" if params else "")

    def webcal(self, filters: dict[str, str]) -> str:
        """The same feed for calendar apps (``webcal://`` subscribes instead of downloading)."""
        feed = self.feed(filters)
        return "webcal://" + feed.split("://", 1)[1]


def google_calendar(event: dict[str, Any], page_url: str) -> str:
    """A Google Calendar "add event" template link for an event (times in UTC, whole days as
    dates with an exclusive end)."""
    if event.get("all_day"):
        first, last = covered_days(event)
        dates = f"{first:%Y%m%d}/{last + timedelta(days=1):%Y%m%d}"
    else:
        start = event["utc_start_date"].replace("-", "").replace(":", "").replace(" ", "T")
        end = event["utc_end_date"].replace("-", "").replace(":", "").replace(" ", "T")
        dates = f"{start}Z/{end}Z"
    venue = event.get("venue")
    location = ""
    if isinstance(venue, dict):
        parts = (venue.get("venue"), venue.get("address"), venue.get("city"), venue.get("country"))
        location = ", ".join(str(p) for p in parts if p)
    params = {
        "action": "TEMPLATE",
        "text": event.get("title", ""),
        "dates": dates,
        "details": page_url,
        "location": location,
    }
    if event.get("timezone"):
        params["ctz"] = event["timezone"]
    return f"{GOOGLE}?{urlencode(params)}"


def alternates(links: Links, path_and_query: str) -> list[tuple[str, str]]:
    """``(language, URL)`` of the page in every language (``hreflang`` alternates): the same
    path under each language's prefix."""
    return [(code, links.for_language(code).home + path_and_query) for code in LANGUAGES]
