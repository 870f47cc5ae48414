"""The application factory: ``create_app(settings)`` → ASGI app."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime

from starlette.applications import Starlette
from starlette.routing import Mount

from eventcal.api import Services, build_router
from eventcal.config import Settings, load_settings
from eventcal.errors import ConfigError
from eventcal.services import dates as date_service
from eventcal.services import scheduling
from eventcal.services.context import Site
from eventcal.storage import migrate
from eventcal.storage.db import Database, create_database, sqlite_path

log = logging.getLogger("eventcal")


def site_from(settings: Settings) -> Site:
    return Site.build(
        settings.site_timezone,
        settings.posts_per_page,
        settings.currency_symbol,
        settings.currency_position,
        settings.default_language,
    )


def create_app(
    settings: Settings | None = None,
    *,
    database: Database | None = None,
    clock: Callable[[], datetime] | None = None,
) -> Starlette:
    """Build the ASGI app. The database opens in the lifespan, not at import time."""
    settings = settings or load_settings()
    db = database or create_database(
        settings.database_url,
        pool_size=settings.db_pool_size,
        busy_timeout_ms=settings.sqlite_busy_timeout_ms,
    )
    services = Services(
        database=db,
        site=site_from(settings),
        public_url=settings.public_url,
        clock=clock or (lambda: datetime.now(UTC)),
    )
    router = build_router(services)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if settings.is_sqlite:
            _require_schema(settings)
        await db.startup()
        date_service.warm_up()
        scheduler = asyncio.create_task(_publish_scheduled(db, services.clock))
        try:
            yield
        finally:
            scheduler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await scheduler
            await db.shutdown()

    app = Starlette(routes=[Mount("", app=router)], lifespan=lifespan)
    app.state.services = services
    app.state.settings = settings
    app.state.router = router
    return app


async def _publish_scheduled(db: Database, clock: Callable[[], datetime]) -> None:
    """Publish scheduled items when their time comes, in every process (it is idempotent)."""
    while True:
        try:
            await scheduling.publish_due(db, clock())
        except Exception:
            log.exception("publishing scheduled items failed; retrying later")
        await asyncio.sleep(scheduling.INTERVAL_SECONDS)


def _require_schema(settings: Settings) -> None:
    """The embedded database must be at the code's schema revision (``eventcal serve`` migrates
    it first; other deployments run ``eventcal migrate``)."""
    current = migrate.current_revision_sqlite(sqlite_path(settings.database_url))
    head = migrate.head_revision()
    if current != head:
        raise ConfigError(
            f"the database schema is at {current or 'nothing'}, the code needs {head}: "
            "run `eventcal migrate`"
        )


def asgi() -> Starlette:
    """Entry point for servers (``granian --factory eventcal.app:asgi``)."""
    settings = load_settings()
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s %(message)s"
    )
    return create_app(settings)
