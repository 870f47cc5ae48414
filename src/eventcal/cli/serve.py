"""``eventcal serve``."""

from __future__ import annotations

import argparse
from typing import Any

from eventcal.config import Settings
from eventcal.storage import migrate
from eventcal.storage.db import sqlite_path


def register(commands: Any) -> None:
    serve = commands.add_parser(
        "serve", help="serve the API (migrates the embedded database first)"
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    serve.set_defaults(handler=run)


def run(args: argparse.Namespace, settings: Settings) -> int:
    from granian import Granian
    from granian.constants import Interfaces
    from granian.http import HTTP1Settings
    from granian.log import LogLevels

    if settings.is_sqlite:
        path = sqlite_path(settings.database_url)
        # Workers are forked from this process: Alembic loaded here would stay in each one.
        if migrate.current_revision_sqlite(path) != migrate.SCHEMA_REVISION:
            migrate.upgrade(settings.database_url)
    server = Granian(
        "eventcal.app:asgi",
        address=args.host,
        port=args.port,
        interface=Interfaces.ASGI,
        workers=max(1, args.workers),
        factory=True,
        log_level=LogLevels(settings.log_level.lower()),
        # Requests a worker takes at once. Granian's default (its listen backlog, 1024) let
        # ~1,000 clients sending their bodies slowly keep every other client out until the
        # body timeout (408) freed them; a waiting request costs the worker a few KB.
        backpressure=settings.max_concurrent_requests,
        # Clients that send their request line and headers slowly are cut off (granian
        # closes the connection); slow bodies meet EVENTCAL_BODY_TIMEOUT_SECONDS (408).
        http1_settings=HTTP1Settings(
            header_read_timeout=max(1, round(settings.header_timeout_seconds * 1000))
        ),
    )
    server.serve()
    return 0
