"""Settings: one typed object built from the ``EVENTCAL_*`` environment variables.

This module is the only reader of ``os.environ``. Everything else receives a :class:`Settings`.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from urllib.parse import urlsplit

from eventcal.errors import ConfigError
from eventcal.i18n import LANGUAGES
from eventcal.timezones import resolve_timezone

DEFAULT_DATABASE_URL = "sqlite:///./eventcal.db"


_EMBED_ORIGIN = re.compile(r"https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?", re.ASCII)
"""An origin the embeds' ``frame-ancestors`` may name (nothing that could end the directive)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Site settings (spec README §11) and deployment settings."""

    database_url: str = DEFAULT_DATABASE_URL
    """SQLAlchemy-style URL: ``sqlite:///path.db`` (embedded default) or ``postgresql://…``."""
    site_timezone: str = "UTC"
    """IANA zone or ``UTC±h`` offset used for site-local dates and as the default event zone."""
    posts_per_page: int = 10
    """Default ``per_page`` of every archive."""
    public_url: str | None = None
    """Base of the URLs the API returns (``rest_url``, ``url``); else taken from the request."""
    default_language: str = "en"
    currency_symbol: str = "$"
    currency_position: str = "prefix"
    db_pool_size: int = 10
    """PostgreSQL connections per process."""
    sqlite_busy_timeout_ms: int = 10_000
    log_level: str = "INFO"
    access_log: bool = True
    """One JSON line per request (logger ``eventcal.access``)."""
    response_cache_mb: int = 24
    """Per-process cache of built GET responses (0 turns it off)."""
    item_cache_mb: int = 40
    """Per-process cache of built items and listing totals (0 turns it off): 40 MB hold the
    bench's 10,000 single events (``bench/README.md``)."""
    login_max_failures: int = 10
    """Failed HTTP Basic logins for one user login within the window before it is refused."""
    login_max_failures_per_address: int = 30
    """Failed logins from one client address within the window before it is refused."""
    login_window_seconds: int = 900
    """A window starts at its first failure; refusals (429) last until it ends."""
    login_failure_delay_ms: int = 500
    """Each failed login is answered this much later."""
    recurrence_horizon_months: int = 24
    """Occurrences of recurring series are stored this many months ahead."""
    recurrence_max_occurrences: int = 10_000
    """A recurrence rule that makes more occurrences within the horizon is refused (400)."""
    feed_max_events: int = 2000
    """The most events one iCalendar feed holds; a feed matching more is refused (400)."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks of the proxies in front of the service: only requests coming from
    them have their client address taken from ``X-Forwarded-For``."""
    max_body_bytes: int = 1_048_576
    """Largest request body read (JSON, form-urlencoded, any other type); beyond it 413."""
    max_multipart_bytes: int = 2_097_152
    """Largest ``multipart/form-data`` body (an endpoint that takes files may allow more)."""
    max_upload_bytes: int = 16_777_216
    """Largest body sent to an endpoint that takes files (media uploads)."""
    max_multipart_parts: int = 1000
    max_text_chars: int = 65_535
    """Longest description or excerpt (characters) a write may send; beyond it 400 naming the
    field. The text renderers are linear in it (``bench/text_bench.py``)."""
    """Parts (fields and files) of one multipart body; beyond it 413."""
    body_timeout_seconds: float = 30.0
    """Time a request body may take to arrive; past it 408 ``rest_request_timeout``."""
    header_timeout_seconds: float = 10.0
    """Time a client may take to send the request line and headers (the server closes the
    connection past it; ``eventcal serve`` only)."""
    max_concurrent_requests: int = 10_000
    """Requests one worker process handles at once (``eventcal serve`` only): a connection
    beyond it waits to be accepted. A waiting request costs a few KB."""
    idempotency_ttl_hours: int = 24
    """How long the first response to an ``Idempotency-Key`` is replayed."""
    embed_origins: tuple[str, ...] = ()
    """Origins (``https://example.org``) whose pages may frame the calendar's embeds
    (``/calendar/embed/…``); nothing else may frame a page."""
    extra: Mapping[str, str] = field(default_factory=dict)

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    def with_overrides(self, **changes: object) -> Settings:
        """Return a copy with some fields changed (tests and the CLI use it)."""
        settings = replace(self, **changes)  # type: ignore[arg-type]
        settings.validate()
        return settings

    def validate(self) -> None:
        """Refuse values the service cannot run with, with a message naming the variable."""
        scheme = urlsplit(self.database_url).scheme
        if not (scheme.startswith(("sqlite", "postgres"))):
            raise ConfigError(
                "EVENTCAL_DATABASE_URL must start with sqlite:/// or postgresql://, "
                f"got {self.database_url!r}"
            )
        if resolve_timezone(self.site_timezone) is None:
            raise ConfigError(f"EVENTCAL_SITE_TIMEZONE: unknown time zone {self.site_timezone!r}")
        if self.posts_per_page < 1:
            raise ConfigError("EVENTCAL_POSTS_PER_PAGE must be a positive integer")
        if self.public_url is not None:
            parts = urlsplit(self.public_url)
            if parts.scheme not in ("http", "https") or not parts.netloc:
                raise ConfigError(
                    f"EVENTCAL_PUBLIC_URL must be an absolute http(s) URL, got {self.public_url!r}"
                )
        if self.response_cache_mb < 0:
            raise ConfigError("EVENTCAL_RESPONSE_CACHE_MB must be 0 or more")
        for origin in self.embed_origins:
            if not _EMBED_ORIGIN.fullmatch(origin):
                raise ConfigError(
                    "EVENTCAL_EMBED_ORIGINS must be comma-separated origins like "
                    f"https://example.org, got {origin!r}"
                )
        if self.item_cache_mb < 0:
            raise ConfigError("EVENTCAL_ITEM_CACHE_MB must be 0 or more")
        if self.default_language not in LANGUAGES:
            raise ConfigError(f"EVENTCAL_DEFAULT_LANGUAGE must be one of {', '.join(LANGUAGES)}")
        if self.currency_position not in ("prefix", "postfix"):
            raise ConfigError("EVENTCAL_CURRENCY_POSITION must be prefix or postfix")
        if self.db_pool_size < 1:
            raise ConfigError("EVENTCAL_DB_POOL_SIZE must be a positive integer")
        for name, value in (
            ("EVENTCAL_LOGIN_MAX_FAILURES", self.login_max_failures),
            ("EVENTCAL_LOGIN_MAX_FAILURES_PER_ADDRESS", self.login_max_failures_per_address),
            ("EVENTCAL_LOGIN_WINDOW_SECONDS", self.login_window_seconds),
        ):
            if value < 1:
                raise ConfigError(f"{name} must be a positive integer")
        if not 1 <= self.recurrence_horizon_months <= 120:
            raise ConfigError("EVENTCAL_RECURRENCE_HORIZON_MONTHS must be between 1 and 120")
        if not 1 <= self.recurrence_max_occurrences <= 100_000:
            raise ConfigError("EVENTCAL_RECURRENCE_MAX_OCCURRENCES must be between 1 and 100000")
        if not 1 <= self.feed_max_events <= 100_000:
            raise ConfigError("EVENTCAL_FEED_MAX_EVENTS must be between 1 and 100000")
        if not 0 <= self.login_failure_delay_ms <= 60_000:
            raise ConfigError("EVENTCAL_LOGIN_FAILURE_DELAY_MS must be between 0 and 60000")
        self._validate_limits()
        for proxy in self.trusted_proxies:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise ConfigError(
                    f"EVENTCAL_TRUSTED_PROXIES: {proxy!r} is not an IP address or network"
                ) from None

    def _validate_limits(self) -> None:
        for name, value, low, high in (
            ("EVENTCAL_MAX_BODY_BYTES", self.max_body_bytes, 1024, 2**31),
            ("EVENTCAL_MAX_MULTIPART_BYTES", self.max_multipart_bytes, 1024, 2**31),
            ("EVENTCAL_MAX_UPLOAD_BYTES", self.max_upload_bytes, 1024, 2**31),
            ("EVENTCAL_MAX_MULTIPART_PARTS", self.max_multipart_parts, 1, 100_000),
            ("EVENTCAL_MAX_TEXT_CHARS", self.max_text_chars, 1000, 1_000_000),
            ("EVENTCAL_BODY_TIMEOUT_SECONDS", self.body_timeout_seconds, 0.1, 3600),
            ("EVENTCAL_HEADER_TIMEOUT_SECONDS", self.header_timeout_seconds, 0.1, 3600),
            ("EVENTCAL_MAX_CONCURRENT_REQUESTS", self.max_concurrent_requests, 1, 1_000_000),
            ("EVENTCAL_IDEMPOTENCY_TTL_HOURS", self.idempotency_ttl_hours, 1, 24 * 365),
        ):
            if not low <= value <= high:
                raise ConfigError(f"{name} must be between {low} and {high}, got {value}")


def _int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be an integer, got {raw!r}") from None


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)  # NaN and infinities fail the range checks of validate()
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {raw!r}") from None


def _list(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """A comma-separated list; blank entries left out."""
    return tuple(item.strip() for item in env.get(name, "").split(",") if item.strip())


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    """Build the settings from the environment (or from ``env`` when given)."""
    source = os.environ if env is None else env
    public_url = source.get("EVENTCAL_PUBLIC_URL") or None
    settings = Settings(
        database_url=source.get("EVENTCAL_DATABASE_URL") or DEFAULT_DATABASE_URL,
        site_timezone=source.get("EVENTCAL_SITE_TIMEZONE") or "UTC",
        posts_per_page=_int(source, "EVENTCAL_POSTS_PER_PAGE", 10),
        public_url=public_url.rstrip("/") if public_url else None,
        default_language=source.get("EVENTCAL_DEFAULT_LANGUAGE") or "en",
        currency_symbol=source.get("EVENTCAL_CURRENCY_SYMBOL", "$"),
        currency_position=source.get("EVENTCAL_CURRENCY_POSITION") or "prefix",
        db_pool_size=_int(source, "EVENTCAL_DB_POOL_SIZE", 10),
        sqlite_busy_timeout_ms=_int(source, "EVENTCAL_SQLITE_BUSY_TIMEOUT_MS", 10_000),
        log_level=(source.get("EVENTCAL_LOG_LEVEL") or "INFO").upper(),
        access_log=(source.get("EVENTCAL_ACCESS_LOG") or "1").strip().lower()
        not in ("0", "false", "no", "off"),
        response_cache_mb=_int(source, "EVENTCAL_RESPONSE_CACHE_MB", 24),
        item_cache_mb=_int(source, "EVENTCAL_ITEM_CACHE_MB", 40),
        login_max_failures=_int(source, "EVENTCAL_LOGIN_MAX_FAILURES", 10),
        login_max_failures_per_address=_int(source, "EVENTCAL_LOGIN_MAX_FAILURES_PER_ADDRESS", 30),
        login_window_seconds=_int(source, "EVENTCAL_LOGIN_WINDOW_SECONDS", 900),
        login_failure_delay_ms=_int(source, "EVENTCAL_LOGIN_FAILURE_DELAY_MS", 500),
        recurrence_horizon_months=_int(source, "EVENTCAL_RECURRENCE_HORIZON_MONTHS", 24),
        recurrence_max_occurrences=_int(source, "EVENTCAL_RECURRENCE_MAX_OCCURRENCES", 10_000),
        feed_max_events=_int(source, "EVENTCAL_FEED_MAX_EVENTS", 2000),
        trusted_proxies=_list(source, "EVENTCAL_TRUSTED_PROXIES"),
        max_body_bytes=_int(source, "EVENTCAL_MAX_BODY_BYTES", 1_048_576),
        max_multipart_bytes=_int(source, "EVENTCAL_MAX_MULTIPART_BYTES", 2_097_152),
        max_upload_bytes=_int(source, "EVENTCAL_MAX_UPLOAD_BYTES", 16_777_216),
        max_multipart_parts=_int(source, "EVENTCAL_MAX_MULTIPART_PARTS", 1000),
        max_text_chars=_int(source, "EVENTCAL_MAX_TEXT_CHARS", 65_535),
        body_timeout_seconds=_float(source, "EVENTCAL_BODY_TIMEOUT_SECONDS", 30.0),
        header_timeout_seconds=_float(source, "EVENTCAL_HEADER_TIMEOUT_SECONDS", 10.0),
        max_concurrent_requests=_int(source, "EVENTCAL_MAX_CONCURRENT_REQUESTS", 10_000),
        idempotency_ttl_hours=_int(source, "EVENTCAL_IDEMPOTENCY_TTL_HOURS", 24),
        embed_origins=_list(source, "EVENTCAL_EMBED_ORIGINS"),
    )
    settings.validate()
    return settings
