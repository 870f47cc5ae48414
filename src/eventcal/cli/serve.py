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
    )
    server.serve()
    return 0
