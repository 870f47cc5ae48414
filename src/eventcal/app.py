"""The application factory: ``create_app(settings)`` → ASGI app."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from starlette.types import Receive, Scope, Send

from eventcal import logs, memory
from eventcal.collections import REGISTRY
from eventcal.config import Settings, load_settings
from eventcal.context import Site
from eventcal.domains.accounts import credentials
from eventcal.domains.accounts.throttle import LoginPolicy
from eventcal.domains.media import store as media_store
from eventcal.errors import ConfigError
from eventcal.http import files, health
from eventcal.http.conditional import ResponseCache
from eventcal.http.docs_ui import DocsUi
from eventcal.http.reading import BodyLimits
from eventcal.http.router import Router, Runtime
from eventcal.permissions import Actor
from eventcal.resources import dates as date_service
from eventcal.resources import scheduling
from eventcal.resources.index import route_table
from eventcal.resources.registry import Registry
from eventcal.storage import idempotency, migrate
from eventcal.storage.db import (
    Database,
    DatabaseNotMigrated,
    DatabaseUnavailable,
    create_database,
    sqlite_path,
)
from eventcal.storage.itemcache import ItemCache
from eventcal.web.app import Pages

log = logging.getLogger("eventcal")

IDEMPOTENCY_PURGE_SECONDS = 3600


def site_from(settings: Settings) -> Site:
    return Site.build(
        settings.site_timezone,
        settings.posts_per_page,
        settings.currency_symbol,
        settings.currency_position,
        settings.default_language,
        recurrence_horizon_months=settings.recurrence_horizon_months,
        recurrence_limit=settings.recurrence_max_occurrences,
        max_text_chars=settings.max_text_chars,
        feed_max_events=settings.feed_max_events,
    )


def login_policy_from(settings: Settings) -> LoginPolicy:
    return LoginPolicy(
        max_failures_per_login=settings.login_max_failures,
        max_failures_per_address=settings.login_max_failures_per_address,
        window=timedelta(seconds=settings.login_window_seconds),
        failure_delay=settings.login_failure_delay_ms / 1000,
        trusted_proxies=tuple(
            ipaddress.ip_network(proxy, strict=False) for proxy in settings.trusted_proxies
        ),
    )


def create_app(
    settings: Settings | None = None,
    *,
    database: Database | None = None,
    clock: Callable[[], datetime] | None = None,
    worker: bool = False,
) -> App:
    """Build the ASGI app. The database opens in the lifespan, not at import time. A server's
    ``worker`` settles its memory once started (:func:`eventcal.memory.settle`)."""
    settings = settings or load_settings()
    db = database or create_database(
        settings.database_url,
        pool_size=settings.db_pool_size,
        busy_timeout_ms=settings.sqlite_busy_timeout_ms,
    )
    now = clock or (lambda: datetime.now(UTC))
    policy = login_policy_from(settings)

    async def log_in(login: str, password: str, address: str) -> Actor:
        user = await credentials.log_in(
            db, login, password, address=address, now=now(), policy=policy
        )
        return user.actor()

    items = ItemCache(settings.item_cache_mb * 1024 * 1024)
    runtime = Runtime(
        database=db,
        site=site_from(settings),
        public_url=settings.public_url,
        clock=now,
        cache=ResponseCache(settings.response_cache_mb * 1024 * 1024, items),
        items=items,
        log_in=log_in,
        trusted_proxies=policy.trusted_proxies,
        registry=REGISTRY,
        limits=BodyLimits(
            max_bytes=settings.max_body_bytes,
            max_multipart_bytes=settings.max_multipart_bytes,
            max_upload_bytes=settings.max_upload_bytes,
            max_parts=settings.max_multipart_parts,
            read_timeout=settings.body_timeout_seconds,
        ),
        idempotency_ttl=timedelta(hours=settings.idempotency_ttl_hours),
    )
    router = Router(route_table(REGISTRY), runtime)

    @contextlib.asynccontextmanager
    async def lifespan() -> AsyncIterator[None]:
        if settings.is_sqlite:
            _require_schema(settings)
            await db.startup()
        else:
            # A database server that is down must not keep the process from starting: it
            # answers 503 (and /readyz says not ready) until the server is back.
            # A database that answers with an older schema stops the worker (one line).
            try:
                await db.startup()
            except DatabaseNotMigrated as exc:
                raise ConfigError(str(exc)) from None
            except DatabaseUnavailable:
                log.warning("the database is unavailable at startup; retrying on demand")
        date_service.warm_up()
        background = [
            asyncio.create_task(_scheduler(db, REGISTRY, runtime.site, now)),
            asyncio.create_task(_purge_idempotency_keys(db, now)),
            asyncio.create_task(memory.release_periodically()),
        ]
        try:
            yield
        finally:
            for task in background:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await db.shutdown()

    return App(router, runtime, settings, lifespan, worker=worker)


class App:
    """The ASGI application: health checks for load balancers, the API reference page
    (``{ns}/doc/ui``), the calendar pages (``/calendar/…``), the namespace, the lifespan.

    ``GET /healthz`` answers while the process runs; ``GET /readyz`` also needs the database.
    """

    def __init__(
        self,
        router: Router,
        runtime: Runtime,
        settings: Settings,
        lifespan: Callable[[], contextlib.AbstractAsyncContextManager[None]],
        *,
        worker: bool = False,
    ) -> None:
        self.router = router
        self.lifespan = lifespan
        self.worker = worker
        self.docs_ui = DocsUi(
            default_language=runtime.site.default_language, public_url=settings.public_url
        )
        self.pages = Pages(runtime, settings.embed_origins)
        self.state = SimpleNamespace(runtime=runtime, settings=settings, router=router)
        database = runtime.database

        async def stored_file(digest: str) -> files.File | None:
            return await media_store.file_by_hash(database, digest)

        self.files = files.Files(stored_file)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "http":
            path = scope["path"]
            if path == "/healthz":
                await health.healthz()(scope, receive, send)
            elif path == "/readyz":
                await (await health.readyz(self.state.runtime.database))(scope, receive, send)
            elif files.handles(path):
                await self.files(scope, receive, send)
            elif self.docs_ui.handles(path):
                await self.docs_ui(scope, receive, send)
            elif self.pages.handles(path):
                await self.pages(scope, receive, send)
            else:
                await self.router(scope, receive, send)
        elif kind == "lifespan":
            await self._lifespan(receive, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        message = await receive()
        if message["type"] != "lifespan.startup":
            return
        context = self.lifespan()
        try:
            await context.__aenter__()
        except ConfigError as exc:
            log.error("startup failed: %s", exc)
            await send({"type": "lifespan.startup.failed", "message": str(exc)})
            return
        except Exception as exc:
            log.exception("startup failed")
            await send({"type": "lifespan.startup.failed", "message": str(exc)})
            return
        if self.worker:
            memory.settle()
        await send({"type": "lifespan.startup.complete"})
        message = await receive()
        try:
            await context.__aexit__(None, None, None)
        finally:
            # Workers end without the interpreter's exit handlers (the access lines waiting).
            logs.flush()
            await send({"type": "lifespan.shutdown.complete"})


async def _scheduler(
    db: Database, registry: Registry, site: Site, clock: Callable[[], datetime]
) -> None:
    """Publish scheduled items when their time comes and extend recurring series, in every
    process (every step is idempotent). A problem is logged when it starts or changes and once
    more when it is over, not every round."""
    problem = ""
    while True:
        try:
            await scheduling.run(db, registry, site, clock())
        except Exception as exc:
            now = f"{type(exc).__name__}: {exc}"
            if now != problem:
                # An outage or an unmigrated database is a known state: no traceback.
                expected = isinstance(exc, DatabaseUnavailable)
                log.warning(
                    "the scheduler cannot run (%s); retrying every %s s",
                    now,
                    scheduling.INTERVAL_SECONDS,
                    exc_info=not expected,
                )
            problem = now
        else:
            if problem:
                log.info("the scheduler runs again")
            problem = ""
        await asyncio.sleep(scheduling.INTERVAL_SECONDS)


async def _purge_idempotency_keys(db: Database, clock: Callable[[], datetime]) -> None:
    """Delete expired idempotency keys now and then, in every process (it is idempotent;
    the first run waits an interval, so starting a process writes nothing)."""
    while True:
        await asyncio.sleep(IDEMPOTENCY_PURGE_SECONDS)
        try:
            async with db.transaction(versioned=False) as conn:
                await idempotency.purge(conn, clock())
        except Exception:
            log.exception("purging expired idempotency keys failed; retrying later")


def _require_schema(settings: Settings) -> None:
    """The embedded database must be at the code's schema revision (``eventcal serve`` migrates
    it first; other deployments run ``eventcal migrate``)."""
    try:
        migrate.require(migrate.current_revision_sqlite(sqlite_path(settings.database_url)))
    except DatabaseNotMigrated as exc:
        raise ConfigError(str(exc)) from None


def asgi() -> App:
    """Entry point for servers (``granian --factory eventcal.app:asgi``)."""
    settings = load_settings()
    logs.configure(settings.log_level, access_log=settings.access_log)
    return create_app(settings, worker=True)
