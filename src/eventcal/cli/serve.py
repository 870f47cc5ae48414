"""``eventcal serve``: one JSON start-up line (version, database, workers, the settings that
differ from the defaults), then Granian, whose own lines are JSON too, so standard error holds
JSON only."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

from eventcal import __version__, logs
from eventcal.cli.database import SERVE, Refused, describe, prepare
from eventcal.config import Settings
from eventcal.storage.db import DatabaseUnavailable


def register(commands: Any) -> None:
    serve = commands.add_parser(
        "serve", help="serve the API (creates or migrates the embedded database first)"
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    serve.set_defaults(handler=run, database=SERVE)


def changed_settings(settings: Settings) -> dict[str, Any]:
    """The settings that differ from the defaults (the database is named on its own)."""
    defaults = Settings()
    return {
        f.name: getattr(settings, f.name)
        for f in dataclasses.fields(Settings)
        if f.name not in ("database_url", "extra")
        and getattr(settings, f.name) != getattr(defaults, f.name)
    }


def run(args: argparse.Namespace, settings: Settings) -> int:
    workers = max(1, args.workers)
    fields: dict[str, Any] = {
        "version": __version__,
        "database": describe(settings.database_url),
        "address": f"{args.host}:{args.port}",
        "workers": workers,
        "settings": changed_settings(settings),
    }
    level = "INFO"
    try:
        done = prepare(settings, creates=True)
        if done:
            fields["schema"] = done
    except Refused as exc:
        _print(logs.line("ERROR", str(exc), **fields))
        return 1
    except DatabaseUnavailable as exc:
        # A database server that is down does not keep the service from starting: requests
        # get 503 (and /readyz says why) until it is back; its schema is checked then.
        level, fields["database_error"] = "WARNING", str(exc)
    _print(logs.line(level, "starting", **fields))
    return _serve(args, settings, workers)


def _print(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _serve(args: argparse.Namespace, settings: Settings, workers: int) -> int:
    from granian import Granian
    from granian.constants import Interfaces
    from granian.http import HTTP1Settings
    from granian.log import LogLevels

    server = Granian(
        "eventcal.app:asgi",
        address=args.host,
        port=args.port,
        interface=Interfaces.ASGI,
        workers=workers,
        factory=True,
        log_level=LogLevels(settings.log_level.lower()),
        log_dictconfig=logs.granian_config(),
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
