"""What every service call needs: the connection, the caller, the site settings, the clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from eventcal.permissions import Actor
from eventcal.storage.db import Connection
from eventcal.storage.itemcache import ItemCache, Reads
from eventcal.timezones import resolve_timezone

if TYPE_CHECKING:
    from eventcal.resources.registry import Registry

NAMESPACE = "cal/events/v1"


@dataclass(frozen=True, slots=True)
class Site:
    """Site settings as services see them (built once from the app settings)."""

    timezone_name: str
    zone: tzinfo
    posts_per_page: int
    currency_symbol: str
    currency_position: str
    default_language: str
    recurrence_horizon_months: int = 24
    """Occurrences of a series are kept in the database this far ahead (the scheduler extends
    them as time passes)."""
    recurrence_limit: int = 10_000
    """A rule that makes more occurrences than this within the horizon is refused."""
    max_text_chars: int = 65_535
    """Longest description or excerpt a write may send."""
    feed_max_events: int = 2000
    """The most events one iCalendar feed holds."""

    @classmethod
    def build(
        cls,
        timezone_name: str,
        posts_per_page: int,
        currency_symbol: str = "$",
        currency_position: str = "prefix",
        default_language: str = "en",
        *,
        recurrence_horizon_months: int = 24,
        recurrence_limit: int = 10_000,
        max_text_chars: int = 65_535,
        feed_max_events: int = 2000,
    ) -> Site:
        zone = resolve_timezone(timezone_name)
        if zone is None:
            raise ValueError(f"unknown time zone {timezone_name!r}")
        return cls(
            timezone_name=timezone_name,
            zone=zone,
            posts_per_page=posts_per_page,
            currency_symbol=currency_symbol,
            currency_position=currency_position,
            default_language=default_language,
            recurrence_horizon_months=recurrence_horizon_months,
            recurrence_limit=recurrence_limit,
            max_text_chars=max_text_chars,
            feed_max_events=feed_max_events,
        )


@dataclass(frozen=True, slots=True)
class Urls:
    """The URLs responses carry, from the public base URL (``https://example.org``).

    ``home`` starts public pages (``{home}/event/{slug}/``); ``rest`` is the namespace root
    (``{home}/cal/events/v1``); ``global_id`` prefixes are the host without port plus the path.
    """

    home: str
    rest: str
    global_id_base: str
    base: str = ""
    """The public URL without a language segment."""

    @classmethod
    def build(cls, public_url: str, language_segment: str = "") -> Urls:
        """``language_segment`` (``de``) keeps a request's ``/de/cal/events/v1`` form in every
        URL built; global ids name the item whatever the language, so they never carry it."""
        base = public_url.rstrip("/")
        parts = urlsplit(base)
        host = parts.hostname or ""
        home = f"{base}/{language_segment}" if language_segment else base
        return cls(
            home=home,
            rest=f"{home}/{NAMESPACE}",
            global_id_base=f"{host}{parts.path}",
            base=base,
        )

    def global_id(self, item_id: int) -> str:
        return f"{self.global_id_base}?id={item_id}"


@dataclass(slots=True)
class Call:
    """One request's view of the world, passed explicitly to services."""

    conn: Connection
    actor: Actor
    site: Site
    urls: Urls
    now: datetime
    """The current UTC instant (aware) — one clock reading per request."""
    registry: Registry
    """Every collection (cross-collection work looks its targets up here)."""
    language: str = "en"
    items: ItemCache | None = None
    """The process's built items, synced with the change log for this request (reads only)."""
    items_epoch: int = 0
    """The item cache's epoch after this request's sync (see ``ItemCache.put``)."""
    reads: Reads | None = None
    """What the response is built from, when its endpoint reports it (the steps that read
    note it here; see ``http/conditional.py``)."""

    @property
    def translating(self) -> str | None:
        """The call's language when it is not the site's default (writes set translations,
        slug lookups try that language first), else None."""
        return self.language if self.language != self.site.default_language else None
