"""Health checks for load balancers: ``/healthz`` answers while the process runs, ``/readyz``
also needs the database."""

from __future__ import annotations

import logging

from eventcal.http.errors import error_body, not_migrated_error
from eventcal.http.responses import Outgoing, json_response
from eventcal.storage.db import Database, DatabaseNotMigrated, DatabaseUnavailable, data_version

log = logging.getLogger("eventcal.http")

NO_STORE = {"Cache-Control": "no-store"}


def healthz() -> Outgoing:
    return json_response({"status": "ok"}, 200, dict(NO_STORE))


async def readyz(database: Database) -> Outgoing:
    """Ready when the database answers; 503 with ``Retry-After`` otherwise."""
    try:
        async with database.read() as conn:
            version = await data_version(conn)
    except DatabaseNotMigrated as exc:
        # Reachable but not ready: only an operator's `eventcal migrate` changes that.
        error = not_migrated_error(exc)
        return json_response(error_body(error), 503, {**NO_STORE, **error.headers})
    except Exception as exc:
        # An outage is a known state (no traceback on every check); anything else is a bug.
        known = isinstance(exc, DatabaseUnavailable)
        log.warning("readiness check: the database is unavailable: %s", exc, exc_info=not known)
        body = {
            "code": "db_unavailable",
            "message": "The database is unavailable. Try again shortly.",
            "data": {"status": 503},
        }
        return json_response(body, 503, {**NO_STORE, "Retry-After": "5"})
    return json_response({"status": "ready", "data_version": version}, 200, dict(NO_STORE))
